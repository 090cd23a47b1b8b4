//! What every emulated board shares, whatever its protocol: a script played at a speed, and
//! line noise. Sans-IO: the time is passed in.

pub(crate) mod noise;
mod script_player;

pub(crate) use script_player::{Scheduled, ScriptPlayer};
