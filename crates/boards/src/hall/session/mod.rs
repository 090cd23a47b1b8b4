//! The open Hall-sensor board protocol on the host's side, sans-IO: bytes and the time in, bytes
//! and [`LinkEvent`]s out.
//!
//! The protocol is specified in `firmware-protocol/README.md`; the frames are encoded and decoded
//! by the `touchmove-firmware-protocol` crate. What the session does:
//!
//! - on [`connect`](BoardSession::connect) it asks for a SNAPSHOT (the board's full state);
//! - HELLO means the board reset: it is reported as [`LinkEvent::Identified`], the sequence
//!   count restarts, and a SNAPSHOT is asked for; a protocol version other than
//!   [`PROTOCOL_VERSION`] stops the session reading the board (it says so once);
//! - SNAPSHOT, CHANGE and BUTTON become [`SensorKind`]s, with pieces on boards that identify
//!   them; HEARTBEAT only shows the board is alive;
//! - a sequence gap or a corrupt frame means a report may have been lost: a SNAPSHOT is asked
//!   for, and CHANGE frames are dropped until it arrives (the snapshot is the truth, the
//!   interpreter diffs it); an unanswered request is repeated every [`SNAPSHOT_RETRY_MS`];
//!   BUTTON frames meanwhile are reported after the snapshot, in order: a clock press is
//!   weighed against the board as it stood, not as the lost change left it (the report horizon
//!   of a Hall board);
//! - HELLO, SNAPSHOT, CHANGE and BUTTON frames are acknowledged with an ACK, as the
//!   specification asks;
//! - no intact frame for [`SILENCE_MS`] is reported as [`LinkEvent::Gone`], once per silence;
//!   when the board is heard again a SNAPSHOT is asked for;
//! - on a board with LEDs, [`handle_feedback`](BoardSession::handle_feedback) lights the squares of the last
//!   move, blinks the squares of a mismatch and stops blinking them on the resync.

use std::collections::VecDeque;

use shakmaty::{Bitboard, Board, Color, Role, Square};
use touchmove_firmware_protocol::{
    self as protocol, Action, Button, Capabilities, Change, Corrupt, CorruptReason, Frame, Hello,
    LedPattern, MAX_WIRE, Message, PROTOCOL_VERSION, SetLeds, Snapshot,
};

use super::frames::HallDecoder;
use crate::live::{
    BoardSession, Feedback, LinkEvent, Liveness, ResumePoint, SessionOptions, Silence,
};
use touchmove_core::decode::StreamDecoder;
use touchmove_core::sensor::{BoardSnapshot, Millis, SensorKind};

/// How long the board may say nothing before the link counts as lost (the specification's
/// 3000 ms: a board sends a HEARTBEAT after 1000 ms without any other frame).
pub const SILENCE_MS: Millis = 3000;

/// How long a SNAPSHOT request may go unanswered before it is sent again.
pub const SNAPSHOT_RETRY_MS: Millis = 1000;

/// A Hall-sensor board behind the live runner.
///
/// ```
/// use shakmaty::Square;
/// use touchmove_boards::live::{BoardSession, LinkEvent};
/// use touchmove_core::SensorKind;
/// use touchmove_firmware_protocol::{
///     self as wire, Action, Capabilities, Change, FirmwareVersion, Frame, Hello, MAX_WIRE,
///     Message, Snapshot,
/// };
/// use touchmove_boards::hall::HallSession;
///
/// fn bytes(seq: u8, message: Message) -> Vec<u8> {
///     let mut out = [0x00; MAX_WIRE];
///     let length = wire::encode(&Frame { seq, message }, &mut out).expect("fits");
///     out[..length].to_vec()
/// }
///
/// let mut session = HallSession::new();
/// session.connect(0);
/// let hello = Hello {
///     protocol_version: wire::PROTOCOL_VERSION,
///     board_id: [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08],
///     firmware: FirmwareVersion { major: 1, minor: 0, patch: 0 },
///     capabilities: Capabilities::default(),
/// };
/// session.handle_bytes(10, &bytes(0, Message::Hello(hello)));
/// // The host acknowledges the HELLO and asks for the whole board.
/// let sent: Vec<u8> = std::iter::from_fn(|| session.poll_transmit()).flatten().collect();
/// let asked: Vec<Message> =
///     wire::Decoder::new().push(&sent).filter_map(|decoded| match decoded {
///         wire::Decoded::Frame(frame) => Some(frame.message),
///         wire::Decoded::Corrupt(_) => None,
///     }).collect();
/// assert!(asked.contains(&Message::RequestSnapshot));
/// // The board as set up for a game (ranks 1, 2, 7 and 8 occupied), then e2 lifted.
/// let set_up = Snapshot { occupancy: 0xFFFF_0000_0000_FFFF, pieces: None };
/// session.handle_bytes(20, &bytes(1, Message::Snapshot(set_up)));
/// let e2 = wire::Square::new(12).expect("e2");
/// let lift = Change { square: e2, action: Action::Lifted, piece: None, time_ms: 900 };
/// session.handle_bytes(900, &bytes(2, Message::Change(lift)));
/// let events: Vec<LinkEvent> = std::iter::from_fn(|| session.poll_event()).collect();
/// assert!(matches!(&events[0], LinkEvent::Identified { serial: Some(_), .. }));
/// assert!(matches!(&events[1], LinkEvent::Sensor(SensorKind::Snapshot(_))));
/// assert_eq!(events[2], LinkEvent::Sensor(SensorKind::Lift { square: Square::E2, piece: None }));
/// ```
#[derive(Debug, Default)]
pub struct HallSession {
    /// Frames from the bytes received.
    decoder: HallDecoder,
    /// The sequence number of the next frame the host sends.
    next_seq: u8,
    /// The sequence number of the last board frame received, once the count is known.
    last_seq: Option<u8>,
    /// What the board said in its HELLO.
    hello: Option<Hello>,
    /// Set when the board speaks a protocol version this host does not: nothing more is read.
    unsupported: bool,
    /// Whether the link is open (between `connect` and a reported silence).
    connected: bool,
    /// When the last intact frame arrived (or the link was opened), and whether the silence
    /// since has been reported (it counts from the last frame).
    liveness: Liveness,
    /// When the SNAPSHOT being waited for was (last) asked for.
    snapshot_requested_at: Option<Millis>,
    /// Buttons pressed while the SNAPSHOT is waited for, reported after it.
    held_buttons: Vec<SensorKind>,
    /// What the LEDs show.
    leds: Leds,
    /// Bytes waiting to be written to the board.
    transmit: VecDeque<Vec<u8>>,
    /// Events waiting to be polled.
    events: VecDeque<LinkEvent>,
}

/// The squares whose LEDs the host turned on.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Leds {
    /// The from and to squares of the last move (steady).
    last_move: u64,
    /// The squares of the current mismatch (blinking).
    blinking: u64,
}

impl HallSession {
    /// A session that has not connected yet.
    pub fn new() -> HallSession {
        HallSession::default()
    }

    /// What the board can do, as far as the session knows (nothing before a HELLO).
    pub fn capabilities(&self) -> Capabilities {
        self.hello
            .map(|hello| hello.capabilities)
            .unwrap_or_default()
    }

    /// Queues `message` for the board with the next sequence number.
    fn send(&mut self, message: Message) {
        let frame = Frame {
            seq: self.next_seq,
            message,
        };
        self.next_seq = self.next_seq.wrapping_add(1);
        let mut buffer = [0x00; MAX_WIRE];
        match protocol::encode(&frame, &mut buffer) {
            Ok(length) => self
                .transmit
                .push_back(buffer.get(..length).unwrap_or_default().to_vec()),
            Err(error) => tracing::warn!(?error, ?frame, "cannot encode a frame for the board"),
        }
    }

    /// Asks the board for a SNAPSHOT; CHANGE frames are dropped until it comes.
    fn request_snapshot(&mut self, now: Millis) {
        self.snapshot_requested_at = Some(now);
        self.send(Message::RequestSnapshot);
    }

    /// Whether a SNAPSHOT is being waited for.
    fn resyncing(&self) -> bool {
        self.snapshot_requested_at.is_some()
    }

    /// Handles one item of the decoded stream.
    fn handle_decoded(&mut self, now: Millis, decoded: Result<Frame, Corrupt>) {
        match decoded {
            Ok(frame) => self.handle_frame(now, frame),
            Err(corrupt) => self.handle_corrupt(now, corrupt.reason, corrupt.dropped),
        }
    }

    /// A corrupt report: the frame lost may have been a CHANGE, so the board's state is asked
    /// for. An intact frame of an unknown type (a newer protocol version) is ignored, its
    /// sequence number counting as any other's.
    fn handle_corrupt(&mut self, now: Millis, reason: CorruptReason, dropped: usize) {
        if let CorruptReason::UnknownType { frame_type, seq } = reason {
            tracing::debug!(frame_type, seq, "a frame of an unknown type ignored");
            if self.counted(now, seq) {
                tracing::debug!(seq, "board frames lost: asking for a snapshot");
                self.request_snapshot(now);
            }
            return;
        }
        tracing::debug!(?reason, dropped, "corrupt bytes from the board dropped");
        self.request_snapshot(now);
    }

    /// An intact frame arrived at `now`.
    fn handle_frame(&mut self, now: Millis, frame: Frame) {
        if let Message::Hello(hello) = frame.message {
            self.heard(now);
            self.handle_hello(now, frame.seq, hello);
            return;
        }
        if self.counted(now, frame.seq) && !matches!(frame.message, Message::Snapshot(_)) {
            tracing::debug!(seq = frame.seq, "board frames lost: asking for a snapshot");
            self.request_snapshot(now);
        }
        self.handle_message(frame.seq, frame.message);
    }

    /// An intact board frame numbered `seq` (not a HELLO) arrived at `now`: whether reports
    /// may have been lost since the last one (a gap in the sequence, or a silence just ended).
    fn counted(&mut self, now: Millis, seq: u8) -> bool {
        let silence_ended = self.liveness.silence_reported();
        self.heard(now);
        let gap = self
            .last_seq
            .is_some_and(|last| seq != last.wrapping_add(1));
        self.last_seq = Some(seq);
        gap || silence_ended
    }

    /// The board was heard at `now`: any silence is over.
    fn heard(&mut self, now: Millis) {
        self.liveness.heard(now);
    }

    /// HELLO: the board reset. It is identified, and its state asked for.
    fn handle_hello(&mut self, now: Millis, seq: u8, hello: Hello) {
        self.ack(seq);
        self.last_seq = Some(seq);
        self.hello = Some(hello);
        self.events.push_back(LinkEvent::Identified {
            what: describe(&hello),
            serial: Some(board_id(&hello)),
        });
        if hello.protocol_version != PROTOCOL_VERSION {
            self.unsupported = true;
            self.events.push_back(LinkEvent::Notice(format!(
                "the board speaks version {} of the Hall-sensor protocol, this host version \
                 {PROTOCOL_VERSION}: not reading it",
                hello.protocol_version
            )));
            return;
        }
        self.request_snapshot(now);
        self.relight();
    }

    /// A reset board's LEDs are dark (or were just turned off): what this host shows is lit.
    fn relight(&mut self) {
        let Leds {
            last_move,
            blinking,
        } = self.leds;
        self.set_leds(last_move & !blinking, LedPattern::On);
        self.set_leds(blinking, LedPattern::Blink);
    }

    /// A board frame other than HELLO.
    fn handle_message(&mut self, seq: u8, message: Message) {
        match message {
            Message::Snapshot(snapshot) => {
                self.ack(seq);
                self.snapshot_requested_at = None;
                self.sensor(SensorKind::Snapshot(Box::new(board_snapshot(&snapshot))));
                for kind in std::mem::take(&mut self.held_buttons) {
                    self.sensor(kind);
                }
            }
            Message::Change(change) => {
                self.ack(seq);
                if self.resyncing() {
                    tracing::debug!(?change, "a change before the snapshot asked for: dropped");
                } else if let Some(kind) = change_kind(&change) {
                    self.sensor(kind);
                }
            }
            Message::Button { button, .. } => {
                self.ack(seq);
                if self.resyncing() {
                    self.held_buttons.push(button_kind(button));
                } else {
                    self.sensor(button_kind(button));
                }
            }
            Message::Heartbeat { .. } => {}
            Message::Hello(_)
            | Message::RequestSnapshot
            | Message::SetLeds(_)
            | Message::Ack { .. } => {
                tracing::debug!(?message, "a host frame from the board ignored");
            }
        }
    }

    /// Acknowledges the board frame numbered `seq`.
    fn ack(&mut self, seq: u8) {
        self.send(Message::Ack { seq });
    }

    /// Reports a sensor event.
    fn sensor(&mut self, kind: SensorKind) {
        self.events.push_back(LinkEvent::Sensor(kind));
    }

    /// When the current silence will count as the link lost, unless it has been reported.
    fn silence_at(&self) -> Option<Millis> {
        self.liveness
            .silence_at(SILENCE_MS, Silence::FromLastHeard)
            .filter(|_| self.connected)
    }

    /// When the SNAPSHOT request will be repeated.
    fn retry_at(&self) -> Option<Millis> {
        self.snapshot_requested_at
            .filter(|_| self.connected && !self.unsupported)
            .map(|at| at.saturating_add(SNAPSHOT_RETRY_MS))
    }

    /// Sets the LEDs of `mask` to `pattern`, if there is a square and the board may have LEDs:
    /// until a HELLO says (a board already on when the host started sends none), they are
    /// sent, since a board without LEDs ignores them.
    fn set_leds(&mut self, mask: u64, pattern: LedPattern) {
        let leds = self.hello.is_none_or(|hello| hello.capabilities.leds);
        if mask != 0 && leds {
            self.send(Message::SetLeds(SetLeds { mask, pattern }));
        }
    }

    /// A move was decided: the last move's squares go dark, the new move's light up.
    fn show_move(&mut self, from: Square, to: Square) {
        let squares = Bitboard::from_iter([from, to]).0;
        let previous = self.leds.last_move & !self.leds.blinking;
        self.set_leds(previous, LedPattern::Off);
        self.leds.last_move = squares;
        self.set_leds(squares & !self.leds.blinking, LedPattern::On);
    }

    /// The board differs from the game on `squares`: they blink, and earlier blinking squares
    /// that are no longer wrong go back to what they showed.
    fn show_mismatch(&mut self, squares: &[Square]) {
        let mask = Bitboard::from_iter(squares.iter().copied()).0;
        let restored = self.leds.blinking & !mask;
        self.leds.blinking = mask;
        self.restore(restored);
        self.set_leds(mask, LedPattern::Blink);
    }

    /// The board matches the game again: the blinking stops.
    fn show_resync(&mut self) {
        let restored = self.leds.blinking;
        self.leds.blinking = 0;
        self.restore(restored);
    }

    /// Sets `mask` back to the last move's lights.
    fn restore(&mut self, mask: u64) {
        self.set_leds(mask & !self.leds.last_move, LedPattern::Off);
        self.set_leds(mask & self.leds.last_move, LedPattern::On);
    }
}

/// The registry's session constructor (a Hall board has no clock: the options ask nothing of
/// it).
pub(crate) fn new_session(_options: &SessionOptions) -> Box<dyn BoardSession + Send> {
    Box::new(HallSession::new())
}

impl BoardSession for HallSession {
    fn connect(&mut self, now: Millis) {
        self.decoder = HallDecoder::new();
        self.last_seq = None;
        self.unsupported = false;
        self.connected = true;
        self.liveness.opened(now);
        self.request_snapshot(now);
        // What the LEDs show is unknown (a host before this one may have lit them): all go
        // dark, then what this host shows is lit again.
        self.set_leds(u64::MAX, LedPattern::Off);
        self.relight();
    }

    fn handle_bytes(&mut self, now: Millis, bytes: &[u8]) {
        if self.unsupported {
            return;
        }
        self.decoder.push(bytes);
        while let Some(decoded) = self.decoder.poll() {
            if self.unsupported {
                return;
            }
            self.handle_decoded(now, decoded);
        }
    }

    fn handle_timeout(&mut self, now: Millis) {
        if self.silence_at().is_some_and(|at| at <= now) {
            self.liveness.report_silence();
            self.events.push_back(LinkEvent::Gone);
        }
        if self.retry_at().is_some_and(|at| at <= now) {
            self.request_snapshot(now);
        }
    }

    /// The last move's squares are lit once the link opens.
    fn resume(&mut self, point: &ResumePoint) {
        if let Some((from, to)) = point.last_move {
            self.leds.last_move = Bitboard::from_iter([from, to]).0;
        }
    }

    fn poll_timeout(&self) -> Option<Millis> {
        match (self.silence_at(), self.retry_at()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.transmit.pop_front()
    }

    fn poll_event(&mut self) -> Option<LinkEvent> {
        self.events.pop_front()
    }

    fn handle_feedback(&mut self, _now: Millis, feedback: &Feedback) {
        match feedback {
            Feedback::Moved { from, to, .. } => self.show_move(*from, *to),
            Feedback::Show { from, to, .. } => self.show_move(*from, *to),
            Feedback::Mismatch { squares } => self.show_mismatch(squares),
            Feedback::Resynced => self.show_resync(),
            _ => {}
        }
    }
}

/// The line that identifies a board: its id, firmware and what it can do.
/// The board's id, in hex: its serial number.
fn board_id(hello: &Hello) -> String {
    hello
        .board_id
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

pub(crate) fn describe(hello: &Hello) -> String {
    let id = board_id(hello);
    let caps = hello.capabilities;
    let can: Vec<&str> = [
        (caps.piece_identity, "identifies pieces"),
        (caps.leds, "LEDs"),
        (caps.buttons, "buttons"),
    ]
    .into_iter()
    .filter_map(|(has, what)| has.then_some(what))
    .collect();
    let can = if can.is_empty() {
        "occupancy only".to_owned()
    } else {
        can.join(", ")
    };
    let firmware = hello.firmware;
    format!(
        "Hall-sensor board {id}, firmware {}.{}.{}, protocol {}: {can}",
        firmware.major, firmware.minor, firmware.patch, hello.protocol_version
    )
}

/// The square a protocol square names.
fn square(square: protocol::Square) -> Option<Square> {
    Square::ALL.get(usize::from(square.index())).copied()
}

/// The piece a protocol piece names (the two crates spell every piece with the same FEN letter,
/// so this is never `None`).
fn piece(piece: protocol::Piece) -> Option<shakmaty::Piece> {
    shakmaty::Piece::from_char(piece.fen())
}

/// A SNAPSHOT as the sensor log's snapshot: the occupied squares and, on a board that
/// identifies pieces, the pieces it identified.
fn board_snapshot(snapshot: &Snapshot) -> BoardSnapshot {
    let occupied = Bitboard(snapshot.occupancy);
    let Some(codes) = snapshot.pieces else {
        return BoardSnapshot::occupancy(occupied);
    };
    let mut pieces = Board::empty();
    for protocol_square in protocol::Square::all() {
        if let (Some(on), Some(found)) = (
            square(protocol_square),
            codes.get(protocol_square).and_then(piece),
        ) {
            pieces.set_piece_at(on, found);
        }
    }
    BoardSnapshot { occupied, pieces }
}

/// A CHANGE as a lift or a place (always: the crate's squares are 0–63, as shakmaty's).
fn change_kind(change: &Change) -> Option<SensorKind> {
    let on = square(change.square)?;
    let piece = change.piece.and_then(piece);
    Some(match change.action {
        Action::Lifted => SensorKind::Lift { square: on, piece },
        Action::Placed => SensorKind::Place { square: on, piece },
    })
}

/// A BUTTON press as a clock press, an adjustment or a promotion choice.
fn button_kind(button: Button) -> SensorKind {
    match button {
        Button::ClockWhite => SensorKind::Clock(Color::White),
        Button::ClockBlack => SensorKind::Clock(Color::Black),
        Button::Adjust => SensorKind::Adjust,
        Button::PromoteQueen => SensorKind::Promote(Role::Queen),
        Button::PromoteRook => SensorKind::Promote(Role::Rook),
        Button::PromoteBishop => SensorKind::Promote(Role::Bishop),
        Button::PromoteKnight => SensorKind::Promote(Role::Knight),
    }
}

#[cfg(test)]
mod tests;
