//! An emulated Square Off, sans-IO: the host's messages and the time go in, the board's
//! messages come out, each a notification of its own.
//!
//! [`SquareOffBoardEmulator`] never reads a clock, a port or a file. The board senses which
//! squares are occupied, nothing more, and reports each change as it happens (`0#e2u*`,
//! `0#e4d*`). It answers the occupancy asked (`30#R*`) file by file, lights the squares the
//! lights message (`25#…*`) names and keeps the last result shown (`27#…*`). It has no arm
//! driven here and no buttons: the script's clock presses are not the board's, and its
//! promotion choices are the player's at the host ([`Notice::ChosenAtHost`]). Unplugged (the
//! Bluetooth link dropped, the board switched off) it reads and sends nothing while the hands
//! go on; plugged in again it has forgotten its lights.

mod options;
#[cfg(test)]
mod tests;

use std::collections::VecDeque;

use shakmaty::{Bitboard, Square};

pub use options::HELP;

use super::hall::{Change, Script};
use super::promotion_of;
use crate::emulation::follow::{Follower, Shown, follow};
use crate::emulation::noise::Noise;
use crate::emulation::plug::Plug;
use crate::emulation::{
    EmulatedBoard, Notice, Playing, ProtocolScript, ScriptPlayer, ScriptStart, Unplug,
};
use touchmove_boards::squareoff::wire::{
    BoardMessage, Decoded, LIGHTS, Message, MessageDecoder, OCCUPANCY, OCCUPANCY_ASKED, OPEN,
    RESULT, lit,
};
use touchmove_core::sensor::Millis;
use touchmove_firmware_protocol::Action;

/// The settings of a [`SquareOffBoardEmulator`].
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

/// An emulated Square Off.
#[derive(Debug)]
pub struct SquareOffBoardEmulator {
    /// The occupied squares now.
    occupied: Bitboard,
    script: ScriptPlayer<super::hall::ScriptEvent>,
    start: ScriptStart,
    decoder: MessageDecoder,
    /// The squares lit.
    leds: Vec<Square>,
    /// The last result the host showed (`wt`, `bl`, `dw`).
    result: Option<String>,
    plug: Plug,
    noise: Option<Noise>,
    out: VecDeque<Vec<u8>>,
    notices: VecDeque<Notice>,
    follower: Option<Follower>,
}

impl SquareOffBoardEmulator {
    /// A board set up as `config` says, powered up at emulator time 0.
    pub fn new(config: EmulatorConfig) -> SquareOffBoardEmulator {
        let mut emulator = SquareOffBoardEmulator {
            occupied: Bitboard(config.script.start),
            script: ScriptPlayer::new(config.script.events, config.playing.speed)
                .with_lap(config.script.lap),
            start: config.playing.start,
            decoder: MessageDecoder::new(),
            leds: Vec::new(),
            result: None,
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

    /// The board with hands that carry out the moves of `follower`'s side as its lights show
    /// them (the move's two squares lit, and no other).
    pub(crate) fn with_follower(mut self, mut follower: Follower) -> SquareOffBoardEmulator {
        follower.take_notices(&mut self.notices);
        self.follower = Some(follower.with_guiding_lights());
        self
    }

    /// The occupied squares now.
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// The squares lit now, as the host named them.
    pub fn leds(&self) -> &[Square] {
        &self.leds
    }

    /// The last result the host showed on the board (`wt`, `bl`, `dw`).
    pub fn result(&self) -> Option<&str> {
        self.result.as_deref()
    }

    fn start_script(&mut self, now: Millis) {
        self.script.start(now);
        self.notices.push_back(Notice::ScriptStarted);
    }

    /// Applies the hands' next change: a square's, reported as it happens.
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
        let report = if action == Action::Placed {
            self.occupied.add(square);
            BoardMessage::Placed(square)
        } else {
            self.occupied.discard(square);
            BoardMessage::Lifted(square)
        };
        self.send(&report);
    }

    fn toggle_plug(&mut self) {
        if self.plug.toggle(&mut self.notices) {
            self.leds.clear();
            self.decoder = MessageDecoder::new();
        } else {
            self.out.clear();
        }
    }

    fn send(&mut self, message: &BoardMessage) {
        if self.plug.plugged() {
            self.out.push_back(message.message().to_board_bytes());
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

    fn message(&mut self, now: Millis, message: Message) {
        if self.start == ScriptStart::OnHost && !self.script.started() {
            self.start_script(now);
        }
        match (message.code.as_str(), message.body.as_str()) {
            (OCCUPANCY, OCCUPANCY_ASKED) => self.send(&BoardMessage::Occupancy(self.occupied)),
            (LIGHTS, body) => {
                self.leds = lit(body);
                self.follow(now);
            }
            (RESULT, body) => self.result = Some(body.to_owned()),
            (OPEN, _) => {}
            _ => self.notices.push_back(Notice::NotUnderstood(format!(
                "{}#{}*",
                message.code, message.body
            ))),
        }
    }
}

impl EmulatedBoard for SquareOffBoardEmulator {
    fn handle_bytes(&mut self, now: Millis, bytes: &[u8]) {
        self.handle_timeout(now);
        if !self.plug.plugged() {
            return;
        }
        self.decoder.push(bytes);
        while let Some(decoded) = self.decoder.poll() {
            match decoded {
                Decoded::Message(message) => self.message(now, message),
                Decoded::Corrupt { reason, .. } => {
                    self.notices.push_back(Notice::NotUnderstood(reason));
                }
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
