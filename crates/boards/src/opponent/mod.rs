//! A match: the board's game against an opponent that is not at the board (an engine, an
//! online game's server, and whatever comes next: a second board, a player over a LAN).
//!
//! The [`Opponent`] is the seam every such game shares, sans-IO like the rest of this crate: it
//! takes the board's decisions (the interpreter's moves, takebacks, rulings and result) and the
//! host's notes (what its transport heard: an engine's move, a server's line), and says what to
//! do: lines of the game's record, moves to show on the board for the player to carry out, the
//! clock to set, and what to ask of its transport (an engine's search, a server's request).
//! Its transport is the binary's; what the opponent hears from it is recorded as host notes,
//! so that [`MatchReplay`] rebuilds the same match from the recording alone.

mod replay;

pub use replay::MatchReplay;

use shakmaty::Move;
use touchmove_core::event::GameEvent;
use touchmove_core::sensor::Millis;
use touchmove_core::sensor_log::{HostNote, LogHeader};
use touchmove_core::stream::StreamEvent;

/// An opponent not at the board, between the board's decisions and the game's record.
///
/// The board's game goes first: each decision the interpreter makes is handed to
/// [`Opponent::handle_decision`], each host note to [`Opponent::handle_note`], and then
/// [`Opponent::poll_event`] says what follows, until it says nothing more.
///
/// A recorded match replays through its opponent: what reaches the record is what the
/// opponent says of it. Here an opponent that only passes the board's decisions on, and counts
/// the moves it would tell its transport:
///
/// ```
/// use shakmaty::Move;
/// use touchmove_boards::opponent::{MatchReplay, Opponent};
/// use touchmove_core::event::{EventKind, GameEvent};
/// use touchmove_core::interpreter::Config;
/// use touchmove_core::replay::Replay;
/// use touchmove_core::sensor::Millis;
/// use touchmove_core::sensor_log::{HostNote, LogHeader, read_log};
/// use touchmove_core::stream::StreamEvent;
///
/// #[derive(Default)]
/// struct Relay {
///     told: usize,
///     said: Vec<StreamEvent>,
/// }
///
/// impl Opponent for Relay {
///     type Event = StreamEvent;
///     fn from_header(_: &LogHeader) -> Option<Relay> {
///         Some(Relay::default())
///     }
///     fn handle_decision(&mut self, event: &GameEvent) {
///         if matches!(event.kind, EventKind::Move(_)) {
///             self.told += 1;
///         }
///         self.said.push(event.clone().into());
///     }
///     fn handle_note(&mut self, _: Millis, _: &HostNote) {}
///     fn poll_event(&mut self) -> Option<StreamEvent> {
///         (!self.said.is_empty()).then(|| self.said.remove(0))
///     }
///     fn decision(event: StreamEvent) -> Option<StreamEvent> {
///         Some(event)
///     }
///     fn resumed(&mut self) {}
///     fn moves(&self) -> &[Move] {
///         &[]
///     }
/// }
///
/// let log = read_log("touchmove-log 1\n0 lift e2\n400 place e4\n900 lift e7\n1300 place e5\n")?;
/// let mut replay: MatchReplay<Relay> = MatchReplay::new(Replay::new(Config::default()));
/// let mut record = Vec::new();
/// for line in log.records() {
///     replay.record(line, &mut |event| record.push(event));
/// }
/// replay.finish(&mut |event| record.push(event));
/// let moves: Vec<(Millis, String)> = record
///     .iter()
///     .filter_map(|event| match event.game() {
///         Some(EventKind::Move(played)) => Some((event.t, played.san.to_string())),
///         _ => None,
///     })
///     .collect();
/// // A double step cannot grow: each move is decided as its piece is set down.
/// assert_eq!(moves, [(400, "e4".to_owned()), (1300, "e5".to_owned())]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Opponent: Sized {
    /// What the opponent says: a line of the record, something to show on the board or to ask
    /// of its transport.
    type Event;

    /// The opponent of a recorded match, from the recording's header (`@engine`, `@online`):
    /// `None` when the recording is not of such a match.
    fn from_header(header: &LogHeader) -> Option<Self>;

    /// A decision of the board's game (the interpreter's), as it is made.
    fn handle_decision(&mut self, event: &GameEvent);

    /// What the host knew at `t`, as the recording keeps it (what the transport heard, an
    /// answer to a request): taken as it was live. A note that does not apply was not taken
    /// live either.
    fn handle_note(&mut self, t: Millis, note: &HostNote);

    /// What the opponent has to say next.
    fn poll_event(&mut self) -> Option<Self::Event>;

    /// The line of the game's record that `event` is, if it is one: what a replay passes on
    /// (what the opponent asks of its transport and shows on the board is the live session's
    /// alone).
    fn decision(event: Self::Event) -> Option<StreamEvent>;

    /// The match, rebuilt from its recording, goes on (`--resume`): what was asked and not
    /// answered is asked again, what was shown and not carried out is shown again.
    fn resumed(&mut self);

    /// The moves of the game that stand, as the opponent knows them.
    fn moves(&self) -> &[Move];
}
