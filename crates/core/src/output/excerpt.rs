//! What a message may quote of text a client sent: a short prefix, never the whole of it (a
//! 10 MB FEN refused is not echoed back).

/// The most characters of a client's text a message quotes.
pub const EXCERPT_CHARS: usize = 64;

/// `text`, or its first [`EXCERPT_CHARS`] characters and `…` when it is longer.
pub fn excerpt(text: &str) -> String {
    match text.char_indices().nth(EXCERPT_CHARS) {
        Some((cut, _)) => format!("{}…", text.get(..cut).unwrap_or_default()),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_text_is_cut_and_a_short_one_kept() {
        assert_eq!(excerpt("e4"), "e4");
        let long = "é".repeat(10_000);
        let cut = excerpt(&long);
        assert_eq!(cut.chars().count(), EXCERPT_CHARS + 1);
        assert!(cut.ends_with('…'));
    }
}
