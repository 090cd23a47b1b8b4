//! The checks of a board that speaks only when something changes and is checked by a request
//! (a DGT Pegasus, a Square Off): the request sent every so often, more often while the board
//! does not answer; a request unanswered for a while is a lost board, for longer a gone link.
//! The session sends the request; [`Checks`] says when, and what expired.

use touchmove_core::sensor::Millis;

use super::liveness::{Liveness, Silence};

/// The times a board's checks keep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckTimes {
    /// How often the board is checked.
    pub every_ms: Millis,
    /// How often a board that stopped answering is checked.
    pub lost_every_ms: Millis,
    /// How long a request may go unanswered before the board counts as unresponsive.
    pub answer_ms: Millis,
    /// How long a request may go unanswered before the link counts as gone.
    pub silence_ms: Millis,
}

impl CheckTimes {
    /// A board checked every second, every 250 ms while it does not answer, lost after 500 ms
    /// without an answer, gone after 3 s (a DGT Pegasus, a Square Off).
    pub const QUIET_BOARD: CheckTimes = CheckTimes {
        every_ms: 1000,
        lost_every_ms: 250,
        answer_ms: 500,
        silence_ms: 3000,
    };
}

/// What expired at a time ([`Checks::expire`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Expired {
    /// The link is gone (nothing else is done: the runner reconnects).
    pub gone: bool,
    /// The board stopped answering.
    pub lost: bool,
    /// A check is due: send the request, then [`Checks::checked`].
    pub check: bool,
}

/// A board's checks on an open link.
#[derive(Debug, Clone)]
pub struct Checks {
    times: CheckTimes,
    liveness: Liveness,
    /// Whether the link is open (between opening and a reported silence).
    connected: bool,
    /// Whether the board was said lost and has not answered since.
    lost: bool,
}

impl Checks {
    /// Checks kept with `times`, on no link yet.
    pub fn new(times: CheckTimes) -> Checks {
        Checks {
            times,
            liveness: Liveness::new(0),
            connected: false,
            lost: false,
        }
    }

    /// The link was opened at `now`.
    pub fn opened(&mut self, now: Millis) {
        self.liveness.opened(now);
        self.connected = true;
        self.lost = false;
    }

    /// A check was sent at `now` (it asks for an answer).
    pub fn checked(&mut self, now: Millis) {
        self.liveness.checked(now);
        self.liveness.asked(now);
    }

    /// Another request asking an answer was sent at `now`.
    pub fn asked(&mut self, now: Millis) {
        self.liveness.asked(now);
    }

    /// The board was heard at `now`; whether it is back after being said lost (then check it
    /// at once: what happened meanwhile is read from its answer).
    pub fn heard(&mut self, now: Millis) -> bool {
        let back = self.liveness.heard(now);
        if back {
            self.lost = false;
        }
        back
    }

    /// Whether the link is open.
    pub fn connected(&self) -> bool {
        self.connected
    }

    /// What expired by `now`: the link gone (then nothing else), the board lost, a check due.
    pub fn expire(&mut self, now: Millis) -> Expired {
        if self.silence_at().is_some_and(|at| at <= now) {
            self.liveness.report_silence();
            self.connected = false;
            return Expired {
                gone: true,
                ..Expired::default()
            };
        }
        let lost = self.unresponsive_at().is_some_and(|at| at <= now);
        if lost {
            self.liveness.report_lost();
            self.lost = true;
        }
        Expired {
            gone: false,
            lost,
            check: self.check_at().is_some_and(|at| at <= now),
        }
    }

    /// When something next expires.
    pub fn poll_timeout(&self) -> Option<Millis> {
        [self.silence_at(), self.unresponsive_at(), self.check_at()]
            .into_iter()
            .flatten()
            .min()
    }

    fn unresponsive_at(&self) -> Option<Millis> {
        self.liveness
            .lost_at(self.times.answer_ms)
            .filter(|_| self.connected)
    }

    fn silence_at(&self) -> Option<Millis> {
        self.liveness
            .silence_at(self.times.silence_ms, Silence::FromFirstUnanswered)
            .filter(|_| self.connected)
    }

    fn check_at(&self) -> Option<Millis> {
        let every = if self.lost {
            self.times.lost_every_ms
        } else {
            self.times.every_ms
        };
        self.connected.then(|| self.liveness.check_at(every))
    }
}
