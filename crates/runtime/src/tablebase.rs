//! `--syzygy DIR`: Syzygy endgame tablebases, probed by shakmaty-syzygy. The tables are files,
//! read as a position is probed: the I/O edge's. What a table says is handed on as data
//! ([`TableResult`]) to the sans-IO parts (the report, the page, the hints).

use std::path::{Path, PathBuf};

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Position};
use shakmaty_syzygy::{AmbiguousWdl, Tablebase};

use touchmove_core::stream::{TableResult, TableWdl};

/// Why the tables of a folder cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TablebaseError {
    /// The folder cannot be read.
    #[error("--syzygy {path}: cannot read the folder: {source}")]
    Unreadable {
        /// The folder.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The folder holds no table (`*.rtbw`, `*.rtbz`).
    #[error("--syzygy {path}: no Syzygy table (*.rtbw, *.rtbz) in it")]
    Empty {
        /// The folder.
        path: PathBuf,
    },
}

/// The tables of a folder.
pub struct Tablebases {
    tables: Tablebase<Chess>,
    path: PathBuf,
    count: usize,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebases")
            .field("path", &self.path)
            .field("count", &self.count)
            .field("max_pieces", &self.tables.max_pieces())
            .finish()
    }
}

impl Tablebases {
    /// The tables in the folder `path` (its `*.rtbw` and `*.rtbz` files).
    pub fn open(path: &Path) -> Result<Tablebases, TablebaseError> {
        let mut tables = Tablebase::new();
        let count = tables
            .add_directory(path)
            .map_err(|source| TablebaseError::Unreadable {
                path: path.to_owned(),
                source,
            })?;
        if count == 0 {
            return Err(TablebaseError::Empty {
                path: path.to_owned(),
            });
        }
        Ok(Tablebases {
            tables,
            path: path.to_owned(),
            count,
        })
    }

    /// How many table files were found.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The most pieces a table of the folder holds.
    pub fn max_pieces(&self) -> usize {
        self.tables.max_pieces()
    }

    /// What the tables say of `position`, if they have it (not with castling rights, not with
    /// more pieces than the tables hold, not a table that is missing: `None`).
    pub fn probe(&self, position: &Chess) -> Option<TableResult> {
        if position.board().occupied().count() > self.tables.max_pieces() {
            return None;
        }
        let wdl = self.tables.probe_wdl(position).ok()?;
        let dtz = self.tables.probe_dtz(position).ok()?.ignore_rounding().0;
        let best = self
            .tables
            .best_move(position)
            .ok()
            .flatten()
            .map(|(m, _)| SanPlus::from_move(position.clone(), m).to_string());
        Some(TableResult {
            wdl: match wdl {
                AmbiguousWdl::Win => TableWdl::Win,
                AmbiguousWdl::MaybeWin => TableWdl::MaybeWin,
                AmbiguousWdl::CursedWin => TableWdl::CursedWin,
                AmbiguousWdl::Draw => TableWdl::Draw,
                AmbiguousWdl::BlessedLoss => TableWdl::BlessedLoss,
                AmbiguousWdl::MaybeLoss => TableWdl::MaybeLoss,
                AmbiguousWdl::Loss => TableWdl::Loss,
            },
            dtz,
            best,
            turn: position.turn(),
        })
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    use super::*;

    /// The project's test tables (`fixtures/syzygy`: KRvK, KQvK, ... from python-chess's test
    /// data).
    fn tables() -> Tablebases {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/syzygy");
        Tablebases::open(&path).unwrap()
    }

    fn position(fen: &str) -> Chess {
        let fen: Fen = fen.parse().unwrap();
        fen.into_position(CastlingMode::Standard).unwrap()
    }

    #[test]
    fn a_mate_in_one_is_a_win_at_one_ply_with_the_mate_as_the_best_move() {
        // White: Kg6, Ra1; Black: Kh8. Ra8 is mate (g8 on the rook's rank, g7 and h7 the
        // king's): the win is one ply away.
        let found = tables()
            .probe(&position("7k/8/6K1/8/8/8/8/R7 w - - 0 1"))
            .unwrap();
        assert_eq!((found.wdl, found.dtz), (TableWdl::Win, 1));
        assert_eq!(found.best.as_deref(), Some("Ra8#"));
        assert_eq!(found.words(), "White wins (DTZ 1)");
    }

    #[test]
    fn the_side_mated_two_plies_on_loses_at_minus_two() {
        // Black to move has Kg8 alone (g7, h7 are the white king's), then Ra8 mates.
        let found = tables()
            .probe(&position("7k/8/6K1/8/8/8/8/R7 b - - 0 1"))
            .unwrap();
        assert_eq!((found.wdl, found.dtz), (TableWdl::Loss, -2));
        assert_eq!(found.best.as_deref(), Some("Kg8"));
        assert_eq!(found.winner(), Some(shakmaty::Color::White));
    }

    #[test]
    fn a_position_the_tables_do_not_hold_is_none_and_an_empty_folder_is_an_error() {
        let tables = tables();
        assert_eq!(tables.max_pieces(), 4);
        assert_eq!(tables.count(), 14);
        assert!(tables.probe(&Chess::default()).is_none(), "32 pieces");
        // KBvKN: not among the test tables.
        assert!(
            tables
                .probe(&position("8/8/8/8/8/3kn3/8/2BK4 w - - 0 1"))
                .is_none()
        );
        let empty = tempfile::tempdir().unwrap();
        assert!(matches!(
            Tablebases::open(empty.path()),
            Err(TablebaseError::Empty { .. })
        ));
    }
}
