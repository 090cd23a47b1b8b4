//! An emulated Chessnut board (Air, Air+, Go, Pro), sans-IO: host command bytes and the time go
//! in, the board's frames come out, each a notification of its own.
//!
//! [`ChessnutBoardEmulator`] never reads a clock, a port or a file. The board holds a piece per
//! square. Once the host starts the reports (`21 01 00`) it reports the whole position every
//! [`REPORT_MS`] (divided by the speed), whether or not anything changed, with its uptime; it
//! acknowledges the start, the LEDs and the beep (`23 01 00`), answers the battery request
//! with [`BATTERY_PERCENT`], and lights the squares the host sets. Unplugged (the Bluetooth link
//! dropped, the board switched off) it reads and sends nothing while the hands go on; plugged
//! in again it has forgotten the reports (the host must start them again) and its LEDs.
//!
//! As a Chessnut Move ([`EmulatorConfig::robot`]) a robot under the board sets the pieces to the
//! position the host sends (`42 21`): the reports pause, [`ROBOT_MS_PER_SQUARE`] a square
//! changed, then the board stands in that position and reports again; the hands that follow
//! one side leave that side's moves to the robot. Its lights are coloured (`43 20`), its battery
//! answered as `41 03 0c`.

mod options;
#[cfg(test)]
mod tests;

use std::collections::VecDeque;

use shakmaty::{Bitboard, Board, Square};

pub use options::{HELP, ROBOT_HELP, new_robot};

use super::chesslink::{Change, Script, play_segment};
use crate::emulation::follow::{Follower, Shown, follow};
use crate::emulation::noise::Noise;
use crate::emulation::plug::Plug;
use crate::emulation::{EmulatedBoard, Notice, Playing, ScriptPlayer, ScriptStart, Unplug};
use touchmove_boards::chessnut::wire::Corrupt;
use touchmove_boards::chessnut::wire::{BoardMessage, CommandDecoder, HostCommand, encode_message};
use touchmove_core::decode::StreamDecoder;
use touchmove_core::sensor::Millis;

/// How often the board reports the position once started, in ms at normal speed (about ten
/// times a second, as the public descriptions say).
pub const REPORT_MS: Millis = 100;

/// The battery level the emulated board answers with.
pub const BATTERY_PERCENT: u8 = 88;

/// How long a Chessnut Move's robot takes a square it changes, in ms at normal speed.
pub const ROBOT_MS_PER_SQUARE: Millis = 4_000;

/// The settings of a [`ChessnutBoardEmulator`].
#[derive(Debug, Clone)]
pub struct EmulatorConfig {
    /// What happens on the board.
    pub script: Script,
    /// When the script starts, how fast, on how noisy a link.
    pub playing: Playing,
    /// An unplugging, if any.
    pub unplug: Option<Unplug>,
    /// Whether the board is a Chessnut Move, whose robot sets the pieces the host sends.
    pub robot: bool,
}

impl EmulatorConfig {
    /// `script` at normal speed, starting at once, on a clean link, never unplugged.
    pub fn new(script: Script) -> EmulatorConfig {
        EmulatorConfig {
            script,
            playing: Playing::default(),
            unplug: None,
            robot: false,
        }
    }
}

/// An emulated Chessnut board.
#[derive(Debug)]
pub struct ChessnutBoardEmulator {
    /// The pieces on the board now.
    board: Board,
    script: ScriptPlayer<Change>,
    start: ScriptStart,
    /// The report period in ms of emulator time.
    report_ms: Millis,
    decoder: CommandDecoder,
    /// When the next report is due, once the host started them.
    next_report: Option<Millis>,
    /// When the board was switched on (its uptime counts from then).
    powered_at: Millis,
    /// The squares lit.
    leds: Bitboard,
    plug: Plug,
    noise: Option<Noise>,
    out: VecDeque<Vec<u8>>,
    notices: VecDeque<Notice>,
    /// Hands that carry out one side's moves as the LEDs show them.
    follower: Option<Follower>,
    /// Whether a robot sets the pieces the host sends (a Chessnut Move).
    robot: bool,
    /// The robot's work: when it is done, and the position it leaves.
    robot_done: Option<(Millis, Board)>,
    /// The speed the script plays at.
    speed: f64,
}

impl ChessnutBoardEmulator {
    /// A board set up as `config` says, powered up at emulator time 0.
    pub fn new(config: EmulatorConfig) -> ChessnutBoardEmulator {
        let speed = if config.playing.speed.is_finite() && config.playing.speed > 0.0 {
            config.playing.speed
        } else {
            1.0
        };
        let report_ms = ((REPORT_MS as f64) / speed).ceil().max(1.0) as Millis;
        let mut emulator = ChessnutBoardEmulator {
            board: config.script.start,
            script: ScriptPlayer::new(config.script.changes, config.playing.speed)
                .with_lap(config.script.lap),
            start: config.playing.start,
            report_ms,
            decoder: CommandDecoder::new(),
            next_report: None,
            powered_at: 0,
            leds: Bitboard::EMPTY,
            plug: Plug::new(config.unplug),
            noise: config
                .playing
                .noise
                .and_then(|rate| Noise::new(rate, config.playing.seed, 0)),
            out: VecDeque::new(),
            notices: VecDeque::new(),
            follower: None,
            robot: config.robot,
            robot_done: None,
            speed,
        };
        if emulator.start == ScriptStart::AtOnce {
            emulator.start_script(0);
        }
        emulator
    }

    /// The board with hands that carry out the moves of `follower`'s side as its LEDs show
    /// them (the move's two squares lit, and no other).
    pub(crate) fn with_follower(mut self, mut follower: Follower) -> ChessnutBoardEmulator {
        follower.take_notices(&mut self.notices);
        self.follower = Some(follower.with_guiding_lights());
        self
    }

    /// The pieces on the board now.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The squares lit now.
    pub fn leds(&self) -> Bitboard {
        self.leds
    }

    /// The robot is sent `target` at `now`: the reports pause while it sets the pieces, and
    /// the hands following the side whose move that is go on after it.
    fn robot_set(&mut self, now: Millis, target: Board) {
        let changed = Square::ALL
            .iter()
            .filter(|&&square| self.board.piece_at(square) != target.piece_at(square))
            .count() as u64;
        let motion = ((ROBOT_MS_PER_SQUARE.saturating_mul(changed.max(1)) as f64) / self.speed)
            .ceil() as Millis;
        let done = now.saturating_add(motion);
        self.next_report = None;
        let segment = self
            .follower
            .as_mut()
            .and_then(|follower| follower.set_by_robot(&target));
        if let Some(follower) = self.follower.as_mut() {
            follower.take_notices(&mut self.notices);
        }
        play_segment(&mut self.script, done, segment, &mut self.notices);
        self.robot_done = Some((done, target));
    }

    /// The robot has set the pieces: the board stands as sent and reports again.
    fn robot_finished(&mut self, at: Millis) {
        if let Some((_, target)) = self.robot_done.take() {
            self.board = target;
            self.report(at);
        }
    }

    fn start_script(&mut self, now: Millis) {
        self.script.start(now);
        self.notices.push_back(Notice::ScriptStarted);
    }

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
            // Switched on again: no reports until the host starts them, no LEDs.
            self.powered_at = at;
            self.next_report = None;
            self.leds = Bitboard::EMPTY;
            self.decoder = CommandDecoder::new();
        } else {
            self.out.clear();
        }
    }

    fn report(&mut self, at: Millis) {
        self.next_report = Some(at.saturating_add(self.report_ms));
        let uptime = u32::try_from(at.saturating_sub(self.powered_at) / 1000).unwrap_or(u32::MAX);
        self.send(&BoardMessage::Report {
            board: self.board.clone(),
            uptime,
        });
    }

    fn send(&mut self, message: &BoardMessage) {
        if self.plug.plugged() {
            self.out.push_back(encode_message(message));
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

    /// The hands look at the LEDs: a move they carry out goes on the script.
    fn follow(&mut self, now: Millis) {
        let leds = self.leds;
        let lit = |from: Square, to: Square| {
            leds == Bitboard::from_square(from) | Bitboard::from_square(to)
        };
        let segment = follow(
            self.follower.as_mut(),
            Shown::Lights(&lit),
            &mut self.notices,
        );
        play_segment(&mut self.script, now, segment, &mut self.notices);
    }

    /// Carries out `command`, received at `now`.
    fn command(&mut self, now: Millis, command: HostCommand) {
        if self.start == ScriptStart::OnHost && !self.script.started() {
            self.start_script(now);
        }
        match command {
            // While its robot moves, the board says nothing at all (the reports pause, as the
            // vendor says; that the acknowledgements pause too is this emulator's harder case).
            HostCommand::StartReports if self.robot_done.is_some() => {}
            HostCommand::StartReports => {
                self.send(&BoardMessage::Ack);
                if self.next_report.is_none() {
                    self.report(now);
                }
            }
            HostCommand::AskBattery => self.send(&BoardMessage::Battery {
                percent: BATTERY_PERCENT,
                charging: false,
            }),
            HostCommand::Leds(squares) => {
                self.leds = squares;
                self.send(&BoardMessage::Ack);
                self.follow(now);
            }
            HostCommand::Beep { .. } => self.send(&BoardMessage::Ack),
            HostCommand::RobotSet { board, .. } if self.robot => self.robot_set(now, board),
            HostCommand::ColourLeds(squares) if self.robot => self.leds = squares,
            HostCommand::AskRobotBattery if self.robot => {
                self.send(&BoardMessage::RobotBattery {
                    percent: BATTERY_PERCENT,
                    charging: false,
                });
            }
            HostCommand::RobotSet { .. }
            | HostCommand::ColourLeds(_)
            | HostCommand::AskRobotBattery => self.notices.push_back(Notice::NotUnderstood(
                "a Chessnut Move's command, sent to a board with no robot".to_owned(),
            )),
        }
    }
}

impl EmulatedBoard for ChessnutBoardEmulator {
    /// Takes bytes from the host at `now` (nothing is read while unplugged).
    fn handle_bytes(&mut self, now: Millis, bytes: &[u8]) {
        self.handle_timeout(now);
        if !self.plug.plugged() {
            return;
        }
        self.decoder.push(bytes);
        while let Some(decoded) = self.decoder.poll() {
            match decoded {
                Ok(command) => self.command(now, command),
                Err(Corrupt { dropped, why }) => {
                    self.notices.push_back(Notice::NotUnderstood(format!(
                        "{} bytes that make no command ({why}: {})",
                        dropped.len(),
                        crate::emulation::hex(&dropped)
                    )));
                }
            }
        }
    }

    /// Does everything due at or before `now`: the hands' changes, the reports, noise, the
    /// unplugging.
    fn handle_timeout(&mut self, now: Millis) {
        loop {
            let due = [
                self.script.due().map(|at| (at, 0)),
                self.plug.due().map(|at| (at, 1)),
                self.next_report.map(|at| (at, 2)),
                self.noise.as_ref().map(|noise| (noise.next(), 3)),
                self.robot_done.as_ref().map(|(at, _)| (*at, 4)),
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
                2 => self.report(at),
                3 => self.noise_burst(),
                _ => self.robot_finished(at),
            }
        }
    }

    fn poll_timeout(&self) -> Option<Millis> {
        [
            self.next_report,
            self.script.due(),
            self.plug.due(),
            self.noise.as_ref().map(Noise::next),
            self.robot_done.as_ref().map(|(at, _)| *at),
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
