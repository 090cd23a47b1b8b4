//! One shape for every streaming decoder of the project: the sensor log's, each board family's
//! wire (DGT, ChessLink, the Hall board's frames, Certabo, Chessnut, Square Off) and the
//! Lichess streams' lines.
//!
//! The shape is the async codecs' `Decoder`'s, sans-IO: bytes in, in whatever pieces the link gives
//! them; frames out, or an error for the bytes that made none, after which the decoder
//! resynchronises on the next frame, so that a corrupt frame costs that frame and never the
//! ones after it. What comes out never depends on how the bytes were split.

/// A streaming decoder: bytes in, frames or errors out, in order.
///
/// ```
/// use touchmove_core::decode::StreamDecoder;
/// use touchmove_core::sensor_log::{LogDecoder, LogRecord};
///
/// let mut decoder = LogDecoder::new();
/// decoder.push(b"touchmove-log 1\n0 lift e2\n400 pla");
/// decoder.push(b"ce e4\n");
/// decoder.finish();
/// let records: Vec<LogRecord> = std::iter::from_fn(|| decoder.poll()).collect::<Result<_, _>>()?;
/// assert_eq!(records.len(), 3, "the header, then two events");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait StreamDecoder {
    /// A whole frame, decoded.
    type Frame;
    /// What was wrong with bytes that made no frame (with the bytes, or where they were).
    type Error;

    /// Takes the next bytes received, in whatever pieces they came.
    fn push(&mut self, bytes: &[u8]);

    /// The stream ended, or the line went quiet: a frame begun will never be finished, and
    /// what it holds comes out of [`StreamDecoder::poll`] (as an error, or as the frames it
    /// held).
    fn finish(&mut self);

    /// The next frame or error the bytes so far make; `None` until more bytes come.
    fn poll(&mut self) -> Option<Result<Self::Frame, Self::Error>>;
}

/// Bytes as hex, space-separated, as the decoders' errors and the diagnostics show them.
///
/// ```
/// assert_eq!(touchmove_core::decode::hex(&[0x2b, 0x7f, 0x00]), "2b 7f 00");
/// assert_eq!(touchmove_core::decode::hex(&[]), "");
/// ```
pub fn hex(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len().saturating_mul(3));
    for (i, byte) in bytes.iter().enumerate() {
        if i > 0 {
            text.push(' ');
        }
        text.push_str(&format!("{byte:02x}"));
    }
    text
}
