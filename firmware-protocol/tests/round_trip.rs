//! Every frame encodes within the documented bounds and decodes back to itself.

// Tests and benchmarks stop on what they did not expect: the workspace's denial of `unwrap`,
// `expect`, indexing and `panic!` is for the code input reaches, not for them.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use touchmove_firmware_protocol::{
    BufferTooSmall, DELIMITER, Decoded, Decoder, Frame, MAX_WIRE, Message, encode,
};

/// The wire bytes of `frame`.
fn wire(frame: &Frame) -> Vec<u8> {
    let mut out = [0xaa; MAX_WIRE];
    let length = encode(frame, &mut out).expect("MAX_WIRE bytes hold any frame");
    out[..length].to_vec()
}

proptest! {
    #[test]
    fn every_frame_round_trips(frame in common::frame()) {
        let bytes = wire(&frame);
        prop_assert!(bytes.len() <= MAX_WIRE);
        prop_assert_eq!(bytes.iter().position(|&b| b == DELIMITER), Some(bytes.len() - 1));
        let mut decoder = Decoder::new();
        let items: Vec<Decoded> = decoder.push(&bytes).collect();
        prop_assert_eq!(items, vec![Decoded::Frame(frame)]);
        prop_assert_eq!(decoder.buffered(), 0);
    }

    #[test]
    fn a_buffer_one_byte_short_is_refused(frame in common::frame()) {
        let length = wire(&frame).len();
        let mut out = vec![0x00; length - 1];
        prop_assert_eq!(encode(&frame, &mut out), Err(BufferTooSmall));
        let mut exact = vec![0x00; length];
        prop_assert_eq!(encode(&frame, &mut exact), Ok(length));
    }
}

/// One example of every message kind, so that no kind can silently drop out of the strategy.
#[test]
fn every_frame_type_has_a_distinct_type_byte() {
    let runner_config = ProptestConfig::with_cases(64);
    let mut runner = proptest::test_runner::TestRunner::new(runner_config);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..2000 {
        let frame = common::frame()
            .new_tree(&mut runner)
            .expect("a frame")
            .current();
        seen.insert(frame.message.frame_type());
        let mut decoder = Decoder::new();
        let items: Vec<Decoded> = decoder.push(&wire(&frame)).collect();
        assert_eq!(items, vec![Decoded::Frame(frame)]);
    }
    let expected = [0x01, 0x02, 0x03, 0x04, 0x05, 0x81, 0x82, 0x83];
    assert_eq!(seen.into_iter().collect::<Vec<_>>(), expected);
    assert_eq!(Message::RequestSnapshot.frame_type(), 0x81);
}
