//! A game's report: its facts, and with an engine each position's evaluation and each move's
//! judgement; each player's accuracy.

use serde::Serialize;

use shakmaty::{Chess, Color};

use crate::facts::GameFacts;
use crate::judgement::{Eval, MoveJudgement, player_accuracy};
pub use crate::position_eval::PositionEval;
use touchmove_core::openings::Opening;
use touchmove_core::stream::TableResult;

/// One move of the report: the judgement, and the engine's best move where it was not played.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoveReview {
    /// The judgement, where both positions were evaluated.
    #[serde(flatten)]
    pub judged: Option<MoveJudgement>,
    /// The engine's best move, where the move played was judged an inaccuracy or worse.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best: Option<String>,
}

/// A game's report.
#[derive(Debug, Clone, Serialize)]
pub struct GameReport {
    /// The game as the board saw it.
    #[serde(flatten)]
    pub facts: GameFacts,
    /// Each position's evaluation, the start first (empty without an engine).
    pub evals: Vec<Option<PositionEval>>,
    /// Each move's review (empty without an engine).
    pub reviews: Vec<MoveReview>,
    /// White's accuracy, 0 to 100, with an engine.
    pub white_accuracy: Option<f64>,
    /// Black's accuracy.
    pub black_accuracy: Option<f64>,
    /// The engine that judged (its name and how deep it searched), if one did.
    pub engine: Option<String>,
    /// The opening the game reached (its PGN's `ECO` and `Opening` tags).
    pub opening: Option<Opening>,
}

impl GameReport {
    /// The report of `facts` without an engine: times, touches, rulings.
    pub fn of_facts(facts: GameFacts) -> GameReport {
        let opening = facts.opening();
        GameReport {
            facts,
            evals: Vec::new(),
            reviews: Vec::new(),
            white_accuracy: None,
            black_accuracy: None,
            engine: None,
            opening,
        }
    }

    /// The report of `facts`: judged by what an engine analysing beside the board said of its
    /// positions (`--analyse`), where it said anything; else its times, touches and rulings.
    pub fn of_game(facts: GameFacts) -> GameReport {
        if facts.analyses.iter().all(Option::is_none) {
            return GameReport::of_facts(facts);
        }
        let mut evals = facts.analyses.clone();
        evals.resize(facts.moves.len() + 1, None);
        for (eval, position) in evals.iter_mut().zip(facts.positions()) {
            if eval.is_none() {
                *eval = PositionEval::of_finished(&position);
            }
        }
        GameReport::judged(
            facts,
            evals,
            "the engine analysing beside the board".to_owned(),
        )
    }

    /// The report of `facts` judged by the analyses recorded beside the board and by what
    /// `probe` (a Syzygy table) says of the positions it holds, exactly; as
    /// [`GameReport::of_game`] where it holds none.
    pub fn with_tables(
        facts: GameFacts,
        probe: impl Fn(&Chess) -> Option<TableResult>,
    ) -> GameReport {
        let positions = facts.positions();
        let mut evals = facts.analyses.clone();
        evals.resize(positions.len(), None);
        let mut found = false;
        for (eval, position) in evals.iter_mut().zip(&positions) {
            // A mate or a stalemate on the board is said by the board, not by a table.
            if let Some(finished) = PositionEval::of_finished(position) {
                *eval = Some(finished);
            } else if let Some(table) = probe(position) {
                *eval = Some(PositionEval::of_table(table));
                found = true;
            }
        }
        if !found {
            return GameReport::of_game(facts);
        }
        let judge = if facts.analyses.iter().any(Option::is_some) {
            "the engine analysing beside the board and the Syzygy tables"
        } else {
            "the Syzygy tables"
        };
        GameReport::judged(facts, evals, judge.to_owned())
    }

    /// The report of `facts` with `evals`, one per position of the game (the start first):
    /// each move judged from the evaluations before and after it.
    pub fn judged(
        facts: GameFacts,
        evals: Vec<Option<PositionEval>>,
        engine: String,
    ) -> GameReport {
        let reviews: Vec<MoveReview> = facts
            .moves
            .iter()
            .enumerate()
            .map(|(index, played)| {
                let before = evals.get(index).and_then(Option::as_ref);
                let after = evals.get(index + 1).and_then(Option::as_ref);
                let judged = before.zip(after).map(|(before, after)| {
                    MoveJudgement::of(played.color, before.eval, after.eval)
                });
                let earns = judged.as_ref().is_some_and(|j| j.judgement.is_some());
                let best = before
                    .and_then(|before| before.best.clone())
                    .filter(|best| earns && *best != played.san);
                MoveReview { judged, best }
            })
            .collect();
        let accuracy = |color: Color| {
            let judged = facts
                .moves
                .iter()
                .zip(&reviews)
                .filter(|(m, _)| m.color == color);
            player_accuracy(judged.filter_map(|(_, review)| review.judged.as_ref()))
        };
        let opening = facts.opening();
        GameReport {
            white_accuracy: accuracy(Color::White),
            black_accuracy: accuracy(Color::Black),
            facts,
            evals,
            reviews,
            engine: Some(engine),
            opening,
        }
    }

    /// The review of move `index` (from 0), if the game was judged.
    pub fn review(&self, index: usize) -> Option<&MoveReview> {
        self.reviews.get(index)
    }

    /// The evaluation after move `index` (from 0).
    pub fn eval_after(&self, index: usize) -> Option<Eval> {
        self.evals
            .get(index + 1)
            .and_then(Option::as_ref)
            .map(|e| e.eval)
    }
}
