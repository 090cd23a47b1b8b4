//! What an occupancy board's reports said (a DGT Pegasus's, a Square Off's): the occupied
//! squares, from a whole report (a dump, an answer) and the changes since. A whole report is a
//! sensor snapshot the first time and whenever it differs from what the changes said, so
//! nothing the board did not report is lost; a change before any whole report is left to it.

use shakmaty::{Bitboard, Board, Square};
use touchmove_core::sensor::{BoardSnapshot, SensorKind};

/// The occupied squares as an occupancy board's reports said.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OccupancyReports {
    /// `None` until a whole report came (and after [`OccupancyReports::forget`]).
    occupied: Option<Bitboard>,
}

impl OccupancyReports {
    /// Nothing reported yet.
    pub fn new() -> OccupancyReports {
        OccupancyReports::default()
    }

    /// What was reported is no longer known (the link reopened, the board back after a
    /// silence): the next whole report is read whole.
    pub fn forget(&mut self) {
        self.occupied = None;
    }

    /// A whole report of `occupied`: a snapshot (no piece identified), unless it agrees with
    /// what the reports said.
    pub fn whole(&mut self, occupied: Bitboard) -> Option<SensorKind> {
        (self.occupied.replace(occupied) != Some(occupied)).then(|| {
            SensorKind::Snapshot(Box::new(BoardSnapshot {
                occupied,
                pieces: Board::empty(),
            }))
        })
    }

    /// A piece set down on `square` (`placed`) or lifted from it: a placement or a lift of no
    /// known piece, once a whole report came.
    pub fn changed(&mut self, square: Square, placed: bool) -> Option<SensorKind> {
        let occupied = self.occupied.as_mut()?;
        Some(if placed {
            occupied.add(square);
            SensorKind::Place {
                square,
                piece: None,
            }
        } else {
            occupied.discard(square);
            SensorKind::Lift {
                square,
                piece: None,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_whole_report_is_a_snapshot_when_new_or_different_and_changes_follow_it() {
        let start = Board::default().occupied();
        let mut reports = OccupancyReports::new();
        assert_eq!(reports.changed(Square::E2, false), None);
        assert!(matches!(
            reports.whole(start),
            Some(SensorKind::Snapshot(_))
        ));
        assert_eq!(reports.whole(start), None);
        assert_eq!(
            reports.changed(Square::E2, false),
            Some(SensorKind::Lift {
                square: Square::E2,
                piece: None
            })
        );
        // The change was taken in: a whole report agreeing with it says nothing.
        let mut lifted = start;
        lifted.discard(Square::E2);
        assert_eq!(reports.whole(lifted), None);
        assert!(reports.whole(start).is_some());
        reports.forget();
        assert!(reports.whole(start).is_some());
    }
}
