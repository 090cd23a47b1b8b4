//! A full disk loses nothing, proven on a real full file system: a small tmpfs mounted for the test
//! (as root; where the machine does not allow it, the test says so and the unit tests of
//! `crates/runtime/src/files/recording.rs` prove the same with a fault-injecting writer). `watch`
//! records a game played by an emulated DGT board over a real pseudo-terminal while the disk fills
//! up and empties again: the recording is whole lines with no hole, NUL or half line, `replay`
//! decides from it what the session decided, `--resume` takes it, and the PGN holds the game. A log
//! whose first write failed is not left behind as an empty file.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::Value;

use common::emulator::emulate;
use common::watching::{replay_with, source_game};

/// A small tmpfs mounted on a folder of its own; unmounted when dropped.
struct SmallDisk {
    folder: tempfile::TempDir,
}

impl SmallDisk {
    /// A tmpfs of `kib` KiB, if this machine lets the test mount one (root).
    fn mount(kib: u32) -> Option<SmallDisk> {
        let folder = tempfile::Builder::new()
            .prefix("touchmove-full-disk-")
            .tempdir()
            .expect("a folder");
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={kib}k"), "tmpfs"])
            .arg(folder.path())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success());
        mounted.then_some(SmallDisk { folder })
    }

    fn path(&self) -> &Path {
        self.folder.path()
    }

    /// Fills the disk with a file until a write fails for want of room; its path.
    fn fill(&self) -> PathBuf {
        let filler = self.path().join("filler");
        let mut file = std::fs::File::create(&filler).expect("the filler");
        let chunk = vec![0xAAu8; 4096];
        loop {
            match file.write_all(&chunk).and_then(|()| file.flush()) {
                Ok(()) => {}
                Err(error) if error.raw_os_error() == Some(libc::ENOSPC) => return filler,
                Err(error) => panic!("filling the disk: {error}"),
            }
        }
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount")
            .arg("-l")
            .arg(self.folder.path())
            .status();
    }
}

/// A small tmpfs, or `None` after saying why the test proves nothing more here.
fn small_disk(kib: u32) -> Option<SmallDisk> {
    let disk = SmallDisk::mount(kib);
    if disk.is_none() {
        eprintln!(
            "full_disk: this machine does not let the test mount a tmpfs (it needs root): the \
             full disk is proven here only by the fault-injecting writer of recording.rs's unit \
             tests; run `.ci/run` as root for the real one"
        );
    }
    disk
}

/// `watch --json` on `port`, recording into `record` (and the PGN into `pgn`), its lines on
/// standard output and standard error read as they come.
struct Watching {
    child: Child,
    events: Receiver<Value>,
    said: Receiver<String>,
}

impl Watching {
    fn start(port: &str, record: &Path, pgn: &Path) -> Watching {
        let mut child = common::bin()
            .args(["watch", "--json", "--give-up-after", "1", "--port", port])
            .arg("--record")
            .arg(record)
            .arg("--pgn")
            .arg(pgn)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .expect("watch starts");
        let (events_in, events) = channel();
        let stdout = child.stdout.take().expect("stdout");
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let event: Value = serde_json::from_str(&line).expect("a JSON line");
                if events_in.send(event).is_err() {
                    break;
                }
            }
        });
        let (said_in, said) = channel();
        let stderr = child.stderr.take().expect("stderr");
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                eprintln!("{line}");
                let _ = said_in.send(line);
            }
        });
        Watching {
            child,
            events,
            said,
        }
    }

    /// The events until `count` moves more have been decided.
    fn moves(&self, count: usize, seen: &mut Vec<Value>) {
        let mut moves = 0;
        while moves < count {
            let event = self
                .events
                .recv_timeout(Duration::from_secs(60))
                .expect("a move");
            moves += usize::from(event["kind"] == "move");
            seen.push(event);
        }
    }

    /// Waits for watch to say something containing `text`.
    fn says(&self, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .said
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("watch never said `{text}`"));
            if line.contains(text) {
                return line;
            }
        }
    }

    /// The rest of the events, once watch has ended; and how it ended.
    fn finish(mut self, seen: &mut Vec<Value>) -> std::process::ExitStatus {
        let status = self.child.wait().expect("watch ends");
        seen.extend(self.events.try_iter());
        status
    }
}

#[test]
fn watch_on_a_disk_that_fills_up_records_whole_lines_and_loses_nothing() {
    let Some(disk) = small_disk(512) else { return };
    let (pgn, number) = ("corpus/kasparov-deep-blue-1997.pgn", 6);
    let game = format!("fixtures/{pgn}");
    let emulator = emulate(&["--pgn", &game, "--game", "6", "--speed", "20"]);
    let record = disk.path().join("game.log");
    let pgn_file = disk.path().join("game.pgn");
    let watching = Watching::start(&emulator.port, &record, &pgn_file);
    let mut live = Vec::new();
    watching.moves(4, &mut live);
    // The disk fills up in the middle of the game: said once, and the game goes on.
    let filler = disk.fill();
    watching.says("cannot write the recording");
    watching.moves(6, &mut live);
    let cut = std::fs::read(&record).expect("the recording");
    assert!(
        cut.ends_with(b"\n") && !cut.contains(&0),
        "while the disk is full the recording is whole lines"
    );
    // Room again: what was kept is written, and the rest of the game with it.
    std::fs::remove_file(&filler).expect("room again");
    watching.says("the recording is written again, nothing lost");
    let status = watching.finish(&mut live);
    assert_eq!(
        status.code(),
        Some(1),
        "watch gives up on the board once it has gone"
    );
    let live: Vec<Value> = live
        .into_iter()
        .filter(|e| !crate::common::live_only(e))
        .collect();
    assert_eq!(
        common::recorded_games(&live),
        vec![source_game(pgn, number)],
        "not the game played"
    );
    // The recording: whole lines, no hole, and it replays to what the session decided.
    let bytes = std::fs::read(&record).expect("the recording");
    assert!(!bytes.contains(&0), "a NUL byte in the recording");
    assert!(bytes.ends_with(b"\n"), "a half line at the end");
    assert_eq!(
        replay_with(&record, &[]),
        live,
        "the replay differs from the session"
    );
    // The PGN holds the game, as python-chess reads it.
    let text = std::fs::read_to_string(&pgn_file).expect("the PGN");
    assert_eq!(
        common::python_chess_games(&[text]),
        vec![common::recorded_games(&live)]
    );
    // --resume takes the recording.
    let resumed = watch_nowhere(&record, &["--resume"]);
    let said = String::from_utf8_lossy(&resumed.stderr);
    assert!(said.contains("resumed: "), "{said}");
    common::assert_gave_up(&resumed);
}

#[test]
fn a_log_whose_first_write_failed_is_not_left_empty() {
    let Some(disk) = small_disk(256) else { return };
    let emulator = emulate(&["--pgn", "fixtures/games/coverage.pgn", "--speed", "20"]);
    let record = disk.path().join("game.log");
    let pgn_file = disk.path().join("game.pgn");
    // Full before the first line.
    let filler = disk.fill();
    let watching = Watching::start(&emulator.port, &record, &pgn_file);
    let mut live = Vec::new();
    watching.says("cannot write the recording");
    let status = watching.finish(&mut live);
    assert_eq!(status.code(), Some(1));
    // Every move was still decided and printed.
    let live: Vec<Value> = live
        .into_iter()
        .filter(|e| !crate::common::live_only(e))
        .collect();
    assert_eq!(
        common::recorded_games(&live),
        vec![source_game("games/coverage.pgn", 1)]
    );
    assert!(
        !record.exists(),
        "an empty log is left behind: {:?}",
        std::fs::metadata(&record)
    );
    // With room again, the same path takes a new recording.
    std::fs::remove_file(&filler).expect("room again");
    let fresh = watch_nowhere(&record, &[]);
    common::assert_gave_up(&fresh);
}

/// `watch --record RECORD EXTRA` on a port that does not exist: it reads or starts the
/// recording, then gives up at once.
fn watch_nowhere(record: &Path, extra: &[&str]) -> std::process::Output {
    common::bin()
        .args([
            "watch",
            "--port",
            "/nonexistent/port",
            "--give-up-after",
            "0",
        ])
        .arg("--record")
        .arg(record)
        .args(extra)
        .output()
        .expect("watch runs")
}
