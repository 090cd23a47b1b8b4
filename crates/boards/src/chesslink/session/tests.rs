//! The ChessLink session driven with the board's frames, built by the wire encoder; what it
//! sends is checked frame for frame (the checks worked out by hand where they are spelled).

use shakmaty::{Board, Color, Piece, Role, Square};

use super::*;
use crate::chesslink::wire::{CommandDecoder, LED_COUNT, encode_reply};
use touchmove_core::decode::StreamDecoder;
use touchmove_core::sensor::{BoardSnapshot, SensorKind};

fn sent(session: &mut ChessLinkSession) -> Vec<Vec<u8>> {
    std::iter::from_fn(|| session.poll_transmit()).collect()
}

fn events(session: &mut ChessLinkSession) -> Vec<LinkEvent> {
    std::iter::from_fn(|| session.poll_event()).collect()
}

fn status(board: &Board) -> Vec<u8> {
    encode_reply(&BoardReply::Status(board.clone()))
}

/// A session connected at 0, what it sent then taken.
fn connected() -> ChessLinkSession {
    let mut session = ChessLinkSession::new();
    session.connect(0);
    sent(&mut session);
    session
}

/// A session connected at 0 that has read the start position (its full report taken) at 10.
fn reading_the_start() -> (ChessLinkSession, Board) {
    let mut session = connected();
    let start = Board::new();
    session.handle_bytes(10, &status(&start));
    events(&mut session);
    (session, start)
}

/// `board` with `from`'s piece moved to `to`.
fn moved(board: &Board, from: Square, to: Square) -> Board {
    let mut after = board.clone();
    if let Some(piece) = after.remove_piece_at(from) {
        after.set_piece_at(to, piece);
    }
    after
}

fn pawn(color: Color) -> Piece {
    Piece {
        color,
        role: Role::Pawn,
    }
}

fn knight() -> Piece {
    Piece {
        color: Color::White,
        role: Role::Knight,
    }
}

fn lift(square: Square, piece: Piece) -> LinkEvent {
    LinkEvent::Sensor(SensorKind::Lift {
        square,
        piece: Some(piece),
    })
}

fn place(square: Square, piece: Piece) -> LinkEvent {
    LinkEvent::Sensor(SensorKind::Place {
        square,
        piece: Some(piece),
    })
}

fn snapshot(board: &Board) -> LinkEvent {
    LinkEvent::Sensor(SensorKind::Snapshot(Box::new(BoardSnapshot::identified(
        board,
    ))))
}

#[test]
fn connecting_asks_the_version_sets_change_reports_and_asks_the_status() {
    let mut session = ChessLinkSession::new();
    session.connect(0);
    // W 01 14 (the scan time, 20 units): 0x57 ^ 0x30 ^ 0x31 ^ 0x31 ^ 0x34 = 0x53. W 02 03
    // (reports at the scan that sees a change): 0x57 ^ 0x30 ^ 0x32 ^ 0x30 ^ 0x33 = 0x56.
    // Nothing is lit: X (0x58).
    assert_eq!(
        sent(&mut session),
        [
            b"V56".to_vec(),
            b"W011453".to_vec(),
            b"W020356".to_vec(),
            b"S53".to_vec(),
            b"X58".to_vec()
        ]
    );
    session.handle_bytes(5, &encode_reply(&BoardReply::Version(0x01, 0x0a)));
    assert_eq!(
        events(&mut session),
        [LinkEvent::Identified {
            what: "Millennium ChessLink board, firmware 01.0A".to_owned(),
            serial: None,
        }]
    );
}

#[test]
fn the_first_status_is_a_full_report_and_later_ones_are_lifts_and_places() {
    let mut session = connected();
    let start = Board::new();
    session.handle_bytes(10, &status(&start));
    assert_eq!(events(&mut session), [snapshot(&start)]);
    // 1. e4 in one scan: seen at 500, read again at the hold, taken then.
    let e4 = moved(&start, Square::E2, Square::E4);
    session.handle_bytes(500, &status(&e4));
    assert_eq!(events(&mut session), []);
    assert_eq!(session.poll_timeout(), Some(500 + HOLD_MS));
    session.handle_timeout(500 + HOLD_MS);
    assert_eq!(sent(&mut session), [b"S53".to_vec()]);
    session.handle_bytes(570, &status(&e4));
    assert_eq!(
        events(&mut session),
        [
            lift(Square::E2, pawn(Color::White)),
            place(Square::E4, pawn(Color::White))
        ]
    );
    // 1... d5 2. exd5 taken in one reading: both lifts (board order: d5 before e4), then the
    // placement. The board's own reports come at the scans that see the changes.
    let d5 = moved(&e4, Square::D7, Square::D5);
    session.handle_bytes(900, &status(&d5));
    session.handle_bytes(1000, &status(&d5));
    events(&mut session);
    let exd5 = moved(&d5, Square::E4, Square::D5);
    session.handle_bytes(1300, &status(&exd5));
    session.handle_bytes(1360, &status(&exd5));
    assert_eq!(
        events(&mut session),
        [
            lift(Square::D5, pawn(Color::Black)),
            lift(Square::E4, pawn(Color::White)),
            place(Square::D5, pawn(Color::White))
        ]
    );
}

#[test]
fn a_square_s_change_waits_for_no_other_square() {
    let (mut session, start) = reading_the_start();
    // A knight slides through f3 on its way from g1 to h3, while a pawn on a7 is knocked at
    // every scan (the board's own debounce would have reported nothing until a7 settled).
    let lifted = moved(&start, Square::G1, Square::F3);
    let knocked = |board: &Board| {
        let mut knocked = board.clone();
        knocked.discard_piece_at(Square::A7);
        knocked
    };
    session.handle_bytes(100, &status(&knocked(&lifted)));
    session.handle_bytes(141, &status(&lifted));
    session.handle_bytes(182, &status(&knocked(&lifted)));
    // The knight seen on f3 at 100 and still at 182: taken, the pawn's knock is not.
    assert_eq!(
        events(&mut session),
        [lift(Square::G1, knight()), place(Square::F3, knight())]
    );
    // It leaves f3 for h3: seen at 223, taken at the next reading a hold later.
    let h3 = moved(&start, Square::G1, Square::H3);
    session.handle_bytes(223, &status(&h3));
    session.handle_bytes(264, &status(&knocked(&h3)));
    session.handle_bytes(305, &status(&h3));
    assert_eq!(
        events(&mut session),
        [lift(Square::F3, knight()), place(Square::H3, knight())]
    );
}

#[test]
fn a_status_no_hand_could_make_between_two_scans_is_a_full_report() {
    let (mut session, start) = reading_the_start();
    // 1. e4 e5 2. Nf3: six squares changed.
    let later = moved(
        &moved(
            &moved(&start, Square::E2, Square::E4),
            Square::E7,
            Square::E5,
        ),
        Square::G1,
        Square::F3,
    );
    session.handle_bytes(400, &status(&later));
    assert_eq!(events(&mut session), [snapshot(&later)]);
}

#[test]
fn noise_is_a_notice_and_the_status_is_asked_for_at_once() {
    let mut session = connected();
    session.handle_bytes(10, &status(&Board::new()));
    events(&mut session);
    session.handle_bytes(100, b"?!");
    assert_eq!(
        events(&mut session),
        [LinkEvent::Notice(
            "2 characters from the board made no frame, dropped: \"?!\"".to_owned()
        )]
    );
    assert_eq!(sent(&mut session), [b"S53".to_vec()]);
}

#[test]
fn a_frame_cut_short_by_a_quiet_line_frees_what_it_held_back() {
    let mut session = connected();
    // A noise 's' promises a 67-character status; `x` and its check come after it.
    session.handle_bytes(10, b"s");
    session.handle_bytes(11, &encode_reply(&BoardReply::LedsOff));
    assert_eq!(events(&mut session), []);
    assert_eq!(session.poll_timeout(), Some(11 + QUIET_MS));
    session.handle_timeout(11 + QUIET_MS);
    assert_eq!(
        events(&mut session),
        [LinkEvent::Notice(
            "1 characters from the board made no frame, dropped: \"s\"".to_owned()
        )]
    );
    // The `x` was a frame: the board was heard at 61, so it is not asked before 561.
    assert_eq!(session.poll_timeout(), Some(61 + POLL_MS));
}

#[test]
fn a_silent_board_is_asked_then_unresponsive_then_silent() {
    let mut session = ChessLinkSession::new();
    session.connect(0);
    let mut seen = Vec::new();
    while let Some(at) = session.poll_timeout() {
        session.handle_timeout(at);
        let asked = sent(&mut session).contains(&b"S53".to_vec());
        seen.push((at, asked, events(&mut session)));
        if at >= SILENCE_MS {
            break;
        }
    }
    // Asked at connect (0): unanswered at 500, asked again every 500 ms; silent at 3000.
    assert_eq!(seen.first(), Some(&(500, true, vec![LinkEvent::Lost])));
    assert_eq!(seen.get(1), Some(&(1000, true, vec![])));
    assert_eq!(seen.last(), Some(&(3000, false, vec![LinkEvent::Gone])));
    assert_eq!(
        session.poll_timeout(),
        None,
        "nothing more until reconnected"
    );
}

#[test]
fn a_board_answering_again_is_read_whole() {
    let (mut session, start) = reading_the_start();
    session.handle_timeout(510);
    session.handle_timeout(1010);
    assert_eq!(events(&mut session), [LinkEvent::Lost]);
    let e4 = moved(&start, Square::E2, Square::E4);
    session.handle_bytes(1200, &status(&e4));
    assert_eq!(events(&mut session), [LinkEvent::Back, snapshot(&e4)]);
}

/// The LED command the session sent, decoded.
fn led_command(session: &mut ChessLinkSession) -> Vec<HostCommand> {
    let mut decoder: CommandDecoder = FrameDecoder::commands();
    for bytes in sent(session) {
        decoder.push(&bytes);
    }
    std::iter::from_fn(|| decoder.poll())
        .filter_map(|decoded| decoded.ok())
        .collect()
}

/// The LEDs lit with `pattern` in an `L` command.
fn lit(command: &HostCommand, pattern: u8) -> Vec<usize> {
    let HostCommand::Leds { patterns, .. } = command else {
        return Vec::new();
    };
    (0..LED_COUNT)
        .filter(|&led| patterns.get(led) == Some(&pattern))
        .collect()
}

#[test]
fn the_last_move_is_lit_and_a_mismatch_blinks_until_the_resync() {
    let mut session = connected();
    let moved_e4 = Feedback::Moved {
        by: Color::White,
        from: Square::E2,
        to: Square::E4,
    };
    session.handle_feedback(100, &moved_e4);
    let commands = led_command(&mut session);
    // e4's corners are LEDs 40, 41, 49, 50; e2's 42, 43, 51, 52.
    assert_eq!(
        commands.first().map(|c| lit(c, 0xff)),
        Some(vec![40, 41, 42, 43, 49, 50, 51, 52])
    );
    session.handle_feedback(
        200,
        &Feedback::Mismatch {
            squares: vec![Square::D2],
        },
    );
    // d2's corners: columns 3 and 4, rows 6 and 7: 33, 34, 42, 43 (42 and 43 shared with e2).
    let commands = led_command(&mut session);
    assert_eq!(
        commands.first().map(|c| lit(c, 0xf0)),
        Some(vec![33, 34, 42, 43])
    );
    session.handle_feedback(300, &Feedback::Resynced);
    let commands = led_command(&mut session);
    assert_eq!(
        commands.first().map(|c| lit(c, 0xff)),
        Some(vec![40, 41, 42, 43, 49, 50, 51, 52])
    );
    // The same again sends nothing; a new game turns everything off.
    session.handle_feedback(400, &Feedback::Resynced);
    assert_eq!(sent(&mut session), Vec::<Vec<u8>>::new());
    session.handle_feedback(
        500,
        &Feedback::Started {
            to_move: Color::White,
        },
    );
    assert_eq!(led_command(&mut session), [HostCommand::LedsOff]);
}

/// A session that has read the start position and, the board quiet for half a second, asked
/// for its status again at 510.
fn asked_again() -> (ChessLinkSession, Board) {
    let (mut session, start) = reading_the_start();
    session.handle_timeout(10 + POLL_MS);
    assert_eq!(sent(&mut session), [b"S53".to_vec()]);
    (session, start)
}

#[test]
fn a_flicker_an_answer_shows_is_not_taken() {
    let (mut session, start) = asked_again();
    let mut flicker = start.clone();
    flicker.discard_piece_at(Square::G1);
    session.handle_bytes(520, &status(&flicker));
    assert_eq!(events(&mut session), []);
    assert_eq!(session.poll_timeout(), Some(520 + HOLD_MS));
    // Read again: the knight is there.
    session.handle_timeout(520 + HOLD_MS);
    assert_eq!(sent(&mut session), [b"S53".to_vec()]);
    session.handle_bytes(590, &status(&start));
    assert_eq!(events(&mut session), []);
    assert_eq!(session.poll_timeout(), Some(590 + POLL_MS));
}

#[test]
fn a_change_an_answer_shows_is_taken_once_read_again() {
    let (mut session, start) = asked_again();
    let mut lifted = start.clone();
    lifted.discard_piece_at(Square::E2);
    session.handle_bytes(520, &status(&lifted));
    assert_eq!(events(&mut session), []);
    session.handle_timeout(520 + HOLD_MS);
    sent(&mut session);
    session.handle_bytes(590, &status(&lifted));
    assert_eq!(events(&mut session), [lift(Square::E2, pawn(Color::White))]);
}
