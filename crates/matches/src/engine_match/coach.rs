//! `play --coach`: before the engine replies, a move of the player's that lost more than the
//! coach lets pass is said (the stream's `coach`, the board's clock, the page, the voice) and
//! the engine's reply is held: the player takes the move back on the board, or plays on
//! (`go` typed, the page's button). The measure is the report's (Lichess's winning chances):
//! the engine's evaluation of the position the player moved in (its score when it last moved)
//! against its evaluation after the move (its score searching its reply). Not in `online`, not
//! in `serve` (FIDE 11.3: no advice during a game; Lichess's rules).

use shakmaty::{Color, Move};

use touchmove_core::stream::CoachWarning;
use touchmove_engine::{Score, score_fields};
use touchmove_trainer::judgement::{Eval, Judgement, MoveJudgement};

/// The coach of a game against the engine.
#[derive(Debug, Clone)]
pub struct Coach {
    /// The least a move must lose to be said.
    level: Judgement,
    /// The engine's evaluation of the position the player is to move in (White's side), once
    /// it has searched one (none before its first searched move, nor after a book move).
    before: Option<Eval>,
    /// The player's last move, in SAN.
    last_san: Option<String>,
    /// The engine's reply, held while the player decides.
    held: Option<(Move, Option<Score>)>,
}

impl Coach {
    /// A coach that says the moves that are at least a `level`.
    pub fn new(level: Judgement) -> Coach {
        Coach {
            level,
            before: None,
            last_san: None,
            held: None,
        }
    }

    /// Whether the engine's reply is held.
    pub fn holds(&self) -> bool {
        self.held.is_some()
    }

    /// The engine's reply `chess_move` (scored `score`) waits for the player.
    pub fn hold(&mut self, chess_move: Move, score: Option<Score>) {
        self.held = Some((chess_move, score));
    }

    /// The engine's reply that waited, now to be carried out.
    pub fn take_held(&mut self) -> Option<(Move, Option<Score>)> {
        self.held.take()
    }

    /// The reply held is dropped (the move was taken back).
    pub fn drop_held(&mut self) {
        self.held = None;
    }

    /// A move was made (`san`).
    pub fn moved(&mut self, san: String) {
        self.last_san = Some(san);
    }

    /// The engine, to move as `engine`, moves with `score` from its side: the position the
    /// player then moves in is evaluated so.
    pub fn engine_moves(&mut self, engine: Color, score: Option<Score>) {
        self.before = score.and_then(|score| eval_of(engine, score));
    }

    /// The warning, if the player's last move (the engine, `engine`, now to reply, its search
    /// scoring `score`) lost at least the coach's level.
    pub fn judge(&self, engine: Color, score: Option<Score>) -> Option<CoachWarning> {
        let before = self.before?;
        let after = eval_of(engine, score?)?;
        let player = !engine;
        let judgement = MoveJudgement::of(player, before, after).judgement?;
        (judgement >= self.level).then(|| CoachWarning {
            ply: 0,
            color: player,
            san: self.last_san.clone().unwrap_or_default(),
            judgement: judgement.name().to_owned(),
            before_cp: before.capped_cp(),
            after_cp: after.capped_cp(),
        })
    }
}

/// An engine's score from `turn`'s side as White's evaluation.
fn eval_of(turn: Color, score: Score) -> Option<Eval> {
    let (cp, mate) = score_fields(Some(score));
    Eval::from_side_to_move(turn, cp, mate)
}
