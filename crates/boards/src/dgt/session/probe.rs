//! Recognising a DGT board on a port: it answers SEND_VERSION with its VERSION.

use crate::dgt::wire::command::{HostCommand, encode};
use crate::dgt::wire::message::BoardMessage;
use crate::dgt::wire::message::decoder::DgtDecoder;
use touchmove_core::decode::StreamDecoder;

/// SEND_VERSION.
pub(crate) fn request() -> Vec<u8> {
    encode(&HostCommand::SendVersion)
}

/// `DGT board, version M.SS` once the bytes hold a VERSION message.
pub(crate) fn recognise(bytes: &[u8]) -> Option<String> {
    let mut decoder = DgtDecoder::new();
    decoder.push(bytes);
    std::iter::from_fn(|| decoder.poll()).find_map(|decoded| match decoded {
        Ok(BoardMessage::Version { main, sub }) => {
            Some(format!("DGT board, version {main}.{sub:02}"))
        }
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_version_message_after_noise_is_a_dgt_board() {
        // VERSION is 0x93, length 0x0005, then main and sub.
        let answer = [0x7f, 0x93, 0x00, 0x05, 0x01, 0x02];
        assert_eq!(
            recognise(&answer),
            Some("DGT board, version 1.02".to_owned())
        );
        assert_eq!(recognise(&answer[..4]), None);
        assert_eq!(request(), [0x4d]);
    }
}
