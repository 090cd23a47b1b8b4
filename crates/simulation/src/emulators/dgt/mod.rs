//! An emulated DGT e-board, sans-IO: host command bytes and the time go in, board message bytes
//! come out.
//!
//! [`DgtBoardEmulator`] never reads a clock, a port or a file. Give it what the host sends with
//! [`DgtBoardEmulator::handle_bytes`], ask when it next needs waking with
//! [`DgtBoardEmulator::poll_timeout`] and wake it with [`DgtBoardEmulator::handle_timeout`],
//! and send what [`DgtBoardEmulator::poll_transmit`] gives. Times are ms of emulator time.
//!
//! The board holds a piece per square. It powers up in bus mode, idle: it answers every request
//! but sends nothing unsolicited (except line noise, when asked for) until a host puts it into an
//! update mode; from then on each square change of its [`Script`] goes out as a FIELD_UPDATE,
//! and, with the clock plugged in, clock changes as BWTIME reports.

mod change;
mod clock;
mod config;
mod options;
mod scan;
mod script;
#[cfg(test)]
mod tests;

use std::collections::VecDeque;

use shakmaty::{Board, Square};

pub use change::{Change, ScriptEvent};
pub use clock::ClockConfig;
pub use config::{BoardIdentity, EmulatorConfig};
pub use options::HELP;
pub use script::Script;

use crate::emulation::follow::{Follower, Shown, follow};
use crate::emulation::noise::Noise;
use crate::emulation::plug::Plug;
use crate::emulation::{
    ClockSide, EmulatedBoard, Notice, ProtocolScript, Scheduled, ScriptPlayer, ScriptStart,
};
use clock::EmulatedClock;
use touchmove_boards::dgt::wire::command::{
    ClockCommand, ClockRun, HostCommand, ReceivedCommand, ReceivedCommandDecoder,
};
use touchmove_boards::dgt::wire::message::encode as msg;
use touchmove_boards::dgt::wire::protocol::{
    code_from_piece, index_from_square, square_from_index,
};
use touchmove_core::decode::StreamDecoder;
use touchmove_core::sensor::Millis;

/// How often a board in [`Mode::Update`] sends a BWTIME report, in ms.
const UPDATE_PERIOD: Millis = 1000;

/// What the board sends without being asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Nothing.
    Idle,
    /// Field updates, and BWTIME every second and when the clock changes (`SEND_UPDATE`).
    Update,
    /// Field updates only (`SEND_UPDATE_BRD`).
    UpdateBoard,
    /// Field updates, and BWTIME when the clock's state or display changes
    /// (`SEND_UPDATE_NICE`).
    UpdateNice,
}

/// The timers, in the order they fire when due at the same time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Timer {
    Unplug,
    Script,
    Tick,
    Periodic,
    Noise,
}

/// A sans-IO emulated DGT board.
#[derive(Debug, Clone)]
pub struct DgtBoardEmulator {
    rotated: bool,
    identity: BoardIdentity,
    plug: Plug,
    script: ScriptPlayer<ScriptEvent>,
    board: Board,
    clock: EmulatedClock,
    /// The clock's first setting and who moves first: what a reset sets it to.
    clock_setting: (ClockConfig, shakmaty::Color),
    mode: Mode,
    bus_mode: bool,
    decoder: ReceivedCommandDecoder,
    out: VecDeque<Vec<u8>>,
    notices: VecDeque<Notice>,
    tick: Option<Millis>,
    periodic: Option<Millis>,
    noise: Option<Noise>,
    /// Hands that carry out one side's moves as the clock's display shows them.
    follower: Option<Follower>,
}

impl DgtBoardEmulator {
    /// A board set up as `config` says, powered up (bus mode, idle) at emulator time 0.
    pub fn new(config: EmulatorConfig) -> DgtBoardEmulator {
        let mut emulator = DgtBoardEmulator {
            rotated: config.rotated,
            identity: config.identity,
            plug: Plug::new(config.unplug),
            board: config.script.start.clone(),
            clock: EmulatedClock::new(config.clock, config.script.first_to_move),
            clock_setting: (config.clock, config.script.first_to_move),
            script: ScriptPlayer::new(config.script.events, config.playing.speed)
                .with_lap(config.script.lap),
            mode: Mode::Idle,
            bus_mode: true,
            decoder: ReceivedCommandDecoder::new(),
            out: VecDeque::new(),
            notices: VecDeque::new(),
            tick: None,
            periodic: None,
            noise: config
                .playing
                .noise
                .and_then(|rate| Noise::new(rate, config.playing.seed, 0)),
            follower: None,
        };
        if config.playing.start == ScriptStart::AtOnce {
            emulator.start_script(0);
        }
        emulator
    }

    /// The board with hands that carry out the moves of `follower`'s side as the clock's
    /// display shows them (SAN).
    pub(crate) fn with_follower(mut self, mut follower: Follower) -> DgtBoardEmulator {
        follower.take_notices(&mut self.notices);
        self.follower = Some(follower);
        self
    }

    /// The hands read what the clock now shows: a move they carry out goes on the script.
    fn follow(&mut self, now: Millis, text: &str) {
        let shown = Shown::Text(text);
        let Some(segment) = follow(self.follower.as_mut(), shown, &mut self.notices) else {
            return;
        };
        match Script::from_events(&segment.start, &segment.events) {
            Ok(script) => self.script.append(now, script.events),
            Err(error) => self
                .notices
                .push_back(Notice::HandsStopped(format!("the hands stop: {error}"))),
        }
    }

    /// The pieces on the board now (as it stands on the table).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// What the board sends unasked.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Whether the board is still in bus mode (no single-board command since power-up).
    pub fn is_bus_mode(&self) -> bool {
        self.bus_mode
    }

    /// Whether the board is plugged in (not inside its unplugged stretch).
    pub fn is_plugged(&self) -> bool {
        self.plug.plugged()
    }

    fn next_timer(&self) -> Option<(Millis, Timer)> {
        [
            (self.plug.due(), Timer::Unplug),
            (self.script.due(), Timer::Script),
            (self.tick, Timer::Tick),
            (self.periodic, Timer::Periodic),
            (self.noise.as_ref().map(Noise::next), Timer::Noise),
        ]
        .into_iter()
        .filter_map(|(due, timer)| Some((due?, timer)))
        .min()
    }

    fn fire(&mut self, due: Millis, timer: Timer) {
        match timer {
            Timer::Unplug => self.toggle_plug(due),
            Timer::Script => self.next_script_event(due),
            Timer::Tick => {
                self.send_clock(due);
                self.tick = self.clock.next_display_change(due);
            }
            Timer::Periodic => {
                self.send_clock(due);
                self.periodic = Some(due + UPDATE_PERIOD);
            }
            Timer::Noise => {
                if let Some(burst) = self.noise.as_mut().map(Noise::burst) {
                    self.send(burst);
                }
            }
        }
    }

    fn toggle_plug(&mut self, now: Millis) {
        if self.plug.toggle(&mut self.notices) {
            self.bus_mode = true;
        } else {
            self.out.clear();
        }
        self.decoder.reset();
        self.set_mode(now, Mode::Idle);
    }

    fn start_script(&mut self, now: Millis) {
        self.script.start(now);
        self.clock.start(now);
        self.notices.push_back(Notice::ScriptStarted);
        self.clock_changed(now);
    }

    fn next_script_event(&mut self, due: Millis) {
        let Some(event) = self.script.pop() else {
            return;
        };
        match event.change {
            Change::Square { square, piece } => self.square_changed(square, piece),
            Change::ClockPress(color) => {
                self.clock.press(due, color);
                self.clock_changed(due);
            }
            Change::ClockReset => {
                let (setting, first) = self.clock_setting;
                self.clock = EmulatedClock::new(setting, first);
                self.clock.start(due);
                self.clock_changed(due);
            }
        }
    }

    fn square_changed(&mut self, square: Square, piece: Option<shakmaty::Piece>) {
        if self.board.piece_at(square) == piece {
            return;
        }
        change::set(&mut self.board, square, piece);
        if self.mode != Mode::Idle {
            let index = index_from_square(self.reported(square));
            self.send(msg::field_update(index, code_from_piece(piece)));
        }
    }

    /// Where the board says `square` is (its numbering does not turn with it).
    fn reported(&self, square: Square) -> Square {
        if self.rotated {
            square.rotate_180()
        } else {
            square
        }
    }

    fn clock_changed(&mut self, now: Millis) {
        if matches!(self.mode, Mode::Update | Mode::UpdateNice) {
            self.send_clock(now);
        }
        if self.mode == Mode::UpdateNice {
            self.tick = self.clock.next_display_change(now);
        }
    }

    fn send_clock(&mut self, now: Millis) {
        self.send(msg::bwtime(&self.clock.report(now)));
    }

    fn send(&mut self, bytes: Vec<u8>) {
        if self.plug.plugged() {
            self.out.push_back(bytes);
        }
    }

    fn set_mode(&mut self, now: Millis, mode: Mode) {
        self.mode = mode;
        self.periodic = (mode == Mode::Update).then_some(now + UPDATE_PERIOD);
        self.tick = match mode {
            Mode::UpdateNice => self.clock.next_display_change(now),
            _ => None,
        };
        if mode != Mode::Idle && !self.script.started() {
            self.start_script(now);
        }
    }

    fn command(&mut self, now: Millis, command: ReceivedCommand) {
        if command != ReceivedCommand::BusMode {
            self.bus_mode = false;
        }
        match command {
            ReceivedCommand::Command(host) => self.host_command(now, host),
            ReceivedCommand::BusMode => {
                self.bus_mode = true;
                self.set_mode(now, Mode::Idle);
            }
            ReceivedCommand::OtherClock { code, .. } => self.send(msg::bwtime_ack(code)),
            ReceivedCommand::EepromDump => self.notices.push_back(Notice::Refused(0x49)),
            ReceivedCommand::BootLoader => self.notices.push_back(Notice::Refused(0x4e)),
        }
    }

    /// Carries out a command a host may send.
    fn host_command(&mut self, now: Millis, command: HostCommand) {
        let id = &self.identity;
        let reply = match command {
            HostCommand::Reset => return self.set_mode(now, Mode::Idle),
            HostCommand::SendUpdate => return self.set_mode(now, Mode::Update),
            HostCommand::SendUpdateBoard => return self.set_mode(now, Mode::UpdateBoard),
            HostCommand::SendUpdateNice => return self.set_mode(now, Mode::UpdateNice),
            HostCommand::SendClock => return self.send_clock(now),
            HostCommand::Clock(clock) => return self.clock_command(now, &clock),
            HostCommand::SendBoard => msg::board_dump(&self.dump()),
            HostCommand::SendVersion => msg::version(id.version.0, id.version.1),
            HostCommand::ReturnSerialNumber => msg::serial_nr(&id.serial),
            HostCommand::ReturnLongSerialNumber => msg::long_serial_nr(&id.long_serial),
            HostCommand::SendTrademark => msg::trademark(&id.trademark),
            HostCommand::ReturnBusAddress => msg::bus_address(id.bus_address),
            HostCommand::SendBatteryStatus => msg::battery_status(&id.battery),
        };
        self.send(reply);
    }

    /// The 64 piece codes in DGT square order, as the board senses them.
    fn dump(&self) -> [u8; 64] {
        let mut codes = [0x00; 64];
        for (index, code) in (0u8..).zip(codes.iter_mut()) {
            if let Some(square) = square_from_index(index) {
                *code = code_from_piece(self.board.piece_at(self.reported(square)));
            }
        }
        codes
    }

    /// Acknowledges a clock command, then carries it out.
    fn clock_command(&mut self, now: Millis, command: &ClockCommand) {
        self.send(msg::bwtime_ack(command.code()));
        if let ClockCommand::Display { text, .. } = command {
            let shown = String::from_utf8_lossy(&text.bytes()).trim_end().to_owned();
            self.notices.push_back(Notice::Displayed(shown.clone()));
            self.follow(now, &shown);
        }
        if let ClockCommand::SetAndRun { left, right, run } = command {
            let run = match run {
                ClockRun::Left => Some(ClockSide::Left),
                ClockRun::Right => Some(ClockSide::Right),
                ClockRun::Neither => None,
            };
            self.clock.set(now, left.millis(), right.millis(), run);
            self.clock_changed(now);
        }
    }
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

impl EmulatedBoard for DgtBoardEmulator {
    /// Takes bytes from the host at `now` (after everything due before it). While unplugged
    /// they are lost.
    fn handle_bytes(&mut self, now: Millis, bytes: &[u8]) {
        self.handle_timeout(now);
        if !self.plug.plugged() {
            return;
        }
        self.decoder.push(bytes);
        while let Some(decoded) = self.decoder.poll() {
            match decoded {
                Ok(command) => self.command(now, command),
                // Bytes that are no command leave bus mode as they found it.
                Err(unread) => self
                    .notices
                    .push_back(Notice::NotUnderstood(unread.to_string())),
            }
        }
    }

    /// Does everything due at or before `now`, in time order.
    fn handle_timeout(&mut self, now: Millis) {
        while let Some((due, timer)) = self.next_timer().filter(|(due, _)| *due <= now) {
            self.fire(due, timer);
        }
    }

    /// The next time [`DgtBoardEmulator::handle_timeout`] must be called, if any.
    fn poll_timeout(&self) -> Option<Millis> {
        self.next_timer().map(|(due, _)| due)
    }

    /// The next message (or noise burst) to send, if any.
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
