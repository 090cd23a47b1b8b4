//! Live boards: the protocol-independent parts of watching a board over a serial link.
//!
//! A board protocol (DGT, the open Hall-sensor protocol) is a sans-IO [`BoardSession`]; the
//! [`LiveGame`] waits for the starting position and feeds the interpreter; the async runner
//! (the `touchmove` package's `runner`) is the thin loop around both that owns the port, the clock
//! and reconnects.

mod ble;
mod board_view;
mod checks;
mod event;
mod feedback;
mod game;
mod guide;
mod link;
mod liveness;
mod occupancy;
mod orientation;
pub mod positions;
mod protocol;

pub use ble::{BleProfile, GattService, Translate, first_notify};
pub use board_view::board_diagram;
pub use checks::{CheckTimes, Checks, Expired};
pub use event::LiveEvent;
pub use feedback::{Feedback, carry_out, move_squares};
pub use game::{LiveGame, ResumePoint};
pub use guide::GuideLights;
pub use link::{BoardSession, LinkEvent};
pub use liveness::{Liveness, Silence};
pub use occupancy::OccupancyReports;
pub use orientation::{turned_feedback, turned_sensor, turned_snapshot, turned_square};
pub use protocol::{Parity, Probe, Protocol, SerialLine, SessionOptions};
