//! The emulated Certabo board driven with the host's bytes, its frames decoded; and with the
//! host's own session on the other side.

use shakmaty::{Board, Color, Square};

use super::*;
use touchmove_boards::certabo::CertaboSession;
use touchmove_boards::certabo::calibration::SPARE_QUEENS;
use touchmove_boards::certabo::wire::{Chip, FrameDecoder, index_of};
use touchmove_boards::live::{BoardSession, LinkEvent};
use touchmove_core::decode::StreamDecoder;
use touchmove_core::sensor::SensorKind;

/// A script: e2 lifted at 1000 ms, put on e4 at 1500 ms.
fn e4_script() -> Script {
    Script {
        start: Board::new(),
        changes: vec![
            Change {
                t: 1000,
                square: Square::E2,
                piece: None,
            },
            Change {
                t: 1500,
                square: Square::E4,
                piece: Some(Color::White.pawn()),
            },
        ],
        lap: None,
    }
}

fn on_host(sentio: bool) -> CertaboBoardEmulator {
    let mut config = EmulatorConfig::new(e4_script());
    config.playing.start = ScriptStart::OnHost;
    config.sentio = sentio;
    CertaboBoardEmulator::new(config)
}

/// The frames the board sent by `now`.
fn frames(board: &mut CertaboBoardEmulator, now: Millis) -> Vec<Reading> {
    board.handle_timeout(now);
    let mut decoder = FrameDecoder::new();
    while let Some(bytes) = board.poll_transmit() {
        decoder.push(&bytes);
    }
    std::iter::from_fn(|| decoder.poll())
        .filter_map(|decoded| decoded.ok())
        .collect()
}

fn chips(reading: Option<&Reading>) -> [Chip; 64] {
    match reading {
        Some(Reading::Chips(chips)) => **chips,
        other => panic!("no chip frame: {other:?}"),
    }
}

#[test]
fn an_rfid_board_streams_from_power_up_its_spare_queens_out_until_after_the_host_spoke() {
    let mut board = on_host(false);
    // Frames at 0, 250 and 500, unasked.
    let sent = frames(&mut board, 500);
    assert_eq!(sent.len(), 3);
    let first = chips(sent.first());
    for (square, _) in SPARE_QUEENS {
        assert!(
            !first.get(index_of(square)).is_some_and(Chip::is_none),
            "{square}"
        );
    }
    assert_eq!(first.iter().filter(|chip| !chip.is_none()).count(), 34);
    // The host lights nothing at 600: the spares come off at 3600, the script starts then.
    board.handle_bytes(600, &[0; 8]);
    assert!(board.board().piece_at(Square::D6).is_some());
    frames(&mut board, 3599);
    assert!(board.board().piece_at(Square::D6).is_some());
    frames(&mut board, 3600);
    assert_eq!(board.board(), Board::new());
    // The pawn's own chip goes with it from e2 to e4 (the script's 1500 ms after 3600).
    let before = chips(frames(&mut board, 3750).last());
    let pawn = before.get(index_of(Square::E2)).copied();
    let after = chips(frames(&mut board, 5250).last());
    assert_eq!(after.get(index_of(Square::E4)).copied(), pawn);
    assert!(after.get(index_of(Square::E2)).is_some_and(Chip::is_none));
}

#[test]
fn every_piece_has_its_own_chip() {
    let mut board = on_host(false);
    let frame = chips(frames(&mut board, 0).first());
    let mut seen: Vec<Chip> = frame
        .iter()
        .copied()
        .filter(|chip| !chip.is_none())
        .collect();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 34);
}

#[test]
fn a_sentio_board_streams_the_occupancy_with_no_spare_queens() {
    let mut board = on_host(true);
    board.handle_bytes(10, &[0; 8]);
    let sent = frames(&mut board, 250);
    assert_eq!(
        sent.last(),
        Some(&Reading::Occupancy(Board::new().occupied()))
    );
}

#[test]
fn a_sentio_board_told_its_frame_period_streams_that_often() {
    // Frames from power-up at 0, every 50 ms: 0, 50, ..., 1000 by 1000 ms (21), the e2 pawn
    // lifted at 1000 ms after the host spoke at 0 shown in the last.
    let mut config = EmulatorConfig::new(e4_script());
    config.sentio = true;
    config.frame_ms = 50;
    let mut board = CertaboBoardEmulator::new(config);
    board.handle_bytes(0, &[0; 8]);
    let sent = frames(&mut board, 1_000);
    assert_eq!(sent.len(), 21);
    let lifted = Board::new().occupied() & !shakmaty::Bitboard::from(Square::E2);
    assert_eq!(sent.last(), Some(&Reading::Occupancy(lifted)));
    assert_eq!(
        sent.get(19),
        Some(&Reading::Occupancy(Board::new().occupied()))
    );
}

#[test]
fn the_host_s_session_learns_the_chips_and_reads_the_move() {
    let mut board = on_host(false);
    let mut session = CertaboSession::new(None);
    session.connect(0);
    let mut events = Vec::new();
    let mut now = 0;
    while now <= 8000 {
        while let Some(bytes) = session.poll_transmit() {
            board.handle_bytes(now, &bytes);
        }
        board.handle_timeout(now);
        while let Some(bytes) = board.poll_transmit() {
            session.handle_bytes(now, &bytes);
        }
        events.extend(std::iter::from_fn(|| session.poll_event()));
        now += 50;
    }
    assert!(
        events
            .iter()
            .any(|e| matches!(e, LinkEvent::Notice(text) if text.contains("34 chips"))),
        "{events:?}"
    );
    let sensors: Vec<&SensorKind> = events
        .iter()
        .filter_map(|e| match e {
            LinkEvent::Sensor(kind) => Some(kind),
            _ => None,
        })
        .collect();
    // The start with the spare queens, the spares taken off, then e2-e4.
    assert!(
        matches!(sensors.first(), Some(SensorKind::Snapshot(snapshot))
            if snapshot.pieces.piece_at(Square::D6) == Some(Color::Black.queen())),
        "{sensors:?}"
    );
    let rest: Vec<SensorKind> = sensors.iter().skip(1).map(|kind| (*kind).clone()).collect();
    assert_eq!(
        rest,
        [
            SensorKind::Lift {
                square: Square::D6,
                piece: Some(Color::Black.queen())
            },
            SensorKind::Lift {
                square: Square::D3,
                piece: Some(Color::White.queen())
            },
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
fn a_promotion_s_queen_is_the_spare_and_one_more_a_piece_the_host_cannot_name() {
    let start: Board = "k7/3PP3/8/8/8/8/8/4K3"
        .parse::<shakmaty::fen::Fen>()
        .map(|fen| fen.as_setup().board.clone())
        .unwrap_or_default();
    let queen = Some(Color::White.queen());
    let change = |t, square, piece| Change { t, square, piece };
    let mut config = EmulatorConfig::new(Script {
        start,
        changes: vec![
            change(1000, Square::E7, None),
            change(1200, Square::E8, queen),
            change(3000, Square::D7, None),
            change(3200, Square::D8, queen),
        ],
        lap: None,
    });
    config.playing.start = ScriptStart::OnHost;
    let mut board = CertaboBoardEmulator::new(config);
    // Not the standard start: the spare queens stay off the board (no host learns from it).
    assert_eq!(
        chips(frames(&mut board, 0).first()).get(index_of(Square::D3)),
        Some(&Chip::NONE)
    );
    let spare = board
        .set
        .every_chip()
        .find(|(piece, _)| *piece == Color::White.queen())
        .map(|(_, chip)| chip);
    board.handle_bytes(0, &[0; 8]);
    // The script runs from the host's first bytes.
    let promoted = chips(frames(&mut board, 2000).last());
    assert_eq!(promoted.get(index_of(Square::E8)).copied(), spare);
    let notices: Vec<Notice> = std::iter::from_fn(|| board.poll_notice()).collect();
    assert!(!notices.contains(&Notice::ChosenAtHost(shakmaty::Role::Queen)));
    frames(&mut board, 3500);
    let notices: Vec<Notice> = std::iter::from_fn(|| board.poll_notice()).collect();
    assert_eq!(notices, [Notice::ChosenAtHost(shakmaty::Role::Queen)]);
}

#[test]
fn an_rfid_board_s_calibration_names_every_piece_of_its_set_and_a_sentio_board_has_none() {
    let script = || Script {
        start: Board::new(),
        changes: Vec::new(),
        lap: None,
    };
    let rfid = CertaboBoardEmulator::new(EmulatorConfig::new(script()));
    let text = rfid.calibration().unwrap_or_default();
    let chips = touchmove_boards::certabo::calibration::Chips::from_text(&text);
    let chips = chips.unwrap_or_default();
    // 32 pieces and the two spare queens.
    assert_eq!(chips.len(), 34);
    assert_eq!(chips.read(&rfid.set.frame()), Ok(rfid.board()));
    let mut config = EmulatorConfig::new(script());
    config.sentio = true;
    assert_eq!(CertaboBoardEmulator::new(config).calibration(), None);
}

/// A Sentio board playing `script`, its hands answering the lights lit for 1 s, its host's
/// first bytes (the LEDs out) sent at 0.
fn answering_sentio(script: Script) -> CertaboBoardEmulator {
    let mut config = EmulatorConfig::new(script);
    config.sentio = true;
    config.answer_after = Some(1_000);
    let mut board = CertaboBoardEmulator::new(config);
    board.handle_bytes(0, &[0; 8]);
    board
}

#[test]
fn hands_that_answer_lift_the_piece_of_their_last_move_when_asked_where_it_went_once() {
    use shakmaty::Bitboard;
    use touchmove_boards::certabo::wire::encode_leds;
    let mut board = answering_sentio(e4_script());
    frames(&mut board, 2_000);
    let played = (Board::new().occupied() & !Bitboard::from(Square::E2)) | Square::E4;
    let occupancy = |sent: Vec<Reading>| -> Vec<Bitboard> {
        sent.into_iter()
            .map(|reading| match reading {
                Reading::Occupancy(occupied) => occupied,
                other => panic!("not an occupancy frame: {other:?}"),
            })
            .collect()
    };
    // The squares of another move lit (one to carry out): no question.
    board.handle_bytes(2_000, &encode_leds(Bitboard::from(Square::E4) | Square::D5));
    assert!(
        occupancy(frames(&mut board, 3_500))
            .iter()
            .all(|&o| o == played)
    );
    // e2 and e4 among those lit, e2 empty, the pawn on e4: asked where it went. A second
    // later, at 4500 (after that instant's frame), it is lifted, and set back 600 ms after:
    // the frames of 4750 and 5000 show it lifted (frames every 250 ms, from 3750 to 6000).
    let asked = Bitboard::from(Square::E2) | Square::E4 | Square::D5;
    board.handle_bytes(3_500, &encode_leds(asked));
    let lifted = played & !Bitboard::from(Square::E4);
    let mut expected = vec![played; 4];
    expected.extend([lifted; 2]);
    expected.extend([played; 4]);
    assert_eq!(occupancy(frames(&mut board, 6_000)), expected);
    // The same question lit again is not answered twice.
    board.handle_bytes(6_000, &encode_leds(asked));
    assert!(
        occupancy(frames(&mut board, 9_000))
            .iter()
            .all(|&o| o == played)
    );
}

#[test]
fn a_piece_slid_across_a_square_keeps_where_its_move_began_for_the_answer() {
    use shakmaty::Bitboard;
    use touchmove_boards::certabo::wire::encode_leds;
    // The e2 pawn set down on e3 on its way, picked up again at once, set down on e4: the move
    // began on e2, so e2 and e4 lit ask about it.
    let pawn = Some(Color::White.pawn());
    let change = |t, square, piece| Change { t, square, piece };
    let script = Script {
        start: Board::new(),
        changes: vec![
            change(1_000, Square::E2, None),
            change(1_300, Square::E3, pawn),
            change(1_350, Square::E3, None),
            change(1_500, Square::E4, pawn),
        ],
        lap: None,
    };
    let mut board = answering_sentio(script);
    frames(&mut board, 2_000);
    board.handle_bytes(2_000, &encode_leds(Bitboard::from(Square::E2) | Square::E4));
    let played = (Board::new().occupied() & !Bitboard::from(Square::E2)) | Square::E4;
    let lifted = played & !Bitboard::from(Square::E4);
    // Answered at 3000, set back at 3600.
    let sent = frames(&mut board, 4_000);
    assert!(
        sent.contains(&Reading::Occupancy(lifted)),
        "the pawn lifted from e4 in a frame: {sent:?}"
    );
    assert_eq!(sent.last(), Some(&Reading::Occupancy(played)));
}

#[test]
fn hands_answer_for_a_move_before_the_reply_and_a_knock_put_back_is_no_move() {
    use shakmaty::Bitboard;
    use touchmove_boards::certabo::wire::encode_leds;
    // 1. e4, the d7 pawn knocked off and put back while the e2 pawn is in hand; then 1... e5.
    // e2 and e4 lit after the reply ask about White's move still: the pawn of e4 is lifted
    // and set back (the knock moved nothing: without it seen so, d7 would be taken for where
    // the pawn of e2 went).
    let (white, black) = (Some(Color::White.pawn()), Some(Color::Black.pawn()));
    let change = |t, square, piece| Change { t, square, piece };
    let script = Script {
        start: Board::new(),
        changes: vec![
            change(1_000, Square::E2, None),
            change(1_100, Square::D7, None),
            change(1_150, Square::D7, black),
            change(1_500, Square::E4, white),
            change(2_000, Square::E7, None),
            change(2_300, Square::E5, black),
        ],
        lap: None,
    };
    let mut board = answering_sentio(script);
    frames(&mut board, 3_000);
    board.handle_bytes(3_000, &encode_leds(Bitboard::from(Square::E2) | Square::E4));
    let played =
        (Board::new().occupied() & !Bitboard::from(Square::E2) & !Bitboard::from(Square::E7))
            | Square::E4
            | Square::E5;
    let lifted = played & !Bitboard::from(Square::E4);
    // Answered at 4000, set back at 4600.
    let sent = frames(&mut board, 5_000);
    assert!(
        sent.contains(&Reading::Occupancy(lifted)),
        "the pawn lifted from e4 in a frame: {sent:?}"
    );
    assert_eq!(sent.last(), Some(&Reading::Occupancy(played)));
}

#[test]
fn a_capture_whose_victim_was_lifted_first_is_answered_from_the_capturing_piece() {
    use shakmaty::Bitboard;
    use touchmove_boards::certabo::wire::encode_leds;
    // From a corpus game (dortmund.pgn game 263) on the bench's Sentio board: 36. Rxg5 made
    // with the g5 pawn lifted first, the rook of e5 slid across f5. e5 and g5 lit ask about
    // the rook's move (it began on e5, not g5): the rook of g5 is lifted and set back.
    let start: Board = "8/8/8/4R1p1/8/8/8/K6k w - - 0 1"
        .parse::<shakmaty::fen::Fen>()
        .map(|fen| fen.into_setup().board)
        .unwrap_or_default();
    let rook = Some(Color::White.rook());
    let change = |t, square, piece| Change { t, square, piece };
    let script = Script {
        start: start.clone(),
        changes: vec![
            change(1_000, Square::G5, None),
            change(1_300, Square::E5, None),
            change(1_450, Square::F5, rook),
            change(1_550, Square::F5, None),
            change(1_750, Square::G5, rook),
        ],
        lap: None,
    };
    let mut board = answering_sentio(script);
    frames(&mut board, 2_000);
    board.handle_bytes(
        2_000,
        &encode_leds(Bitboard::from(Square::E5) | Square::C5 | Square::G5),
    );
    let played = (start.occupied() & !Bitboard::from(Square::E5)) | Square::G5;
    let lifted = played & !Bitboard::from(Square::G5);
    // Answered at 3000, set back at 3600.
    let sent = frames(&mut board, 4_000);
    assert!(
        sent.contains(&Reading::Occupancy(lifted)),
        "the rook lifted from g5 in a frame: {sent:?}"
    );
    assert_eq!(sent.last(), Some(&Reading::Occupancy(played)));
}

#[test]
fn only_a_sentio_board_s_hands_answer_its_lights() {
    use crate::emulation::{
        BoardOption, EmulatorError, EmulatorOptions, FromOptions, ScriptSource,
    };
    let mut options = EmulatorOptions::new(ScriptSource::Game {
        start: shakmaty::Chess::default(),
        moves: Vec::new(),
        messy: false,
    });
    options.answer_after = Some(1_000);
    // An RFID board knows where each piece went: it never asks.
    assert!(matches!(
        CertaboBoardEmulator::from_options(&options),
        Err(EmulatorError::Unsupported {
            option: BoardOption::AnswerAfter
        })
    ));
    options.sentio = true;
    let board =
        CertaboBoardEmulator::from_options(&options).unwrap_or_else(|error| panic!("{error}"));
    assert!(board.answering.is_some());
}

#[test]
fn a_sentio_board_s_promotion_to_a_piece_captured_before_is_typed_at_the_host() {
    // Black's bishop takes White's on a1; then exd8=B with the bishop set down first (FIDE 4.6
    // c: the rook of d8 taken off, the bishop set down, the pawn lifted from e7). The bishop
    // set down came from off the board: the player types it at the host, though a white
    // bishop was taken off before.
    let start: Board = "3r3k/4P3/8/8/8/8/1b6/B3K3"
        .parse::<shakmaty::fen::Fen>()
        .map(|fen| fen.as_setup().board.clone())
        .unwrap_or_default();
    let (white, black) = (Color::White, Color::Black);
    let change = |t, square, piece| Change { t, square, piece };
    let mut config = EmulatorConfig::new(Script {
        start,
        changes: vec![
            change(1_000, Square::A1, None),
            change(1_100, Square::B2, None),
            change(1_300, Square::A1, Some(black.bishop())),
            change(2_000, Square::D8, None),
            change(2_300, Square::D8, Some(white.bishop())),
            change(2_600, Square::E7, None),
        ],
        lap: None,
    });
    config.sentio = true;
    let mut board = CertaboBoardEmulator::new(config);
    board.handle_bytes(0, &[0; 8]);
    frames(&mut board, 1_500);
    let notices: Vec<Notice> = std::iter::from_fn(|| board.poll_notice()).collect();
    assert!(!notices.contains(&Notice::ChosenAtHost(shakmaty::Role::Bishop)));
    frames(&mut board, 3_000);
    let notices: Vec<Notice> = std::iter::from_fn(|| board.poll_notice()).collect();
    assert_eq!(notices, [Notice::ChosenAtHost(shakmaty::Role::Bishop)]);
}
