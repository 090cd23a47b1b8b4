//! Strategies for frames, shared by the property tests.

use proptest::prelude::*;
use touchmove_firmware_protocol::{
    Action, Button, Capabilities, Change, FirmwareVersion, Frame, Hello, LedPattern, Message,
    Piece, PieceCodes, SetLeds, Snapshot, Square,
};

/// Any square.
pub fn square() -> impl Strategy<Value = Square> {
    (0u8..64).prop_filter_map("a square", Square::new)
}

/// Any piece, or none.
pub fn piece() -> impl Strategy<Value = Option<Piece>> {
    (0u8..16).prop_filter_map("a piece code", |code| Piece::from_code(code).ok())
}

/// A snapshot whose piece codes (if any) sit on occupied squares only.
pub fn snapshot() -> impl Strategy<Value = Snapshot> {
    let pieces = proptest::collection::vec(piece(), 64);
    (any::<u64>(), proptest::option::of(pieces)).prop_map(|(occupancy, pieces)| {
        let pieces = pieces.map(|pieces| {
            Square::all()
                .zip(pieces)
                .filter(|(square, _)| occupancy & square.bit() != 0)
                .fold(PieceCodes::empty(), |codes, (square, piece)| {
                    codes.with(square, piece)
                })
        });
        Snapshot { occupancy, pieces }
    })
}

/// Any HELLO.
pub fn hello() -> impl Strategy<Value = Hello> {
    (any::<u8>(), any::<[u8; 8]>(), any::<[u8; 3]>(), 0u8..8).prop_map(
        |(protocol_version, board_id, [major, minor, patch], capabilities)| Hello {
            protocol_version,
            board_id,
            firmware: FirmwareVersion {
                major,
                minor,
                patch,
            },
            capabilities: Capabilities::from_bits(capabilities),
        },
    )
}

/// Any CHANGE.
pub fn change() -> impl Strategy<Value = Change> {
    (square(), any::<bool>(), piece(), any::<u32>()).prop_map(|(square, placed, piece, time_ms)| {
        let action = if placed {
            Action::Placed
        } else {
            Action::Lifted
        };
        Change {
            square,
            action,
            piece,
            time_ms,
        }
    })
}

/// Any LED pattern.
pub fn pattern() -> impl Strategy<Value = LedPattern> {
    prop_oneof![
        Just(LedPattern::Off),
        Just(LedPattern::On),
        Just(LedPattern::Blink)
    ]
}

/// Any message of either direction.
pub fn message() -> impl Strategy<Value = Message> {
    prop_oneof![
        hello().prop_map(Message::Hello),
        snapshot().prop_map(Message::Snapshot),
        change().prop_map(Message::Change),
        (proptest::sample::select(Button::ALL.to_vec()), any::<u32>())
            .prop_map(|(button, time_ms)| Message::Button { button, time_ms }),
        any::<u32>().prop_map(|time_ms| Message::Heartbeat { time_ms }),
        Just(Message::RequestSnapshot),
        (any::<u64>(), pattern())
            .prop_map(|(mask, pattern)| Message::SetLeds(SetLeds { mask, pattern })),
        any::<u8>().prop_map(|seq| Message::Ack { seq }),
    ]
}

/// Any frame.
pub fn frame() -> impl Strategy<Value = Frame> {
    (any::<u8>(), message()).prop_map(|(seq, message)| Frame { seq, message })
}
