//! `touchmove watch` run as a process for a latency bench: its standard output's lines, each
//! with the instant it was read.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::thread;
use std::time::Instant;

/// The watch process and its stdout lines, each with the instant it was read; killed when
/// dropped.
pub struct Watch {
    child: Child,
    pub lines: Receiver<(Instant, String)>,
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `touchmove watch --json ARGS`, its standard error dropped, `env` set.
pub fn spawn_watch(args: &[&str], env: &[(&str, &str)]) -> Watch {
    let mut child = Command::new(env!("CARGO_BIN_EXE_touchmove"))
        .args(["watch", "--json"])
        .args(args)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("watch starts");
    let stdout = child.stdout.take().expect("piped");
    let (send, lines) = channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if send.send((Instant::now(), line)).is_err() {
                break;
            }
        }
    });
    Watch { child, lines }
}
