//! Home-made Hall-sensor boards speaking the open protocol of `firmware-protocol/README.md`:
//! the host's sans-IO session and an emulated board.

pub mod emulator;
pub mod session;

pub use session::HallSession;
