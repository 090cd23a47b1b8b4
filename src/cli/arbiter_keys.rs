//! What the operator types at the terminal of `watch` that the board cannot see: a game's end
//! (a resignation, a draw agreed, a claim upheld, a default, the arbiter's penalty or decision)
//! time the arbiter gives a player, and the arbiter's notes.

use shakmaty::{Color, KnownOutcome};
use tokio::sync::mpsc;

use touchmove::event::ClaimReason;
use touchmove::rules::Declared;
use touchmove::runner::Control;
use touchmove::sensor::Millis;

use super::typed::read_typed;

/// What can be typed, for the help line.
pub(super) const TYPED: &str = "`draw`, `claim threefold`, `claim fifty`, `resign white|black`, \
`default white|black`, `penalty white|black`, `adjudicate 1-0|0-1|1/2-1/2`, `time white|black \
SECONDS`, `note TEXT`";

/// Reads the lines typed and sends each declaration to the board's runner; anything else is
/// answered with what can be typed.
pub(super) fn read_arbiter_keys(controls: mpsc::UnboundedSender<Control>) {
    read_typed("a result", move |line| {
        let lower = line.to_ascii_lowercase();
        let control = match (
            typed_declaration(&lower),
            typed_time(&lower),
            typed_note(line),
        ) {
            (Some(declared), _, _) => Control::Declare(declared),
            (None, Some((color, ms)), _) => Control::AddTime(color, ms),
            (None, None, Some(text)) => Control::Note(text.to_owned()),
            (None, None, None) => {
                eprintln!("touchmove: `{line}`? type {TYPED}, and Enter");
                return true;
            }
        };
        controls.send(control).is_ok()
    });
}

/// The text of a typed `note TEXT`, as typed, if the line is one.
pub(super) fn typed_note(line: &str) -> Option<&str> {
    let (word, text) = line.split_once(' ')?;
    let text = text.trim();
    (word.eq_ignore_ascii_case("note") && !text.is_empty()).then_some(text)
}

/// The side and the time (ms) a typed `time white|black SECONDS` gives, if the line is one.
pub(super) fn typed_time(line: &str) -> Option<(Color, Millis)> {
    match line.split_whitespace().collect::<Vec<_>>().as_slice() {
        ["time", side, seconds] => {
            let color = side.parse::<Color>().ok()?;
            let seconds: Millis = seconds.trim_start_matches('+').parse().ok()?;
            Some((color, seconds.checked_mul(1_000)?)).filter(|(_, ms)| *ms > 0)
        }
        _ => None,
    }
}

/// The result a typed line declares, if it declares one.
pub(super) fn typed_declaration(line: &str) -> Option<Declared> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let color = |word: &str| word.parse::<Color>().ok();
    match words.as_slice() {
        ["draw"] => Some(Declared::DrawAgreed),
        ["claim", "threefold"] => Some(Declared::ClaimUpheld(ClaimReason::Threefold)),
        ["claim", "fifty" | "fifty-moves" | "50"] => {
            Some(Declared::ClaimUpheld(ClaimReason::FiftyMoves))
        }
        ["resign", side] => color(side).map(Declared::Resigned),
        ["default", side] => color(side).map(Declared::Default),
        ["penalty", side] => color(side).map(Declared::Penalty),
        ["adjudicate", result] => KnownOutcome::from_ascii(result.as_bytes())
            .ok()
            .map(|outcome| Declared::Adjudicated(outcome.winner())),
        // The words the recording writes are understood too.
        _ => Declared::from_words(words.into_iter()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_typed_declaration_is_read_and_anything_else_is_not() {
        let cases = [
            ("draw", Some(Declared::DrawAgreed)),
            (
                "claim threefold",
                Some(Declared::ClaimUpheld(ClaimReason::Threefold)),
            ),
            (
                "claim fifty",
                Some(Declared::ClaimUpheld(ClaimReason::FiftyMoves)),
            ),
            ("resign black", Some(Declared::Resigned(Color::Black))),
            ("default  white", Some(Declared::Default(Color::White))),
            ("penalty black", Some(Declared::Penalty(Color::Black))),
            (
                "adjudicate 0-1",
                Some(Declared::Adjudicated(Some(Color::Black))),
            ),
            ("adjudicate 1/2-1/2", Some(Declared::Adjudicated(None))),
            ("resign", None),
            ("claim", None),
            ("draw now", None),
            ("default grey", None),
            ("adjudicate 2-0", None),
            ("adjudicate *", None),
            ("draw-agreed", Some(Declared::DrawAgreed)),
            (
                "adjudicated 1-0",
                Some(Declared::Adjudicated(Some(Color::White))),
            ),
            ("e2e4", None),
        ];
        for (line, declared) in cases {
            assert_eq!(typed_declaration(line), declared, "{line}");
        }
    }

    #[test]
    fn a_note_keeps_its_text_as_typed() {
        assert_eq!(
            typed_note("note Black claims 3-fold: Refused"),
            Some("Black claims 3-fold: Refused")
        );
        assert_eq!(typed_note("NOTE  phone rang"), Some("phone rang"));
        for line in ["note", "note  ", "notes x", "draw"] {
            assert_eq!(typed_note(line), None, "{line}");
        }
    }

    #[test]
    fn time_typed_is_in_seconds() {
        assert_eq!(typed_time("time black 120"), Some((Color::Black, 120_000)));
        assert_eq!(typed_time("time white +30"), Some((Color::White, 30_000)));
        for line in [
            "time",
            "time black",
            "time black 0",
            "time black -5",
            "time grey 5",
            "time black 5 s",
        ] {
            assert_eq!(typed_time(line), None, "{line}");
        }
    }
}
