//! The boards `serve` shares between their runners and the web server: each board's state
//! behind a lock, and the broadcast of its events to the streams that follow it.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, RwLock, RwLockReadGuard};
use std::time::{Duration, Instant};

use tokio::sync::{broadcast, mpsc, watch};

use touchmove_core::stream::StreamEvent;
use touchmove_spectators::broadcast::{PushStatus, Pusher, RoundGames};

use super::access::Viewer;
use super::asked::Asked;
use super::delay::{DelayLine, Sample};
use super::stats::StreamStats;
use touchmove_core::output::notation::Notation;
use touchmove_core::output::pgn::PgnTags;
use touchmove_core::sensor::Millis;
use touchmove_runtime::runner::Control;
use touchmove_runtime::tablebase::Tablebases;
use touchmove_spectators::livechess::is_named;
use touchmove_spectators::watched::{BoardSummary, WatchedBoard};

/// How many events a stream may fall behind before it is closed (the page reconnects and
/// reads the game again from its start).
const STREAM_BACKLOG: usize = 128;

/// The shortest time between two set-ups of one board (LiveChess's `setup`): each starts a
/// game and its log, so a flood of them is refused.
pub const SETUP_INTERVAL: std::time::Duration = std::time::Duration::from_secs(1);

/// An event on its way to the streams, with the instant its cause entered the process (the
/// report that decided it, or the deadline that fell due).
#[derive(Debug, Clone)]
pub struct Published {
    /// The event.
    pub event: StreamEvent,
    /// When what decided it entered the process.
    pub origin: Instant,
}

/// One board: its state and its stream.
pub struct BoardHandle {
    /// The board's name.
    pub name: String,
    state: Mutex<WatchedBoard>,
    events: broadcast::Sender<Published>,
    /// The instant of the board's session time 0 (when its runner started, less the time a
    /// resumed session goes on from).
    epoch: Mutex<Instant>,
    /// What spectators' tools ask of the board, to its runner.
    controls: mpsc::UnboundedSender<Control>,
    /// The runner's end of `controls`, until the runner takes it.
    control_receiver: Mutex<Option<mpsc::UnboundedReceiver<Control>>>,
    /// Counts every change of the board's state (a report, a decision): a feed that shows the
    /// state wakes when it moves, and shows the latest.
    changes: watch::Sender<u64>,
    /// Counts the events published: the game changed (for the pushes to a broadcast).
    published: AtomicU64,
    /// When the board was last set up by a spectator's tool.
    last_set_up: Mutex<Option<Instant>>,
    /// The number of the first game a spectator's tool set up (LiveChess's `setup`), once one
    /// did: LiveChess says a game's moves only from then on.
    set_up_game: Mutex<Option<u32>>,
    /// With `--public-delay`: what the public sees, that long after.
    delayed: OnceLock<Delayed>,
}

/// A board's view for the public, late by `--public-delay`.
struct Delayed {
    line: Mutex<DelayLine>,
    /// The public's streams: the events as they come of age.
    public: broadcast::Sender<Published>,
}

impl Delayed {
    fn line(&self) -> MutexGuard<'_, DelayLine> {
        self.line
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl BoardHandle {
    /// The board `board` follows.
    pub fn new(board: WatchedBoard) -> BoardHandle {
        let (events, _) = broadcast::channel(STREAM_BACKLOG);
        let (controls, control_receiver) = mpsc::unbounded_channel();
        BoardHandle {
            name: board.name().to_owned(),
            state: Mutex::new(board),
            events,
            epoch: Mutex::new(Instant::now()),
            controls,
            control_receiver: Mutex::new(Some(control_receiver)),
            changes: watch::Sender::new(0),
            published: AtomicU64::new(0),
            last_set_up: Mutex::new(None),
            set_up_game: Mutex::new(None),
            delayed: OnceLock::new(),
        }
    }

    /// From now on the public sees the board `delay` late (`--public-delay`); the operator
    /// sees it live.
    pub fn delay_public(&self, delay: Duration) {
        let first = self.sample(None);
        let line = DelayLine::new(delay, Instant::now(), first);
        let (public, _) = broadcast::channel(STREAM_BACKLOG);
        let _ = self.delayed.set(Delayed {
            line: Mutex::new(line),
            public,
        });
    }

    /// What the public would see of the board now: its summary, its PGN and finished games
    /// (those of `previous` if no event was published since it).
    fn sample(&self, previous: Option<&Sample>) -> Sample {
        let now = self.now();
        let state = self.lock();
        // Read under the state's lock, under which events are published: the PGN and the
        // count agree.
        let version = self.version();
        let summary = counted_to(state.summary_at(now), now);
        // What has not changed since the last sample is shared with it.
        let finished_total = state.finished_total();
        let finished = match previous.filter(|previous| previous.finished_total == finished_total) {
            Some(previous) => Arc::clone(&previous.finished),
            None => Arc::from(state.finished_games()),
        };
        let tags = match previous.filter(|previous| *previous.tags == *state.tags()) {
            Some(previous) => Arc::clone(&previous.tags),
            None => Arc::new(state.tags().clone()),
        };
        Sample {
            summary,
            t: now,
            tags,
            finished,
            finished_total,
            version,
        }
    }

    /// What `viewer` sees of the board now: the live board, or the public's sample.
    pub fn view(&self, viewer: Viewer) -> View {
        let Some(delayed) = self.delayed.get().filter(|_| viewer == Viewer::Public) else {
            return View::Live;
        };
        let now = Instant::now();
        let mut line = delayed.line();
        let (at, sample) = line.seen(now);
        let due = at.checked_add(line.delay()).unwrap_or(now);
        let later =
            Millis::try_from(now.saturating_duration_since(due).as_millis()).unwrap_or(Millis::MAX);
        View::Late { sample, later }
    }

    /// The public's events that have come of age now, passed to its streams; the live
    /// board's alone (no delay) has none.
    pub fn mature(&self) {
        let Some(delayed) = self.delayed.get() else {
            return;
        };
        let mut line = delayed.line();
        let now = Instant::now();
        for event in line.mature(now) {
            // No public stream open: nobody to tell.
            let _ = delayed.public.send(Published { event, origin: now });
        }
    }

    /// The board's summary as `viewer` sees it.
    pub fn summary_for(&self, viewer: Viewer) -> BoardSummary {
        match self.view(viewer) {
            View::Live => self.summary(),
            View::Late { sample, later } => {
                let mut summary = sample.summary_after(later);
                // Late by the delay, the board says nothing of when it was last heard.
                summary.since_report_ms = None;
                summary.since_move_ms = None;
                summary
            }
        }
    }

    /// The report of the last game `viewer` has seen end on the board (while the page still
    /// shows its result), with the tags its PGN is written under: `None` while the game `viewer`
    /// sees has no result.
    pub fn report_for(
        &self,
        viewer: Viewer,
        tables: Option<&Tablebases>,
    ) -> Option<(touchmove_trainer::GameReport, PgnTags)> {
        let summary = self.summary_for(viewer);
        // Before the next game's first move, the page still shows the last game's result.
        let number = match (&summary.result, summary.ply) {
            (Some(_), _) => summary.game,
            (None, 0) => summary.game.checked_sub(1)?,
            (None, _) => return None,
        };
        let board = self.lock();
        let facts = board.finished_game(number)?;
        let report = match tables {
            Some(tables) => touchmove_trainer::GameReport::with_tables(facts, |p| tables.probe(p)),
            None => touchmove_trainer::GameReport::of_game(facts),
        };
        Some((report, board.tags().clone()))
    }

    /// The current game's PGN as `viewer` sees it (the public's made from the events it has
    /// been shown).
    pub fn pgn_for(&self, viewer: Viewer) -> String {
        match self.view(viewer) {
            View::Live => self.lock().pgn(),
            View::Late { .. } => self.public_pgn(),
        }
    }

    /// The public's current game as PGN, late by the delay.
    fn public_pgn(&self) -> String {
        self.delayed
            .get()
            .map(|delayed| delayed.line().pgn())
            .unwrap_or_default()
    }

    /// The board's finished games, then its current game, as `viewer` sees them.
    pub fn games_for(&self, viewer: Viewer) -> Vec<String> {
        match self.view(viewer) {
            View::Live => {
                let state = self.lock();
                let mut games: Vec<String> = state
                    .finished_games()
                    .iter()
                    .map(|g| g.to_string())
                    .collect();
                games.push(state.pgn());
                games
            }
            View::Late { sample, .. } => {
                let mut games: Vec<String> =
                    sample.finished.iter().map(|g| g.to_string()).collect();
                games.push(self.public_pgn());
                games
            }
        }
    }

    /// How many events `viewer` has been shown: it moves whenever the game `viewer` sees
    /// changes.
    pub fn version_for(&self, viewer: Viewer) -> u64 {
        match self.view(viewer) {
            View::Live => self.version(),
            View::Late { sample, .. } => sample.version,
        }
    }

    /// The current game's events `viewer` has been shown and a receiver of the ones to come.
    pub fn follow_for(&self, viewer: Viewer) -> (Vec<StreamEvent>, broadcast::Receiver<Published>) {
        match self.delayed.get().filter(|_| viewer == Viewer::Public) {
            None => self.follow(),
            Some(delayed) => {
                let line = delayed.line();
                (line.shown().to_vec(), delayed.public.subscribe())
            }
        }
    }

    /// Takes a set-up of the board from `start` now: `Ok(false)` when its current game already
    /// stands at `start` with no move made (that game is taken as the tool's, and nothing
    /// starts: a set-up asked again and again is one); `Ok(true)` for a new game, unless the
    /// last new game was set up less than [`SETUP_INTERVAL`] ago: then how long to wait.
    pub fn try_set_up(&self, start: &shakmaty::Chess) -> Result<bool, std::time::Duration> {
        let (game, stands) = {
            let state = self.lock();
            (state.summary().game, state.stands_unplayed_at(start))
        };
        let mut set_up_game = self
            .set_up_game
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if stands {
            set_up_game.get_or_insert(game);
            return Ok(false);
        }
        let mut last = self
            .last_set_up
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let now = Instant::now();
        if let Some(at) = *last {
            let since = now.duration_since(at);
            if since < SETUP_INTERVAL {
                return Err(SETUP_INTERVAL.saturating_sub(since));
            }
        }
        *last = Some(now);
        set_up_game.get_or_insert(game.saturating_add(1));
        Ok(true)
    }

    /// Whether the game `game` (its number) was set up by a spectator's tool, or comes after
    /// one that was.
    pub fn set_up_by_a_tool(&self, game: u32) -> bool {
        self.set_up_game
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .is_some_and(|first| game >= first)
    }

    /// Asks the board's runner for `control`; false if the runner is gone.
    pub fn control(&self, control: Control) -> bool {
        self.controls.send(control).is_ok()
    }

    /// The receiver of the board's controls, for its runner (once: `None` after).
    pub fn take_controls(&self) -> Option<mpsc::UnboundedReceiver<Control>> {
        self.control_receiver
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
    }

    /// The board's state changed (a feed showing it shows it again).
    pub fn changed(&self) {
        self.changes
            .send_modify(|count| *count = count.wrapping_add(1));
        if let Some(delayed) = self.delayed.get() {
            let previous = Arc::clone(delayed.line().latest());
            let sample = self.sample(Some(&previous));
            delayed.line().sample(Instant::now(), sample);
        }
    }

    /// A receiver that wakes at the board's changes.
    pub fn changes(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// Milliseconds of the board's session time now.
    pub fn now(&self) -> Millis {
        let epoch = *self
            .epoch
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        Millis::try_from(epoch.elapsed().as_millis()).unwrap_or(Millis::MAX)
    }

    /// The board's runner starts now, its session time at `start_at` (0, or where a resumed
    /// session goes on from): the times it reports are counted from here.
    pub fn session_starts(&self, start_at: Millis) {
        let now = Instant::now();
        let epoch = now
            .checked_sub(std::time::Duration::from_millis(start_at))
            .unwrap_or(now);
        *self
            .epoch
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = epoch;
    }

    /// The board's state, locked (a poisoned lock is taken as it is: the state is only ever
    /// replaced whole by its methods).
    pub fn lock(&self) -> MutexGuard<'_, WatchedBoard> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Passes `event`, caused by what entered the process at `origin`, to the streams (sent
    /// under the state's lock, so that a stream opened meanwhile neither misses it nor gets it
    /// twice).
    pub fn publish(&self, event: StreamEvent, origin: Instant) {
        self.published.fetch_add(1, Ordering::Relaxed);
        if let Some(delayed) = self.delayed.get() {
            delayed.line().publish(Instant::now(), event.clone());
        }
        // No stream open: nobody to tell.
        let _ = self.events.send(Published { event, origin });
    }

    /// How many events have been published: it moves whenever the game changes.
    pub fn version(&self) -> u64 {
        self.published.load(Ordering::Relaxed)
    }

    /// The current game's events so far and a receiver of the ones to come, taken together.
    pub fn follow(&self) -> (Vec<StreamEvent>, broadcast::Receiver<Published>) {
        let state = self.lock();
        (state.events().to_vec(), self.events.subscribe())
    }

    /// The board's summary now: its clock's running side counted down, the time since its
    /// last report and move counted.
    pub fn summary(&self) -> BoardSummary {
        let now = self.now();
        let summary = self.lock().summary_at(now);
        counted_to(summary, now)
    }
}

/// `summary` with its clock's running side counted down to `now` (session time).
fn counted_to(mut summary: BoardSummary, now: Millis) -> BoardSummary {
    if let Some(clock) = summary.clock.as_mut() {
        let ran = now.saturating_sub(clock.t);
        match clock.running {
            Some(shakmaty::Color::White) => clock.white = clock.white.saturating_sub(ran),
            Some(shakmaty::Color::Black) => clock.black = clock.black.saturating_sub(ran),
            None => {}
        }
        clock.t = now;
    }
    summary
}

/// What a viewer sees of a board.
pub enum View {
    /// The board as it is.
    Live,
    /// The public's sample, `later` ms after it was the delay old (its clock runs on by as
    /// much).
    Late {
        /// What the public sees.
        sample: Arc<Sample>,
        /// How long since the sample came of age.
        later: Millis,
    },
}

/// Every board, in board order (boards found later are added at the end).
pub struct Overview {
    boards: RwLock<Vec<Arc<BoardHandle>>>,
    /// What the streams delivered.
    pub stats: StreamStats,
    /// The pushes to a Lichess broadcast, with `--lichess-round` (the push loop's pusher).
    pub pushes: OnceLock<Arc<Mutex<Pusher>>>,
    /// How the board pages write moves (`--notation`).
    pub notation: Notation,
    /// Where the board page's buttons send the player's requests of an online game
    /// (`touchmove online --listen`); `None`: no board plays one.
    pub requests: Option<mpsc::UnboundedSender<Asked>>,
    /// Whether `/console`, the arbiter's console, is served (`serve --console`).
    pub console: bool,
    /// `--public-delay`: how late the public sees the boards.
    pub public_delay: Option<Duration>,
    /// `--syzygy DIR`: the tables whose result the operator sees of each board's position.
    pub tablebases: Option<Arc<Tablebases>>,
}

/// The round as the pushes read it: what the public sees of each board (late with
/// `--public-delay`). A board's finished games (oldest first) come before its current game: a
/// game that ended stays in the round when the board starts another.
impl RoundGames for Overview {
    fn versions(&self) -> Vec<u64> {
        let boards = self.boards();
        boards
            .iter()
            .map(|board| board.version_for(Viewer::Public))
            .collect()
    }

    fn games(&self) -> Vec<(String, String)> {
        let mut games = Vec::new();
        for board in self.boards() {
            for pgn in board.games_for(Viewer::Public) {
                games.push((board.name.clone(), pgn));
            }
        }
        games
    }

    fn board_names(&self) -> Vec<String> {
        self.boards()
            .iter()
            .map(|board| board.name.clone())
            .collect()
    }
}

impl Overview {
    /// The same overview, serving the arbiter's console at `/console`.
    pub fn with_console(mut self, console: bool) -> Overview {
        self.console = console;
        self
    }

    /// The same overview, the public seeing every board `delay` late (`--public-delay`; the
    /// operator sees them live).
    pub fn with_public_delay(mut self, delay: Option<Duration>) -> Overview {
        self.public_delay = delay;
        if let Some(delay) = delay {
            for board in self.read().iter() {
                board.delay_public(delay);
            }
        }
        self
    }

    /// The same overview, the operator seeing what `tablebases` say of each board's position
    /// (`--syzygy DIR`).
    pub fn with_tablebases(mut self, tablebases: Option<Arc<Tablebases>>) -> Overview {
        self.tablebases = tablebases;
        self
    }

    /// The summary of `board` as `viewer` sees it: the operator's with what the tables say of
    /// its position.
    pub fn summary_for(&self, board: &BoardHandle, viewer: Viewer) -> BoardSummary {
        let mut summary = board.summary_for(viewer);
        if viewer == Viewer::Operator
            && let Some(tables) = &self.tablebases
        {
            summary.tablebase = tables.probe(board.lock().position());
        }
        summary
    }

    /// The same overview, its board pages writing moves in `notation`.
    pub fn with_notation(mut self, notation: Notation) -> Overview {
        self.notation = notation;
        self
    }

    /// The same overview, the board page's buttons sending the player's requests of an
    /// online game to `requests`.
    pub fn with_requests(mut self, requests: mpsc::UnboundedSender<Asked>) -> Overview {
        self.requests = Some(requests);
        self
    }

    /// The overview of `boards`, in this order.
    pub fn new(boards: Vec<Arc<BoardHandle>>) -> Overview {
        Overview {
            boards: RwLock::new(boards),
            stats: StreamStats::default(),
            pushes: OnceLock::new(),
            notation: Notation::San,
            requests: None,
            console: false,
            public_delay: None,
            tablebases: None,
        }
    }

    fn read(&self) -> RwLockReadGuard<'_, Vec<Arc<BoardHandle>>> {
        self.boards
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Adds `board` after the others (seen by the public as late as the others).
    pub fn add(&self, board: Arc<BoardHandle>) {
        if let Some(delay) = self.public_delay {
            board.delay_public(delay);
        }
        self.boards
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(board);
    }

    /// How many boards there are.
    pub fn len(&self) -> usize {
        self.read().len()
    }

    /// Whether there is no board yet (serve before its first board is found).
    pub fn is_empty(&self) -> bool {
        self.read().is_empty()
    }

    /// Every board, in board order.
    pub fn boards(&self) -> Vec<Arc<BoardHandle>> {
        self.read().clone()
    }

    /// What a page shows of board `name`'s pushes, with `--lichess-round`.
    pub fn push_status(&self, name: &str) -> Option<PushStatus> {
        let pusher = self.pushes.get()?;
        let pusher = pusher
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        Some(pusher.status(name))
    }

    /// The board called `name`.
    pub fn board(&self, name: &str) -> Option<Arc<BoardHandle>> {
        self.read().iter().find(|board| board.name == name).cloned()
    }

    /// The board a LiveChess client asks for by `serialnr`: its serial number, or its name.
    pub fn eboard(&self, serialnr: &str) -> Option<Arc<BoardHandle>> {
        self.read()
            .iter()
            .find(|board| is_named(&board.lock().summary(), serialnr))
            .cloned()
    }
}
