//! The emulated Pegasus driven with the host's own session.

use shakmaty::{Board, Square};

use super::*;
use touchmove_boards::live::{BoardSession, Feedback, LinkEvent};
use touchmove_boards::pegasus::PegasusSession;
use touchmove_core::sensor::SensorKind;
use touchmove_firmware_protocol::Square as HallSquare;

/// e2 lifted at 1000 ms, e4 filled at 1500 ms.
fn e4_script() -> Script {
    let square =
        |square: Square| HallSquare::new(u8::from(square)).unwrap_or_else(|| unreachable!());
    Script {
        start: u64::from(Board::default().occupied()),
        events: vec![
            ScriptEvent {
                t: 1000,
                change: Change::Square {
                    square: square(Square::E2),
                    action: Action::Lifted,
                },
            },
            ScriptEvent {
                t: 1500,
                change: Change::Square {
                    square: square(Square::E4),
                    action: Action::Placed,
                },
            },
        ],
        lap: None,
    }
}

/// The host's session and the emulator, each fed what the other sent, until `until`; the
/// feedback given at `feedback.0`.
fn run(
    session: &mut PegasusSession,
    board: &mut PegasusBoardEmulator,
    until: Millis,
    mut feedback: Option<(Millis, Feedback)>,
) -> Vec<LinkEvent> {
    let mut events = Vec::new();
    let mut now = 0;
    session.connect(now);
    loop {
        if let Some((at, given)) = feedback.take_if(|(at, _)| *at <= now) {
            session.handle_feedback(at, &given);
        }
        while let Some(bytes) = session.poll_transmit() {
            board.handle_bytes(now, &bytes);
        }
        while let Some(bytes) = board.poll_transmit() {
            session.handle_bytes(now, &bytes);
        }
        events.extend(std::iter::from_fn(|| session.poll_event()));
        let next = [
            session.poll_timeout(),
            board.poll_timeout(),
            feedback.as_ref().map(|(at, _)| *at),
        ]
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
