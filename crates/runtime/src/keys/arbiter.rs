//! What the operator types at the terminal of `watch` that the board cannot see: a game's end
//! (a resignation, a draw agreed, a claim upheld, a default, the arbiter's penalty or decision)
//! time the arbiter gives a player, the arbiter's notes, a tag of the game named (a player, the
//! event, the round) and the position of an earlier ply reinstated.

use shakmaty::{Color, KnownOutcome};
use tokio::sync::mpsc;

use crate::runner::Control;
use touchmove_core::event::{ClaimReason, ClockTimes, TagName};
use touchmove_core::rules::Declared;
use touchmove_core::sensor::Millis;

use super::typed::read_typed;

/// What can be typed, for the help line.
pub const TYPED: &str = "`draw`, `claim threefold`, `claim fifty`, `resign white|black`, \
`default white|black`, `penalty white|black`, `adjudicate 1-0|0-1|1/2-1/2`, `time white|black \
SECONDS`, `clock WHITE BLACK` (each H:MM:SS or M:SS), `note TEXT`, \
`tag white|black|event|round|site|board TEXT`, `reinstate PLY`, `promote q|r|b|n` (a \
promotion's piece the board cannot tell)";

/// Reads the lines typed and sends each declaration to the board's runner; anything else is
/// answered with what can be typed.
pub fn read_arbiter_keys(controls: mpsc::UnboundedSender<Control>) {
    read_typed("a result", move |line| {
        let Some(control) = typed_control(line) else {
            eprintln!("touchmove: `{line}`? type {TYPED}, and Enter");
            return true;
        };
        controls.send(control).is_ok()
    });
}

/// What a typed line asks of the board's game, if it asks something.
fn typed_control(line: &str) -> Option<Control> {
    let lower = line.to_ascii_lowercase();
    if let Some(declared) = typed_declaration(&lower) {
        return Some(Control::Declare(declared));
    }
    if let Some((color, ms)) = typed_time(&lower) {
        return Some(Control::AddTime(color, ms));
    }
    if let Some(times) = typed_clock(&lower) {
        return Some(Control::SetClock(times));
    }
    if let Some((tag, value)) = typed_tag(line) {
        return Some(Control::Tag(tag, value.to_owned()));
    }
    if let Some(ply) = typed_reinstate(&lower) {
        return Some(Control::Reinstate(ply));
    }
    if let Some(role) = typed_promotion(&lower) {
        return Some(Control::Promote(role));
    }
    typed_note(line).map(|text| Control::Note(text.to_owned()))
}

/// The piece a typed `promote q|r|b|n` chooses for a promotion the board cannot tell, if the
/// line is one.
pub fn typed_promotion(line: &str) -> Option<shakmaty::Role> {
    match line.split_whitespace().collect::<Vec<_>>().as_slice() {
        ["promote", letter] => super::typed::promotion_piece(letter),
        _ => None,
    }
}

/// The tag and its value (as typed) of a typed `tag NAME TEXT`, if the line is one (the name
/// alone unnames the tag).
pub fn typed_tag(line: &str) -> Option<(TagName, &str)> {
    let (word, rest) = line.trim().split_once(' ')?;
    if !word.eq_ignore_ascii_case("tag") {
        return None;
    }
    let rest = rest.trim();
    let (name, value) = rest.split_once(' ').unwrap_or((rest, ""));
    Some((name.parse().ok()?, value.trim()))
}

/// The times a typed `clock WHITE BLACK` sets (each `H:MM:SS` or `M:SS`), if the line is one.
pub fn typed_clock(line: &str) -> Option<ClockTimes> {
    match line.split_whitespace().collect::<Vec<_>>().as_slice() {
        ["clock", white, black] => Some(ClockTimes {
            white: clock_time(white)?,
            black: clock_time(black)?,
        }),
        _ => None,
    }
}

/// `H:MM:SS` or `M:SS` in ms (minutes and seconds below 60 after the first field).
fn clock_time(text: &str) -> Option<Millis> {
    let fields: Vec<&str> = text.split(':').collect();
    if !(2..=3).contains(&fields.len()) {
        return None;
    }
    let mut seconds: Millis = 0;
    for (index, field) in fields.iter().enumerate() {
        let value: Millis = field.parse().ok()?;
        if index > 0 && value >= 60 {
            return None;
        }
        seconds = seconds.checked_mul(60)?.checked_add(value)?;
    }
    seconds.checked_mul(1_000)
}

/// The ply of a typed `reinstate PLY`, if the line is one.
pub fn typed_reinstate(line: &str) -> Option<u32> {
    match line.split_whitespace().collect::<Vec<_>>().as_slice() {
        ["reinstate", ply] => ply.parse().ok(),
        _ => None,
    }
}

/// The text of a typed `note TEXT`, as typed, if the line is one.
pub fn typed_note(line: &str) -> Option<&str> {
    let (word, text) = line.split_once(' ')?;
    let text = text.trim();
    (word.eq_ignore_ascii_case("note") && !text.is_empty()).then_some(text)
}

/// The side and the time (ms) a typed `time white|black SECONDS` gives, if the line is one.
pub fn typed_time(line: &str) -> Option<(Color, Millis)> {
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
pub fn typed_declaration(line: &str) -> Option<Declared> {
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
    fn a_tag_keeps_its_value_as_typed_and_a_reinstatement_names_a_ply() {
        assert_eq!(
            typed_tag("tag White  Carlsen, Magnus "),
            Some((TagName::White, "Carlsen, Magnus"))
        );
        assert_eq!(typed_tag("TAG round 7.1"), Some((TagName::Round, "7.1")));
        assert_eq!(typed_tag("tag black"), Some((TagName::Black, "")));
        for line in ["tag", "tag colour red", "tags white x", "note x"] {
            assert_eq!(typed_tag(line), None, "{line}");
        }
        assert_eq!(typed_reinstate("reinstate 12"), Some(12));
        for line in [
            "reinstate",
            "reinstate -1",
            "reinstate 12 13",
            "reinstate e4",
        ] {
            assert_eq!(typed_reinstate(line), None, "{line}");
        }
        assert!(matches!(
            typed_control("tag white Anna"),
            Some(Control::Tag(TagName::White, name)) if name == "Anna"
        ));
        assert!(matches!(
            typed_control("Reinstate 3"),
            Some(Control::Reinstate(3))
        ));
        assert!(typed_control("reinstate now").is_none());
    }

    #[test]
    fn a_clock_typed_sets_both_times() {
        let times = |white: Millis, black: Millis| Some(ClockTimes { white, black });
        assert_eq!(
            typed_clock("clock 1:25:00 59:30"),
            times(5_100_000, 3_570_000)
        );
        assert_eq!(typed_clock("clock 0:05 0:00"), times(5_000, 0));
        for line in [
            "clock",
            "clock 1:00",
            "clock 1:60 1:00",
            "clock 90 1:00",
            "clock 1:00:00:00 1:00",
            "clock 1:00 1:00 1:00",
            "clock -1:00 1:00",
        ] {
            assert_eq!(typed_clock(line), None, "{line}");
        }
        assert!(matches!(
            typed_control("Clock 1:00 2:00"),
            Some(Control::SetClock(ClockTimes {
                white: 60_000,
                black: 120_000
            }))
        ));
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
