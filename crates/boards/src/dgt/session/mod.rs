//! The host side of a DGT board link, sans-IO: bytes and time in, bytes to write and events out.
//!
//! [`DgtSession`] follows the style of quinn-proto's `Connection`: it never reads a clock, a
//! port or a file. Tell it the link opened with [`connect`](DgtSession::connect), feed it what
//! the board sent with [`handle_bytes`](DgtSession::handle_bytes), ask when it next needs
//! waking with [`poll_timeout`](DgtSession::poll_timeout) and wake it with
//! [`handle_timeout`](DgtSession::handle_timeout); after each call, write out what
//! [`poll_transmit`](DgtSession::poll_transmit) gives and handle what
//! [`poll_event`](DgtSession::poll_event) gives, until each returns `None`.
//!
//! What it does on the link:
//! - handshake on every (re)connect: SEND_VERSION (which also switches the board out of bus
//!   mode), RETURN_SERIALNR, SEND_BRD; once the dump arrives, SEND_UPDATE_NICE;
//! - checks: every `keepalive_ms`, whatever else the link carries, SEND_UPDATE_NICE then
//!   SEND_BRD. A board that restarted with its port still open (a Bluetooth link dropping, a
//!   board switched off and on) answers requests but reports nothing by itself: the check puts
//!   it back into update mode, and a dump that differs from what the session knows is reported
//!   as a snapshot, so a change the board never reported is not lost;
//! - a request unanswered for `answer_ms` is [`SessionEvent::Lost`] (once); the next
//!   byte is [`SessionEvent::Back`] and starts a resynchronisation (a full dump, reported
//!   whatever it shows, then SEND_UPDATE_NICE); a request unanswered for `silence_ms` is
//!   [`SessionEvent::Gone`] (once per silence): the runner reopens the port;
//! - rotation: a dump of the start position turned round (Black on the connector side) sets
//!   the rotated flag, a dump of it the right way round clears it; while set, every square is
//!   mapped with [`Square::rotate_180`];
//! - clock commands: one outstanding at a time, resent after `clock_resend_ms` without an
//!   acknowledgement, given up after `clock_tries` sends;
//! - presses: a change of the clock's lever bit between two reports is a press, but for one
//!   the host made itself: some clocks (a DGT 3000) raise the lever bit on the side a
//!   set-and-run sets running, as a press would. From the sending of such a command to the
//!   first report after its acknowledgement, a lever that rose on the side set running is the
//!   host's setting, no press (commands sent one after another each keep their window) (a player's press that made the same change in that moment is
//!   not seen; the move it completed is decided by the board as any move is).

mod clock_press;
mod clock_queue;
pub mod clock_sides;
pub mod followed_clock;
pub mod host_clock;
pub mod link;
pub mod orientation;
pub(crate) mod probe;
#[cfg(test)]
mod tests;

use std::collections::VecDeque;

use shakmaty::{Board, Square};

use crate::dgt::session::clock_press::pressed_side;
use crate::dgt::session::clock_queue::{ClockQueue, ClockStep};
use crate::dgt::session::orientation::{Orientation, start_position_orientation};
use crate::dgt::wire::clock::ClockReport;
use crate::dgt::wire::command::{ClockCommand, ClockRun, HostCommand, encode};
use crate::dgt::wire::message::decoder::Corrupt;
use crate::dgt::wire::message::decoder::DgtDecoder;
use crate::dgt::wire::message::{BoardDump, BoardMessage, Occupant};
use crate::live::{Liveness, Silence};
use touchmove_core::clock::ClockSide;
use touchmove_core::decode::StreamDecoder;
use touchmove_core::sensor::{BoardSnapshot, Millis, SensorKind};

/// The session's settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionConfig {
    /// Check on the board this often (ms): updates re-armed and a dump compared.
    pub keepalive_ms: Millis,
    /// The board has stopped answering when a request goes unanswered this long (ms).
    pub answer_ms: Millis,
    /// The link is gone when a request goes unanswered this long (ms): the port is reopened.
    pub silence_ms: Millis,
    /// Resend a clock command not acknowledged within this (ms).
    pub clock_resend_ms: Millis,
    /// Give a clock command up after this many sends.
    pub clock_tries: u32,
}

impl Default for SessionConfig {
    fn default() -> SessionConfig {
        SessionConfig {
            keepalive_ms: 1000,
            answer_ms: 500,
            silence_ms: 2000,
            clock_resend_ms: 2000,
            clock_tries: 3,
        }
    }
}

/// What the session reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionEvent {
    /// The board answered the handshake: its version, and its serial number if it gave one
    /// (once per connection).
    Identified {
        /// Main and sub version.
        version: (u8, u8),
        /// The serial number (long or short), if received before the board dump.
        serial: Option<String>,
    },
    /// A sensor report, squares already un-rotated.
    Sensor(SensorKind),
    /// A clock time report, as received.
    ClockTimes(ClockReport),
    /// The clock's lever moved: the player on `side` pressed.
    ClockPressed {
        /// The side of the player who pressed.
        side: ClockSide,
        /// Whether the clock was running before the press.
        running_before: bool,
    },
    /// A request went unanswered for `answer_ms`: the board is lost, it has stopped answering
    /// (once, until it answers again).
    Lost,
    /// The board answers again after [`SessionEvent::Lost`]; a full dump follows.
    Back,
    /// A request went unanswered for `silence_ms`: the link is gone (once per silence).
    Gone,
    /// Bytes from the board that were dropped as malformed.
    Corrupt {
        /// Exactly the bytes dropped.
        dropped: Vec<u8>,
    },
    /// The board stands turned round (Black on the connector side); from now on its squares
    /// are mapped.
    Rotated,
    /// A clock command was never acknowledged and has been given up.
    ClockCommandFailed(ClockCommand),
}

/// What one connection has learnt so far.
#[derive(Debug, Clone)]
struct Link {
    liveness: Liveness,
    awaiting_dump: bool,
    version: Option<(u8, u8)>,
    serial: Option<String>,
    identified: bool,
    /// The last clock report of this connection (the lever's reference).
    lever_reference: Option<ClockReport>,
    /// When the lever's reference came.
    reference_at: Millis,
    /// The sides the host's set-and-runs set running, each until the clock's first report
    /// after its acknowledgement: a lever rising on one of them meanwhile is the host's.
    host_runs: Vec<HostRun>,
}

/// A set-and-run the host sent, whose lever change is not a press.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct HostRun {
    /// The side it sets running.
    side: ClockSide,
    /// Whether the clock acknowledged it (its next report then ends the window).
    acknowledged: bool,
}

/// The most set-and-runs whose lever changes are awaited at once (one is outstanding at a
/// time; a few more are acknowledged and not yet reported on a slow line).
const HOST_RUNS_KEPT: usize = 4;

/// The most time a side of the clock gained by itself from `previous` to `report`, `since` ms
/// later (0: none did): what it shows more, and what ran of it meanwhile if it was running; a
/// gain of a second or less is the display's rounding.
fn gained(previous: &ClockReport, report: &ClockReport, since: Millis) -> Millis {
    if previous.no_clock || report.no_clock {
        return 0;
    }
    let ran = |running: bool| {
        if previous.running && running {
            since
        } else {
            0
        }
    };
    let gain = |before: Millis, after: Millis, running: bool| {
        let gain = after.saturating_add(ran(running)).saturating_sub(before);
        if gain > 1000 { gain } else { 0 }
    };
    gain(
        previous.left.millis(),
        report.left.millis(),
        previous.left_to_move,
    )
    .max(gain(
        previous.right.millis(),
        report.right.millis(),
        previous.right_to_move,
    ))
}

/// The side a set-and-run sets running, if it runs one.
fn run_side(command: &ClockCommand) -> Option<ClockSide> {
    match command {
        ClockCommand::SetAndRun {
            run: ClockRun::Left,
            ..
        } => Some(ClockSide::Left),
        ClockCommand::SetAndRun {
            run: ClockRun::Right,
            ..
        } => Some(ClockSide::Right),
        _ => None,
    }
}

impl Link {
    /// A link opened at `now`, its handshake not yet answered.
    fn new(now: Millis) -> Link {
        Link {
            liveness: Liveness::new(now),
            awaiting_dump: true,
            version: None,
            serial: None,
            identified: false,
            lever_reference: None,
            reference_at: now,
            host_runs: Vec::new(),
        }
    }
}

/// The sans-IO host side of one DGT board.
#[derive(Debug, Clone)]
pub struct DgtSession {
    config: SessionConfig,
    decoder: DgtDecoder,
    link: Option<Link>,
    /// The pieces as the session knows them, squares un-rotated.
    board: Board,
    rotated: bool,
    clock_queue: ClockQueue,
    /// Whether the clock has been seen moving its lever bit with a host's set-and-run (a DGT
    /// 3000): its lever then says less about who pressed.
    lever_follows_host: bool,
    /// The most time the clock was seen adding to a side by itself (an increment or a delay
    /// of the clock's own program), between two reports with no host's setting in between.
    clock_gain: Option<Millis>,
    /// Whether the host's last set-and-run was given up unacknowledged (and none taken since).
    setting_failed: bool,
    transmit: VecDeque<Vec<u8>>,
    events: VecDeque<SessionEvent>,
}

impl DgtSession {
    /// A session with no link yet.
    pub fn new(config: SessionConfig) -> DgtSession {
        DgtSession {
            config,
            decoder: DgtDecoder::new(),
            link: None,
            board: Board::empty(),
            rotated: false,
            clock_queue: ClockQueue::default(),
            lever_follows_host: false,
            clock_gain: None,
            setting_failed: false,
            transmit: VecDeque::new(),
            events: VecDeque::new(),
        }
    }

    /// The settings in force.
    pub fn config(&self) -> &SessionConfig {
        &self.config
    }

    /// The pieces as the session last knew them (squares un-rotated).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Whether the board stands turned round.
    pub fn is_rotated(&self) -> bool {
        self.rotated
    }

    /// The most time the clock was seen adding to a side by itself between two of its reports
    /// (its own program's increment or delay), if it ever did: a clock the host sets adds
    /// nothing more by itself.
    pub fn clock_gain(&self) -> Option<Millis> {
        self.clock_gain
    }

    /// Whether the host's last set-and-run was never acknowledged (the clock did not take it,
    /// or none is plugged in), and none was taken since.
    pub fn setting_failed(&self) -> bool {
        self.setting_failed
    }

    /// Whether a set-and-run is sent and not yet acknowledged: a time report meanwhile may
    /// show the clock as it stood before the setting.
    pub fn setting_in_flight(&self) -> bool {
        self.link
            .as_ref()
            .is_some_and(|link| link.host_runs.iter().any(|run| !run.acknowledged))
            || self.clock_queue.outstanding_sets()
    }

    /// Whether the clock has been seen raising its lever bit with a host's set-and-run (as a
    /// DGT 3000 does): a press it reports then leaves the lever where the host's setting
    /// already put it unseen, and the presses seen are no sure sign of who sits where.
    pub fn lever_follows_host(&self) -> bool {
        self.lever_follows_host
    }

    /// The link was opened (or reopened) at `now`: partial input and unsent bytes of an earlier
    /// link are dropped, and the handshake is queued. The rotated flag and the board are kept;
    /// a clock command in flight is sent again.
    pub fn connect(&mut self, now: Millis) {
        self.decoder = DgtDecoder::new();
        self.transmit.clear();
        self.clock_queue.requeue_outstanding();
        self.link = Some(Link::new(now));
        self.send(now, &HostCommand::SendVersion);
        self.send(now, &HostCommand::ReturnSerialNumber);
        self.send(now, &HostCommand::SendBoard);
        self.start_clock_command(now);
    }

    /// Queues a clock command; it is sent once the ones before it are done (and a link is
    /// open).
    pub fn send_clock(&mut self, now: Millis, command: ClockCommand) {
        self.clock_queue.push(command);
        self.start_clock_command(now);
    }

    /// Takes bytes received from the board at `now`. Any byte, even a malformed one, counts as
    /// life on an open link.
    pub fn handle_bytes(&mut self, now: Millis, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        let back = self
            .link
            .as_mut()
            .is_some_and(|link| link.liveness.heard(now));
        if back {
            self.events.push_back(SessionEvent::Back);
            // A lever moved while the board was not heard is no press seen: the board's full
            // report tells what was played meanwhile.
            if let Some(link) = self.link.as_mut() {
                link.lever_reference = None;
            }
            self.resynchronise(now);
        }
        self.decoder.push(bytes);
        while let Some(decoded) = self.decoder.poll() {
            match decoded {
                Ok(message) => self.handle_message(now, message),
                Err(Corrupt { dropped, .. }) => {
                    self.events.push_back(SessionEvent::Corrupt { dropped });
                }
            }
        }
    }

    /// Handles whatever fell due at or before `now`: checks, lost answers, silence, clock
    /// resends.
    pub fn handle_timeout(&mut self, now: Millis) {
        let Some(link) = self.link.as_mut() else {
            return;
        };
        if link
            .liveness
            .lost_at(self.config.answer_ms)
            .is_some_and(|at| at <= now)
        {
            link.liveness.report_lost();
            self.events.push_back(SessionEvent::Lost);
        }
        let silence_at = link
            .liveness
            .silence_at(self.config.silence_ms, Silence::FromFirstUnanswered);
        if silence_at.is_some_and(|at| at <= now) {
            link.liveness.report_silence();
            self.events.push_back(SessionEvent::Gone);
        }
        if link.liveness.check_at(self.config.keepalive_ms) <= now {
            link.liveness.checked(now);
            self.send(now, &HostCommand::SendUpdateNice);
            self.send(now, &HostCommand::SendBoard);
        }
        self.handle_clock_timeout(now);
    }

    /// The board answers again after it stopped: ask for a full dump, reported whatever it
    /// shows, after which updates are asked for again.
    fn resynchronise(&mut self, now: Millis) {
        if let Some(link) = self.link.as_mut() {
            link.awaiting_dump = true;
        }
        self.send(now, &HostCommand::SendBoard);
    }

    /// When [`handle_timeout`](DgtSession::handle_timeout) should next be called; `None`
    /// before the link opens.
    #[must_use]
    pub fn poll_timeout(&self) -> Option<Millis> {
        let link = self.link.as_ref()?;
        [
            Some(link.liveness.check_at(self.config.keepalive_ms)),
            link.liveness.lost_at(self.config.answer_ms),
            link.liveness
                .silence_at(self.config.silence_ms, Silence::FromFirstUnanswered),
            self.clock_queue.deadline(),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// The next bytes to write to the board.
    #[must_use]
    pub fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.transmit.pop_front()
    }

    /// The next event.
    #[must_use]
    pub fn poll_event(&mut self) -> Option<SessionEvent> {
        self.events.pop_front()
    }

    /// Queues `command` for the board (only while a link is open).
    fn send(&mut self, now: Millis, command: &HostCommand) {
        let Some(link) = self.link.as_mut() else {
            return;
        };
        if command.expects_answer() {
            link.liveness.asked(now);
        }
        self.transmit.push_back(encode(command));
    }

    /// Sends the next clock command if none is outstanding.
    fn start_clock_command(&mut self, now: Millis) {
        if self.link.is_none() {
            return;
        }
        if let Some(command) = self.clock_queue.start(now, self.config.clock_resend_ms) {
            self.send_clock_command(now, command);
        }
    }

    /// Sends a clock command: a set-and-run opens the window in which a lever rising on the
    /// side it sets running is the host's doing.
    fn send_clock_command(&mut self, now: Millis, command: ClockCommand) {
        if let (Some(link), Some(side)) = (self.link.as_mut(), run_side(&command)) {
            let run = HostRun {
                side,
                acknowledged: false,
            };
            // A resend is the same window.
            if !link.host_runs.contains(&run) {
                if link.host_runs.len() >= HOST_RUNS_KEPT {
                    link.host_runs.remove(0);
                }
                link.host_runs.push(run);
            }
        }
        self.send(now, &HostCommand::Clock(command));
    }

    /// Resends or gives up the outstanding clock command when its time has come.
    fn handle_clock_timeout(&mut self, now: Millis) {
        let step = self.clock_queue.handle_timeout(
            now,
            self.config.clock_resend_ms,
            self.config.clock_tries,
        );
        match step {
            ClockStep::Idle => {}
            ClockStep::Send(command) => self.send_clock_command(now, command),
            ClockStep::Failed(command) => {
                if matches!(command, ClockCommand::SetAndRun { .. }) {
                    self.setting_failed = true;
                }
                self.events
                    .push_back(SessionEvent::ClockCommandFailed(command));
                self.start_clock_command(now);
            }
        }
    }

    /// Acts on one message from the board.
    fn handle_message(&mut self, now: Millis, message: BoardMessage) {
        match message {
            BoardMessage::BoardDump(dump) => self.handle_dump(now, &dump),
            BoardMessage::FieldUpdate { square, occupant } => {
                self.handle_field_update(square, occupant);
            }
            BoardMessage::Clock(report) => self.handle_clock_report(now, report),
            BoardMessage::ClockAck(_) => {
                if let Some(command) = self.clock_queue.acknowledge() {
                    self.acknowledged(&command);
                    self.start_clock_command(now);
                }
            }
            BoardMessage::Version { main, sub } => {
                if let Some(link) = self.link.as_mut() {
                    link.version = Some((main, sub));
                }
                self.identify_when_ready();
            }
            BoardMessage::SerialNumber(serial) | BoardMessage::LongSerialNumber(serial) => {
                if let Some(link) = self.link.as_mut() {
                    link.serial = Some(serial);
                }
                self.identify_when_ready();
            }
            BoardMessage::Trademark(_)
            | BoardMessage::BusAddress(_)
            | BoardMessage::BatteryStatus(_)
            | BoardMessage::Unknown { .. } => {}
        }
    }

    /// Reports the board identified once its version is known and either its serial number or
    /// its dump has arrived (once per connection).
    fn identify_when_ready(&mut self) {
        let Some(link) = self.link.as_mut() else {
            return;
        };
        let Some(version) = link.version else {
            return;
        };
        if link.identified || (link.serial.is_none() && link.awaiting_dump) {
            return;
        }
        link.identified = true;
        self.events.push_back(SessionEvent::Identified {
            version,
            serial: link.serial.clone(),
        });
    }

    /// A full dump: orientation, the snapshot (the handshake's or a resynchronisation's
    /// always; a check's when it differs from what the session knows), and the end of the
    /// handshake.
    fn handle_dump(&mut self, now: Millis, dump: &BoardDump) {
        let as_numbered = dump.board();
        let was_rotated = self.rotated;
        match start_position_orientation(&as_numbered) {
            Some(Orientation::Normal) => self.rotated = false,
            Some(Orientation::Rotated) if !self.rotated => {
                self.rotated = true;
                self.events.push_back(SessionEvent::Rotated);
            }
            Some(Orientation::Rotated) | None => {}
        }
        let mut board = as_numbered;
        if self.rotated {
            board.rotate_180();
        }
        let awaited = self.link.as_ref().is_some_and(|link| link.awaiting_dump);
        let missed = board != self.board;
        if missed && let Some(link) = self.link.as_mut() {
            // Changes went unreported (a board restarted, its updates off): so did the clock's,
            // and a lever moved meanwhile is no press seen.
            link.lever_reference = None;
        }
        if awaited || self.rotated != was_rotated || missed {
            self.board = board;
            let snapshot = BoardSnapshot::identified(&self.board);
            self.events
                .push_back(SessionEvent::Sensor(SensorKind::Snapshot(Box::new(
                    snapshot,
                ))));
        }
        if let Some(link) = self.link.as_mut()
            && link.awaiting_dump
        {
            link.awaiting_dump = false;
            self.send(now, &HostCommand::SendUpdateNice);
        }
        self.identify_when_ready();
    }

    /// A field update: a lift when the square emptied (the piece the session knew there), a
    /// place when a piece arrived. A notice that changes nothing the session knows, and magic
    /// pieces, are not reported.
    fn handle_field_update(&mut self, square: Square, occupant: Occupant) {
        let square = self.unrotated(square);
        let kind = match occupant {
            Occupant::Empty => self
                .board
                .remove_piece_at(square)
                .map(|piece| SensorKind::Lift {
                    square,
                    piece: Some(piece),
                }),
            Occupant::Piece(piece) if self.board.piece_at(square) != Some(piece) => {
                self.board.set_piece_at(square, piece);
                Some(SensorKind::Place {
                    square,
                    piece: Some(piece),
                })
            }
            Occupant::Piece(_) | Occupant::Magic(_) => None,
        };
        if let Some(kind) = kind {
            self.events.push_back(SessionEvent::Sensor(kind));
        }
    }

    /// The clock acknowledged `command`: a set-and-run's window ends with the next report.
    fn acknowledged(&mut self, command: &ClockCommand) {
        if matches!(command, ClockCommand::SetAndRun { .. }) {
            self.setting_failed = false;
        }
        let (Some(link), Some(side)) = (self.link.as_mut(), run_side(command)) else {
            return;
        };
        if let Some(run) = link
            .host_runs
            .iter_mut()
            .find(|run| run.side == side && !run.acknowledged)
        {
            run.acknowledged = true;
        }
    }

    /// A clock time report: reported as such (unless a setting of the host's is on its way),
    /// and as a press when the lever moved, unless the host's set-and-run moved it.
    fn handle_clock_report(&mut self, now: Millis, report: ClockReport) {
        // While a setting of the host's is on its way, a report may show the clock as it
        // stood before it (times the host has just changed): not passed on.
        if self.setting_in_flight() {
            tracing::trace!("a clock report before the host's setting took effect: not passed on");
        } else {
            self.events.push_back(SessionEvent::ClockTimes(report));
        }
        let Some(link) = self.link.as_mut() else {
            return;
        };
        let host_sides: Vec<ClockSide> = link.host_runs.iter().map(|run| run.side).collect();
        // This report shows what every acknowledged setting did: their windows end.
        link.host_runs.retain(|run| !run.acknowledged);
        let since = now.saturating_sub(std::mem::replace(&mut link.reference_at, now));
        let Some(previous) = link.lever_reference.replace(report) else {
            return;
        };
        if host_sides.is_empty() && !self.clock_queue.outstanding_sets() {
            let gain = gained(&previous, &report, since);
            if gain > 0 {
                self.clock_gain = Some(self.clock_gain.unwrap_or(0).max(gain));
            }
        }
        let Some(side) = pressed_side(&previous, &report) else {
            return;
        };
        // The lever rose on a side the host set running: the host's setting.
        if host_sides.contains(&side.other()) {
            tracing::debug!(%side, "the lever moved with the host's setting of the clock: no press");
            self.lever_follows_host = true;
            return;
        }
        self.events.push_back(SessionEvent::ClockPressed {
            side,
            running_before: previous.running,
        });
    }

    /// The square as the players see it, for a square as the board numbers it.
    fn unrotated(&self, square: Square) -> Square {
        if self.rotated {
            square.rotate_180()
        } else {
            square
        }
    }
}
