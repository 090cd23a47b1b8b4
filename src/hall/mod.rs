//! The open Hall-sensor board protocol (`firmware-protocol/README.md`) on the host's side.

pub mod session;

pub use session::HallSession;
