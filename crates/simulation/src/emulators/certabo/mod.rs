//! An emulated Certabo board, sans-IO: the host's bytes and the time go in, the board's text
//! frames come out.
//!
//! [`CertaboBoardEmulator`] never reads a clock, a port or a file. From power-up it streams a
//! frame every [`EmulatorConfig::frame_ms`] ([`FRAME_MS`] unless told; divided by the speed),
//! unasked: an RFID board the chip under each square, each piece with its own chip drawn at
//! random (`chips.rs`), the chips moving with the pieces; a Sentio board the occupancy. The host's bytes are LED frames, 8 bytes each. An RFID
//! board's person first sets the spare queens on d6 and d3 beside the pieces of the standard
//! start (the one position a host learns chips from), for the host to learn their chips, and
//! takes them off [`SPARES_MS`] after the host's first bytes; the
//! script starts then, and a promotion's queen is the spare (a promotion to a piece of which
//! none is off the board is a piece of another set, unknown to the host: the player chooses
//! it at the host, [`Notice::ChosenAtHost`]). Unplugged it reads and sends
//! nothing while the hands go on; plugged in again it streams again, its LEDs out. Hands told
//! to ([`EmulatorConfig::answer_after`]) answer the LEDs asking where a piece went: they lift
//! the piece of their last move, if lit, and set it back.

mod answers;
mod chips;
mod in_hand;
mod options;
#[cfg(test)]
mod tests;

use std::collections::VecDeque;

use shakmaty::{Bitboard, Board, Square};

pub use answers::{ANSWER_HOLD_MS, ANSWER_PAUSE_MS};
pub use options::HELP;

use super::chesslink::{Change, Script, play_segment};
use crate::emulation::follow::{Follower, Shown, follow};
use crate::emulation::noise::Noise;
use crate::emulation::plug::Plug;
use crate::emulation::{EmulatedBoard, Notice, Playing, ScriptPlayer, ScriptStart, Unplug};
use answers::Answering;
use chips::SetOfChips;
use in_hand::InHand;
use touchmove_boards::certabo::wire::{Reading, decode_leds, encode_reading};
use touchmove_core::sensor::Millis;

/// How often the board sends a frame, in ms at normal speed (a whole RFID frame takes about a
/// quarter of a second at 38400 baud).
pub const FRAME_MS: Millis = 250;

/// How long the spare queens stand on d6 and d3 after the host's first bytes, in ms at normal
/// speed: time for the host to learn the chips from 7 frames, and a margin.
pub const SPARES_MS: Millis = 3000;

/// The settings of a [`CertaboBoardEmulator`].
#[derive(Debug, Clone)]
pub struct EmulatorConfig {
    /// What happens on the board.
    pub script: Script,
    /// When the script starts, how fast, on how noisy a line, with which dice (the chips too).
    pub playing: Playing,
    /// An unplugging, if any.
    pub unplug: Option<Unplug>,
    /// A Sentio board (occupancy only) rather than an RFID board.
    pub sentio: bool,
    /// How often the board sends a frame, in ms at normal speed (at least 1): [`FRAME_MS`]
    /// unless told (a Sentio's 8-number frame takes about 8 ms on the wire; its real period
    /// is not published).
    pub frame_ms: Millis,
    /// Hands that answer the LEDs asking where a piece went (the square it left, empty, and
    /// those it may stand on lit: among them the hands' last move's, the piece standing where
    /// they set it down): once lit so for this long (ms at normal speed), a person lifts that
    /// piece and sets it back [`ANSWER_HOLD_MS`] later. `None`: hands that never look at the
    /// LEDs so.
    pub answer_after: Option<Millis>,
}

impl EmulatorConfig {
    /// An RFID board playing `script` at normal speed, starting at once, on a clean line, never
    /// unplugged.
    pub fn new(script: Script) -> EmulatorConfig {
        EmulatorConfig {
            script,
            playing: Playing::default(),
            unplug: None,
            sentio: false,
            frame_ms: FRAME_MS,
            answer_after: None,
        }
    }
}

/// An emulated Certabo board.
#[derive(Debug)]
pub struct CertaboBoardEmulator {
    /// The pieces and their chips.
    set: SetOfChips,
    sentio: bool,
    script: ScriptPlayer<Change>,
    start: ScriptStart,
    /// The time between two frames, in ms of emulator time.
    frame_ms: Millis,
    /// The time the spare queens stand, in ms of emulator time.
    spares_ms: Millis,
    /// When the spare queens are taken off, once the host spoke.
    spares_in_at: Option<Millis>,
    next_frame: Millis,
    /// The host's bytes not yet making a whole LED frame.
    pending: Vec<u8>,
    /// The squares lit.
    leds: Bitboard,
    plug: Plug,
    noise: Option<Noise>,
    out: VecDeque<Vec<u8>>,
    notices: VecDeque<Notice>,
    /// Hands that carry out one side's moves as the LEDs show them.
    follower: Option<Follower>,
    /// Whether the host has spoken.
    heard_host: bool,
    /// Hands that answer the LEDs asking where a piece went, if told to.
    answering: Option<Answering>,
    /// What each side holds: a piece set down from off the board is a promotion's.
    in_hand: InHand,
}

impl CertaboBoardEmulator {
    /// A board set up as `config` says, powered up at emulator time 0 (an RFID board's spare
    /// queens on d6 and d3).
    pub fn new(config: EmulatorConfig) -> CertaboBoardEmulator {
        let speed = if config.playing.speed.is_finite() && config.playing.speed > 0.0 {
            config.playing.speed
        } else {
            1.0
        };
        let scaled = |ms: Millis| ((ms as f64) / speed).ceil().max(1.0) as Millis;
        let mut set = SetOfChips::new(&config.script.start, config.playing.seed);
        // The spare queens are set out for the host to learn their chips, which it does only
        // from the standard start position.
        let learnable = config.script.start == Board::new();
        if !config.sentio && learnable {
            set.spares_out();
        }
        let mut emulator = CertaboBoardEmulator {
            set,
            sentio: config.sentio,
            script: ScriptPlayer::new(config.script.changes, config.playing.speed)
                .with_lap(config.script.lap),
            start: config.playing.start,
            frame_ms: scaled(config.frame_ms.max(1)),
            spares_ms: if config.sentio || !learnable {
                0
            } else {
                scaled(SPARES_MS)
            },
            spares_in_at: None,
            next_frame: 0,
            pending: Vec::new(),
            leds: Bitboard::EMPTY,
            plug: Plug::new(config.unplug),
            noise: config
                .playing
                .noise
                .and_then(|rate| Noise::new(rate, config.playing.seed, 0)),
            out: VecDeque::new(),
            notices: VecDeque::new(),
            follower: None,
            heard_host: false,
            answering: config
                .answer_after
                .map(|after| Answering::new(scaled(after))),
            in_hand: InHand::default(),
        };
        if emulator.start == ScriptStart::AtOnce {
            emulator.host_spoke(0);
        }
        emulator
    }

    /// The board with hands that carry out the moves of `follower`'s side as its LEDs show them
    /// (the move's two squares lit, and no other).
    pub(crate) fn with_follower(mut self, mut follower: Follower) -> CertaboBoardEmulator {
        follower.take_notices(&mut self.notices);
        self.follower = Some(follower.with_guiding_lights());
        self
    }

    /// The pieces on the board now.
    pub fn board(&self) -> Board {
        self.set.board()
    }

    /// The squares lit now.
    pub fn leds(&self) -> Bitboard {
        self.leds
    }

    /// The host spoke first at `now`: the spare queens come off after their time, then the
    /// script starts.
    fn host_spoke(&mut self, now: Millis) {
        if std::mem::replace(&mut self.heard_host, true) {
            return;
        }
        if self.spares_ms == 0 {
            self.start_script(now);
        } else {
            self.spares_in_at = Some(now.saturating_add(self.spares_ms));
        }
    }

    fn start_script(&mut self, now: Millis) {
        self.script.start(now);
        self.notices.push_back(Notice::ScriptStarted);
    }

    fn spares_in(&mut self, at: Millis) {
        self.spares_in_at = None;
        self.set.spares_in();
        self.start_script(at);
    }

    /// The script's next change. A piece set down that is not the set's (a promotion to a
    /// piece of which none is off the board) is one the board cannot name: the player chooses
    /// the promotion's piece at the host.
    fn change(&mut self) {
        if let Some(change) = self.script.pop() {
            let standing = self.set.board().piece_at(change.square);
            if let Some(answering) = self.answering.as_mut() {
                answering.changed(change.square, standing, change.piece);
            }
            match change.piece {
                Some(piece) => {
                    // On a Sentio board no promotion's piece is told.
                    let promotion = self.in_hand.set_down(change.square, piece) && self.sentio;
                    if !self.set.place(change.square, piece) || promotion {
                        self.notices.push_back(Notice::ChosenAtHost(piece.role));
                    }
                }
                None => {
                    if let Some(piece) = standing {
                        self.in_hand.lifted(change.square, piece);
                    }
                    self.set.lift(change.square);
                }
            }
        }
    }

    fn toggle_plug(&mut self, at: Millis) {
        if self.plug.toggle(&mut self.notices) {
            // Switched on again: streaming, its LEDs out.
            self.leds = Bitboard::EMPTY;
            if let Some(answering) = self.answering.as_mut() {
                answering.lights_out();
            }
            self.pending.clear();
            self.next_frame = at;
        } else {
            self.out.clear();
        }
    }

    fn frame(&mut self, at: Millis) {
        self.next_frame = at.saturating_add(self.frame_ms);
        if !self.plug.plugged() {
            return;
        }
        let reading = if self.sentio {
            Reading::Occupancy(self.set.board().occupied())
        } else {
            Reading::Chips(Box::new(self.set.frame()))
        };
        self.out.push_back(encode_reading(&reading));
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

    /// The hands look at the LEDs at `now`, if they answer questions ([`Answering::heed`]).
    fn heed(&mut self, now: Millis) {
        let board = self.set.board();
        if let Some(answering) = self.answering.as_mut() {
            answering.heed(now, self.leds, &board);
        }
    }

    /// A person answers the question lit at `at`, before the hands go on.
    fn answer(&mut self, at: Millis) {
        let board = self.set.board();
        let answer = self
            .answering
            .as_mut()
            .and_then(|answering| answering.answer(&board));
        if let Some(changes) = answer {
            self.script.insert(at, changes.to_vec(), ANSWER_PAUSE_MS);
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
}

impl EmulatedBoard for CertaboBoardEmulator {
    /// Takes bytes from the host at `now`: LED frames of 8 bytes (nothing is read while
    /// unplugged).
    fn handle_bytes(&mut self, now: Millis, bytes: &[u8]) {
        self.handle_timeout(now);
        if !self.plug.plugged() {
            return;
        }
        if self.start == ScriptStart::OnHost {
            self.host_spoke(now);
        }
        self.pending.extend_from_slice(bytes);
        while self.pending.len() >= 8 {
            let frame: Vec<u8> = self.pending.drain(..8).collect();
            self.leds = decode_leds(&frame);
            self.heed(now);
            self.follow(now);
        }
    }

    /// Does everything due at or before `now`: the hands' changes, the frames, the spare
    /// queens, noise, the unplugging.
    fn handle_timeout(&mut self, now: Millis) {
        loop {
            let due = [
                self.script.due().map(|at| (at, 0)),
                self.plug.due().map(|at| (at, 1)),
                Some((self.next_frame, 2)),
                self.noise.as_ref().map(|noise| (noise.next(), 3)),
                self.spares_in_at.map(|at| (at, 4)),
                self.answering
                    .as_ref()
                    .and_then(Answering::due)
                    .map(|at| (at, 5)),
            ]
            .into_iter()
            .flatten()
            .filter(|&(at, _)| at <= now)
            .min();
            let Some((at, which)) = due else {
                return;
            };
            match which {
                0 => {
                    // The hands look at the LEDs again once they have moved.
                    self.change();
                    self.heed(at);
                }
                1 => self.toggle_plug(at),
                2 => self.frame(at),
                3 => self.noise_burst(),
                4 => self.spares_in(at),
                _ => self.answer(at),
            }
        }
    }

    fn poll_timeout(&self) -> Option<Millis> {
        [
            Some(self.next_frame),
            self.script.due(),
            self.plug.due(),
            self.noise.as_ref().map(Noise::next),
            self.spares_in_at,
            self.answering.as_ref().and_then(Answering::due),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.out.pop_front()
    }

    fn script_done(&self) -> bool {
        self.heard_host
            && self.spares_in_at.is_none()
            && self
                .answering
                .as_ref()
                .is_none_or(|answering| answering.due().is_none())
            && self.script.done()
            && self.follower.as_ref().is_none_or(Follower::done)
    }

    fn poll_notice(&mut self) -> Option<Notice> {
        self.notices.pop_front()
    }

    /// An RFID board's chips, every piece's of its set, as a calibration keeps them.
    fn calibration(&self) -> Option<String> {
        (!self.sentio).then(|| {
            self.set
                .every_chip()
                .map(|(piece, chip)| format!("{} {chip}\n", piece.char()))
                .collect()
        })
    }
}
