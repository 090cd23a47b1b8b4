//! Whether the board is still there: when to send a keep-alive, and when the silence means it
//! has gone.

use crate::sensor::Millis;

/// The times that decide the link's keep-alives and silence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Liveness {
    /// When a byte was last received (or the link opened).
    last_received: Millis,
    /// When bytes were last queued for sending (or the link opened).
    last_sent: Millis,
    /// Whether anything was sent since the last byte received.
    sent_since_received: bool,
    /// Whether the current silence has been reported.
    silence_reported: bool,
}

impl Liveness {
    /// A link opened at `now`.
    pub fn new(now: Millis) -> Liveness {
        Liveness {
            last_received: now,
            last_sent: now,
            sent_since_received: false,
            silence_reported: false,
        }
    }

    /// Bytes were queued for sending at `now`.
    pub fn sent(&mut self, now: Millis) {
        self.last_sent = self.last_sent.max(now);
        self.sent_since_received = true;
    }

    /// A byte was received at `now`: the board is alive, any silence is over.
    pub fn received(&mut self, now: Millis) {
        self.last_received = self.last_received.max(now);
        self.sent_since_received = false;
        self.silence_reported = false;
    }

    /// When the link will have been quiet (nothing sent, nothing received) for `keepalive_ms`.
    pub fn keepalive_at(&self, keepalive_ms: Millis) -> Millis {
        self.last_received
            .max(self.last_sent)
            .saturating_add(keepalive_ms)
    }

    /// When the board counts as gone: `silence_ms` after the last byte received, if something
    /// was sent since and the silence is not reported yet.
    pub fn silence_at(&self, silence_ms: Millis) -> Option<Millis> {
        (self.sent_since_received && !self.silence_reported)
            .then(|| self.last_received.saturating_add(silence_ms))
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
    fn keepalive_follows_the_last_traffic_either_way() {
        let mut liveness = Liveness::new(100);
        assert_eq!(liveness.keepalive_at(1000), 1100);
        liveness.sent(400);
        assert_eq!(liveness.keepalive_at(1000), 1400);
        liveness.received(900);
        assert_eq!(liveness.keepalive_at(1000), 1900);
    }

    #[test]
    fn silence_needs_something_sent_and_is_reported_once() {
        let mut liveness = Liveness::new(0);
        assert_eq!(
            liveness.silence_at(2000),
            None,
            "nothing asked, nothing owed"
        );
        liveness.sent(0);
        assert_eq!(liveness.silence_at(2000), Some(2000));
        liveness.silence_reported();
        liveness.sent(3000);
        assert_eq!(liveness.silence_at(2000), None);
        liveness.received(3500);
        assert_eq!(liveness.silence_at(2000), None);
        liveness.sent(4000);
        assert_eq!(liveness.silence_at(2000), Some(5500));
    }
}
