//! Recognising a ChessLink board on a port: it answers `V` with its firmware version.

use super::wire::{BoardReply, FrameDecoder, HostCommand, encode_command};
use touchmove_core::decode::StreamDecoder;

/// `V` and its check.
pub(crate) fn request() -> Vec<u8> {
    encode_command(&HostCommand::Version)
}

/// `Millennium ChessLink board, firmware HH.LL` once the bytes hold a version reply (a board
/// in its default mode sends a status every scan meanwhile; those only show it is one).
pub(crate) fn recognise(bytes: &[u8]) -> Option<String> {
    let mut decoder = FrameDecoder::replies();
    decoder.push(bytes);
    std::iter::from_fn(|| decoder.poll()).find_map(|decoded| match decoded {
        Ok(BoardReply::Version(high, low)) => Some(super::session::describe(high, low)),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::chesslink::wire::encode_reply;

    #[test]
    fn a_version_reply_among_status_reports_is_a_chesslink_board() {
        let mut answer = b"?".to_vec();
        answer.extend(encode_reply(&BoardReply::Status(shakmaty::Board::new())));
        assert_eq!(recognise(&answer), None);
        answer.extend(encode_reply(&BoardReply::Version(0x01, 0x0a)));
        assert_eq!(
            recognise(&answer),
            Some("Millennium ChessLink board, firmware 01.0A".to_owned())
        );
        assert_eq!(request(), b"V56");
    }
}
