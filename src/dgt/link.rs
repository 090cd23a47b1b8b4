//! The DGT session as a live board link: what the live runner needs of it.

use super::command::{ClockCommand, ClockRun, ClockSetting, ClockText};
use super::session::{DgtSession, SessionConfig, SessionEvent};
use crate::event::{EventKind, GameEvent};
use crate::live::{BoardSession, LinkEvent, LiveEvent};
use crate::sensor::Millis;

/// A DGT board behind the live runner.
#[derive(Debug)]
pub struct DgtLink {
    session: DgtSession,
    clock_start: Option<Millis>,
}

impl DgtLink {
    /// A link with the session configured by `config`.
    pub fn new(config: SessionConfig) -> DgtLink {
        DgtLink {
            session: DgtSession::new(config),
            clock_start: None,
        }
    }

    /// When the game starts, set the clock plugged into the board to `each_ms` per player and
    /// start White's time (a DGT XL or DGT 3000 acknowledges; a board without a clock does not,
    /// and the command is given up after its tries).
    pub fn set_clock_at_start(mut self, each_ms: Option<Millis>) -> DgtLink {
        self.clock_start = each_ms;
        self
    }

    /// The clock command that sets both players to `each_ms` and runs White's side.
    fn set_and_run(&self, each_ms: Millis) -> ClockCommand {
        let total_seconds = each_ms / 1000;
        let setting = ClockSetting {
            hours: u8::try_from(total_seconds / 3600).unwrap_or(u8::MAX),
            minutes: ((total_seconds / 60) % 60) as u8,
            seconds: (total_seconds % 60) as u8,
        };
        let run = if self.session.config().white_on_left_of_clock {
            ClockRun::Left
        } else {
            ClockRun::Right
        };
        ClockCommand::SetAndRun {
            left: setting,
            right: setting,
            run,
        }
    }

    /// The DGT session (its clock report, its board, whether it is turned round).
    pub fn session(&self) -> &DgtSession {
        &self.session
    }

    /// What a session event means to the runner, if anything.
    fn translate(&self, event: SessionEvent) -> Option<LinkEvent> {
        match event {
            SessionEvent::Identified { version, serial } => {
                let serial = serial.map(|s| format!(", serial {s}")).unwrap_or_default();
                Some(LinkEvent::Identified(format!(
                    "DGT board, version {}.{:02}{serial}",
                    version.0, version.1
                )))
            }
            SessionEvent::Sensor(kind) => Some(LinkEvent::Sensor(kind)),
            SessionEvent::Silent => Some(LinkEvent::Silent),
            SessionEvent::Corrupt { dropped } => {
                tracing::debug!(
                    bytes = dropped.len(),
                    "corrupt bytes from the board dropped"
                );
                None
            }
            SessionEvent::Rotated => Some(LinkEvent::Notice(
                "the board stands turned round (Black on the connector side): squares are mapped"
                    .to_owned(),
            )),
            SessionEvent::ClockCommandFailed(command) => Some(LinkEvent::Notice(format!(
                "the clock never acknowledged {command:?}: given up"
            ))),
            SessionEvent::ClockTimes(report) => report
                .reading(self.session.config().white_on_left_of_clock)
                .map(LinkEvent::ClockReading),
        }
    }
}

impl Default for DgtLink {
    fn default() -> DgtLink {
        DgtLink::new(SessionConfig::default())
    }
}

impl BoardSession for DgtLink {
    fn connect(&mut self, now: Millis) {
        self.session.connect(now);
    }

    fn handle_bytes(&mut self, now: Millis, bytes: &[u8]) {
        self.session.handle_bytes(now, bytes);
    }

    fn handle_timeout(&mut self, now: Millis) {
        self.session.handle_timeout(now);
    }

    fn poll_timeout(&self) -> Option<Millis> {
        self.session.poll_timeout()
    }

    fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.session.poll_transmit()
    }

    fn announce(&mut self, now: Millis, event: &LiveEvent) {
        match event {
            LiveEvent::Started { .. } => {
                if let Some(each_ms) = self.clock_start {
                    let command = self.set_and_run(each_ms);
                    self.session.send_clock(now, command);
                }
            }
            LiveEvent::Decision(GameEvent {
                kind: EventKind::Result(result),
                ..
            }) => {
                let text = ClockText::new(&result.result);
                self.session
                    .send_clock(now, ClockCommand::Display { text, beep: true });
            }
            _ => {}
        }
    }

    fn poll_event(&mut self) -> Option<LinkEvent> {
        while let Some(event) = self.session.poll_event() {
            if let Some(link_event) = self.translate(event) {
                return Some(link_event);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dgt::command::{HostCommand, encode};

    fn sent(link: &mut DgtLink) -> Vec<u8> {
        std::iter::from_fn(|| link.poll_transmit())
            .flatten()
            .collect()
    }

    #[test]
    fn the_clock_is_set_when_the_game_starts() {
        let mut link = DgtLink::default().set_clock_at_start(Some(5 * 60_000 + 30_000));
        link.connect(0);
        sent(&mut link);
        link.announce(10, &LiveEvent::Started { t: 10 });
        let five_thirty = ClockSetting {
            hours: 0,
            minutes: 5,
            seconds: 30,
        };
        let expected = encode(&HostCommand::Clock(ClockCommand::SetAndRun {
            left: five_thirty,
            right: five_thirty,
            run: ClockRun::Left,
        }));
        assert_eq!(sent(&mut link), expected);
    }

    #[test]
    fn without_a_time_control_the_clock_is_left_alone() {
        let mut link = DgtLink::default();
        link.connect(0);
        sent(&mut link);
        link.announce(10, &LiveEvent::Started { t: 10 });
        assert_eq!(sent(&mut link), Vec::<u8>::new());
    }
}
