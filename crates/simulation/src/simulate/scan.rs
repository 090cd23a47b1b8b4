//! DGT-style scanning: the board is sampled about every 200 ms and reports what changed.
//!
//! Changes are reported at the first scan at or after they happen, so brief slides and knocks
//! inside one scan vanish. Within a scan arrivals may come before departures. A capture victim's
//! removal and sensor bounces are never reported (events marked `hidden_on_scan`): the
//! capturing piece arrives over the occupied square. Other events (clock presses) wait for the
//! board changes that happened before them to be reported, unless `presses_wait` is off: then
//! they are reported at once, as a DGT board reports its clock's lever before its next scan.
//!
//! Besides the reports, [`scan`] says when each recorded event was reported: a board change at
//! the scan that follows it (a change undone before that scan keeps its own time), any other
//! event at its own (possibly delayed) time.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use shakmaty::{Board, Square};

use super::recorder::Recorded;
use super::style::LONGEST_PERIOD_MS;
use touchmove_core::sensor::{Millis, SensorEvent, SensorKind};

/// The shortest and longest time between two scans, in ms.
const PERIOD: (Millis, Millis) = (180, LONGEST_PERIOD_MS);

/// Turns physically timed events into what a scanning board reports, with the time at which
/// each recorded event was reported (one per recorded event).
pub(super) fn scan(
    start: &Board,
    recorded: &[Recorded],
    seed: u64,
    presses_wait: bool,
) -> (Vec<SensorEvent>, Vec<Millis>) {
    let mut scanner = Scanner {
        rng: SmallRng::seed_from_u64(seed ^ 0x5CA1_AB1E),
        sensed: start.clone(),
        reported: start.clone(),
        next_scan: 0,
        out: Vec::new(),
        reported_at: recorded.iter().map(|r| r.event.t).collect(),
        unreported: Vec::new(),
        presses_wait,
    };
    scanner.next_scan = scanner.period() / 2;
    for (index, rec) in recorded.iter().enumerate() {
        scanner.feed(index, rec);
    }
    while scanner.pending() {
        scanner.fire();
    }
    (scanner.out, scanner.reported_at)
}

/// The state of the simulated scanning board.
struct Scanner {
    rng: SmallRng,
    sensed: Board,
    reported: Board,
    next_scan: Millis,
    out: Vec<SensorEvent>,
    /// When each recorded event was reported.
    reported_at: Vec<Millis>,
    /// The recorded board changes sensed since the last scan.
    unreported: Vec<usize>,
    /// Non-board events wait for the board changes sensed before them to be reported.
    presses_wait: bool,
}

impl Scanner {
    fn period(&mut self) -> Millis {
        self.rng.random_range(PERIOD.0..=PERIOD.1)
    }

    fn pending(&self) -> bool {
        self.sensed != self.reported
    }

    /// Fires every scan before `rec` (recorded event number `index`), then takes it in.
    fn feed(&mut self, index: usize, rec: &Recorded) {
        while self.next_scan < rec.event.t {
            self.fire();
        }
        match rec.event.kind {
            SensorKind::Lift { square, .. } if !rec.hidden_on_scan => {
                self.sensed.discard_piece_at(square);
                self.unreported.push(index);
            }
            SensorKind::Place { square, piece } if !rec.hidden_on_scan => {
                match piece {
                    Some(p) => self.sensed.set_piece_at(square, p),
                    None => self.sensed.discard_piece_at(square),
                }
                self.unreported.push(index);
            }
            SensorKind::Lift { .. } | SensorKind::Place { .. } => {}
            _ => self.other(index, rec.event.clone()),
        }
    }

    /// A non-board event: reported after the board changes already sensed (or at once).
    fn other(&mut self, index: usize, event: SensorEvent) {
        if self.presses_wait && self.pending() {
            self.fire();
        }
        let t = event.t.max(self.last_t());
        if let Some(at) = self.reported_at.get_mut(index) {
            *at = t;
        }
        self.out.push(SensorEvent::new(t, event.kind));
    }

    fn last_t(&self) -> Millis {
        self.out.last().map_or(0, |e| e.t)
    }

    /// One scan: reports the differences between what was sensed and what was reported.
    fn fire(&mut self) {
        let t = self.next_scan.max(self.last_t());
        let (lifts, places) = self.differences(t);
        if self.rng.random_bool(0.5) {
            self.out.extend(places);
            self.out.extend(lifts);
        } else {
            self.out.extend(lifts);
            self.out.extend(places);
        }
        self.reported = self.sensed.clone();
        for index in self.unreported.drain(..) {
            if let Some(at) = self.reported_at.get_mut(index) {
                *at = t;
            }
        }
        self.next_scan = t + self.period();
    }

    fn differences(&self, t: Millis) -> (Vec<SensorEvent>, Vec<SensorEvent>) {
        let mut lifts = Vec::new();
        let mut places = Vec::new();
        let changed = self.sensed.occupied() | self.reported.occupied();
        for square in changed {
            let (old, new) = (self.reported.piece_at(square), self.sensed.piece_at(square));
            if old == new {
                continue;
            }
            match new {
                Some(_) => places.push(event(t, square, new, false)),
                None => lifts.push(event(t, square, old, true)),
            }
        }
        (lifts, places)
    }
}

fn event(t: Millis, square: Square, piece: Option<shakmaty::Piece>, lift: bool) -> SensorEvent {
    let kind = if lift {
        SensorKind::Lift { square, piece }
    } else {
        SensorKind::Place { square, piece }
    };
    SensorEvent::new(t, kind)
}
