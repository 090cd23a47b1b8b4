//! Whether the board is still there, for every protocol's session: when it was last heard,
//! what it was asked and has not answered, when to check on it, and what of its silence has been
//! reported. A protocol chooses when its silence starts ([`Silence`]) and whether an unanswered
//! request is timed from the first ask or the latest ([`Liveness::asked`],
//! [`Liveness::asked_again`]).

use touchmove_core::sensor::Millis;

/// Where a protocol counts the silence that means its link has gone from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Silence {
    /// From the first request left unanswered (DGT: a board asked nothing may stay quiet).
    FromFirstUnanswered,
    /// From the last word heard (Hall, ChessLink: the board speaks on its own, or is polled).
    FromLastHeard,
}

/// The times that decide a link's checks, its unanswered requests and its silence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Liveness {
    /// When the board was last heard (or the link opened).
    last_heard: Millis,
    /// When the request unanswered since the board was last heard was sent, if one was.
    unanswered_since: Option<Millis>,
    /// When the last check was sent (or the link opened).
    last_check: Millis,
    /// Whether the board has been reported as not answering (until it is heard).
    lost: bool,
    /// Whether the current silence has been reported.
    silence_reported: bool,
}

/// A link opened at time 0.
impl Default for Liveness {
    fn default() -> Liveness {
        Liveness::new(0)
    }
}

impl Liveness {
    /// A link opened at `now`.
    pub fn new(now: Millis) -> Liveness {
        Liveness {
            last_heard: now,
            unanswered_since: None,
            last_check: now,
            lost: false,
            silence_reported: false,
        }
    }

    /// The link was opened again at `now`: nothing is owed, nothing reported.
    pub fn opened(&mut self, now: Millis) {
        *self = Liveness::new(now);
    }

    /// The board was heard at `now`: it is alive, any silence is over. Returns whether it had
    /// been reported as not answering (it is back).
    pub fn heard(&mut self, now: Millis) -> bool {
        self.last_heard = now;
        self.unanswered_since = None;
        self.silence_reported = false;
        std::mem::replace(&mut self.lost, false)
    }

    /// When the board was last heard (or the link opened).
    pub fn last_heard(&self) -> Millis {
        self.last_heard
    }

    /// A request was sent at `now`: an unanswered one is timed from the first.
    pub fn asked(&mut self, now: Millis) {
        self.unanswered_since.get_or_insert(now);
    }

    /// A request was sent at `now`, an unanswered one timed from this latest ask (a protocol
    /// that asks again and waits for that answer).
    pub fn asked_again(&mut self, now: Millis) {
        self.unanswered_since = Some(now);
    }

    /// When the request still unanswered was sent (as [`Liveness::asked`] or
    /// [`Liveness::asked_again`] timed it), if one is.
    pub fn unanswered_since(&self) -> Option<Millis> {
        self.unanswered_since
    }

    /// A check (requests made only to see the board answer) was sent at `now`.
    pub fn checked(&mut self, now: Millis) {
        self.last_check = self.last_check.max(now);
    }

    /// When the next check is due: `check_ms` after the last one, whatever else the link
    /// carries (a board that restarted answers requests but reports nothing by itself).
    pub fn check_at(&self, check_ms: Millis) -> Millis {
        self.last_check.saturating_add(check_ms)
    }

    /// When an unanswered request means the board has stopped answering, unless that has been
    /// reported already.
    pub fn lost_at(&self, answer_ms: Millis) -> Option<Millis> {
        self.unanswered_since
            .filter(|_| !self.lost)
            .map(|since| since.saturating_add(answer_ms))
    }

    /// The board has been reported as not answering; not again until it is heard.
    pub fn report_lost(&mut self) {
        self.lost = true;
    }

    /// When the link counts as gone: `silence_ms` after the silence began (as `from` says),
    /// if it is not reported yet.
    pub fn silence_at(&self, silence_ms: Millis, from: Silence) -> Option<Millis> {
        if self.silence_reported {
            return None;
        }
        let since = match from {
            Silence::FromFirstUnanswered => self.unanswered_since?,
            Silence::FromLastHeard => self.last_heard,
        };
        Some(since.saturating_add(silence_ms))
    }

    /// Whether the current silence has been reported (and the board not heard since).
    pub fn silence_reported(&self) -> bool {
        self.silence_reported
    }

    /// The silence has been reported; it is not reported again until the board is heard.
    pub fn report_silence(&mut self) {
        self.silence_reported = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_are_periodic_whatever_the_traffic() {
        let mut liveness = Liveness::new(100);
        assert_eq!(liveness.check_at(1000), 1100);
        liveness.asked(400);
        liveness.heard(450);
        assert_eq!(
            liveness.check_at(1000),
            1100,
            "other traffic changes nothing"
        );
        liveness.checked(1100);
        assert_eq!(liveness.check_at(1000), 2100);
    }

    #[test]
    fn an_unanswered_request_is_a_lost_board_once_then_a_silence_once() {
        let mut liveness = Liveness::new(0);
        let from = Silence::FromFirstUnanswered;
        assert_eq!(liveness.lost_at(500), None, "nothing asked, nothing owed");
        assert_eq!(liveness.silence_at(2000, from), None);
        liveness.asked(100);
        liveness.asked(300);
        assert_eq!(
            liveness.lost_at(500),
            Some(600),
            "from the first unanswered request"
        );
        assert_eq!(liveness.silence_at(2000, from), Some(2100));
        liveness.report_lost();
        assert_eq!(liveness.lost_at(500), None);
        liveness.report_silence();
        assert_eq!(liveness.silence_at(2000, from), None);
        assert!(liveness.heard(3000), "the board is back");
        assert!(!liveness.heard(3100), "and only once");
        liveness.asked(4000);
        assert_eq!(liveness.lost_at(500), Some(4500));
        assert_eq!(liveness.silence_at(2000, from), Some(6000));
    }

    #[test]
    fn a_protocol_that_asks_again_times_from_the_latest_ask_and_its_silence_from_the_last_word() {
        let mut liveness = Liveness::new(0);
        let from = Silence::FromLastHeard;
        assert_eq!(
            liveness.silence_at(3000, from),
            Some(3000),
            "quiet since the link opened"
        );
        liveness.asked_again(100);
        liveness.asked_again(600);
        assert_eq!(liveness.lost_at(500), Some(1100), "from the latest ask");
        assert_eq!(liveness.unanswered_since(), Some(600));
        liveness.heard(700);
        assert_eq!(liveness.unanswered_since(), None);
        assert_eq!(liveness.silence_at(3000, from), Some(3700));
        liveness.report_silence();
        assert!(liveness.silence_reported());
        liveness.opened(9000);
        assert_eq!(liveness, Liveness::new(9000));
    }
}
