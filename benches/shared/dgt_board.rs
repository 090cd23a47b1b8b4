//! A DGT board played by a bench on its end of a real pseudo-terminal (`dgt_latency`,
//! `page_latency`): it answers the host's handshake and keep-alives and makes moves as the
//! field updates a DGT board sends (departure and arrival in one scan; a capture as the arrival
//! over the victim).

use std::io::{ErrorKind, Read, Write};
use std::time::{Duration, Instant};

use serialport::{SerialPort, TTYPort};
use shakmaty::{Bitboard, Board, Chess, Move, Position, Square};
use touchmove::dgt::wire::message::encode;
use touchmove::dgt::wire::protocol::{code_from_piece, index_from_square};

/// The board's end of a pseudo-terminal pair.
pub struct DgtBoard {
    port: TTYPort,
}

impl DgtBoard {
    /// A new pair: the board, and the name of the host's end (what `--port` or `--board`
    /// takes). The host's end is returned too: the pair lives as long as both ends are open.
    pub fn pair() -> (DgtBoard, TTYPort, String) {
        let (mut port, host) = TTYPort::pair().expect("a pty pair");
        port.set_timeout(Duration::from_millis(1))
            .expect("a timeout");
        let name = host.name().expect("a pty name");
        (DgtBoard { port }, host, name)
    }

    /// Answers the handshake, showing `position`, until the host asks for updates.
    pub fn serve_until_updates(&mut self, position: &Board) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            assert!(Instant::now() < deadline, "no handshake");
            for command in self.read_commands() {
                if self.answer(command, position) {
                    return;
                }
            }
        }
    }

    /// Answers what the host asked since the last call (keep-alives, requests for a dump of
    /// `shown`, what the board now shows).
    pub fn answer_host(&mut self, shown: &Board) {
        for command in self.read_commands() {
            self.answer(command, shown);
        }
    }

    /// Writes the field updates that make `m` from `position`.
    pub fn play(&mut self, position: &Chess, m: Move) {
        let bytes = field_updates(position, m);
        self.port.write_all(&bytes).expect("written");
        self.port.flush().expect("flushed");
    }

    /// Answers one host command; true when it is the request for updates.
    fn answer(&mut self, command: u8, position: &Board) -> bool {
        let reply = match command {
            0x4d => vec![0x93, 0x00, 0x05, 0x01, 0x02],
            0x45 => vec![0x91, 0x00, 0x08, b'1', b'2', b'3', b'4', b'5'],
            0x42 => dump(position),
            _ => Vec::new(),
        };
        self.port.write_all(&reply).expect("written");
        command == 0x4b
    }

    fn read_commands(&mut self) -> Vec<u8> {
        let mut buffer = [0u8; 64];
        match self.port.read(&mut buffer) {
            Ok(n) => buffer[..n].to_vec(),
            Err(error) if error.kind() == ErrorKind::TimedOut => Vec::new(),
            Err(error) => panic!("reading the pty: {error}"),
        }
    }
}

/// A BOARD_DUMP of `board`.
fn dump(board: &Board) -> Vec<u8> {
    let mut codes = [0u8; 64];
    for square in Square::ALL {
        codes[usize::from(index_from_square(square))] = code_from_piece(board.piece_at(square));
    }
    encode::board_dump(&codes)
}

/// The field updates a board sends for `m`: every square whose content changes, departures
/// first (a capture shows only as the arrival over the victim).
fn field_updates(position: &Chess, m: Move) -> Vec<u8> {
    let before = position.board();
    let mut after = position.clone();
    after.play_unchecked(m);
    let after = after.board();
    let changed: Bitboard = Square::ALL
        .into_iter()
        .filter(|&sq| before.piece_at(sq) != after.piece_at(sq))
        .collect();
    let (emptied, filled): (Vec<Square>, Vec<Square>) = changed
        .into_iter()
        .partition(|&sq| after.piece_at(sq).is_none());
    emptied
        .into_iter()
        .chain(filled)
        .flat_map(|square| {
            encode::field_update(
                index_from_square(square),
                code_from_piece(after.piece_at(square)),
            )
        })
        .collect()
}
