//! An emulated Hall-sensor board speaking the open protocol, sans-IO: host frame bytes and the
//! time go in, board frame bytes come out.
//!
//! [`HallBoardEmulator`] never reads a clock, a port or a file. Give it what the host sends with
//! [`HallBoardEmulator::handle_bytes`], ask when it next needs waking with
//! [`HallBoardEmulator::poll_timeout`] and wake it with [`HallBoardEmulator::handle_timeout`],
//! and send what [`HallBoardEmulator::poll_transmit`] gives. Times are ms of emulator time; the
//! board's `u32` clock is emulator time, wrapping.
//!
//! The board is occupancy-only, with LEDs and buttons. At power-up it sends a lone 0x00, HELLO
//! and SNAPSHOT; then every square change of its [`Script`] goes out as a CHANGE, every
//! button press as a BUTTON, and a HEARTBEAT when it has sent no frame for 1000 ms. It answers
//! REQUEST_SNAPSHOT with its current occupancy and remembers SET_LEDS. Unplugged, it reads and
//! sends nothing while the hands play on; plugged in again it powers up as at the start (0x00,
//! HELLO, SNAPSHOT, its LEDs dark, its sequence numbers from 0x00).

mod options;
mod script;
#[cfg(test)]
mod tests;

use shakmaty::Position;
use std::collections::VecDeque;
use std::num::NonZeroU32;

use touchmove_firmware_protocol::{
    Action, Capabilities, Change as ChangeFrame, FirmwareVersion, Frame, Hello, LedPattern,
    MAX_WIRE, Message, PROTOCOL_VERSION, SetLeds, Snapshot, Square, encode,
};

pub use options::HELP;
pub use script::{Change, Script, ScriptEvent, apply};

use crate::emulation::follow::{Follower, Shown, follow};
use crate::emulation::noise::Noise;
use crate::emulation::plug::Plug;
use crate::emulation::{
    EmulatedBoard, Notice, Playing, Scheduled, ScriptPlayer, ScriptStart, Unplug,
};
use touchmove_boards::hall::frames::HallDecoder;
use touchmove_core::decode::StreamDecoder;
use touchmove_core::sensor::Millis;

/// How long the board stays silent before it sends a HEARTBEAT, in ms.
pub const HEARTBEAT_AFTER: Millis = 1000;

/// The board id the emulated board announces by default: "TMHALL01" in ASCII.
pub const DEFAULT_BOARD_ID: [u8; 8] = [0x54, 0x4d, 0x48, 0x41, 0x4c, 0x4c, 0x30, 0x31];

/// The settings of a [`HallBoardEmulator`].
#[derive(Debug, Clone, PartialEq)]
pub struct EmulatorConfig {
    /// What happens on the board.
    pub script: Script,
    /// When the script starts, how fast, on how noisy a line (a noise burst ends with a 0x00
    /// delimiter, so that it costs no frame).
    pub playing: Playing,
    /// Every Nth CHANGE frame is lost on the line (its sequence number is used up all the same).
    pub drop_every: Option<NonZeroU32>,
    /// The board id HELLO announces.
    pub board_id: [u8; 8],
    /// An unplugging, if any.
    pub unplug: Option<Unplug>,
}

impl EmulatorConfig {
    /// `script` at normal speed, starting at once, on a clean line that loses nothing, never
    /// unplugged.
    pub fn new(script: Script) -> EmulatorConfig {
        EmulatorConfig {
            script,
            playing: Playing::default(),
            drop_every: None,
            board_id: DEFAULT_BOARD_ID,
            unplug: None,
        }
    }
}

/// What the square LEDs show, as the host last set them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Leds {
    /// The squares lit steadily (bit `n` is square `n`).
    pub on: u64,
    /// The squares blinking.
    pub blinking: u64,
}

impl Leds {
    /// What the LED of `square` shows.
    pub fn pattern(&self, square: Square) -> LedPattern {
        if self.on & square.bit() != 0 {
            LedPattern::On
        } else if self.blinking & square.bit() != 0 {
            LedPattern::Blink
        } else {
            LedPattern::Off
        }
    }

    /// These LEDs after a SET_LEDS.
    fn set(self, leds: SetLeds) -> Leds {
        let (mask, keep) = (leds.mask, !leds.mask);
        let (on, blinking) = match leds.pattern {
            LedPattern::Off => (0, 0),
            LedPattern::On => (mask, 0),
            LedPattern::Blink => (0, mask),
        };
        Leds {
            on: (self.on & keep) | on,
            blinking: (self.blinking & keep) | blinking,
        }
    }
}

/// The timers, in the order they fire when due at the same time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Timer {
    Plug,
    Script,
    Heartbeat,
    Noise,
}

/// A sans-IO emulated Hall-sensor board.
#[derive(Debug, Clone)]
pub struct HallBoardEmulator {
    drop_every: Option<NonZeroU32>,
    script: ScriptPlayer<ScriptEvent>,
    occupancy: u64,
    leds: Leds,
    seq: u8,
    changes: u64,
    last_frame: Millis,
    decoder: HallDecoder,
    out: VecDeque<Vec<u8>>,
    notices: VecDeque<Notice>,
    noise: Option<Noise>,
    /// Hands that carry out one side's moves as the lit squares show them.
    follower: Option<Follower>,
    board_id: [u8; 8],
    plug: Plug,
}

impl HallBoardEmulator {
    /// A board set up as `config` says, powered up at emulator time 0: a 0x00, HELLO and
    /// SNAPSHOT are ready to send.
    pub fn new(config: EmulatorConfig) -> HallBoardEmulator {
        let mut emulator = HallBoardEmulator {
            drop_every: config.drop_every,
            occupancy: config.script.start,
            script: ScriptPlayer::new(config.script.events, config.playing.speed)
                .with_lap(config.script.lap),
            leds: Leds::default(),
            seq: 0x00,
            changes: 0,
            last_frame: 0,
            decoder: HallDecoder::new(),
            out: VecDeque::from([vec![0x00]]),
            notices: VecDeque::new(),
            noise: config
                .playing
                .noise
                .and_then(|rate| Noise::new(rate, config.playing.seed, 0)),
            follower: None,
            board_id: config.board_id,
            plug: Plug::new(config.unplug),
        };
        emulator.power_up(0, config.playing.start);
        emulator
    }

    /// The board with hands that carry out the moves of `follower`'s side as its steadily lit
    /// squares show them.
    pub(crate) fn with_follower(mut self, mut follower: Follower) -> HallBoardEmulator {
        follower.take_notices(&mut self.notices);
        self.follower = Some(follower);
        self
    }

    /// The hands look at the lights: a move they carry out goes on the script.
    fn follow(&mut self, now: Millis) {
        let steady = self.leds.on & !self.leds.blinking;
        let lit = |from: shakmaty::Square, to: shakmaty::Square| {
            steady == shakmaty::Bitboard::from_iter([from, to]).0
        };
        let segment = follow(
            self.follower.as_mut(),
            Shown::Lights(&lit),
            &mut self.notices,
        );
        if let Some(segment) = segment {
            let script = Script::from_occupancy(segment.start.board().occupied(), &segment.events);
            self.script.append(now, script.events);
        }
    }

    /// The occupied squares now (bit `n` is square `n`).
    pub fn occupancy(&self) -> u64 {
        self.occupancy
    }

    /// What the LEDs show, as the host last set them.
    pub fn leds(&self) -> Leds {
        self.leds
    }

    /// Powered up at `now`: HELLO and SNAPSHOT go out, the script starts with `start`.
    fn power_up(&mut self, now: Millis, start: ScriptStart) {
        let hello = Hello {
            protocol_version: PROTOCOL_VERSION,
            board_id: self.board_id,
            firmware: FirmwareVersion {
                major: 0x00,
                minor: 0x01,
                patch: 0x00,
            },
            capabilities: Capabilities {
                piece_identity: false,
                leds: true,
                buttons: true,
            },
        };
        self.send_frame(now, Message::Hello(hello));
        self.send_snapshot(now);
        if start == ScriptStart::AtOnce {
            self.start_script(now);
        }
    }

    /// Unplugged at `now`, or plugged in again: then it powers up as new, its LEDs dark.
    fn toggle_plug(&mut self, now: Millis) {
        if self.plug.toggle(&mut self.notices) {
            self.seq = 0x00;
            self.leds = Leds::default();
            self.decoder = HallDecoder::new();
            self.out.push_back(vec![0x00]);
            self.power_up(now, ScriptStart::OnHost);
        } else {
            self.out.clear();
        }
    }

    fn next_timer(&self) -> Option<(Millis, Timer)> {
        let heartbeat = Some(self.last_frame + HEARTBEAT_AFTER).filter(|_| self.plug.plugged());
        [
            (self.plug.due(), Timer::Plug),
            (self.script.due(), Timer::Script),
            (heartbeat, Timer::Heartbeat),
            (self.noise.as_ref().map(Noise::next), Timer::Noise),
        ]
        .into_iter()
        .filter_map(|(due, timer)| Some((due?, timer)))
        .min()
    }

    fn fire(&mut self, due: Millis, timer: Timer) {
        match timer {
            Timer::Plug => self.toggle_plug(due),
            Timer::Script => self.next_script_event(due),
            Timer::Heartbeat => self.send_frame(
                due,
                Message::Heartbeat {
                    time_ms: board_clock(due),
                },
            ),
            Timer::Noise => {
                if let Some(mut burst) = self.noise.as_mut().map(Noise::burst) {
                    burst.push(0x00);
                    if self.plug.plugged() {
                        self.out.push_back(burst);
                    }
                }
            }
        }
    }

    fn start_script(&mut self, now: Millis) {
        self.script.start(now);
        self.notices.push_back(Notice::ScriptStarted);
    }

    fn next_script_event(&mut self, due: Millis) {
        let Some(event) = self.script.pop() else {
            return;
        };
        let time_ms = board_clock(due);
        match event.change {
            Change::Square { square, action } => {
                let changed = apply(self.occupancy, square, action);
                if changed != self.occupancy {
                    self.occupancy = changed;
                    self.send_change(due, square, action);
                }
            }
            Change::Button(button) => {
                self.send_frame(due, Message::Button { button, time_ms });
            }
        }
    }

    /// A CHANGE, unless it is one of those lost on the line.
    fn send_change(&mut self, now: Millis, square: Square, action: Action) {
        if !self.plug.plugged() {
            return;
        }
        self.changes += 1;
        let change = Message::Change(ChangeFrame {
            square,
            action,
            piece: None,
            time_ms: board_clock(now),
        });
        let dropped = self
            .drop_every
            .is_some_and(|n| self.changes.is_multiple_of(u64::from(n.get())));
        if dropped {
            self.notices.push_back(Notice::Dropped(self.seq));
            self.next_seq(now);
        } else {
            self.send_frame(now, change);
        }
    }

    fn send_snapshot(&mut self, now: Millis) {
        let snapshot = Snapshot {
            occupancy: self.occupancy,
            pieces: None,
        };
        self.send_frame(now, Message::Snapshot(snapshot));
    }

    /// Encodes and queues a frame with the next sequence number (unplugged, nothing goes out).
    fn send_frame(&mut self, now: Millis, message: Message) {
        if !self.plug.plugged() {
            return;
        }
        let frame = Frame {
            seq: self.next_seq(now),
            message,
        };
        let mut wire = [0x00; MAX_WIRE];
        if let Ok(length) = encode(&frame, &mut wire) {
            self.out
                .push_back(wire.get(..length).unwrap_or_default().to_vec());
        }
    }

    /// Uses up a sequence number for a frame sent at `now`.
    fn next_seq(&mut self, now: Millis) -> u8 {
        let seq = self.seq;
        self.seq = seq.wrapping_add(1);
        self.last_frame = now;
        seq
    }

    fn host_frame(&mut self, now: Millis, frame: Frame) {
        if !self.script.started() {
            self.start_script(now);
        }
        match frame.message {
            Message::RequestSnapshot => self.send_snapshot(now),
            Message::SetLeds(leds) => {
                self.leds = self.leds.set(leds);
                self.follow(now);
            }
            Message::Ack { .. } => {}
            other => self.notices.push_back(Notice::Refused(other.frame_type())),
        }
    }
}

/// The board's `u32` millisecond clock at emulator time `now` (wrapping).
fn board_clock(now: Millis) -> u32 {
    (now & 0xffff_ffff) as u32
}

impl Scheduled for ScriptEvent {
    fn t(&self) -> Millis {
        self.t
    }
    fn later(self, by: Millis) -> ScriptEvent {
        ScriptEvent {
            t: self.t.saturating_add(by),
            ..self
        }
    }
}

impl EmulatedBoard for HallBoardEmulator {
    /// Takes bytes from the host at `now` (after everything due before it); unplugged, it reads
    /// nothing.
    fn handle_bytes(&mut self, now: Millis, bytes: &[u8]) {
        self.handle_timeout(now);
        if !self.plug.plugged() {
            return;
        }
        self.decoder.push(bytes);
        while let Some(decoded) = self.decoder.poll() {
            match decoded {
                Ok(frame) => self.host_frame(now, frame),
                Err(corrupt) => self.notices.push_back(Notice::NotUnderstood(format!(
                    "a corrupt frame ({:?}), {} bytes dropped",
                    corrupt.reason, corrupt.dropped
                ))),
            }
        }
    }

    /// Does everything due at or before `now`, in time order.
    fn handle_timeout(&mut self, now: Millis) {
        while let Some((due, timer)) = self.next_timer().filter(|(due, _)| *due <= now) {
            self.fire(due, timer);
        }
    }

    /// The next time [`HallBoardEmulator::handle_timeout`] must be called, if any.
    fn poll_timeout(&self) -> Option<Millis> {
        self.next_timer().map(|(due, _)| due)
    }

    /// The next bytes to send (a frame, a noise burst, or the power-up 0x00), if any.
    fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.out.pop_front()
    }

    /// Whether the script has started and everything in it has happened.
    fn script_done(&self) -> bool {
        self.script.done() && self.follower.as_ref().is_none_or(Follower::done)
    }

    /// The next notice, if any.
    fn poll_notice(&mut self) -> Option<Notice> {
        self.notices.pop_front()
    }
}
