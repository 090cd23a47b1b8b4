//! The emulated Chessnut board driven with host commands, its frames decoded; and with the
//! host's own session on the other side.

use shakmaty::{Bitboard, Board, Square};

use super::*;
use touchmove_boards::chessnut::ChessnutSession;
use touchmove_boards::chessnut::wire::{MessageDecoder, encode_command};
use touchmove_boards::live::{BoardSession, LinkEvent};
use touchmove_core::sensor::SensorKind;

/// A script: e2 lifted at 1000 ms, put on e4 at 1500 ms.
fn e4_script() -> Script {
    let pawn = Board::new().piece_at(Square::E2);
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
                piece: pawn,
            },
        ],
        lap: None,
    }
}

/// What the board sent by `now`, decoded.
fn sent(board: &mut ChessnutBoardEmulator, now: Millis) -> Vec<BoardMessage> {
    board.handle_timeout(now);
    let mut decoder = MessageDecoder::new();
    while let Some(bytes) = board.poll_transmit() {
        decoder.push(&bytes);
    }
    std::iter::from_fn(|| decoder.poll())
        .filter_map(|decoded| decoded.ok())
        .collect()
}

fn reports(messages: &[BoardMessage]) -> Vec<Board> {
    messages
        .iter()
        .filter_map(|message| match message {
            BoardMessage::Report { board, .. } => Some(board.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn nothing_is_reported_until_the_host_starts_the_reports_then_ten_a_second() {
    let mut board = ChessnutBoardEmulator::new(EmulatorConfig::new(e4_script()));
    assert_eq!(sent(&mut board, 500), []);
    board.handle_bytes(500, &encode_command(&HostCommand::StartReports));
    let first = sent(&mut board, 500);
    assert_eq!(first.first(), Some(&BoardMessage::Ack));
    assert_eq!(reports(&first), [Board::new()]);
    // From 500 to 1400: nine more reports, every 100 ms.
    assert_eq!(reports(&sent(&mut board, 1400)).len(), 9);
}

#[test]
fn the_battery_and_the_lights_are_answered() {
    let mut board = ChessnutBoardEmulator::new(EmulatorConfig::new(e4_script()));
    board.handle_bytes(0, &encode_command(&HostCommand::AskBattery));
    let e2e4 = Bitboard::from_square(Square::E2) | Bitboard::from_square(Square::E4);
    board.handle_bytes(10, &encode_command(&HostCommand::Leds(e2e4)));
    assert_eq!(
        sent(&mut board, 10),
        [
            BoardMessage::Battery {
                percent: BATTERY_PERCENT,
                charging: false
            },
            BoardMessage::Ack
        ]
    );
    assert_eq!(board.leds(), e2e4);
}

#[test]
fn unplugged_it_sends_nothing_and_plugged_in_again_it_waits_to_be_started() {
    let mut config = EmulatorConfig::new(e4_script());
    config.unplug = Some(Unplug {
        at: 1000,
        duration: 500,
    });
    let mut board = ChessnutBoardEmulator::new(config);
    board.handle_bytes(0, &encode_command(&HostCommand::StartReports));
    assert_eq!(reports(&sent(&mut board, 999)).len(), 10);
    assert_eq!(sent(&mut board, 1499), []);
    assert_eq!(sent(&mut board, 3000), [], "the reports were forgotten");
    board.handle_bytes(3000, &encode_command(&HostCommand::StartReports));
    let mut moved = Board::new();
    moved.discard_piece_at(Square::E2);
    moved.set_piece_at(
        Square::E4,
        Board::new()
            .piece_at(Square::E2)
            .unwrap_or_else(|| unreachable!()),
    );
    assert_eq!(reports(&sent(&mut board, 3000)), [moved]);
}

/// The host's session and the emulator, each fed what the other sent, until `until`.
fn run(
    session: &mut ChessnutSession,
    board: &mut ChessnutBoardEmulator,
    until: Millis,
) -> Vec<LinkEvent> {
    let mut events = Vec::new();
    let mut now = 0;
    session.connect(now);
    loop {
        while let Some(bytes) = session.poll_transmit() {
            board.handle_bytes(now, &bytes);
        }
        while let Some(bytes) = board.poll_transmit() {
            session.handle_bytes(now, &bytes);
        }
        events.extend(std::iter::from_fn(|| session.poll_event()));
        let next = [session.poll_timeout(), board.poll_timeout()]
            .into_iter()
            .flatten()
            .min();
        match next {
            Some(at) if at <= until => {
                now = at.max(now);
                board.handle_timeout(now);
                session.handle_timeout(now);
            }
            _ => return events,
        }
    }
}

#[test]
fn the_host_s_session_sees_the_script_s_move_as_a_lift_then_a_place() {
    let mut session = ChessnutSession::new();
    let mut config = EmulatorConfig::new(e4_script());
    config.playing.start = ScriptStart::OnHost;
    let mut board = ChessnutBoardEmulator::new(config);
    let sensors: Vec<SensorKind> = run(&mut session, &mut board, 3000)
        .into_iter()
        .filter_map(|event| match event {
            LinkEvent::Sensor(kind) => Some(kind),
            _ => None,
        })
        .collect();
    let pawn = Board::new().piece_at(Square::E2);
    assert!(matches!(sensors.first(), Some(SensorKind::Snapshot(_))));
    assert_eq!(
        sensors.get(1..),
        Some(
            &[
                SensorKind::Lift {
                    square: Square::E2,
                    piece: pawn
                },
                SensorKind::Place {
                    square: Square::E4,
                    piece: pawn
                }
            ][..]
        )
    );
}

/// A Chessnut Move with nothing scripted, its reports started at 0.
fn robot() -> ChessnutBoardEmulator {
    let mut config = EmulatorConfig::new(Script {
        start: Board::new(),
        changes: Vec::new(),
        lap: None,
    });
    config.robot = true;
    let mut board = ChessnutBoardEmulator::new(config);
    board.handle_bytes(0, &encode_command(&HostCommand::StartReports));
    sent(&mut board, 0);
    board
}

#[test]
fn a_chessnut_move_s_robot_sets_the_pieces_silent_while_it_moves() {
    let mut board = robot();
    let mut e4 = Board::new();
    let pawn = e4.remove_piece_at(Square::E2);
    if let Some(pawn) = pawn {
        e4.set_piece_at(Square::E4, pawn);
    }
    board.handle_bytes(
        50,
        &encode_command(&HostCommand::RobotSet {
            board: e4.clone(),
            yield_to_hands: true,
        }),
    );
    // Two squares change: the robot takes 2 × 4 s, saying nothing meanwhile, not even to a
    // host that starts the reports again.
    let done = 50 + 2 * ROBOT_MS_PER_SQUARE;
    board.handle_bytes(1000, &encode_command(&HostCommand::StartReports));
    assert_eq!(sent(&mut board, done - 1), []);
    assert_eq!(board.board(), &Board::new(), "the pieces not set yet");
    assert_eq!(reports(&sent(&mut board, done)), [e4.clone()]);
    assert_eq!(board.board(), &e4);
    assert_eq!(reports(&sent(&mut board, done + REPORT_MS)), [e4]);
}

#[test]
fn a_board_with_no_robot_refuses_a_position_to_set() {
    let mut board = ChessnutBoardEmulator::new(EmulatorConfig::new(e4_script()));
    board.handle_bytes(
        0,
        &encode_command(&HostCommand::RobotSet {
            board: Board::empty(),
            yield_to_hands: true,
        }),
    );
    assert!(matches!(
        board.poll_notice(),
        Some(Notice::ScriptStarted) | None
    ));
    let notices: Vec<Notice> = std::iter::from_fn(|| board.poll_notice()).collect();
    assert!(
        notices
            .iter()
            .any(|notice| matches!(notice, Notice::NotUnderstood(_))),
        "{notices:?}"
    );
    assert_eq!(board.board(), &Board::new());
}
