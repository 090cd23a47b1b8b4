//! The scan model for a plain sensor log: the board is sampled about every 200 ms and each scan
//! reports the squares that differ from the last one.
//!
//! So changes within one scan are grouped and reported at the scan's time; within a scan the
//! arrivals come before the departures or after them (at random, with the seed); a square
//! emptied and filled again within a scan reports only its new piece (a capture's emptying is
//! lost), and one filled again with the same piece reports nothing. Clock presses are not
//! scanned: they keep their own time.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use shakmaty::Board;

use super::change::{Change, ScriptEvent, set};
use touchmove_core::sensor::Millis;

/// The shortest and longest time between two scans, in ms.
const PERIOD: (Millis, Millis) = (180, 220);

/// The events a scanning board reports for the physical changes `events` on a board that starts
/// as `start`.
pub(super) fn scan(start: &Board, events: &[ScriptEvent], seed: u64) -> Vec<ScriptEvent> {
    let mut scanner = Scanner {
        rng: SmallRng::seed_from_u64(seed ^ 0xD67B_0A4D),
        sensed: start.clone(),
        reported: start.clone(),
        next_scan: 0,
        out: Vec::with_capacity(events.len()),
    };
    scanner.next_scan = scanner.period() / 2;
    for event in events {
        scanner.feed(event);
    }
    if scanner.sensed != scanner.reported {
        scanner.fire();
    }
    scanner.out
}

struct Scanner {
    rng: SmallRng,
    sensed: Board,
    reported: Board,
    next_scan: Millis,
    out: Vec<ScriptEvent>,
}

impl Scanner {
    fn period(&mut self) -> Millis {
        self.rng.random_range(PERIOD.0..=PERIOD.1)
    }

    /// Fires the scans due before `event`, then takes it in.
    fn feed(&mut self, event: &ScriptEvent) {
        while self.next_scan < event.t {
            self.fire();
        }
        match event.change {
            Change::Square { square, piece } => set(&mut self.sensed, square, piece),
            Change::ClockPress(_) | Change::ClockReset => self.out.push(*event),
        }
    }

    /// One scan: the differences between what is sensed and what was last reported.
    fn fire(&mut self) {
        let t = self.next_scan;
        let changed = self.sensed.occupied() | self.reported.occupied();
        let (mut places, mut lifts) = (Vec::new(), Vec::new());
        for square in changed {
            let piece = self.sensed.piece_at(square);
            if piece == self.reported.piece_at(square) {
                continue;
            }
            let event = ScriptEvent {
                t,
                change: Change::Square { square, piece },
            };
            if piece.is_some() {
                places.push(event);
            } else {
                lifts.push(event);
            }
        }
        if self.rng.random_bool(0.5) {
            self.out.extend(places.into_iter().chain(lifts));
        } else {
            self.out.extend(lifts.into_iter().chain(places));
        }
        self.reported = self.sensed.clone();
        self.next_scan = t + self.period();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Color, Piece, Square};

    fn at(t: Millis, square: Square, piece: Option<Piece>) -> ScriptEvent {
        ScriptEvent {
            t,
            change: Change::Square { square, piece },
        }
    }

    fn start() -> Board {
        Board::default()
    }

    #[test]
    fn a_move_within_one_scan_is_reported_at_the_scan_in_either_order() {
        let pawn = Some(Color::White.pawn());
        let events = [at(1_000, Square::E2, None), at(1_050, Square::E4, pawn)];
        let mut orders = std::collections::BTreeSet::new();
        for seed in 0..16 {
            let out = scan(&start(), &events, seed);
            assert_eq!(out.len(), 2);
            let first = out.first().map(|e| e.change);
            orders.insert(
                first
                    == Some(Change::Square {
                        square: Square::E4,
                        piece: pawn,
                    }),
            );
            assert!(out.iter().all(|e| e.t >= 1_050 && e.t <= 1_050 + 220));
            assert!(out.iter().all(|e| e.t == out.first().map_or(0, |f| f.t)));
        }
        assert_eq!(orders.len(), 2, "both orders seen");
    }

    #[test]
    fn a_capture_within_one_scan_loses_the_victims_lift() {
        let bishop = Some(Color::White.bishop());
        let events = [
            at(1_000, Square::D7, None),
            at(1_010, Square::F1, None),
            at(1_020, Square::D7, bishop),
        ];
        let out = scan(&start(), &events, 1);
        let changes: Vec<Change> = out.iter().map(|e| e.change).collect();
        assert_eq!(changes.len(), 2);
        assert!(changes.contains(&Change::Square {
            square: Square::D7,
            piece: bishop
        }));
        assert!(changes.contains(&Change::Square {
            square: Square::F1,
            piece: None
        }));
    }

    #[test]
    fn a_piece_put_back_within_a_scan_is_not_reported() {
        let pawn = Some(Color::White.pawn());
        let events = [at(1_000, Square::E2, None), at(1_020, Square::E2, pawn)];
        let out = scan(&start(), &events, 1);
        assert!(out.is_empty(), "{out:?}");
    }

    #[test]
    fn clock_presses_keep_their_time_and_order() {
        let press = ScriptEvent {
            t: 5_000,
            change: Change::ClockPress(Color::White),
        };
        let events = [at(1_000, Square::E2, None), press];
        let out = scan(&start(), &events, 1);
        assert_eq!(out.len(), 2);
        assert_eq!(out.last(), Some(&press));
        assert!(
            out.windows(2)
                .all(|w| w.first().map(|e| e.t) <= w.last().map(|e| e.t))
        );
    }
}
