//! The sans-IO core of touchmove: what a sensor chessboard reports, what the touch-move
//! controller decides from it, and the record it keeps. No async runtime, port, file or clock:
//! every input comes with its time, and every decision goes out as a value.
//!
//! - [`sensor`]: the sensor events in (lifts, placements, presses, snapshots).
//! - [`interpreter`]: FIDE Article 4 on those events, over the game record of [`rules`]
//!   (shakmaty) and the clock of [`clock`].
//! - [`event`] and [`evidence`]: the game events out, the JSON stream's contract, with what
//!   each ruling rests on.
//! - [`sensor_log`] and [`replay`]: the recorded sensor log, and the same decisions from it;
//!   [`timing`]: where a session's windows, report horizon and scan come from.
//! - [`output`]: PGN, text and notations for people.
//! - [`decode`]: the one shape of every streaming decoder (bytes in, frames or errors out).
//!
//! The interpreter is polled in the order quinn-proto's `Connection` is: hand it each input
//! with its time ([`Interpreter::handle_event`], [`Interpreter::handle_clock_reading`]); when
//! nothing arrives, call [`Interpreter::handle_timeout`] at [`Interpreter::poll_timeout`]; after
//! each call take every decision with [`Interpreter::poll_event`]; at the end of input,
//! [`Interpreter::finish`] decides what is pending.
//!
//! ```
//! use shakmaty::{Chess, Square};
//! use touchmove_core::{Config, EventKind, Interpreter, SensorEvent, SensorKind};
//!
//! let mut interpreter = Interpreter::new(Chess::default(), Config::default());
//! let lift = SensorKind::Lift { square: Square::E2, piece: None };
//! let place = SensorKind::Place { square: Square::E4, piece: None };
//! interpreter.handle_event(&SensorEvent::new(0, lift));
//! interpreter.handle_event(&SensorEvent::new(400, place));
//! interpreter.finish();
//! let decided: Vec<_> = std::iter::from_fn(|| interpreter.poll_event()).collect();
//! assert!(matches!(&decided[0].kind, EventKind::Move(m) if m.san.to_string() == "e4"));
//! ```
//!
//! Between decisions, [`Interpreter::turn_view`] says where the turn stands: the pieces in
//! hand, the touched pieces and what they oblige, the decision waiting and its deadline.
//!
//! ```
//! use shakmaty::{Chess, Square};
//! use touchmove_core::interpreter::TurnState;
//! use touchmove_core::{Config, Interpreter, SensorEvent, SensorKind};
//!
//! let mut interpreter = Interpreter::new(Chess::default(), Config::default());
//! let lift = SensorKind::Lift { square: Square::G1, piece: None };
//! interpreter.handle_event(&SensorEvent::new(0, lift));
//! // A lift is weighed once no replace can make it a sensor bounce.
//! if let Some(deadline) = interpreter.poll_timeout() {
//!     interpreter.handle_timeout(deadline);
//! }
//! let view = interpreter.turn_view();
//! assert_eq!(view.state, TurnState::InHand);
//! // "You touched the knight on g1: it must move."
//! assert_eq!(view.must_move, Some(Square::G1));
//! ```
//!
//! A recorded sensor log replays to the decisions the live session made:
//!
//! ```
//! use touchmove_core::sensor_log::read_log;
//! use touchmove_core::{Config, EventKind, Replay};
//!
//! let log = read_log("touchmove-log 1\n0 lift e2\n400 place e4\n").expect("a valid log");
//! let mut replay = Replay::new(Config::default());
//! let mut decided = Vec::new();
//! for record in log.records() {
//!     replay.record(record, &mut |event| decided.push(event));
//! }
//! replay.finish(&mut |event| decided.push(event));
//! assert!(matches!(&decided[0].kind, EventKind::Move(m) if m.uci.to_string() == "e2e4"));
//! ```

#[macro_use]
mod diagnostic;

pub mod clock;
pub mod decode;
pub mod event;
pub mod evidence;
pub mod interpreter;
pub mod openings;
pub mod output;
pub mod replay;
pub mod rules;
pub mod sensor;
pub mod sensor_log;
pub mod stream;
#[cfg(any(test, feature = "testutil"))]
#[allow(clippy::expect_used)]
pub mod testutil;
pub mod timing;

pub use event::{EventKind, GameEvent, MoveEvent};
pub use interpreter::{Config, Interpreter, TurnView};
pub use replay::Replay;
pub use sensor::{Millis, SensorEvent, SensorKind};
