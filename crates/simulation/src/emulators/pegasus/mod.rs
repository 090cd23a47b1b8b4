//! An emulated DGT Pegasus, sans-IO: host command bytes and the time go in, the board's
//! messages come out, each a notification of its own.
//!
//! [`PegasusBoardEmulator`] never reads a clock, a port or a file. The board senses which
//! squares are occupied, nothing more. It answers the DGT commands a Pegasus answers: the board
//! dump (`01` on an occupied square, `00` elsewhere), the version (1.0), the serial numbers,
//! the trademark and the battery ([`BATTERY_PERCENT`]); once the host turns field updates on
//! (`44`) it reports each square's change as it happens, until a reset (`40`). It lights the
//! squares the LED command (`60`) lists. It has no buttons: the script's clock presses are not
//! the board's, and its promotion choices are the player's at the host
//! ([`Notice::ChosenAtHost`]). Unplugged (the Bluetooth link dropped, the board
//! switched off) it reads and sends nothing while the hands go on; plugged in again it has
//! forgotten the updates and its LEDs.

mod commands;
mod options;
#[cfg(test)]
mod tests;

use std::collections::VecDeque;

use shakmaty::{Bitboard, Square};

pub use commands::{Command, CommandDecoder};
pub use options::HELP;

use super::hall::{Change, Script, ScriptEvent};
use super::promotion_of;
use crate::emulation::follow::{Follower, Shown, follow};
use crate::emulation::noise::Noise;
use crate::emulation::plug::Plug;
use crate::emulation::{
    EmulatedBoard, Notice, Playing, ProtocolScript, ScriptPlayer, ScriptStart, Unplug,
};
use touchmove_boards::dgt::wire::message::encode;
use touchmove_boards::dgt::wire::protocol::{command, index_from_square, message};
use touchmove_core::sensor::Millis;
use touchmove_firmware_protocol::Action;

/// The battery level the emulated board answers with.
pub const BATTERY_PERCENT: u8 = 88;

/// The long serial number the emulated board answers with.
pub const SERIAL: &[u8; 10] = b"P000000001";

/// The settings of a [`PegasusBoardEmulator`].
#[derive(Debug, Clone)]
pub struct EmulatorConfig {
    /// What happens on the board (an occupancy script: its button presses are not the
    /// board's).
    pub script: Script,
    /// When the script starts, how fast, on how noisy a link.
    pub playing: Playing,
    /// An unplugging, if any.
    pub unplug: Option<Unplug>,
}

impl EmulatorConfig {
    /// `script` at normal speed, starting at once, on a clean link, never unplugged.
    pub fn new(script: Script) -> EmulatorConfig {
        EmulatorConfig {
            script,
            playing: Playing::default(),
            unplug: None,
        }
    }
}

/// An emulated DGT Pegasus.
#[derive(Debug)]
pub struct PegasusBoardEmulator {
    /// The occupied squares now.
    occupied: Bitboard,
    script: ScriptPlayer<ScriptEvent>,
    start: ScriptStart,
    decoder: CommandDecoder,
    /// Whether field updates are on.
    updates: bool,
    /// The squares lit.
    leds: Vec<Square>,
    plug: Plug,
    noise: Option<Noise>,
    out: VecDeque<Vec<u8>>,
    notices: VecDeque<Notice>,
    follower: Option<Follower>,
}

impl PegasusBoardEmulator {
    /// A board set up as `config` says, powered up at emulator time 0.
    pub fn new(config: EmulatorConfig) -> PegasusBoardEmulator {
        let mut emulator = PegasusBoardEmulator {
            occupied: Bitboard(config.script.start),
            script: ScriptPlayer::new(config.script.events, config.playing.speed)
                .with_lap(config.script.lap),
            start: config.playing.start,
            decoder: CommandDecoder::default(),
            updates: false,
            leds: Vec::new(),
            plug: Plug::new(config.unplug),
            noise: config
                .playing
                .noise
                .and_then(|rate| Noise::new(rate, config.playing.seed, 0)),
            out: VecDeque::new(),
            notices: VecDeque::new(),
            follower: None,
        };
        if emulator.start == ScriptStart::AtOnce {
            emulator.start_script(0);
        }
        emulator
    }

    /// The board with hands that carry out the moves of `follower`'s side as its LEDs show
    /// them (the move's two squares lit, and no other).
    pub(crate) fn with_follower(mut self, mut follower: Follower) -> PegasusBoardEmulator {
        follower.take_notices(&mut self.notices);
        self.follower = Some(follower.with_guiding_lights());
        self
    }

    /// The occupied squares now.
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// The squares lit now, as the host listed them.
    pub fn leds(&self) -> &[Square] {
        &self.leds
    }

    fn start_script(&mut self, now: Millis) {
        self.script.start(now);
        self.notices.push_back(Notice::ScriptStarted);
    }

    /// Applies the hands' next change: a square's, reported when updates are on.
    fn change(&mut self) {
        let Some(event) = self.script.pop() else {
            return;
        };
        let (square, action) = match event.change {
            Change::Square { square, action } => (square, action),
            Change::Button(button) => {
                // No buttons: a promotion's piece is chosen at the host.
                if let Some(role) = promotion_of(button) {
                    self.notices.push_back(Notice::ChosenAtHost(role));
                }
                return;
            }
        };
        let square = Square::new(u32::from(square.index()));
        let placed = action == Action::Placed;
        if placed {
            self.occupied.add(square);
        } else {
            self.occupied.discard(square);
        }
        if self.updates {
            self.send(encode::field_update(
                index_from_square(square),
                u8::from(placed),
            ));
        }
    }

    fn toggle_plug(&mut self) {
        if self.plug.toggle(&mut self.notices) {
            self.updates = false;
            self.leds.clear();
            self.decoder = CommandDecoder::default();
        } else {
            self.out.clear();
        }
    }

    fn send(&mut self, bytes: Vec<u8>) {
        if self.plug.plugged() {
            self.out.push_back(bytes);
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

    fn dump(&self) -> Vec<u8> {
        let mut codes = [0u8; 64];
        for square in self.occupied {
            if let Some(code) = codes.get_mut(usize::from(index_from_square(square))) {
                *code = 0x01;
            }
        }
        encode::board_dump(&codes)
    }

    fn follow(&mut self, now: Millis) {
        let leds = self.leds.clone();
        let lit = |from: Square, to: Square| {
            leds.len() == 2 && leds.contains(&from) && leds.contains(&to)
        };
        let segment = follow(
            self.follower.as_mut(),
            Shown::Lights(&lit),
            &mut self.notices,
        );
        if let Some(segment) = segment {
            match Script::from_events(&segment.start, &segment.events) {
                Ok(script) => self.script.append(now, script.events),
                Err(error) => self
                    .notices
                    .push_back(Notice::HandsStopped(format!("the hands stop: {error}"))),
            }
        }
    }

    fn command(&mut self, now: Millis, command: Command) {
        if self.start == ScriptStart::OnHost && !self.script.started() {
            self.start_script(now);
        }
        match command {
            Command::Byte(command::RESET) => self.updates = false,
            Command::Byte(command::SEND_BRD) => self.send(self.dump()),
            Command::Byte(command::SEND_UPDATE_BRD) => self.updates = true,
            Command::Byte(command::RETURN_LONG_SERIALNR) => {
                self.send(encode::long_serial_nr(SERIAL));
            }
            Command::Byte(command::RETURN_SERIALNR) => {
                let short: [u8; 5] = [b'0', b'0', b'0', b'0', b'1'];
                self.send(encode::serial_nr(&short));
            }
            Command::Byte(command::SEND_TRADEMARK) => {
                self.send(encode::trademark(
                    "Digital Game Technology (emulated Pegasus)",
                ));
            }
            Command::Byte(command::SEND_VERSION) => self.send(encode::version(1, 0)),
            Command::Byte(command::SEND_BATTERY_STATUS) => self.send(encode::message(
                message::BATTERY_STATUS,
                &[BATTERY_PERCENT, 0, 0, 0, 0, 0, 0, 0, 2],
            )),
            Command::Byte(other) => self.notices.push_back(Notice::Refused(other)),
            Command::Leds(squares) => {
                self.leds = squares;
                self.follow(now);
            }
            Command::DeveloperKey => {}
        }
    }
}

impl EmulatedBoard for PegasusBoardEmulator {
    fn handle_bytes(&mut self, now: Millis, bytes: &[u8]) {
        self.handle_timeout(now);
        if !self.plug.plugged() {
            return;
        }
        self.decoder.push(bytes);
        while let Some(decoded) = self.decoder.poll() {
            match decoded {
                Ok(command) => self.command(now, command),
                Err(what) => self.notices.push_back(Notice::NotUnderstood(what)),
            }
        }
    }

    fn handle_timeout(&mut self, now: Millis) {
        loop {
            let due = [
                self.script.due().map(|at| (at, 0)),
                self.plug.due().map(|at| (at, 1)),
                self.noise.as_ref().map(|noise| (noise.next(), 2)),
            ]
            .into_iter()
            .flatten()
            .filter(|&(at, _)| at <= now)
            .min();
            let Some((_, which)) = due else {
                return;
            };
            match which {
                0 => self.change(),
                1 => self.toggle_plug(),
                _ => self.noise_burst(),
            }
        }
    }

    fn poll_timeout(&self) -> Option<Millis> {
        [
            self.script.due(),
            self.plug.due(),
            self.noise.as_ref().map(Noise::next),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.out.pop_front()
    }

    fn script_done(&self) -> bool {
        self.script.done() && self.follower.as_ref().is_none_or(Follower::done)
    }

    fn poll_notice(&mut self) -> Option<Notice> {
        self.notices.pop_front()
    }
}
