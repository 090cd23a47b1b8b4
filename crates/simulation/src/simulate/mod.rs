//! A hands simulator: turns a game (start position and moves) into the sensor log of plausible
//! human hand motions, with the rulings that log must produce.
//!
//! It is seeded and reproducible, reads no clock and does no I/O: [`simulate`] takes data and
//! returns data. Times are ms since the log start and never decrease.
//!
//! The motions respect the interpreter's conventions so that clean play produces no ruling:
//! slide dwells last under 250 ms, a real lift and place on one square are never less than
//! 50 ms apart (only bounces are), a capture victim is lifted while the capturing piece is in
//! hand or before it is lifted, and at least 300 ms pass between one move and the next.

mod breach;
mod carry;
mod castling;
pub mod footprint;
mod motion;
mod move_end;
mod promotion;
mod recorder;
mod scan;
mod sequence;
pub mod style;

#[cfg(test)]
mod tests;

use shakmaty::attacks::between;
use shakmaty::{Bitboard, Chess, Color, Move, Position, Square};

pub use move_end::MoveEnd;
pub use sequence::{SequenceGame, SimulatedSequence, simulate_sequence};
pub use style::{BoardKind, HandStyle};

use breach::Breach;
use recorder::{Recorded, Recorder};
use touchmove_core::event::Rule;
use touchmove_core::sensor::{Millis, SensorEvent};

/// What a ruling is about: an article of the Laws, or a completed illegal move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RulingKind {
    /// An Article 4 breach (a `violation` event).
    Rule(Rule),
    /// A completed illegal move (an `illegal` event).
    Illegal,
}

/// A ruling the simulated log must produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExpectedRuling {
    /// The ply (from 1) during which the breach happens.
    pub ply: usize,
    /// The rule broken, or `Illegal`.
    pub kind: RulingKind,
    /// The side that committed it.
    pub color: Color,
    /// The square the ruling names: the touched piece for 4.3.1, the rook's original square for
    /// 4.4.2, the illegal destination for an illegal move.
    pub square: Square,
}

/// A simulated game: the sensor log and the rulings it must produce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimulatedGame {
    /// The sensor events, in time order.
    pub events: Vec<SensorEvent>,
    /// The rulings the log must produce, in order (Article 4 breaches and illegal moves only;
    /// game results are not listed).
    pub expected_rulings: Vec<ExpectedRuling>,
    /// Where each move ends, one per ply, in the log's time.
    pub move_ends: Vec<MoveEnd>,
}

/// Where a move ends, as indices into the recorded events (resolved to log times at the end).
#[derive(Debug, Clone, Copy)]
struct EndMark {
    last: usize,
    clock: Option<usize>,
    extendable: bool,
}

/// Why a game could not be simulated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SimulateError {
    /// A move is not legal in the position it is played from.
    #[error("ply {ply}: move {uci} is not legal in {fen}")]
    IllegalMove {
        /// The ply (from 1).
        ply: usize,
        /// The move in UCI notation.
        uci: String,
        /// The position, as FEN.
        fen: String,
    },
}

/// Simulates the hands playing `moves` from `start` in `style`, with dice rolled from `seed`.
pub fn simulate(
    start: &Chess,
    moves: &[Move],
    style: &HandStyle,
    seed: u64,
) -> Result<SimulatedGame, SimulateError> {
    let mut rec = Recorder::new(style, start.board().clone(), seed);
    let mut pos = start.clone();
    let mut illegal_done = shakmaty::ByColor::new_with(|_| false);
    let mut marks = Vec::with_capacity(moves.len());
    // Where the last move's pieces landed, and when its hand was done.
    let mut landed: Option<(Bitboard, Millis)> = None;
    for (index, &m) in moves.iter().enumerate() {
        check_legal(&pos, m, index + 1)?;
        rec.begin_move(index + 1, involved(&pos, m));
        let color = pos.turn();
        let breach = breach::choose(&mut rec, &pos, m, !*illegal_done.get(color));
        think(&mut rec, index == 0, takes_landed(m, landed));
        let detour = match breach {
            Some(Breach::TouchOwn(square)) => {
                breach::touch_put_back(&mut rec, &pos, m, color, square);
                None
            }
            Some(Breach::IllegalMove(square)) => {
                *illegal_done.get_mut(color) = true;
                breach::illegal_move(&mut rec, color, m, square);
                None
            }
            Some(Breach::Corrected(square)) => Some(square),
            None => None,
        };
        motion::play(&mut rec, &pos, m, detour);
        landed = Some((landing(m, color), rec.now()));
        let last = rec.last_index().unwrap_or_default();
        let clock = press_clock(&mut rec, color);
        marks.push(EndMark {
            last,
            clock,
            extendable: move_end::extendable(&pos, m),
        });
        pos.play_unchecked(m);
    }
    let (recorded, expected_rulings) = rec.finish();
    let (events, reported_at) = if style.scanning() {
        scan::scan(start.board(), &recorded, seed, !style.blitz_presses)
    } else {
        unscanned(recorded)
    };
    Ok(SimulatedGame {
        events,
        expected_rulings,
        move_ends: resolve_ends(&marks, &reported_at),
    })
}

/// The events as recorded, with the time each is reported at (its own).
fn unscanned(recorded: Vec<Recorded>) -> (Vec<SensorEvent>, Vec<Millis>) {
    let times = recorded.iter().map(|r| r.event.t).collect();
    (recorded.into_iter().map(|r| r.event).collect(), times)
}

/// The log times of the end marks, from the time each recorded event is reported at.
fn resolve_ends(marks: &[EndMark], reported_at: &[Millis]) -> Vec<MoveEnd> {
    let at = |index: usize| reported_at.get(index).copied().unwrap_or_default();
    marks
        .iter()
        .map(|mark| MoveEnd {
            t: at(mark.last),
            clock: mark.clock.map(at),
            extendable: mark.extendable,
        })
        .collect()
}

fn check_legal(pos: &Chess, m: Move, ply: usize) -> Result<(), SimulateError> {
    if pos.is_legal(m) {
        return Ok(());
    }
    Err(SimulateError::IllegalMove {
        ply,
        uci: m.to_uci(shakmaty::CastlingMode::Standard).to_string(),
        fen: shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string(),
    })
}

/// The thinking time before a move (never under 300 ms), or in blitz, one reply in four, a
/// quick reply: the first lift 50–250 ms after the opponent's press, often within the scan that
/// reports the opponent's move (the press has completed that move). A quick reply that takes the
/// piece the opponent just set down waits until `seen_at`: a hand cannot take a piece before its
/// player has seen it land.
fn think(rec: &mut Recorder<'_>, first: bool, seen_at: Option<Millis>) {
    let style = rec.style();
    if !first && style.blitz_presses && style.clock && rec.chance(QUICK_REPLY_CHANCE) {
        rec.wait(50, 250);
        if let Some(seen_at) = seen_at {
            rec.wait_until(seen_at);
        }
        return;
    }
    // The previous move must be decided (its slide window closed) before this one starts; scans
    // can shift a report by up to one scan, so scanning boards think longer.
    let least = if style.scanning() { 600 } else { 300 };
    if style.thinking {
        let (lo, hi) = style.thinking_ms;
        rec.wait(lo.max(least), hi.max(least));
    } else {
        rec.wait(least + 100, least + 100);
    }
}

/// How often a blitz reply starts at once.
const QUICK_REPLY_CHANCE: f64 = 0.25;

/// The least time from a piece set down to the opponent's hand taking it: seeing it land and
/// reaching it takes a human at least this long (more than a scanning board's longest period,
/// so a scan shows the piece first).
const REACTION_MS: Millis = 300;

/// When the hand making `m` may first take a piece the last move set down: `landed` says where
/// that move's pieces landed and when its hand was done. `None` when `m` takes none of them.
fn takes_landed(m: Move, landed: Option<(Bitboard, Millis)>) -> Option<Millis> {
    let (squares, done) = landed?;
    let victim = footprint::victim(m)?;
    squares
        .contains(victim)
        .then_some(done.saturating_add(REACTION_MS))
}

/// The mover presses the clock 100–600 ms after the move's last event (0–200 ms in blitz),
/// when clocks are on; returns the index of the press among the recorded events.
fn press_clock(rec: &mut Recorder<'_>, color: Color) -> Option<usize> {
    if !rec.style().clock {
        return None;
    }
    if rec.style().blitz_presses {
        rec.wait(0, 200);
    } else {
        rec.wait(100, 600);
    }
    rec.clock(color);
    rec.last_index()
}

/// The squares `m`'s pieces (of `color`) stand on once it is made.
fn landing(m: Move, color: Color) -> Bitboard {
    match (m, m.castling_side()) {
        (Move::Castle { .. }, Some(side)) => {
            Bitboard::from_square(side.king_to(color)) | Bitboard::from_square(side.rook_to(color))
        }
        _ => Bitboard::from_square(m.to()),
    }
}

/// Every square the move's pieces leave, cross or reach.
fn involved(pos: &Chess, m: Move) -> Bitboard {
    let mut squares = Bitboard::from_square(m.to());
    if let Some(from) = m.from() {
        squares.add(from);
        squares |= between(from, m.to());
    }
    match m {
        Move::EnPassant { from, to } => squares.add(Square::from_coords(to.file(), from.rank())),
        Move::Castle { king, .. } => {
            if let Some(side) = m.castling_side() {
                let color = pos.turn();
                squares.add(side.king_to(color));
                squares.add(side.rook_to(color));
                squares |= between(king, side.king_to(color));
            }
        }
        _ => {}
    }
    squares
}
