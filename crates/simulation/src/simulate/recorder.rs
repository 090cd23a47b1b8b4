//! The simulated hands' notebook: the clock, the dice, the physical board and the events so far.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use shakmaty::{Bitboard, Board, Color, Piece, Role, Square};

use super::style::{BoardKind, HandStyle};
use super::{ExpectedRuling, RulingKind};
use touchmove_core::sensor::{Millis, SensorEvent, SensorKind};

/// Chance that a pause of at least 40 ms holds a sensor bounce, when bounces are on.
const BOUNCE_CHANCE: f64 = 0.1;

/// Chance of picking the alternative order when an order option is on.
pub(super) const ORDER_CHANCE: f64 = 0.5;

/// One recorded event, with whether a scanning board would leave it unreported.
#[derive(Debug, Clone)]
pub(super) struct Recorded {
    /// The event as it physically happened.
    pub event: SensorEvent,
    /// Set for a capture victim's removal and for bounces: a scanning board does not report it.
    pub hidden_on_scan: bool,
}

/// Emits events in time order while tracking the physical board.
#[derive(Debug)]
pub(super) struct Recorder<'s> {
    style: &'s HandStyle,
    rng: SmallRng,
    now: Millis,
    board: Board,
    involved: Bitboard,
    ply: usize,
    events: Vec<Recorded>,
    expected: Vec<ExpectedRuling>,
}

impl<'s> Recorder<'s> {
    /// A recorder at time 0 over `board`, rolling dice from `seed`.
    pub fn new(style: &'s HandStyle, board: Board, seed: u64) -> Recorder<'s> {
        Recorder {
            style,
            rng: SmallRng::seed_from_u64(seed),
            now: 0,
            board,
            involved: Bitboard::EMPTY,
            ply: 0,
            events: Vec::new(),
            expected: Vec::new(),
        }
    }

    /// The style being simulated.
    pub fn style(&self) -> &'s HandStyle {
        self.style
    }

    /// The board as it physically is now.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Starts ply `ply`, whose motion touches `involved` (kept free of bounces).
    pub fn begin_move(&mut self, ply: usize, involved: Bitboard) {
        self.ply = ply;
        self.involved = involved;
    }

    /// Marks `square` as touched by the current move.
    pub fn involve(&mut self, square: Square) {
        self.involved.add(square);
    }

    /// The squares the current move touches.
    pub fn involved(&self) -> Bitboard {
        self.involved
    }

    /// Whether this capture removes the victim first (when the style's option is on).
    pub fn victim_first(&mut self) -> bool {
        self.style().victim_first_captures && self.chance(ORDER_CHANCE)
    }

    /// True with probability `p` (0 ≤ p ≤ 1).
    pub fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p.clamp(0.0, 1.0))
    }

    /// A random number of ms in `lo..=hi` (in either order).
    pub fn ms(&mut self, lo: Millis, hi: Millis) -> Millis {
        self.rng.random_range(lo.min(hi)..=hi.max(lo))
    }

    /// A random element of `items`, if any.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        if items.is_empty() {
            return None;
        }
        items.get(self.rng.random_range(0..items.len())).copied()
    }

    /// A random square of `squares`, if any.
    pub fn pick_square(&mut self, squares: Bitboard) -> Option<Square> {
        let all: Vec<Square> = squares.into_iter().collect();
        self.pick(&all)
    }

    /// The time now, in ms since the log start.
    pub fn now(&self) -> Millis {
        self.now
    }

    /// Lets time pass until `t`, if it is later than now.
    pub fn wait_until(&mut self, t: Millis) {
        self.now = self.now.max(t);
    }

    /// Lets `lo..=hi` ms pass; a sensor bounce may happen meanwhile.
    pub fn wait(&mut self, lo: Millis, hi: Millis) {
        let pause = self.ms(lo, hi);
        if self.style.bounces && pause >= 40 && self.chance(BOUNCE_CHANCE) {
            self.bounce(pause);
        }
        self.now += pause;
    }

    /// A flicker of an uninvolved occupied square within the next `pause` ms.
    fn bounce(&mut self, pause: Millis) {
        let Some(square) = self.pick_square(self.board.occupied() & !self.involved) else {
            return;
        };
        let piece = self.board.piece_at(square);
        let at = self.now + self.ms(5, pause - 25);
        let back = at + self.ms(1, 20);
        self.push(at, lift_kind(square, piece), true);
        self.push(back, place_kind(square, piece), true);
    }

    /// A piece leaves `square`; returns the piece that was there.
    pub fn lift(&mut self, square: Square) -> Option<Piece> {
        self.lift_marked(square, false)
    }

    /// A capture victim leaves the capture square (a scanning board does not report it).
    pub fn lift_victim(&mut self, square: Square) -> Option<Piece> {
        self.lift_marked(square, true)
    }

    fn lift_marked(&mut self, square: Square, hidden: bool) -> Option<Piece> {
        let piece = self.board.remove_piece_at(square);
        self.push(self.now, lift_kind(square, piece), hidden);
        piece
    }

    /// `piece` (when known) arrives on `square`.
    pub fn place(&mut self, square: Square, piece: Option<Piece>) {
        match piece {
            Some(p) => self.board.set_piece_at(square, p),
            None => self.board.discard_piece_at(square),
        }
        self.push(self.now, place_kind(square, piece), false);
    }

    /// The promotion choice is entered (occupancy boards only; ignored on identifying boards).
    pub fn promote(&mut self, role: Role) {
        if self.style.board == BoardKind::Occupancy {
            self.push(self.now, SensorKind::Promote(role), false);
        }
    }

    /// `color` presses the clock.
    pub fn clock(&mut self, color: Color) {
        self.push(self.now, SensorKind::Clock(color), false);
    }

    /// Lists a ruling the log must produce, at the current ply.
    pub fn expect(&mut self, kind: RulingKind, color: Color, square: Square) {
        self.expected.push(ExpectedRuling {
            ply: self.ply,
            kind,
            color,
            square,
        });
    }

    /// The index of the last event recorded so far, if any.
    pub fn last_index(&self) -> Option<usize> {
        self.events.len().checked_sub(1)
    }

    /// Everything recorded: the events in time order and the expected rulings.
    pub fn finish(self) -> (Vec<Recorded>, Vec<ExpectedRuling>) {
        (self.events, self.expected)
    }

    fn push(&mut self, t: Millis, kind: SensorKind, hidden_on_scan: bool) {
        let kind = match self.style.board {
            BoardKind::Occupancy => strip_piece(kind),
            BoardKind::Identifying => kind,
        };
        self.events.push(Recorded {
            event: SensorEvent::new(t, kind),
            hidden_on_scan,
        });
    }
}

fn lift_kind(square: Square, piece: Option<Piece>) -> SensorKind {
    SensorKind::Lift { square, piece }
}

fn place_kind(square: Square, piece: Option<Piece>) -> SensorKind {
    SensorKind::Place { square, piece }
}

/// The event as an occupancy board reports it: without piece letters.
fn strip_piece(kind: SensorKind) -> SensorKind {
    match kind {
        SensorKind::Lift { square, .. } => SensorKind::Lift {
            square,
            piece: None,
        },
        SensorKind::Place { square, .. } => SensorKind::Place {
            square,
            piece: None,
        },
        other => other,
    }
}
