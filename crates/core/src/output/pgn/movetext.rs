//! Laying out the movetext: move numbers, comments and the termination marker, in lines of at
//! most 80 bytes.

use shakmaty::Color;

use super::comment::sanitise;

/// The longest movetext line.
const MAX_LINE: usize = 80;

/// The longest piece of a comment word: room for a `{` before it and a `}` after it.
const MAX_COMMENT_PIECE: usize = MAX_LINE - 2;

/// One element of a game's movetext.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum MovetextItem {
    /// A move in SAN, with the annotation glyph a review gave it (a NAG: `$4`, a blunder).
    Move(String, Option<u8>),
    /// A comment's text (not yet made safe).
    Comment(String),
}

/// Where the game starts, for numbering its moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Numbering {
    /// The move number of the first move.
    pub(super) fullmoves: u32,
    /// The side that moves first.
    pub(super) turn: Color,
}

/// The movetext lines of a game: its items followed by `termination`.
pub(super) fn movetext_lines(
    items: &[MovetextItem],
    numbering: Numbering,
    termination: &str,
) -> Vec<String> {
    let mut tokens = tokens(items, numbering);
    tokens.push(termination.to_owned());
    wrap(&tokens)
}

/// The tokens of the movetext: `1. e4`, `e5`, `2... Nf6`, comment words, ...
fn tokens(items: &[MovetextItem], numbering: Numbering) -> Vec<String> {
    let Numbering {
        mut fullmoves,
        mut turn,
    } = numbering;
    let mut tokens = Vec::new();
    let mut needs_number = true;
    for item in items {
        match item {
            MovetextItem::Move(san, nag) => {
                tokens.push(numbered_move(san, fullmoves, turn, needs_number));
                if let Some(nag) = nag {
                    tokens.push(format!("${nag}"));
                }
                if turn == Color::Black {
                    fullmoves = fullmoves.saturating_add(1);
                }
                turn = !turn;
                needs_number = false;
            }
            MovetextItem::Comment(text) => {
                tokens.extend(comment_tokens(text));
                needs_number = true;
            }
        }
    }
    tokens
}

/// `N. san` for White, `N... san` for Black when a number is needed, else `san`.
fn numbered_move(san: &str, fullmoves: u32, turn: Color, needs_number: bool) -> String {
    match turn {
        Color::White => format!("{fullmoves}. {san}"),
        Color::Black if needs_number => format!("{fullmoves}... {san}"),
        Color::Black => san.to_owned(),
    }
}

/// The words of a comment, the first opening and the last closing the braces; long words are
/// cut so that every token fits on a line.
fn comment_tokens(text: &str) -> Vec<String> {
    let safe = sanitise(text);
    let mut words: Vec<String> = safe
        .split(' ')
        .filter(|word| !word.is_empty())
        .flat_map(|word| cut(word, MAX_COMMENT_PIECE))
        .collect();
    match words.first_mut() {
        Some(first) => first.insert(0, '{'),
        None => words.push("{".to_owned()),
    }
    if let Some(last) = words.last_mut() {
        last.push('}');
    }
    words
}

/// `word` cut into pieces of at most `max` bytes, at character boundaries.
fn cut(word: &str, max: usize) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut piece = String::new();
    for ch in word.chars() {
        if piece.len() + ch.len_utf8() > max {
            pieces.push(std::mem::take(&mut piece));
        }
        piece.push(ch);
    }
    pieces.push(piece);
    pieces
}

/// The tokens joined by spaces into lines of at most [`MAX_LINE`] bytes.
///
/// A line never starts with `%`, which would make it a PGN escape line: such a token starts its
/// line after a space.
fn wrap(tokens: &[String]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > MAX_LINE {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() || token.starts_with('%') {
            line.push(' ');
        }
        line.push_str(token);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(sans: &[&str]) -> Vec<MovetextItem> {
        sans.iter()
            .map(|san| MovetextItem::Move((*san).to_owned(), None))
            .collect()
    }

    const WHITE_FIRST: Numbering = Numbering {
        fullmoves: 1,
        turn: Color::White,
    };

    #[test]
    fn numbers_white_moves_and_black_moves_after_a_comment() {
        let mut items = moves(&["e4", "e5"]);
        items.push(MovetextItem::Comment("4.3.1 white d2: touched".to_owned()));
        items.extend(moves(&["Nf3", "Nc6"]));
        items.push(MovetextItem::Comment("mismatch: e4".to_owned()));
        items.extend(moves(&["Bb5"]));
        assert_eq!(
            movetext_lines(&items, WHITE_FIRST, "*"),
            vec!["1. e4 e5 {4.3.1 white d2: touched} 2. Nf3 Nc6 {mismatch: e4} 3. Bb5 *"]
        );
    }

    #[test]
    fn black_first_starts_with_an_ellipsis_number() {
        let items = moves(&["Kd7", "Kf2", "Ke6"]);
        let numbering = Numbering {
            fullmoves: 40,
            turn: Color::Black,
        };
        assert_eq!(
            movetext_lines(&items, numbering, "1/2-1/2"),
            vec!["40... Kd7 41. Kf2 Ke6 1/2-1/2"]
        );
    }

    #[test]
    fn a_comment_before_any_move_comes_first() {
        let mut items = vec![MovetextItem::Comment("mismatch: a1".to_owned())];
        items.extend(moves(&["d4"]));
        assert_eq!(
            movetext_lines(&items, WHITE_FIRST, "*"),
            vec!["{mismatch: a1} 1. d4 *"]
        );
    }

    #[test]
    fn an_empty_game_is_just_the_marker_and_an_empty_comment_is_braces() {
        assert_eq!(movetext_lines(&[], WHITE_FIRST, "*"), vec!["*"]);
        let items = vec![MovetextItem::Comment(" \n ".to_owned())];
        assert_eq!(movetext_lines(&items, WHITE_FIRST, "*"), vec!["{} *"]);
    }

    #[test]
    fn comments_cannot_be_closed_early() {
        let items = vec![MovetextItem::Comment("a } b { c".to_owned())];
        assert_eq!(
            movetext_lines(&items, WHITE_FIRST, "*"),
            vec!["{a ) b ( c} *"]
        );
    }

    #[test]
    fn lines_wrap_at_80_bytes_between_tokens() {
        // 20 full moves "N. Nf3 Nf3": 10 bytes each for N < 10.
        let items = moves(&["Nf3"; 40]);
        let lines = movetext_lines(&items, WHITE_FIRST, "*");
        assert!(lines.len() > 1);
        for line in &lines {
            assert!(line.len() <= 80, "{line:?} is {} bytes", line.len());
        }
        assert_eq!(lines.join(" "), {
            let full: Vec<String> = (1..=20).map(|n| format!("{n}. Nf3 Nf3")).collect();
            format!("{} *", full.join(" "))
        });
        // Seven full moves and their six separating spaces make 7 * 10 + 6 = 76 bytes; the
        // next token, " 8. Nf3", would make 83.
        assert_eq!(
            lines[0],
            "1. Nf3 Nf3 2. Nf3 Nf3 3. Nf3 Nf3 4. Nf3 Nf3 5. Nf3 Nf3 6. Nf3 Nf3 7. Nf3 Nf3"
        );
    }

    #[test]
    fn long_comment_words_are_cut_and_no_line_starts_with_percent() {
        let long = "é".repeat(100);
        let items = vec![MovetextItem::Comment(format!("{long} %escape"))];
        let lines = movetext_lines(&items, WHITE_FIRST, "*");
        for line in &lines {
            assert!(line.len() <= 80, "{line:?} is {} bytes", line.len());
            assert!(!line.starts_with('%'), "{line:?}");
        }
        // 200 bytes of "é" cut at 78 bytes (39 characters): 39 + 39 + 22 characters.
        assert_eq!(
            lines,
            vec![
                format!("{{{}", "é".repeat(39)),
                "é".repeat(39),
                format!("{} %escape}} *", "é".repeat(22)),
            ]
        );
    }
}
