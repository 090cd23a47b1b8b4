//! What the arbiter declares at the host and no sensor sees: a result, time given, a note, a
//! tag of the game named, the position before an irregularity reinstated.

use shakmaty::fen::Fen;
use shakmaty::{Color, EnPassantMode, Position};

use super::Interpreter;
use super::guess::Guess;
use super::phase::Phase;
use super::sync::Sync;
use crate::event::{ClockTimes, EventKind, TagName, one_line};
use crate::rules::Declared;
use crate::sensor::Millis;

impl Interpreter {
    /// `color` resigned at `t` (FIDE 5.1.2: declared at the host, a key; no sensor sees it), as
    /// [`Interpreter::declare`] takes it.
    pub fn resign(&mut self, t: Millis, color: Color) {
        self.declare(t, Declared::Resigned(color));
    }

    /// A result was declared at the host at `t` (a resignation, a draw agreed, a claim upheld, a
    /// default, the arbiter's decision: nothing a sensor sees). What the deadlines due by `t`
    /// decide is decided first; a game already over stays as it ended.
    pub fn declare(&mut self, t: Millis, declared: Declared) {
        self.handle_timeout(t);
        self.drop_gesture_watch();
        if self.game.ending().is_some() {
            return;
        }
        self.game.end(declared.ending());
        self.announce_ending_or_claims(t);
        self.phase = Phase::Closed;
        self.say_pending(t);
    }

    /// The arbiter gave `color` `ms` more at `t`, declared at the host (7.5.5's two minutes for
    /// an irregularity the board did not see, a 12.9.2 penalty to the opponent, a clock set
    /// wrongly made good): the game's clock follows, and a physical clock is set so by the
    /// host (the `time-added` event). Nothing without a clock, or once the game is over.
    pub fn add_time(&mut self, t: Millis, color: Color, ms: Millis) {
        self.handle_timeout(t);
        if self.game.ending().is_some() {
            return;
        }
        let Some(clock) = self.clock.as_mut() else {
            return;
        };
        clock.add_time(color, ms);
        let clock = clock.times(t);
        self.times_after_time_added();
        self.emit(t, EventKind::TimeAdded { color, ms, clock });
    }

    /// The arbiter set both players' times to `times` at `t`, at the host (a clock set wrongly
    /// corrected, 6.10.2; time taken from a player, 12.9.3): the game's clock runs on from
    /// them, and a physical clock is set so by the host (the `clock-set` event). Nothing
    /// without a clock, or once the game is over.
    pub fn set_clock(&mut self, t: Millis, times: ClockTimes) {
        self.handle_timeout(t);
        if self.game.ending().is_some() {
            return;
        }
        let Some(clock) = self.clock.as_mut() else {
            return;
        };
        clock.set_times(times, t);
        self.times_after_time_added();
        self.emit(t, EventKind::ClockSet { clock: times });
    }

    /// The arbiter noted `text` on the game at `t`, at the host (a `note` event, a comment in
    /// the PGN); line breaks become spaces.
    pub fn note(&mut self, t: Millis, text: &str) {
        self.handle_timeout(t);
        let text = one_line(text);
        if !text.is_empty() {
            self.emit(t, EventKind::Note { text });
        }
    }

    /// The arbiter named `tag` of the game `value` at `t`, at the host (a player renamed, the
    /// round set): a `tag` event; line breaks become spaces. Taken whatever the game's state.
    pub fn tag(&mut self, t: Millis, tag: TagName, value: &str) {
        self.handle_timeout(t);
        let value = one_line(value);
        self.emit(t, EventKind::Tag { tag, value });
    }

    /// The arbiter reinstated the position after ply `ply` at `t`, at the host (7.4, 7.5.1: the
    /// position before an irregularity found late). The plies after it are taken back (a
    /// `takeback` each), a `reinstated` event says so, and the board matches nothing until it
    /// shows that position again: no move is read from it meanwhile, no press ruled on (the
    /// clock follows the presses), and a `resync` says when it does. Nothing if `ply` is not
    /// before the game's last ply, or once the game is over.
    pub fn reinstate(&mut self, t: Millis, ply: u32) {
        self.handle_timeout(t);
        self.drop_gesture_watch();
        let plies = u32::try_from(self.game.plies()).unwrap_or(u32::MAX);
        if self.game.ending().is_some() || ply >= plies {
            return;
        }
        let mut moves = Vec::new();
        while u32::try_from(self.game.plies()).unwrap_or(u32::MAX) > ply {
            let san = self.game.last_san();
            let Some(taken) = self.game.take_back() else {
                break;
            };
            moves.extend(san.map(|san| san.to_string()));
            self.emit(t, EventKind::Takeback { ply: taken });
        }
        moves.reverse();
        self.guess = Guess::default();
        self.times_due = None;
        self.start_turn(None);
        self.turn.left_candidate = None;
        let fen = Fen::from_position(self.game.position(), EnPassantMode::Legal);
        self.emit(t, EventKind::Reinstated { ply, moves, fen });
        let squares: Vec<_> = self
            .sensed
            .board
            .differences(self.game.position().board())
            .into_iter()
            .collect();
        // A board already put back is in step; else it is to be put back.
        self.sync = if squares.is_empty() {
            Sync::InStep
        } else {
            self.emit(t, EventKind::Mismatch { squares });
            Sync::Reinstating
        };
        self.phase = Phase::Unexplained { quiet_at: None };
        self.reassess(t);
    }

    /// Whether the board is being put back to a position the arbiter reinstated: nothing is
    /// read from it, nor ruled on, until it shows it.
    pub(super) fn reinstating(&self) -> bool {
        self.sync == Sync::Reinstating
    }
}
