//! What the emulated occupancy boards with lights and no buttons share (a DGT Pegasus, a Square
//! Off): the squares the hands leave occupied as the Hall script says, the script started by
//! the host, a link that can be unplugged, line noise, the squares lit and the hands that carry
//! out the moves they show ([`EmulatorConfig`] sets them up). Each board adds its own bytes: how
//! it reports a change, what it answers, what it forgets when unplugged.

use std::collections::VecDeque;

use shakmaty::{Bitboard, Square};

use super::hall::{Change, Script, ScriptEvent};
use crate::emulation::follow::{Follower, Shown, follow};
use crate::emulation::noise::Noise;
use crate::emulation::plug::Plug;
use crate::emulation::{Notice, Playing, ProtocolScript, ScriptPlayer, ScriptStart, Unplug};
use touchmove_core::sensor::Millis;
use touchmove_firmware_protocol::Action;
use touchmove_firmware_protocol::Square as HallSquare;

/// The settings of an emulated occupancy board (a Pegasus's, a Square Off's).
#[derive(Debug, Clone)]
pub struct EmulatorConfig {
    /// What happens on the board (an occupancy script: its button presses are not the
    /// board's).
    pub script: Script,
    /// When the script starts, how fast, on how noisy a link.
    pub playing: Playing,
    /// An unplugging, if any.
    pub unplug: Option<Unplug>,
    /// Hands that heed the lights: once the host has lit squares that differ from its game for
    /// this long (ms), a person sets the board back to the record's position, as the host's
    /// screen shows it ([`EmulatedBoard::screen`](crate::emulation::EmulatedBoard::screen)),
    /// and makes again the changes made since the board last showed it. `None`: hands that
    /// never look at the lights.
    pub set_back_after: Option<Millis>,
}

impl EmulatorConfig {
    /// `script` at normal speed, starting at once, on a clean link, never unplugged, its hands
    /// never looking at the lights.
    pub fn new(script: Script) -> EmulatorConfig {
        EmulatorConfig {
            script,
            playing: Playing::default(),
            unplug: None,
            set_back_after: None,
        }
    }
}

/// How long a person takes to move a piece while setting the board back (script time): quick,
/// as a person putting right what they know.
pub const SET_BACK_STEP_MS: Millis = 150;

/// How many times a person sets the board back in a game before no longer heeding the lights.
pub const SET_BACKS: usize = 3;

/// How long a person pauses once the board is set back, before making again what was made.
pub const SET_BACK_PAUSE_MS: Millis = 1_000;

/// The host's lights seen showing that the board differs from its game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Asked {
    /// When they were lit so.
    at: Millis,
}

/// What happened on the board that its own bytes answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Happening {
    /// The hands lifted a piece from `square` or set one down there (`placed`).
    Changed {
        /// The square.
        square: Square,
        /// Whether a piece was set down (else lifted).
        placed: bool,
    },
    /// The board was unplugged (its lights are out; it reads and sends nothing).
    Unplugged,
}

/// What is due next, in the order a tie is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Due {
    Change,
    Plug,
    Noise,
    SetBack,
}

/// An emulated occupancy board without its bytes.
#[derive(Debug)]
pub(crate) struct OccupancyBoard {
    /// The occupied squares now.
    occupied: Bitboard,
    script: ScriptPlayer<ScriptEvent>,
    start: ScriptStart,
    /// The squares lit.
    leds: Vec<Square>,
    plug: Plug,
    noise: Option<Noise>,
    out: VecDeque<Vec<u8>>,
    notices: VecDeque<Notice>,
    follower: Option<Follower>,
    /// How long the lights must show a difference before a person sets the board back.
    set_back_after: Option<Millis>,
    /// The lights showing a difference, while they do.
    asked: Option<Asked>,
    /// Whether the board was set back and the lights have not gone out since (a person sets
    /// it back again only once the host has followed it).
    set_back_pending: bool,
    /// How many times the board was set back.
    set_backs: usize,
    /// The occupied squares of the host's record, as its screen last showed them.
    screen: Option<Bitboard>,
    /// What the hands did, in order: each change with the occupancy before it.
    done: Vec<(Bitboard, ScriptEvent)>,
}

impl OccupancyBoard {
    /// A board set up as `config` says, powered up at emulator time 0.
    pub(crate) fn new(config: EmulatorConfig) -> OccupancyBoard {
        let EmulatorConfig {
            script,
            playing,
            unplug,
            set_back_after,
        } = config;
        let mut board = OccupancyBoard {
            occupied: Bitboard(script.start),
            script: ScriptPlayer::new(script.events, playing.speed).with_lap(script.lap),
            start: playing.start,
            leds: Vec::new(),
            plug: Plug::new(unplug),
            noise: playing
                .noise
                .and_then(|rate| Noise::new(rate, playing.seed, 0)),
            out: VecDeque::new(),
            notices: VecDeque::new(),
            follower: None,
            set_back_after,
            asked: None,
            set_back_pending: false,
            set_backs: 0,
            screen: None,
            done: Vec::new(),
        };
        if board.start == ScriptStart::AtOnce {
            board.start_script(0);
        }
        board
    }

    /// The board with hands that carry out the moves of `follower`'s side as its lights show
    /// them (the move's two squares lit, and no other).
    pub(crate) fn with_follower(mut self, mut follower: Follower) -> OccupancyBoard {
        follower.take_notices(&mut self.notices);
        self.follower = Some(follower.with_guiding_lights());
        self
    }

    /// The occupied squares now.
    pub(crate) fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// The squares lit now.
    pub(crate) fn leds(&self) -> &[Square] {
        &self.leds
    }

    /// Whether the board is plugged in (it reads and sends).
    pub(crate) fn plugged(&self) -> bool {
        self.plug.plugged()
    }

    fn start_script(&mut self, now: Millis) {
        self.script.start(now);
        self.notices.push_back(Notice::ScriptStarted);
    }

    /// The host sent a command at `now`: a script waiting for the host starts.
    pub(crate) fn host_spoke(&mut self, now: Millis) {
        if self.start == ScriptStart::OnHost && !self.script.started() {
            self.start_script(now);
        }
    }

    /// Sends `bytes` as one notification, if the board is plugged in.
    pub(crate) fn send(&mut self, bytes: Vec<u8>) {
        if self.plug.plugged() {
            self.out.push_back(bytes);
        }
    }

    /// Says `notice` to whoever runs the board.
    pub(crate) fn notice(&mut self, notice: Notice) {
        self.notices.push_back(notice);
    }

    /// Lights `squares` (and no other) at `now`; hands that follow the lights carry out the
    /// move they show.
    pub(crate) fn light(&mut self, now: Millis, squares: Vec<Square>) {
        if squares.is_empty() {
            self.set_back_pending = false;
        }
        let heeded = self.set_back_after.is_some() && self.set_backs < SET_BACKS;
        self.asked =
            (heeded && !squares.is_empty() && !self.set_back_pending).then_some(Asked { at: now });
        self.leds = squares;
        let leds = &self.leds;
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

    /// Runs what is due by `now` until something happens that the board's bytes answer: a
    /// square changed, the board unplugged. `None` once nothing more is due.
    pub(crate) fn advance(&mut self, now: Millis) -> Option<Happening> {
        loop {
            let (_, due) = [
                self.script.due().map(|at| (at, Due::Change)),
                self.plug.due().map(|at| (at, Due::Plug)),
                self.noise.as_ref().map(|noise| (noise.next(), Due::Noise)),
                self.set_back_at().map(|at| (at, Due::SetBack)),
            ]
            .into_iter()
            .flatten()
            .filter(|&(at, _)| at <= now)
            .min()?;
            let happened = match due {
                Due::Change => self.change(),
                Due::Plug => self.toggle_plug(),
                Due::Noise => {
                    self.noise_burst();
                    None
                }
                Due::SetBack => {
                    self.set_back(now);
                    None
                }
            };
            if happened.is_some() {
                return happened;
            }
        }
    }

    /// Applies the hands' next change: a square's; a promotion button is the player's choice
    /// at the host (no buttons on the board), another button nothing.
    fn change(&mut self) -> Option<Happening> {
        let event = self.script.pop()?;
        if self.set_back_after.is_some() {
            self.done.push((self.occupied, event));
        }
        let (square, action) = match event.change {
            Change::Square { square, action } => (square, action),
            Change::Button(button) => {
                if let Some(role) = promotion_of(button) {
                    self.notices.push_back(Notice::ChosenAtHost(role));
                }
                return None;
            }
        };
        let square = Square::new(u32::from(square.index()));
        let placed = action == Action::Placed;
        if placed {
            self.occupied.add(square);
        } else {
            self.occupied.discard(square);
        }
        Some(Happening::Changed { square, placed })
    }

    /// When a person sets the board back, if the lights ask it.
    fn set_back_at(&self) -> Option<Millis> {
        let after = self.set_back_after?;
        self.asked
            .filter(|_| self.plug.plugged())
            .map(|asked| asked.at.saturating_add(after))
    }

    /// What the host's screen shows of its record: its position's occupied squares.
    pub(crate) fn screen(&mut self, record: Bitboard) {
        self.screen = Some(record);
    }

    /// Sets the board back to the record's position, as the host's screen shows it, then makes
    /// again what was made since the board last showed it, before the hands go on.
    fn set_back(&mut self, now: Millis) {
        let (Some(_), Some(host)) = (self.asked.take(), self.screen) else {
            return;
        };
        self.set_back_pending = true;
        self.set_backs += 1;
        let Some(since) = self.done.iter().rposition(|(before, _)| *before == host) else {
            self.notices.push_back(Notice::HandsStopped(
                "the hands cannot set the board back: it never showed the host's position"
                    .to_owned(),
            ));
            return;
        };
        let lifts = self.occupied & !host;
        let places = host & !self.occupied;
        let step = |(index, (square, action)): (usize, (Square, Action))| {
            let t = SET_BACK_STEP_MS.saturating_mul(index as Millis);
            HallSquare::new(u8::from(square)).map(|square| ScriptEvent {
                t,
                change: Change::Square { square, action },
            })
        };
        let mut events: Vec<ScriptEvent> = lifts
            .into_iter()
            .map(|square| (square, Action::Lifted))
            .chain(places.into_iter().map(|square| (square, Action::Placed)))
            .enumerate()
            .filter_map(step)
            .collect();
        let set = events.last().map_or(0, |event| event.t);
        let again = self.done.get(since..).unwrap_or_default();
        let first = again.first().map_or(0, |(_, event)| event.t);
        events.extend(again.iter().map(|(_, event)| {
            ScriptEvent {
                t: set
                    .saturating_add(SET_BACK_PAUSE_MS)
                    .saturating_add(event.t.saturating_sub(first)),
                ..*event
            }
        }));
        self.script.insert(now, events, SET_BACK_PAUSE_MS);
    }

    fn toggle_plug(&mut self) -> Option<Happening> {
        if self.plug.toggle(&mut self.notices) {
            self.leds.clear();
            self.asked = None;
            Some(Happening::Unplugged)
        } else {
            self.out.clear();
            None
        }
    }

    fn noise_burst(&mut self) {
        let Some(noise) = self.noise.as_mut() else {
            return;
        };
        let burst = noise.burst();
        self.send(burst);
    }

    /// When something is next due.
    pub(crate) fn poll_timeout(&self) -> Option<Millis> {
        [
            self.script.due(),
            self.plug.due(),
            self.noise.as_ref().map(Noise::next),
            self.set_back_at(),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// The next notification to send.
    pub(crate) fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.out.pop_front()
    }

    /// Whether the hands have nothing more to do.
    pub(crate) fn script_done(&self) -> bool {
        self.script.done() && self.follower.as_ref().is_none_or(Follower::done)
    }

    /// The next notice.
    pub(crate) fn poll_notice(&mut self) -> Option<Notice> {
        self.notices.pop_front()
    }
}

/// The piece a promotion button chooses (none for the other buttons).
fn promotion_of(button: touchmove_firmware_protocol::Button) -> Option<shakmaty::Role> {
    use touchmove_firmware_protocol::Button;
    match button {
        Button::PromoteQueen => Some(shakmaty::Role::Queen),
        Button::PromoteRook => Some(shakmaty::Role::Rook),
        Button::PromoteBishop => Some(shakmaty::Role::Bishop),
        Button::PromoteKnight => Some(shakmaty::Role::Knight),
        Button::ClockWhite | Button::ClockBlack | Button::Adjust => None,
    }
}
