//! What was said of one position: an engine's evaluation and best move, or a Syzygy table's
//! result, or the board's own (a mate, a stalemate).

use serde::Serialize;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Move, Position};

use touchmove_core::stream::TableResult;

use crate::judgement::Eval;

/// What an engine (or a tablebase) said of one position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PositionEval {
    /// The evaluation, from White's side.
    pub eval: Eval,
    /// The best move, in SAN, if the position has one.
    pub best: Option<String>,
    /// The depth searched (`None`: known without a search, a mate on the board or a table).
    pub depth: Option<u8>,
    /// What a Syzygy table says of the position, where one was asked and has it: exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<TableResult>,
}

impl PositionEval {
    /// The evaluation of a position with no move to search (checkmate, stalemate), or `None`
    /// for a position an engine must search.
    pub fn of_finished(position: &Chess) -> Option<PositionEval> {
        let eval = if position.is_checkmate() {
            Eval::Mate {
                winner: !position.turn(),
                moves: 0,
            }
        } else if position.is_stalemate() {
            Eval::Cp(0)
        } else {
            return None;
        };
        Some(PositionEval {
            eval,
            best: None,
            depth: None,
            table: None,
        })
    }

    /// What a Syzygy table says of a position: a win counts as a mate does (the cap of the
    /// evaluation), a draw (a cursed win, a blessed loss too) as 0; its best move.
    pub fn of_table(table: TableResult) -> PositionEval {
        let eval = match table.winner() {
            Some(Color::White) => Eval::Cp(1_000),
            Some(Color::Black) => Eval::Cp(-1_000),
            None => Eval::Cp(0),
        };
        PositionEval {
            eval,
            best: table.best.clone(),
            depth: None,
            table: Some(table),
        }
    }

    /// What an engine said of `position`: its score from the side to move's view
    /// (centipawns, or mate in moves, negative when the side to move is mated), its best
    /// move, the depth reached.
    pub fn of_search(
        position: &Chess,
        cp: Option<i32>,
        mate: Option<i32>,
        best: Option<&Move>,
        depth: Option<u8>,
    ) -> Option<PositionEval> {
        let eval = Eval::from_side_to_move(position.turn(), cp, mate)?;
        let best = best.map(|m| SanPlus::from_move(position.clone(), *m).to_string());
        Some(PositionEval {
            eval,
            best,
            depth,
            table: None,
        })
    }
}

impl PositionEval {
    /// What an engine analysing beside the board said of `position` (`--analyse`): its
    /// evaluation from White's side, the first move of its line.
    pub fn of_analysis(
        position: &Chess,
        analysis: &touchmove_core::stream::Analysis,
    ) -> Option<PositionEval> {
        let eval = match (analysis.mate, analysis.score_cp) {
            (Some(0), _) => Eval::Mate {
                winner: !position.turn(),
                moves: 0,
            },
            (Some(mate), _) => Eval::Mate {
                winner: if mate > 0 { Color::White } else { Color::Black },
                moves: mate.unsigned_abs(),
            },
            (None, Some(cp)) => Eval::Cp(cp),
            (None, None) => return None,
        };
        Some(PositionEval {
            eval,
            best: analysis.pv.first().cloned(),
            depth: u8::try_from(analysis.depth).ok(),
            table: None,
        })
    }
}
