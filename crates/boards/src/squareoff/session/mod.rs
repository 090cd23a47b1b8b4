//! The Square Off on the host's side, sans-IO: bytes and the time in, bytes and [`LinkEvent`]s
//! out.
//!
//! What the session does:
//!
//! - on [`connect`](BoardSession::connect): a game opened (`!#*`), the lights put out, the
//!   occupancy asked;
//! - the board senses occupancy: its answer is an occupancy snapshot (no piece identified), a
//!   change (`0#e2u*`, `0#e4d*`) a lift or a placement; the first answer after connecting, and
//!   one that differs from what the changes said, is a full report, so nothing the board did
//!   not report is lost;
//! - checks ([`CheckTimes::QUIET_BOARD`]): every second the occupancy is asked again, every 250 ms
//!   while the board does not answer; a request unanswered for 500 ms is [`LinkEvent::Lost`], for 3
//!   s [`LinkEvent::Gone`];
//! - [`handle_feedback`](BoardSession::handle_feedback) lights the squares of a move to carry
//!   out, then the squares that differ from the game until the board matches it; nothing is lit
//!   while it matches; a game's end is shown (`27#wt*`, `27#bl*`, `27#dw*`).
//!
//! The arm is not driven (its commands are not confirmed, see the module's sources): a move
//! to carry out is lit, and the player's hands carry it out.

#[cfg(test)]
mod tests;

use std::collections::VecDeque;

use shakmaty::{Color, KnownOutcome};

use super::wire::{
    BoardMessage, Message, MessageDecoder, OCCUPANCY, OCCUPANCY_ASKED, OPEN, RESULT, lights,
};
use crate::live::{
    BoardSession, CheckTimes, Checks, Feedback, GuideLights, LinkEvent, OccupancyReports,
    SessionOptions,
};
use crate::squareoff::wire::Corrupt;
use touchmove_core::decode::StreamDecoder;
use touchmove_core::sensor::Millis;

/// The times of the board's checks.
const CHECK_TIMES: CheckTimes = CheckTimes::QUIET_BOARD;

/// A Square Off board behind the live runner.
#[derive(Debug)]
pub struct SquareOffSession {
    decoder: MessageDecoder,
    checks: Checks,
    /// The occupied squares as the reports said.
    reports: OccupancyReports,
    /// Whether the board was identified since connecting.
    identified: bool,
    /// What the lights are to show, and what they show.
    leds: GuideLights,
    transmit: VecDeque<Vec<u8>>,
    events: VecDeque<LinkEvent>,
}

impl Default for SquareOffSession {
    fn default() -> SquareOffSession {
        SquareOffSession::new()
    }
}

impl SquareOffSession {
    /// A session that has not connected yet.
    pub fn new() -> SquareOffSession {
        SquareOffSession {
            decoder: MessageDecoder::new(),
            checks: Checks::new(CHECK_TIMES),
            reports: OccupancyReports::new(),
            identified: false,
            leds: GuideLights::default(),
            transmit: VecDeque::new(),
            events: VecDeque::new(),
        }
    }

    fn send(&mut self, message: &Message) {
        self.transmit.push_back(message.to_host_bytes());
    }

    /// Asks for the occupancy.
    fn check(&mut self, now: Millis) {
        self.checks.checked(now);
        self.send(&Message::new(OCCUPANCY, OCCUPANCY_ASKED));
    }

    fn take_decoded(&mut self, now: Millis) {
        while let Some(decoded) = self.decoder.poll() {
            match decoded {
                Ok(message) => match BoardMessage::read(message) {
                    Ok(message) => {
                        self.heard(now);
                        self.message(message);
                    }
                    Err(reason) => {
                        self.notice(format!("a message from the board dropped: {reason}"));
                    }
                },
                Err(Corrupt { dropped, reason }) => self.notice(format!(
                    "{} bytes from the board dropped: {reason}",
                    dropped.len()
                )),
            }
        }
    }

    fn notice(&mut self, text: String) {
        self.events.push_back(LinkEvent::Notice(text));
    }

    fn heard(&mut self, now: Millis) {
        if self.checks.heard(now) {
            // What happened meanwhile is read from the next answer as a whole.
            self.reports.forget();
            self.events.push_back(LinkEvent::Back);
            self.check(now);
        }
    }

    fn message(&mut self, message: BoardMessage) {
        let sensed = match message {
            BoardMessage::Occupancy(occupied) => {
                self.identify();
                self.reports.whole(occupied)
            }
            BoardMessage::Lifted(square) => self.reports.changed(square, false),
            BoardMessage::Placed(square) => self.reports.changed(square, true),
            BoardMessage::Other(_) => None,
        };
        if let Some(kind) = sensed {
            self.events.push_back(LinkEvent::Sensor(kind));
        }
    }

    /// Identifies the board at its first answer (it tells no version nor serial number).
    fn identify(&mut self) {
        if !std::mem::replace(&mut self.identified, true) {
            self.events.push_back(LinkEvent::Identified {
                what: "Square Off".to_owned(),
                serial: None,
            });
        }
    }

    fn show(&mut self) {
        if let Some(squares) = self.leds.to_show() {
            self.send(&lights(&squares));
        }
    }
}

/// The body of the message that shows `outcome` on the board.
fn result_body(outcome: KnownOutcome) -> &'static str {
    match outcome {
        KnownOutcome::Decisive {
            winner: Color::White,
        } => "wt",
        KnownOutcome::Decisive {
            winner: Color::Black,
        } => "bl",
        KnownOutcome::Draw => "dw",
    }
}

/// The registry's session constructor (a Square Off has no clock).
pub(crate) fn new_session(_options: &SessionOptions) -> Box<dyn BoardSession + Send> {
    Box::new(SquareOffSession::new())
}

impl BoardSession for SquareOffSession {
    fn connect(&mut self, now: Millis) {
        self.decoder = MessageDecoder::new();
        self.checks.opened(now);
        self.identified = false;
        self.reports.forget();
        self.transmit.clear();
        self.leds.forget_shown();
        self.send(&Message::new(OPEN, ""));
        self.show();
        self.check(now);
    }

    fn handle_bytes(&mut self, now: Millis, bytes: &[u8]) {
        self.decoder.push(bytes);
        self.take_decoded(now);
    }

    fn handle_timeout(&mut self, now: Millis) {
        let expired = self.checks.expire(now);
        if expired.gone {
            self.events.push_back(LinkEvent::Gone);
        }
        if expired.lost {
            self.events.push_back(LinkEvent::Lost);
        }
        if expired.check {
            self.check(now);
        }
    }

    fn poll_timeout(&self) -> Option<Millis> {
        self.checks.poll_timeout()
    }

    fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.transmit.pop_front()
    }

    fn poll_event(&mut self) -> Option<LinkEvent> {
        self.events.pop_front()
    }

    fn handle_feedback(&mut self, _now: Millis, feedback: &Feedback) {
        if let Feedback::Ended { outcome } = feedback {
            self.send(&Message::new(RESULT, result_body(*outcome)));
        }
        if self.leds.take(feedback) {
            self.show();
        }
    }
}
