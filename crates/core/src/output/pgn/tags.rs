//! The tag pair section: the seven-tag roster, and `SetUp`/`FEN` for set-up positions.

use crate::event::TagName;

/// Tag values for the games of a recording; `None` writes the PGN "unknown" value.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PgnTags {
    /// The `Event` tag (default `?`).
    pub event: Option<String>,
    /// The `Site` tag (default `?`).
    pub site: Option<String>,
    /// The `Date` tag, `YYYY.MM.DD` (default `????.??.??`).
    pub date: Option<String>,
    /// The `Round` tag (default `?`).
    pub round: Option<String>,
    /// The `White` tag (default `?`).
    pub white: Option<String>,
    /// The `Black` tag (default `?`).
    pub black: Option<String>,
    /// The `TimeControl` tag (PGN form, e.g. `40/5400+30:1800+30`), written when set.
    pub time_control: Option<String>,
    /// The `Board` tag (the board's number or name in a round), written when set.
    pub board: Option<String>,
    /// The `GameId` tag, written when set: a name no other game has, so that a broadcast
    /// matches a pushed game to its own chapter only (Lichess's relay matches by it first).
    pub game_id: Option<String>,
}

impl PgnTags {
    /// Names `tag` `value` (an empty value unnames it: `?`, or no `Board` tag).
    pub fn set(&mut self, tag: TagName, value: String) {
        let value = Some(value).filter(|value| !value.is_empty());
        let field = match tag {
            TagName::Event => &mut self.event,
            TagName::Site => &mut self.site,
            TagName::Round => &mut self.round,
            TagName::Board => &mut self.board,
            TagName::White => &mut self.white,
            TagName::Black => &mut self.black,
        };
        *field = value;
    }

    /// The seven-tag roster in its order, with `result` as the `Result` value.
    pub(super) fn roster<'a>(&'a self, result: &'a str) -> [(&'static str, &'a str); 7] {
        [
            ("Event", self.event.as_deref().unwrap_or("?")),
            ("Site", self.site.as_deref().unwrap_or("?")),
            ("Date", self.date.as_deref().unwrap_or("????.??.??")),
            ("Round", self.round.as_deref().unwrap_or("?")),
            ("White", self.white.as_deref().unwrap_or("?")),
            ("Black", self.black.as_deref().unwrap_or("?")),
            ("Result", result),
        ]
    }
}

/// Writes one tag pair line, `[Name "value"]`, escaping the value.
pub(super) fn push_tag(out: &mut String, name: &str, value: &str) {
    out.push_str(&format!("[{name} \"{}\"]\n", escape_value(value)));
}

/// The value with `\` and `"` escaped and control characters (line breaks) made spaces.
fn escape_value(value: &str) -> String {
    let mut escaped = String::with_capacity(value.len());
    for ch in value.chars() {
        match ch {
            '\\' | '"' => {
                escaped.push('\\');
                escaped.push(ch);
            }
            ch if ch.is_control() => escaped.push(' '),
            ch => escaped.push(ch),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_unknown_values() {
        let tags = PgnTags::default();
        assert_eq!(
            tags.roster("*"),
            [
                ("Event", "?"),
                ("Site", "?"),
                ("Date", "????.??.??"),
                ("Round", "?"),
                ("White", "?"),
                ("Black", "?"),
                ("Result", "*"),
            ]
        );
    }

    #[test]
    fn values_are_escaped() {
        let mut out = String::new();
        push_tag(&mut out, "White", "Carlsen, \"Magnus\" \\ the\nGOAT");
        assert_eq!(out, "[White \"Carlsen, \\\"Magnus\\\" \\\\ the GOAT\"]\n");
    }
}
