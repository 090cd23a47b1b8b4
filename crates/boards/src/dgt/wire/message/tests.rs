//! Tests of the board-message decoder: every message from hand-written bytes, every kind of
//! corruption, partial input, and (by property) robustness to noise and chunking.

use proptest::prelude::*;
use shakmaty::{Board, Color, Square};

use crate::dgt::wire::clock::{ClockAck, ClockReport, ClockTime};
use crate::dgt::wire::message::decoder::Corrupt;
use crate::dgt::wire::message::decoder::{CorruptReason, Decoded, DgtDecoder, MAX_MESSAGE_LENGTH};
use crate::dgt::wire::message::{BoardDump, BoardMessage, Occupant, PayloadError};
use crate::dgt::wire::protocol;
use touchmove_core::decode::StreamDecoder;

/// The start position as a BOARD_DUMP, header included (a8 first, h1 last).
pub(crate) const START_DUMP: [u8; 67] = [
    0x86, 0x00, 0x43, //
    0x08, 0x09, 0x0a, 0x0c, 0x0b, 0x0a, 0x09, 0x08, // rank 8
    0x07, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07, // rank 7
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, //
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, //
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, //
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, //
    0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, // rank 2
    0x02, 0x03, 0x04, 0x06, 0x05, 0x04, 0x03, 0x02, // rank 1
];

/// Every item of `bytes` pushed whole.
fn decode_whole(bytes: &[u8]) -> Vec<Decoded> {
    let mut decoder = DgtDecoder::new();
    decoder.push(bytes);
    std::iter::from_fn(|| decoder.poll()).collect()
}

/// Every item of `bytes` pushed in chunks of the given sizes (cycled), polling after each push.
fn decode_chunked(bytes: &[u8], sizes: &[usize]) -> Vec<Decoded> {
    let mut decoder = DgtDecoder::new();
    let mut items = Vec::new();
    let mut rest = bytes;
    let mut sizes = sizes.iter().copied().filter(|&size| size > 0).cycle();
    while !rest.is_empty() {
        let size = sizes.next().unwrap_or(1).min(rest.len());
        let (chunk, tail) = rest.split_at(size);
        decoder.push(chunk);
        items.extend(std::iter::from_fn(|| decoder.poll()));
        rest = tail;
    }
    items
}

/// The single message `bytes` decode to.
fn decode_one(bytes: &[u8]) -> BoardMessage {
    match decode_whole(bytes).as_slice() {
        [Ok(message)] => message.clone(),
        other => panic!("one message expected from {bytes:02x?}, got {other:?}"),
    }
}

/// A corrupt item.
fn corrupt(dropped: &[u8], reason: CorruptReason) -> Decoded {
    Err(Corrupt {
        dropped: dropped.to_vec(),
        reason,
    })
}

const VERSION_1_02: [u8; 5] = [0x93, 0x00, 0x05, 0x01, 0x02];

fn version_1_02() -> Decoded {
    Ok(BoardMessage::Version { main: 1, sub: 2 })
}

#[test]
fn version_serial_and_long_serial() {
    assert_eq!(decode_whole(&VERSION_1_02), vec![version_1_02()]);
    assert_eq!(
        decode_one(&[0x91, 0x00, 0x08, 0x31, 0x32, 0x33, 0x34, 0x35]),
        BoardMessage::SerialNumber("12345".to_string())
    );
    assert_eq!(
        decode_one(&[
            0xa2, 0x00, 0x0d, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39
        ]),
        BoardMessage::LongSerialNumber("0123456789".to_string())
    );
}

#[test]
fn trademark_bus_address_battery_and_unknown() {
    assert_eq!(
        decode_one(&[0x92, 0x00, 0x08, 0x44, 0x47, 0x54, 0x0d, 0x0a]),
        BoardMessage::Trademark("DGT\r\n".to_string())
    );
    assert_eq!(
        decode_one(&[0x90, 0x00, 0x05, 0x01, 0x02]),
        BoardMessage::BusAddress(0x82)
    );
    let battery = [
        0xa0, 0x00, 0x0c, 0x58, 0x02, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
    ];
    assert_eq!(
        decode_one(&battery),
        BoardMessage::BatteryStatus(vec![0x58, 0x02, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01])
    );
    assert_eq!(
        decode_one(&[0x8f, 0x00, 0x04, 0x7f]),
        BoardMessage::Unknown {
            id: 0x8f,
            payload: vec![0x7f]
        }
    );
    assert_eq!(
        decode_one(&[0x8f, 0x00, 0x03]),
        BoardMessage::Unknown {
            id: 0x8f,
            payload: vec![]
        }
    );
}

#[test]
fn field_updates_name_the_square_and_occupant() {
    assert_eq!(
        decode_one(&[0x8e, 0x00, 0x05, 0x24, 0x01]),
        BoardMessage::FieldUpdate {
            square: Square::E4,
            occupant: Occupant::Piece(Color::White.pawn())
        }
    );
    assert_eq!(
        decode_one(&[0x8e, 0x00, 0x05, 0x34, 0x00]),
        BoardMessage::FieldUpdate {
            square: Square::E2,
            occupant: Occupant::Empty
        }
    );
    assert_eq!(
        decode_one(&[0x8e, 0x00, 0x05, 0x3f, 0x0c]),
        BoardMessage::FieldUpdate {
            square: Square::H1,
            occupant: Occupant::Piece(Color::Black.queen())
        }
    );
    for code in [0x0d, 0x0e, 0x0f] {
        assert_eq!(
            decode_one(&[0x8e, 0x00, 0x05, 0x00, code]),
            BoardMessage::FieldUpdate {
                square: Square::A8,
                occupant: Occupant::Magic(code)
            }
        );
    }
}

#[test]
fn a_board_dump_is_the_whole_board() {
    let BoardMessage::BoardDump(dump) = decode_one(&START_DUMP) else {
        panic!("a board dump expected");
    };
    assert_eq!(dump.board(), Board::default());
    assert_eq!(
        dump.occupant(Square::D1),
        Occupant::Piece(Color::White.queen())
    );
    assert_eq!(
        dump.occupant(Square::E8),
        Occupant::Piece(Color::Black.king())
    );
    assert_eq!(dump.occupant(Square::E4), Occupant::Empty);
    assert_eq!(
        dump.codes().as_slice(),
        START_DUMP.get(3..).unwrap_or_default()
    );
}

#[test]
fn magic_pieces_in_a_dump_are_kept_but_not_on_the_board() {
    let mut bytes = START_DUMP;
    if let Some(byte) = bytes.get_mut(3 + 36) {
        *byte = 0x0e; // e4
    }
    let BoardMessage::BoardDump(dump) = decode_one(&bytes) else {
        panic!("a board dump expected");
    };
    assert_eq!(dump.occupant(Square::E4), Occupant::Magic(0x0e));
    assert_eq!(dump.board(), Board::default());
}

#[test]
fn bwtime_is_a_report_or_an_acknowledgement() {
    let report = [0x8d, 0x00, 0x0a, 0x01, 0x30, 0x00, 0x01, 0x29, 0x59, 0x11];
    assert_eq!(
        decode_one(&report),
        BoardMessage::Clock(ClockReport {
            right: ClockTime {
                hours: 1,
                minutes: 30,
                seconds: 0,
                flag: 0
            },
            left: ClockTime {
                hours: 1,
                minutes: 29,
                seconds: 59,
                flag: 0
            },
            running: true,
            lever_right_high: false,
            battery_low: false,
            right_to_move: true,
            left_to_move: false,
            no_clock: false,
        })
    );
    let ack = [0x8d, 0x00, 0x0a, 0x0a, 0x09, 0x01, 0x00, 0x00, 0x00, 0x00];
    assert_eq!(
        decode_one(&ack),
        BoardMessage::ClockAck(ClockAck {
            bytes: [0x0a, 0x09, 0x01, 0x00, 0x00, 0x00, 0x00]
        })
    );
}

#[test]
fn partial_input_waits() {
    let mut decoder = DgtDecoder::new();
    decoder.push(&[0x93, 0x00]);
    assert_eq!(decoder.poll(), None);
    decoder.push(&[0x05, 0x01]);
    assert_eq!(decoder.poll(), None);
    assert_eq!(decoder.buffered(), 4);
    decoder.push(&[0x02]);
    assert_eq!(decoder.poll(), Some(version_1_02()));
    assert_eq!(decoder.poll(), None);
    assert_eq!(decoder.buffered(), 0);
}

#[test]
fn leading_noise_is_dropped_up_to_the_next_message_start() {
    let mut decoder = DgtDecoder::new();
    decoder.push(&[0x01, 0x02]);
    assert_eq!(decoder.poll(), None, "the noise may go on");
    decoder.push(&VERSION_1_02);
    assert_eq!(
        decoder.poll(),
        Some(corrupt(&[0x01, 0x02], CorruptReason::NotAMessageStart))
    );
    assert_eq!(decoder.poll(), Some(version_1_02()));
}

#[test]
fn a_length_byte_with_the_top_bit_set_drops_the_header() {
    let bytes = [0x93, 0x93, 0x00, 0x05, 0x01, 0x02];
    assert_eq!(
        decode_whole(&bytes),
        vec![
            corrupt(&[0x93], CorruptReason::LengthByteHighBit { id: 0x93 }),
            version_1_02()
        ]
    );
    let bytes = [0x8e, 0x00, 0x93, 0x00, 0x05, 0x01, 0x02];
    assert_eq!(
        decode_whole(&bytes),
        vec![
            corrupt(&[0x8e, 0x00], CorruptReason::LengthByteHighBit { id: 0x8e }),
            version_1_02()
        ]
    );
}

#[test]
fn impossible_lengths_are_dropped_with_what_follows() {
    // VERSION is always 5 bytes long.
    let bytes = [
        0x93, 0x00, 0x06, 0x01, 0x02, 0x03, 0x93, 0x00, 0x05, 0x01, 0x02,
    ];
    assert_eq!(
        decode_whole(&bytes),
        vec![
            corrupt(
                &[0x93, 0x00, 0x06, 0x01, 0x02, 0x03],
                CorruptReason::ImpossibleLength {
                    id: 0x93,
                    length: 6
                }
            ),
            version_1_02()
        ]
    );
    // Shorter than the header.
    let bytes = [0x92, 0x00, 0x02, 0x93, 0x00, 0x05, 0x01, 0x02];
    assert_eq!(
        decode_whole(&bytes),
        vec![
            corrupt(
                &[0x92, 0x00, 0x02],
                CorruptReason::ImpossibleLength {
                    id: 0x92,
                    length: 2
                }
            ),
            version_1_02()
        ]
    );
    // Longer than the cap on variable lengths (513 bytes).
    let bytes = [0x92, 0x04, 0x01, 0x41, 0x93, 0x00, 0x05, 0x01, 0x02];
    assert_eq!(
        decode_whole(&bytes),
        vec![
            corrupt(
                &[0x92, 0x04, 0x01, 0x41],
                CorruptReason::ImpossibleLength {
                    id: 0x92,
                    length: 513
                }
            ),
            version_1_02()
        ]
    );
}

#[test]
fn a_message_cut_short_by_a_message_start_is_dropped() {
    let bytes = [
        0x86, 0x00, 0x43, 0x08, 0x09, 0x0a, 0x93, 0x00, 0x05, 0x01, 0x02,
    ];
    assert_eq!(
        decode_whole(&bytes),
        vec![
            corrupt(
                &[0x86, 0x00, 0x43, 0x08, 0x09, 0x0a],
                CorruptReason::CutShort {
                    id: 0x86,
                    received: 6,
                    length: 67
                }
            ),
            version_1_02()
        ]
    );
}

#[test]
fn bad_data_in_a_well_framed_message_is_dropped_whole() {
    let bytes = [0x8e, 0x00, 0x05, 0x40, 0x01, 0x93, 0x00, 0x05, 0x01, 0x02];
    assert_eq!(
        decode_whole(&bytes),
        vec![
            corrupt(
                &[0x8e, 0x00, 0x05, 0x40, 0x01],
                CorruptReason::BadPayload {
                    id: 0x8e,
                    problem: PayloadError::BadSquare { index: 0x40 }
                }
            ),
            version_1_02()
        ]
    );
    assert_eq!(
        decode_whole(&[0x8e, 0x00, 0x05, 0x00, 0x10]),
        vec![corrupt(
            &[0x8e, 0x00, 0x05, 0x00, 0x10],
            CorruptReason::BadPayload {
                id: 0x8e,
                problem: PayloadError::BadPieceCode { code: 0x10 }
            }
        )]
    );
}

#[test]
fn long_noise_is_reported_in_capped_pieces() {
    let mut decoder = DgtDecoder::new();
    decoder.push(&[0x00; 600]);
    assert_eq!(
        decoder.poll(),
        Some(corrupt(
            &[0x00; MAX_MESSAGE_LENGTH],
            CorruptReason::NotAMessageStart
        ))
    );
    assert_eq!(decoder.poll(), None);
    decoder.push(&VERSION_1_02);
    assert_eq!(
        decoder.poll(),
        Some(corrupt(&[0x00; 88], CorruptReason::NotAMessageStart))
    );
    assert_eq!(decoder.poll(), Some(version_1_02()));
}

#[test]
fn a_dump_matches_its_codes() {
    let codes = START_DUMP.get(3..).unwrap_or_default();
    let dump = BoardDump::from_codes(codes);
    assert_eq!(dump.map(|dump| dump.board()), Ok(Board::default()));
    assert_eq!(
        BoardDump::from_codes(&[0x00; 63]),
        Err(PayloadError::WrongLength { length: 63 })
    );
    assert_eq!(protocol::length_bytes(START_DUMP.len()), [0x00, 0x43]);
}

/// A message with the header for `payload`.
fn frame(first: u8, payload: &[u8]) -> Vec<u8> {
    let mut bytes = vec![first];
    bytes.extend(protocol::length_bytes(payload.len() + 3));
    bytes.extend_from_slice(payload);
    bytes
}

/// Two-digit BCD.
fn bcd(value: u8) -> u8 {
    (value / 10) << 4 | (value % 10)
}

/// Well-formed board messages of every kind.
fn valid_message() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(0x00u8..=0x0f, 64).prop_map(|codes| frame(0x86, &codes)),
        (0x00u8..64, 0x00u8..=0x0f).prop_map(|(square, code)| frame(0x8e, &[square, code])),
        (
            0u8..10,
            0u8..60,
            0u8..60,
            0u8..10,
            0u8..60,
            0u8..60,
            0u8..0x40
        )
            .prop_map(|(rh, rm, rs, lh, lm, ls, status)| frame(
                0x8d,
                &[rh, bcd(rm), bcd(rs), lh, bcd(lm), bcd(ls), status]
            )),
        prop::collection::vec(0x30u8..=0x39, 5).prop_map(|digits| frame(0x91, &digits)),
        prop::collection::vec(0x30u8..=0x39, 10).prop_map(|digits| frame(0xa2, &digits)),
        (0u8..0x80, 0u8..0x80).prop_map(|(main, sub)| frame(0x93, &[main, sub])),
        prop::collection::vec(0x20u8..0x7f, 0..40).prop_map(|text| frame(0x92, &text)),
        prop::collection::vec(0u8..0x80, 0..12).prop_map(|data| frame(0xa0, &data)),
        prop::collection::vec(0u8..0x80, 0..12).prop_map(|data| frame(0xb5, &data)),
    ]
}

/// Noise: arbitrary bytes, with top-bit bytes and plausible headers over-represented.
fn noise() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![any::<u8>(), 0x80u8..=0xa2, Just(0x00u8), Just(0x05u8)],
        0..12,
    )
}

/// Whether `wanted` appear in `items`, in order.
fn contains_in_order(items: &[Decoded], wanted: &[BoardMessage]) -> bool {
    let mut wanted = wanted.iter().peekable();
    for item in items {
        if let (Ok(message), Some(next)) = (item, wanted.peek())
            && message == *next
        {
            wanted.next();
        }
    }
    wanted.peek().is_none()
}

proptest! {
    #[test]
    fn random_bytes_in_random_chunks_never_panic(
        bytes in prop::collection::vec(any::<u8>(), 0..2000),
        sizes in prop::collection::vec(1usize..40, 1..20),
    ) {
        let items = decode_chunked(&bytes, &sizes);
        let dropped: usize = items
            .iter()
            .map(|item| match item {
                Err(Corrupt { dropped, .. }) => dropped.len(),
                Ok(_) => 0,
            })
            .sum();
        prop_assert!(dropped <= bytes.len());
    }

    #[test]
    fn chunking_never_changes_the_items(
        parts in prop::collection::vec((noise(), valid_message()), 0..12),
        sizes in prop::collection::vec(1usize..80, 1..20),
    ) {
        let bytes: Vec<u8> = parts.iter().flat_map(|(noise, message)| {
            noise.iter().chain(message).copied()
        }).collect();
        prop_assert_eq!(decode_chunked(&bytes, &sizes), decode_whole(&bytes));
        prop_assert_eq!(decode_chunked(&bytes, &[1]), decode_whole(&bytes));
    }

    #[test]
    fn messages_between_noise_are_all_recovered(
        parts in prop::collection::vec((noise(), valid_message()), 1..12),
        sizes in prop::collection::vec(1usize..80, 1..20),
    ) {
        let wanted: Vec<BoardMessage> =
            parts.iter().map(|(_, message)| decode_one(message)).collect();
        let bytes: Vec<u8> = parts.iter().flat_map(|(noise, message)| {
            noise.iter().chain(message).copied()
        }).collect();
        let items = decode_chunked(&bytes, &sizes);
        prop_assert!(contains_in_order(&items, &wanted), "{:02x?} gave {:?}", bytes, items);
    }

    #[test]
    fn messages_with_clean_noise_are_recovered_exactly(
        parts in prop::collection::vec(
            (prop::collection::vec(0u8..0x80, 0..12), valid_message()),
            1..12,
        ),
    ) {
        let mut expected = Vec::new();
        let mut bytes = Vec::new();
        for (noise, message) in &parts {
            if !noise.is_empty() {
                expected.push(corrupt(noise, CorruptReason::NotAMessageStart));
            }
            expected.push(Ok(decode_one(message)));
            bytes.extend_from_slice(noise);
            bytes.extend_from_slice(message);
        }
        prop_assert_eq!(decode_whole(&bytes), expected);
    }
}

#[test]
fn the_end_of_the_stream_drops_a_message_begun_after_the_whole_ones() {
    // VERSION (0x93, length 5) whole, then the first three bytes of a second one.
    let mut decoder = DgtDecoder::new();
    decoder.push(&[0x93, 0x00, 0x05, 0x01, 0x02, 0x93, 0x00, 0x05]);
    decoder.finish();
    let items: Vec<Decoded> = std::iter::from_fn(|| decoder.poll()).collect();
    assert_eq!(
        items,
        [
            version_1_02(),
            corrupt(
                &[0x93, 0x00, 0x05],
                CorruptReason::Unfinished {
                    id: 0x93,
                    received: 3
                }
            ),
        ]
    );
    assert_eq!(decoder.buffered(), 0);
}
