//! Live games pushed to a Lichess broadcast round (`serve --lichess-round`): when to push,
//! what a reply means, and the state a page shows. Sans-IO: the driver sends the requests the
//! [`Pusher`] asks for and hands back their replies, with the time.
//!
//! Lichess's side (lichess-org/api, `broadcast-round-broadcastRoundId-push.yaml`; lila
//! `RelayPush.scala`): `POST /api/broadcast/round/{roundId}/push`, a token with the
//! `study:write` scope, a `text/plain` body of up to 100 PGN games separated by a blank line.
//! The reply is `{"games": [{"tags": {...}, "moves": N} | {"tags": {...}, "error": "..."}]}`,
//! one per game pushed, in order; a body Lichess cannot read is a 400 `{"error": "..."}`.

mod push;
mod reply;

pub use push::{PushConfig, PushState, PushStatus, Pusher, Request};
pub use reply::{GameReply, parse_reply};

/// The most games one push may carry.
pub const MAX_GAMES: usize = 100;

/// What the pushes read of a round: a version of each board's public view (a change is a new
/// push) and the round's games. Implemented by whatever holds the boards (the web layer's
/// overview), read by the loop that pushes.
pub trait RoundGames {
    /// Each board's version of what the public sees, in board order.
    fn versions(&self) -> Vec<u64>;

    /// Every game the round has had, in board order, each with its board's name, as PGN.
    fn games(&self) -> Vec<(String, String)>;

    /// The boards' names, in order.
    fn board_names(&self) -> Vec<String>;
}
