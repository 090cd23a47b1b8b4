//! The emulated ChessLink board driven with host command frames, its replies decoded.

use shakmaty::{Board, Square};

use super::*;
use touchmove_boards::chesslink::wire::{
    AUTO_REPORTS_ON_CHANGE_DEBOUNCED, ReplyDecoder, encode_command,
};

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

fn board(config: EmulatorConfig) -> ChessLinkBoardEmulator {
    ChessLinkBoardEmulator::new(config)
}

/// Everything the board sent by `now` (its timers run up to then), decoded.
fn replies(board: &mut ChessLinkBoardEmulator, now: Millis) -> Vec<BoardReply> {
    board.handle_timeout(now);
    let mut decoder: ReplyDecoder = FrameDecoder::replies();
    while let Some(bytes) = board.poll_transmit() {
        decoder.push(&bytes);
    }
    std::iter::from_fn(|| decoder.poll())
        .filter_map(|decoded| decoded.ok())
        .collect()
}

fn send(board: &mut ChessLinkBoardEmulator, now: Millis, command: &HostCommand) {
    board.handle_bytes(now, &encode_command(command));
}

fn on_change(board: &mut ChessLinkBoardEmulator, now: Millis) {
    send(
        board,
        now,
        &HostCommand::Write {
            address: E2ROM_AUTO_REPORTS,
            value: AUTO_REPORTS_ON_CHANGE_DEBOUNCED,
        },
    );
}

#[test]
fn it_answers_every_command_with_its_letter_in_lower_case() {
    let mut board = board(EmulatorConfig::new(e4_script()));
    send(&mut board, 0, &HostCommand::Version);
    send(&mut board, 0, &HostCommand::Status);
    send(&mut board, 0, &HostCommand::Read { address: 0x01 });
    on_change(&mut board, 0);
    send(&mut board, 0, &HostCommand::LedsOff);
    assert_eq!(
        replies(&mut board, 0),
        [
            BoardReply::Version(0x01, 0x0a),
            BoardReply::Status(Board::new()),
            BoardReply::Read {
                address: 0x01,
                value: 20
            },
            BoardReply::Written {
                address: E2ROM_AUTO_REPORTS,
                value: AUTO_REPORTS_ON_CHANGE_DEBOUNCED
            },
            BoardReply::LedsOff,
        ]
    );
}

#[test]
fn change_reports_come_once_the_board_reads_the_same_for_two_scans() {
    let mut board = board(EmulatorConfig::new(e4_script()));
    on_change(&mut board, 0);
    // The status arrays start cleared: the first scans differ from them, so the board reports
    // at the second scan (0 and 41 ms).
    assert_eq!(replies(&mut board, 40).len(), 1, "only the W answer");
    assert_eq!(replies(&mut board, 41), [BoardReply::Status(Board::new())]);
    assert_eq!(replies(&mut board, 999), []);
    // e2 empty at 1000: scans at 1025 and 1066 (every 41 ms from 0) read it; reported at 1066.
    assert_eq!(replies(&mut board, 1065), []);
    let mut lifted = Board::new();
    lifted.discard_piece_at(Square::E2);
    assert_eq!(replies(&mut board, 1066), [BoardReply::Status(lifted)]);
}

#[test]
fn automatic_reports_start_off_and_every_scan_is_the_factory_mode() {
    let mut board = board(EmulatorConfig::new(e4_script()));
    assert_eq!(replies(&mut board, 500), []);
    send(
        &mut board,
        500,
        &HostCommand::Write {
            address: E2ROM_AUTO_REPORTS,
            value: 0,
        },
    );
    // The W answer, then a status at every scan: 533, 574, 615 (41 ms apart from 0).
    let sent = replies(&mut board, 615);
    assert_eq!(sent.len(), 4, "{sent:?}");
}

#[test]
fn the_script_waits_for_the_host_s_first_command() {
    let mut config = EmulatorConfig::new(e4_script());
    config.playing.start = ScriptStart::OnHost;
    let mut board = board(config);
    board.handle_timeout(5000);
    assert_eq!(board.board(), &Board::new());
    assert_eq!(board.poll_notice(), None);
    send(&mut board, 5000, &HostCommand::Version);
    assert_eq!(board.poll_notice(), Some(Notice::ScriptStarted));
    board.handle_timeout(6500);
    assert!(board.script_done());
    assert_eq!(
        board.board().piece_at(Square::E4),
        Board::new().piece_at(Square::E2)
    );
}

#[test]
fn unplugged_it_hears_and_says_nothing_and_comes_back_with_a_status() {
    let mut config = EmulatorConfig::new(e4_script());
    config.unplug = Some(Unplug {
        at: 500,
        duration: 2000,
    });
    let mut board = board(config);
    on_change(&mut board, 0);
    replies(&mut board, 100);
    board.handle_timeout(600);
    let notices: Vec<Notice> = std::iter::from_fn(|| board.poll_notice()).collect();
    assert_eq!(notices, [Notice::ScriptStarted, Notice::Unplugged]);
    send(&mut board, 600, &HostCommand::Status);
    assert_eq!(replies(&mut board, 2499), [], "unplugged");
    // Plugged in at 2500 having forgotten its status: e4 is reported at the second scan.
    let sent = replies(&mut board, 2541);
    let mut e4 = Board::new();
    e4.discard_piece_at(Square::E2);
    e4.set_piece_at(Square::E4, shakmaty::Color::White.pawn());
    assert_eq!(sent, [BoardReply::Status(e4)]);
    assert_eq!(board.poll_notice(), Some(Notice::Replugged));
}

#[test]
fn a_corrupt_command_is_a_notice_and_no_answer() {
    let mut config = EmulatorConfig::new(e4_script());
    config.playing.start = ScriptStart::OnHost;
    let mut board = board(config);
    board.handle_bytes(0, b"S00");
    assert!(matches!(
        board.poll_notice(),
        Some(Notice::NotUnderstood(_))
    ));
    assert_eq!(replies(&mut board, 0), []);
}
