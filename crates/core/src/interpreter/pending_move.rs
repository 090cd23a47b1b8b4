//! The move the board shows while it waits to be decided, said at once as `pending` (a page, a
//! clock's display can show it before the slide window closes), and unsaid when the board
//! leaves it undecided.

use shakmaty::{Move, Position};

use super::Interpreter;
use super::phase::{Pending, Phase};
use crate::event::{EventKind, PendingMove};
use crate::sensor::Millis;

impl Interpreter {
    /// The move pending now, if any. A correction of the last move is not said (it replaces a
    /// move already shown), nor a move the mover's held press has completed (it is decided
    /// with the press's own time, once the board's reports have come).
    fn pending_move(&self) -> Option<Move> {
        if self.mover_press_held() {
            return None;
        }
        match self.phase {
            Phase::Pending {
                what:
                    Pending::Move {
                        m,
                        correction: false,
                    },
                ..
            } => Some(m),
            _ => None,
        }
    }

    /// Says at `t` the move pending now, or that none is any more, when that changed since it
    /// was last said (a decided move unsays it itself: its `move` follows).
    pub(super) fn say_pending(&mut self, t: Millis) {
        let now = self.pending_move();
        if now == self.pending_said {
            return;
        }
        self.pending_said = now;
        let position = self.game.position();
        let ply = u32::try_from(self.game.plies())
            .unwrap_or(u32::MAX)
            .saturating_add(1);
        let said = now.map(|m| {
            let san = self.game.san_plus(m).to_string();
            let uci = m.to_uci(position.castles().mode()).to_string();
            (san, uci)
        });
        let (san, uci) = said.unzip();
        let color = position.turn();
        self.emit(
            t,
            EventKind::Pending(PendingMove {
                ply,
                color,
                san,
                uci,
            }),
        );
    }
}
