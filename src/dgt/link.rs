//! The DGT session as a live board link: what the live runner needs of it.

use super::session::{DgtSession, SessionConfig, SessionEvent};
use crate::live::{BoardSession, LinkEvent};
use crate::sensor::Millis;

/// A DGT board behind the live runner.
#[derive(Debug)]
pub struct DgtLink {
    session: DgtSession,
}

impl DgtLink {
    /// A link with the session configured by `config`.
    pub fn new(config: SessionConfig) -> DgtLink {
        DgtLink {
            session: DgtSession::new(config),
        }
    }

    /// The DGT session (its clock report, its board, whether it is turned round).
    pub fn session(&self) -> &DgtSession {
        &self.session
    }

    /// What a session event means to the runner, if anything (clock reports are kept by the
    /// session for later use).
    fn translate(event: SessionEvent) -> Option<LinkEvent> {
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
            SessionEvent::ClockTimes(_) => None,
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

    fn poll_event(&mut self) -> Option<LinkEvent> {
        while let Some(event) = self.session.poll_event() {
            if let Some(link_event) = DgtLink::translate(event) {
                return Some(link_event);
            }
        }
        None
    }
}
