//! The evidence a ruling rests on: what the board showed, when, and where, so that a person can
//! check the ruling (the `evidence` list of a `violation` or `illegal` event).

use serde::Serialize;
use shakmaty::Square;

use crate::sensor::Millis;

/// One thing the board showed that a ruling rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Evidence {
    /// When it was seen (the log time of the report, ms).
    pub t: Millis,
    /// What happened.
    pub what: Observed,
    /// The square it happened on, when it has one (a clock press has none).
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "ser_square")]
    pub square: Option<Square>,
    /// For a rest: how long the piece stood on the square (ms).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ms: Option<Millis>,
    /// For a rest: over how many of the board's reports it was seen standing there (the report
    /// that showed it set down, and each later one before the one that showed it lifted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reports: Option<u32>,
}

/// What the board showed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Observed {
    /// A piece lifted: a touch (the square it stood on).
    Touched,
    /// A touched piece set back on its square.
    PutBack,
    /// A piece set down and left standing: a release (with how long and over how many reports).
    Released,
    /// The king set down two squares towards a rook, as if to castle (the square it was set on).
    SetToCastle,
    /// A piece lifted (the square it left).
    Lifted,
    /// A piece set down (the square it was set on).
    Placed,
    /// The move made instead, landing on this square.
    Moved,
    /// The clock pressed.
    Pressed,
    /// The opponent lifted a piece to reply (its square).
    Replied,
}

impl Evidence {
    /// `what` at `t` on `square`.
    pub fn on(t: Millis, what: Observed, square: Square) -> Evidence {
        Evidence {
            t,
            what,
            square: Some(square),
            ms: None,
            reports: None,
        }
    }

    /// `what` at `t`, on no square.
    pub fn at(t: Millis, what: Observed) -> Evidence {
        Evidence {
            t,
            what,
            square: None,
            ms: None,
            reports: None,
        }
    }

    /// A piece released on `square` at `t`, standing there `ms` over `reports` reports.
    pub fn rest(t: Millis, square: Square, ms: Millis, reports: u32) -> Evidence {
        Evidence {
            t,
            what: Observed::Released,
            square: Some(square),
            ms: Some(ms),
            reports: Some(reports),
        }
    }

    /// A few words for a person: `released on e1 for 620 ms (3 reports)`, `moved to f1`.
    pub fn phrase(&self) -> String {
        let on = |words: &str| match self.square {
            Some(square) => format!("{words} {square}"),
            None => words.to_owned(),
        };
        match self.what {
            Observed::Touched => on("touched"),
            Observed::PutBack => on("put back on"),
            Observed::Released => {
                let mut text = on("released on");
                if let Some(ms) = self.ms {
                    text.push_str(&format!(" for {ms} ms"));
                }
                if let Some(reports) = self.reports {
                    let plural = if reports == 1 { "" } else { "s" };
                    text.push_str(&format!(" ({reports} report{plural})"));
                }
                text
            }
            Observed::SetToCastle => on("king set down to castle on"),
            Observed::Lifted => on("lifted from"),
            Observed::Placed => on("set down on"),
            Observed::Moved => on("moved to"),
            Observed::Pressed => "clock pressed".to_owned(),
            Observed::Replied => on("the opponent lifted"),
        }
    }
}

/// `evidence` as one sentence: `released on e1 for 620 ms (3 reports), then moved to f1`.
pub fn summary(evidence: &[Evidence]) -> String {
    let phrases: Vec<String> = evidence.iter().map(Evidence::phrase).collect();
    phrases.join(", then ")
}

/// `evidence` with its times, for a second line of text: `1400 released on e1 for 620 ms (3
/// reports); 2520 moved to f1`.
pub fn timed(evidence: &[Evidence]) -> String {
    let items: Vec<String> = evidence
        .iter()
        .map(|item| format!("{} {}", item.t, item.phrase()))
        .collect();
    items.join("; ")
}

fn ser_square<S: serde::Serializer>(square: &Option<Square>, s: S) -> Result<S::Ok, S::Error> {
    match square {
        Some(square) => s.collect_str(square),
        None => s.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rest_and_a_move_read_as_the_pgn_comment_gives_them() {
        let evidence = [
            Evidence::rest(1400, Square::E1, 620, 3),
            Evidence::on(2520, Observed::Moved, Square::F1),
        ];
        assert_eq!(
            summary(&evidence),
            "released on e1 for 620 ms (3 reports), then moved to f1"
        );
        assert_eq!(
            timed(&evidence),
            "1400 released on e1 for 620 ms (3 reports); 2520 moved to f1"
        );
    }

    #[test]
    fn items_serialise_with_only_the_fields_they_have() {
        let rest =
            serde_json::to_string(&Evidence::rest(1400, Square::E1, 620, 1)).expect("serialisable");
        assert_eq!(
            rest,
            r#"{"t":1400,"what":"released","square":"e1","ms":620,"reports":1}"#
        );
        let press =
            serde_json::to_string(&Evidence::at(900, Observed::Pressed)).expect("serialisable");
        assert_eq!(press, r#"{"t":900,"what":"pressed"}"#);
        assert_eq!(
            Evidence::on(5, Observed::PutBack, Square::D2).phrase(),
            "put back on d2"
        );
        assert_eq!(
            Evidence::rest(5, Square::D2, 300, 1).phrase(),
            "released on d2 for 300 ms (1 report)"
        );
    }
}
