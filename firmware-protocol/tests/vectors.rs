//! `test-vectors.txt`, checked both ways: every frame vector encodes to its bytes and its bytes
//! decode to it; every corrupt vector decodes to one report with its reason.

// Tests and benchmarks stop on what they did not expect: the workspace's denial of `unwrap`,
// `expect`, indexing and `panic!` is for the code input reaches, not for them.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::collections::HashMap;
use touchmove_firmware_protocol::{
    Action, Button, Capabilities, Change, Corrupt, CorruptReason, Decoded, Decoder,
    FirmwareVersion, Frame, Hello, LedPattern, MAX_WIRE, Message, Piece, PieceCodes, SetLeds,
    Snapshot, Square, encode,
};

/// The vectors file, as both ends' tests read it.
const VECTORS: &str = include_str!("../test-vectors.txt");

/// One line of the file.
struct Vector<'a> {
    name: &'a str,
    kind: &'a str,
    fields: HashMap<&'a str, &'a str>,
    bytes: Vec<u8>,
}

fn vectors() -> Vec<Vector<'static>> {
    VECTORS
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(parse_line)
        .collect()
}

fn parse_line(line: &str) -> Vector<'_> {
    let (description, hex) = line.split_once(" => ").expect("` => ` before the bytes");
    let mut words = description.split_whitespace();
    let name = words.next().expect("a name");
    let mut fields = HashMap::new();
    let mut kind = "";
    for word in words {
        match word.split_once('=') {
            Some((key, value)) => assert!(fields.insert(key, value).is_none(), "{name}: {key}"),
            None => kind = word,
        }
    }
    let bytes = hex
        .split_whitespace()
        .map(|byte| u8::from_str_radix(byte, 16).expect("hex bytes"))
        .collect();
    Vector {
        name,
        kind,
        fields,
        bytes,
    }
}

fn field<'a>(vector: &Vector<'a>, key: &str) -> &'a str {
    vector
        .fields
        .get(key)
        .unwrap_or_else(|| panic!("{}: no {key}", vector.name))
}

fn number<T: std::str::FromStr>(vector: &Vector<'_>, key: &str) -> T {
    field(vector, key)
        .parse()
        .unwrap_or_else(|_| panic!("{}: bad {key}", vector.name))
}

fn hex_u64(vector: &Vector<'_>, key: &str) -> u64 {
    u64::from_str_radix(field(vector, key), 16).expect("16 hex digits")
}

fn square(name: &str) -> Square {
    let &[file, rank] = name.as_bytes() else {
        panic!("square {name}")
    };
    Square::new((rank - b'1') * 8 + (file - b'a')).expect("a square")
}

fn piece(letter: &str) -> Piece {
    let mut chars = letter.chars();
    let piece = chars
        .next()
        .and_then(Piece::from_fen)
        .expect("a FEN letter");
    assert_eq!(chars.next(), None, "one letter");
    piece
}

fn hello(vector: &Vector<'_>) -> Hello {
    let id = field(vector, "id");
    let board_id: Vec<u8> = (0..8)
        .map(|i| u8::from_str_radix(&id[2 * i..2 * i + 2], 16).expect("hex id"))
        .collect();
    let version: Vec<u8> = field(vector, "firmware")
        .split('.')
        .map(|part| part.parse().expect("a version number"))
        .collect();
    let &[major, minor, patch] = version.as_slice() else {
        panic!("major.minor.patch")
    };
    let caps = field(vector, "caps");
    let has = |capability| caps.split(',').any(|cap| cap == capability);
    Hello {
        protocol_version: number(vector, "version"),
        board_id: board_id.try_into().expect("8 bytes"),
        firmware: FirmwareVersion {
            major,
            minor,
            patch,
        },
        capabilities: Capabilities {
            piece_identity: has("pieces"),
            leds: has("leds"),
            buttons: has("buttons"),
        },
    }
}

fn snapshot(vector: &Vector<'_>) -> Snapshot {
    let pieces = vector.fields.get("pieces").map(|letters| {
        assert_eq!(letters.len(), 64, "{}: 64 squares", vector.name);
        Square::all()
            .zip(letters.chars())
            .fold(PieceCodes::empty(), |codes, (square, letter)| {
                codes.with(square, Piece::from_fen(letter))
            })
    });
    Snapshot {
        occupancy: hex_u64(vector, "occupancy"),
        pieces,
    }
}

fn change(vector: &Vector<'_>) -> Change {
    Change {
        square: square(field(vector, "square")),
        action: match field(vector, "action") {
            "lifted" => Action::Lifted,
            "placed" => Action::Placed,
            other => panic!("action {other}"),
        },
        piece: vector.fields.get("piece").map(|letter| piece(letter)),
        time_ms: number(vector, "time"),
    }
}

fn button(name: &str) -> Button {
    let names = [
        "clock-white",
        "clock-black",
        "adjust",
        "promote-q",
        "promote-r",
        "promote-b",
        "promote-n",
    ];
    let index = names.iter().position(|n| *n == name).expect("a button");
    Button::ALL[index]
}

fn pattern(name: &str) -> LedPattern {
    match name {
        "off" => LedPattern::Off,
        "on" => LedPattern::On,
        "blink" => LedPattern::Blink,
        other => panic!("pattern {other}"),
    }
}

fn frame(vector: &Vector<'_>) -> Frame {
    let message = match vector.kind {
        "HELLO" => Message::Hello(hello(vector)),
        "SNAPSHOT" => Message::Snapshot(snapshot(vector)),
        "CHANGE" => Message::Change(change(vector)),
        "BUTTON" => Message::Button {
            button: button(field(vector, "button")),
            time_ms: number(vector, "time"),
        },
        "HEARTBEAT" => Message::Heartbeat {
            time_ms: number(vector, "time"),
        },
        "REQUEST_SNAPSHOT" => Message::RequestSnapshot,
        "SET_LEDS" => Message::SetLeds(SetLeds {
            mask: hex_u64(vector, "mask"),
            pattern: pattern(field(vector, "pattern")),
        }),
        "ACK" => Message::Ack {
            seq: number(vector, "ack"),
        },
        other => panic!("{}: frame type {other}", vector.name),
    };
    Frame {
        seq: number(vector, "seq"),
        message,
    }
}

fn reason_name(reason: CorruptReason) -> &'static str {
    match reason {
        CorruptReason::Cobs => "cobs",
        CorruptReason::TooLong => "too-long",
        CorruptReason::TooShort => "too-short",
        CorruptReason::Crc { .. } => "crc",
        CorruptReason::LengthMismatch { .. } => "length-mismatch",
        CorruptReason::UnknownType { .. } => "unknown-type",
        CorruptReason::BadLength { .. } => "bad-length",
        CorruptReason::BadField { .. } => "bad-field",
    }
}

fn decoded(bytes: &[u8]) -> Vec<Decoded> {
    Decoder::new().push(bytes).collect()
}

#[test]
fn frame_vectors_encode_to_their_bytes() {
    for vector in vectors().iter().filter(|v| v.kind != "CORRUPT") {
        let mut out = [0x00; MAX_WIRE];
        let length = encode(&frame(vector), &mut out).expect("fits");
        assert_eq!(out[..length], vector.bytes[..], "{}", vector.name);
    }
}

#[test]
fn frame_vectors_decode_from_their_bytes() {
    for vector in vectors().iter().filter(|v| v.kind != "CORRUPT") {
        let expected = vec![Decoded::Frame(frame(vector))];
        assert_eq!(decoded(&vector.bytes), expected, "{}", vector.name);
    }
}

#[test]
fn corrupt_vectors_decode_to_one_report_with_their_reason() {
    for vector in vectors().iter().filter(|v| v.kind == "CORRUPT") {
        let items = decoded(&vector.bytes);
        let [Decoded::Corrupt(corrupt)] = items.as_slice() else {
            panic!("{}: {items:?}", vector.name)
        };
        assert_eq!(
            reason_name(corrupt.reason),
            field(vector, "reason"),
            "{}",
            vector.name
        );
        assert_eq!(corrupt.dropped, vector.bytes.len() - 1, "{}", vector.name);
    }
}

#[test]
fn an_unknown_type_report_keeps_the_type_and_sequence_number() {
    let vector = vectors()
        .into_iter()
        .find(|v| v.name == "corrupt-unknown-type")
        .expect("the unknown-type vector");
    // 07 | 01 42 02 01 fa f7 | 00: length 1, type 0x42, seq 2.
    assert_eq!(
        decoded(&vector.bytes),
        [Decoded::Corrupt(Corrupt {
            reason: CorruptReason::UnknownType {
                frame_type: 0x42,
                seq: 2
            },
            dropped: vector.bytes.len() - 1,
        })]
    );
}

#[test]
fn every_frame_type_and_reason_has_a_vector() {
    let kinds: std::collections::BTreeSet<&str> = vectors().iter().map(|v| v.kind).collect();
    let expected = [
        "ACK",
        "BUTTON",
        "CHANGE",
        "CORRUPT",
        "HEARTBEAT",
        "HELLO",
        "REQUEST_SNAPSHOT",
        "SET_LEDS",
        "SNAPSHOT",
    ];
    assert_eq!(kinds.into_iter().collect::<Vec<_>>(), expected);
    let reasons: std::collections::BTreeSet<&str> = vectors()
        .iter()
        .filter(|v| v.kind == "CORRUPT")
        .map(|v| field(v, "reason"))
        .collect();
    assert_eq!(reasons.len(), 8, "{reasons:?}");
    let buttons = vectors().iter().filter(|v| v.kind == "BUTTON").count();
    assert_eq!(buttons, Button::ALL.len());
}
