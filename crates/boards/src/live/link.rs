//! What every board protocol session offers the live runner.

use super::feedback::Feedback;
use super::game::ResumePoint;
use touchmove_core::clock::ClockReading;
use touchmove_core::sensor::{Millis, SensorKind};

/// What a board link reports, whatever its protocol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkEvent {
    /// The board answered and said what it is: `what`, in words, and its serial number when
    /// the protocol gives one (a DGT board's, a Hall board's id), by which tools that know
    /// the board find it (LiveChess's `serialnr`).
    Identified {
        /// What the board is, in words.
        what: String,
        /// The board's serial number, if known.
        serial: Option<String>,
    },
    /// A sensor report, stamped by the runner with the time it arrived.
    Sensor(SensorKind),
    /// A report of the clock plugged into the board, stamped likewise.
    ClockReading(ClockReading),
    /// A request went unanswered: the board is lost, it has stopped answering (the port may
    /// still be open: a Bluetooth link dropping, a board switched off). The stream's `link`
    /// event says `lost`.
    Lost,
    /// The board answers again after [`LinkEvent::Lost`]; a full report follows. The stream's
    /// `link` event says `back`.
    Back,
    /// The link itself is gone (unplugged, switched off): the board is lost, and the runner
    /// reconnects.
    Gone,
    /// The board's battery, as it reported it (when the level or the charging changed).
    Battery {
        /// The level, 0 to 100 %.
        percent: u8,
        /// Whether the board is charging.
        charging: bool,
    },
    /// Something worth a diagnostic line (corrupt bytes dropped, a turned board noticed).
    Notice(String),
    /// The session learnt what it needs to know of this very board (a Certabo board's chips),
    /// as text to keep for the board's next session: given back through
    /// [`BoardSession::recall`].
    Learnt(String),
}

/// A host-side board protocol, sans-IO: bytes and the time in, bytes and events out.
pub trait BoardSession {
    /// The link was (re)opened at `now`: start the handshake.
    fn connect(&mut self, now: Millis);
    /// Bytes arrived from the board.
    fn handle_bytes(&mut self, now: Millis, bytes: &[u8]);
    /// A deadline from [`BoardSession::poll_timeout`] passed.
    fn handle_timeout(&mut self, now: Millis);
    /// When [`BoardSession::handle_timeout`] must next be called.
    #[must_use]
    fn poll_timeout(&self) -> Option<Millis>;
    /// Bytes to write to the board.
    #[must_use]
    fn poll_transmit(&mut self) -> Option<Vec<u8>>;
    /// The next thing the board reported.
    #[must_use]
    fn poll_event(&mut self) -> Option<LinkEvent>;
    /// What the game tells the board at `now`, for a board that shows it (a clock's display and
    /// times, LEDs); a board that cannot show it ignores it.
    fn handle_feedback(&mut self, _now: Millis, _feedback: &Feedback) {}
    /// The game goes on from a recording (`watch --resume`), where `point` says it stands.
    fn resume(&mut self, _point: &ResumePoint) {}
    /// What an earlier session learnt of this board ([`LinkEvent::Learnt`]), kept by the
    /// runner: taken before the link opens (a text it cannot read is said, and learnt again).
    /// A board that learns nothing ignores it.
    fn recall(&mut self, _learnt: &str) {}

    /// Why the board's own clock could not keep times the arbiter gives or sets at the host
    /// (a clock the players run, which the host cannot set so that it stays right), if it
    /// could not: the action is then refused rather than undone by the clock's next report.
    /// `None` for a board whose clock the host sets, or that has none (the game's clock then
    /// keeps them).
    fn clock_refusal(&self) -> Option<String> {
        None
    }
}

/// A boxed session is a session: the registry hands sessions out boxed.
impl<S: BoardSession + ?Sized> BoardSession for Box<S> {
    fn connect(&mut self, now: Millis) {
        (**self).connect(now);
    }
    fn handle_bytes(&mut self, now: Millis, bytes: &[u8]) {
        (**self).handle_bytes(now, bytes);
    }
    fn handle_timeout(&mut self, now: Millis) {
        (**self).handle_timeout(now);
    }
    fn poll_timeout(&self) -> Option<Millis> {
        (**self).poll_timeout()
    }
    fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        (**self).poll_transmit()
    }
    fn poll_event(&mut self) -> Option<LinkEvent> {
        (**self).poll_event()
    }
    fn handle_feedback(&mut self, now: Millis, feedback: &Feedback) {
        (**self).handle_feedback(now, feedback);
    }
    fn resume(&mut self, point: &ResumePoint) {
        (**self).resume(point);
    }
    fn recall(&mut self, learnt: &str) {
        (**self).recall(learnt);
    }
    fn clock_refusal(&self) -> Option<String> {
        (**self).clock_refusal()
    }
}
