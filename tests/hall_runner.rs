//! The live runner with a Hall-sensor session over a real pseudo-terminal, with a scripted Hall
//! board on the other end: HELLO, the start position's SNAPSHOT, then CHANGE frames for e2-e4;
//! and a board that loses a frame, so that the host has to ask for a snapshot to see the move.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_serial::SerialStream;
use touchmove_firmware_protocol::{
    Action, Capabilities, Change, Decoded, Decoder, FirmwareVersion, Frame, Hello, MAX_WIRE,
    Message, PROTOCOL_VERSION, Snapshot, Square, encode,
};

use touchmove::hall::HallSession;
use touchmove::live::LiveEvent;
use touchmove::runner::RunnerConfig;

use crate::common;

use common::live::{PtyConnector, run_session_until_moves, sans};

/// One square changing on the scripted board.
struct Step {
    /// The square, 0 (a1) to 63 (h8).
    square: u8,
    /// Lifted or placed.
    action: Action,
    /// The frame is lost on the way: its sequence number is used, the host never sees it.
    lost: bool,
}

/// The scripted board: its occupancy and its sequence count; what the host sent it, and how
/// many corrupt frames.
struct HallBoard {
    port: SerialStream,
    occupancy: u64,
    next_seq: u8,
    heard: Arc<Mutex<Vec<Message>>>,
    corrupt: usize,
}

impl HallBoard {
    /// Sends `message` with the next sequence number (or only uses the number, when `lost`).
    async fn send(&mut self, message: Message, lost: bool) -> std::io::Result<()> {
        let frame = Frame {
            seq: self.next_seq,
            message,
        };
        self.next_seq = self.next_seq.wrapping_add(1);
        let mut buffer = [0x00; MAX_WIRE];
        let length = encode(&frame, &mut buffer).map_err(|_| std::io::Error::other("encode"))?;
        if lost {
            return Ok(());
        }
        self.port.write_all(&buffer[..length]).await
    }

    async fn snapshot(&mut self) -> std::io::Result<()> {
        let snapshot = Snapshot {
            occupancy: self.occupancy,
            pieces: None,
        };
        self.send(Message::Snapshot(snapshot), false).await
    }

    /// Makes the changes of `steps`, in order.
    async fn play(&mut self, steps: &[Step]) -> std::io::Result<()> {
        for step in steps {
            let square = Square::new(step.square).ok_or_else(|| std::io::Error::other("square"))?;
            match step.action {
                Action::Lifted => self.occupancy &= !square.bit(),
                Action::Placed => self.occupancy |= square.bit(),
            }
            let change = Change {
                square,
                action: step.action,
                piece: None,
                time_ms: 1000,
            };
            self.send(Message::Change(change), step.lost).await?;
        }
        Ok(())
    }
}

/// A Hall board (occupancy only) that resets, says HELLO and shows the start position, answers
/// every REQUEST_SNAPSHOT, and makes `steps` once the host acknowledged its first SNAPSHOT.
/// Runs until the host closes the link; returns how many corrupt frames the host sent.
async fn hall_board(
    port: SerialStream,
    steps: Vec<Step>,
    heard: Arc<Mutex<Vec<Message>>>,
) -> std::io::Result<usize> {
    let mut board = HallBoard {
        port,
        occupancy: 0xffff_0000_0000_ffff,
        next_seq: 0x00,
        heard,
        corrupt: 0,
    };
    match run_board(&mut board, &steps).await {
        // A pseudo-terminal whose other end was closed reads EIO: the host has gone.
        Err(error) if error.raw_os_error() == Some(libc::EIO) => Ok(board.corrupt),
        Err(error) => Err(error),
        Ok(()) => Ok(board.corrupt),
    }
}

/// Waits for the board of `hall_board` to see the host go, and checks that its I/O did not
/// fail and that every frame the host sent was intact.
async fn board_ended_cleanly(board: tokio::task::JoinHandle<std::io::Result<usize>>) {
    let corrupt = tokio::time::timeout(Duration::from_secs(5), board)
        .await
        .expect("the board sees the host close the link")
        .expect("the board task completes")
        .expect("the board's reads and writes succeed");
    assert_eq!(corrupt, 0, "corrupt frames from the host");
}

async fn run_board(board: &mut HallBoard, steps: &[Step]) -> std::io::Result<()> {
    board.port.write_all(&[0x00]).await?;
    let hello = Hello {
        protocol_version: PROTOCOL_VERSION,
        board_id: [0x48, 0x41, 0x4c, 0x4c, 0x00, 0x00, 0x00, 0x01],
        firmware: FirmwareVersion {
            major: 1,
            minor: 0,
            patch: 0,
        },
        capabilities: Capabilities::default(),
    };
    board.send(Message::Hello(hello), false).await?;
    board.snapshot().await?;
    let mut decoder = Decoder::new();
    let mut buffer = [0u8; 64];
    loop {
        let n = board.port.read(&mut buffer).await?;
        if n == 0 {
            return Ok(());
        }
        let mut frames: Vec<Frame> = Vec::new();
        for decoded in decoder.push(&buffer[..n]) {
            match decoded {
                Decoded::Frame(frame) => frames.push(frame),
                Decoded::Corrupt(_) => board.corrupt += 1,
            }
        }
        for frame in frames {
            board
                .heard
                .lock()
                .expect("not poisoned")
                .push(frame.message);
            match frame.message {
                Message::RequestSnapshot => board.snapshot().await?,
                Message::Ack { seq: 0x01 } => board.play(steps).await?,
                _ => {}
            }
        }
    }
}

/// Runs the runner with a Hall session against a board making `steps`; what the game said and
/// what the board heard.
async fn watch(steps: Vec<Step>) -> (Vec<LiveEvent>, Vec<Message>) {
    let (board_end, host_end) = common::pty_pair();
    let heard = Arc::new(Mutex::new(Vec::new()));
    let board = tokio::spawn(hall_board(board_end, steps, Arc::clone(&heard)));
    let mut connector = PtyConnector {
        host: Some(host_end),
    };
    let config = RunnerConfig {
        give_up_after: Some(Duration::from_millis(200)),
        ..RunnerConfig::default()
    };
    let mut session = HallSession::new();
    let events = run_session_until_moves(
        &mut connector,
        &mut session,
        config,
        1,
        Duration::from_secs(10),
    )
    .await;
    drop(connector);
    board_ended_cleanly(board).await;
    let heard = heard.lock().expect("not poisoned").clone();
    (events, heard)
}

const E2: u8 = 12;
const E4: u8 = 28;

#[tokio::test(flavor = "current_thread")]
async fn a_move_on_a_hall_board_is_decided_over_a_pty() {
    let steps = vec![
        Step {
            square: E2,
            action: Action::Lifted,
            lost: false,
        },
        Step {
            square: E4,
            action: Action::Placed,
            lost: false,
        },
    ];
    let (events, heard) = watch(steps).await;
    assert!(
        matches!(events.first(), Some(LiveEvent::Started { .. })),
        "{events:?}"
    );
    assert_eq!(sans(&events), ["e4"]);
    assert_eq!(
        heard.first(),
        Some(&Message::RequestSnapshot),
        "the host asks for the board's state first"
    );
    assert!(heard.contains(&Message::Ack { seq: 0x00 }), "{heard:?}");
}

#[tokio::test(flavor = "current_thread")]
async fn a_lost_frame_makes_the_host_ask_for_the_snapshot_that_shows_the_move() {
    // The lift from e2 is lost on the way: the place on e4 arrives out of sequence.
    let steps = vec![
        Step {
            square: E2,
            action: Action::Lifted,
            lost: true,
        },
        Step {
            square: E4,
            action: Action::Placed,
            lost: false,
        },
    ];
    let (events, heard) = watch(steps).await;
    assert_eq!(sans(&events), ["e4"], "{events:?}");
    // Before the move: the request on connecting and the one after HELLO; then one for the gap.
    let requests = heard
        .iter()
        .filter(|message| **message == Message::RequestSnapshot)
        .count();
    assert_eq!(requests, 3, "{heard:?}");
}

#[tokio::test(flavor = "current_thread")]
async fn watch_protocol_hall_decides_a_move_as_a_process() {
    use tokio_serial::SerialPort;
    let (board_end, host_end) = common::pty_pair();
    let path = host_end.name().expect("the pty has a name");
    let steps = vec![
        Step {
            square: E2,
            action: Action::Lifted,
            lost: false,
        },
        Step {
            square: E4,
            action: Action::Placed,
            lost: false,
        },
    ];
    let mut watch = common::bin()
        .args(["watch", "--protocol", "hall", "--json", "--port", &path])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("touchmove runs");
    // The board plays; `watch`'s output is read until the move's line (each JSON line is
    // written as it is decided), then `watch` (which would wait for the board to come back) is
    // stopped and what it said read.
    let board = tokio::spawn(hall_board(
        board_end,
        steps,
        Arc::new(Mutex::new(Vec::new())),
    ));
    let stdout = watch.stdout.take().expect("watch's stdout");
    let read = tokio::task::spawn_blocking(move || {
        use std::io::BufRead;
        let mut lines = Vec::new();
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let moved = line.contains(r#""kind":"move""#);
            lines.push(line);
            if moved {
                break;
            }
        }
        lines
    });
    let lines = tokio::time::timeout(Duration::from_secs(60), read)
        .await
        .expect("watch decides the move within a minute")
        .expect("joined");
    watch.kill().expect("watch is stopped");
    let output = tokio::task::spawn_blocking(move || watch.wait_with_output())
        .await
        .expect("joined")
        .expect("watch's output");
    drop(host_end);
    board_ended_cleanly(board).await;
    let stdout = lines.join("\n");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let sans: Vec<String> = lines
        .iter()
        .map(|line| {
            serde_json::from_str::<serde_json::Value>(line)
                .unwrap_or_else(|e| panic!("{e}: not a JSON line: {line}"))
        })
        .filter(|event| event["kind"] == "move")
        .filter_map(|event| event["san"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(sans, ["e4"], "stdout: {stdout}\nstderr: {stderr}");
    assert!(stderr.contains("Hall-sensor board"), "{stderr}");
}

/// Without --port the ports are asked with the Hall probe; none answers here (no Hall board
/// on this machine's serial ports), and the runner gives up at once saying why.
#[test]
fn watch_protocol_hall_without_a_port_looks_for_one() {
    let output = common::touchmove(
        &["watch", "--protocol", "hall", "--give-up-after", "0"],
        None,
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("no serial port answers as a hall board"),
        "{stderr}"
    );
}
