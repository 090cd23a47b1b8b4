//! Running `touchmove emulate dgt` (or `hall`) as a real process and reading the port it prints.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::thread;
use std::time::Duration;

/// A guard on a whole conversation with the emulator.
pub const DEADLINE: Duration = Duration::from_secs(30);

/// The project's root directory (where `fixtures/` is).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Opens the emulator's pseudo-terminal at `baud` as a host would, reads timing out after
/// 100 ms.
pub fn open_port(path: &str, baud: u32) -> serialport::TTYPort {
    serialport::new(path, baud)
        .timeout(Duration::from_millis(100))
        .open_native()
        .expect("the pseudo-terminal opens")
}

/// The emulator process; killed when dropped.
pub struct Emulator {
    pub child: Child,
    /// Lines of standard output after the first; closed when the process ends.
    pub lines: Receiver<String>,
    /// What its player types at the host (`promote n`, a promotion's piece the board cannot
    /// tell), as the emulator says on standard error (with `-v`); taken by whoever relays it.
    pub typed: Option<Receiver<String>>,
    /// The board's stable name: a link to its pseudo-terminal, removed when the board goes (a
    /// freed `/dev/pts/N` is given to the next program that opens a pseudo-terminal; a host
    /// still trying the link then finds no port, never another program's terminal).
    pub port: String,
    /// The folder of the link.
    _links: tempfile::TempDir,
    /// The pseudo-terminal itself, held open (never read) until the board is dropped: the
    /// kernel gives its number to no other program meanwhile, so a host still trying the link
    /// after the board went finds a dead terminal, never another test's board. Tests that
    /// watch boards can then run side by side.
    _held: std::fs::File,
}

impl Drop for Emulator {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.port);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `touchmove emulate dgt ARGS` and reads the port from its first line.
pub fn emulate(args: &[&str]) -> Emulator {
    emulate_board("dgt", args)
}

/// Starts `touchmove emulate BOARD ARGS` and reads the port from its first line; its standard
/// error goes to the test's output.
pub fn emulate_board(board: &str, args: &[&str]) -> Emulator {
    emulate_with(board, args, Stdio::piped())
}

/// Starts `touchmove emulate BOARD ARGS`, its standard error to `stderr` (piped: to the test's
/// output), and reads the port from its first line.
pub fn emulate_with(board: &str, args: &[&str], stderr: Stdio) -> Emulator {
    let mut child = super::bin()
        .args(["emulate", board])
        .args(args)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("the emulator starts");
    let typed = forward_typed(&mut child);
    let stdout = child.stdout.take().expect("piped stdout");
    let (send, lines) = channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if send.send(line).is_err() {
                break;
            }
        }
    });
    let first = lines.recv_timeout(DEADLINE).expect("a first line");
    let pty = first
        .strip_prefix("port: ")
        .unwrap_or_else(|| panic!("`port: PATH` expected, got `{first}`"));
    let links = tempfile::Builder::new()
        .prefix("touchmove-board-")
        .tempdir()
        .expect("a folder for the board's link");
    let link = links.path().join(format!("{board}-board"));
    std::os::unix::fs::symlink(pty, &link).expect("the board's link");
    let held = {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOCTTY)
            .open(pty)
            .expect("the board's pseudo-terminal, held")
    };
    Emulator {
        child,
        lines,
        typed,
        port: link.display().to_string(),
        _links: links,
        _held: held,
    }
}

/// Passes `child`'s standard error to the test's output, as
/// [`super::child::forward_stderr`] does, and what it says its player types at the host
/// (`` at the host: `promote n` ``) to the receiver returned (`None`: its standard error is not
/// piped).
fn forward_typed(child: &mut Child) -> Option<Receiver<String>> {
    let stderr = child.stderr.take()?;
    let (send, typed) = channel();
    thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            eprintln!("{line}");
            let text = line
                .split("at the host: `")
                .nth(1)
                .and_then(|rest| rest.split('`').next());
            if let Some(text) = text {
                let _ = send.send(text.to_owned());
            }
        }
    });
    Some(typed)
}
