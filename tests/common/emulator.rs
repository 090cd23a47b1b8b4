//! Running `touchmove emulate dgt` (or `hall`) as a real process and reading the port it prints.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
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
    pub port: String,
}

impl Drop for Emulator {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `touchmove emulate dgt ARGS` and reads the port from its first line.
pub fn emulate(args: &[&str]) -> Emulator {
    emulate_board("dgt", args)
}

/// Starts `touchmove emulate BOARD ARGS` and reads the port from its first line.
pub fn emulate_board(board: &str, args: &[&str]) -> Emulator {
    emulate_with(board, args, Stdio::inherit())
}

/// Starts `touchmove emulate BOARD ARGS`, its standard error to `stderr`, and reads the port
/// from its first line.
pub fn emulate_with(board: &str, args: &[&str], stderr: Stdio) -> Emulator {
    let mut child = Command::new(env!("CARGO_BIN_EXE_touchmove"))
        .args(["emulate", board])
        .args(args)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("the emulator starts");
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
    let port = first
        .strip_prefix("port: ")
        .unwrap_or_else(|| panic!("`port: PATH` expected, got `{first}`"))
        .to_owned();
    Emulator { child, lines, port }
}
