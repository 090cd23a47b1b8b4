//! Child processes of the tests: none outlives its test, and what they say on standard error
//! goes to the test's captured output (shown when the test fails), never to the terminal.

use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};

/// `program`, to be run as a child of the test that can never outlive it: it is killed when
/// the thread that started it ends, whether the test passed, failed or was interrupted
/// (`PR_SET_PDEATHSIG`), and its standard error is piped (see [`forward_stderr`]).
pub fn command(program: impl AsRef<std::ffi::OsStr>) -> Command {
    let mut command = Command::new(program);
    command.stderr(Stdio::piped());
    // SAFETY: prctl is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        command.pre_exec(|| {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // The test may already have ended between fork and prctl.
            if libc::getppid() == 1 {
                return Err(std::io::Error::other("the test has ended"));
            }
            Ok(())
        });
    }
    command
}

/// Passes `child`'s standard error, line by line, to the test's captured output (a thread
/// started by the test writes where the test writes).
pub fn forward_stderr(child: &mut Child) {
    let Some(stderr) = child.stderr.take() else {
        return;
    };
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            eprintln!("{line}");
        }
    });
}

/// Starts `command` with its standard error forwarded to the test's output.
pub fn spawn(command: &mut Command) -> Child {
    let mut child = command.spawn().expect("the process starts");
    forward_stderr(&mut child);
    child
}

/// Reads `child`'s standard output (piped) until `count` of its lines contain `needle`: how
/// many did (fewer when the output ended first).
pub fn await_lines(child: &mut Child, needle: &str, count: usize) -> usize {
    use std::io::{BufRead, BufReader};
    let stdout = child.stdout.take().expect("a piped standard output");
    BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .filter(|line| line.contains(needle))
        .take(count)
        .count()
}

/// Sends SIGINT to `child`, as Ctrl-C does.
pub fn interrupt(child: &Child) {
    send(child, libc::SIGINT);
}

/// Sends SIGTERM to `child`, as a service manager stops a service.
pub fn terminate(child: &Child) {
    send(child, libc::SIGTERM);
}

/// Sends `signal` to `child`.
fn send(child: &Child, signal: libc::c_int) {
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    // SAFETY: kill has no memory effects; the pid is our own child's, not yet reaped.
    let sent = unsafe { libc::kill(pid, signal) };
    assert_eq!(sent, 0, "cannot signal process {pid}");
}

/// Waits for `child` to end, `within` at most (its status asked every 10 ms): its status, or
/// `None` if it did not end in time.
pub fn ends_within(
    child: &mut Child,
    within: std::time::Duration,
) -> Option<std::process::ExitStatus> {
    let deadline = std::time::Instant::now() + within;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            _ => return None,
        }
    }
}

/// The lines `output` gives (a child's standard output or error), as a thread reads them.
pub fn lines_of(output: impl std::io::Read + Send + 'static) -> std::sync::mpsc::Receiver<String> {
    let (sent, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(output).lines().map_while(Result::ok) {
            if sent.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

/// The address of a live command's page (`play`, `online` with `--listen --json`), read from
/// the lines of its standard error (`the game's page is at URL`), a minute at most.
pub fn page_address(said: &std::sync::mpsc::Receiver<String>) -> String {
    loop {
        let line = said
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the command says where its page is");
        if let Some(url) = line.split("the game's page is at ").nth(1) {
            return url.to_owned();
        }
    }
}

/// The JSON lines a live command prints (`--json`), read as they come.
pub struct JsonEvents {
    lines: std::sync::mpsc::Receiver<String>,
    /// Every event read so far, in order.
    pub seen: Vec<serde_json::Value>,
}

impl JsonEvents {
    /// The events of `stdout` (a child's standard output).
    pub fn of(stdout: impl std::io::Read + Send + 'static) -> JsonEvents {
        JsonEvents {
            lines: lines_of(stdout),
            seen: Vec::new(),
        }
    }

    /// Reads events until one is `done` (two minutes at most between two), and gives it.
    pub fn until(&mut self, done: impl Fn(&serde_json::Value) -> bool) -> serde_json::Value {
        loop {
            let line = self
                .lines
                .recv_timeout(std::time::Duration::from_secs(120))
                .unwrap_or_else(|_| panic!("the command went quiet; so far: {:?}", self.seen));
            let event: serde_json::Value = serde_json::from_str(&line).expect("JSON");
            self.seen.push(event.clone());
            if done(&event) {
                return event;
            }
        }
    }

    /// Reads what is left, the command having ended.
    pub fn rest(&mut self) {
        while let Ok(line) = self.lines.recv_timeout(std::time::Duration::from_secs(60)) {
            self.seen.push(serde_json::from_str(&line).expect("JSON"));
        }
    }
}

/// Passes the lines a child says (its standard error, read by [`lines_of`]) on to the test's.
pub fn forward(said: std::sync::mpsc::Receiver<String>) {
    std::thread::spawn(move || {
        while let Ok(line) = said.recv() {
            eprintln!("{line}");
        }
    });
}
