//! The single fields of an event line: time, square, piece, colour and promotion choice.

use shakmaty::{Color, Piece, Role, Square};

use super::error::LineError;
use crate::sensor::Millis;

/// The latest time a log may give (ms): about 31.7 years, far beyond any game, and far from
/// the end of the number range, so that no sum of a time and a window can overflow.
pub const MAX_TIME_MS: Millis = 1_000_000_000_000;

/// Parses the time field: whole milliseconds, ASCII digits only, at most [`MAX_TIME_MS`].
pub(super) fn parse_time(text: &str) -> Result<Millis, LineError> {
    let bad = || LineError::BadTime {
        text: text.to_owned(),
    };
    if text.is_empty() {
        return Err(bad());
    }
    // Digit by digit: a number too large for `Millis` is as bad as a letter.
    let t = text.bytes().try_fold(0 as Millis, |t, b| {
        let digit = Millis::from(b.checked_sub(b'0').filter(|d| *d <= 9)?);
        t.checked_mul(10)?.checked_add(digit)
    });
    let t = t.ok_or_else(bad)?;
    if t > MAX_TIME_MS {
        return Err(LineError::TimeTooLate { t });
    }
    Ok(t)
}

/// Parses a square in lower case, `a1` to `h8`.
pub(super) fn parse_square(text: &str) -> Result<Square, LineError> {
    Square::from_ascii(text.as_bytes()).map_err(|_| LineError::BadSquare {
        text: text.to_owned(),
    })
}

/// Parses one FEN piece letter: `PNBRQK` white, `pnbrqk` black.
pub(super) fn parse_piece(text: &str) -> Result<Piece, LineError> {
    let mut chars = text.chars();
    match (chars.next().and_then(Piece::from_char), chars.next()) {
        (Some(piece), None) => Ok(piece),
        _ => Err(LineError::BadPiece {
            text: text.to_owned(),
        }),
    }
}

/// Parses a colour: `white` or `black`.
pub(super) fn parse_colour(text: &str) -> Result<Color, LineError> {
    text.parse().map_err(|_| LineError::BadColour {
        text: text.to_owned(),
    })
}

/// Parses a promotion choice: `q`, `r`, `b` or `n`.
pub(super) fn parse_promote(text: &str) -> Result<Role, LineError> {
    match text {
        "q" => Ok(Role::Queen),
        "r" => Ok(Role::Rook),
        "b" => Ok(Role::Bishop),
        "n" => Ok(Role::Knight),
        _ => Err(LineError::BadPromote {
            text: text.to_owned(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_is_digits_only() {
        assert_eq!(parse_time("0"), Ok(0));
        assert_eq!(parse_time("0410"), Ok(410));
        for text in ["", "+5", "-1", "1.5", "1e3", "٣", "18446744073709551616"] {
            assert_eq!(
                parse_time(text),
                Err(LineError::BadTime {
                    text: text.to_owned()
                }),
                "{text:?}"
            );
        }
        assert_eq!(parse_time("1000000000000"), Ok(MAX_TIME_MS));
        assert_eq!(
            parse_time("18446744073709551615"),
            Err(LineError::TimeTooLate { t: u64::MAX })
        );
    }

    #[test]
    fn squares_are_lower_case_a1_to_h8() {
        assert_eq!(parse_square("a1"), Ok(Square::A1));
        assert_eq!(parse_square("h8"), Ok(Square::H8));
        assert_eq!(parse_square("e4"), Ok(Square::E4));
        for text in ["E4", "e9", "i1", "e", "e44", "", "é4"] {
            assert_eq!(
                parse_square(text),
                Err(LineError::BadSquare {
                    text: text.to_owned()
                }),
                "{text:?}"
            );
        }
    }

    #[test]
    fn pieces_are_one_fen_letter() {
        assert_eq!(
            parse_piece("P"),
            Ok(Piece::from_char('P').expect("white pawn"))
        );
        assert_eq!(parse_piece("k"), Ok(Color::Black.king()));
        assert_eq!(parse_piece("N"), Ok(Color::White.knight()));
        for text in ["X", "x", "PP", "", "1"] {
            assert_eq!(
                parse_piece(text),
                Err(LineError::BadPiece {
                    text: text.to_owned()
                }),
                "{text:?}"
            );
        }
    }

    #[test]
    fn colours_and_promotions_are_exact_lower_case_words() {
        assert_eq!(parse_colour("white"), Ok(Color::White));
        assert_eq!(parse_colour("black"), Ok(Color::Black));
        assert!(matches!(
            parse_colour("White"),
            Err(LineError::BadColour { .. })
        ));
        assert_eq!(parse_promote("n"), Ok(Role::Knight));
        assert_eq!(parse_promote("q"), Ok(Role::Queen));
        for text in ["Q", "k", "p", "qq", ""] {
            assert_eq!(
                parse_promote(text),
                Err(LineError::BadPromote {
                    text: text.to_owned()
                }),
                "{text:?}"
            );
        }
    }
}
