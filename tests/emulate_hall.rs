//! `touchmove emulate hall` as a real process: a host opens the printed pseudo-terminal at
//! 115200 baud, asks for a snapshot and follows the game's CHANGE frames to its final occupancy,
//! resynchronising with REQUEST_SNAPSHOT when frames are lost.

use std::fs::File;
use std::io::{BufReader, ErrorKind, Read, Write};
use std::path::Path;
use std::time::Instant;

use serialport::TTYPort;
use shakmaty::Position;
use touchmove_firmware_protocol::{
    Action, Button, Decoded, Decoder, Frame, MAX_WIRE, Message, Snapshot, encode,
};
use touchmove_simulation::pgn_games::read_games;

use crate::common;

use common::emulator::{DEADLINE, emulate_board, open_port, root};

const PGN: &str = "fixtures/corpus/promotion.pgn";

fn open(path: &str) -> TTYPort {
    open_port(path, 115_200)
}

/// The host's side of the link: the port and a decoder.
struct Host {
    port: TTYPort,
    decoder: Decoder,
    pending: Vec<Frame>,
    seq: u8,
}

impl Host {
    fn new(path: &str) -> Host {
        Host {
            port: open(path),
            decoder: Decoder::new(),
            pending: Vec::new(),
            seq: 0x00,
        }
    }

    fn send(&mut self, message: Message) {
        let mut wire = [0x00; MAX_WIRE];
        let frame = Frame {
            seq: self.seq,
            message,
        };
        let length = encode(&frame, &mut wire).expect("a host frame fits");
        self.port
            .write_all(&wire[..length])
            .expect("the frame is sent");
        self.seq = self.seq.wrapping_add(1);
    }

    /// The next intact frame from the board; a corrupt one fails the test (the line is clean).
    fn frame(&mut self, deadline: Instant) -> Frame {
        let mut buffer = [0u8; 64];
        while self.pending.is_empty() {
            assert!(Instant::now() < deadline, "the emulator went quiet");
            let n = match self.port.read(&mut buffer) {
                Ok(n) => n,
                Err(error) if error.kind() == ErrorKind::TimedOut => 0,
                Err(error) => panic!("reading the port: {error}"),
            };
            for item in self.decoder.push(&buffer[..n]) {
                match item {
                    Decoded::Frame(frame) => self.pending.push(frame),
                    Decoded::Corrupt(corrupt) => panic!("corrupt frame: {corrupt:?}"),
                }
            }
        }
        self.pending.remove(0)
    }

    /// Frames up to the next SNAPSHOT, whose occupancy it returns with its sequence number.
    fn snapshot(&mut self, deadline: Instant) -> (u64, u8) {
        loop {
            let frame = self.frame(deadline);
            if let Message::Snapshot(Snapshot { occupancy, pieces }) = frame.message {
                assert_eq!(pieces, None, "an occupancy-only board");
                return (occupancy, frame.seq);
            }
        }
    }
}

fn final_occupancy(pgn: &Path) -> u64 {
    let file = File::open(pgn).expect("the PGN opens");
    let game = read_games(BufReader::new(file))
        .next()
        .expect("a game")
        .expect("a readable game");
    let mut position = game.start.clone();
    for m in &game.moves {
        position.play_unchecked(*m);
    }
    u64::from(position.board().occupied())
}

/// `occupancy` after a CHANGE, which must be consistent with it (lift from an occupied
/// square, place on an empty one).
fn apply(occupancy: u64, change: &touchmove_firmware_protocol::Change) -> u64 {
    let bit = change.square.bit();
    match change.action {
        Action::Lifted => {
            assert_ne!(occupancy & bit, 0, "{change:?} from an empty square");
            occupancy & !bit
        }
        Action::Placed => {
            assert_eq!(occupancy & bit, 0, "{change:?} on an occupied square");
            occupancy | bit
        }
    }
}

const START: u64 = 0xffff_0000_0000_ffff;

#[test]
fn a_host_follows_a_pgn_game_on_the_emulated_hall_board() {
    let emulator = emulate_board("hall", &["--pgn", PGN, "--speed", "100", "--seed", "3"]);
    let deadline = Instant::now() + DEADLINE;
    let mut host = Host::new(&emulator.port);
    host.send(Message::RequestSnapshot);
    let (mut occupancy, mut seq) = host.snapshot(deadline);
    assert_eq!(occupancy, START);
    let end = final_occupancy(&root().join(PGN));
    assert_ne!(end, START);
    let (mut changes, mut presses) = (0, 0);
    while occupancy != end {
        let frame = host.frame(deadline);
        assert_eq!(frame.seq, seq.wrapping_add(1), "no frame lost: {frame:?}");
        seq = frame.seq;
        match frame.message {
            Message::Change(change) => {
                assert_eq!(change.piece, None);
                occupancy = apply(occupancy, &change);
                changes += 1;
            }
            Message::Button { button, .. } => {
                assert!(matches!(button, Button::ClockWhite | Button::ClockBlack));
                presses += 1;
            }
            Message::Heartbeat { .. } | Message::Snapshot(_) => {}
            other => panic!("unexpected frame {other:?}"),
        }
    }
    assert!(changes >= 2 * 20, "{changes} changes");
    assert!(presses >= 20, "{presses} clock presses");
}

#[test]
fn a_log_with_a_promotion_choice_plays_at_once() {
    let emulator = emulate_board(
        "hall",
        &[
            "--log",
            "fixtures/promotion-new-piece-first.log",
            "--no-wait",
            "--grace-ms",
            "3000",
        ],
    );
    let deadline = Instant::now() + DEADLINE;
    let mut host = Host::new(&emulator.port);
    let mut frames = Vec::new();
    while frames.len() < 3 {
        let frame = host.frame(deadline);
        if matches!(frame.message, Message::Button { .. } | Message::Change(_)) {
            frames.push(frame.message);
        }
    }
    let e7 = (0x34, Action::Lifted);
    let e8 = (0x3c, Action::Placed);
    let seen: Vec<String> = frames.iter().map(|m| format!("{m:?}")).collect();
    assert!(
        matches!(
            frames[0],
            Message::Button {
                button: Button::PromoteRook,
                ..
            }
        ),
        "{seen:?}"
    );
    for (message, (square, action)) in frames[1..].iter().zip([e8, e7]) {
        let Message::Change(change) = message else {
            panic!("a CHANGE expected: {seen:?}");
        };
        assert_eq!((change.square.index(), change.action), (square, action));
    }
}

#[test]
fn lost_frames_leave_a_gap_a_snapshot_closes() {
    let emulator = emulate_board(
        "hall",
        &[
            "--pgn",
            PGN,
            "--speed",
            "100",
            "--seed",
            "3",
            "--drop-every",
            "3",
        ],
    );
    let deadline = Instant::now() + DEADLINE;
    let mut host = Host::new(&emulator.port);
    host.send(Message::RequestSnapshot);
    let (mut occupancy, mut seq) = host.snapshot(deadline);
    assert_eq!(occupancy, START);
    let end = final_occupancy(&root().join(PGN));
    // What a host that ignored the gaps would believe.
    let mut naive = occupancy;
    let mut gaps = 0;
    while occupancy != end {
        let frame = host.frame(deadline);
        if frame.seq != seq.wrapping_add(1) {
            gaps += 1;
            host.send(Message::RequestSnapshot);
            // Every CHANGE before the answer is in it.
            (occupancy, seq) = host.snapshot(deadline);
            continue;
        }
        seq = frame.seq;
        if let Message::Change(change) = frame.message {
            occupancy = apply(occupancy, &change);
            naive ^= change.square.bit();
        }
    }
    assert!(
        gaps >= 5,
        "{gaps} sequence gaps with every third CHANGE lost"
    );
    assert_ne!(naive, end, "without the snapshots the host would be wrong");
}
