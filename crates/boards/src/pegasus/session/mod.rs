//! The DGT Pegasus on the host's side, sans-IO: bytes and the time in, bytes and
//! [`LinkEvent`]s out.
//!
//! What the session does:
//!
//! - on [`connect`](BoardSession::connect): reset, the version and the long serial number
//!   asked (the board is identified by them), the board dump asked, field updates turned on
//!   (`44`: the board only, it has no clock), the battery asked;
//! - the board senses occupancy: a dump is an occupancy snapshot (no piece identified), a
//!   field update a lift (`00`) or a placement; the first dump after connecting, and one that
//!   differs from what the updates said, is a full report, so nothing the board did not
//!   report is lost;
//! - checks ([`CheckTimes::QUIET_BOARD`]): every second the dump is asked again (the updates turned
//!   on again first: a board switched off and on reports nothing by itself), every 250 ms while it
//!   does not answer; a request unanswered for 500 ms is [`LinkEvent::Lost`], for 3 s
//!   [`LinkEvent::Gone`];
//! - the battery is asked every [`BATTERY_MS`] and said when it changes;
//! - [`handle_feedback`](BoardSession::handle_feedback) lights the squares of a move to carry
//!   out, then the squares that differ from the game until the board matches it; nothing is lit
//!   while it matches.
//!
//! No developer key is sent: the public descriptions disagree on whether the board needs one,
//! and the only key they show is another application's.

#[cfg(test)]
mod tests;

use std::collections::VecDeque;

use shakmaty::{Bitboard, Square};

use super::wire::{battery_percent, encode_leds};
use crate::dgt::wire::command::{HostCommand, encode};
use crate::dgt::wire::message::decoder::Corrupt;
use crate::dgt::wire::message::decoder::DgtDecoder;
use crate::dgt::wire::message::{BoardDump, BoardMessage, Occupant};
use crate::live::{
    BoardSession, CheckTimes, Checks, Feedback, GuideLights, LinkEvent, OccupancyReports,
    SessionOptions,
};
use touchmove_core::decode::StreamDecoder;
use touchmove_core::sensor::{Millis, SensorKind};

/// How often the battery is asked.
pub const BATTERY_MS: Millis = 60_000;

/// The times of the board's checks.
const CHECK_TIMES: CheckTimes = CheckTimes::QUIET_BOARD;

/// A DGT Pegasus behind the live runner.
#[derive(Debug)]
pub struct PegasusSession {
    decoder: DgtDecoder,
    checks: Checks,
    /// The occupied squares as the reports said.
    reports: OccupancyReports,
    /// The version, once the board gave it, and whether the board was identified.
    version: Option<(u8, u8)>,
    serial: Option<String>,
    identified: bool,
    battery_at: Millis,
    battery: Option<u8>,
    /// What the LEDs are to show, and what they show.
    leds: GuideLights,
    transmit: VecDeque<Vec<u8>>,
    events: VecDeque<LinkEvent>,
}

impl Default for PegasusSession {
    fn default() -> PegasusSession {
        PegasusSession::new()
    }
}

impl PegasusSession {
    /// A session that has not connected yet.
    pub fn new() -> PegasusSession {
        PegasusSession {
            decoder: DgtDecoder::new(),
            checks: Checks::new(CHECK_TIMES),
            reports: OccupancyReports::new(),
            version: None,
            serial: None,
            identified: false,
            battery_at: 0,
            battery: None,
            leds: GuideLights::default(),
            transmit: VecDeque::new(),
            events: VecDeque::new(),
        }
    }

    fn send(&mut self, now: Millis, command: &HostCommand) {
        if command.expects_answer() {
            self.checks.asked(now);
        }
        self.transmit.push_back(encode(command));
    }

    /// Asks for the dump, the updates turned on again first.
    fn check(&mut self, now: Millis) {
        self.checks.checked(now);
        self.send(now, &HostCommand::SendUpdateBoard);
        self.send(now, &HostCommand::SendBoard);
    }

    fn ask_battery(&mut self, now: Millis) {
        self.battery_at = now;
        self.send(now, &HostCommand::SendBatteryStatus);
    }

    fn take_decoded(&mut self, now: Millis) {
        while let Some(decoded) = self.decoder.poll() {
            match decoded {
                Ok(message) => {
                    self.heard(now);
                    self.message(message);
                }
                Err(Corrupt { dropped, reason }) => {
                    self.events.push_back(LinkEvent::Notice(format!(
                        "{} bytes from the board dropped: {reason}",
                        dropped.len()
                    )));
                }
            }
        }
    }

    fn heard(&mut self, now: Millis) {
        if self.checks.heard(now) {
            // What happened meanwhile is read from the next dump as a whole.
            self.reports.forget();
            self.events.push_back(LinkEvent::Back);
            self.check(now);
        }
    }

    fn message(&mut self, message: BoardMessage) {
        match message {
            BoardMessage::BoardDump(dump) => self.dump(&dump),
            BoardMessage::FieldUpdate { square, occupant } => self.update(square, occupant),
            BoardMessage::Version { main, sub } => {
                self.version = Some((main, sub));
                self.identify();
            }
            BoardMessage::LongSerialNumber(serial) | BoardMessage::SerialNumber(serial) => {
                self.serial = Some(serial.trim().to_owned());
            }
            BoardMessage::BatteryStatus(payload) => {
                if let Some(percent) = battery_percent(&payload)
                    && self.battery.replace(percent) != Some(percent)
                {
                    self.events.push_back(LinkEvent::Battery {
                        percent,
                        charging: false,
                    });
                }
            }
            BoardMessage::Trademark(_)
            | BoardMessage::BusAddress(_)
            | BoardMessage::Clock(_)
            | BoardMessage::ClockAck(_)
            | BoardMessage::Unknown { .. } => {}
        }
    }

    /// Identifies the board once its version came (with its serial number if that came first).
    fn identify(&mut self) {
        if std::mem::replace(&mut self.identified, true) {
            return;
        }
        let (main, sub) = self.version.unwrap_or_default();
        self.events.push_back(LinkEvent::Identified {
            what: format!("DGT Pegasus, version {main}.{sub:02}"),
            serial: self.serial.clone(),
        });
    }

    /// A dump: a full report the first time, and whenever it differs from the updates.
    fn dump(&mut self, dump: &BoardDump) {
        let occupied: Bitboard = Square::ALL
            .into_iter()
            .filter(|&square| dump.occupant(square) != Occupant::Empty)
            .collect();
        let sensed = self.reports.whole(occupied);
        self.sensed(sensed);
    }

    /// A field update: a lift or a placement (no piece is identified).
    fn update(&mut self, square: Square, occupant: Occupant) {
        let sensed = self.reports.changed(square, occupant != Occupant::Empty);
        self.sensed(sensed);
    }

    fn sensed(&mut self, sensed: Option<SensorKind>) {
        if let Some(kind) = sensed {
            self.events.push_back(LinkEvent::Sensor(kind));
        }
    }

    fn show(&mut self) {
        if let Some(squares) = self.leds.to_show() {
            self.transmit.push_back(encode_leds(&squares));
        }
    }

    fn battery_due_at(&self) -> Option<Millis> {
        self.checks
            .connected()
            .then(|| self.battery_at.saturating_add(BATTERY_MS))
    }
}

/// The registry's session constructor (a Pegasus has no clock).
pub(crate) fn new_session(_options: &SessionOptions) -> Box<dyn BoardSession + Send> {
    Box::new(PegasusSession::new())
}

impl BoardSession for PegasusSession {
    fn connect(&mut self, now: Millis) {
        self.decoder = DgtDecoder::new();
        self.checks.opened(now);
        self.identified = false;
        self.version = None;
        self.reports.forget();
        self.transmit.clear();
        self.leds.forget_shown();
        self.send(now, &HostCommand::Reset);
        self.send(now, &HostCommand::ReturnLongSerialNumber);
        self.send(now, &HostCommand::SendVersion);
        self.check(now);
        self.ask_battery(now);
        self.show();
    }

    fn handle_bytes(&mut self, now: Millis, bytes: &[u8]) {
        self.decoder.push(bytes);
        self.take_decoded(now);
    }

    fn handle_timeout(&mut self, now: Millis) {
        let expired = self.checks.expire(now);
        if expired.gone {
            self.events.push_back(LinkEvent::Gone);
            return;
        }
        if expired.lost {
            self.events.push_back(LinkEvent::Lost);
        }
        if expired.check {
            self.check(now);
        }
        if self.battery_due_at().is_some_and(|at| at <= now) {
            self.ask_battery(now);
        }
    }

    fn poll_timeout(&self) -> Option<Millis> {
        [self.checks.poll_timeout(), self.battery_due_at()]
            .into_iter()
            .flatten()
            .min()
    }

    fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.transmit.pop_front()
    }

    fn poll_event(&mut self) -> Option<LinkEvent> {
        self.events.pop_front()
    }

    fn handle_feedback(&mut self, _now: Millis, feedback: &Feedback) {
        if self.leds.take(feedback) {
            self.show();
        }
    }
}
