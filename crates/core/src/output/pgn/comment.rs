//! The text of the `{ }` comments the recorder writes for rulings and board events.

use shakmaty::Square;

use crate::event::{GameResult, IllegalMove, Violation, color_name};
use crate::evidence::summary;

/// `4.7: released on e1 for 620 ms (3 reports), then moved to f1`: the article and what the
/// ruling rests on (without evidence: `4.3.1 white d2: <message>`).
pub fn violation_comment(violation: &Violation) -> String {
    if violation.evidence.is_empty() {
        return format!(
            "{} {} {}: {}",
            violation.rule.article(),
            color_name(violation.color),
            violation.square,
            violation.message
        );
    }
    format!(
        "{}: {}",
        violation.rule.article(),
        summary(&violation.evidence)
    )
}

/// `illegal move e7e4 by black (1): <message>` (the move only when known), as the text output
/// writes it, then what it rests on: `(lifted from e7, then set down on e4, then clock
/// pressed)`.
pub fn illegal_comment(illegal: &IllegalMove) -> String {
    let line = crate::output::text::illegal_line(illegal);
    if illegal.evidence.is_empty() {
        line
    } else {
        format!("{line} ({})", summary(&illegal.evidence))
    }
}

/// `mismatch: d2 e4`
pub(super) fn mismatch_comment(squares: &[Square]) -> String {
    let squares: Vec<String> = squares.iter().map(Square::to_string).collect();
    format!("mismatch: {}", squares.join(" "))
}

/// `checkmate (5.1.1)`: why the game ended, with the article when there is one.
pub(super) fn result_comment(result: &GameResult) -> String {
    match result.rule {
        Some(rule) => format!("{} ({})", result.reason, rule.article()),
        None => result.reason.clone(),
    }
}

/// The comment text made safe for PGN: braces become parentheses (a `}` would end the comment
/// early) and control characters such as line feeds become spaces.
pub(super) fn sanitise(text: &str) -> String {
    text.chars()
        .map(|ch| match ch {
            '{' => '(',
            '}' => ')',
            ch if ch.is_control() => ' ',
            ch => ch,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Rule;
    use crate::evidence::{Evidence, Observed};
    use shakmaty::Color;

    #[test]
    fn violation_names_rule_colour_square_and_message() {
        let violation = Violation {
            rule: Rule::TouchOwn,
            color: Color::White,
            square: Square::D2,
            message: "touched d2, moved g1".to_owned(),
            evidence: Vec::new(),
        };
        assert_eq!(
            violation_comment(&violation),
            "4.3.1 white d2: touched d2, moved g1"
        );
        let released = Violation {
            rule: Rule::ReleasedPieceMoved,
            square: Square::E1,
            evidence: vec![
                Evidence::rest(1400, Square::E1, 620, 3),
                Evidence::on(2520, Observed::Moved, Square::F1),
            ],
            ..violation
        };
        assert_eq!(
            violation_comment(&released),
            "4.7: released on e1 for 620 ms (3 reports), then moved to f1"
        );
    }

    #[test]
    fn illegal_names_the_move_when_known() {
        let mut illegal = IllegalMove {
            color: Color::Black,
            count: 2,
            message: "king left in check".to_owned(),
            uci: Some("e8e7".to_owned()),
            penalty_ms: None,
            evidence: Vec::new(),
        };
        assert_eq!(
            illegal_comment(&illegal),
            "illegal move e8e7 by black (2): king left in check"
        );
        illegal.uci = None;
        assert_eq!(
            illegal_comment(&illegal),
            "illegal move by black (2): king left in check"
        );
    }

    #[test]
    fn mismatch_lists_squares_and_result_names_the_article() {
        assert_eq!(
            mismatch_comment(&[Square::D2, Square::E4]),
            "mismatch: d2 e4"
        );
        let result = GameResult {
            result: "1-0".to_owned(),
            reason: "checkmate".to_owned(),
            rule: Some(Rule::Checkmate),
            termination: None,
            outcome: shakmaty::KnownOutcome::Decisive {
                winner: shakmaty::Color::White,
            },
        };
        assert_eq!(result_comment(&result), "checkmate (5.1.1)");
    }

    #[test]
    fn sanitising_removes_braces_and_line_breaks() {
        assert_eq!(sanitise("a}b{c\nd\re\tf"), "a)b(c d e f");
    }
}
