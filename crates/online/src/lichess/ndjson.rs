//! Newline-delimited JSON as the Lichess streams send it: bytes in, in whatever chunks the
//! connection gives them; whole lines out. An empty line is a keep-alive.

use std::collections::VecDeque;

use touchmove_core::decode::StreamDecoder;

/// The longest line kept: a longer one is cut off and reported, never grown without bound.
pub const MAX_LINE: usize = 64 * 1024;

/// A line of a stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// An empty line: the server is there.
    KeepAlive,
    /// A line of text (its line ending removed).
    Text(String),
}

/// A line longer than [`MAX_LINE`] bytes, or not UTF-8: dropped, its length kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unreadable {
    /// How many bytes it had.
    pub length: usize,
}

/// The bytes of a stream received so far, split into lines.
///
/// ```
/// use touchmove_core::decode::StreamDecoder;
/// use touchmove_online::lichess::ndjson::{Line, NdjsonLines, Unreadable};
///
/// let mut lines = NdjsonLines::new();
/// // A line cut between two chunks, a keep-alive, and the start of the next line.
/// lines.push(b"{\"type\":\"chat");
/// assert_eq!(lines.poll(), None);
/// lines.push(b"Line\"}\n\n{\"ty");
/// assert_eq!(lines.poll(), Some(Ok(Line::Text(r#"{"type":"chatLine"}"#.to_owned()))));
/// assert_eq!(lines.poll(), Some(Ok(Line::KeepAlive)));
/// // Bytes that are no text are dropped, their length said; the stream's end gives the last
/// // line without its line feed.
/// lines.push(b"pe\"}\n\xff\xfe\n{}");
/// lines.finish();
/// let rest: Vec<_> = std::iter::from_fn(|| lines.poll()).collect();
/// assert_eq!(rest, [
///     Ok(Line::Text(r#"{"type"}"#.to_owned())),
///     Err(Unreadable { length: 2 }),
///     Ok(Line::Text("{}".to_owned())),
/// ]);
/// ```
#[derive(Debug, Default)]
pub struct NdjsonLines {
    pending: Vec<u8>,
    /// The line under way is too long: drop its bytes until its end.
    skipping: Option<usize>,
    /// The lines made, not yet polled.
    ready: VecDeque<Result<Line, Unreadable>>,
}

impl NdjsonLines {
    /// No bytes yet.
    pub fn new() -> NdjsonLines {
        NdjsonLines::default()
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

    fn finish_line(&mut self, head: &[u8]) -> Result<Line, Unreadable> {
        self.keep(head);
        if let Some(length) = self.skipping.take() {
            return Err(Unreadable { length });
        }
        let bytes = std::mem::take(&mut self.pending);
        let bytes = bytes.strip_suffix(b"\r").unwrap_or(&bytes);
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Line::KeepAlive);
        }
        match std::str::from_utf8(bytes) {
            Ok(text) => Ok(Line::Text(text.to_owned())),
            Err(_) => Err(Unreadable {
                length: bytes.len(),
            }),
        }
    }
}

impl StreamDecoder for NdjsonLines {
    type Frame = Line;
    type Error = Unreadable;

    /// Takes `bytes` in; the lines they complete are polled, in order.
    fn push(&mut self, bytes: &[u8]) {
        let mut rest = bytes;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            let (head, tail) = rest.split_at(end);
            rest = tail.get(1..).unwrap_or_default();
            let line = self.finish_line(head);
            self.ready.push_back(line);
        }
        self.keep(rest);
    }

    /// The end of the stream: the bytes of an unfinished line are a line, if there are any.
    fn finish(&mut self) {
        if !self.pending.is_empty() || self.skipping.is_some() {
            let line = self.finish_line(&[]);
            self.ready.push_back(line);
        }
    }

    fn poll(&mut self) -> Option<Result<Line, Unreadable>> {
        self.ready.pop_front()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(lines: &mut NdjsonLines) -> Vec<Result<Line, Unreadable>> {
        std::iter::from_fn(|| lines.poll()).collect()
    }

    #[test]
    fn lines_come_whole_whatever_the_chunks() {
        let stream = b"{\"type\":\"gameFull\"}\n\n{\"type\":\"gameState\"}\r\n\n";
        for cut in 0..stream.len() {
            let (a, b) = stream.split_at(cut);
            let mut lines = NdjsonLines::new();
            lines.push(a);
            lines.push(b);
            assert_eq!(
                lines_of(&mut lines),
                [
                    Ok(Line::Text("{\"type\":\"gameFull\"}".to_owned())),
                    Ok(Line::KeepAlive),
                    Ok(Line::Text("{\"type\":\"gameState\"}".to_owned())),
                    Ok(Line::KeepAlive),
                ],
                "cut at {cut}"
            );
            lines.finish();
            assert_eq!(lines.poll(), None);
        }
    }

    #[test]
    fn a_line_too_long_is_dropped_and_the_next_one_read() {
        let mut lines = NdjsonLines::new();
        let long = vec![b'x'; MAX_LINE + 10];
        lines.push(&long);
        assert!(lines_of(&mut lines).is_empty());
        lines.push(b"yy\n{}\n");
        assert_eq!(
            lines_of(&mut lines),
            [
                Err(Unreadable {
                    length: MAX_LINE + 12
                }),
                Ok(Line::Text("{}".to_owned()))
            ]
        );
    }

    #[test]
    fn an_unfinished_last_line_is_given_at_the_end() {
        let mut lines = NdjsonLines::new();
        lines.push(b"{\"a\":1}");
        assert!(lines_of(&mut lines).is_empty());
        lines.finish();
        assert_eq!(
            lines_of(&mut lines),
            [Ok(Line::Text("{\"a\":1}".to_owned()))]
        );
        lines.finish();
        assert_eq!(lines.poll(), None);
        lines.push(b"\xff\xfe\n");
        assert_eq!(lines_of(&mut lines), [Err(Unreadable { length: 2 })]);
    }
}
