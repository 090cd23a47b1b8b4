//! Protocol-independent helpers for the live runner tests: run the runner with any board
//! session until enough moves were decided, and read the moves back.

use std::sync::{Arc, Mutex};

use tokio::sync::Notify;

use tokio_serial::SerialStream;
use touchmove::event::EventKind;
use touchmove::live::{LiveEvent, LiveGame};
use touchmove::runner::{Connector, Happened, Sink};

/// Collects the decisions and wakes the test when enough moves were made.
pub struct Collect {
    /// Everything the game said.
    pub events: Arc<Mutex<Vec<LiveEvent>>>,
    /// How many moves to wait for.
    pub moves_wanted: usize,
    /// Woken when they were made.
    pub done: Arc<Notify>,
}

impl Sink for Collect {
    fn take(&mut self, happened: Happened<'_>) -> std::io::Result<()> {
        let Happened::Live { event, .. } = happened else {
            return Ok(());
        };
        let mut events = self.events.lock().expect("not poisoned");
        events.push(event.clone());
        let moves = events
            .iter()
            .filter(|e| matches!(e, LiveEvent::Decision(d) if matches!(d.kind, EventKind::Move(_))))
            .count();
        if moves >= self.moves_wanted {
            self.done.notify_one();
        }
        Ok(())
    }
}

/// Runs the live runner over `connector` with `session` and a game from the starting position
/// until `moves_wanted` moves were decided (or `limit` passed: a failure); returns everything
/// the game said.
pub async fn run_session_until_moves<C, S>(
    connector: &mut C,
    session: &mut S,
    config: touchmove::runner::RunnerConfig,
    moves_wanted: usize,
    limit: std::time::Duration,
) -> Vec<LiveEvent>
where
    C: touchmove::runner::Connector,
    S: touchmove::live::BoardSession,
{
    let events = Arc::new(Mutex::new(Vec::new()));
    let done = Arc::new(Notify::new());
    let mut sink = Collect {
        events: Arc::clone(&events),
        moves_wanted,
        done: Arc::clone(&done),
    };
    let mut game = LiveGame::new(
        shakmaty::Chess::default(),
        touchmove::interpreter::Config::default(),
    );
    let run = touchmove::runner::run(
        connector,
        session,
        &mut game,
        &mut sink,
        config,
        done.notified(),
    );
    let finished = tokio::time::timeout(limit, run).await;
    let events = events.lock().expect("not poisoned").clone();
    assert!(finished.is_ok(), "the runner did not finish: {events:?}");
    events
}

/// The SAN of the moves among `events`.
pub fn sans(events: &[LiveEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|event| match event {
            LiveEvent::Decision(decision) => match &decision.kind {
                EventKind::Move(m) => Some(m.san.to_string()),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// Hands out the host end of a pty pair once; later connections find nothing.
pub struct PtyConnector {
    /// The host end, until it is taken.
    pub host: Option<SerialStream>,
}

impl Connector for PtyConnector {
    type Port = SerialStream;

    async fn connect(&mut self) -> std::io::Result<(SerialStream, String)> {
        self.host
            .take()
            .map(|port| (port, "pty".to_owned()))
            .ok_or_else(|| std::io::Error::other("unplugged"))
    }
}
