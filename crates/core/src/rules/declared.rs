//! Results declared at the host, which no sensor sees: a resignation, a draw agreed, a claim
//! the arbiter upheld, a loss by default, an arbiter's decision.

use shakmaty::{Color, KnownOutcome};

use super::Ending;
use crate::event::{ClaimReason, Rule, Termination, color_name};

/// A result declared at the host (a key, the operator's console), recorded in the sensor log as
/// a host note so that a replay ends the game where the session did.
///
/// ```
/// use shakmaty::Color;
/// use touchmove_core::rules::Declared;
///
/// let resigned = Declared::from_words("resigned black".split_whitespace());
/// assert_eq!(resigned, Some(Declared::Resigned(Color::Black)));
/// // White wins when Black resigns (5.1.2).
/// assert_eq!(Declared::Resigned(Color::Black).ending().winner, Some(Color::White));
/// let adjudicated = Declared::Adjudicated(None);
/// assert_eq!(adjudicated.words(), "adjudicated 1/2-1/2");
/// assert_eq!(Declared::from_words(adjudicated.words().split_whitespace()), Some(adjudicated));
/// assert_eq!(Declared::from_words("resigned black today".split_whitespace()), None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Declared {
    /// The player resigned (5.1.2).
    Resigned(Color),
    /// The players agreed a draw (5.2.3).
    DrawAgreed,
    /// The arbiter upheld a player's claim of a draw (9.2, 9.3).
    ClaimUpheld(ClaimReason),
    /// The player lost by default: arrived after the default time, or not at all (6.7.1).
    Default(Color),
    /// The arbiter declared the game lost by the player, a penalty (12.9.6).
    Penalty(Color),
    /// The arbiter decided the result, with no article named: the winner, or `None` for a draw.
    Adjudicated(Option<Color>),
}

impl Declared {
    /// The declaration in words, as the sensor log's `#result` and `serve`'s API write it:
    /// `draw-agreed`, `claim threefold`, `claim fifty-moves`, `resigned white`, `default
    /// black`, `penalty white`, `adjudicated 1/2-1/2`.
    pub fn words(self) -> String {
        match self {
            Declared::Resigned(color) => format!("resigned {}", color_name(color)),
            Declared::DrawAgreed => "draw-agreed".to_owned(),
            Declared::ClaimUpheld(reason) => format!("claim {}", reason.as_str()),
            Declared::Default(color) => format!("default {}", color_name(color)),
            Declared::Penalty(color) => format!("penalty {}", color_name(color)),
            Declared::Adjudicated(winner) => {
                format!("adjudicated {}", KnownOutcome::from_winner(winner).as_str())
            }
        }
    }

    /// The declaration `words` say, as [`Declared::words`] writes it; `None` if they say none
    /// (or say more).
    pub fn from_words<'a>(mut words: impl Iterator<Item = &'a str>) -> Option<Declared> {
        let color = |word: Option<&str>| word?.parse::<Color>().ok();
        let declared = match words.next()? {
            "draw-agreed" => Declared::DrawAgreed,
            "claim" => Declared::ClaimUpheld(match words.next()? {
                "threefold" => ClaimReason::Threefold,
                "fifty-moves" => ClaimReason::FiftyMoves,
                _ => return None,
            }),
            "resigned" => Declared::Resigned(color(words.next())?),
            "default" => Declared::Default(color(words.next())?),
            "penalty" => Declared::Penalty(color(words.next())?),
            "adjudicated" => {
                let outcome = KnownOutcome::from_ascii(words.next()?.as_bytes()).ok()?;
                Declared::Adjudicated(outcome.winner())
            }
            _ => return None,
        };
        words.next().is_none().then_some(declared)
    }

    /// How the game ends.
    pub fn ending(self) -> Ending {
        match self {
            Declared::Resigned(color) => {
                Ending::by_rule(Some(!color), "resignation", Rule::Resignation)
            }
            Declared::DrawAgreed => Ending::by_rule(None, "draw agreed", Rule::DrawAgreed),
            Declared::ClaimUpheld(ClaimReason::Threefold) => {
                Ending::by_rule(None, "threefold repetition claimed", Rule::ThreefoldClaimed)
            }
            Declared::ClaimUpheld(ClaimReason::FiftyMoves) => {
                Ending::by_rule(None, "50-move rule claimed", Rule::FiftyMovesClaimed)
            }
            Declared::Default(color) => Ending::by_rule(Some(!color), "default", Rule::Default),
            Declared::Penalty(color) => {
                Ending::by_rule(Some(!color), "arbiter's penalty", Rule::ArbiterPenalty)
            }
            Declared::Adjudicated(winner) => Ending {
                winner,
                reason: "arbiter's decision",
                rule: None,
                termination: Some(Termination::Adjudication),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_declaration_is_read_back_from_its_words() {
        let all = [
            Declared::Resigned(Color::Black),
            Declared::DrawAgreed,
            Declared::ClaimUpheld(ClaimReason::Threefold),
            Declared::ClaimUpheld(ClaimReason::FiftyMoves),
            Declared::Default(Color::White),
            Declared::Penalty(Color::Black),
            Declared::Adjudicated(Some(Color::White)),
            Declared::Adjudicated(None),
        ];
        for declared in all {
            let words = declared.words();
            assert_eq!(
                Declared::from_words(words.split(' ')),
                Some(declared),
                "{words}"
            );
        }
        for words in [
            "",
            "draw",
            "claim",
            "claim three",
            "default",
            "adjudicated 1-1",
            "draw-agreed now",
        ] {
            assert_eq!(
                Declared::from_words(words.split_whitespace()),
                None,
                "{words}"
            );
        }
    }

    #[test]
    fn each_declaration_ends_the_game_as_the_laws_say() {
        let cases = [
            (
                Declared::Resigned(Color::White),
                "0-1",
                Some("5.1.2"),
                "normal",
            ),
            (Declared::DrawAgreed, "1/2-1/2", Some("5.2.3"), "normal"),
            (
                Declared::ClaimUpheld(ClaimReason::Threefold),
                "1/2-1/2",
                Some("9.2"),
                "normal",
            ),
            (
                Declared::ClaimUpheld(ClaimReason::FiftyMoves),
                "1/2-1/2",
                Some("9.3"),
                "normal",
            ),
            (
                Declared::Default(Color::Black),
                "1-0",
                Some("6.7.1"),
                "rules infraction",
            ),
            (
                Declared::Penalty(Color::White),
                "0-1",
                Some("12.9.6"),
                "rules infraction",
            ),
            (
                Declared::Adjudicated(Some(Color::Black)),
                "0-1",
                None,
                "adjudication",
            ),
            (Declared::Adjudicated(None), "1/2-1/2", None, "adjudication"),
        ];
        for (declared, result, article, termination) in cases {
            let ending = declared.ending();
            assert_eq!(ending.result_str(), result, "{declared:?}");
            assert_eq!(ending.rule.map(Rule::article), article, "{declared:?}");
            assert_eq!(
                ending.termination.map(Termination::as_str),
                Some(termination)
            );
        }
    }
}
