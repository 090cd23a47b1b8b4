#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::indexing_slicing,
        clippy::panic
    )
)]
//! touchmove: a touch-move controller for sensor chessboards.
//!
//! Sensor events (piece lifted, piece placed, clock pressed) go into a sans-IO
//! [`Interpreter`] that applies FIDE Article 4 on a rules core built on
//! `shakmaty`, and come out as [`GameEvent`]s: moves, rulings, illegal moves,
//! takebacks and results.
//!
//! The interpreter is polled in the order quinn-proto's `Connection` is: hand it each input
//! with its time ([`Interpreter::handle_event`], [`Interpreter::handle_clock_reading`]); when
//! nothing arrives, call [`Interpreter::handle_timeout`] at [`Interpreter::poll_timeout`]; after
//! each call take every decision with [`Interpreter::poll_event`]; at the end of input,
//! [`Interpreter::finish`] decides what is pending.
//!
//! ```
//! use shakmaty::{Chess, Square};
//! use touchmove::{Config, EventKind, Interpreter, SensorEvent, SensorKind};
//!
//! let mut interpreter = Interpreter::new(Chess::default(), Config::default());
//! let lift = SensorKind::Lift { square: Square::E2, piece: None };
//! let place = SensorKind::Place { square: Square::E4, piece: None };
//! interpreter.handle_event(&SensorEvent::new(0, lift));
//! interpreter.handle_event(&SensorEvent::new(400, place));
//! interpreter.finish();
//! let decided: Vec<_> = std::iter::from_fn(|| interpreter.poll_event()).collect();
//! assert!(matches!(&decided[0].kind, EventKind::Move(m) if m.san == "e4"));
//! ```
//!
//! Between decisions, [`Interpreter::turn_view`] says where the turn stands: the pieces in
//! hand, the touched pieces and what they oblige, the decision waiting and its deadline.
//!
//! ```
//! use shakmaty::{Chess, Square};
//! use touchmove::interpreter::TurnState;
//! use touchmove::{Config, Interpreter, SensorEvent, SensorKind};
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
//! `examples/embed.rs` replays a sensor log this way. The board protocols' sessions
//! ([`live::BoardSession`]) turn a board's bytes into these events and show what the game tells
//! the board ([`live::Feedback`]); each protocol states itself as a [`live::Protocol`], listed in
//! [`boards`]. `examples/custom_protocol.rs` adds one.

pub mod baseline;
pub mod boards;
pub mod broadcast;
pub mod chesslink;
pub mod clock;
pub mod dgt;
pub mod emulation;
pub mod engine;
pub mod event;
pub mod evidence;
pub mod fidelity;
pub mod hall;
pub mod interpreter;
pub mod live;
pub mod livechess;
pub mod output;
pub mod pgn_games;
pub mod play;
pub mod replay;
pub mod rules;
pub mod sensor;
pub mod sensor_log;
pub mod simulate;
#[cfg(test)]
mod testutil;

pub use event::{EventKind, GameEvent, MoveEvent};
pub use interpreter::{Config, Interpreter, TurnView};
pub use live::{BoardSession, Feedback, LinkEvent, LiveEvent, LiveGame, Protocol};
pub use replay::Replay;
pub use sensor::{Millis, SensorEvent, SensorKind};
