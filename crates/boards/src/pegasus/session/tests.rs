use shakmaty::{Bitboard, Board, Square};

use super::*;

const CHECK_MS: Millis = CHECK_TIMES.every_ms;
const ANSWER_MS: Millis = CHECK_TIMES.answer_ms;
const SILENCE_MS: Millis = CHECK_TIMES.silence_ms;
use crate::dgt::wire::message::encode;
use crate::dgt::wire::protocol::{command, index_from_square, message};
use touchmove_core::sensor::{BoardSnapshot, SensorKind};

/// The dump of a Pegasus whose occupied squares are `occupied`: `01` on each, `00` elsewhere.
fn dump(occupied: Bitboard) -> Vec<u8> {
    let mut codes = [0u8; 64];
    for square in occupied {
        if let Some(code) = codes.get_mut(usize::from(index_from_square(square))) {
            *code = 0x01;
        }
    }
    encode::board_dump(&codes)
}

fn start() -> Bitboard {
    Board::default().occupied()
}

fn events(session: &mut PegasusSession) -> Vec<LinkEvent> {
    std::iter::from_fn(|| session.poll_event()).collect()
}

fn sent(session: &mut PegasusSession) -> Vec<Vec<u8>> {
    std::iter::from_fn(|| session.poll_transmit()).collect()
}

fn connected() -> PegasusSession {
    let mut session = PegasusSession::new();
    session.connect(0);
    session.handle_bytes(20, &dump(start()));
    session
}

#[test]
fn connecting_resets_asks_who_it_is_turns_updates_on_and_asks_the_dump_and_battery() {
    let mut session = PegasusSession::new();
    session.connect(0);
    assert_eq!(
        sent(&mut session),
        [
            vec![command::RESET],
            vec![command::RETURN_LONG_SERIALNR],
            vec![command::SEND_VERSION],
            vec![command::SEND_UPDATE_BRD],
            vec![command::SEND_BRD],
            vec![command::SEND_BATTERY_STATUS],
            vec![0x60, 0x02, 0x00, 0x00],
        ]
    );
    session.handle_bytes(10, &encode::long_serial_nr(b"P004512345"));
    session.handle_bytes(11, &encode::version(1, 0));
    assert_eq!(
        events(&mut session),
        [LinkEvent::Identified {
            what: "DGT Pegasus, version 1.00".to_owned(),
            serial: Some("P004512345".to_owned())
        }]
    );
}

#[test]
fn the_dump_is_an_occupancy_snapshot_and_the_updates_lifts_and_placements_of_no_known_piece() {
    let mut session = PegasusSession::new();
    session.connect(0);
    session.handle_bytes(20, &dump(start()));
    assert_eq!(
        events(&mut session),
        [LinkEvent::Sensor(SensorKind::Snapshot(Box::new(
            BoardSnapshot {
                occupied: start(),
                pieces: Board::empty()
            }
        )))]
    );
    // e2 (DGT square 52, 0x34) emptied, e4 (36, 0x24) filled: `01`, not a piece's code.
    session.handle_bytes(500, &encode::field_update(0x34, 0x00));
    session.handle_bytes(800, &encode::field_update(0x24, 0x01));
    assert_eq!(
        events(&mut session),
        [
            LinkEvent::Sensor(SensorKind::Lift {
                square: Square::E2,
                piece: None
            }),
            LinkEvent::Sensor(SensorKind::Place {
                square: Square::E4,
                piece: None
            }),
        ]
    );
}

#[test]
fn a_check_s_dump_that_agrees_says_nothing_and_one_that_differs_is_a_full_report() {
    let mut session = connected();
    events(&mut session);
    sent(&mut session);
    assert_eq!(session.poll_timeout(), Some(CHECK_MS));
    session.handle_timeout(CHECK_MS);
    assert_eq!(
        sent(&mut session),
        [vec![command::SEND_UPDATE_BRD], vec![command::SEND_BRD]]
    );
    session.handle_bytes(CHECK_MS + 20, &dump(start()));
    assert_eq!(events(&mut session), []);
    // A lift the board never reported shows at the next check.
    session.handle_timeout(2 * CHECK_MS);
    let mut lifted = start();
    lifted.discard(Square::G1);
    session.handle_bytes(2 * CHECK_MS + 20, &dump(lifted));
    assert!(matches!(
        events(&mut session).as_slice(),
        [LinkEvent::Sensor(SensorKind::Snapshot(snapshot))] if snapshot.occupied == lifted
    ));
}

#[test]
fn an_unanswered_check_is_a_lost_board_then_the_link_gone() {
    let mut session = connected();
    events(&mut session);
    session.handle_timeout(CHECK_MS);
    assert_eq!(session.poll_timeout(), Some(CHECK_MS + ANSWER_MS));
    session.handle_timeout(CHECK_MS + ANSWER_MS);
    assert_eq!(events(&mut session), [LinkEvent::Lost]);
    let mut now = CHECK_MS + ANSWER_MS;
    while let Some(at) = session.poll_timeout() {
        now = at;
        session.handle_timeout(now);
        if events(&mut session).contains(&LinkEvent::Gone) {
            break;
        }
    }
    assert_eq!(now, CHECK_MS + SILENCE_MS);
}

#[test]
fn the_battery_is_said_in_percent_when_it_changes() {
    let mut session = connected();
    events(&mut session);
    let battery =
        |percent: u8| encode::message(message::BATTERY_STATUS, &[percent, 0, 0, 0, 0, 0, 0, 0, 2]);
    session.handle_bytes(30, &battery(88));
    session.handle_bytes(40, &battery(88));
    assert_eq!(
        events(&mut session),
        [LinkEvent::Battery {
            percent: 88,
            charging: false
        }]
    );
}

#[test]
fn the_lights_show_the_move_to_carry_out_and_go_out_once_it_is_made() {
    let mut session = connected();
    sent(&mut session);
    session.handle_feedback(
        100,
        &Feedback::Show {
            from: Square::G8,
            to: Square::F6,
            text: "Nf6".to_owned(),
        },
    );
    // g8 is DGT square 6, f6 21 (0x15).
    assert_eq!(
        sent(&mut session),
        [vec![0x60, 0x07, 0x05, 0x03, 0x00, 0x02, 0x06, 0x15, 0x00]]
    );
    session.handle_feedback(
        900,
        &Feedback::Moved {
            by: shakmaty::Color::Black,
            from: Square::G8,
            to: Square::F6,
        },
    );
    assert_eq!(sent(&mut session), [vec![0x60, 0x02, 0x00, 0x00]]);
}
