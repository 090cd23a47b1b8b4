//! touchmove's online play on the physical board (`touchmove online`), sans-IO: the messages
//! of the Lichess Board API and the game between the interpreter's decisions and the server's.
//!
//! Nothing here opens a connection: the `touchmove` package's driver streams the server's
//! lines in and sends the requests this crate asks for.

pub mod game;
pub mod lichess;
pub mod replay;

pub use game::{Answer, OnlineEvent, OnlineGame};
pub use replay::OnlineReplay;
