//! What every emulated board shares, whatever its protocol: the trait its runner drives, the
//! options it is made from, a script played at a speed, and line noise. Sans-IO: the time is
//! passed in.

mod board;
pub(crate) mod follow;
mod from_options;
pub(crate) mod noise;
mod options;
pub(crate) mod plug;
mod protocol_script;
mod script_error;
mod script_player;

pub use board::{EmulatedBoard, Notice, hex};
pub use from_options::{FromOptions, boxed};
pub use options::{
    BoardOption, ClockModel, ClockSide, EmulatorError, EmulatorOptions, Playing, Presses,
    ScriptSource, ScriptStart, Unplug,
};
pub use protocol_script::ProtocolScript;
pub use script_error::ScriptError;
pub(crate) use script_player::{Scheduled, ScriptPlayer};
