//! The decisions made, in order, until they are polled.

use std::collections::VecDeque;

use crate::event::{EventKind, GameEvent};
use crate::sensor::Millis;

/// The game events decided and not yet polled, and the time of the last one.
#[derive(Debug, Clone, Default)]
pub(super) struct Decisions {
    out: VecDeque<GameEvent>,
    last_t: Millis,
}

impl Decisions {
    /// A decision made at `t` (never before the last one: times do not go back).
    pub(super) fn push(&mut self, t: Millis, kind: EventKind) {
        let t = t.max(self.last_t);
        self.last_t = t;
        self.out.push_back(GameEvent { t, kind });
    }

    /// The next decision, in order.
    pub(super) fn pop(&mut self) -> Option<GameEvent> {
        self.out.pop_front()
    }

    /// The time of the last decision (0 before any).
    pub(super) fn last_t(&self) -> Millis {
        self.last_t
    }
}
