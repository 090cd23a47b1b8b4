//! The ChessLink protocol on the host's side, sans-IO: bytes and the time in, bytes and
//! [`LinkEvent`]s out.
//!
//! What the session does:
//!
//! - on [`connect`](BoardSession::connect) it asks the board's version (reported as
//!   [`LinkEvent::Identified`]), sets the automatic reports to "on any change, after a 2-scan
//!   debounce" (E2ROM address 02; the setting is the board's own and survives a power cycle),
//!   and asks for the status (reports at every changing scan, the other choice, split one
//!   hand's motion over scans in whichever order the scan met them, which misleads the
//!   interpreter far more often than the debounce's delays, measured in the corpus bench);
//! - the first status after connecting, or after the board was unresponsive, is a full report
//!   ([`SensorKind::Snapshot`]: the interpreter compares it with the game), and so is one that
//!   differs from the last in more than [`MOVE_SQUARES`] squares (no hand changes that many
//!   between two scans: the board was away); every other status is compared with the one
//!   before, and each square that changed is a lift of the piece that left it and a placement
//!   of the piece that came (lifts first: one report has no order);
//! - a status answering the host's `S` shows the board as last scanned, not debounced: a change
//!   it alone shows (a sensor flickering at that instant) is taken only once the board's own
//!   report or a second look [`CONFIRM_MS`] later shows it too;
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
    AUTO_REPORTS_ON_CHANGE_DEBOUNCED, BoardReply, Decoded, E2ROM_AUTO_REPORTS, FrameDecoder,
    HostCommand, ReplyDecoder, board_order, encode_command,
};
use crate::live::{
    BoardSession, Feedback, LinkEvent, Liveness, ResumePoint, SessionOptions, Silence,
};
use leds::Leds;
use touchmove_core::sensor::{BoardSnapshot, Millis, SensorKind};

/// How long a board may send nothing before it is asked for its status (a board at rest
/// sends nothing; asking often finds an unplugged board before much can happen on it).
pub const POLL_MS: Millis = 500;

/// How long a request may go unanswered before the board counts as unresponsive.
pub const ANSWER_MS: Millis = 500;

/// How long the board may send no frame before the link counts as lost.
pub const SILENCE_MS: Millis = 3000;

/// How long after an answer to `S` showing a change the board is looked at again to confirm it
/// (more than the 2-scan debounce of the board's own reports, 82 ms).
pub const CONFIRM_MS: Millis = 100;

/// The most squares one move changes (castling: four).
pub const MOVE_SQUARES: usize = 4;

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
/// // A pawn leaves e2: the board's next report says so, and the session makes it a lift.
/// let mut lifted = Board::default();
/// lifted.discard_piece_at(Square::E2);
/// session.handle_bytes(500, &encode_reply(&BoardReply::Status(lifted)));
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
    /// How many answers to `S` are still to come.
    answers_owed: u32,
    /// A status only an answer to `S` showed, waiting to be confirmed.
    unconfirmed: Option<Unconfirmed>,
    /// The board's last status, as reported; `None` when the next is a full report.
    board: Option<Board>,
    /// What the LEDs are to show.
    leds: Leds,
    /// Bytes waiting to be written to the board.
    transmit: VecDeque<Vec<u8>>,
    /// Events waiting to be polled.
    events: VecDeque<LinkEvent>,
}

/// A change only an answer to `S` showed.
#[derive(Debug, Clone)]
struct Unconfirmed {
    /// The board as the answer showed it.
    board: Board,
    /// When to look again (`None`: asked again, the answer awaited).
    look_again_at: Option<Millis>,
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
            answers_owed: 0,
            unconfirmed: None,
            board: None,
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
        self.answers_owed = self.answers_owed.saturating_add(1);
        self.send(&HostCommand::Status);
    }

    /// Takes what the decoder found.
    fn take_decoded(&mut self, now: Millis) {
        while let Some(decoded) = self.decoder.poll() {
            match decoded {
                Decoded::Frame(reply) => {
                    self.heard(now);
                    self.reply(now, reply);
                }
                Decoded::Corrupt { dropped } => self.corrupt(now, &dropped),
            }
        }
    }

    /// An intact frame arrived at `now`: the board answers.
    fn heard(&mut self, now: Millis) {
        if self.liveness.heard(now) {
            // What happened meanwhile is read from the next status as a whole.
            self.board = None;
            self.events.push_back(LinkEvent::Back);
        }
    }

    fn reply(&mut self, now: Millis, reply: BoardReply) {
        match reply {
            BoardReply::Status(board) => {
                let answer = self.answers_owed > 0;
                self.answers_owed = self.answers_owed.saturating_sub(1);
                self.status(now, board, answer);
            }
            BoardReply::Version(high, low) => {
                self.events.push_back(LinkEvent::Identified {
                    what: describe(high, low),
                    serial: None,
                });
            }
            BoardReply::Written { address, value } => {
                if address == E2ROM_AUTO_REPORTS && value != AUTO_REPORTS_ON_CHANGE_DEBOUNCED {
                    self.events.push_back(LinkEvent::Notice(format!(
                        "the board set its automatic reports to {value:#04x}, not {:#04x}",
                        AUTO_REPORTS_ON_CHANGE_DEBOUNCED
                    )));
                }
            }
            BoardReply::Leds | BoardReply::LedsOff | BoardReply::Read { .. } => {}
        }
    }

    /// A status (`answer`: the answer to an `S`): a full report, the changes since the last
    /// one, or a change to confirm.
    fn status(&mut self, now: Millis, board: Board, answer: bool) {
        let confirmed = self
            .unconfirmed
            .take()
            .is_some_and(|unconfirmed| unconfirmed.board == board);
        if let Some(known) = &self.board {
            if *known == board {
                return;
            }
            if answer && !confirmed {
                self.unconfirmed = Some(Unconfirmed {
                    board,
                    look_again_at: Some(now.saturating_add(CONFIRM_MS)),
                });
                return;
            }
        }
        let Some(previous) = self.board.replace(board.clone()) else {
            let snapshot = BoardSnapshot::identified(&board);
            self.events
                .push_back(LinkEvent::Sensor(SensorKind::Snapshot(snapshot)));
            return;
        };
        let changed: Vec<_> = board_order()
            .filter(|&square| previous.piece_at(square) != board.piece_at(square))
            .collect();
        if changed.len() > MOVE_SQUARES {
            let snapshot = BoardSnapshot::identified(&board);
            self.events
                .push_back(LinkEvent::Sensor(SensorKind::Snapshot(snapshot)));
            return;
        }
        for &square in &changed {
            if let Some(piece) = previous.piece_at(square) {
                let lift = SensorKind::Lift {
                    square,
                    piece: Some(piece),
                };
                self.events.push_back(LinkEvent::Sensor(lift));
            }
        }
        for &square in &changed {
            if let Some(piece) = board.piece_at(square) {
                let place = SensorKind::Place {
                    square,
                    piece: Some(piece),
                };
                self.events.push_back(LinkEvent::Sensor(place));
            }
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

    /// When a change only an answer showed is looked at again.
    fn confirm_at(&self) -> Option<Millis> {
        self.unconfirmed
            .as_ref()
            .filter(|_| self.connected)
            .and_then(|unconfirmed| unconfirmed.look_again_at)
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
        self.board = None;
        self.answers_owed = 0;
        self.unconfirmed = None;
        self.transmit.clear();
        self.leds.forget_shown();
        self.send(&HostCommand::Version);
        self.send(&HostCommand::Write {
            address: E2ROM_AUTO_REPORTS,
            value: AUTO_REPORTS_ON_CHANGE_DEBOUNCED,
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
            self.decoder.flush();
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
        let confirm = self.confirm_at().is_some_and(|at| at <= now);
        if let Some(unconfirmed) = self.unconfirmed.as_mut().filter(|_| confirm) {
            // Looked at once more: the answer decides (the change is taken if it shows it).
            unconfirmed.look_again_at = None;
        }
        if confirm || self.ask_at().is_some_and(|at| at <= now) {
            self.ask_status(now);
        }
    }

    fn poll_timeout(&self) -> Option<Millis> {
        [
            self.cut_at(),
            self.silence_at(),
            self.unresponsive_at(),
            self.ask_at(),
            self.confirm_at(),
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
