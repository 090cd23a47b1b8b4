//! The emulator driven with host command bytes, checked byte for byte.

use shakmaty::{Board, Chess, Color, Piece, Square};

use super::*;
use crate::emulation::Unplug;
use touchmove_core::sensor::Millis;

const VERSION: u8 = 0x4d;
const SEND_BRD: u8 = 0x42;
const SEND_CLK: u8 = 0x41;
const UPDATE_NICE: u8 = 0x4b;
const UPDATE_BRD: u8 = 0x44;
const UPDATE: u8 = 0x43;
const RESET: u8 = 0x40;

fn square(t: Millis, square: Square, piece: Option<Piece>) -> ScriptEvent {
    ScriptEvent {
        t,
        change: Change::Square { square, piece },
    }
}

fn press(t: Millis, color: Color) -> ScriptEvent {
    ScriptEvent {
        t,
        change: Change::ClockPress(color),
    }
}

/// 1. e4 as a scan reports it (arrival first), White presses the clock at 500 ms; then 1... d5.
fn e4_d5() -> Script {
    let pawn = Some(Color::White.pawn());
    let black = Some(Color::Black.pawn());
    Script {
        start: Board::default(),
        first_to_move: Color::White,
        events: vec![
            square(200, Square::E4, pawn),
            square(200, Square::E2, None),
            press(500, Color::White),
            square(1_400, Square::D7, None),
            square(1_600, Square::D5, black),
        ],
        lap: None,
    }
}

fn emulator(config: EmulatorConfig) -> DgtBoardEmulator {
    DgtBoardEmulator::new(config)
}

/// Everything the emulator sends, as one message per entry.
fn drain(emulator: &mut DgtBoardEmulator) -> Vec<Vec<u8>> {
    std::iter::from_fn(|| emulator.poll_transmit()).collect()
}

/// Runs every timer up to `until`, collecting what is sent.
fn run_until(emulator: &mut DgtBoardEmulator, until: Millis) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    while let Some(due) = emulator.poll_timeout().filter(|due| *due <= until) {
        emulator.handle_timeout(due);
        out.extend(drain(emulator));
    }
    emulator.handle_timeout(until);
    out.extend(drain(emulator));
    out
}

fn start_dump() -> Vec<u8> {
    let mut dump = vec![0x86, 0x00, 0x43];
    dump.extend([0x08, 0x09, 0x0a, 0x0c, 0x0b, 0x0a, 0x09, 0x08]);
    dump.extend([0x07; 8]);
    dump.extend([0x00; 32]);
    dump.extend([0x01; 8]);
    dump.extend([0x02, 0x03, 0x04, 0x06, 0x05, 0x04, 0x03, 0x02]);
    dump
}

#[test]
fn answers_identity_requests_from_bus_mode() {
    let mut board = emulator(EmulatorConfig::new(e4_d5()));
    assert!(board.is_bus_mode());
    board.handle_bytes(0, &[VERSION, 0x45, 0x55, 0x46, 0x4c, 0x47]);
    assert!(!board.is_bus_mode());
    assert_eq!(
        drain(&mut board),
        [
            vec![0x93, 0x00, 0x05, 0x01, 0x02],
            vec![0x91, 0x00, 0x08, 0x33, 0x31, 0x34, 0x31, 0x35],
            vec![
                0xa2, 0x00, 0x0d, 0x33, 0x31, 0x34, 0x31, 0x35, 0x39, 0x32, 0x36, 0x35, 0x33
            ],
            vec![0x90, 0x00, 0x05, 0x14, 0x5e],
            vec![
                0xa0, 0x00, 0x0c, 0x57, 0x04, 0x58, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00
            ],
            msg::trademark("touchmove emulated DGT e-board, version 1.02"),
        ]
    );
}

#[test]
fn dumps_the_start_position() {
    let mut board = emulator(EmulatorConfig::new(e4_d5()));
    board.handle_bytes(0, &[SEND_BRD]);
    assert_eq!(drain(&mut board), [start_dump()]);
}

#[test]
fn idle_sends_nothing_but_the_board_keeps_changing() {
    let mut board = emulator(EmulatorConfig::new(e4_d5()));
    assert_eq!(run_until(&mut board, 10_000), Vec::<Vec<u8>>::new());
    assert!(board.script_done());
    board.handle_bytes(10_000, &[SEND_BRD]);
    let mut expected = start_dump();
    for (index, code) in [
        (3 + 11, 0x00),
        (3 + 27, 0x07),
        (3 + 36, 0x01),
        (3 + 52, 0x00),
    ] {
        if let Some(byte) = expected.get_mut(index) {
            *byte = code;
        }
    }
    assert_eq!(drain(&mut board), [expected]);
}

#[test]
fn update_nice_reports_squares_and_clock_changes() {
    let mut config = EmulatorConfig::new(e4_d5());
    config.playing.start = ScriptStart::OnHost;
    let mut board = emulator(config);
    assert_eq!(board.poll_timeout(), None, "waits for a host");
    board.handle_bytes(1_000, &[UPDATE_NICE]);
    assert_eq!(board.mode(), Mode::UpdateNice);
    // The clock starts with the script: White's time (left) runs, lever up on the left.
    assert_eq!(
        drain(&mut board),
        [[0x8d, 0x00, 0x0a, 0x00, 0x05, 0x00, 0x00, 0x05, 0x00, 0x09]]
    );
    assert_eq!(
        run_until(&mut board, 1_500),
        [
            vec![0x8e, 0x00, 0x05, 0x24, 0x01],
            vec![0x8e, 0x00, 0x05, 0x34, 0x00],
            // White pressed: Black's time (right) runs, lever up on the right.
            vec![0x8d, 0x00, 0x0a, 0x00, 0x05, 0x00, 0x00, 0x05, 0x00, 0x13],
        ]
    );
    // The running side's display changes a second after the press (4:59 on the right),
    // between Black's lift (d7) and place (d5).
    assert_eq!(
        run_until(&mut board, 2_700),
        [
            vec![0x8e, 0x00, 0x05, 0x0b, 0x00],
            vec![0x8d, 0x00, 0x0a, 0x00, 0x04, 0x59, 0x00, 0x05, 0x00, 0x13],
            vec![0x8e, 0x00, 0x05, 0x1b, 0x07],
        ]
    );
    assert!(board.script_done());
}

#[test]
fn update_board_reports_squares_only() {
    let mut board = emulator(EmulatorConfig::new(e4_d5()));
    board.handle_bytes(0, &[UPDATE_BRD]);
    let out = run_until(&mut board, 5_000);
    assert_eq!(out.len(), 4);
    assert!(out.iter().all(|m| m.first() == Some(&0x8e)));
}

#[test]
fn update_sends_the_clock_every_second() {
    let mut board = emulator(EmulatorConfig::new(Script {
        events: Vec::new(),
        ..e4_d5()
    }));
    board.handle_bytes(0, &[UPDATE]);
    let out = run_until(&mut board, 3_000);
    assert_eq!(
        out,
        [
            vec![0x8d, 0x00, 0x0a, 0x00, 0x05, 0x00, 0x00, 0x04, 0x59, 0x09],
            vec![0x8d, 0x00, 0x0a, 0x00, 0x05, 0x00, 0x00, 0x04, 0x58, 0x09],
            vec![0x8d, 0x00, 0x0a, 0x00, 0x05, 0x00, 0x00, 0x04, 0x57, 0x09],
        ]
    );
}

#[test]
fn reset_stops_the_updates() {
    let mut board = emulator(EmulatorConfig::new(e4_d5()));
    board.handle_bytes(0, &[UPDATE_BRD]);
    board.handle_bytes(100, &[RESET]);
    assert_eq!(board.mode(), Mode::Idle);
    assert_eq!(run_until(&mut board, 5_000), Vec::<Vec<u8>>::new());
}

#[test]
fn a_turned_board_reports_turned_squares() {
    let mut config = EmulatorConfig::new(e4_d5());
    config.rotated = true;
    let mut board = emulator(config);
    board.handle_bytes(0, &[UPDATE_BRD, SEND_BRD]);
    let out = run_until(&mut board, 300);
    let mut dump = start_dump();
    if let Some(codes) = dump.get_mut(3..) {
        codes.reverse();
    }
    assert_eq!(
        out,
        [
            dump,
            // e4 is reported where d5 is, e2 where d7 is.
            vec![0x8e, 0x00, 0x05, 0x1b, 0x01],
            vec![0x8e, 0x00, 0x05, 0x0b, 0x00],
        ]
    );
}

#[test]
fn clock_commands_are_acknowledged_and_set_and_run_sets_the_times() {
    let mut board = emulator(EmulatorConfig::new(e4_d5()));
    // Beep, then set 0:05:00 left and 1:30:00 right, right running.
    board.handle_bytes(0, &[0x2b, 0x04, 0x03, 0x0b, 0x05, 0x00]);
    board.handle_bytes(
        100,
        &[
            0x2b, 0x0a, 0x03, 0x0a, 0x00, 0x05, 0x00, 0x01, 0x1e, 0x00, 0x02, 0x00,
        ],
    );
    // The script's press (White, at 500 ms) raised the lever on the right.
    board.handle_bytes(1_100, &[SEND_CLK]);
    assert_eq!(
        drain(&mut board),
        [
            vec![0x8d, 0x00, 0x0a, 0x0a, 0x10, 0x0b, 0x0a, 0x00, 0x00, 0x00],
            vec![0x8d, 0x00, 0x0a, 0x0a, 0x10, 0x0a, 0x0a, 0x00, 0x00, 0x00],
            vec![0x8d, 0x00, 0x0a, 0x01, 0x29, 0x59, 0x00, 0x05, 0x00, 0x13],
        ]
    );
}

#[test]
fn garbage_from_the_host_is_noticed_and_not_answered() {
    let mut board = emulator(EmulatorConfig::new(e4_d5()));
    board.handle_bytes(0, &[0x00, 0xff, 0x2b, 0x7f, 0x49]);
    assert_eq!(drain(&mut board), Vec::<Vec<u8>>::new());
    let notices: Vec<Notice> = std::iter::from_fn(|| board.poll_notice()).collect();
    let not_understood = |what: &str| Notice::NotUnderstood(what.to_owned());
    assert!(notices.contains(&not_understood("unknown command byte 0x00")));
    assert!(notices.contains(&not_understood("unknown command byte 0xff")));
    assert!(notices.contains(&not_understood("malformed clock command 2b 7f")));
    assert!(notices.contains(&Notice::Refused(0x49)));
}

#[test]
fn speed_divides_the_script_times() {
    let mut config = EmulatorConfig::new(e4_d5());
    config.playing.speed = 4.0;
    let board = emulator(config);
    assert_eq!(board.poll_timeout(), Some(50));
}

#[test]
fn an_unplugged_board_loses_what_happens_and_comes_back_idle() {
    let mut config = EmulatorConfig::new(e4_d5());
    config.unplug = Some(Unplug {
        at: 100,
        duration: 2_000,
    });
    let mut board = emulator(config);
    board.handle_bytes(0, &[UPDATE_BRD]);
    let out = run_until(&mut board, 1_000);
    assert!(!board.is_plugged());
    assert_eq!(out, Vec::<Vec<u8>>::new());
    board.handle_bytes(1_000, &[VERSION]);
    assert_eq!(
        drain(&mut board),
        Vec::<Vec<u8>>::new(),
        "no answer unplugged"
    );
    assert_eq!(run_until(&mut board, 3_000), Vec::<Vec<u8>>::new());
    assert!(board.is_plugged());
    assert!(board.is_bus_mode());
    assert_eq!(board.mode(), Mode::Idle);
    board.handle_bytes(3_000, &[SEND_BRD]);
    let dump = drain(&mut board);
    let Some(dump) = dump.first() else {
        panic!("a dump after the replug");
    };
    assert_eq!(dump.get(3 + 27), Some(&0x07), "d5 shows the black pawn");
    assert_eq!(dump.get(3 + 36), Some(&0x01), "e4 shows the white pawn");
}

#[test]
fn noise_is_seeded_and_mixes_top_bits() {
    let noisy = |seed| {
        let mut config = EmulatorConfig::new(e4_d5());
        config.playing.noise = Some(20.0);
        config.playing.seed = seed;
        let mut board = emulator(config);
        run_until(&mut board, 5_000).concat()
    };
    let bytes = noisy(9);
    assert_eq!(bytes, noisy(9));
    assert_ne!(bytes, noisy(10));
    assert!(bytes.iter().any(|b| b & 0x80 != 0));
    assert!(bytes.iter().any(|b| b & 0x80 == 0));
}

#[test]
fn a_simulated_game_ends_on_its_final_position() {
    let start = Chess::default();
    let moves = touchmove_core::testutil::uci_move(&start, "e2e4");
    let style = crate::simulate::HandStyle::clean(crate::simulate::BoardKind::Identifying);
    let script = Script::from_game(&start, &[moves], &style, 5).expect("a script");
    let mut board = emulator(EmulatorConfig::new(script));
    run_until(&mut board, 60_000);
    assert!(board.script_done());
    let mut expected = Board::default();
    expected.discard_piece_at(Square::E2);
    expected.set_piece_at(Square::E4, Color::White.pawn());
    assert_eq!(board.board(), &expected);
}
