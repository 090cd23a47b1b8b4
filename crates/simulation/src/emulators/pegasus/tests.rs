//! The emulated Pegasus driven with the host's own session.

use shakmaty::{Board, Square};

use super::*;
use crate::emulation::ScriptStart;
use crate::emulators::hall::{Change, ScriptEvent};
use crate::emulators::testing::{e4_script, run_from};
use touchmove_boards::live::{Feedback, LinkEvent};
use touchmove_boards::pegasus::PegasusSession;
use touchmove_core::sensor::SensorKind;

/// The host's session and the emulator from the start until `until`, `feedback` given at its
/// time.
fn run(
    session: &mut PegasusSession,
    board: &mut PegasusBoardEmulator,
    until: Millis,
    feedback: Option<(Millis, Feedback)>,
) -> Vec<LinkEvent> {
    run_from(session, board, 0, until, feedback.into_iter().collect())
}

#[test]
fn the_host_s_session_identifies_the_board_and_sees_the_move_as_a_lift_and_a_place() {
    let mut session = PegasusSession::new();
    let mut config = EmulatorConfig::new(e4_script());
    config.playing.start = ScriptStart::OnHost;
    let mut board = PegasusBoardEmulator::new(config);
    let events = run(&mut session, &mut board, 3000, None);
    assert!(events.contains(&LinkEvent::Identified {
        what: "DGT Pegasus, version 1.00".to_owned(),
        serial: Some("P000000001".to_owned()),
    }));
    assert!(events.contains(&LinkEvent::Battery {
        percent: BATTERY_PERCENT,
        charging: false
    }));
    let sensors: Vec<SensorKind> = events
        .into_iter()
        .filter_map(|event| match event {
            LinkEvent::Sensor(kind) => Some(kind),
            _ => None,
        })
        .collect();
    assert!(matches!(
        sensors.first(),
        Some(SensorKind::Snapshot(snapshot)) if snapshot.occupied == Board::default().occupied()
    ));
    assert_eq!(
        sensors.get(1..),
        Some(
            &[
                SensorKind::Lift {
                    square: Square::E2,
                    piece: None
                },
                SensorKind::Place {
                    square: Square::E4,
                    piece: None
                }
            ][..]
        )
    );
}

#[test]
fn the_squares_the_host_lights_are_lit() {
    let mut session = PegasusSession::new();
    let mut board = PegasusBoardEmulator::new(EmulatorConfig::new(e4_script()));
    let show = Feedback::Show {
        from: Square::E7,
        to: Square::E5,
        text: "e5".to_owned(),
    };
    run(&mut session, &mut board, 600, Some((500, show)));
    assert_eq!(board.leds(), [Square::E7, Square::E5]);
}

#[test]
fn a_promotion_button_of_the_script_is_the_player_s_choice_at_the_host() {
    let mut script = e4_script();
    script.events.push(ScriptEvent {
        t: 1600,
        change: Change::Button(touchmove_firmware_protocol::Button::PromoteKnight),
    });
    script.events.push(ScriptEvent {
        t: 1700,
        change: Change::Button(touchmove_firmware_protocol::Button::ClockWhite),
    });
    let mut board = PegasusBoardEmulator::new(EmulatorConfig::new(script));
    let mut session = PegasusSession::new();
    let events = run(&mut session, &mut board, 3000, None);
    // The board reports no button: only the squares.
    assert!(
        events
            .iter()
            .all(|event| !matches!(event, LinkEvent::Sensor(SensorKind::Promote(_)))),
        "{events:?}"
    );
    let notices: Vec<Notice> = std::iter::from_fn(|| board.poll_notice()).collect();
    let chosen: Vec<&Notice> = notices
        .iter()
        .filter(|notice| matches!(notice, Notice::ChosenAtHost(_)))
        .collect();
    assert_eq!(
        chosen,
        [&Notice::ChosenAtHost(shakmaty::Role::Knight)],
        "{notices:?}"
    );
}
