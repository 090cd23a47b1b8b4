//! The session against frames made as the board sends them.

use shakmaty::{Bitboard, Board, Color, Square};

use super::*;
use crate::certabo::calibration::FRAMES_TO_LEARN;
use crate::certabo::wire::{encode_reading, index_of, square_at};

/// Each square's piece's chip, made from the square it starts on.
fn chip_of(square: Square) -> Chip {
    let n = u8::try_from(square as usize).unwrap_or(0);
    Chip([n.wrapping_add(1), 77, n, 3, 150])
}

/// A frame of `board`, each piece with the chip of `home` (where it stood at the start).
fn frame(board: &Board, home: impl Fn(Square) -> Square) -> Vec<u8> {
    let mut chips = [Chip::NONE; 64];
    for (index, chip) in chips.iter_mut().enumerate() {
        if let Some(square) = square_at(index).filter(|s| board.piece_at(*s).is_some()) {
            *chip = chip_of(home(square));
        }
    }
    encode_reading(&Reading::Chips(Box::new(chips)))
}

fn start_frame() -> Vec<u8> {
    frame(&Board::new(), |square| square)
}

/// The board after 1. e4, and the pawn's home.
fn e4() -> (Board, impl Fn(Square) -> Square) {
    let mut board = Board::new();
    board.discard_piece_at(Square::E2);
    board.set_piece_at(Square::E4, Color::White.pawn());
    (board, |square| {
        if square == Square::E4 {
            Square::E2
        } else {
            square
        }
    })
}

fn known_chips() -> Chips {
    let text: String = Board::new()
        .iter()
        .map(|(square, piece)| format!("{} {}\n", piece.char(), chip_of(square)))
        .collect();
    Chips::from_text(&text).unwrap_or_default()
}

fn events(session: &mut CertaboSession) -> Vec<LinkEvent> {
    std::iter::from_fn(|| session.poll_event()).collect()
}

fn sensors(session: &mut CertaboSession) -> Vec<SensorKind> {
    events(session)
        .into_iter()
        .filter_map(|event| match event {
            LinkEvent::Sensor(kind) => Some(kind),
            _ => None,
        })
        .collect()
}

#[test]
fn an_rfid_board_with_known_chips_reports_the_start_then_a_move_lift_then_place() {
    let mut session = CertaboSession::new(Some(known_chips()));
    session.connect(0);
    session.handle_bytes(250, &start_frame());
    let said = events(&mut session);
    assert!(
        matches!(said.first(), Some(LinkEvent::Identified { what, .. }) if what.contains("RFID"))
    );
    assert!(matches!(
        said.get(1),
        Some(LinkEvent::Sensor(SensorKind::Snapshot(snapshot))) if snapshot.pieces == Board::new()
    ));
    assert_eq!(session.kind(), Some(Kind::Rfid));
    // The pawn on e4: first shown at 500, taken at the next frame (750).
    let (board, home) = e4();
    session.handle_bytes(500, &frame(&board, &home));
    assert_eq!(sensors(&mut session), []);
    session.handle_bytes(750, &frame(&board, &home));
    assert_eq!(
        sensors(&mut session),
        [
            SensorKind::Lift {
                square: Square::E2,
                piece: Some(Color::White.pawn())
            },
            SensorKind::Place {
                square: Square::E4,
                piece: Some(Color::White.pawn())
            },
        ]
    );
}

#[test]
fn with_no_chips_known_they_are_learnt_from_the_start_position_then_the_board_is_read() {
    let mut session = CertaboSession::new(None);
    session.connect(0);
    let mut t = 0;
    for _ in 0..FRAMES_TO_LEARN {
        t += 250;
        session.handle_bytes(t, &start_frame());
    }
    let said = events(&mut session);
    assert!(
        said.iter()
            .any(|e| matches!(e, LinkEvent::Notice(text) if text.contains("32 chips"))),
        "{said:?}"
    );
    assert!(
        !said.iter().any(|e| matches!(e, LinkEvent::Sensor(_))),
        "nothing read while learning"
    );
    assert_eq!(session.chips(), Some(&known_chips()));
    session.handle_bytes(t + 250, &start_frame());
    assert!(matches!(
        sensors(&mut session).as_slice(),
        [SensorKind::Snapshot(snapshot)] if snapshot.pieces == Board::new()
    ));
}

#[test]
fn the_squares_that_do_not_settle_while_learning_are_said_once() {
    let mut session = CertaboSession::new(None);
    session.connect(0);
    let mut board = Board::new();
    board.discard_piece_at(Square::B8);
    let without = frame(&board, |square| square);
    for n in 0..FRAMES_TO_LEARN + 2 {
        session.handle_bytes(250 * (n as u64 + 1), &without);
    }
    let notices: Vec<String> = events(&mut session)
        .into_iter()
        .filter_map(|e| match e {
            LinkEvent::Notice(text) => Some(text),
            _ => None,
        })
        .collect();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(
        notices
            .first()
            .is_some_and(|text| text.ends_with("not settled on b8")),
        "{notices:?}"
    );
    assert_eq!(session.chips(), None);
}

#[test]
fn an_unknown_chip_is_said_once_and_read_as_a_piece_the_board_cannot_name() {
    let mut session = CertaboSession::new(Some(known_chips()));
    session.connect(0);
    session.handle_bytes(250, &start_frame());
    events(&mut session);
    // The e2 pawn taken off, a piece of another set put on e4.
    let mut chips = [Chip::NONE; 64];
    for (index, chip) in chips.iter_mut().enumerate() {
        if let Some(square) = square_at(index).filter(|s| Board::new().piece_at(*s).is_some()) {
            *chip = chip_of(square);
        }
    }
    if let Some(chip) = chips.get_mut(index_of(Square::E2)) {
        *chip = Chip::NONE;
    }
    if let Some(chip) = chips.get_mut(index_of(Square::E4)) {
        *chip = Chip([9, 9, 9, 9, 9]);
    }
    let bytes = encode_reading(&Reading::Chips(Box::new(chips)));
    session.handle_bytes(500, &bytes);
    session.handle_bytes(750, &bytes);
    session.handle_bytes(1000, &bytes);
    let said = events(&mut session);
    let notices: Vec<&LinkEvent> = said
        .iter()
        .filter(|e| matches!(e, LinkEvent::Notice(_)))
        .collect();
    assert_eq!(
        notices,
        [&LinkEvent::Notice(
            "an unknown chip (9 9 9 9 9) on e4: read as a piece the board cannot name; \
             calibrate again with that piece in the set"
                .to_owned()
        )]
    );
    let sensors: Vec<&LinkEvent> = said
        .iter()
        .filter(|e| matches!(e, LinkEvent::Sensor(_)))
        .collect();
    assert_eq!(
        sensors,
        [
            &LinkEvent::Sensor(SensorKind::Lift {
                square: Square::E2,
                piece: Some(Color::White.pawn())
            }),
            &LinkEvent::Sensor(SensorKind::Place {
                square: Square::E4,
                piece: None
            }),
        ]
    );
    // Lifted again, it names no piece either.
    let mut lifted = chips;
    if let Some(chip) = lifted.get_mut(index_of(Square::E4)) {
        *chip = Chip::NONE;
    }
    let bytes = encode_reading(&Reading::Chips(Box::new(lifted)));
    session.handle_bytes(1250, &bytes);
    session.handle_bytes(1500, &bytes);
    assert_eq!(
        sensors_of(events(&mut session)),
        [SensorKind::Lift {
            square: Square::E4,
            piece: None
        }]
    );
}

fn sensors_of(events: Vec<LinkEvent>) -> Vec<SensorKind> {
    events
        .into_iter()
        .filter_map(|event| match event {
            LinkEvent::Sensor(kind) => Some(kind),
            _ => None,
        })
        .collect()
}

/// A Sentio board's frame showing `occupied`.
fn sentio_frame(occupied: Bitboard) -> Vec<u8> {
    encode_reading(&Reading::Occupancy(occupied))
}

/// The full report of a Sentio board showing `occupied`.
fn snapshot(occupied: Bitboard) -> SensorKind {
    SensorKind::Snapshot(Box::new(BoardSnapshot::occupancy(occupied)))
}

#[test]
fn a_sentio_board_s_frames_that_changed_are_full_reports_naming_no_piece() {
    let mut session = CertaboSession::new(None);
    session.connect(0);
    let start = Board::new().occupied();
    session.handle_bytes(250, &sentio_frame(start));
    let said = events(&mut session);
    assert!(
        matches!(said.first(), Some(LinkEvent::Identified { what, .. }) if what.contains("Sentio"))
    );
    // What it cannot follow yet is said.
    assert_eq!(
        said.get(1),
        Some(&LinkEvent::Notice(SENTIO_CAVEAT.to_owned()))
    );
    assert_eq!(said.get(2), Some(&LinkEvent::Sensor(snapshot(start))));
    // g1 empty for one frame: taken at once as a full report (a capture between two frames
    // would leave no trace: no touch is read from a Sentio board), and so is the next frame
    // that undoes it (a frame shown once may be a capture's victim off: the interpreter weighs
    // it); a frame that changed nothing is no report.
    let lifted = start & !Bitboard::from_square(Square::G1);
    session.handle_bytes(500, &sentio_frame(lifted));
    assert_eq!(sensors(&mut session), [snapshot(lifted)]);
    session.handle_bytes(750, &sentio_frame(start));
    assert_eq!(sensors(&mut session), [snapshot(start)]);
    session.handle_bytes(1000, &sentio_frame(start));
    assert_eq!(sensors(&mut session), [], "nothing changed");
}

#[test]
fn a_sentio_board_s_quick_frames_are_taken_once_the_next_still_shows_them() {
    // Frames every 50 ms: g1 emptied for one frame is not taken (a knock put back); e2
    // emptied in two frames is, at the second.
    let mut session = CertaboSession::new(None);
    session.connect(0);
    let start = Board::new().occupied();
    session.handle_bytes(50, &sentio_frame(start));
    assert_eq!(sensors(&mut session), [snapshot(start)]);
    let knocked = start & !Bitboard::from_square(Square::G1);
    session.handle_bytes(100, &sentio_frame(knocked));
    session.handle_bytes(150, &sentio_frame(start));
    assert_eq!(sensors(&mut session), [], "a knock for one frame");
    let lifted = start & !Bitboard::from_square(Square::E2);
    session.handle_bytes(200, &sentio_frame(lifted));
    assert_eq!(sensors(&mut session), []);
    session.handle_bytes(250, &sentio_frame(lifted));
    assert_eq!(sensors(&mut session), [snapshot(lifted)]);
}

#[test]
fn no_frame_for_two_seconds_is_a_lost_board_and_the_next_frame_read_whole() {
    let mut session = CertaboSession::new(Some(known_chips()));
    session.connect(0);
    assert_eq!(
        session.poll_transmit(),
        Some(vec![0; 8]),
        "the lights put out"
    );
    session.handle_bytes(250, &start_frame());
    events(&mut session);
    assert_eq!(session.poll_timeout(), Some(250 + ANSWER_MS));
    session.handle_timeout(250 + ANSWER_MS);
    assert_eq!(events(&mut session), [LinkEvent::Lost]);
    assert_eq!(session.poll_timeout(), None, "said once");
    let (board, home) = e4();
    session.handle_bytes(5000, &frame(&board, &home));
    let said = events(&mut session);
    assert_eq!(said.first(), Some(&LinkEvent::Back));
    assert!(matches!(
        said.get(1),
        Some(LinkEvent::Sensor(SensorKind::Snapshot(snapshot))) if snapshot.pieces == board
    ));
    // Unplugged meanwhile, its lights went out: they are written again.
    assert_eq!(session.poll_transmit(), Some(vec![0; 8]));
}

#[test]
fn the_lights_are_written_as_the_board_s_eight_bytes() {
    let mut session = CertaboSession::new(None);
    session.connect(0);
    assert_eq!(
        session.poll_transmit(),
        Some(vec![0; 8]),
        "unknown lights put out"
    );
    session.handle_feedback(
        100,
        &Feedback::Show {
            from: Square::E2,
            to: Square::E4,
            text: "e4".to_owned(),
        },
    );
    assert_eq!(
        session.poll_transmit(),
        Some(vec![0, 0, 0, 0, 0x10, 0, 0x10, 0])
    );
}

#[test]
fn chips_learnt_are_given_out_to_be_kept_and_recalled_by_the_next_session() {
    let mut session = CertaboSession::new(None);
    session.connect(0);
    let mut learnt = Vec::new();
    for n in 1..=FRAMES_TO_LEARN as u64 {
        session.handle_bytes(n * 250, &start_frame());
        learnt.extend(
            events(&mut session)
                .into_iter()
                .filter_map(|event| match event {
                    LinkEvent::Learnt(text) => Some(text),
                    _ => None,
                }),
        );
    }
    let [text] = learnt.as_slice() else {
        panic!("the chips given out once: {learnt:?}");
    };
    // The 32 pieces' chips, each line a piece's letter and its chip.
    assert_eq!(Chips::from_text(text), Ok(known_chips()));
    let mut next = CertaboSession::new(None);
    next.recall(text);
    assert_eq!(next.chips(), Some(&known_chips()));
    next.connect(0);
    next.handle_bytes(250, &start_frame());
    let said = events(&mut next);
    assert!(
        said.iter().any(|event| matches!(event,
            LinkEvent::Sensor(SensorKind::Snapshot(snapshot)) if snapshot.pieces == Board::new())),
        "the start read at once: {said:?}"
    );
}

#[test]
fn chips_kept_that_do_not_read_are_said_and_learnt_again() {
    let mut session = CertaboSession::new(None);
    session.recall("Q 1 2 3 4 5\nX 1 2 3 4 5\n");
    assert_eq!(session.chips(), None);
    assert!(matches!(
        events(&mut session).as_slice(),
        [LinkEvent::Notice(notice)] if notice.contains("line 2")
    ));
}
