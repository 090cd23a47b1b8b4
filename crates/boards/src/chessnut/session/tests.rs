use shakmaty::{Bitboard, Board, Color, Piece, Role, Square};

use super::*;
use crate::chessnut::wire::Corrupt;
use crate::chessnut::wire::{BoardMessage, CommandDecoder, encode_message};
use touchmove_core::decode::StreamDecoder;
use touchmove_core::sensor::SensorKind;

const WHITE_PAWN: Piece = Piece {
    color: Color::White,
    role: Role::Pawn,
};

fn report(board: &Board) -> Vec<u8> {
    encode_message(&BoardMessage::Report {
        board: board.clone(),
        uptime: 12,
    })
}

fn sent(session: &mut ChessnutSession) -> Vec<HostCommand> {
    let mut decoder = CommandDecoder::new();
    while let Some(bytes) = session.poll_transmit() {
        decoder.push(&bytes);
    }
    std::iter::from_fn(|| decoder.poll())
        .map(|decoded| match decoded {
            Ok(command) => command,
            Err(Corrupt { why, .. }) => panic!("the session sent no command: {why}"),
        })
        .collect()
}

fn events(session: &mut ChessnutSession) -> Vec<LinkEvent> {
    std::iter::from_fn(|| session.poll_event()).collect()
}

fn sensors(session: &mut ChessnutSession) -> Vec<SensorKind> {
    events(session)
        .into_iter()
        .filter_map(|event| match event {
            LinkEvent::Sensor(kind) => Some(kind),
            _ => None,
        })
        .collect()
}

fn connected() -> ChessnutSession {
    let mut session = ChessnutSession::new();
    session.connect(0);
    session.handle_bytes(100, &report(&Board::default()));
    session
}

#[test]
fn connecting_starts_the_reports_and_asks_the_battery_and_the_first_report_is_full() {
    let mut session = ChessnutSession::new();
    session.connect(0);
    assert_eq!(
        sent(&mut session),
        [
            HostCommand::StartReports,
            HostCommand::AskBattery,
            HostCommand::Leds(Bitboard::EMPTY)
        ]
    );
    session.handle_bytes(100, &report(&Board::default()));
    let events = events(&mut session);
    assert!(matches!(events.first(), Some(LinkEvent::Identified { .. })));
    assert!(matches!(
        events.get(1),
        Some(LinkEvent::Sensor(SensorKind::Snapshot(snapshot))) if snapshot.pieces == Board::default()
    ));
}

#[test]
fn a_move_is_a_lift_then_a_place_each_taken_at_the_report_after_the_one_that_showed_it() {
    let mut session = connected();
    events(&mut session);
    let mut lifted = Board::default();
    lifted.discard_piece_at(Square::E2);
    session.handle_bytes(200, &report(&lifted));
    assert_eq!(sensors(&mut session), [], "one report is not enough");
    session.handle_bytes(300, &report(&lifted));
    assert_eq!(
        sensors(&mut session),
        [SensorKind::Lift {
            square: Square::E2,
            piece: Some(WHITE_PAWN)
        }]
    );
    let mut placed = lifted.clone();
    placed.set_piece_at(Square::E4, WHITE_PAWN);
    session.handle_bytes(400, &report(&placed));
    session.handle_bytes(500, &report(&placed));
    assert_eq!(
        sensors(&mut session),
        [SensorKind::Place {
            square: Square::E4,
            piece: Some(WHITE_PAWN)
        }]
    );
}

#[test]
fn a_flicker_for_one_report_is_no_touch() {
    let mut session = connected();
    events(&mut session);
    let mut flicker = Board::default();
    flicker.discard_piece_at(Square::D1);
    session.handle_bytes(200, &report(&flicker));
    session.handle_bytes(300, &report(&Board::default()));
    session.handle_bytes(400, &report(&Board::default()));
    assert_eq!(sensors(&mut session), []);
}

#[test]
fn no_report_for_a_second_is_a_lost_board_the_reports_started_again_and_the_next_report_full() {
    let mut session = connected();
    events(&mut session);
    sent(&mut session);
    // The last report came at 100: the next was owed from then. The reports are started again
    // every RESTART_MS meanwhile.
    let mut restarts = 0;
    while session.poll_timeout() < Some(100 + ANSWER_MS) {
        let at = session.poll_timeout().unwrap_or_default();
        session.handle_timeout(at);
        restarts += sent(&mut session).len();
    }
    assert_eq!(
        restarts,
        usize::try_from((ANSWER_MS - 1) / RESTART_MS).unwrap_or(0)
    );
    session.handle_timeout(100 + ANSWER_MS);
    assert_eq!(events(&mut session), [LinkEvent::Lost]);
    assert_eq!(sent(&mut session), [HostCommand::StartReports]);
    // Meanwhile a pawn left e2; the board answers again with it gone.
    let mut lifted = Board::default();
    lifted.discard_piece_at(Square::E2);
    session.handle_bytes(1500, &report(&lifted));
    let events = events(&mut session);
    assert_eq!(events.first(), Some(&LinkEvent::Back));
    assert!(matches!(
        events.get(1),
        Some(LinkEvent::Sensor(SensorKind::Snapshot(snapshot))) if snapshot.pieces == lifted
    ));
}

#[test]
fn a_long_silence_is_the_link_gone() {
    let mut session = connected();
    events(&mut session);
    let mut now = 100;
    while let Some(at) = session.poll_timeout() {
        if at > 100 + SILENCE_MS {
            break;
        }
        now = at;
        session.handle_timeout(now);
    }
    assert_eq!(now, 100 + SILENCE_MS);
    assert_eq!(events(&mut session).last(), Some(&LinkEvent::Gone));
}

#[test]
fn the_battery_is_said_when_it_changes() {
    let mut session = connected();
    events(&mut session);
    let battery = |percent| {
        encode_message(&BoardMessage::Battery {
            percent,
            charging: false,
        })
    };
    session.handle_bytes(150, &battery(88));
    session.handle_bytes(160, &battery(88));
    session.handle_bytes(170, &battery(87));
    assert_eq!(
        events(&mut session),
        [
            LinkEvent::Battery {
                percent: 88,
                charging: false
            },
            LinkEvent::Battery {
                percent: 87,
                charging: false
            }
        ]
    );
}

#[test]
fn the_lights_show_the_move_to_carry_out_then_a_mismatch_then_nothing() {
    let mut session = connected();
    sent(&mut session);
    let e7e5 = Bitboard::from_square(Square::E7) | Bitboard::from_square(Square::E5);
    session.handle_feedback(
        200,
        &Feedback::Show {
            from: Square::E7,
            to: Square::E5,
            text: "e5".to_owned(),
        },
    );
    assert_eq!(sent(&mut session), [HostCommand::Leds(e7e5)]);
    session.handle_feedback(
        300,
        &Feedback::Mismatch {
            squares: vec![Square::D7],
        },
    );
    assert_eq!(
        sent(&mut session),
        [HostCommand::Leds(Bitboard::from_square(Square::D7))]
    );
    session.handle_feedback(400, &Feedback::Resynced);
    assert_eq!(sent(&mut session), [HostCommand::Leds(e7e5)]);
    session.handle_feedback(
        500,
        &Feedback::Moved {
            by: Color::Black,
            from: Square::E7,
            to: Square::E5,
        },
    );
    assert_eq!(sent(&mut session), [HostCommand::Leds(Bitboard::EMPTY)]);
    session.handle_feedback(600, &Feedback::Resynced);
    assert_eq!(sent(&mut session), [], "nothing changes, nothing is sent");
}

#[test]
fn a_frame_cut_short_is_said_and_dropped() {
    let mut session = connected();
    events(&mut session);
    let whole = report(&Board::default());
    session.handle_bytes(150, whole.get(..10).unwrap_or_default());
    assert_eq!(session.poll_timeout(), Some(150 + QUIET_MS));
    session.handle_timeout(150 + QUIET_MS);
    assert!(matches!(
        events(&mut session).as_slice(),
        [LinkEvent::Notice(text)] if text.starts_with("10 bytes from the board dropped (a frame cut short)")
    ));
}

/// A Chessnut Move connected at 0 whose first report, the start position, came at 100.
fn robot_connected() -> ChessnutSession {
    let mut session = ChessnutSession::robot();
    session.connect(0);
    session.handle_bytes(100, &report(&Board::default()));
    events(&mut session);
    session
}

/// The board after 1. e4.
fn after_e4() -> Board {
    let mut board = Board::default();
    board.discard_piece_at(Square::E2);
    board.set_piece_at(Square::E4, WHITE_PAWN);
    board
}

#[test]
fn a_chessnut_move_asks_its_battery_its_own_way() {
    let mut session = ChessnutSession::robot();
    session.connect(0);
    let asked = sent(&mut session);
    assert!(asked.contains(&HostCommand::AskRobotBattery), "{asked:?}");
    assert!(!asked.contains(&HostCommand::AskBattery), "{asked:?}");
}

#[test]
fn the_position_to_set_goes_to_a_chessnut_move_s_robot_and_to_no_other_board() {
    let mut robot = robot_connected();
    sent(&mut robot);
    let set = Feedback::SetPieces { board: after_e4() };
    robot.handle_feedback(200, &set);
    assert_eq!(
        sent(&mut robot),
        [HostCommand::RobotSet {
            board: after_e4(),
            yield_to_hands: true
        }]
    );
    let mut hands = connected();
    sent(&mut hands);
    hands.handle_feedback(200, &set);
    assert_eq!(sent(&mut hands), [], "an Air's hands carry it out");
}

#[test]
fn a_chessnut_move_silent_while_its_robot_moves_is_not_lost_and_its_next_report_is_the_move() {
    let mut session = robot_connected();
    session.handle_feedback(200, &Feedback::SetPieces { board: after_e4() });
    // A report already on its way when the position was sent shows the board before.
    session.handle_bytes(210, &report(&Board::default()));
    // Ten seconds without a report: the robot moves (an Air would be lost after a second, gone
    // after five).
    while let Some(at) = session.poll_timeout().filter(|&at| at < 10_200) {
        session.handle_timeout(at);
    }
    let said = events(&mut session);
    assert!(
        !said.contains(&LinkEvent::Lost) && !said.contains(&LinkEvent::Gone),
        "{said:?}"
    );
    // The reports come again with the pawn on e4: a lift and a place, taken at the report
    // after the one that showed them, as any hand's.
    session.handle_bytes(10_200, &report(&after_e4()));
    session.handle_bytes(10_300, &report(&after_e4()));
    assert_eq!(
        sensors(&mut session),
        [
            SensorKind::Lift {
                square: Square::E2,
                piece: Some(WHITE_PAWN)
            },
            SensorKind::Place {
                square: Square::E4,
                piece: Some(WHITE_PAWN)
            },
        ]
    );
    // The robot done, a silence counts again.
    session.handle_timeout(10_300 + ANSWER_MS);
    assert_eq!(events(&mut session), [LinkEvent::Lost]);
}

#[test]
fn a_chessnut_move_s_robot_silent_past_its_time_is_lost() {
    let mut session = robot_connected();
    session.handle_feedback(200, &Feedback::SetPieces { board: after_e4() });
    while let Some(at) = session.poll_timeout().filter(|&at| at <= 200 + ROBOT_MS) {
        session.handle_timeout(at);
    }
    let said = events(&mut session);
    assert_eq!(said, [LinkEvent::Lost], "lost at its time, gone only later");
}

#[test]
fn a_chessnut_move_lights_its_squares_in_colour() {
    let mut session = robot_connected();
    sent(&mut session);
    session.handle_feedback(
        200,
        &Feedback::Show {
            from: Square::E7,
            to: Square::E5,
            text: "e5".to_owned(),
        },
    );
    assert_eq!(
        sent(&mut session),
        [HostCommand::ColourLeds(
            Bitboard::from_square(Square::E7) | Bitboard::from_square(Square::E5)
        )]
    );
}
