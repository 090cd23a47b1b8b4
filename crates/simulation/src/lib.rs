//! touchmove's test tooling: simulated hands and emulated boards, and the measures of a
//! record's fidelity. The tests, the benchmarks and the `simulate`, `emulate` and `demo`
//! commands use it; no production path does (the `touchmove` package's runners, sessions and
//! pages never name it).
//!
//! - [`pgn_games`]: the games of a PGN file, the simulation's source.
//! - [`simulate`]: a game (start position and moves) turned into the sensor log of plausible
//!   human hands, with the rulings those hands earn, for occupancy and identifying boards.
//! - [`emulation`]: what every emulated board shares (the [`emulation::EmulatedBoard`] trait,
//!   its options, a script played at a speed, line noise), and [`emulators`]: one per protocol
//!   of `touchmove_boards`, speaking its bytes.
//! - [`fidelity`] and [`baseline`]: how close a record comes to the game the hands played, and
//!   the position-guessing host touchmove is measured against; [`resolvable`]: whether a game
//!   left waiting could have been caught up from a later position the board rested on.

pub mod baseline;
pub mod emulation;
pub mod emulators;
pub mod fidelity;
pub mod pgn_games;
pub mod resolvable;
pub mod simulate;
