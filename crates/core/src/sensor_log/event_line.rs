//! Parsing one event line, `<t> <verb> [<args>...]`, into a [`SensorEvent`].

use super::error::LineError;
use super::fields::{parse_colour, parse_piece, parse_promote, parse_square, parse_time};
use super::placement::parse_placement;
use crate::sensor::{SensorEvent, SensorKind};

/// Parses an event line (already known not to be blank, a comment or metadata).
///
/// Fields are separated by one or more spaces; leading and trailing spaces are allowed.
pub(super) fn parse_event_line(text: &str) -> Result<SensorEvent, LineError> {
    let mut fields = Fields { rest: text };
    let t = parse_time(fields.next().unwrap_or(""))?;
    let verb = fields.next().ok_or(LineError::MissingVerb)?;
    // No verb takes more than two arguments: those are read without allocating.
    let mut first = [""; 2];
    let mut found = 0;
    for slot in first.iter_mut() {
        let Some(field) = fields.next() else { break };
        *slot = field;
        found += 1;
    }
    let kind = match fields.next() {
        None => parse_verb(verb, first.get(..found).unwrap_or_default())?,
        Some(third) => {
            let args: Vec<&str> = first.into_iter().chain([third]).chain(fields).collect();
            parse_verb(verb, &args)?
        }
    };
    Ok(SensorEvent::new(t, kind))
}

/// Parses the verb and its arguments into the kind of event.
/// The fields of a line: what stands between spaces, however many.
struct Fields<'a> {
    rest: &'a str,
}

impl<'a> Iterator for Fields<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let rest = self.rest.trim_start_matches(' ');
        let end = rest.bytes().position(|b| b == b' ').unwrap_or(rest.len());
        let (field, after) = rest.split_at_checked(end)?;
        self.rest = after;
        (!field.is_empty()).then_some(field)
    }
}

fn parse_verb(verb: &str, args: &[&str]) -> Result<SensorKind, LineError> {
    match verb {
        "lift" => {
            let (square, piece) = parse_square_args("lift", args)?;
            Ok(SensorKind::Lift { square, piece })
        }
        "place" => {
            let (square, piece) = parse_square_args("place", args)?;
            Ok(SensorKind::Place { square, piece })
        }
        "adjust" => exactly::<0>("adjust", args).map(|[]| SensorKind::Adjust),
        "clock" => {
            let [colour] = exactly("clock", args)?;
            parse_colour(colour).map(SensorKind::Clock)
        }
        "promote" => {
            let [choice] = exactly("promote", args)?;
            parse_promote(choice).map(SensorKind::Promote)
        }
        "snapshot" => {
            let [placement] = exactly("snapshot", args)?;
            parse_placement(placement)
                .map(|snapshot| SensorKind::Snapshot(Box::new(snapshot)))
                .map_err(|reason| LineError::BadPlacement {
                    placement: placement.to_owned(),
                    reason,
                })
        }
        _ => Err(LineError::UnknownVerb {
            verb: verb.to_owned(),
        }),
    }
}

/// The arguments of `lift` and `place`: a square and an optional piece letter.
fn parse_square_args(
    verb: &'static str,
    args: &[&str],
) -> Result<(shakmaty::Square, Option<shakmaty::Piece>), LineError> {
    match args {
        [square] => Ok((parse_square(square)?, None)),
        [square, piece] => Ok((parse_square(square)?, Some(parse_piece(piece)?))),
        _ => Err(LineError::WrongArgumentCount {
            verb,
            expected: "1 or 2",
            found: args.len(),
        }),
    }
}

/// The arguments as an array of exactly `N`, or the wrong-count error for `verb`.
fn exactly<'a, const N: usize>(
    verb: &'static str,
    args: &[&'a str],
) -> Result<[&'a str; N], LineError> {
    <[&str; N]>::try_from(args).map_err(|_| LineError::WrongArgumentCount {
        verb,
        expected: count_word(N),
        found: args.len(),
    })
}

/// `N` in words for the error message.
fn count_word(n: usize) -> &'static str {
    match n {
        0 => "0",
        1 => "1",
        _ => "several",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Color, Role, Square};

    #[test]
    fn fields_may_be_separated_by_several_spaces() {
        assert_eq!(
            parse_event_line("  410   place  e3  "),
            Ok(SensorEvent::new(
                410,
                SensorKind::Place {
                    square: Square::E3,
                    piece: None
                }
            ))
        );
    }

    #[test]
    fn each_verb_parses_its_arguments() {
        assert_eq!(
            parse_event_line("1 lift e7 p"),
            Ok(SensorEvent::new(
                1,
                SensorKind::Lift {
                    square: Square::E7,
                    piece: Some(Color::Black.pawn())
                }
            ))
        );
        assert_eq!(
            parse_event_line("2 adjust"),
            Ok(SensorEvent::new(2, SensorKind::Adjust))
        );
        assert_eq!(
            parse_event_line("3 clock black"),
            Ok(SensorEvent::new(3, SensorKind::Clock(Color::Black)))
        );
        assert_eq!(
            parse_event_line("4 promote r"),
            Ok(SensorEvent::new(4, SensorKind::Promote(Role::Rook)))
        );
    }

    #[test]
    fn argument_counts_are_checked() {
        assert_eq!(
            parse_event_line("1 lift"),
            Err(LineError::WrongArgumentCount {
                verb: "lift",
                expected: "1 or 2",
                found: 0
            })
        );
        assert_eq!(
            parse_event_line("1 place e4 P x"),
            Err(LineError::WrongArgumentCount {
                verb: "place",
                expected: "1 or 2",
                found: 3
            })
        );
        assert_eq!(
            parse_event_line("1 place e4 P x  y"),
            Err(LineError::WrongArgumentCount {
                verb: "place",
                expected: "1 or 2",
                found: 4
            })
        );
        assert_eq!(
            parse_event_line("1 adjust e4"),
            Err(LineError::WrongArgumentCount {
                verb: "adjust",
                expected: "0",
                found: 1
            })
        );
        assert_eq!(
            parse_event_line("1 clock"),
            Err(LineError::WrongArgumentCount {
                verb: "clock",
                expected: "1",
                found: 0
            })
        );
        assert_eq!(
            parse_event_line("1 snapshot 8/8/8/8/8/8/8/8 8"),
            Err(LineError::WrongArgumentCount {
                verb: "snapshot",
                expected: "1",
                found: 2
            })
        );
    }

    #[test]
    fn a_time_alone_lacks_a_verb_and_a_verb_must_be_known() {
        assert_eq!(parse_event_line("12"), Err(LineError::MissingVerb));
        assert_eq!(
            parse_event_line("12 Lift e2"),
            Err(LineError::UnknownVerb {
                verb: "Lift".to_owned()
            })
        );
    }
}
