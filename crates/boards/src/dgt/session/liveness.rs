//! Whether the board is still there: when to check on it, when an unanswered request means it
//! has stopped answering, and when the silence means the link itself has gone.

use touchmove_core::sensor::Millis;

/// The times that decide the link's checks, its lost answers and its silence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Liveness {
    /// When the last check was sent (or the link opened).
    last_check: Millis,
    /// When the first request since the last byte received was sent, if one was.
    unanswered_since: Option<Millis>,
    /// Whether the board has been reported as not answering (until a byte arrives).
    lost: bool,
    /// Whether the current silence has been reported.
    silence_reported: bool,
}

impl Liveness {
    /// A link opened at `now`.
    pub fn new(now: Millis) -> Liveness {
        Liveness {
            last_check: now,
            unanswered_since: None,
            lost: false,
            silence_reported: false,
        }
    }

    /// A request was queued for sending at `now`.
    pub fn sent(&mut self, now: Millis) {
        self.unanswered_since.get_or_insert(now);
    }

    /// A check (requests made only to see the board answer) was sent at `now`.
    pub fn checked(&mut self, now: Millis) {
        self.last_check = self.last_check.max(now);
    }

    /// A byte was received: the board is alive, any silence is over. Returns whether the board
    /// had been reported as not answering (it is back).
    pub fn received(&mut self) -> bool {
        self.unanswered_since = None;
        self.silence_reported = false;
        std::mem::replace(&mut self.lost, false)
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

    /// The board has been reported as not answering; not again until a byte arrives.
    pub fn lost(&mut self) {
        self.lost = true;
    }

    /// When the link counts as gone: `silence_ms` after the first unanswered request, if the
    /// silence is not reported yet.
    pub fn silence_at(&self, silence_ms: Millis) -> Option<Millis> {
        self.unanswered_since
            .filter(|_| !self.silence_reported)
            .map(|since| since.saturating_add(silence_ms))
    }

    /// The silence has been reported; it is not reported again until a byte arrives.
    pub fn silence_reported(&mut self) {
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
        liveness.sent(400);
        liveness.received();
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
        assert_eq!(liveness.lost_at(500), None, "nothing asked, nothing owed");
        assert_eq!(liveness.silence_at(2000), None);
        liveness.sent(100);
        liveness.sent(300);
        assert_eq!(
            liveness.lost_at(500),
            Some(600),
            "from the first unanswered request"
        );
        assert_eq!(liveness.silence_at(2000), Some(2100));
        liveness.lost();
        assert_eq!(liveness.lost_at(500), None);
        liveness.silence_reported();
        assert_eq!(liveness.silence_at(2000), None);
        assert!(liveness.received(), "the board is back");
        assert!(!liveness.received(), "and only once");
        liveness.sent(4000);
        assert_eq!(liveness.lost_at(500), Some(4500));
        assert_eq!(liveness.silence_at(2000), Some(6000));
    }
}
