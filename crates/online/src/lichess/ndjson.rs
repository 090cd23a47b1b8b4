//! Newline-delimited JSON as the Lichess streams send it: bytes in, in whatever chunks the
//! connection gives them; whole lines out. An empty line is a keep-alive.

/// The longest line kept: a longer one is cut off and reported, never grown without bound.
pub const MAX_LINE: usize = 64 * 1024;

/// A line of a stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// An empty line: the server is there.
    KeepAlive,
    /// A line of text (its line ending removed).
    Text(String),
    /// A line longer than [`MAX_LINE`] bytes, or not UTF-8: dropped, its length kept.
    Unreadable(usize),
}

/// The bytes of a stream received so far, split into lines.
///
/// ```
/// use touchmove_online::lichess::ndjson::{Line, NdjsonLines};
///
/// let mut lines = NdjsonLines::new();
/// // A line cut between two chunks, a keep-alive, and the start of the next line.
/// assert_eq!(lines.push(b"{\"type\":\"chat"), []);
/// let whole = lines.push(b"Line\"}\n\n{\"ty");
/// assert_eq!(whole, [Line::Text(r#"{"type":"chatLine"}"#.to_owned()), Line::KeepAlive]);
/// // Bytes that are no text are dropped, their length said.
/// assert_eq!(lines.push(b"pe\"}\n\xff\xfe\n"), [
///     Line::Text(r#"{"type"}"#.to_owned()),
///     Line::Unreadable(2),
/// ]);
/// ```
#[derive(Debug, Default)]
pub struct NdjsonLines {
    pending: Vec<u8>,
    /// The line under way is too long: drop its bytes until its end.
    skipping: Option<usize>,
}

impl NdjsonLines {
    /// No bytes yet.
    pub fn new() -> NdjsonLines {
        NdjsonLines::default()
    }

    /// Takes `bytes` in; returns the lines they complete, in order.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<Line> {
        let mut lines = Vec::new();
        let mut rest = bytes;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            let (head, tail) = rest.split_at(end);
            rest = tail.get(1..).unwrap_or_default();
            lines.push(self.finish_line(head));
        }
        self.keep(rest);
        lines
    }

    /// The bytes of an unfinished line at the end of the stream, as a line if there are any.
    pub fn finish(&mut self) -> Option<Line> {
        if self.pending.is_empty() && self.skipping.is_none() {
            return None;
        }
        Some(self.finish_line(&[]))
    }

    fn keep(&mut self, bytes: &[u8]) {
        if let Some(skipped) = self.skipping.as_mut() {
            *skipped = skipped.saturating_add(bytes.len());
        } else if self.pending.len().saturating_add(bytes.len()) > MAX_LINE {
            self.skipping = Some(self.pending.len().saturating_add(bytes.len()));
            self.pending.clear();
        } else {
            self.pending.extend_from_slice(bytes);
        }
    }

    fn finish_line(&mut self, head: &[u8]) -> Line {
        self.keep(head);
        if let Some(length) = self.skipping.take() {
            return Line::Unreadable(length);
        }
        let bytes = std::mem::take(&mut self.pending);
        let bytes = bytes.strip_suffix(b"\r").unwrap_or(&bytes);
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Line::KeepAlive;
        }
        match std::str::from_utf8(bytes) {
            Ok(text) => Line::Text(text.to_owned()),
            Err(_) => Line::Unreadable(bytes.len()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_come_whole_whatever_the_chunks() {
        let stream = b"{\"type\":\"gameFull\"}\n\n{\"type\":\"gameState\"}\r\n\n";
        for cut in 0..stream.len() {
            let (a, b) = stream.split_at(cut);
            let mut lines = NdjsonLines::new();
            let mut got = lines.push(a);
            got.extend(lines.push(b));
            assert_eq!(
                got,
                [
                    Line::Text("{\"type\":\"gameFull\"}".to_owned()),
                    Line::KeepAlive,
                    Line::Text("{\"type\":\"gameState\"}".to_owned()),
                    Line::KeepAlive,
                ],
                "cut at {cut}"
            );
            assert_eq!(lines.finish(), None);
        }
    }

    #[test]
    fn a_line_too_long_is_dropped_and_the_next_one_read() {
        let mut lines = NdjsonLines::new();
        let long = vec![b'x'; MAX_LINE + 10];
        assert!(lines.push(&long).is_empty());
        let got = lines.push(b"yy\n{}\n");
        assert_eq!(
            got,
            [Line::Unreadable(MAX_LINE + 12), Line::Text("{}".to_owned())]
        );
    }

    #[test]
    fn an_unfinished_last_line_is_given_at_the_end() {
        let mut lines = NdjsonLines::new();
        assert!(lines.push(b"{\"a\":1}").is_empty());
        assert_eq!(lines.finish(), Some(Line::Text("{\"a\":1}".to_owned())));
        assert_eq!(lines.finish(), None);
        assert_eq!(lines.push(b"\xff\xfe\n"), [Line::Unreadable(2)]);
    }
}
