//! The Hall-sensor session, with frames built by the protocol crate's `encode` and, for the
//! test vectors, written out in hex.

use shakmaty::{Bitboard, Board, Color, Role, Square};
use touchmove_firmware_protocol::{
    self as protocol, Action, Button, Capabilities, Change, Decoded, Decoder, FirmwareVersion,
    Frame, Hello, LedPattern, MAX_WIRE, Message, PieceCodes, SetLeds, Snapshot,
};

use super::{HallSession, SILENCE_MS, SNAPSHOT_RETRY_MS};
use crate::live::{BoardSession, Feedback, LinkEvent, ResumePoint};
use touchmove_core::sensor::{BoardSnapshot, SensorKind};

/// The wire bytes of `message` numbered `seq`.
fn wire(seq: u8, message: Message) -> Vec<u8> {
    let mut buffer = [0x00; MAX_WIRE];
    let length = protocol::encode(&Frame { seq, message }, &mut buffer).expect("MAX_WIRE fits");
    buffer[..length].to_vec()
}

/// Bytes from a hex string with spaces.
fn hex(text: &str) -> Vec<u8> {
    text.split_whitespace()
        .map(|byte| u8::from_str_radix(byte, 16).expect("hex"))
        .collect()
}

/// The messages the session queued for the board, decoded.
fn sent(session: &mut HallSession) -> Vec<Message> {
    let bytes: Vec<u8> = std::iter::from_fn(|| session.poll_transmit())
        .flatten()
        .collect();
    let mut decoder = Decoder::new();
    decoder
        .push(&bytes)
        .map(|decoded| match decoded {
            Decoded::Frame(frame) => frame.message,
            Decoded::Corrupt(corrupt) => panic!("the session sent a corrupt frame: {corrupt:?}"),
        })
        .collect()
}

/// The events the session reported.
fn events(session: &mut HallSession) -> Vec<LinkEvent> {
    std::iter::from_fn(|| session.poll_event()).collect()
}

fn hello(capabilities: Capabilities) -> Message {
    Message::Hello(Hello {
        protocol_version: protocol::PROTOCOL_VERSION,
        board_id: [0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef],
        firmware: FirmwareVersion {
            major: 1,
            minor: 4,
            patch: 2,
        },
        capabilities,
    })
}

fn start_occupancy() -> Message {
    Message::Snapshot(Snapshot {
        occupancy: 0xffff_0000_0000_ffff,
        pieces: None,
    })
}

fn change(index: u8, action: Action, piece: Option<protocol::Piece>) -> Message {
    Message::Change(Change {
        square: protocol::Square::new(index).expect("a square"),
        action,
        piece,
        time_ms: 1000,
    })
}

/// A session that connected at 0 and heard HELLO and the start position's SNAPSHOT (seq 0, 1);
/// everything it said so far has been taken.
fn started(capabilities: Capabilities) -> HallSession {
    let mut session = HallSession::new();
    session.connect(0);
    session.handle_bytes(10, &wire(0, hello(capabilities)));
    session.handle_bytes(20, &wire(1, start_occupancy()));
    sent(&mut session);
    events(&mut session);
    session
}

fn lift(square: Square) -> LinkEvent {
    LinkEvent::Sensor(SensorKind::Lift {
        square,
        piece: None,
    })
}

fn place(square: Square) -> LinkEvent {
    LinkEvent::Sensor(SensorKind::Place {
        square,
        piece: None,
    })
}

#[test]
fn connecting_asks_for_a_snapshot() {
    let mut session = HallSession::new();
    session.connect(0);
    // REQUEST_SNAPSHOT, seq 0: raw 00 81 00 + CRC, COBS-stuffed (vector request-snapshot).
    let bytes = session.poll_transmit().expect("a request");
    assert_eq!(bytes, hex("01 02 81 03 35 e4 00"));
    assert_eq!(
        bytes.first(),
        Some(&0x01),
        "the raw frame starts with len 0x00"
    );
    assert_eq!(bytes.last(), Some(&0x00));
}

#[test]
fn the_test_vectors_in_hex_make_hello_snapshot_and_a_move() {
    let mut session = HallSession::new();
    session.connect(0);
    sent(&mut session);
    // hello-occupancy-only, snapshot-start-occupancy, change-e2-lifted, change-e4-placed.
    let stream = hex(concat!(
        "03 0d 01 02 01 0b 11 22 33 44 55 66 77 01 02 03 03 f2 84 00 ",
        "06 08 02 01 ff ff 01 01 01 05 ff ff 19 6f 00 ",
        "05 07 03 02 0c 01 03 d2 04 01 03 e1 94 00 ",
        "06 07 03 03 1c 01 03 72 06 01 03 ff 25 00",
    ));
    session.handle_bytes(5, &stream);
    let start = BoardSnapshot::occupancy(Bitboard(0xffff_0000_0000_ffff));
    assert_eq!(
        events(&mut session),
        [
            LinkEvent::Identified {
                what:
                    "Hall-sensor board 0011223344556677, firmware 1.2.3, protocol 1: occupancy only"
                        .to_owned(),
                serial: Some("0011223344556677".to_owned()),
            },
            LinkEvent::Sensor(SensorKind::Snapshot(Box::new(start))),
            lift(Square::E2),
            place(Square::E4),
        ]
    );
    // HELLO is acknowledged and the state asked for; then each report is acknowledged.
    assert_eq!(
        sent(&mut session),
        [
            Message::Ack { seq: 0 },
            Message::RequestSnapshot,
            Message::Ack { seq: 1 },
            Message::Ack { seq: 2 },
            Message::Ack { seq: 3 },
        ]
    );
}

#[test]
fn the_host_numbers_its_frames() {
    let mut session = HallSession::new();
    session.connect(0);
    session.handle_bytes(10, &wire(0, hello(Capabilities::default())));
    let bytes: Vec<u8> = std::iter::from_fn(|| session.poll_transmit())
        .flatten()
        .collect();
    let seqs: Vec<u8> = Decoder::new()
        .push(&bytes)
        .filter_map(|decoded| match decoded {
            Decoded::Frame(frame) => Some(frame.seq),
            Decoded::Corrupt(_) => None,
        })
        .collect();
    // REQUEST_SNAPSHOT and SET_LEDS (all off) on connecting, ACK and REQUEST_SNAPSHOT for the
    // HELLO.
    assert_eq!(seqs, [0, 1, 2, 3]);
}

#[test]
fn connecting_turns_off_what_an_earlier_host_lit_and_lights_again_what_this_one_shows() {
    let mut session = HallSession::new();
    session.connect(0);
    assert_eq!(
        sent(&mut session),
        [Message::RequestSnapshot, leds(u64::MAX, LedPattern::Off)]
    );
    session.handle_feedback(100, &e4());
    sent(&mut session);
    // The link lost and opened again.
    session.connect(5000);
    assert_eq!(
        sent(&mut session),
        [
            Message::RequestSnapshot,
            leds(u64::MAX, LedPattern::Off),
            leds(1 << 12 | 1 << 28, LedPattern::On),
        ]
    );
}

#[test]
fn bytes_split_anywhere_give_the_same_events() {
    let stream: Vec<u8> = [
        wire(0, hello(Capabilities::default())),
        wire(1, start_occupancy()),
        wire(2, change(12, Action::Lifted, None)),
    ]
    .concat();
    let mut whole = HallSession::new();
    whole.connect(0);
    whole.handle_bytes(1, &stream);
    let mut bytewise = HallSession::new();
    bytewise.connect(0);
    for byte in &stream {
        bytewise.handle_bytes(1, std::slice::from_ref(byte));
    }
    let expected = events(&mut whole);
    assert_eq!(expected.len(), 3);
    assert_eq!(events(&mut bytewise), expected);
}

#[test]
fn a_board_that_identifies_pieces_reports_them() {
    let mut session = started(Capabilities {
        piece_identity: true,
        ..Capabilities::default()
    });
    let board = Board::new();
    let codes = Square::ALL.iter().fold(PieceCodes::empty(), |codes, &sq| {
        let piece = board
            .piece_at(sq)
            .and_then(|p| protocol::Piece::from_fen(p.char()));
        codes.with(protocol::Square::new(sq as u8).expect("a square"), piece)
    });
    let snapshot = Message::Snapshot(Snapshot {
        occupancy: board.occupied().0,
        pieces: Some(codes),
    });
    let knight = protocol::Piece::from_fen('N');
    session.handle_bytes(30, &wire(2, snapshot));
    session.handle_bytes(40, &wire(3, change(6, Action::Lifted, knight)));
    assert_eq!(
        events(&mut session),
        [
            LinkEvent::Sensor(SensorKind::Snapshot(Box::new(BoardSnapshot::identified(
                &board
            )))),
            LinkEvent::Sensor(SensorKind::Lift {
                square: Square::G1,
                piece: Some(Color::White.knight()),
            }),
        ]
    );
}

#[test]
fn every_piece_code_names_the_same_piece_in_shakmaty() {
    // The specification's table: 0x1–0x6 white pawn, knight, bishop, rook, queen, king; 0x9–0xe
    // the same in black.
    let roles = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];
    for (offset, role) in (0x1..).zip(roles) {
        for (color, code) in [(Color::White, offset), (Color::Black, offset | 0x8)] {
            let found = protocol::Piece::from_code(code)
                .expect("a valid code")
                .expect("a piece");
            assert_eq!(super::piece(found), Some(role.of(color)), "code {code:#x}");
        }
    }
}

#[test]
fn an_occupied_square_without_a_code_is_unidentified() {
    let mut session = started(Capabilities::default());
    // snapshot-unidentified-square: a king on a1, something on e1.
    session.handle_bytes(
        30,
        &hex(concat!(
            "05 28 02 02 11 01 01 01 01 01 01 02 06 01 01 01 01 01 01 01 01 01 01 01 01 01 01 ",
            "01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 03 32 45 00"
        )),
    );
    let mut pieces = Board::empty();
    pieces.set_piece_at(Square::A1, Color::White.king());
    let expected = BoardSnapshot {
        occupied: Bitboard::from(Square::A1) | Bitboard::from(Square::E1),
        pieces,
    };
    assert_eq!(
        events(&mut session),
        [LinkEvent::Sensor(SensorKind::Snapshot(Box::new(expected)))]
    );
}

#[test]
fn buttons_are_clock_presses_adjustments_and_promotion_choices() {
    let mut session = started(Capabilities::default());
    let presses = [
        (Button::ClockWhite, SensorKind::Clock(Color::White)),
        (Button::ClockBlack, SensorKind::Clock(Color::Black)),
        (Button::Adjust, SensorKind::Adjust),
        (Button::PromoteQueen, SensorKind::Promote(Role::Queen)),
        (Button::PromoteRook, SensorKind::Promote(Role::Rook)),
        (Button::PromoteBishop, SensorKind::Promote(Role::Bishop)),
        (Button::PromoteKnight, SensorKind::Promote(Role::Knight)),
    ];
    for (seq, (button, _)) in (2u8..).zip(presses.iter()) {
        let press = Message::Button {
            button: *button,
            time_ms: 5,
        };
        session.handle_bytes(30, &wire(seq, press));
    }
    let expected: Vec<LinkEvent> = presses
        .into_iter()
        .map(|(_, kind)| LinkEvent::Sensor(kind))
        .collect();
    assert_eq!(events(&mut session), expected);
}

/// The occupancy after 1. e4 and the snapshot that reports it.
fn snapshot_after_e4() -> (u64, Message) {
    let after = 0xffff_0000_1000_efff_u64;
    let snapshot = Message::Snapshot(Snapshot {
        occupancy: after,
        pieces: None,
    });
    (after, snapshot)
}

#[test]
fn a_sequence_gap_asks_for_a_snapshot_and_trusts_it() {
    let mut session = started(Capabilities::default());
    // seq 2 (the lift from e2) is lost; seq 3 places on e4.
    session.handle_bytes(30, &wire(3, change(28, Action::Placed, None)));
    assert_eq!(
        sent(&mut session),
        [Message::RequestSnapshot, Message::Ack { seq: 3 }]
    );
    assert_eq!(
        events(&mut session),
        [],
        "the change after a gap waits for the truth"
    );
    let (after, snapshot) = snapshot_after_e4();
    session.handle_bytes(40, &wire(4, snapshot));
    session.handle_bytes(50, &wire(5, change(52, Action::Lifted, None)));
    assert_eq!(
        events(&mut session),
        [
            LinkEvent::Sensor(SensorKind::Snapshot(Box::new(BoardSnapshot::occupancy(
                Bitboard(after)
            )))),
            lift(Square::E7),
        ]
    );
    assert_eq!(
        sent(&mut session),
        [Message::Ack { seq: 4 }, Message::Ack { seq: 5 }]
    );
}

#[test]
fn a_press_while_the_snapshot_is_awaited_comes_after_it() {
    let mut session = started(Capabilities::default());
    // seq 2 (the lift from e2) is lost; seq 3 places on e4; White presses (seq 4) before the
    // snapshot the gap asked for arrives (seq 5).
    session.handle_bytes(30, &wire(3, change(28, Action::Placed, None)));
    let press = Message::Button {
        button: Button::ClockWhite,
        time_ms: 5,
    };
    session.handle_bytes(35, &wire(4, press));
    assert_eq!(
        events(&mut session),
        [],
        "the press waits for the board's state"
    );
    let (after, snapshot) = snapshot_after_e4();
    session.handle_bytes(40, &wire(5, snapshot));
    assert_eq!(
        events(&mut session),
        [
            LinkEvent::Sensor(SensorKind::Snapshot(Box::new(BoardSnapshot::occupancy(
                Bitboard(after)
            )))),
            LinkEvent::Sensor(SensorKind::Clock(Color::White)),
        ]
    );
}

#[test]
fn sequence_numbers_wrap_without_a_gap() {
    let mut session = HallSession::new();
    session.connect(0);
    session.handle_bytes(1, &wire(0xfe, start_occupancy()));
    session.handle_bytes(2, &wire(0xff, Message::Heartbeat { time_ms: 1 }));
    session.handle_bytes(3, &wire(0x00, change(12, Action::Lifted, None)));
    assert_eq!(sent(&mut session).last(), Some(&Message::Ack { seq: 0x00 }));
    assert_eq!(events(&mut session).last(), Some(&lift(Square::E2)));
}

#[test]
fn a_corrupt_frame_asks_for_a_snapshot() {
    let mut session = started(Capabilities::default());
    // change-e2-lifted with the CRC's last byte flipped.
    session.handle_bytes(30, &hex("05 07 03 02 0c 01 03 d2 04 01 03 e1 95 00"));
    assert_eq!(sent(&mut session), [Message::RequestSnapshot]);
    assert_eq!(events(&mut session), []);
}

#[test]
fn an_unanswered_request_is_repeated() {
    let mut session = HallSession::new();
    session.connect(0);
    sent(&mut session);
    assert_eq!(session.poll_timeout(), Some(SNAPSHOT_RETRY_MS));
    session.handle_bytes(500, &wire(7, Message::Heartbeat { time_ms: 1 }));
    session.handle_timeout(SNAPSHOT_RETRY_MS);
    assert_eq!(sent(&mut session), [Message::RequestSnapshot]);
    session.handle_bytes(1200, &wire(8, start_occupancy()));
    assert_eq!(session.poll_timeout(), Some(1200 + SILENCE_MS));
}

/// The wire bytes of an intact frame of the unknown type 0x06, numbered `seq` (not 0), with no
/// payload: raw `00 06 seq` + CRC, stuffed by hand.
fn unknown_type(seq: u8) -> Vec<u8> {
    let raw = [0x00, 0x06, seq];
    let crc = protocol::crc16(&raw).to_le_bytes();
    let mut stuffed = vec![0x01, 0x05, 0x06, seq];
    stuffed.extend_from_slice(&crc);
    stuffed.push(0x00);
    assert!(
        seq != 0x00 && !crc.contains(&0x00),
        "the hand-stuffed frame assumes no zero in the sequence number and the CRC"
    );
    stuffed
}

#[test]
fn an_unknown_frame_type_counts_for_the_sequence() {
    let mut session = started(Capabilities::default());
    session.handle_bytes(30, &unknown_type(2));
    session.handle_bytes(40, &wire(3, change(12, Action::Lifted, None)));
    assert_eq!(sent(&mut session), [Message::Ack { seq: 3 }]);
    assert_eq!(events(&mut session), [lift(Square::E2)]);
}

#[test]
fn an_unknown_frame_type_after_a_gap_asks_for_a_snapshot_and_sets_the_count() {
    let mut session = started(Capabilities::default());
    // Frames 2–4 were lost; the unknown frame's own number shows it.
    session.handle_bytes(30, &unknown_type(5));
    assert_eq!(sent(&mut session), [Message::RequestSnapshot]);
    session.handle_bytes(40, &wire(6, start_occupancy()));
    session.handle_bytes(50, &wire(7, change(12, Action::Lifted, None)));
    assert_eq!(
        sent(&mut session),
        [Message::Ack { seq: 6 }, Message::Ack { seq: 7 }],
        "no further gap: the count follows the unknown frame's number"
    );
    assert_eq!(
        events(&mut session),
        [
            LinkEvent::Sensor(SensorKind::Snapshot(Box::new(BoardSnapshot::occupancy(
                Bitboard(0xffff_0000_0000_ffff)
            )))),
            lift(Square::E2),
        ]
    );
}

#[test]
fn silence_is_reported_once_and_the_board_heard_again_is_asked_for_its_state() {
    let mut session = started(Capabilities::default());
    assert_eq!(session.poll_timeout(), Some(20 + SILENCE_MS));
    session.handle_bytes(1000, &wire(2, Message::Heartbeat { time_ms: 1 }));
    session.handle_timeout(20 + SILENCE_MS);
    assert_eq!(events(&mut session), [], "the heartbeat kept it alive");
    session.handle_timeout(1000 + SILENCE_MS);
    assert_eq!(events(&mut session), [LinkEvent::Gone]);
    session.handle_timeout(9000);
    assert_eq!(events(&mut session), [], "once per silence");
    assert_eq!(session.poll_timeout(), None);
    session.handle_bytes(9500, &wire(3, Message::Heartbeat { time_ms: 2 }));
    assert_eq!(sent(&mut session), [Message::RequestSnapshot]);
}

#[test]
fn a_board_heard_again_in_a_frame_of_an_unknown_type_is_asked_for_its_state() {
    let mut session = started(Capabilities::default());
    session.handle_timeout(20 + SILENCE_MS);
    assert_eq!(events(&mut session), [LinkEvent::Gone]);
    session.handle_bytes(9500, &unknown_type(2));
    assert_eq!(sent(&mut session), [Message::RequestSnapshot]);
}

#[test]
fn a_board_speaking_another_version_is_not_read() {
    let mut session = HallSession::new();
    session.connect(0);
    sent(&mut session);
    let Message::Hello(mut newer) = hello(Capabilities::default()) else {
        unreachable!("hello() is a HELLO")
    };
    newer.protocol_version = 0x02;
    session.handle_bytes(10, &wire(0, Message::Hello(newer)));
    session.handle_bytes(20, &wire(1, start_occupancy()));
    let events = events(&mut session);
    assert!(
        matches!(events.as_slice(), [LinkEvent::Identified { .. }, LinkEvent::Notice(text)]
        if text.contains("version 2")),
        "{events:?}"
    );
    assert_eq!(sent(&mut session), [Message::Ack { seq: 0 }]);
}

/// White's e2-e4 was decided.
fn e4() -> Feedback {
    Feedback::Moved {
        by: Color::White,
        from: Square::E2,
        to: Square::E4,
    }
}

fn leds(mask: u64, pattern: LedPattern) -> Message {
    Message::SetLeds(SetLeds { mask, pattern })
}

#[test]
fn a_board_with_leds_shows_moves_and_mismatches() {
    let mut session = started(Capabilities {
        leds: true,
        ..Capabilities::default()
    });
    let (e2, e4_bit, d2) = (1u64 << 12, 1u64 << 28, 1u64 << 11);
    session.handle_feedback(100, &e4());
    assert_eq!(sent(&mut session), [leds(e2 | e4_bit, LedPattern::On)]);
    let mismatch = Feedback::Mismatch {
        squares: vec![Square::D2, Square::E4],
    };
    session.handle_feedback(200, &mismatch);
    assert_eq!(sent(&mut session), [leds(d2 | e4_bit, LedPattern::Blink)]);
    session.handle_feedback(300, &Feedback::Resynced);
    assert_eq!(
        sent(&mut session),
        [leds(d2, LedPattern::Off), leds(e4_bit, LedPattern::On)]
    );
}

#[test]
fn a_board_without_leds_is_sent_none() {
    let mut session = started(Capabilities::default());
    session.handle_feedback(100, &e4());
    session.handle_feedback(
        200,
        &Feedback::Mismatch {
            squares: vec![Square::D2],
        },
    );
    assert_eq!(sent(&mut session), []);
}

#[test]
fn a_board_already_on_when_the_host_started_is_shown_moves_before_any_hello() {
    // No HELLO: the board was on before the host (a restarted host, a resumed game).
    let mut session = HallSession::new();
    session.connect(0);
    session.handle_bytes(10, &wire(7, start_occupancy()));
    sent(&mut session);
    session.handle_feedback(100, &e4());
    assert_eq!(
        sent(&mut session),
        [leds(1 << 12 | 1 << 28, LedPattern::On)]
    );
}

#[test]
fn a_board_that_resets_is_shown_again_what_its_leds_showed() {
    let capabilities = Capabilities {
        leds: true,
        ..Capabilities::default()
    };
    let mut session = started(capabilities);
    session.handle_feedback(100, &e4());
    let mismatch = Feedback::Mismatch {
        squares: vec![Square::D2],
    };
    session.handle_feedback(200, &mismatch);
    sent(&mut session);
    // Unplugged and plugged in: HELLO again, its LEDs dark.
    session.handle_bytes(300, &wire(0, hello(capabilities)));
    let (e2, e4_bit, d2) = (1u64 << 12, 1u64 << 28, 1u64 << 11);
    assert_eq!(
        sent(&mut session),
        [
            Message::Ack { seq: 0 },
            Message::RequestSnapshot,
            leds(e2 | e4_bit, LedPattern::On),
            leds(d2, LedPattern::Blink),
        ]
    );
}

#[test]
fn a_resumed_game_s_last_move_is_lit_once_the_link_opens() {
    let mut session = HallSession::new();
    session.resume(&ResumePoint {
        to_move: Color::Black,
        pressed: false,
        clock: None,
        last_move: Some((Square::E2, Square::E4)),
    });
    assert_eq!(sent(&mut session), [], "nothing before the link opens");
    session.connect(0);
    assert_eq!(
        sent(&mut session),
        [
            Message::RequestSnapshot,
            leds(u64::MAX, LedPattern::Off),
            leds(1 << 12 | 1 << 28, LedPattern::On),
        ]
    );
}
