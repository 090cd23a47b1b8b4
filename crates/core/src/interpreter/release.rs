//! When what is held back is taken in: an opponent's lift or placement once its instant is
//! over, a clock press once the reports that may still be on their way have come (or the
//! presser's piece is set down), and what the held reports mean for the turn meanwhile.

use shakmaty::{Color, Piece, Position, Square};

use super::Interpreter;
use super::geometry::capture_square;
use super::held::{HeldLift, HeldPress};
use super::phase::{Pending, Phase, Seen};
use crate::sensor::{Millis, SensorKind};

impl Interpreter {
    /// Takes in the held reply lift at `now`: after the arrival it was reported with (then
    /// `seen` says whether whose hand lifted it is clear), or in its order (`Seen::Hand`: held
    /// for the bounce window like any lift).
    pub(super) fn release_reply(&mut self, reply: HeldLift, now: Millis, seen: Seen) {
        if seen == Seen::Unordered {
            self.release_held();
            self.lift(reply.t, reply.square, seen);
            return;
        }
        self.take_lift(reply);
        if self.held_until().is_some_and(|until| until <= now) {
            self.release_held();
        }
    }

    /// A lift reported: held for the bounce window (with the lifts of the same instant).
    pub(super) fn take_lift(&mut self, lift: HeldLift) {
        if self.held.lifts.first().is_some_and(|h| h.t != lift.t) {
            self.release_held();
        }
        self.held.lifts.push(lift);
        if self.config.bounce_ms == 0 {
            self.release_held();
        }
    }

    /// Whether `lift` is made while a piece of the other side's is in hand, on a board with a
    /// report horizon: a scanning board reports the changes of one scan at one instant in its
    /// own square order, so the opponent's first lift can come before the arrival of the move
    /// it answers (or of the correction that finishes it: the king of a rook-first castling).
    /// Such a lift is held to the end of its instant.
    pub(super) fn reply_lift(&self, lift: &HeldLift) -> bool {
        if self.config.report_horizon_ms == 0 {
            return false;
        }
        let Some(color) = self.lifted_color(lift) else {
            return false;
        };
        self.in_hand_of(!color)
    }

    /// Whether a piece of `color`'s that the record has on the board is off it (in hand).
    fn in_hand_of(&self, color: Color) -> bool {
        let expected = self.game.position().board().by_color(color);
        (expected & !self.sensed.board.occupied()).any()
    }

    /// Whether `kind` is a piece of the opponent's reported set down while the mover's piece is
    /// in hand, on a board with a report horizon: one scan can show the whole reply, its arrival
    /// first in the board's square order, with the arrival of the move it answers. Such a
    /// placement is held to the end of its instant, so that the mover's arrival and the reply's
    /// lift come before it (a hand lifts before it sets down).
    pub(super) fn reply_arrival(&self, kind: &SensorKind) -> bool {
        let SensorKind::Place { piece, .. } = kind else {
            return false;
        };
        // While the record is behind the board (catching up), whose move the board shows is not
        // known: the reports are taken in their order.
        if self.config.report_horizon_ms == 0
            || self.held.reply_place.is_some()
            || self.sync.catching_up()
            || matches!(self.phase, Phase::Unexplained { .. })
        {
            return false;
        }
        let mover = self.game.turn();
        if piece.is_none_or(|piece| piece.color == mover) {
            return false;
        }
        self.in_hand_of(mover)
    }

    /// When the instant of the held reply placement is over.
    pub(super) fn reply_place_due(&self) -> Option<Millis> {
        self.held.reply_place.map(|place| place.t.saturating_add(1))
    }

    /// Takes in the held reply placement, if any, with its own time.
    pub(super) fn release_reply_place(&mut self) {
        if let Some(place) = self.held.reply_place.take() {
            self.set_down(place.t, place.square, place.piece);
        }
    }

    /// The colour of the piece `lift` took off the board, when known.
    pub(super) fn lifted_color(&self, lift: &HeldLift) -> Option<Color> {
        lift.piece
            .or_else(|| self.turn.trace.origin_piece(lift.square))
            .or_else(|| self.game.position().board().piece_at(lift.square))
            .map(|piece| piece.color)
    }

    /// Whether `kind` is a piece of the other side's than `reply`'s set down on another square
    /// (it is taken before the held reply lift).
    pub(super) fn arrives_before(&self, kind: &SensorKind, reply: &HeldLift) -> bool {
        let replier = self.lifted_color(reply);
        matches!(kind, SensorKind::Place { square, piece }
            if *square != reply.square
                && piece.is_none_or(|piece| Some(piece.color) != replier))
    }

    /// The opponent's lifts held from the instant `t` of a piece of the mover's set down
    /// (`piece`, on `square`), taken out to go after it: the scan reported both in its own
    /// square order, and the mover's piece arriving shows the mover's hand still at work (a
    /// slide going on past a square it was seen resting on), so the press does not complete
    /// the move before it. Each with how clear it is whose hand lifted it (clear once the
    /// mover has pressed). A lift of `square` itself stays before the arrival: it is the
    /// captured piece, which left before the capturing one could come.
    pub(super) fn replies_before_arrival(
        &mut self,
        t: Millis,
        square: Square,
        piece: Option<Piece>,
    ) -> Vec<(HeldLift, Seen)> {
        let mover = self.game.turn();
        let arrives = piece.is_some_and(|piece| piece.color == mover);
        if !arrives || self.config.report_horizon_ms == 0 {
            return Vec::new();
        }
        let (replies, own): (Vec<HeldLift>, Vec<HeldLift>) =
            self.held.lifts.iter().partition(|lift| {
                lift.t == t && lift.square != square && self.lifted_color(lift) == Some(!mover)
            });
        if replies.is_empty() {
            return Vec::new();
        }
        self.held.lifts = own;
        let seen = if self.mover_press_held() {
            Seen::Hand
        } else {
            Seen::Unordered
        };
        replies.into_iter().map(|reply| (reply, seen)).collect()
    }

    /// When the held press is to be weighed: once the reports that may still be on their way
    /// have arrived.
    pub(super) fn press_due(&self) -> Option<Millis> {
        self.held
            .press
            .filter(|p| !p.until_placed)
            .map(|p| p.t.saturating_add(self.config.report_horizon_ms))
    }

    /// The held press's horizon passed: it is weighed, unless the presser's piece is still in
    /// hand (then it waits for the piece to be reported set down).
    pub(super) fn press_horizon_passed(&mut self) {
        let in_hand = matches!(self.phase, Phase::InHand { .. });
        match self.held.press.as_mut() {
            Some(press) if in_hand && press.color == self.game.turn() => press.until_placed = true,
            _ => self.weigh_held_press(),
        }
    }

    /// A piece was reported set down (or the whole board): a press waiting for it is weighed.
    pub(super) fn placed_for_held_press(&mut self) {
        if self.held.press.is_some_and(|press| press.until_placed) {
            self.weigh_held_press();
        }
    }

    /// A press at `t`: weighed at once without a report horizon, or when the presser's move has
    /// been decided already (nothing of theirs is still to come), else held until the horizon
    /// passes (a press already held is weighed first: presses are weighed in order; the other
    /// side's press waits behind one still within its horizon with the presser's piece in hand,
    /// see [`Interpreter::waits_behind_held_press`]).
    pub(super) fn press(&mut self, t: Millis, color: Color) {
        if self.waits_behind_held_press(color) {
            self.held.next_press = Some(HeldPress {
                t,
                color,
                until_placed: false,
            });
            return;
        }
        // Weighing the press already held may complete its move: whose turn it is comes after.
        self.weigh_held_press();
        if self.config.report_horizon_ms == 0 || color != self.game.turn() {
            self.clock(t, color);
            return;
        }
        self.held.press = Some(HeldPress {
            t,
            color,
            until_placed: false,
        });
    }

    /// Whether a press by `color` waits behind the held press: that one is the other side's,
    /// made with its piece in hand, and within its horizon the report of where the piece went
    /// may still be on its way (blitz hands: the reply made and pressed within one scan). Past
    /// the horizon, the other side's press is what completes the held one's move.
    fn waits_behind_held_press(&self, color: Color) -> bool {
        self.held.next_press.is_none()
            && matches!(self.phase, Phase::InHand { .. })
            && self.held.press.is_some_and(|press| {
                press.color != color && press.color == self.game.turn() && !press.until_placed
            })
    }

    /// Weighs the held press, if any, with its own time, then takes in the press that waited
    /// behind it.
    pub(super) fn weigh_held_press(&mut self) {
        if let Some(press) = self.held.press.take() {
            self.clock(press.t, press.color);
        }
        if let Some(next) = self.held.next_press.take() {
            self.press(next.t, next.color);
        }
    }

    /// Whether the mover has pressed the clock and the press waits for the reports.
    pub(super) fn mover_press_held(&self) -> bool {
        self.held
            .press
            .is_some_and(|press| press.color == self.game.turn())
    }

    /// When the instant of the held reply lift is over.
    pub(super) fn reply_due(&self) -> Option<Millis> {
        self.held.reply.map(|lift| lift.t.saturating_add(1))
    }

    /// The square of the victim the mover's piece, set down where only a capture elsewhere
    /// makes a legal move of it (en passant), still waits to have taken away.
    fn owed_victim(&self) -> Option<Square> {
        let Phase::Displaced {
            from,
            to,
            completed: false,
        } = self.phase
        else {
            return None;
        };
        self.turn
            .legal
            .moves()
            .iter()
            .find(|m| m.from() == Some(from) && m.to() == to)
            .and_then(|m| capture_square(*m))
            .filter(|victim| *victim != to)
    }

    /// When the held lifts stop being possible bounces.
    pub(super) fn held_until(&self) -> Option<Millis> {
        self.held
            .lifts
            .first()
            .map(|h| h.t.saturating_add(self.config.bounce_ms).saturating_add(1))
    }

    /// Takes in the held lifts. Lifts reported at the same instant have no known order: the
    /// mover's own pieces count as lifted first (as FIDE 4.3.3 counts an unclear order), and so
    /// does the victim the mover's move still owes (a pawn set down behind an en passant victim:
    /// the scan that shows the victim taken away may show the reply's first lift too).
    ///
    /// Once the mover has pressed with their move shown, a lift of the opponent's among them is
    /// the reply, and so are the others (the mover's hand is done; the opponent lifts the
    /// piece they capture): the press completes the move first.
    pub(super) fn release_held(&mut self) {
        // Taken out to be sorted and drained, then put back: its buffer serves the next lifts.
        let mut held = std::mem::take(&mut self.held.lifts);
        let shown = matches!(
            self.phase,
            Phase::Pending {
                what: Pending::Move {
                    correction: false,
                    ..
                },
                ..
            }
        );
        if shown && self.mover_press_held() && held.iter().any(|h| self.opponents_piece(h.square)) {
            self.weigh_held_press();
        }
        let mover = self.game.turn();
        let owed = self.owed_victim();
        held.sort_by_key(|h| {
            Some(h.square) != owed
                && self.turn.trace.origin_piece(h.square).map(|p| p.color) == Some(!mover)
        });
        for lift in held.drain(..) {
            self.lift(lift.t, lift.square, Seen::Hand);
        }
        self.held.lifts = held;
    }
}
