//! What the emulated occupancy boards' tests share: a script, and the host's session and an
//! emulated board fed each other's bytes on simulated time.

use shakmaty::{Board, Square};

use super::hall::{Change, Script, ScriptEvent};
use crate::emulation::EmulatedBoard;
use touchmove_boards::live::{BoardSession, Feedback, LinkEvent};
use touchmove_core::sensor::Millis;
use touchmove_firmware_protocol::Action;
use touchmove_firmware_protocol::Square as HallSquare;

/// e2 lifted at 1000 ms, e4 filled at 1500 ms.
pub(crate) fn e4_script() -> Script {
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

/// The host's session connected at `from` and the emulator, each fed what the other sent,
/// until `until`; each feedback given at its time.
pub(crate) fn run_from(
    session: &mut dyn BoardSession,
    board: &mut dyn EmulatedBoard,
    from: Millis,
    until: Millis,
    mut feedback: Vec<(Millis, Feedback)>,
) -> Vec<LinkEvent> {
    let mut events = Vec::new();
    let mut now = from;
    board.handle_timeout(now);
    session.connect(now);
    loop {
        while let Some(at) = feedback.iter().position(|(at, _)| *at <= now) {
            let (at, given) = feedback.remove(at);
            session.handle_feedback(at, &given);
        }
        while let Some(bytes) = session.poll_transmit() {
            board.handle_bytes(now, &bytes);
        }
        while let Some(bytes) = board.poll_transmit() {
            session.handle_bytes(now, &bytes);
        }
        events.extend(std::iter::from_fn(|| session.poll_event()));
        let next = [session.poll_timeout(), board.poll_timeout()]
            .into_iter()
            .chain(feedback.iter().map(|(at, _)| Some(*at)))
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
