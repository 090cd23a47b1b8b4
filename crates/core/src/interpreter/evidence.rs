//! The evidence of the interpreter's rulings, read from the turn's touches and the board's
//! motions: what was touched and when, how long a released piece stood and over how many
//! reports, what completed an illegal move.

use shakmaty::{Move, Square};

use super::Interpreter;
use super::geometry::{landing_square, landing_squares};
use super::judge::Breach;
use super::phase::Completion;
use crate::event::Rule;
use crate::evidence::{Evidence, Observed};
use crate::sensor::Millis;

impl Interpreter {
    /// The evidence of `breach`, committed by the move `m` decided at `t`: for 4.7 the rest on
    /// the square the piece was released on, else the turn's touches (and put-backs, and a
    /// king set down to castle); then the move made.
    pub(super) fn breach_evidence(&self, breach: Breach, m: Move, t: Millis) -> Vec<Evidence> {
        let mut evidence = match breach.rule {
            Rule::ReleasedPieceMoved => self.rest_evidence(breach.square),
            _ => self.touch_evidence(m),
        };
        evidence.push(Evidence::on(t, Observed::Moved, landing_square(m)));
        evidence
    }

    /// The piece's rest on `square` that ended when it was lifted again.
    fn rest_evidence(&self, square: Square) -> Vec<Evidence> {
        self.sensed
            .motions
            .rest_on(square)
            .map(|rest| Evidence::rest(rest.since, square, rest.ms, rest.reports))
            .into_iter()
            .collect()
    }

    /// The turn's binding touches in order, each with its put-back when it went back, and the
    /// king set down to castle when it was. A square the move `m` lands on was filled by the
    /// move, not by a piece put back (a capture's victim).
    fn touch_evidence(&self, m: Move) -> Vec<Evidence> {
        let landing = landing_squares(m);
        let mut evidence = Vec::new();
        for touch in self
            .turn
            .trace
            .touches()
            .iter()
            .filter(|touch| touch.counts())
        {
            evidence.push(Evidence::on(touch.t, Observed::Touched, touch.square));
            if touch.returned && !landing.contains(touch.square) {
                let back = self.sensed.motions.placed_time(touch.square);
                evidence.push(Evidence::on(back, Observed::PutBack, touch.square));
            }
        }
        if let Some((to, t)) = self.turn.trace.castle_intent_at() {
            evidence.push(Evidence::on(t, Observed::SetToCastle, to));
        }
        evidence.sort_by_key(|item| item.t);
        evidence
    }

    /// The evidence of an illegal move completed at `t` by `completion`: the piece lifted from
    /// and set down on the squares of `displaced`, when known, then the press or the reply.
    pub(super) fn illegal_evidence(
        &self,
        t: Millis,
        displaced: Option<(Square, Square)>,
        completion: Completion,
    ) -> Vec<Evidence> {
        let mut evidence = Vec::new();
        if let Some((from, to)) = displaced {
            let lifted = self.sensed.motions.lifted_time(from);
            evidence.push(Evidence::on(lifted, Observed::Lifted, from));
            let placed = self.sensed.motions.placed_time(to);
            evidence.push(Evidence::on(placed, Observed::Placed, to));
        }
        evidence.push(match completion {
            Completion::Press => Evidence::at(t, Observed::Pressed),
            Completion::Reply(square) => Evidence::on(t, Observed::Replied, square),
        });
        evidence
    }
}
