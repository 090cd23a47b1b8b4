//! `touchmove emulate dgt` as a real process: a host opens the printed pseudo-terminal, asks for
//! the version, a dump and updates, and follows the game to its end.

use std::fs::File;
use std::io::{BufReader, ErrorKind, Read, Write};
use std::path::Path;
use std::sync::mpsc::RecvTimeoutError;
use std::time::Instant;

use serialport::TTYPort;
use shakmaty::{Board, Position};
use touchmove::dgt::wire::protocol::{piece_from_code, square_from_index};
use touchmove_simulation::pgn_games::read_games;

use crate::common;

use common::emulator::{DEADLINE, emulate, open_port, root};

fn open(path: &str) -> TTYPort {
    open_port(path, 9600)
}

/// The next board message, resynchronising on a byte with the top bit set.
fn read_message(port: &mut TTYPort, deadline: Instant) -> Vec<u8> {
    let mut first = read_byte(port, deadline);
    while first & 0x80 == 0 {
        first = read_byte(port, deadline);
    }
    let high = read_byte(port, deadline);
    let low = read_byte(port, deadline);
    let total = (usize::from(high) << 7) | usize::from(low);
    let mut message = vec![first, high, low];
    while message.len() < total {
        message.push(read_byte(port, deadline));
    }
    message
}

fn read_byte(port: &mut TTYPort, deadline: Instant) -> u8 {
    let mut byte = [0u8];
    loop {
        assert!(Instant::now() < deadline, "the emulator went quiet");
        match port.read(&mut byte) {
            Ok(1) => return byte[0],
            Ok(_) => {}
            Err(error) if error.kind() == ErrorKind::TimedOut => {}
            Err(error) => panic!("reading the port: {error}"),
        }
    }
}

fn final_board(pgn: &Path) -> Board {
    let file = File::open(pgn).expect("the PGN opens");
    let game = read_games(BufReader::new(file))
        .next()
        .expect("a game")
        .expect("a readable game");
    let mut position = game.start.clone();
    for m in &game.moves {
        position.play_unchecked(*m);
    }
    position.board().clone()
}

#[test]
fn a_host_follows_a_pgn_game_on_the_emulated_board() {
    let pgn = root().join("fixtures/corpus/promotion.pgn");
    let emulator = emulate(&[
        "--pgn",
        "fixtures/corpus/promotion.pgn",
        "--speed",
        "100",
        "--seed",
        "3",
    ]);
    let deadline = Instant::now() + DEADLINE;
    let mut port = open(&emulator.port);

    port.write_all(&[0x4d]).expect("SEND_VERSION");
    assert_eq!(
        read_message(&mut port, deadline),
        [0x93, 0x00, 0x05, 0x01, 0x02]
    );

    port.write_all(&[0x42]).expect("SEND_BRD");
    let start = Board::default();
    let dump = read_message(&mut port, deadline);
    assert_eq!(dump.len(), 67);
    assert_eq!(dump, common::dgt_board::dump(&start));

    port.write_all(&[0x4b]).expect("SEND_UPDATE_NICE");
    let end = final_board(&pgn);
    assert_ne!(end, start);
    let mut board = start;
    let (mut updates, mut clock_reports) = (0, 0);
    while board != end {
        let message = read_message(&mut port, deadline);
        match message.as_slice() {
            [0x8e, 0x00, 0x05, index, code] => {
                let square = square_from_index(*index).expect("a square number");
                match piece_from_code(*code) {
                    Some(piece) => board.set_piece_at(square, piece),
                    None => board.discard_piece_at(square),
                }
                updates += 1;
            }
            [0x8d, 0x00, 0x0a, ..] if message.len() == 10 => clock_reports += 1,
            other => panic!("unexpected message {other:02x?}"),
        }
    }
    assert!(updates >= 2 * 22, "{updates} field updates for 22 plies");
    assert!(clock_reports >= 1, "the clock started and was pressed");
}

#[test]
fn the_emulator_ends_after_its_script() {
    let mut emulator = emulate(&[
        "--log",
        "fixtures/dgt-arrival-before-departure.log",
        "--no-wait",
        "--speed",
        "50",
        "--grace-ms",
        "100",
    ]);
    // The board's stable name links to the pseudo-terminal it printed.
    let pty = std::fs::read_link(&emulator.port).expect("a link");
    assert!(pty.starts_with("/dev/"), "{}", pty.display());
    // Standard output closes when the process ends.
    let closed = emulator.lines.recv_timeout(DEADLINE);
    assert_eq!(
        closed,
        Err(RecvTimeoutError::Disconnected),
        "the process ends, printing nothing after the port line"
    );
    let status = emulator.child.wait().expect("the emulator ends");
    assert!(status.success(), "{status}");
}
