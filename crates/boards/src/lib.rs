//! touchmove's sensor boards, sans-IO: what turns a board's bytes into the core's sensor events
//! and shows the game on the board, for every protocol, without a port, a clock or a thread.
//!
//! - [`live`]: what every protocol shares: a session's trait ([`live::BoardSession`]), what
//!   the game tells a board ([`live::Feedback`]), a protocol's facts ([`live::Protocol`]), the
//!   game of a live board ([`live::LiveGame`]: the starting position awaited, the interpreter
//!   fed, resumed from a recording).
//! - [`dgt`], [`hall`], [`chesslink`], [`chessnut`], [`pegasus`], [`eone`] and [`squareoff`]: each
//!   protocol's wire codecs and host session, and its [`live::Protocol`]; [`certabo`]: the
//!   Certabo boards' frames and chips (its session to come).
//! - [`registry`]: the list of them, the one the command line iterates.
//! - [`opponent`]: a match, the board's game against an opponent not at the board (an engine,
//!   an online game's server): the [`opponent::Opponent`] seam, and the replay of a match's
//!   recording ([`opponent::MatchReplay`]).
//!
//! The async runner that owns a port and the clock is the `touchmove` package's; the emulated
//! boards are `touchmove-simulation`'s.

pub mod certabo;
pub mod chesslink;
pub mod chessnut;
pub mod dgt;
pub mod eone;
pub mod hall;
pub mod live;
pub mod opponent;
pub mod pegasus;
pub mod registry;
pub mod squareoff;
