//! The ChessLink protocol on the host's side, sans-IO: bytes and the time in, bytes and
//! [`LinkEvent`]s out.
//!
//! What the session does:
//!
//! - on [`connect`](BoardSession::connect) it asks the board's version (reported as
//!   [`LinkEvent::Identified`]), sets the scan time to the default 40.96 ms and the automatic
//!   reports to "at the scan that sees any change" (E2ROM addresses 01 and 02; the settings are
//!   the board's own and survive a power cycle), and asks for the status;
//! - the first status after connecting, or after the board was unresponsive, is a full report
//!   (a [`SensorKind::Snapshot`](touchmove_core::sensor::SensorKind::Snapshot): the
//!   interpreter compares it with the game), and so is one that differs from the reading
//!   before in more than [`MOVE_SQUARES`] squares (no hand changes that many between two
//!   scans: the board was away);
//! - otherwise each square is debounced on its own: its new reading is taken
//!   once a reading [`HOLD_MS`] after the first that showed it still shows it (the board is
//!   asked for its status then, if nothing came meanwhile), and the squares taken together are
//!   lifts of the pieces that left them, then placements of the pieces that came (one reading
//!   has no order). A flicker or a knock that comes back is never taken, and no square's change
//!   waits for another's. The board's own debounce (the whole board reading the same for two
//!   scans) held every change back while anything on the board moved, so that a piece sliding
//!   on looked as if it had rested (measured in the corpus bench's ChessLink rows);
//! - characters that make no frame (line noise, a bad block parity, a frame cut short) are a
//!   notice, and the status is asked for at once: a lost report is never waited for;
//! - a board that has sent nothing for [`POLL_MS`] is asked for its status (a board at rest
//!   sends nothing); a request unanswered for [`ANSWER_MS`] is [`LinkEvent::Lost`]; no
//!   frame for [`SILENCE_MS`] is [`LinkEvent::Gone`] (the runner reopens the port);
//! - [`handle_feedback`](BoardSession::handle_feedback) lights the last move's squares and
//!   blinks the squares of a mismatch (a square's four corner LEDs).

mod leds;
#[cfg(test)]
mod tests;

use std::collections::VecDeque;

use shakmaty::Board;

use super::wire::{
    AUTO_REPORTS_ON_CHANGE, BoardReply, DEFAULT_SCAN_TIME, E2ROM_AUTO_REPORTS, E2ROM_SCAN_TIME,
    FrameDecoder, HostCommand, ReplyDecoder, encode_command,
};
use crate::chesslink::wire::Corrupt;
use crate::live::positions::PositionReader;
use crate::live::{
    BoardSession, Feedback, LinkEvent, Liveness, ResumePoint, SessionOptions, Silence,
};
use leds::Leds;
use touchmove_core::decode::StreamDecoder;
use touchmove_core::sensor::Millis;

/// How long after a square's new reading was first seen another reading must still show it
/// for it to be taken: more than one scan period (40.96 ms, the scan time the session sets),
/// so that the two readings are of two scans.
pub const HOLD_MS: Millis = 50;

/// How long a board may send nothing before it is asked for its status (a board at rest
/// sends nothing; asking often finds an unplugged board before much can happen on it).
pub const POLL_MS: Millis = 500;

/// How long a request may go unanswered before the board counts as unresponsive.
pub const ANSWER_MS: Millis = 500;

/// How long the board may send no frame before the link counts as lost.
pub const SILENCE_MS: Millis = 3000;

pub use crate::live::positions::MOVE_SQUARES;

/// How long the line may be quiet in the middle of a frame before the frame counts as cut (a
/// whole status takes 18 ms at 38400 baud).
pub const QUIET_MS: Millis = 50;

/// A ChessLink board behind the live runner.
///
/// Driven by bytes as the runner drives it (the board's answers below are written with the
/// board's side of the wire, as the emulator writes them):
///
/// ```
/// use shakmaty::{Board, Square};
/// use touchmove_boards::chesslink::ChessLinkSession;
/// use touchmove_boards::chesslink::wire::{BoardReply, encode_reply};
/// use touchmove_boards::live::{BoardSession, LinkEvent};
/// use touchmove_core::SensorKind;
///
/// let mut session = ChessLinkSession::new();
/// session.connect(0);
/// let asked: Vec<Vec<u8>> = std::iter::from_fn(|| session.poll_transmit()).collect();
/// assert!(!asked.is_empty(), "the session asks the board who it is and what it shows");
/// // The board answers: its version, then the pieces as they stand.
/// session.handle_bytes(10, &encode_reply(&BoardReply::Version(1, 2)));
/// session.handle_bytes(20, &encode_reply(&BoardReply::Status(Board::default())));
/// let events: Vec<LinkEvent> = std::iter::from_fn(|| session.poll_event()).collect();
/// assert!(matches!(events[0], LinkEvent::Identified { .. }));
/// assert!(matches!(events[1], LinkEvent::Sensor(SensorKind::Snapshot(_))));
/// // A pawn leaves e2: the board's next report says so. The session reads the board again a
/// // hold later, and the square still empty, makes it a lift.
/// let mut lifted = Board::default();
/// lifted.discard_piece_at(Square::E2);
/// session.handle_bytes(500, &encode_reply(&BoardReply::Status(lifted.clone())));
/// assert_eq!(session.poll_event(), None, "one reading is not enough");
/// let again = session.poll_timeout().expect("a second look is due");
/// session.handle_timeout(again);
/// let asked: Vec<Vec<u8>> = std::iter::from_fn(|| session.poll_transmit()).collect();
/// assert_eq!(asked, [b"S53".to_vec()], "the status is asked for");
/// session.handle_bytes(again + 20, &encode_reply(&BoardReply::Status(lifted)));
/// let lift = std::iter::from_fn(|| session.poll_event())
///     .find(|event| matches!(event, LinkEvent::Sensor(SensorKind::Lift { .. })));
/// assert!(matches!(lift, Some(LinkEvent::Sensor(SensorKind::Lift { square: Square::E2, .. }))));
/// ```
#[derive(Debug)]
pub struct ChessLinkSession {
    /// Frames from the bytes received.
    decoder: ReplyDecoder,
    /// Whether the link is open (between `connect` and a reported silence).
    connected: bool,
    /// When the board was last heard (an intact frame), the status asked for since (timed
    /// from the latest ask), and what of it was reported; its silence counts from the last
    /// frame.
    liveness: Liveness,
    /// When the last bytes arrived.
    last_bytes: Millis,
    /// The statuses read, turned into lifts and placements.
    positions: PositionReader,
    /// What the LEDs are to show.
    leds: Leds,
    /// Bytes waiting to be written to the board.
    transmit: VecDeque<Vec<u8>>,
    /// Events waiting to be polled.
    events: VecDeque<LinkEvent>,
}

impl Default for ChessLinkSession {
    fn default() -> ChessLinkSession {
        ChessLinkSession::new()
    }
}

impl ChessLinkSession {
    /// A session that has not connected yet.
    pub fn new() -> ChessLinkSession {
        ChessLinkSession {
            decoder: FrameDecoder::replies(),
            connected: false,
            liveness: Liveness::new(0),
            last_bytes: 0,
            positions: PositionReader::new(HOLD_MS),
            leds: Leds::default(),
            transmit: VecDeque::new(),
            events: VecDeque::new(),
        }
    }

    /// Queues `command` for the board.
    fn send(&mut self, command: &HostCommand) {
        self.transmit.push_back(encode_command(command));
    }

    /// Asks for the status at `now`.
    fn ask_status(&mut self, now: Millis) {
        self.liveness.asked_again(now);
        self.positions.asked();
        self.send(&HostCommand::Status);
    }

    /// Takes what the decoder found.
    fn take_decoded(&mut self, now: Millis) {
        while let Some(decoded) = self.decoder.poll() {
            match decoded {
                Ok(reply) => {
                    self.heard(now);
                    self.reply(now, reply);
                }
                Err(Corrupt { dropped }) => self.corrupt(now, &dropped),
            }
        }
    }

    /// An intact frame arrived at `now`: the board answers.
    fn heard(&mut self, now: Millis) {
        if self.liveness.heard(now) {
            // What happened meanwhile is read from the next status as a whole.
            self.positions.clear();
            self.events.push_back(LinkEvent::Back);
        }
    }

    fn reply(&mut self, now: Millis, reply: BoardReply) {
        match reply {
            BoardReply::Status(board) => self.status(now, board),
            BoardReply::Version(high, low) => {
                self.events.push_back(LinkEvent::Identified {
                    what: describe(high, low),
                    serial: None,
                });
            }
            BoardReply::Written { address, value } => self.written(address, value),
            BoardReply::Leds | BoardReply::LedsOff | BoardReply::Read { .. } => {}
        }
    }

    /// The board confirms a setting written; one it set otherwise than asked is said.
    fn written(&mut self, address: u8, value: u8) {
        let asked = match address {
            E2ROM_AUTO_REPORTS => AUTO_REPORTS_ON_CHANGE,
            E2ROM_SCAN_TIME => DEFAULT_SCAN_TIME,
            _ => return,
        };
        if value != asked {
            self.events.push_back(LinkEvent::Notice(format!(
                "the board set its E2ROM address {address:#04x} to {value:#04x}, not {asked:#04x}"
            )));
        }
    }

    /// A status read at `now`: a full report, or the squares whose change is now taken.
    fn status(&mut self, now: Millis, reading: Board) {
        for report in self.positions.read(now, reading) {
            self.events.push_back(LinkEvent::Sensor(report));
        }
    }

    /// Characters that made no frame: said, and the status asked for so that a report lost
    /// with them is not waited for.
    fn corrupt(&mut self, now: Millis, dropped: &[u8]) {
        let shown: String = dropped
            .iter()
            .map(|&c| match c {
                0x20..=0x7e => char::from(c),
                _ => '?',
            })
            .collect();
        self.events.push_back(LinkEvent::Notice(format!(
            "{} characters from the board made no frame, dropped: {shown:?}",
            dropped.len()
        )));
        if self.connected && self.liveness.unanswered_since().is_none() {
            self.ask_status(now);
        }
    }

    /// When the board is read again for a change seen once.
    fn read_again_at(&self) -> Option<Millis> {
        self.positions.read_again_at().filter(|_| self.connected)
    }

    /// When a frame begun and not ended counts as cut.
    fn cut_at(&self) -> Option<Millis> {
        self.decoder
            .pending()
            .then(|| self.last_bytes.saturating_add(QUIET_MS))
    }

    /// When the status is next asked for.
    fn ask_at(&self) -> Option<Millis> {
        let since = self
            .liveness
            .unanswered_since()
            .unwrap_or(self.liveness.last_heard());
        self.connected.then(|| since.saturating_add(POLL_MS))
    }

    /// When an unanswered request makes the board unresponsive.
    fn unresponsive_at(&self) -> Option<Millis> {
        self.liveness.lost_at(ANSWER_MS).filter(|_| self.connected)
    }

    /// When the current silence counts as the link lost, unless it has been reported.
    fn silence_at(&self) -> Option<Millis> {
        self.liveness
            .silence_at(SILENCE_MS, Silence::FromLastHeard)
            .filter(|_| self.connected)
    }

    /// Sends the LED pattern if it changed.
    fn show(&mut self) {
        if let Some(command) = self.leds.command() {
            self.send(&command);
        }
    }
}

/// How a board that answered `V` with `high` and `low` is named.
pub(crate) fn describe(high: u8, low: u8) -> String {
    format!("Millennium ChessLink board, firmware {high:02X}.{low:02X}")
}

/// The registry's session constructor (a ChessLink board has no clock: the options ask nothing
/// of it).
pub(crate) fn new_session(_options: &SessionOptions) -> Box<dyn BoardSession + Send> {
    Box::new(ChessLinkSession::new())
}

impl BoardSession for ChessLinkSession {
    fn connect(&mut self, now: Millis) {
        self.decoder = FrameDecoder::replies();
        self.connected = true;
        self.liveness.opened(now);
        self.last_bytes = now;
        self.positions.clear();
        self.transmit.clear();
        self.leds.forget_shown();
        self.send(&HostCommand::Version);
        self.send(&HostCommand::Write {
            address: E2ROM_SCAN_TIME,
            value: DEFAULT_SCAN_TIME,
        });
        self.send(&HostCommand::Write {
            address: E2ROM_AUTO_REPORTS,
            value: AUTO_REPORTS_ON_CHANGE,
        });
        self.ask_status(now);
        self.show();
    }

    /// The last move's squares are lit once the link opens.
    fn resume(&mut self, point: &ResumePoint) {
        if let Some((from, to)) = point.last_move {
            self.leds.last_move(&[from, to]);
        }
    }

    fn handle_bytes(&mut self, now: Millis, bytes: &[u8]) {
        self.last_bytes = now;
        self.decoder.push(bytes);
        self.take_decoded(now);
    }

    fn handle_timeout(&mut self, now: Millis) {
        if self.cut_at().is_some_and(|at| at <= now) {
            self.decoder.finish();
            self.take_decoded(now);
        }
        if self.silence_at().is_some_and(|at| at <= now) {
            self.liveness.report_silence();
            self.connected = false;
            self.events.push_back(LinkEvent::Gone);
            return;
        }
        if self.unresponsive_at().is_some_and(|at| at <= now) {
            self.liveness.report_lost();
            self.events.push_back(LinkEvent::Lost);
        }
        let read_again = self.read_again_at().is_some_and(|at| at <= now);
        if read_again || self.ask_at().is_some_and(|at| at <= now) {
            self.ask_status(now);
        }
    }

    fn poll_timeout(&self) -> Option<Millis> {
        [
            self.cut_at(),
            self.silence_at(),
            self.unresponsive_at(),
            self.ask_at(),
            self.read_again_at(),
        ]
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
        match feedback {
            Feedback::Started { .. } => self.leds.clear(),
            Feedback::Moved { from, to, .. } => self.leds.last_move(&[*from, *to]),
            Feedback::Show { from, to, .. } => self.leds.last_move(&[*from, *to]),
            Feedback::TakenBack { .. } => self.leds.last_move(&[]),
            Feedback::Mismatch { squares } => self.leds.mismatch(squares),
            Feedback::Resynced => self.leds.mismatch(&[]),
            _ => return,
        }
        self.show();
    }
}
