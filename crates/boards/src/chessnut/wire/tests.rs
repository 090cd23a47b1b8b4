//! The frames against vectors worked out by hand from the public descriptions: a report of the
//! start position as a Chessnut Air sent it (egdels/moveapiece's hardware capture, 2026-09-26),
//! each byte checked square by square below.

use super::*;

/// The start position as a Chessnut Air reported it, its uptime 0x01cb s.
const START_REPORT: [u8; 38] = [
    0x01, 0x24, // a report, 36 bytes
    0x58, 0x23, 0x31, 0x85, // h8 r g8 n, f8 b e8 k, d8 q c8 b, b8 n a8 r
    0x44, 0x44, 0x44, 0x44, // the black pawns
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // ranks 6 to 3
    0x77, 0x77, 0x77, 0x77, // the white pawns
    0xa6, 0xc9, 0x9b, 0x6a, // h1 R g1 N, f1 B e1 K, d1 Q c1 B, b1 N a1 R
    0xcb, 0x01, 0x00, 0x00, // 459 s since it was switched on
];

fn decoded(bytes: &[u8]) -> Vec<Decoded<BoardMessage>> {
    let mut decoder = MessageDecoder::new();
    decoder.push(bytes);
    std::iter::from_fn(|| decoder.poll()).collect()
}

#[test]
fn the_captured_start_report_is_the_start_position() {
    assert_eq!(
        decoded(&START_REPORT),
        [Ok(BoardMessage::Report {
            board: Board::default(),
            uptime: 459,
        })]
    );
}

#[test]
fn the_start_position_encodes_as_the_board_sent_it() {
    let message = BoardMessage::Report {
        board: Board::default(),
        uptime: 459,
    };
    assert_eq!(encode_message(&message), START_REPORT);
}

#[test]
fn nibbles_run_from_h8_along_each_rank_to_a1() {
    assert_eq!(nibble_of(Square::H8), 0);
    assert_eq!(nibble_of(Square::A8), 7);
    assert_eq!(nibble_of(Square::H7), 8);
    assert_eq!(nibble_of(Square::E2), 51);
    assert_eq!(nibble_of(Square::E4), 35);
    assert_eq!(nibble_of(Square::A1), 63);
    for square in Square::ALL {
        assert_eq!(square_of(nibble_of(square)), Some(square));
    }
    assert_eq!(square_of(64), None);
}

#[test]
fn e2_e4_as_the_board_reports_it_changes_nibbles_51_then_35() {
    // The capture's move: e2 empty (nibble 51: byte 25's high nibble), then a white pawn (7)
    // on e4 (nibble 35: byte 17's high nibble).
    let mut lifted = START_REPORT;
    if let Some(byte) = lifted.get_mut(2 + 25) {
        *byte = 0x07;
    }
    let mut board = Board::default();
    board.discard_piece_at(Square::E2);
    assert_eq!(
        decoded(&lifted),
        [Ok(BoardMessage::Report {
            board: board.clone(),
            uptime: 459
        })]
    );
    let mut placed = lifted;
    if let Some(byte) = placed.get_mut(2 + 17) {
        *byte = 0x70;
    }
    board.set_piece_at(
        Square::E4,
        Piece {
            color: Color::White,
            role: Role::Pawn,
        },
    );
    assert_eq!(
        decoded(&placed),
        [Ok(BoardMessage::Report { board, uptime: 459 })]
    );
}

#[test]
fn the_commands_are_as_described() {
    assert_eq!(
        encode_command(&HostCommand::StartReports),
        [0x21, 0x01, 0x00]
    );
    assert_eq!(encode_command(&HostCommand::AskBattery), [0x29, 0x01, 0x00]);
    // `0a 08 01 00 …` lit h8 on the captured board.
    assert_eq!(
        encode_command(&HostCommand::Leds(Bitboard::from_square(Square::H8))),
        [0x0a, 0x08, 0x01, 0, 0, 0, 0, 0, 0, 0]
    );
    // a1 is nibble 63: byte 7, bit 7.
    assert_eq!(
        encode_command(&HostCommand::Leds(Bitboard::from_square(Square::A1))),
        [0x0a, 0x08, 0, 0, 0, 0, 0, 0, 0, 0x80]
    );
    // 2000 Hz for 500 ms, big-endian: `0b 04 07 d0 01 f4` (the capture's).
    assert_eq!(
        encode_command(&HostCommand::Beep { hz: 2000, ms: 500 }),
        [0x0b, 0x04, 0x07, 0xd0, 0x01, 0xf4]
    );
}

#[test]
fn every_command_decodes_to_itself() {
    let commands = [
        HostCommand::StartReports,
        HostCommand::AskBattery,
        HostCommand::Leds(Bitboard::from_square(Square::E2) | Bitboard::from_square(Square::E4)),
        HostCommand::Beep { hz: 400, ms: 500 },
    ];
    let mut decoder = CommandDecoder::new();
    for command in &commands {
        decoder.push(&encode_command(command));
    }
    let back: Vec<Decoded<HostCommand>> = std::iter::from_fn(|| decoder.poll()).collect();
    let expected: Vec<Decoded<HostCommand>> = commands.iter().cloned().map(Ok).collect();
    assert_eq!(back, expected);
}

#[test]
fn the_battery_says_its_level_and_whether_it_charges() {
    // `2a 02 64 00`: 100 %, the capture's; bit 7 is charging, as the vendor's README says.
    assert_eq!(
        decoded(&[0x2a, 0x02, 0x64, 0x00]),
        [Ok(BoardMessage::Battery {
            percent: 100,
            charging: false
        })]
    );
    assert_eq!(
        decoded(&[0x2a, 0x02, 0x80 | 42, 0x00]),
        [Ok(BoardMessage::Battery {
            percent: 42,
            charging: true
        })]
    );
}

#[test]
fn a_frame_split_across_notifications_is_whole_once_its_last_byte_comes() {
    let mut decoder = MessageDecoder::new();
    let (first, rest) = START_REPORT.split_at(20);
    decoder.push(first);
    assert_eq!(decoder.poll(), None);
    assert!(decoder.pending());
    decoder.push(rest);
    assert!(matches!(
        decoder.poll(),
        Some(Ok(BoardMessage::Report { .. }))
    ));
    assert!(!decoder.pending());
}

#[test]
fn garbage_before_a_frame_is_dropped_byte_by_byte_and_the_frame_found() {
    // 0x01 0x99: a report cannot be 0x99 bytes long; 0x99 0xff and 0xff 0x23: no frame of a
    // kind this host does not know is that long.
    let mut bytes = vec![0x01, 0x99, 0xff];
    bytes.extend_from_slice(&[0x23, 0x01, 0x00]);
    let found = decoded(&bytes);
    assert!(matches!(found.first(), Some(Err(Corrupt { dropped, .. })) if dropped == &[0x01]));
    assert!(matches!(found.get(1), Some(Err(Corrupt { dropped, .. })) if dropped == &[0x99]));
    assert!(matches!(found.get(2), Some(Err(Corrupt { dropped, .. })) if dropped == &[0xff]));
    assert_eq!(found.get(3), Some(&Ok(BoardMessage::Ack)));
    assert_eq!(found.len(), 4);
}

#[test]
fn a_report_with_a_code_no_piece_has_is_corrupt_and_says_where() {
    let mut bytes = START_REPORT;
    if let Some(byte) = bytes.get_mut(2 + 12) {
        *byte = 0x0d; // h5: code 0xd
    }
    assert!(matches!(
        decoded(&bytes).as_slice(),
        [Err(Corrupt { why, .. })] if why.contains("0xd on h5")
    ));
}

#[test]
fn a_frame_of_a_kind_this_host_does_not_use_is_passed_on_whole() {
    assert_eq!(
        decoded(&[0x0f, 0x01, 0x02, 0x41, 0x02, 0x0c, 0x00]),
        [
            Ok(BoardMessage::Button(BUTTON_NEW_GAME)),
            Ok(BoardMessage::Other(vec![0x41, 0x02, 0x0c, 0x00])),
        ]
    );
}

// A Chessnut Move's commands, against vectors worked out by hand from the vendor's description
// (chessnutech/chess_move_api): the position's nibbles from h8, the low nibble first.

#[test]
fn a_position_for_the_robot_is_35_bytes_its_flag_last() {
    // A black queen on h8 (code 1, the low nibble of the first byte) and a black king on g8
    // (code 2, its high nibble): the first position byte is 0x21, every other 0.
    let mut board = Board::empty();
    board.set_piece_at(Square::H8, Color::Black.queen());
    board.set_piece_at(Square::G8, Color::Black.king());
    let bytes = encode_command(&HostCommand::RobotSet {
        board,
        yield_to_hands: true,
    });
    let mut expected = vec![0x42, 0x21, 0x21];
    expected.extend([0u8; 31]);
    expected.push(0x01);
    assert_eq!(bytes, expected);
    let forced = encode_command(&HostCommand::RobotSet {
        board: Board::empty(),
        yield_to_hands: false,
    });
    assert_eq!(forced.len(), 35);
    assert_eq!(
        forced.last(),
        Some(&0x00),
        "0: the robot goes on regardless"
    );
}

#[test]
fn the_robot_s_position_reads_back_as_sent() {
    let sent = HostCommand::RobotSet {
        board: Board::default(),
        yield_to_hands: true,
    };
    let mut decoder = CommandDecoder::new();
    decoder.push(&encode_command(&sent));
    assert_eq!(decoder.poll(), Some(Ok(sent)));
}

#[test]
fn coloured_leds_are_a_nibble_a_square() {
    // h8 and g8 lit share the first byte (0x22: green twice); a1 is nibble 63, the high
    // nibble of the last byte (0x20).
    let squares = Bitboard::from_square(Square::H8)
        | Bitboard::from_square(Square::G8)
        | Bitboard::from_square(Square::A1);
    let bytes = encode_command(&HostCommand::ColourLeds(squares));
    let mut expected = vec![0x43, 0x20, 0x22];
    expected.extend([0u8; 30]);
    expected.push(0x20);
    assert_eq!(bytes, expected);
    assert_eq!(
        decode_colours(expected.get(2..).unwrap_or_default()),
        squares
    );
}

#[test]
fn the_move_s_battery_is_asked_and_answered_as_the_vendor_says() {
    assert_eq!(
        encode_command(&HostCommand::AskRobotBattery),
        [0x41, 0x01, 0x0c]
    );
    // Not charging, 64 %; charging, 74 %.
    assert_eq!(
        decoded(&[0x41, 0x03, 0x0c, 0x00, 64, 0x41, 0x03, 0x0c, 0x01, 74]),
        [
            Ok(BoardMessage::RobotBattery {
                percent: 64,
                charging: false
            }),
            Ok(BoardMessage::RobotBattery {
                percent: 74,
                charging: true
            }),
        ]
    );
}
