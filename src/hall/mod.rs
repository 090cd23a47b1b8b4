//! Home-made Hall-sensor boards speaking the open protocol of `firmware-protocol/README.md`.

pub mod emulator;
