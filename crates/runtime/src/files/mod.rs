//! What a live session writes, and reads back to go on: never through a symlink, never
//! truncating a record, never losing a decided move on a full disk.

pub mod paths;
pub mod pgn_file;
pub mod recording;
pub mod resumed;
pub mod whole;
