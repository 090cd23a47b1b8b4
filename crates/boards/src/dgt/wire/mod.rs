//! The DGT protocol's bytes, both ways: the codes, the board's messages and the host's
//! commands, each decoded and encoded here (the host decodes messages and encodes commands; an
//! emulated board does the reverse).

pub mod clock;
pub mod command;
pub mod message;
pub mod payload;
pub mod protocol;
