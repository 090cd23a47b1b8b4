//! Moves written for the people who read the record: standard SAN, long algebraic, figurines,
//! and the piece letters of the Russian edition of the Laws (Кр Ф Л С К, pawns without a
//! letter, `:` for a capture, `0-0`). For the text output and the live page only: the PGN and
//! the JSON stay standard SAN, which other programs read.

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Move, Role};

/// How moves are written for readers.
///
/// ```
/// use shakmaty::{Chess, Position, san::San};
/// use touchmove_core::output::notation::Notation;
///
/// let start = Chess::default();
/// let knight = San::from_ascii(b"Nf3")?.to_move(&start)?;
/// assert_eq!(Notation::San.write("Nf3", knight), "Nf3");
/// assert_eq!(Notation::Long.write("Nf3", knight), "Ng1-f3");
/// assert_eq!(Notation::Figurine.write("Nf3", knight), "♘f3");
/// assert_eq!(Notation::Ru.write("Nf3", knight), "Кf3");
/// assert_eq!(Notation::from_name("ru-long"), Some(Notation::RuLong));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Notation {
    /// Standard Algebraic Notation, as the PGN: `Nf3`, `exd5`, `O-O`.
    #[default]
    San,
    /// Long algebraic, from and to: `Ng1-f3`, `e4xd5`, `O-O`.
    Long,
    /// SAN with figurines for the pieces: `♘f3`, `e8=♕`.
    Figurine,
    /// SAN with the Russian edition's piece letters: `Кf3`, `e4:d5`, `Крe2`, `0-0`.
    Ru,
    /// Long algebraic with the Russian letters: `Кg1-f3`, `e2:d3`, `0-0-0`.
    RuLong,
}

impl Notation {
    /// Every notation, as `--notation` lists them.
    pub const ALL: [Notation; 5] = [
        Notation::San,
        Notation::Long,
        Notation::Figurine,
        Notation::Ru,
        Notation::RuLong,
    ];

    /// Its name on the command line and the page: `san`, `long`, `figurine`, `ru`, `ru-long`.
    pub fn name(self) -> &'static str {
        match self {
            Notation::San => "san",
            Notation::Long => "long",
            Notation::Figurine => "figurine",
            Notation::Ru => "ru",
            Notation::RuLong => "ru-long",
        }
    }

    /// The notation called `name`, if one is.
    pub fn from_name(name: &str) -> Option<Notation> {
        Notation::ALL
            .into_iter()
            .find(|notation| notation.name() == name)
    }

    /// `san` (the move `played`, SAN with its `+` or `#`) as this notation writes it.
    pub fn write(self, san: &str, played: Move) -> String {
        let body = san.trim_end_matches(['+', '#']);
        let suffix = san.get(body.len()..).unwrap_or_default();
        let castle = matches!(body, "O-O" | "O-O-O");
        match self {
            Notation::San => san.to_owned(),
            Notation::Figurine => letters(body, figurine) + suffix,
            Notation::Ru if castle => body.replace('O', "0") + suffix,
            Notation::Ru => letters(body, russian).replace('x', ":") + suffix,
            Notation::Long if castle => san.to_owned(),
            Notation::Long => long(played, english, 'x') + suffix,
            Notation::RuLong if castle => body.replace('O', "0") + suffix,
            Notation::RuLong => long(played, russian, ':') + suffix,
        }
    }
}

impl std::fmt::Display for Notation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// SAN with each piece letter (the leading one, a promotion's) written by `letter`.
fn letters(body: &str, letter: fn(Role) -> &'static str) -> String {
    let mut out = String::with_capacity(body.len() + 4);
    let mut after_equals = false;
    for (i, c) in body.char_indices() {
        let role = (i == 0 || after_equals)
            .then(|| Role::from_char(c.to_ascii_lowercase()))
            .flatten()
            .filter(|_| c.is_ascii_uppercase());
        match role {
            Some(role) => out.push_str(letter(role)),
            None => out.push(c),
        }
        after_equals = c == '=';
    }
    out
}

/// From, then to: the piece's letter (none for a pawn), `-` or the capture sign, and the
/// promotion.
fn long(played: Move, letter: fn(Role) -> &'static str, takes: char) -> String {
    let (from, to, promotion) = match played.to_uci(CastlingMode::Standard) {
        UciMove::Normal {
            from,
            to,
            promotion,
        } => (from.to_string(), to.to_string(), promotion),
        UciMove::Put { role, to } => (letter(role).to_owned(), to.to_string(), None),
        UciMove::Null => return "--".to_owned(),
    };
    let piece = match played.role() {
        Role::Pawn => "",
        role => letter(role),
    };
    let sign = if played.is_capture() { takes } else { '-' };
    let promoted = promotion.map_or_else(String::new, |role| format!("={}", letter(role)));
    format!("{piece}{from}{sign}{to}{promoted}")
}

fn english(role: Role) -> &'static str {
    match role {
        Role::King => "K",
        Role::Queen => "Q",
        Role::Rook => "R",
        Role::Bishop => "B",
        Role::Knight => "N",
        Role::Pawn => "",
    }
}

fn russian(role: Role) -> &'static str {
    match role {
        Role::King => "Кр",
        Role::Queen => "Ф",
        Role::Rook => "Л",
        Role::Bishop => "С",
        Role::Knight => "К",
        Role::Pawn => "",
    }
}

fn figurine(role: Role) -> &'static str {
    match role {
        Role::King => "♔",
        Role::Queen => "♕",
        Role::Rook => "♖",
        Role::Bishop => "♗",
        Role::Knight => "♘",
        Role::Pawn => "",
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::san::SanPlus;
    use shakmaty::{Chess, Position};

    use super::*;

    /// Each notation of the last of `moves` (SAN) played from the start.
    fn written(moves: &[&str]) -> [String; 5] {
        let mut position = Chess::default();
        let mut last = None;
        for san in moves {
            let m = san
                .parse::<shakmaty::san::San>()
                .ok()
                .and_then(|san| san.to_move(&position).ok())
                .unwrap_or_else(|| panic!("{san}"));
            last = Some((SanPlus::from_move(position.clone(), m).to_string(), m));
            position.play_unchecked(m);
        }
        let (san, m) = last.expect("a move");
        [
            Notation::San,
            Notation::Long,
            Notation::Figurine,
            Notation::Ru,
            Notation::RuLong,
        ]
        .map(|notation| notation.write(&san, m))
    }

    #[test]
    fn every_notation_of_quiet_moves_captures_castling_and_checks() {
        assert_eq!(written(&["e4"]), ["e4", "e2-e4", "e4", "e4", "e2-e4"]);
        assert_eq!(
            written(&["e4", "e5", "Nf3"]),
            ["Nf3", "Ng1-f3", "♘f3", "Кf3", "Кg1-f3"]
        );
        assert_eq!(
            written(&["e4", "d5", "exd5"]),
            ["exd5", "e4xd5", "exd5", "e:d5", "e4:d5"]
        );
        assert_eq!(
            written(&["e4", "e5", "Ke2"]),
            ["Ke2", "Ke1-e2", "♔e2", "Крe2", "Крe1-e2"]
        );
        assert_eq!(
            written(&["e4", "e5", "Nf3", "Nc6", "Bc4", "Nf6", "O-O"]),
            ["O-O", "O-O", "O-O", "0-0", "0-0"]
        );
        assert_eq!(
            written(&["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"]),
            ["Qxf7#", "Qh5xf7#", "♕xf7#", "Ф:f7#", "Фh5:f7#"]
        );
        assert_eq!(
            written(&[
                "e4", "f5", "exf5", "g6", "fxg6", "Nf6", "gxh7", "Rg8", "hxg8=Q"
            ]),
            ["hxg8=Q", "h7xg8=Q", "hxg8=♕", "h:g8=Ф", "h7:g8=Ф"]
        );
    }
}
