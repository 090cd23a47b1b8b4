//! An emulated Millennium ChessLink board, sans-IO: host command bytes and the time go in, reply
//! bytes come out.
//!
//! [`ChessLinkBoardEmulator`] never reads a clock, a port or a file. The board holds a piece per
//! square and scans them every scan time (E2ROM address 01, 20 × 2.048 ms by default). What it
//! sends without being asked follows E2ROM address 02: a status every scan, none, one every
//! address-03 time, or one on a change (at once, or once the board has read the same for 2 to 5
//! scans). The E2ROM starts with automatic reports off (a host sets them; the factory default,
//! a status every scan, would fill a pseudo-terminal nobody reads). It answers `S`, `L`, `X`,
//! `V`, `W` and `R`; `T` resets it (3 s without scanning or answering). Unplugged, it reads and
//! sends nothing while the hands go on; plugged in again it has forgotten the status it last
//! sent and its LEDs, not its E2ROM.

mod options;
mod script;
#[cfg(test)]
mod tests;

use std::collections::VecDeque;

use shakmaty::{Board, Square};

pub use options::{EONE_HELP, HELP};
pub(crate) use script::play_segment;
pub use script::{Change, Script};

use crate::emulation::follow::{Follower, Shown, follow};
use crate::emulation::noise::Noise;
use crate::emulation::plug::Plug;
use crate::emulation::{EmulatedBoard, Notice, Playing, ScriptPlayer, ScriptStart, Unplug};
use touchmove_boards::chesslink::wire::Corrupt;
use touchmove_boards::chesslink::wire::{
    BoardReply, CommandDecoder, E2ROM_AUTO_REPORTS, E2ROM_SCAN_TIME, FrameDecoder, HostCommand,
    LED_COUNT, corners, encode_reply,
};
use touchmove_core::decode::StreamDecoder;
use touchmove_core::sensor::Millis;

/// The firmware version the emulated board answers `V` with (its own: real boards answer
/// theirs).
pub const VERSION: (u8, u8) = (0x01, 0x0a);

/// How long a reset keeps the board from scanning and answering, in ms.
const RESET_MS: Millis = 3000;

/// E2ROM address 03: the time between timed automatic reports (units of 4.096 ms).
const E2ROM_REPORT_TIME: u8 = 0x03;

/// The settings of a [`ChessLinkBoardEmulator`].
#[derive(Debug, Clone)]
pub struct EmulatorConfig {
    /// What happens on the board.
    pub script: Script,
    /// When the script starts, how fast, on how noisy a line (`OnHost`: at the host's first
    /// intact command; at twice the speed the board also scans twice as often).
    pub playing: Playing,
    /// An unplugging, if any.
    pub unplug: Option<Unplug>,
}

impl EmulatorConfig {
    /// `script` at normal speed, starting at once, on a clean line, never unplugged.
    pub fn new(script: Script) -> EmulatorConfig {
        EmulatorConfig {
            script,
            playing: Playing::default(),
            unplug: None,
        }
    }
}

/// An emulated ChessLink board.
#[derive(Debug)]
pub struct ChessLinkBoardEmulator {
    /// The pieces on the board now.
    board: Board,
    script: ScriptPlayer<Change>,
    start: ScriptStart,
    /// How many times faster than real time the board plays and scans.
    speed: f64,
    decoder: CommandDecoder,
    /// The operating parameters (addresses 00 to 0f matter; the rest is the host's).
    e2rom: [u8; 256],
    /// The status last sent; `None` after a power-up (cleared).
    reported: Option<Board>,
    /// The last scan's reading and how many scans in a row have read it.
    last_scan: Option<(Board, u32)>,
    next_scan: Millis,
    next_timed_report: Millis,
    /// Until when a reset keeps the board busy.
    reset_until: Option<Millis>,
    /// The LED patterns the host set (slot time, patterns), if any.
    leds: Option<(u8, Box<[u8; LED_COUNT]>)>,
    plug: Plug,
    noise: Option<Noise>,
    out: VecDeque<Vec<u8>>,
    notices: VecDeque<Notice>,
    /// Hands that carry out one side's moves as the steady LEDs show them.
    follower: Option<Follower>,
}

impl ChessLinkBoardEmulator {
    /// The board with hands that carry out the moves of `follower`'s side as its steady LEDs
    /// show them (the four corners of the move's two squares).
    pub(crate) fn with_follower(mut self, mut follower: Follower) -> ChessLinkBoardEmulator {
        follower.take_notices(&mut self.notices);
        self.follower = Some(follower);
        self
    }

    /// The hands look at the LEDs: a move they carry out goes on the script.
    fn follow(&mut self, now: Millis) {
        let steady: Vec<usize> = self.leds.as_ref().map_or_else(Vec::new, |(_, patterns)| {
            (0..)
                .zip(patterns.iter())
                .filter(|&(_, &pattern)| pattern == 0xff)
                .map(|(led, _)| led)
                .collect()
        });
        let lit = |from: Square, to: Square| {
            let mut leds: Vec<usize> = corners(from).into_iter().chain(corners(to)).collect();
            leds.sort_unstable();
            leds.dedup();
            leds == steady
        };
        let segment = follow(
            self.follower.as_mut(),
            Shown::Lights(&lit),
            &mut self.notices,
        );
        play_segment(&mut self.script, now, segment, &mut self.notices);
    }

    /// A board set up as `config` says, powered up at emulator time 0.
    pub fn new(config: EmulatorConfig) -> ChessLinkBoardEmulator {
        let mut e2rom = [0u8; 256];
        if let Some(scan) = e2rom.get_mut(usize::from(E2ROM_SCAN_TIME)) {
            *scan = 20;
        }
        if let Some(reports) = e2rom.get_mut(usize::from(E2ROM_AUTO_REPORTS)) {
            *reports = 0b001;
        }
        if let Some(time) = e2rom.get_mut(usize::from(E2ROM_REPORT_TIME)) {
            *time = 250;
        }
        let mut emulator = ChessLinkBoardEmulator {
            board: config.script.start,
            script: ScriptPlayer::new(config.script.changes, config.playing.speed)
                .with_lap(config.script.lap),
            start: config.playing.start,
            speed: if config.playing.speed.is_finite() && config.playing.speed > 0.0 {
                config.playing.speed
            } else {
                1.0
            },
            decoder: FrameDecoder::commands(),
            e2rom,
            reported: None,
            last_scan: None,
            next_scan: 0,
            next_timed_report: 0,
            reset_until: None,
            leds: None,
            follower: None,
            plug: Plug::new(config.unplug),
            noise: config
                .playing
                .noise
                .and_then(|rate| Noise::new(rate, config.playing.seed, 0)),
            out: VecDeque::new(),
            notices: VecDeque::new(),
        };
        if emulator.start == ScriptStart::AtOnce {
            emulator.start_script(0);
        }
        emulator
    }

    /// The pieces on the board now.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The LED patterns the host last set (slot time and the 81 patterns), if any are lit.
    pub fn leds(&self) -> Option<&(u8, Box<[u8; LED_COUNT]>)> {
        self.leds.as_ref()
    }

    fn start_script(&mut self, now: Millis) {
        self.script.start(now);
        self.notices.push_back(Notice::ScriptStarted);
    }

    /// Applies the hands' next change.
    fn change(&mut self) {
        if let Some(change) = self.script.pop() {
            match change.piece {
                Some(piece) => self.board.set_piece_at(change.square, piece),
                None => self.board.discard_piece_at(change.square),
            }
        }
    }

    fn toggle_plug(&mut self, at: Millis) {
        if self.plug.toggle(&mut self.notices) {
            // Powered up again: the status and LEDs are cleared, the E2ROM kept.
            self.reported = None;
            self.last_scan = None;
            self.leds = None;
            self.decoder = FrameDecoder::commands();
            self.next_scan = at;
        } else {
            self.out.clear();
        }
    }

    fn resetting(&self, now: Millis) -> bool {
        self.reset_until.is_some_and(|until| now < until)
    }

    /// The scan due at `at`, and the automatic report it calls for.
    fn scan(&mut self, at: Millis) {
        let scan_units = self.e2rom_at(E2ROM_SCAN_TIME);
        let scan_units = if scan_units < 15 { 20 } else { scan_units };
        self.next_scan = at.saturating_add(self.scaled(u32::from(scan_units).saturating_mul(2048)));
        if !self.plug.plugged() || self.resetting(at) {
            return;
        }
        let same = match &self.last_scan {
            Some((board, count)) if *board == self.board => count.saturating_add(1),
            _ => 1,
        };
        self.last_scan = Some((self.board.clone(), same));
        let changed = self.reported.as_ref() != Some(&self.board);
        let send = match self.e2rom_at(E2ROM_AUTO_REPORTS) & 0b111 {
            0b000 => true,
            0b001 => false,
            0b010 => {
                let due = at >= self.next_timed_report;
                if due {
                    let units = u32::from(self.e2rom_at(E2ROM_REPORT_TIME).max(1));
                    self.next_timed_report =
                        at.saturating_add(self.scaled(units.saturating_mul(4096)));
                }
                due
            }
            0b011 => changed,
            // 0b100 to 0b111: the same reading for 2 to 5 scans.
            debounced => changed && same >= u32::from(debounced).saturating_sub(2),
        };
        if send {
            self.send_status();
        }
    }

    fn send_status(&mut self) {
        self.reported = Some(self.board.clone());
        self.send(&BoardReply::Status(self.board.clone()));
    }

    fn send(&mut self, reply: &BoardReply) {
        if self.plug.plugged() {
            self.out.push_back(encode_reply(reply));
        }
    }

    fn noise_burst(&mut self) {
        let Some(noise) = self.noise.as_mut() else {
            return;
        };
        let burst = noise.burst();
        if self.plug.plugged() {
            self.out.push_back(burst);
        }
    }

    /// `micros` of board time in ms of emulator time at the board's speed, rounded up, at
    /// least 1.
    fn scaled(&self, micros: u32) -> Millis {
        let ms = (f64::from(micros) / 1000.0 / self.speed).ceil();
        if ms >= 1.0 { ms as Millis } else { 1 }
    }

    fn e2rom_at(&self, address: u8) -> u8 {
        self.e2rom.get(usize::from(address)).copied().unwrap_or(0)
    }

    /// Carries out `command`, received at `now`.
    fn command(&mut self, now: Millis, command: HostCommand) {
        if self.start == ScriptStart::OnHost && !self.script.started() {
            self.start_script(now);
        }
        match command {
            HostCommand::Status => self.send_status(),
            HostCommand::Leds {
                slot_time,
                patterns,
            } => {
                self.leds = Some((slot_time, patterns));
                self.send(&BoardReply::Leds);
                self.follow(now);
            }
            HostCommand::LedsOff => {
                self.leds = None;
                self.send(&BoardReply::LedsOff);
                self.follow(now);
            }
            HostCommand::Reset => {
                self.reset_until = Some(now.saturating_add(RESET_MS));
                self.reported = None;
                self.last_scan = None;
                self.leds = None;
            }
            HostCommand::Version => self.send(&BoardReply::Version(VERSION.0, VERSION.1)),
            HostCommand::Write { address, value } => {
                if let Some(cell) = self.e2rom.get_mut(usize::from(address)) {
                    *cell = value;
                }
                self.send(&BoardReply::Written { address, value });
            }
            HostCommand::Read { address } => {
                let value = self.e2rom_at(address);
                self.send(&BoardReply::Read { address, value });
            }
        }
    }
}

impl EmulatedBoard for ChessLinkBoardEmulator {
    /// Takes bytes from the host at `now` (nothing is read while unplugged or resetting).
    fn handle_bytes(&mut self, now: Millis, bytes: &[u8]) {
        self.handle_timeout(now);
        if !self.plug.plugged() || self.resetting(now) {
            return;
        }
        self.decoder.push(bytes);
        while let Some(decoded) = self.decoder.poll() {
            match decoded {
                Ok(command) => self.command(now, command),
                Err(Corrupt { dropped }) => {
                    self.notices.push_back(Notice::NotUnderstood(format!(
                        "{} characters that make no command ({})",
                        dropped.len(),
                        crate::emulation::hex(&dropped)
                    )));
                }
            }
        }
    }

    /// Does everything due at or before `now`: the hands' changes, the scans and their
    /// reports, noise, the unplugging.
    fn handle_timeout(&mut self, now: Millis) {
        loop {
            let due = [
                self.script.due().map(|at| (at, 0)),
                self.plug.due().map(|at| (at, 1)),
                Some((self.next_scan, 2)),
                self.noise.as_ref().map(|noise| (noise.next(), 3)),
            ]
            .into_iter()
            .flatten()
            .filter(|&(at, _)| at <= now)
            .min();
            let Some((at, which)) = due else {
                return;
            };
            match which {
                0 => self.change(),
                1 => self.toggle_plug(at),
                2 => self.scan(at),
                _ => self.noise_burst(),
            }
        }
    }

    /// The next time [`ChessLinkBoardEmulator::handle_timeout`] must be called.
    fn poll_timeout(&self) -> Option<Millis> {
        [
            Some(self.next_scan),
            self.script.due(),
            self.plug.due(),
            self.noise.as_ref().map(Noise::next),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// The next bytes to send.
    fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.out.pop_front()
    }

    /// Whether the script has started and everything in it has happened.
    fn script_done(&self) -> bool {
        self.script.done() && self.follower.as_ref().is_none_or(Follower::done)
    }

    /// The next notice.
    fn poll_notice(&mut self) -> Option<Notice> {
        self.notices.pop_front()
    }
}
