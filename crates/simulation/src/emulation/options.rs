//! How an emulated board is asked to play, whatever its protocol: the options `emulate NAME`
//! gives the protocol's emulator constructor ([`crate::emulators::Emulator::new`]).

use std::num::NonZeroU32;

use shakmaty::{Chess, Move};

use super::follow::{Follower, Segment};
use super::protocol_script::ProtocolScript;
use super::script_error::ScriptError;
use crate::simulate::{BoardKind, HandStyle, SequenceGame};
use touchmove_core::clock::TimeControl;
use touchmove_core::sensor::Millis;
use touchmove_core::sensor_log::SensorLog;

/// What happens on an emulated board.
#[derive(Debug, Clone)]
pub enum ScriptSource {
    /// A sensor log, as recorded (a board that cannot identify pieces ignores the letters).
    Log(Box<SensorLog>),
    /// A game, played by simulated hands.
    Game {
        /// The position it starts from.
        start: Chess,
        /// Its moves, each legal where it is played.
        moves: Vec<Move>,
        /// Messy hands (slides, knocks, bounces, every capture and promotion order...) instead
        /// of clean ones.
        messy: bool,
    },
    /// Games one after another, played by simulated hands: after each (it should end on the
    /// board: a mate, a stalemate, a dead position), the board is cleared and set up again for
    /// the next; after the last, for the first, and round again (the script is never done).
    Games {
        /// The games, in the order they are played.
        games: Vec<SequenceGame>,
        /// Messy hands instead of clean ones.
        messy: bool,
    },
}

/// When an emulated board's script starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScriptStart {
    /// At emulator time 0.
    AtOnce,
    /// When a host first asks the board for its reports (a DGT update mode, a first intact
    /// frame, a first status request), so that a host that connects late misses nothing.
    OnHost,
}

/// A stretch of time during which the board is unplugged: it reads and sends nothing, but what
/// happens on it still happens. It comes back in its power-up state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unplug {
    /// When it is unplugged, in ms of emulator time.
    pub at: Millis,
    /// For how long, in ms.
    pub duration: Millis,
}

/// The side of a chess clock (the core's, re-exported for the emulators' options).
pub use touchmove_core::clock::ClockSide;

/// When the simulated hands press the clock: the habits players have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Presses {
    /// After every move, whoever's it is (the player presses for the moves they carry out for
    /// the host too).
    #[default]
    Every,
    /// After the hands' own moves only: not after a move carried out for the host
    /// ([`EmulatorOptions::follow`]'s side). Without it, the same as [`Presses::Every`].
    Own,
    /// Never: the clock is left alone (online, the server's clock is the game's).
    Never,
}

/// How a DGT clock plugged into an emulated board reports its lever.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ClockModel {
    /// A DGT XL: the lever bit is where the lever physically stands; a setting by the host
    /// changes the times and the side that runs, never the lever.
    #[default]
    Xl,
    /// A DGT 3000 as issue 43 saw one: a host's set-and-run moves the lever bit too, high on
    /// the side it sets running, as a press would.
    Dgt3000,
}

/// How every emulated board plays its script, whatever its protocol: when the script starts,
/// how fast, on how noisy a line, with which dice.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Playing {
    /// When the script starts.
    pub start: ScriptStart,
    /// Script times are divided by this (2.0 plays twice as fast); not a positive number: 1.
    pub speed: f64,
    /// Bursts of garbage bytes per second on the line (`None`: a clean line).
    pub noise: Option<f64>,
    /// The seed of the noise.
    pub seed: u64,
}

impl Default for Playing {
    /// At once, at normal speed, on a clean line.
    fn default() -> Playing {
        Playing {
            start: ScriptStart::AtOnce,
            speed: 1.0,
            noise: None,
            seed: 0,
        }
    }
}

impl Playing {
    /// As `options` ask.
    pub fn of(options: &EmulatorOptions) -> Playing {
        Playing {
            start: options.start,
            speed: options.speed,
            noise: options.noise,
            seed: options.seed,
        }
    }
}

/// How an emulated board plays: what every emulator takes, and the options only some boards
/// have (an emulator asked for one its board lacks says so: [`EmulatorError::Unsupported`]).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct EmulatorOptions {
    /// What happens on the board.
    pub script: ScriptSource,
    /// When the script starts.
    pub start: ScriptStart,
    /// Script times are divided by this (2.0 plays twice as fast); not a positive number: 1.
    pub speed: f64,
    /// Bursts of garbage bytes per second on the line (`None`: a clean line).
    pub noise: Option<f64>,
    /// The seed of every die (hands, scans, noise).
    pub seed: u64,
    /// An unplugging, if any.
    pub unplug: Option<Unplug>,
    /// The board stands turned round (Black on the connector side).
    pub rotated: bool,
    /// The side of the board's clock White's time is on.
    pub white_on_clock: ClockSide,
    /// The board's clock is set to this time control's first period.
    pub time_control: Option<TimeControl>,
    /// Every Nth change report is lost on the line (a sequence gap the host must notice).
    pub drop_every: Option<NonZeroU32>,
    /// The range of the simulated hands' thinking time before each move, in ms (`None`: the
    /// hand style's own, 0.3 to 20 s).
    pub thinking_ms: Option<(Millis, Millis)>,
    /// The side whose moves the hands carry out as the host shows them (an engine's: the DGT
    /// clock's text, the lit squares) instead of as the game script says; the script's other
    /// moves are read again in the game as played. Only with a [`ScriptSource::Game`].
    pub follow: Option<shakmaty::Color>,
    /// The serial number a DGT board says (its SERIALNR, five digits: `n` modulo 100000),
    /// when not the emulator's own (31415): boards emulated side by side tell themselves
    /// apart by it, as LiveChess's clients find a board.
    pub serial: Option<u32>,
    /// When the hands press the clock.
    pub presses: Presses,
    /// How the board's clock reports its lever (a DGT board's).
    pub clock_model: ClockModel,
    /// A Certabo Sentio board (occupancy only) rather than an RFID board.
    pub sentio: bool,
    /// Hands that answer a Sentio board's lights asking where a piece went, once lit this
    /// long (ms of script time): the piece lifted where they set it and set back.
    pub answer_after: Option<Millis>,
}

impl EmulatorOptions {
    /// `script` at normal speed, starting at once, on a clean line, the right way round, White
    /// on the clock's left, nothing lost.
    pub fn new(script: ScriptSource) -> EmulatorOptions {
        EmulatorOptions {
            script,
            start: ScriptStart::AtOnce,
            speed: 1.0,
            noise: None,
            seed: 0,
            unplug: None,
            rotated: false,
            white_on_clock: ClockSide::Left,
            time_control: None,
            drop_every: None,
            thinking_ms: None,
            follow: None,
            serial: None,
            presses: Presses::Every,
            clock_model: ClockModel::Xl,
            sentio: false,
            answer_after: None,
        }
    }

    /// The hands that play a game script on `board`: messy or clean, with the thinking time
    /// asked for.
    pub(crate) fn hand_style(&self, board: BoardKind, messy: bool) -> HandStyle {
        let mut style = if messy {
            HandStyle::messy(board)
        } else {
            HandStyle::clean(board)
        };
        style.clock &= self.presses != Presses::Never;
        match self.thinking_ms {
            Some(thinking_ms) => HandStyle {
                thinking: true,
                thinking_ms,
                ..style
            },
            None => style,
        }
    }

    /// What a board whose script is `S` plays: the opening of the hands that follow the host
    /// (`opening`, from [`EmulatorOptions::follower_of`]), else the options' script in `S`'s
    /// style.
    pub(crate) fn script<S: ProtocolScript>(
        &self,
        opening: Option<&Segment>,
    ) -> Result<S, ScriptError> {
        if let Some(opening) = opening {
            return S::from_events(&opening.start, &opening.events);
        }
        match &self.script {
            ScriptSource::Log(log) => S::from_log(log, self.seed),
            ScriptSource::Game {
                start,
                moves,
                messy,
            } => S::from_game(start, moves, &self.hand_style(S::BOARD, *messy), self.seed),
            ScriptSource::Games { games, messy } => {
                S::from_games(games, &self.hand_style(S::BOARD, *messy), self.seed)
            }
        }
    }

    /// The hands that follow the host on a board whose script is `S` (see
    /// [`EmulatorOptions::follower`]).
    pub(crate) fn follower_of<S: ProtocolScript>(
        &self,
    ) -> Result<Option<(Follower, Segment)>, EmulatorError> {
        self.follower(S::style, S::BOARD)
    }

    /// The hands that follow the host for [`EmulatorOptions::follow`]'s side in `style`, and
    /// their first events (timed from 0), if asked for; an error for a script that is not one
    /// game.
    pub(crate) fn follower(
        &self,
        style: impl Fn(&HandStyle) -> HandStyle,
        board: BoardKind,
    ) -> Result<Option<(Follower, Segment)>, EmulatorError> {
        let Some(follows) = self.follow else {
            return Ok(None);
        };
        let ScriptSource::Game {
            start,
            moves,
            messy,
        } = &self.script
        else {
            return Err(EmulatorError::FollowNeedsGame);
        };
        let hands = style(&self.hand_style(board, *messy));
        let mut follower = Follower::new(start, moves, follows, hands, self.seed)
            .pressing_for_the_host(self.presses == Presses::Every);
        let opening = follower.opening()?;
        Ok(Some((follower, opening)))
    }

    /// Fails with [`EmulatorError::Unsupported`] for the first of `lacking` that is set: for
    /// an emulator whose board lacks those options.
    pub fn refuse(&self, lacking: &[BoardOption]) -> Result<(), EmulatorError> {
        match lacking.iter().find(|option| option.is_set(self)) {
            Some(option) => Err(EmulatorError::Unsupported { option: *option }),
            None => Ok(()),
        }
    }
}

/// The options of [`EmulatorOptions`] only some boards have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardOption {
    /// [`EmulatorOptions::unplug`].
    Unplug,
    /// [`EmulatorOptions::rotated`].
    Rotated,
    /// [`EmulatorOptions::white_on_clock`] on the right.
    WhiteOnClock,
    /// [`EmulatorOptions::time_control`].
    TimeControl,
    /// [`EmulatorOptions::drop_every`].
    DropEvery,
    /// [`EmulatorOptions::serial`].
    Serial,
    /// [`EmulatorOptions::clock_model`] other than the DGT XL.
    ClockModel,
    /// [`EmulatorOptions::sentio`].
    Sentio,
    /// [`EmulatorOptions::answer_after`].
    AnswerAfter,
}

impl BoardOption {
    /// Whether `options` asks for it.
    fn is_set(self, options: &EmulatorOptions) -> bool {
        match self {
            BoardOption::Unplug => options.unplug.is_some(),
            BoardOption::Rotated => options.rotated,
            BoardOption::WhiteOnClock => options.white_on_clock != ClockSide::Left,
            BoardOption::TimeControl => options.time_control.is_some(),
            BoardOption::DropEvery => options.drop_every.is_some(),
            BoardOption::Serial => options.serial.is_some(),
            BoardOption::ClockModel => options.clock_model != ClockModel::Xl,
            BoardOption::Sentio => options.sentio,
            BoardOption::AnswerAfter => options.answer_after.is_some(),
        }
    }

    /// How the command line spells it.
    pub fn flag(self) -> &'static str {
        match self {
            BoardOption::Unplug => "--unplug-at",
            BoardOption::Rotated => "--rotated",
            BoardOption::WhiteOnClock => "--white-on-clock",
            BoardOption::TimeControl => "--time-control",
            BoardOption::DropEvery => "--drop-every",
            BoardOption::Serial => "--serial",
            BoardOption::ClockModel => "--clock",
            BoardOption::Sentio => "--sentio",
            BoardOption::AnswerAfter => "--answer-after",
        }
    }
}

/// Why an emulated board could not be made.
#[derive(Debug, thiserror::Error)]
pub enum EmulatorError {
    /// The script could not be made (a log this board cannot play, a game the hands cannot).
    #[error("cannot make the script")]
    Script(#[from] ScriptError),
    /// `follow` asked of a script that is not one game.
    #[error("the hands can follow the host only in a game script (--pgn)")]
    FollowNeedsGame,
    /// An option this board does not have (a Hall board has no clock to set).
    #[error("this board has no {}", option.flag())]
    Unsupported {
        /// The option.
        option: BoardOption,
    },
}
