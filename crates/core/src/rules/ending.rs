//! How a game ends by itself: checkmate, stalemate, dead position, fivefold repetition, 75 moves.

use shakmaty::{Chess, Color, KnownOutcome, Move, Position};

use crate::event::{GameResult, Rule, Termination};

/// Why a game ended, and the result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ending {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why, in words.
    pub reason: &'static str,
    /// The article that ended the game, when one did (a result gesture names none).
    pub rule: Option<Rule>,
    /// How it ended, as PGN's `Termination` says it (`None`: not known, as for a result the
    /// players showed by a gesture).
    pub termination: Option<Termination>,
}

impl Ending {
    /// The game won by `winner` (`None`: drawn) for `reason`, under `rule`.
    pub fn by_rule(winner: Option<Color>, reason: &'static str, rule: Rule) -> Ending {
        Ending {
            winner,
            reason,
            rule: Some(rule),
            termination: Some(rule.termination()),
        }
    }

    /// The result as the JSON contract writes it.
    pub fn to_result(&self) -> GameResult {
        GameResult {
            result: self.result_str().to_owned(),
            reason: self.reason.to_owned(),
            rule: self.rule,
            termination: self.termination,
            outcome: KnownOutcome::from_winner(self.winner),
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_str(&self) -> &'static str {
        KnownOutcome::from_winner(self.winner).as_str()
    }

    /// The game is lost by `loser` (illegal moves, a fallen flag), unless the opponent cannot
    /// mate by any series of legal moves, which makes it a draw.
    pub fn loss_unless_opponent_cannot_mate(
        position: &Chess,
        loser: Color,
        reason: &'static str,
        rule: Rule,
    ) -> Ending {
        let winner = (!position.has_insufficient_material(!loser)).then_some(!loser);
        Ending::by_rule(winner, reason, rule)
    }
}

/// The ending reached by the position just played into, if any. `legal` is its legal moves;
/// `repetitions` is how many times this position has now occurred.
pub fn ending_after_move(position: &Chess, legal: &[Move], repetitions: usize) -> Option<Ending> {
    let draw = |reason, rule| Some(Ending::by_rule(None, reason, rule));
    if legal.is_empty() && position.is_check() {
        Some(Ending::by_rule(
            Some(!position.turn()),
            "checkmate",
            Rule::Checkmate,
        ))
    } else if legal.is_empty() {
        draw("stalemate", Rule::Stalemate)
    } else if position.is_insufficient_material() {
        draw("insufficient material", Rule::DeadPosition)
    } else if repetitions >= 5 {
        draw("fivefold repetition", Rule::Fivefold)
    } else if position.halfmoves() >= 150 {
        draw("75-move rule", Rule::SeventyFiveMoves)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::position;

    #[test]
    fn fools_mate_is_checkmate_for_black() {
        let pos = position("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
        let ending = ending_after_move(&pos, &pos.legal_moves(), 1).expect("ended");
        assert_eq!(ending.result_str(), "0-1");
        assert_eq!(ending.rule, Some(Rule::Checkmate));
    }

    #[test]
    fn bare_kings_are_a_dead_position() {
        let pos = position("8/8/4k3/8/8/3K4/8/8 w - - 0 60");
        assert_eq!(
            ending_after_move(&pos, &pos.legal_moves(), 1).and_then(|e| e.rule),
            Some(Rule::DeadPosition)
        );
    }

    #[test]
    fn losing_on_illegal_moves_is_a_draw_when_the_opponent_has_a_lone_king() {
        let pos = position("8/8/4k3/8/8/3K4/8/7Q w - - 0 60");
        let white_loses = Ending::loss_unless_opponent_cannot_mate(
            &pos,
            Color::White,
            "illegal moves",
            Rule::IllegalMoveLimit,
        );
        assert_eq!(white_loses.result_str(), "1/2-1/2");
        let black_loses = Ending::loss_unless_opponent_cannot_mate(
            &pos,
            Color::Black,
            "illegal moves",
            Rule::IllegalMoveLimit,
        );
        assert_eq!(black_loses.result_str(), "1-0");
    }
}
