//! The decoder under noise: it never panics, its items never depend on how the input is
//! chunked, and corruption costs at most the frame it hits (or the one after a destroyed
//! delimiter): every other frame decodes.

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
use touchmove_firmware_protocol::{
    Change, Corrupt, CorruptReason, Decoded, Decoder, Frame, MAX_WIRE, Message, encode,
};

/// The wire bytes of `frames`, and the range of each frame (delimiter included).
fn stream(frames: &[Frame]) -> (Vec<u8>, Vec<std::ops::Range<usize>>) {
    let mut bytes = Vec::new();
    let mut spans = Vec::new();
    for frame in frames {
        let mut out = [0x00; MAX_WIRE];
        let length = encode(frame, &mut out).expect("MAX_WIRE bytes hold any frame");
        spans.push(bytes.len()..bytes.len() + length);
        bytes.extend_from_slice(&out[..length]);
    }
    (bytes, spans)
}

/// The items of `bytes` pushed in chunks cut at `cuts` (positions, any order, any range).
fn decode_chunked(bytes: &[u8], cuts: &[usize]) -> Vec<Decoded> {
    let mut cuts: Vec<usize> = cuts.iter().map(|&cut| cut.min(bytes.len())).collect();
    cuts.push(0);
    cuts.push(bytes.len());
    cuts.sort_unstable();
    let mut decoder = Decoder::new();
    let items = cuts
        .windows(2)
        .flat_map(|pair| decoder.push(&bytes[pair[0]..pair[1]]).collect::<Vec<_>>())
        .collect();
    assert!(decoder.buffered() <= bytes.len());
    items
}

/// The frames among `items`.
fn frames_of(items: &[Decoded]) -> Vec<Frame> {
    items
        .iter()
        .filter_map(|item| match item {
            Decoded::Frame(frame) => Some(*frame),
            Decoded::Corrupt(_) => None,
        })
        .collect()
}

/// Whether `needle` appears in `haystack` in order (not necessarily contiguously).
fn is_subsequence(needle: &[Frame], haystack: &[Frame]) -> bool {
    let mut rest = haystack.iter();
    needle
        .iter()
        .all(|wanted| rest.any(|frame| frame == wanted))
}

/// A change to the byte stream: a byte flipped, inserted or deleted at a position.
#[derive(Debug, Clone)]
enum Mutation {
    Flip(usize, u8),
    Insert(usize, u8),
    Delete(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1u8..=0xff).prop_map(|(at, mask)| Mutation::Flip(at, mask)),
        (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| Mutation::Insert(at, byte)),
        any::<usize>().prop_map(Mutation::Delete),
    ]
}

/// Applies the mutations (positions taken modulo the original length, at most one per position)
/// from the end backwards, so that each position refers to the original stream; returns the
/// positions touched.
fn mutate(bytes: &mut Vec<u8>, mutations: &[Mutation]) -> Vec<usize> {
    let len = bytes.len();
    let mut placed: Vec<(usize, Mutation)> = mutations
        .iter()
        .map(|m| match *m {
            Mutation::Flip(at, _) | Mutation::Insert(at, _) | Mutation::Delete(at) => {
                (at % len, m.clone())
            }
        })
        .collect();
    placed.sort_by_key(|(at, _)| std::cmp::Reverse(*at));
    // One mutation per position: two deletions at the last position would remove past the end.
    placed.dedup_by_key(|(at, _)| *at);
    for (at, m) in &placed {
        match *m {
            Mutation::Flip(_, mask) => bytes[*at] ^= mask,
            Mutation::Insert(_, byte) => bytes.insert(*at, byte),
            Mutation::Delete(_) => {
                bytes.remove(*at);
            }
        }
    }
    placed.into_iter().map(|(at, _)| at).collect()
}

proptest! {
    #[test]
    fn arbitrary_bytes_in_arbitrary_chunks_never_panic(
        bytes in proptest::collection::vec(any::<u8>(), 0..400),
        cuts in proptest::collection::vec(any::<usize>(), 0..20),
    ) {
        let whole = decode_chunked(&bytes, &[]);
        let byte_by_byte: Vec<usize> = (0..bytes.len()).collect();
        prop_assert_eq!(&decode_chunked(&bytes, &cuts), &whole);
        prop_assert_eq!(&decode_chunked(&bytes, &byte_by_byte), &whole);
        let dropped: usize = whole
            .iter()
            .map(|item| match item {
                Decoded::Corrupt(corrupt) => corrupt.dropped,
                Decoded::Frame(_) => 0,
            })
            .sum();
        prop_assert!(dropped <= bytes.len());
    }

    #[test]
    fn chunking_never_changes_the_frames(
        frames in proptest::collection::vec(common::frame(), 1..8),
        cuts in proptest::collection::vec(any::<usize>(), 0..30),
    ) {
        let (bytes, _) = stream(&frames);
        let expected: Vec<Decoded> = frames.iter().copied().map(Decoded::Frame).collect();
        prop_assert_eq!(decode_chunked(&bytes, &cuts), expected);
    }

    #[test]
    fn corruption_costs_at_most_the_frame_it_hits(
        frames in proptest::collection::vec(common::frame(), 1..8),
        mutations in proptest::collection::vec(mutation(), 1..4),
        cuts in proptest::collection::vec(any::<usize>(), 0..10),
    ) {
        let (mut bytes, spans) = stream(&frames);
        let touched = mutate(&mut bytes, &mutations);
        // A frame survives unless a mutation hit it or the delimiter before it.
        let clean: Vec<Frame> = frames
            .iter()
            .zip(&spans)
            .filter(|(_, span)| {
                let from = span.start.saturating_sub(1);
                !touched.iter().any(|&at| (from..span.end).contains(&at))
            })
            .map(|(frame, _)| *frame)
            .collect();
        let items = decode_chunked(&bytes, &cuts);
        prop_assert!(is_subsequence(&clean, &frames_of(&items)), "{:?} in {:?}", clean, items);
    }

    #[test]
    fn a_receiver_joining_mid_stream_decodes_from_the_next_delimiter(
        frames in proptest::collection::vec(common::frame(), 2..8),
        skip in any::<usize>(),
    ) {
        let (bytes, spans) = stream(&frames);
        let skip = skip % spans[0].end;
        let items = decode_chunked(&bytes[skip..], &[]);
        let tail: Vec<Decoded> = frames[1..].iter().copied().map(Decoded::Frame).collect();
        prop_assert_eq!(&items[items.len() - tail.len()..], &tail[..]);
        prop_assert!(items.len() <= tail.len() + 1);
    }
}

fn change_frame(seq: u8, square: u8) -> Frame {
    let change = Change {
        square: touchmove_firmware_protocol::Square::new(square).expect("a square"),
        action: touchmove_firmware_protocol::Action::Lifted,
        piece: None,
        time_ms: 0x0102_0304,
    };
    Frame {
        seq,
        message: Message::Change(change),
    }
}

#[test]
fn a_flipped_payload_byte_is_a_crc_report_and_the_next_frame_decodes() {
    let frames = [change_frame(1, 12), change_frame(2, 28)];
    let (mut bytes, spans) = stream(&frames);
    // Byte 3 of the first frame is inside the payload (after the COBS code, length, type).
    bytes[spans[0].start + 3] ^= 0x10;
    let items = decode_chunked(&bytes, &[]);
    let [
        Decoded::Corrupt(Corrupt {
            reason: CorruptReason::Crc { .. },
            dropped,
        }),
        second,
    ] = items.as_slice()
    else {
        panic!("{items:?}")
    };
    assert_eq!(*dropped, spans[0].len() - 1);
    assert_eq!(*second, Decoded::Frame(frames[1]));
}

#[test]
fn a_lost_delimiter_costs_two_frames_and_no_more() {
    let frames = [change_frame(1, 1), change_frame(2, 2), change_frame(3, 3)];
    let (mut bytes, spans) = stream(&frames);
    bytes.remove(spans[0].end - 1);
    let items = decode_chunked(&bytes, &[]);
    assert!(
        matches!(items.as_slice(), [Decoded::Corrupt(_), Decoded::Frame(f)] if *f == frames[2])
    );
}

#[test]
fn endless_noise_is_one_too_long_report_then_frames_decode() {
    let mut bytes = vec![0x5a; 1000];
    let (tail, _) = stream(&[Frame {
        seq: 9,
        message: Message::RequestSnapshot,
    }]);
    bytes.push(0x00);
    bytes.extend_from_slice(&tail);
    let items = decode_chunked(&bytes, &[17, 500]);
    let expected = vec![
        Decoded::Corrupt(Corrupt {
            reason: CorruptReason::TooLong,
            dropped: 1000,
        }),
        Decoded::Frame(Frame {
            seq: 9,
            message: Message::RequestSnapshot,
        }),
    ];
    assert_eq!(items, expected);
}

#[test]
fn lone_delimiters_are_idle_and_yield_nothing() {
    let (frame, _) = stream(&[change_frame(0, 0)]);
    let bytes = [&[0x00, 0x00][..], &frame, &[0x00, 0x00, 0x00]].concat();
    assert_eq!(
        decode_chunked(&bytes, &[1, 4]),
        vec![Decoded::Frame(change_frame(0, 0))]
    );
}
