//! The Certabo protocol on the host's side, sans-IO: bytes and the time in, bytes and
//! [`LinkEvent`]s out.
//!
//! What the session does:
//!
//! - the board streams frames on its own; the first tells what it is: an RFID board (chips) or
//!   a Sentio board (occupancy);
//! - an RFID board's chips are read as pieces with the chips known ([`Chips`]: given, or
//!   recalled from an earlier session, [`BoardSession::recall`]); with none known, they are
//!   learnt first from the start position ([`Calibrator`]: the squares that do not agree are
//!   said, and the game waits), then given out to be kept ([`LinkEvent::Learnt`]); a chip no known piece has is said with its square,
//!   once, and read as a piece the board cannot name (never guessed: a promotion's piece of
//!   another set is then chosen at the host, as on an occupancy board);
//! - the frames become lifts and placements square by square ([`PositionReader`]): a square's
//!   change is taken once the next frame still shows it ([`HOLD_MS`]); the first frame, and one
//!   far from the frame before, is a full report. A Sentio board samples occupancy (a capture
//!   between two frames leaves no trace): each change it shows is a full report, taken at once
//!   from frames [`AT_ONCE_MS`] apart or more (else held as an RFID board's), the moves between
//!   them caught up, never touches or illegal placements;
//! - the board owes a frame all the time: none for [`ANSWER_MS`] is [`LinkEvent::Lost`]; the
//!   next frame is [`LinkEvent::Back`], read whole;
//! - [`handle_feedback`](BoardSession::handle_feedback) lights the squares of a move to carry
//!   out, then the squares that differ from the game until the board matches it again.

#[cfg(test)]
mod tests;

use std::collections::{BTreeSet, VecDeque};

use shakmaty::{Bitboard, Board, Color, Square};

use super::calibration::{Calibrator, Chips, Learning, UnknownChip};
use super::wire::{Chip, FrameDecoder, Reading, encode_leds};
use crate::certabo::wire::Corrupt;
use crate::live::positions::PositionReader;
use crate::live::{BoardSession, Feedback, GuideLights, LinkEvent, Liveness};
use touchmove_core::decode::StreamDecoder;
use touchmove_core::sensor::{BoardSnapshot, Millis, SensorKind};

/// How long after a square's new reading on an RFID board was first seen a frame must still
/// show it for it to be taken: 1 ms, so the next frame takes it, however fast the frames come
/// (a whole frame takes about 250 ms at 38400 baud; the rate is not published). A chip reading
/// that lasts one frame is never taken (real boards show stray values). A Sentio board's
/// frames are taken so too when they come quicker than [`AT_ONCE_MS`], else at once.
pub const HOLD_MS: Millis = 1;

/// A Sentio board's frames this far apart or more are taken at once, each a report; quicker
/// ones once the next frame still shows their change ([`HOLD_MS`]). The frame period is not
/// published (the corpus bench runs 250 ms and 50 ms).
pub const AT_ONCE_MS: Millis = 100;

/// How long the board may send no frame before it counts as lost.
pub const ANSWER_MS: Millis = 2000;

/// What the host says of a Sentio board once it is told: what it cannot see, and what the
/// player is asked then.
pub const SENTIO_CAVEAT: &str = "a Sentio board senses occupancy, sampled: a capture made within one \
     frame shows only its piece's square emptied; when the board cannot tell where the piece went, \
     its lights show the square it left and those it may stand on: lift it where it stands and set \
     it back (docs/boards.md)";

/// What the board is, told by its first frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An RFID board: a chip in each piece.
    Rfid,
    /// A Sentio board: occupancy only.
    Sentio,
}

/// A Certabo board behind the live runner.
#[derive(Debug)]
pub struct CertaboSession {
    decoder: FrameDecoder,
    connected: bool,
    liveness: Liveness,
    kind: Option<Kind>,
    /// The chips known (given, or learnt on this connection).
    chips: Option<Chips>,
    calibrator: Calibrator,
    /// The squares said unsettled last while learning (said again only when they change).
    unsettled: Option<Bitboard>,
    /// The unknown chips said, so that each is said once.
    unknown: BTreeSet<(Square, Chip)>,
    /// The frames, turned into lifts and placements (a piece the board cannot name stands in
    /// them as [`UNNAMED`]).
    positions: PositionReader,
    /// The squares whose piece, as the position reader took it, the board cannot name.
    unnamed: Bitboard,
    /// A Sentio board's occupancy as last reported (`None`: the next frame is reported).
    occupancy: Option<Bitboard>,
    /// When the last frame came (`None`: none since the board was last heard).
    last_frame_at: Option<Millis>,
    leds: GuideLights,
    transmit: VecDeque<Vec<u8>>,
    events: VecDeque<LinkEvent>,
}

impl CertaboSession {
    /// A session that has not connected yet, knowing `chips` (an RFID board's, kept from an
    /// earlier calibration; `None`: learnt from the start position).
    pub fn new(chips: Option<Chips>) -> CertaboSession {
        CertaboSession {
            decoder: FrameDecoder::new(),
            connected: false,
            liveness: Liveness::new(0),
            kind: None,
            chips,
            calibrator: Calibrator::new(),
            unsettled: None,
            unknown: BTreeSet::new(),
            positions: PositionReader::new(HOLD_MS),
            unnamed: Bitboard::EMPTY,
            occupancy: None,
            last_frame_at: None,
            leds: GuideLights::default(),
            transmit: VecDeque::new(),
            events: VecDeque::new(),
        }
    }

    /// What the board was told to be by its first frame, once it came.
    pub fn kind(&self) -> Option<Kind> {
        self.kind
    }

    /// The chips known, once given or learnt.
    pub fn chips(&self) -> Option<&Chips> {
        self.chips.as_ref()
    }

    fn take_decoded(&mut self, now: Millis) {
        while let Some(decoded) = self.decoder.poll() {
            match decoded {
                Ok(reading) => self.frame(now, reading),
                Err(Corrupt { dropped, why }) => {
                    self.events.push_back(LinkEvent::Notice(format!(
                        "{} bytes from the board dropped ({why})",
                        dropped.len()
                    )));
                }
            }
        }
    }

    /// A frame arrived at `now`: the board answers, and the next frame is owed.
    fn frame(&mut self, now: Millis, reading: Reading) {
        if self.liveness.heard(now) {
            self.positions.clear();
            self.unnamed = Bitboard::EMPTY;
            self.occupancy = None;
            self.last_frame_at = None;
            self.events.push_back(LinkEvent::Back);
            // A board that went silent may have been unplugged, its lights out: shown again.
            self.leds.forget_shown();
            self.show();
        }
        self.liveness.asked(now);
        let kind = match reading {
            Reading::Chips(_) => Kind::Rfid,
            Reading::Occupancy(_) => Kind::Sentio,
        };
        if self.kind.replace(kind) != Some(kind) {
            let what = match kind {
                Kind::Rfid => "Certabo RFID board (pieces identified by their chips)",
                Kind::Sentio => "Certabo Sentio board (occupancy only)",
            };
            self.events.push_back(LinkEvent::Identified {
                what: what.to_owned(),
                serial: None,
            });
            if kind == Kind::Sentio {
                self.events
                    .push_back(LinkEvent::Notice(SENTIO_CAVEAT.to_owned()));
            }
        }
        let (board, unnamed) = match reading {
            Reading::Chips(chips) => match self.pieces(&chips) {
                Some(read) => read,
                None => return,
            },
            Reading::Occupancy(occupied) => {
                self.sentio_frame(now, occupied);
                return;
            }
        };
        let reports = self.positions.read(now, board);
        for report in reports {
            let report = self.named(report, unnamed);
            self.events.push_back(LinkEvent::Sensor(report));
        }
    }

    /// A Sentio board's frame showing `occupied`, arrived at `now`. The board samples
    /// occupancy: a capture whose victim goes and whose piece lands between two frames leaves
    /// no trace, so each change is a full report (the moves between them caught up, no
    /// placement ruled illegal, never touches). Frames [`AT_ONCE_MS`] apart or more are taken
    /// at once: a frame shown once may be the one that tells which capture was made (its victim
    /// off), and the interpreter weighs the frames a piece passing by shows. Quicker frames are
    /// taken square by square once the next still shows them, as an RFID board's: a knock
    /// shorter than a frame or two is not taken, and a victim's time off spans two frames.
    fn sentio_frame(&mut self, now: Millis, occupied: Bitboard) {
        let quick = self
            .last_frame_at
            .replace(now)
            .is_some_and(|before| now.saturating_sub(before) < AT_ONCE_MS);
        if !quick {
            self.positions.clear();
        }
        self.positions
            .read(now, unnamed_pieces(Board::empty(), occupied));
        let Some(shown) = self.positions.taken().map(Board::occupied) else {
            return;
        };
        if self.occupancy.replace(shown) != Some(shown) {
            let snapshot = BoardSnapshot::occupancy(shown);
            self.events
                .push_back(LinkEvent::Sensor(SensorKind::Snapshot(Box::new(snapshot))));
        }
    }

    /// The pieces a chip frame shows once the chips are known (learning them from it if not:
    /// `None` meanwhile), the squares of the chips no known piece has standing as [`UNNAMED`],
    /// and those squares.
    fn pieces(&mut self, frame: &[Chip; 64]) -> Option<(Board, Bitboard)> {
        let Some(chips) = self.chips.as_ref() else {
            self.learn(frame);
            return None;
        };
        let (board, unknown) = chips.read_known(frame);
        let mut unnamed = Bitboard::EMPTY;
        for UnknownChip { square, chip } in unknown {
            unnamed.add(square);
            if self.unknown.insert((square, chip)) {
                self.events.push_back(LinkEvent::Notice(format!(
                    "an unknown chip ({chip}) on {square}: read as a piece the board cannot name; \
                     calibrate again with that piece in the set"
                )));
            }
        }
        Some((unnamed_pieces(board, unnamed), unnamed))
    }

    /// `report` from the position reader, naming no piece where the board cannot (`unnamed`:
    /// the squares of this frame's unknown chips; the reader's board had its own).
    fn named(&mut self, report: SensorKind, unnamed: Bitboard) -> SensorKind {
        match report {
            SensorKind::Snapshot(snapshot) => {
                self.unnamed = unnamed;
                let mut pieces = snapshot.pieces;
                for square in unnamed {
                    pieces.discard_piece_at(square);
                }
                SensorKind::Snapshot(Box::new(BoardSnapshot {
                    occupied: snapshot.occupied,
                    pieces,
                }))
            }
            SensorKind::Lift { square, piece } => {
                let was_unnamed = self.unnamed.contains(square);
                self.unnamed.discard(square);
                SensorKind::Lift {
                    square,
                    piece: piece.filter(|_| !was_unnamed),
                }
            }
            SensorKind::Place { square, piece } => {
                let unnamed = unnamed.contains(square);
                self.unnamed.set(square, unnamed);
                SensorKind::Place {
                    square,
                    piece: piece.filter(|_| !unnamed),
                }
            }
            other => other,
        }
    }

    /// Learns the chips from `frame`, the pieces set up for a game.
    fn learn(&mut self, frame: &[Chip; 64]) {
        match self.calibrator.take(frame) {
            Learning::NotYet => {}
            Learning::Unsettled(squares) => {
                if self.unsettled.replace(squares) != Some(squares) {
                    let names: Vec<String> = squares.into_iter().map(|s| s.to_string()).collect();
                    self.events.push_back(LinkEvent::Notice(format!(
                        "learning the pieces' chips: set the pieces up for a game (the spare \
                         queens on d6 and d3, if the set has them); not settled on {}",
                        names.join(" ")
                    )));
                }
            }
            Learning::Learnt(chips) => {
                self.events.push_back(LinkEvent::Notice(format!(
                    "the pieces' chips learnt: {} chips",
                    chips.len()
                )));
                self.events.push_back(LinkEvent::Learnt(chips.to_text()));
                self.chips = Some(chips);
            }
        }
    }

    fn show(&mut self) {
        if let Some(squares) = self.leds.to_show() {
            let squares: Bitboard = squares.into_iter().collect();
            self.transmit.push_back(encode_leds(squares).to_vec());
        }
    }

    fn unresponsive_at(&self) -> Option<Millis> {
        self.liveness.lost_at(ANSWER_MS).filter(|_| self.connected)
    }
}

/// What stands, in the position reader's board, for a piece the board cannot name (a Sentio
/// board's every piece, an unknown chip): the reader sees it come and go; the reports it makes
/// name no piece there.
pub const UNNAMED: shakmaty::Piece = shakmaty::Piece {
    color: Color::White,
    role: shakmaty::Role::King,
};

/// `board` with [`UNNAMED`] on `squares`.
fn unnamed_pieces(mut board: Board, squares: Bitboard) -> Board {
    for square in squares {
        board.set_piece_at(square, UNNAMED);
    }
    board
}

impl BoardSession for CertaboSession {
    fn connect(&mut self, now: Millis) {
        self.decoder = FrameDecoder::new();
        self.connected = true;
        self.liveness.opened(now);
        self.liveness.asked(now);
        self.positions.clear();
        self.unnamed = Bitboard::EMPTY;
        self.occupancy = None;
        self.last_frame_at = None;
        self.transmit.clear();
        self.unknown.clear();
        self.leds.forget_shown();
        self.show();
    }

    fn handle_bytes(&mut self, now: Millis, bytes: &[u8]) {
        self.decoder.push(bytes);
        self.take_decoded(now);
    }

    fn handle_timeout(&mut self, now: Millis) {
        if self.unresponsive_at().is_some_and(|at| at <= now) {
            self.liveness.report_lost();
            self.events.push_back(LinkEvent::Lost);
        }
    }

    fn poll_timeout(&self) -> Option<Millis> {
        self.unresponsive_at()
    }

    fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.transmit.pop_front()
    }

    fn poll_event(&mut self) -> Option<LinkEvent> {
        self.events.pop_front()
    }

    fn handle_feedback(&mut self, _now: Millis, feedback: &Feedback) {
        if self.leds.take(feedback) {
            self.show();
        }
    }

    /// The chips kept from an earlier calibration of this board ([`Chips::to_text`]); a text
    /// that does not read as chips is said, and the chips learnt again.
    fn recall(&mut self, learnt: &str) {
        match Chips::from_text(learnt) {
            Ok(chips) if !chips.is_empty() => self.chips = Some(chips),
            Ok(_) => {}
            Err(error) => self.events.push_back(LinkEvent::Notice(format!(
                "the chips kept for this board do not read ({error}): learning them again \
                 from the start position"
            ))),
        }
    }
}
