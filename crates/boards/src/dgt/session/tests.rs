//! Tests of the host session, each behaviour from hand-written bytes: handshake, dump, field
//! updates, rotation, clock presses, keep-alive, silence, clock commands, corrupt bytes.

use shakmaty::{Board, Color, Square};

use super::{DgtSession, SessionConfig, SessionEvent};
use crate::dgt::wire::clock::{ClockReport, ClockTime};
use crate::dgt::wire::command::{ClockCommand, ClockRun, ClockSetting};
use crate::dgt::wire::message::tests::START_DUMP;
use touchmove_core::clock::ClockSide;
use touchmove_core::sensor::{BoardSnapshot, Millis, SensorKind};

/// The start position seen by a board turned round (Black on the connector side).
const ROTATED_START_DUMP: [u8; 67] = [
    0x86, 0x00, 0x43, //
    0x02, 0x03, 0x04, 0x05, 0x06, 0x04, 0x03, 0x02, // White's back rank, seen from behind
    0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, //
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, //
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, //
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, //
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, //
    0x07, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07, 0x07, //
    0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0a, 0x09, 0x08, // Black's back rank
];

const VERSION_1_02: [u8; 5] = [0x93, 0x00, 0x05, 0x01, 0x02];
const SERIAL_12345: [u8; 8] = [0x91, 0x00, 0x08, 0x31, 0x32, 0x33, 0x34, 0x35];

/// Everything the session wants written, concatenated.
fn written(session: &mut DgtSession) -> Vec<u8> {
    std::iter::from_fn(|| session.poll_transmit())
        .flatten()
        .collect()
}

/// Every event the session has.
fn events(session: &mut DgtSession) -> Vec<SessionEvent> {
    std::iter::from_fn(|| session.poll_event()).collect()
}

/// A session connected at 0, its handshake written, the start position dumped at 30.
fn started(config: SessionConfig) -> DgtSession {
    let mut session = DgtSession::new(config);
    session.connect(0);
    session.handle_bytes(10, &VERSION_1_02);
    session.handle_bytes(20, &SERIAL_12345);
    session.handle_bytes(30, &START_DUMP);
    written(&mut session);
    events(&mut session);
    session
}

/// A config whose keep-alive and silence stay out of the way.
fn quiet_link() -> SessionConfig {
    SessionConfig {
        keepalive_ms: 60_000,
        silence_ms: 120_000,
        ..SessionConfig::default()
    }
}

fn sensor(kind: SensorKind) -> SessionEvent {
    SessionEvent::Sensor(kind)
}

fn start_snapshot() -> SessionEvent {
    sensor(SensorKind::Snapshot(Box::new(BoardSnapshot::identified(
        &Board::default(),
    ))))
}

#[test]
fn the_handshake_asks_version_serial_and_board_then_updates() {
    let mut session = DgtSession::new(SessionConfig::default());
    assert_eq!(session.poll_timeout(), None, "no link, nothing to wait for");
    session.connect(0);
    assert_eq!(written(&mut session), vec![0x4d, 0x45, 0x42]);
    session.handle_bytes(10, &VERSION_1_02);
    assert_eq!(events(&mut session), vec![]);
    session.handle_bytes(20, &SERIAL_12345);
    assert_eq!(
        events(&mut session),
        vec![SessionEvent::Identified {
            version: (1, 2),
            serial: Some("12345".to_string())
        }]
    );
    assert_eq!(written(&mut session), Vec::<u8>::new());
    session.handle_bytes(30, &START_DUMP);
    assert_eq!(written(&mut session), vec![0x4b]);
    assert_eq!(events(&mut session), vec![start_snapshot()]);
    session.handle_bytes(40, &START_DUMP);
    assert_eq!(
        written(&mut session),
        Vec::<u8>::new(),
        "updates are asked for once"
    );
    session.handle_bytes(50, &SERIAL_12345);
    assert_eq!(
        events(&mut session),
        vec![],
        "identified once; a dump showing what the session knows is not reported again"
    );
}

#[test]
fn a_board_without_a_serial_is_identified_by_its_dump() {
    let mut session = DgtSession::new(SessionConfig::default());
    session.connect(0);
    session.handle_bytes(10, &VERSION_1_02);
    session.handle_bytes(20, &START_DUMP);
    assert_eq!(
        events(&mut session),
        vec![
            start_snapshot(),
            SessionEvent::Identified {
                version: (1, 2),
                serial: None
            }
        ]
    );
}

#[test]
fn field_updates_become_lifts_and_places() {
    let mut session = started(quiet_link());
    session.handle_bytes(100, &[0x8e, 0x00, 0x05, 0x34, 0x00]); // e2 empty
    session.handle_bytes(300, &[0x8e, 0x00, 0x05, 0x24, 0x01]); // e4 white pawn
    session.handle_bytes(400, &[0x8e, 0x00, 0x05, 0x34, 0x00]); // e2 empty again
    session.handle_bytes(500, &[0x8e, 0x00, 0x05, 0x24, 0x01]); // e4 white pawn again
    session.handle_bytes(600, &[0x8e, 0x00, 0x05, 0x1c, 0x0d]); // e5 magic piece
    let pawn = Some(Color::White.pawn());
    assert_eq!(
        events(&mut session),
        vec![
            sensor(SensorKind::Lift {
                square: Square::E2,
                piece: pawn
            }),
            sensor(SensorKind::Place {
                square: Square::E4,
                piece: pawn
            }),
        ]
    );
    assert_eq!(session.board().piece_at(Square::E4), pawn);
    assert_eq!(session.board().piece_at(Square::E2), None);
}

#[test]
fn a_capture_may_arrive_without_the_emptying() {
    let mut session = started(quiet_link());
    // The white queen (d1) lands on d7, taking the black pawn: only the arrival is reported.
    session.handle_bytes(100, &[0x8e, 0x00, 0x05, 0x3b, 0x00]); // d1 empty
    session.handle_bytes(300, &[0x8e, 0x00, 0x05, 0x0b, 0x06]); // d7 white queen
    let queen = Some(Color::White.queen());
    assert_eq!(
        events(&mut session),
        vec![
            sensor(SensorKind::Lift {
                square: Square::D1,
                piece: queen
            }),
            sensor(SensorKind::Place {
                square: Square::D7,
                piece: queen
            }),
        ]
    );
}

#[test]
fn a_turned_board_is_detected_and_undone() {
    let mut session = started(quiet_link());
    session.handle_bytes(100, &ROTATED_START_DUMP);
    assert_eq!(
        events(&mut session),
        vec![SessionEvent::Rotated, start_snapshot()]
    );
    assert!(session.is_rotated());
    // The board's d7 (number 0x0b) is the players' e2; its d6 (0x13) is their e3.
    session.handle_bytes(200, &[0x8e, 0x00, 0x05, 0x0b, 0x00]);
    session.handle_bytes(300, &[0x8e, 0x00, 0x05, 0x13, 0x01]);
    session.handle_bytes(400, &ROTATED_START_DUMP);
    let pawn = Some(Color::White.pawn());
    assert_eq!(
        events(&mut session),
        vec![
            sensor(SensorKind::Lift {
                square: Square::E2,
                piece: pawn
            }),
            sensor(SensorKind::Place {
                square: Square::E3,
                piece: pawn
            }),
            start_snapshot(),
        ],
        "Rotated is reported once"
    );
    session.handle_bytes(500, &START_DUMP);
    assert_eq!(events(&mut session), vec![start_snapshot()]);
    assert!(!session.is_rotated());
    session.handle_bytes(600, &[0x8e, 0x00, 0x05, 0x0b, 0x00]); // d7 for real now
    assert_eq!(
        events(&mut session),
        vec![sensor(SensorKind::Lift {
            square: Square::D7,
            piece: Some(Color::Black.pawn())
        })]
    );
}

/// A BWTIME report with both clocks at 0:05:00 and the status byte `status`.
fn bwtime(status: u8) -> [u8; 10] {
    [0x8d, 0x00, 0x0a, 0x00, 0x05, 0x00, 0x00, 0x05, 0x00, status]
}

fn five_minutes_report(status: u8) -> ClockReport {
    let time = ClockTime {
        hours: 0,
        minutes: 5,
        seconds: 0,
        flag: 0,
    };
    ClockReport::from_status(time, time, status)
}

#[test]
fn a_lever_change_is_a_press_by_the_player_on_the_low_side() {
    let mut session = started(quiet_link());
    // Running, left to move (0x08), lever low on the right: the first report is a reference.
    session.handle_bytes(100, &bwtime(0x09));
    // The left player pushes the lever down: right high (0x02), right to move (0x10).
    session.handle_bytes(200, &bwtime(0x13));
    // Same lever: no press.
    session.handle_bytes(300, &bwtime(0x13));
    // The right player presses back, the clock having stopped meanwhile (0x12).
    session.handle_bytes(350, &bwtime(0x12));
    session.handle_bytes(400, &bwtime(0x08));
    assert_eq!(
        events(&mut session),
        vec![
            SessionEvent::ClockTimes(five_minutes_report(0x09)),
            SessionEvent::ClockTimes(five_minutes_report(0x13)),
            SessionEvent::ClockPressed {
                side: ClockSide::Left,
                running_before: true
            },
            SessionEvent::ClockTimes(five_minutes_report(0x13)),
            SessionEvent::ClockTimes(five_minutes_report(0x12)),
            SessionEvent::ClockTimes(five_minutes_report(0x08)),
            SessionEvent::ClockPressed {
                side: ClockSide::Right,
                running_before: false
            },
        ]
    );
}

/// A check: updates asked for again (SEND_UPDATE_NICE), then a dump (SEND_BRD).
const CHECK: [u8; 2] = [0x4b, 0x42];

#[test]
fn checks_are_periodic_and_a_dump_that_differs_is_reported() {
    let mut session = started(SessionConfig::default());
    // The link opened at 0: checks every 1000 ms, whatever the traffic.
    assert_eq!(session.poll_timeout(), Some(1000));
    session.handle_timeout(999);
    assert_eq!(written(&mut session), Vec::<u8>::new());
    session.handle_bytes(500, &SERIAL_12345);
    session.handle_timeout(1000);
    assert_eq!(written(&mut session), CHECK.to_vec());
    session.handle_bytes(1010, &START_DUMP);
    assert_eq!(
        events(&mut session),
        vec![],
        "the same board: nothing to report"
    );
    assert_eq!(session.poll_timeout(), Some(2000));
    session.handle_timeout(2000);
    assert_eq!(written(&mut session), CHECK.to_vec());
    // The board restarted unseen and e2-e4 was never reported: the dump shows it. Squares
    // count from a8 (0): e2 is 6 * 8 + 4 = 0x34, e4 is 4 * 8 + 4 = 0x24; after 3 header bytes.
    let mut e4_dump = START_DUMP;
    e4_dump[3 + 0x34] = 0x00;
    e4_dump[3 + 0x24] = 0x01;
    let mut moved = Board::default();
    let pawn = moved.remove_piece_at(Square::E2).expect("a pawn");
    moved.set_piece_at(Square::E4, pawn);
    session.handle_bytes(2010, &e4_dump);
    assert_eq!(
        events(&mut session),
        vec![sensor(SensorKind::Snapshot(Box::new(
            BoardSnapshot::identified(&moved)
        )))]
    );
}

#[test]
fn an_unanswered_request_is_a_lost_board_and_the_next_byte_resynchronises() {
    let mut session = started(SessionConfig::default());
    session.handle_timeout(1000);
    assert_eq!(written(&mut session), CHECK.to_vec());
    // The check's dump is owed by 1000 + 500.
    assert_eq!(session.poll_timeout(), Some(1500));
    session.handle_timeout(1500);
    assert_eq!(events(&mut session), vec![SessionEvent::Lost]);
    session.handle_timeout(1900);
    assert_eq!(events(&mut session), vec![], "once");
    // Any byte: the board is back, and a full dump is asked for, reported whatever it shows.
    session.handle_bytes(1950, &SERIAL_12345);
    assert_eq!(events(&mut session), vec![SessionEvent::Back]);
    assert_eq!(written(&mut session), vec![0x42]);
    session.handle_bytes(1960, &START_DUMP);
    assert_eq!(events(&mut session), vec![start_snapshot()]);
    assert_eq!(written(&mut session), vec![0x4b], "updates asked for again");
}

#[test]
fn silence_is_reported_once_and_ends_with_any_byte() {
    let mut session = DgtSession::new(SessionConfig::default());
    session.connect(0);
    written(&mut session);
    // The handshake's requests at 0: lost at 500, silent at 2000.
    session.handle_timeout(500);
    assert_eq!(events(&mut session), vec![SessionEvent::Lost]);
    session.handle_timeout(1000);
    assert_eq!(written(&mut session), CHECK.to_vec());
    assert_eq!(session.poll_timeout(), Some(2000));
    session.handle_timeout(2000);
    assert_eq!(events(&mut session), vec![SessionEvent::Gone]);
    assert_eq!(written(&mut session), CHECK.to_vec(), "checks go on");
    session.handle_timeout(3000);
    session.handle_timeout(4000);
    assert_eq!(events(&mut session), vec![]);
    assert_eq!(written(&mut session), [CHECK, CHECK].concat());
    // One stray byte is life (and, alone, a corrupt report once a message follows).
    session.handle_bytes(4500, &[0x00]);
    assert_eq!(events(&mut session), vec![SessionEvent::Back]);
    assert_eq!(
        written(&mut session),
        vec![0x42],
        "a full dump is asked for"
    );
    // That request is owed by 5000, then silent at 4500 + 2000.
    session.handle_timeout(5000);
    assert_eq!(events(&mut session), vec![SessionEvent::Lost]);
    assert_eq!(written(&mut session), CHECK.to_vec());
    assert_eq!(session.poll_timeout(), Some(6000));
    session.handle_timeout(6500);
    assert_eq!(events(&mut session), vec![SessionEvent::Gone]);
}

const BEEP: [u8; 6] = [0x2b, 0x04, 0x03, 0x0b, 0x10, 0x00];
const END_DISPLAY: [u8; 5] = [0x2b, 0x03, 0x03, 0x03, 0x00];
const CLOCK_ACK: [u8; 10] = [0x8d, 0x00, 0x0a, 0x0a, 0x0b, 0x00, 0x00, 0x00, 0x00, 0x00];

#[test]
fn clock_commands_wait_for_their_acknowledgement() {
    let mut session = started(quiet_link());
    session.send_clock(100, ClockCommand::Beep { duration: 0x10 });
    session.send_clock(110, ClockCommand::EndDisplay);
    assert_eq!(
        written(&mut session),
        BEEP.to_vec(),
        "one outstanding at a time"
    );
    assert_eq!(session.poll_timeout(), Some(2100));
    session.handle_bytes(500, &CLOCK_ACK);
    assert_eq!(written(&mut session), END_DISPLAY.to_vec());
    assert_eq!(session.poll_timeout(), Some(2500));
    session.handle_bytes(600, &CLOCK_ACK);
    assert_eq!(written(&mut session), Vec::<u8>::new());
    assert_eq!(
        session.poll_timeout(),
        Some(60_000),
        "only the check is left: 60 000 ms after the link opened at 0"
    );
    assert_eq!(events(&mut session), vec![]);
}

#[test]
fn an_unacknowledged_clock_command_is_resent_then_dropped() {
    let mut session = started(quiet_link());
    session.send_clock(100, ClockCommand::Beep { duration: 0x10 });
    session.send_clock(100, ClockCommand::EndDisplay);
    assert_eq!(written(&mut session), BEEP.to_vec());
    session.handle_timeout(2099);
    assert_eq!(written(&mut session), Vec::<u8>::new());
    session.handle_timeout(2100);
    assert_eq!(written(&mut session), BEEP.to_vec());
    session.handle_timeout(4100);
    assert_eq!(written(&mut session), BEEP.to_vec());
    assert_eq!(events(&mut session), vec![]);
    session.handle_timeout(6100);
    assert_eq!(
        events(&mut session),
        vec![SessionEvent::ClockCommandFailed(ClockCommand::Beep {
            duration: 0x10
        })]
    );
    assert_eq!(
        written(&mut session),
        END_DISPLAY.to_vec(),
        "the next one goes"
    );
    session.handle_timeout(8100);
    session.handle_timeout(10_100);
    session.handle_timeout(12_100);
    assert_eq!(written(&mut session), [END_DISPLAY, END_DISPLAY].concat());
    assert_eq!(
        events(&mut session),
        vec![SessionEvent::ClockCommandFailed(ClockCommand::EndDisplay)]
    );
    session.handle_timeout(20_000);
    assert_eq!(
        written(&mut session),
        Vec::<u8>::new(),
        "no storm after giving up"
    );
}

#[test]
fn a_clock_command_in_flight_is_sent_again_after_a_reconnect() {
    let mut session = started(quiet_link());
    let set = ClockCommand::SetAndRun {
        left: ClockSetting {
            hours: 0,
            minutes: 5,
            seconds: 0,
        },
        right: ClockSetting {
            hours: 0,
            minutes: 5,
            seconds: 0,
        },
        run: ClockRun::Neither,
    };
    session.send_clock(100, set);
    let set_bytes = vec![
        0x2b, 0x0a, 0x03, 0x0a, 0x00, 0x05, 0x00, 0x00, 0x05, 0x00, 0x04, 0x00,
    ];
    assert_eq!(written(&mut session), set_bytes);
    session.connect(1000);
    assert_eq!(
        written(&mut session),
        [vec![0x4d, 0x45, 0x42], set_bytes].concat()
    );
    // The handshake's requests, sent at 1000, are owed an answer by 1000 + 500 (answer_ms).
    assert_eq!(session.poll_timeout(), Some(1500));
}

#[test]
fn a_clock_command_before_the_link_waits_for_it() {
    let mut session = DgtSession::new(quiet_link());
    session.send_clock(0, ClockCommand::Version);
    assert_eq!(written(&mut session), Vec::<u8>::new());
    session.connect(50);
    assert_eq!(
        written(&mut session),
        vec![0x4d, 0x45, 0x42, 0x2b, 0x03, 0x03, 0x09, 0x00]
    );
}

#[test]
fn corrupt_bytes_are_reported_and_the_stream_recovers() {
    let mut session = started(quiet_link());
    let mut bytes = vec![0x01, 0x02];
    bytes.extend([0x8e, 0x00, 0x05, 0x34]); // cut short by the next message
    bytes.extend([0x8e, 0x00, 0x05, 0x34, 0x00]); // e2 empty
    let halves = bytes.split_at(5);
    session.handle_bytes(100, halves.0);
    session.handle_bytes(150, halves.1);
    assert_eq!(
        events(&mut session),
        vec![
            SessionEvent::Corrupt {
                dropped: vec![0x01, 0x02]
            },
            SessionEvent::Corrupt {
                dropped: vec![0x8e, 0x00, 0x05, 0x34]
            },
            sensor(SensorKind::Lift {
                square: Square::E2,
                piece: Some(Color::White.pawn())
            }),
        ]
    );
}

#[test]
fn a_reconnect_drops_partial_input_and_repeats_the_handshake() {
    let mut session = started(quiet_link());
    session.handle_bytes(100, &[0x8e, 0x00, 0x05]);
    session.connect(200);
    assert_eq!(written(&mut session), vec![0x4d, 0x45, 0x42]);
    session.handle_bytes(210, &VERSION_1_02);
    session.handle_bytes(220, &START_DUMP);
    assert_eq!(written(&mut session), vec![0x4b]);
    assert_eq!(
        events(&mut session),
        vec![
            start_snapshot(),
            SessionEvent::Identified {
                version: (1, 2),
                serial: None
            }
        ]
    );
}

/// The time of `poll_timeout`, which must be set.
fn next_timeout(session: &DgtSession) -> Millis {
    session.poll_timeout().unwrap_or(Millis::MAX)
}

#[test]
fn the_timeout_is_the_earliest_deadline() {
    let mut session = started(SessionConfig::default());
    // The link opened at 0: the first check is due at 1000.
    assert_eq!(next_timeout(&session), 1000);
    // A clock command is owed no answer by the board, but is resent at 200 + 2000.
    session.send_clock(200, ClockCommand::Version);
    assert_eq!(next_timeout(&session), 1000);
    session.handle_timeout(1000);
    written(&mut session);
    // The check's dump is owed by 1500, before the resend.
    assert_eq!(next_timeout(&session), 1500);
    session.handle_bytes(1100, &START_DUMP);
    assert_eq!(
        next_timeout(&session),
        2000,
        "the next check, before the resend at 2200"
    );
    session.handle_bytes(1200, &CLOCK_ACK);
    assert_eq!(next_timeout(&session), 2000);
}

/// The session's presses were one: the right player's, on a running clock (the press after the
/// unseen one in the tests below).
fn assert_only_the_right_player_s_press(session: &mut DgtSession) {
    let presses: Vec<SessionEvent> = events(session)
        .into_iter()
        .filter(|event| matches!(event, SessionEvent::ClockPressed { .. }))
        .collect();
    assert_eq!(
        presses,
        vec![SessionEvent::ClockPressed {
            side: ClockSide::Right,
            running_before: true
        }]
    );
}

#[test]
fn a_lever_moved_while_the_board_was_not_heard_is_no_press() {
    let mut session = started(SessionConfig::default());
    session.handle_bytes(100, &bwtime(0x09));
    // The board stops answering (the check at 1000 is owed by 1500)...
    session.handle_timeout(1000);
    session.handle_timeout(1500);
    // ... and is back: the lever has moved meanwhile. That press was not seen; the next one is.
    session.handle_bytes(2000, &bwtime(0x13));
    session.handle_bytes(3000, &bwtime(0x08));
    assert_only_the_right_player_s_press(&mut session);
}

#[test]
fn a_lever_moved_across_a_dump_that_shows_missed_changes_is_no_press() {
    let mut session = started(SessionConfig::default());
    session.handle_bytes(10, &START_DUMP);
    session.handle_bytes(100, &bwtime(0x09));
    // The board restarted unseen (for less than a lost answer): e2-e4 and a press were never
    // reported. The check's dump shows the move; the next clock report, the lever moved.
    let mut e4_dump = START_DUMP;
    e4_dump[3 + 0x34] = 0x00;
    e4_dump[3 + 0x24] = 0x01;
    session.handle_bytes(1010, &e4_dump);
    session.handle_bytes(1100, &bwtime(0x13));
    session.handle_bytes(2000, &bwtime(0x08));
    assert_only_the_right_player_s_press(&mut session);
}

/// The presses among the session's events: the sides that pressed.
fn presses(session: &mut DgtSession) -> Vec<ClockSide> {
    events(session)
        .into_iter()
        .filter_map(|event| match event {
            SessionEvent::ClockPressed { side, .. } => Some(side),
            _ => None,
        })
        .collect()
}

/// A set-and-run of five minutes each, `run` running.
fn set_and_run(run: ClockRun) -> ClockCommand {
    let five = ClockSetting {
        hours: 0,
        minutes: 5,
        seconds: 0,
    };
    ClockCommand::SetAndRun {
        left: five,
        right: five,
        run,
    }
}

#[test]
fn a_lever_the_host_s_set_and_run_raised_is_no_press_a_later_change_is() {
    let mut session = started(quiet_link());
    // Running, left to move, the lever up on the left.
    session.handle_bytes(100, &bwtime(0x09));
    // The host sets the right running; a DGT 3000 acknowledges and reports its lever up on
    // the right (0x02), as if the left player had pressed: the host's doing.
    session.send_clock(200, set_and_run(ClockRun::Right));
    session.handle_bytes(250, &CLOCK_ACK);
    session.handle_bytes(260, &bwtime(0x13));
    assert_eq!(presses(&mut session), [], "the host's setting");
    // The window ended with that report: the right player's press is one.
    session.handle_bytes(1_000, &bwtime(0x09));
    assert_eq!(presses(&mut session), [ClockSide::Right]);
    // The host sets the right running again, and a DGT XL's lever stays up on the left: the
    // first report after the acknowledgement ends the window, and the left player's press
    // after it is one.
    session.send_clock(2_000, set_and_run(ClockRun::Right));
    session.handle_bytes(2_050, &CLOCK_ACK);
    session.handle_bytes(2_060, &bwtime(0x11));
    session.handle_bytes(3_000, &bwtime(0x13));
    assert_eq!(presses(&mut session), [ClockSide::Left]);
}

#[test]
fn a_lever_change_against_the_host_s_setting_is_a_press() {
    let mut session = started(quiet_link());
    session.handle_bytes(100, &bwtime(0x13));
    // The host sets the right running while the lever is up on the right; before the
    // acknowledgement, the right player presses (the lever up on the left): a press.
    session.send_clock(200, set_and_run(ClockRun::Right));
    session.handle_bytes(220, &bwtime(0x09));
    session.handle_bytes(250, &CLOCK_ACK);
    assert_eq!(presses(&mut session), [ClockSide::Right]);
}

#[test]
fn each_set_and_run_keeps_its_window_when_the_next_is_sent_before_its_report() {
    let mut session = started(quiet_link());
    session.handle_bytes(100, &bwtime(0x09));
    // Two settings queued: the right running, then the left. The first is acknowledged and
    // the second sent at once, before the clock reports what the first did.
    session.send_clock(200, set_and_run(ClockRun::Right));
    session.send_clock(200, set_and_run(ClockRun::Left));
    session.handle_bytes(250, &CLOCK_ACK);
    session.handle_bytes(260, &bwtime(0x13));
    session.handle_bytes(300, &CLOCK_ACK);
    session.handle_bytes(310, &bwtime(0x09));
    assert_eq!(presses(&mut session), [], "both the host's settings");
    // Both windows are over: a press is a press.
    session.handle_bytes(1_000, &bwtime(0x13));
    assert_eq!(presses(&mut session), [ClockSide::Left]);
}
