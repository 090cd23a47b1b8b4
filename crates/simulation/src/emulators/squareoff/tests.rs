//! The emulated Square Off driven with the host's own session.

use shakmaty::{Board, Color, KnownOutcome, Square};

use super::*;
use crate::emulation::{ScriptStart, Unplug};
use crate::emulators::hall::Change;
use crate::emulators::hall::ScriptEvent;
use crate::emulators::testing::{e4_script, run_from};
use touchmove_boards::live::{Feedback, LinkEvent};
use touchmove_boards::squareoff::SquareOffSession;
use touchmove_core::sensor::SensorKind;

/// [`run_from`] the start.
fn run(
    session: &mut SquareOffSession,
    board: &mut SquareOffBoardEmulator,
    until: Millis,
    feedback: Vec<(Millis, Feedback)>,
) -> Vec<LinkEvent> {
    run_from(session, board, 0, until, feedback)
}

fn sensors(events: Vec<LinkEvent>) -> Vec<SensorKind> {
    events
        .into_iter()
        .filter_map(|event| match event {
            LinkEvent::Sensor(kind) => Some(kind),
            _ => None,
        })
        .collect()
}

#[test]
fn the_host_s_session_identifies_the_board_and_sees_the_move_as_a_lift_and_a_place() {
    let mut session = SquareOffSession::new();
    let mut config = EmulatorConfig::new(e4_script());
    config.playing.start = ScriptStart::OnHost;
    let mut board = SquareOffBoardEmulator::new(config);
    let events = run(&mut session, &mut board, 3000, Vec::new());
    assert!(events.contains(&LinkEvent::Identified {
        what: "Square Off".to_owned(),
        serial: None,
    }));
    let sensors = sensors(events);
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
fn the_squares_the_host_lights_are_lit_and_the_result_it_shows_is_kept() {
    let mut session = SquareOffSession::new();
    let mut board = SquareOffBoardEmulator::new(EmulatorConfig::new(e4_script()));
    let show = Feedback::Show {
        from: Square::E7,
        to: Square::E5,
        text: "e5".to_owned(),
    };
    let ended = Feedback::Ended {
        outcome: KnownOutcome::Decisive {
            winner: Color::White,
        },
    };
    run(
        &mut session,
        &mut board,
        700,
        vec![(500, show), (600, ended)],
    );
    assert_eq!(board.leds(), [Square::E7, Square::E5]);
    assert_eq!(board.result(), Some("wt"));
    let notices: Vec<Notice> = std::iter::from_fn(|| board.poll_notice()).collect();
    assert!(
        !notices
            .iter()
            .any(|notice| matches!(notice, Notice::NotUnderstood(_))),
        "{notices:?}"
    );
}

#[test]
fn unplugged_it_says_nothing_and_plugged_in_again_the_host_reads_what_changed_meanwhile() {
    let mut session = SquareOffSession::new();
    let mut config = EmulatorConfig::new(e4_script());
    // Switched off from 800 ms to 5000 ms: both changes happen unheard; the check at 1000 ms
    // goes unanswered, the link is gone 3 s later.
    config.unplug = Some(Unplug {
        at: 800,
        duration: 4200,
    });
    let mut board = SquareOffBoardEmulator::new(config);
    let events = run(&mut session, &mut board, 4500, Vec::new());
    assert!(events.contains(&LinkEvent::Lost), "{events:?}");
    assert!(events.contains(&LinkEvent::Gone), "{events:?}");
    // Connected again once the board is back (as the runner reconnects).
    let mut events = events;
    events.extend(run_from(&mut session, &mut board, 5100, 7000, Vec::new()));
    let sensors = sensors(events);
    let mut after = Board::default().occupied();
    after.discard(Square::E2);
    after.add(Square::E4);
    // No change was reported: the answer after reconnecting tells them.
    assert!(
        !sensors
            .iter()
            .any(|kind| matches!(kind, SensorKind::Lift { .. } | SensorKind::Place { .. })),
        "{sensors:?}"
    );
    assert!(matches!(
        sensors.last(),
        Some(SensorKind::Snapshot(snapshot)) if snapshot.occupied == after
    ));
}

#[test]
fn a_promotion_button_of_the_script_is_the_player_s_choice_at_the_host() {
    let mut script = e4_script();
    script.events.push(ScriptEvent {
        t: 1600,
        change: Change::Button(touchmove_firmware_protocol::Button::PromoteRook),
    });
    let mut board = SquareOffBoardEmulator::new(EmulatorConfig::new(script));
    let mut session = SquareOffSession::new();
    let events = run(&mut session, &mut board, 3000, Vec::new());
    assert!(
        events
            .iter()
            .all(|event| !matches!(event, LinkEvent::Sensor(SensorKind::Promote(_)))),
        "{events:?}"
    );
    let notices: Vec<Notice> = std::iter::from_fn(|| board.poll_notice()).collect();
    assert!(
        notices.contains(&Notice::ChosenAtHost(shakmaty::Role::Rook)),
        "{notices:?}"
    );
}

#[test]
fn hands_that_heed_the_lights_set_the_board_back_to_the_screen_s_position_and_move_again() {
    let mut session = SquareOffSession::new();
    let mut config = EmulatorConfig::new(e4_script());
    config.set_back_after = Some(2000);
    let mut board = SquareOffBoardEmulator::new(config);
    // The host's record is the start position; at 2000 ms (e2-e4 made) it lights what differs.
    board.screen(0, Board::default().occupied());
    let mismatch = Feedback::Mismatch {
        squares: vec![Square::E2, Square::E4],
    };
    let events = run(&mut session, &mut board, 8000, vec![(2000, mismatch)]);
    let changes: Vec<SensorKind> = sensors(events)
        .into_iter()
        .filter(|kind| !matches!(kind, SensorKind::Snapshot(_)))
        .collect();
    let lift = |square| SensorKind::Lift {
        square,
        piece: None,
    };
    let place = |square| SensorKind::Place {
        square,
        piece: None,
    };
    // e2-e4, then (2 s after the lights) e4 emptied and e2 filled, then e2-e4 again.
    assert_eq!(
        changes,
        [
            lift(Square::E2),
            place(Square::E4),
            lift(Square::E4),
            place(Square::E2),
            lift(Square::E2),
            place(Square::E4),
        ]
    );
}

#[test]
fn hands_that_do_not_heed_the_lights_go_on_as_their_script_says() {
    let mut session = SquareOffSession::new();
    let mut board = SquareOffBoardEmulator::new(EmulatorConfig::new(e4_script()));
    board.screen(0, Board::default().occupied());
    let mismatch = Feedback::Mismatch {
        squares: vec![Square::E2, Square::E4],
    };
    let events = run(&mut session, &mut board, 8000, vec![(2000, mismatch)]);
    let changes = sensors(events)
        .into_iter()
        .filter(|kind| !matches!(kind, SensorKind::Snapshot(_)))
        .count();
    assert_eq!(changes, 2);
}

#[test]
fn a_person_sets_the_board_back_again_only_once_the_host_has_followed_it() {
    let lit = |squares: Vec<Square>| Feedback::Mismatch { squares };
    let changes = |feedback: Vec<(Millis, Feedback)>| {
        let mut session = SquareOffSession::new();
        let mut config = EmulatorConfig::new(e4_script());
        config.set_back_after = Some(2000);
        let mut board = SquareOffBoardEmulator::new(config);
        board.screen(0, Board::default().occupied());
        let events = run(&mut session, &mut board, 20_000, feedback);
        sensors(events)
            .into_iter()
            .filter(|kind| !matches!(kind, SensorKind::Snapshot(_)))
            .count()
    };
    // e2-e4 (2 changes), set back and made again at 4000 (4 more); lit again at 9000 with no
    // resync between: the person waits for the host.
    let again_unfollowed = vec![
        (2000, lit(vec![Square::E2, Square::E4])),
        (9000, lit(vec![Square::E4])),
    ];
    assert_eq!(changes(again_unfollowed), 6);
    // Followed (the lights out) and lit again: set back once more (e4 to e2, then e2-e4).
    let again_followed = vec![
        (2000, lit(vec![Square::E2, Square::E4])),
        (8000, Feedback::Resynced),
        (9000, lit(vec![Square::E2, Square::E4])),
    ];
    assert_eq!(changes(again_followed), 10);
}
