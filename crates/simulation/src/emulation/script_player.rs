//! A script of timed board changes, played from the moment it is started at a chosen speed.

use touchmove_core::sensor::Millis;

/// A change of a script, with its time in ms since the script started.
pub(crate) trait Scheduled {
    /// When it happens, in script time (never decreasing along a script).
    fn t(&self) -> Millis;
    /// The same change, `by` ms later.
    #[must_use]
    fn later(self, by: Millis) -> Self;
}

/// Plays a script: nothing is due until it is started; then each event falls due at the start
/// time plus its script time divided by the speed.
#[derive(Debug, Clone)]
pub(crate) struct ScriptPlayer<E> {
    events: Vec<E>,
    next: usize,
    origin: Option<Millis>,
    speed: f64,
    /// A script that goes round: the length of a round (script time), and the rounds done.
    lap: Option<Millis>,
    laps: u64,
}

impl<E: Scheduled + Copy> ScriptPlayer<E> {
    /// A script played `speed` times as fast (a speed that is not a positive number plays at
    /// normal speed), not started.
    pub(crate) fn new(events: Vec<E>, speed: f64) -> ScriptPlayer<E> {
        let speed = if speed.is_finite() && speed > 0.0 {
            speed
        } else {
            1.0
        };
        ScriptPlayer {
            events,
            next: 0,
            origin: None,
            speed,
            lap: None,
            laps: 0,
        }
    }

    /// The script played round and round, a round lasting `lap` (script time, after its last
    /// event), if given.
    pub(crate) fn with_lap(mut self, lap: Option<Millis>) -> ScriptPlayer<E> {
        self.lap = lap.filter(|_| !self.events.is_empty());
        self
    }

    /// Starts the script at `now`.
    pub(crate) fn start(&mut self, now: Millis) {
        self.origin = Some(now);
    }

    /// Whether the script has been started.
    pub(crate) fn started(&self) -> bool {
        self.origin.is_some()
    }

    /// Whether the script has started and everything in it has happened (never, for a script
    /// that goes round).
    pub(crate) fn done(&self) -> bool {
        self.started() && self.next >= self.events.len() && self.lap.is_none()
    }

    /// When the next event falls due, once the script has started.
    pub(crate) fn due(&self) -> Option<Millis> {
        let origin = self.origin?;
        let event = self.events.get(self.next)?;
        let rounds = self
            .lap
            .map_or(0, |lap| lap.saturating_mul(self.laps))
            .saturating_add(event.t());
        Some(origin.saturating_add((rounds as f64 / self.speed).round() as Millis))
    }

    /// Adds `events` (timed from 0) to the end of a script that does not go round, to happen
    /// from `now` on (emulator time), and never before the events already in it.
    pub(crate) fn append(&mut self, now: Millis, events: impl IntoIterator<Item = E>) {
        let script_now = self.script_time(now);
        let last = self.events.last().map_or(0, Scheduled::t);
        let base = script_now.max(last);
        self.events
            .extend(events.into_iter().map(|event| event.later(base)));
    }

    /// Puts `events` (timed from 0) before the events still to happen, to happen from `now` on
    /// (emulator time); those still to happen keep their spacing, moved later if need be so
    /// that the first of them comes `pause` (script time) after the last put in at the soonest.
    pub(crate) fn insert(&mut self, now: Millis, events: Vec<E>, pause: Millis) {
        let script_now = self.script_time(now);
        let inserted: Vec<E> = events
            .into_iter()
            .map(|event| event.later(script_now))
            .collect();
        let end = inserted.last().map_or(script_now, Scheduled::t);
        let rest = self.events.get(self.next..).unwrap_or_default();
        let shift = rest.first().map_or(0, |first| {
            end.saturating_add(pause).saturating_sub(first.t())
        });
        let rest: Vec<E> = rest.iter().map(|event| event.later(shift)).collect();
        self.events.truncate(self.next);
        self.events.extend(inserted);
        self.events.extend(rest);
    }

    /// The script time at emulator time `now` (0 before the start).
    fn script_time(&self, now: Millis) -> Millis {
        let elapsed = self.origin.map_or(0, |origin| now.saturating_sub(origin));
        (elapsed as f64 * self.speed).round() as Millis
    }

    /// The next event, taken as happened.
    pub(crate) fn pop(&mut self) -> Option<E> {
        let event = self.events.get(self.next).copied()?;
        self.next += 1;
        if self.next >= self.events.len() && self.lap.is_some() {
            self.next = 0;
            self.laps = self.laps.saturating_add(1);
        }
        Some(event)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    struct At(Millis);

    impl Scheduled for At {
        fn t(&self) -> Millis {
            self.0
        }
        fn later(self, by: Millis) -> At {
            At(self.0 + by)
        }
    }

    #[test]
    fn appended_events_happen_from_now_and_after_those_before_them() {
        let mut player = ScriptPlayer::new(vec![At(0)], 2.0);
        player.start(100);
        assert_eq!(player.pop(), Some(At(0)));
        assert!(player.done());
        // At 600 ms, 500 ms after the start: 1000 ms of script time.
        player.append(600, [At(0), At(400)]);
        assert!(!player.done());
        assert_eq!(player.due(), Some(600));
        assert_eq!(player.pop(), Some(At(1_000)));
        assert_eq!(player.due(), Some(800));
        // Appended before the last has happened: after it.
        player.append(650, [At(10)]);
        player.pop();
        assert_eq!(player.pop(), Some(At(1_410)));
    }

    #[test]
    fn inserted_events_happen_from_now_and_push_the_rest_back_keeping_their_spacing() {
        let mut player = ScriptPlayer::new(vec![At(0), At(1_000), At(1_500)], 1.0);
        player.start(0);
        assert_eq!(player.pop(), Some(At(0)));
        // At 900 ms: two events 100 ms apart, then the rest from 300 ms after the last.
        player.insert(900, vec![At(0), At(100)], 300);
        assert_eq!(player.due(), Some(900));
        assert_eq!(player.pop(), Some(At(900)));
        assert_eq!(player.pop(), Some(At(1_000)));
        assert_eq!(player.pop(), Some(At(1_300)));
        assert_eq!(player.pop(), Some(At(1_800)));
        assert!(player.done());
        // Inserted when the rest is far enough: it stays where it was.
        let mut player = ScriptPlayer::new(vec![At(5_000)], 1.0);
        player.start(0);
        player.insert(0, vec![At(0)], 300);
        assert_eq!(player.pop(), Some(At(0)));
        assert_eq!(player.pop(), Some(At(5_000)));
    }

    #[test]
    fn events_fall_due_from_the_start_at_the_speed() {
        let mut player = ScriptPlayer::new(vec![At(0), At(1_000), At(2_500)], 2.0);
        assert_eq!(player.due(), None, "not started");
        player.start(300);
        assert_eq!(player.due(), Some(300));
        assert_eq!(player.pop(), Some(At(0)));
        assert_eq!(player.due(), Some(800));
        player.pop();
        // 2500 / 2 = 1250 after the start.
        assert_eq!(player.due(), Some(1_550));
        assert!(!player.done());
        player.pop();
        assert!(player.done());
        assert_eq!((player.due(), player.pop()), (None, None));
    }

    #[test]
    fn a_script_that_goes_round_starts_again_after_its_lap() {
        let mut player = ScriptPlayer::new(vec![At(0), At(1_000)], 2.0).with_lap(Some(3_000));
        player.start(100);
        let mut due = Vec::new();
        for _ in 0..5 {
            due.push(player.due());
            assert!(player.pop().is_some());
        }
        // Rounds of 3 s at twice the speed: 1.5 s apart.
        assert_eq!(
            due,
            [Some(100), Some(600), Some(1_600), Some(2_100), Some(3_100)]
        );
        assert!(!player.done());
    }

    #[test]
    fn a_speed_that_is_not_a_positive_number_is_normal_speed() {
        for speed in [0.0, -2.0, f64::NAN, f64::INFINITY] {
            let mut player = ScriptPlayer::new(vec![At(1_000)], speed);
            player.start(0);
            assert_eq!(player.due(), Some(1_000), "speed {speed}");
        }
    }
}
