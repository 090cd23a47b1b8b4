//! `serve --public-delay`: what the public sees of a board, that long after the operator. Each
//! change of the board is kept as a sample of what the public will see (its summary, its tags
//! and finished games, shared with the samples before while they do not change) and each
//! event published waits its turn; a sample or an event is shown once it is as old as the
//! delay, never before. The current game's PGN is not kept per sample: the public's is made
//! from the events it has been shown ([`DelayLine::pgn`]), so a sample costs its summary. The
//! instants are the caller's: the line itself reads no clock.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use touchmove_core::event::EventKind;
use touchmove_core::output::pgn::{PgnRecorder, PgnTags};
use touchmove_core::sensor::Millis;
use touchmove_core::stream::{StreamEvent, StreamKind};
use touchmove_spectators::watched::BoardSummary;

/// Samples taken within this of the first of them are kept as one, the latest (the public may
/// miss a piece held for a moment, or see two moves' summaries at once; it never sees anything
/// sooner than the delay, and its stream and PGN have every event, each at its own time): a
/// board reporting many times a second costs one sample every two seconds, and a board that
/// never stops changing is still seen, two seconds at a time. (A sample a second held a
/// 5-minute delay over 100 boards at 2.1 times the memory of the same serve without it.)
pub const COALESCE: Duration = Duration::from_secs(2);

/// What the public sees of a board at one moment.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// The board's summary then, counted to `t`.
    pub summary: BoardSummary,
    /// The board's session time then (ms).
    pub t: Millis,
    /// The current game's PGN tags then (its players, the event, the round...).
    pub tags: Arc<PgnTags>,
    /// The games that had ended on the board then, oldest first (its page lists them, the
    /// push holds them).
    pub finished: Arc<[Arc<str>]>,
    /// How many games had ended on the board then (`WatchedBoard::finished_total`).
    pub finished_total: u64,
    /// How many events had been published then: it moves when the game changes.
    pub version: u64,
}

impl Sample {
    /// The summary as it stood `later` ms after the sample: the running clock counted down,
    /// the time since the last report and move counted on.
    pub fn summary_after(&self, later: Millis) -> BoardSummary {
        let mut summary = self.summary.clone();
        if let Some(clock) = summary.clock.as_mut() {
            match clock.running {
                Some(shakmaty::Color::White) => clock.white = clock.white.saturating_sub(later),
                Some(shakmaty::Color::Black) => clock.black = clock.black.saturating_sub(later),
                None => {}
            }
            clock.t = clock.t.saturating_add(later);
        }
        for since in [&mut summary.since_report_ms, &mut summary.since_move_ms] {
            if let Some(since) = since.as_mut() {
                *since = since.saturating_add(later);
            }
        }
        summary
    }
}

/// A board's samples and events on their way to the public.
#[derive(Debug)]
pub struct DelayLine {
    delay: Duration,
    /// The sample the public sees (the latest at least the delay old, or the first), with the
    /// instant it was taken.
    current: (Instant, Arc<Sample>),
    /// The samples taken since, oldest first, each with the instant it was taken and the
    /// instant the first sample it stands for was (it takes the samples of a second from
    /// then): not old enough yet.
    later: VecDeque<(Instant, Arc<Sample>, Instant)>,
    /// The events published and not yet shown, oldest first, each with when it was published.
    waiting: VecDeque<(Instant, StreamEvent)>,
    /// The public's current game's events so far.
    shown: Vec<StreamEvent>,
}

impl DelayLine {
    /// A line of `delay`, the public seeing `first` until a later sample is old enough.
    pub fn new(delay: Duration, at: Instant, first: Sample) -> DelayLine {
        DelayLine {
            delay,
            current: (at, Arc::new(first)),
            later: VecDeque::new(),
            waiting: VecDeque::new(),
            shown: Vec::new(),
        }
    }

    /// The delay.
    pub fn delay(&self) -> Duration {
        self.delay
    }

    /// The last sample taken (the operator's view when it was taken).
    pub fn latest(&self) -> &Arc<Sample> {
        self.later
            .back()
            .map_or(&self.current.1, |(_, sample, _)| sample)
    }

    /// Keeps `sample`, taken at `at`, for the public to see once it is old enough: in place of
    /// the last one kept if the first sample that one stands for is less than [`COALESCE`]
    /// older.
    pub fn sample(&mut self, at: Instant, sample: Sample) {
        let opened = match self.later.back() {
            Some((_, _, opened))
                if at
                    .checked_duration_since(*opened)
                    .is_some_and(|gap| gap < COALESCE) =>
            {
                let opened = *opened;
                self.later.pop_back();
                opened
            }
            _ => at,
        };
        self.later.push_back((at, Arc::new(sample), opened));
        self.catch_up(at);
    }

    /// Keeps `event`, published at `at`, for the public to see once it is old enough.
    pub fn publish(&mut self, at: Instant, event: StreamEvent) {
        self.waiting.push_back((at, event));
    }

    /// What the public sees at `now`: the latest sample at least the delay old (the first one
    /// while none is), with the instant it was taken.
    pub fn seen(&mut self, now: Instant) -> (Instant, Arc<Sample>) {
        self.catch_up(now);
        self.current.clone()
    }

    /// The events old enough at `now` to be shown, in order: they join the public's game
    /// (a `game` or `setup` event starts it afresh, as the board's own stream does).
    pub fn mature(&mut self, now: Instant) -> Vec<StreamEvent> {
        let mut matured = Vec::new();
        while self
            .waiting
            .front()
            .is_some_and(|(at, _)| self.old_enough(*at, now))
        {
            let Some((_, event)) = self.waiting.pop_front() else {
                break;
            };
            if starts_a_game(&event) {
                self.shown.clear();
            }
            self.shown.push(event.clone());
            matured.push(event);
        }
        matured
    }

    /// The public's current game's events, as of the last [`DelayLine::mature`].
    pub fn shown(&self) -> &[StreamEvent] {
        &self.shown
    }

    /// The public's current game as PGN: the events it has been shown, recorded from the
    /// start and under the tags of the sample it sees.
    pub fn pgn(&self) -> String {
        let sample = &self.current.1;
        let start = shakmaty::fen::Fen::from_ascii(sample.summary.start.as_bytes())
            .ok()
            .and_then(|fen| touchmove_core::rules::chess960::from_fen(&fen).ok())
            .unwrap_or_default();
        let set_up = start != shakmaty::Chess::default();
        let mut pgn = PgnRecorder::new(start, set_up, (*sample.tags).clone());
        for event in &self.shown {
            // An event the record refuses leaves it as it was, as on the live board.
            let _ = pgn.record_stream(event);
        }
        pgn.to_pgn_string()
    }

    /// Whether what happened at `at` may be shown at `now`.
    fn old_enough(&self, at: Instant, now: Instant) -> bool {
        now.checked_duration_since(at)
            .is_some_and(|age| age >= self.delay)
    }

    /// The public's sample moves on to the latest old enough at `now`; the ones before it are
    /// never seen again and are dropped.
    fn catch_up(&mut self, now: Instant) {
        while self
            .later
            .front()
            .is_some_and(|(at, _, _)| self.old_enough(*at, now))
        {
            if let Some((at, sample, _)) = self.later.pop_front() {
                self.current = (at, sample);
            }
        }
    }
}

/// Whether `event` starts a new game on the board's stream.
fn starts_a_game(event: &StreamEvent) -> bool {
    matches!(
        event.kind,
        StreamKind::Game(EventKind::Game { .. } | EventKind::Setup { .. })
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use touchmove_core::event::GameEvent;
    use touchmove_spectators::watched::WatchedBoard;

    const DELAY: Duration = Duration::from_secs(900);

    fn sample(ply: u32, t: Millis) -> Sample {
        let mut summary = WatchedBoard::new(
            "1",
            "dgt",
            "port",
            shakmaty::Chess::default(),
            touchmove_core::output::pgn::PgnTags::default(),
        )
        .summary();
        summary.ply = ply;
        Sample {
            summary,
            t,
            tags: Arc::new(PgnTags::default()),
            finished_total: 0,
            finished: Arc::from([]),
            version: u64::from(ply),
        }
    }

    fn event(t: Millis, kind: EventKind) -> StreamEvent {
        StreamEvent::from(GameEvent { t, kind })
    }

    #[test]
    fn the_public_sees_each_sample_once_it_is_as_old_as_the_delay_and_never_before() {
        let start = Instant::now();
        let at = |s: u64| start + Duration::from_secs(s);
        let mut line = DelayLine::new(DELAY, start, sample(0, 0));
        line.sample(at(10), sample(1, 10_000));
        line.sample(at(20), sample(2, 20_000));
        let ply = |line: &mut DelayLine, s: u64| line.seen(at(s)).1.summary.ply;
        assert_eq!(ply(&mut line, 20), 0);
        assert_eq!(ply(&mut line, 909), 0, "a second short of the delay");
        assert_eq!(ply(&mut line, 910), 1);
        assert_eq!(ply(&mut line, 919), 1);
        assert_eq!(ply(&mut line, 920), 2);
        // What the public sees is all that is kept of the past.
        assert!(line.later.is_empty());
        assert_eq!(line.latest().summary.ply, 2);
    }

    #[test]
    fn samples_close_together_are_kept_as_the_later_one() {
        let start = Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        let mut line = DelayLine::new(DELAY, start, sample(0, 0));
        let mut held = sample(0, 100);
        held.summary.board = "held".to_owned();
        line.sample(at(100), held);
        line.sample(at(400), sample(0, 400));
        assert_eq!(line.later.len(), 1, "the later replaces the earlier");
        // Never shown before its own time and the delay.
        let seen = |line: &mut DelayLine, ms: u64| line.seen(at(ms)).1.t;
        assert_eq!(seen(&mut line, 900_399), 0);
        assert_eq!(seen(&mut line, 900_400), 400);
        // An event between two samples close together: the later all the same (the event
        // itself waits in the line); two seconds from the first of them, a new one is kept.
        line.sample(at(500), sample(1, 500));
        line.sample(at(700), sample(2, 700));
        assert_eq!(line.later.len(), 1);
        assert_eq!(line.latest().version, 2);
        line.sample(at(2_400), sample(2, 2_400));
        assert_eq!(
            line.later.len(),
            1,
            "within two seconds of the 500 ms sample"
        );
        line.sample(at(2_500), sample(2, 2_500));
        assert_eq!(line.later.len(), 2);
    }

    #[test]
    fn a_board_that_never_stops_changing_is_seen_two_seconds_at_a_time() {
        let start = Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        let mut line = DelayLine::new(DELAY, start, sample(0, 0));
        // A sample every 300 ms for 10 s, each of a new ply.
        for n in 1..=33u32 {
            let ms = u64::from(n) * 300;
            line.sample(at(ms), sample(n, ms));
        }
        // Two seconds' samples are one: about five kept, not one nor thirty-three.
        assert!((4..=6).contains(&line.later.len()), "{}", line.later.len());
        // Each seen once it is as old as the delay, never before.
        let seen = |line: &mut DelayLine, ms: u64| line.seen(at(ms)).1.t;
        assert_eq!(seen(&mut line, 900_000 + 2_099), 0, "not yet");
        let shown = seen(&mut line, 900_000 + 5_000);
        assert!((3_000..=5_000).contains(&shown), "{shown}");
        assert_eq!(seen(&mut line, 900_000 + 10_000), 9_900);
    }

    #[test]
    fn events_mature_in_order_after_the_delay_and_a_new_game_starts_the_shown_afresh() {
        let start = Instant::now();
        let at = |s: u64| start + Duration::from_secs(s);
        let mut line = DelayLine::new(DELAY, start, sample(0, 0));
        line.publish(at(1), event(1_000, EventKind::Resync));
        line.publish(at(2), event(2_000, EventKind::Game { number: 2 }));
        line.publish(at(3), event(3_000, EventKind::Resync));
        assert!(line.mature(at(900)).is_empty());
        let first = line.mature(at(901));
        assert_eq!(first.len(), 1);
        assert_eq!(line.shown().len(), 1);
        let rest = line.mature(at(1_000));
        assert_eq!(
            rest.iter().map(|event| event.t).collect::<Vec<_>>(),
            [2_000, 3_000]
        );
        // The new game's events only.
        assert_eq!(
            line.shown().iter().map(|event| event.t).collect::<Vec<_>>(),
            [2_000, 3_000]
        );
    }

    #[test]
    fn the_public_s_pgn_is_made_from_the_events_it_was_shown_under_its_sample_s_tags() {
        use shakmaty::{Chess, Position};
        let start = Instant::now();
        let at = |s: u64| start + Duration::from_secs(s);
        let mut first = sample(0, 0);
        first.tags = Arc::new(PgnTags {
            white: Some("Anna".to_owned()),
            ..PgnTags::default()
        });
        let mut line = DelayLine::new(DELAY, start, first);
        let e4 = Chess::default()
            .legal_moves()
            .into_iter()
            .find(|m| m.to() == shakmaty::Square::E4)
            .expect("e4");
        let mut after = Chess::default();
        after.play_unchecked(e4);
        let played = touchmove_core::event::MoveEvent {
            ply: 1,
            color: shakmaty::Color::White,
            san: shakmaty::san::SanPlus::from_move(Chess::default(), e4),
            uci: e4.to_uci(shakmaty::CastlingMode::Standard),
            fen: shakmaty::fen::Fen::from_position(&after, shakmaty::EnPassantMode::Legal),
            promotion_default: false,
            clock: None,
            reconstructed: false,
            chess_move: e4,
        };
        line.publish(at(5), event(5_000, EventKind::Move(played)));
        // Not yet shown: the public's PGN has no move.
        line.mature(at(10));
        let pgn = line.pgn();
        assert!(
            pgn.contains("[White \"Anna\"]") && !pgn.contains("e4"),
            "{pgn}"
        );
        line.mature(at(905));
        let pgn = line.pgn();
        assert!(pgn.trim_end().ends_with("1. e4 *"), "{pgn}");
    }

    #[test]
    fn a_summary_counted_on_runs_the_clock_and_the_times_since() {
        let mut seen = sample(3, 10_000);
        seen.summary.clock = Some(touchmove_spectators::watched::ClockState {
            white: 60_000,
            black: 50_000,
            running: Some(shakmaty::Color::Black),
            t: 10_000,
        });
        seen.summary.since_report_ms = Some(500);
        seen.summary.since_move_ms = None;
        let later = seen.summary_after(2_000);
        let clock = later.clock.expect("a clock");
        assert_eq!(
            (clock.white, clock.black, clock.t),
            (60_000, 48_000, 12_000)
        );
        assert_eq!(later.since_report_ms, Some(2_500));
        assert_eq!(later.since_move_ms, None);
    }
}
