//! One live board as spectators follow it (`touchmove serve`): its summary for the hall, the
//! current game's events for its stream, its PGN. Sans-IO: it is told what the board's session
//! and game said, with their times, and answers questions.

use std::sync::Arc;

use serde::Serialize;
use shakmaty::fen::Fen;
use shakmaty::{Bitboard, Chess, Color, EnPassantMode, Position};

use touchmove_core::clock::ClockReading;
use touchmove_core::event::{ClockTimes, EventKind, GameEvent, LinkState};
use touchmove_core::interpreter::PendingDecision;
use touchmove_core::openings::Opening;
use touchmove_core::output::pgn::{PgnRecorder, PgnTags};
use touchmove_core::sensor::{BoardSnapshot, Millis, SensorEvent};
use touchmove_core::sensor_log::GameLabel;
use touchmove_core::sensor_log::format_placement;
use touchmove_core::stream::{BatteryLevel, StreamEvent, StreamKind, TableResult};
use touchmove_trainer::{GameFacts, GameReport, Timeline};

use touchmove_boards::live::{LiveEvent, LiveGame};

pub use crate::online::OnlineStatus;

/// Whether a watched board is heard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Link {
    /// Not opened yet, being opened, or open and not yet heard.
    Connecting,
    /// The board answers.
    Connected,
    /// The board stopped answering; the runner is trying again.
    Lost,
    /// The board's port cannot be opened (no such port, no permission, another device
    /// there); the runner is trying again. [`BoardSummary::link_error`] says why.
    Unreachable,
}

/// The players' names, when known.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Players {
    /// White's name.
    pub white: Option<String>,
    /// Black's name.
    pub black: Option<String>,
}

/// The clock as last known: both times at `t`, and the side whose time runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ClockState {
    /// White's remaining time (ms).
    pub white: u64,
    /// Black's remaining time (ms).
    pub black: u64,
    /// `white`, `black`, or `null` when the clock is stopped.
    #[serde(serialize_with = "ser_color")]
    pub running: Option<Color>,
    /// When the times were read (ms of session time): a page counts down from there.
    pub t: Millis,
}

fn ser_color<S: serde::Serializer>(color: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
    match color {
        Some(color) => s.serialize_str(match color {
            Color::White => "white",
            Color::Black => "black",
        }),
        None => s.serialize_none(),
    }
}

/// What `GET /api/boards` says of one board (the project's `docs/serve.md`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoardSummary {
    /// The board's name.
    pub name: String,
    /// The protocol it speaks.
    pub protocol: &'static str,
    /// The port it is on.
    pub port: String,
    /// Whether it is heard.
    pub link: Link,
    /// Why its port cannot be opened, while the runner cannot open it (the link
    /// [`Link::Unreachable`], or [`Link::Lost`] for a board heard before):
    /// `/dev/ttyUSB7: no such port`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link_error: Option<String>,
    /// Whether the board has shown the starting position (the game is recorded).
    pub started: bool,
    /// The game's position (FEN).
    pub fen: String,
    /// Plies played in the current game.
    pub ply: u32,
    /// The result (`1-0`, `0-1`, `1/2-1/2`), once the game has ended.
    pub result: Option<String>,
    /// The clock, if one runs.
    pub clock: Option<ClockState>,
    /// The players.
    pub players: Players,
    /// The number of the current game on this board, from 1.
    pub game: u32,
    /// The last move, in UCI, if any.
    pub last_move: Option<String>,
    /// The turn in progress, as the interpreter sees it.
    pub turn: Option<TurnSummary>,
    /// The board as it physically stands, as its reports show it: a FEN piece placement, `X`
    /// for an occupied square whose piece the board cannot tell (empty until its first full
    /// report).
    pub board: String,
    /// The squares where the board as it stands differs from the game's position (a piece in
    /// hand, a piece misplaced), in square order.
    pub differs: Vec<String>,
    /// Whether the board's reports are read turned round (LiveChess's `flip`).
    pub flipped: bool,
    /// The position the current game starts from (FEN).
    pub start: String,
    /// The online game played on the board (`touchmove online`), if it is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub online: Option<OnlineStatus>,
    /// Whether the game gives hints on request (`touchmove play`: `POST
    /// /api/boards/NAME/hint`); not written otherwise.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub hints: bool,
    /// The board's serial number, once the board has said it (a DGT board's, a Hall board's
    /// id; a ChessLink board says none).
    pub serial: Option<String>,
    /// Whether the board's clock says its battery is low, once a clock that says so has
    /// reported (a DGT clock).
    pub clock_battery_low: Option<bool>,
    /// The board's own battery, once the board has told it (a Chessnut's, a Pegasus's); not
    /// written otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub battery: Option<BatteryLevel>,
    /// How long ago (ms) the board last reported, if it has in this session (its health: a
    /// board that says nothing for long may be unplugged or its pieces untouched).
    pub since_report_ms: Option<u64>,
    /// How long ago (ms) the current game's last move was made (taken back since or not), if
    /// it has one.
    pub since_move_ms: Option<u64>,
    /// The opening the current game reached (its PGN's `ECO` and `Opening` tags), once the
    /// openings table knows one of its positions; not written otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opening: Option<Opening>,
    /// What the Syzygy tables say of the position (`serve --syzygy DIR`), to the operator
    /// only (the console shows it beside the result buttons: nothing is ruled from it); not
    /// written otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tablebase: Option<TableResult>,
}

/// The turn in progress, for a page (`GET /api/boards`): squares as names.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct TurnSummary {
    /// The squares whose pieces are in hand.
    pub in_hand: Vec<String>,
    /// The squares of the binding touches, in order.
    pub touched: Vec<String>,
    /// The piece that must move (FIDE 4.3.1), when rulings are made.
    pub must_move: Option<String>,
    /// The opponent's piece that must be captured (FIDE 4.3.2), when rulings are made.
    pub must_capture: Option<String>,
    /// The square of a promotion waiting for the player's choice of piece (the board cannot
    /// identify it, and the game takes no piece nobody chose: an online game).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub promotion: Option<String>,
}

/// One board as spectators follow it.
///
/// ```
/// use shakmaty::Chess;
/// use touchmove_core::event::LinkState;
/// use touchmove_core::output::pgn::PgnTags;
/// use touchmove_spectators::watched::{Link, WatchedBoard};
///
/// let tags = PgnTags::default();
/// let mut board = WatchedBoard::new("board-1", "dgt", "/dev/ttyUSB0", Chess::default(), tags);
/// let summary = board.summary();
/// assert_eq!((summary.link, summary.started, summary.ply), (Link::Connecting, false, 0));
/// assert_eq!(summary.fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
/// // The port cannot be opened: the page says why, and the runner keeps trying.
/// board.unreachable("no such port");
/// let summary = board.summary();
/// assert_eq!(summary.link, Link::Unreachable);
/// assert_eq!(summary.link_error.as_deref(), Some("no such port"));
/// // Once open and lost, it is the stream's `link` event too.
/// board.connected("/dev/ttyUSB1");
/// let lost = board.link(5000, LinkState::Lost);
/// let line = serde_json::json!({"t": 5000, "kind": "link", "state": "lost"});
/// assert_eq!(serde_json::to_value(&lost)?, line);
/// assert_eq!(board.summary().link, Link::Lost);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct WatchedBoard {
    name: String,
    protocol: &'static str,
    port: String,
    link: Link,
    link_error: Option<String>,
    started: bool,
    position: Chess,
    ply: u32,
    result: Option<String>,
    clock: Option<ClockState>,
    game: u32,
    last_move: Option<String>,
    turn: Option<TurnSummary>,
    /// The board as its reports show it.
    physical: BoardSnapshot,
    /// The current game's events, from its start.
    events: Vec<StreamEvent>,
    /// The position the current game starts from.
    start: Chess,
    flipped: bool,
    pgn: PgnRecorder,
    tags: PgnTags,
    /// The players of game 1, 2, ... in turn (empty: the tags' players for every game).
    pairings: Vec<Players>,
    /// The number of the session's first game (a resumed session's first game goes on with
    /// the game it resumed).
    first_game: u32,
    /// The PGN of each game that ended on the board in this session (one that had a move or a
    /// result), oldest first, at most [`FINISHED_KEPT`]; kept only when asked for
    /// ([`WatchedBoard::keeping_finished_games`]).
    finished: Option<Vec<Arc<str>>>,
    /// How many games have ended on the board in this session (those kept and those dropped
    /// past [`FINISHED_KEPT`]): it moves when the finished games change.
    finished_total: u64,
    /// The online game played on the board, if it is one.
    online: Option<OnlineStatus>,
    /// Whether the game gives hints on request.
    hints: bool,
    /// The board's serial number, once said.
    serial: Option<String>,
    /// Whether the board's clock last said its battery is low, if it says so.
    clock_battery_low: Option<bool>,
    /// The board's own battery, once told.
    battery: Option<BatteryLevel>,
    /// When the board last reported (ms of session time), if it has.
    reported: Option<Millis>,
    /// When the current game's last move was made (taken back or not), if it has one.
    moved: Option<Millis>,
    /// What the board showed of each game and what was decided, for its report.
    timeline: Timeline,
    /// The opening the current game reached, worked out when its moves change (the summary
    /// is asked for far more often).
    opening: Option<Opening>,
}

/// How many games before the current one a board keeps what it saw of, for their reports.
pub const REPORTS_KEPT: usize = 4;

/// How many finished games a board keeps (a Lichess broadcast push holds at most 100 games in
/// all).
pub const FINISHED_KEPT: usize = 64;

impl WatchedBoard {
    /// Board `name`, speaking `protocol` on `port`, whose games start from `start`; `tags`
    /// go into its PGN (the round, the board's number, the players).
    pub fn new(
        name: &str,
        protocol: &'static str,
        port: &str,
        start: Chess,
        tags: PgnTags,
    ) -> WatchedBoard {
        let set_up = start != Chess::default();
        WatchedBoard {
            name: name.to_owned(),
            protocol,
            port: port.to_owned(),
            link: Link::Connecting,
            link_error: None,
            started: false,
            position: start.clone(),
            ply: 0,
            result: None,
            clock: None,
            game: 1,
            last_move: None,
            turn: None,
            physical: BoardSnapshot::occupancy(Bitboard::EMPTY),
            events: Vec::new(),
            start: start.clone(),
            flipped: false,
            pgn: PgnRecorder::new(start.clone(), set_up, tags.clone()),
            tags,
            pairings: Vec::new(),
            first_game: 1,
            finished: None,
            finished_total: 0,
            online: None,
            hints: false,
            serial: None,
            battery: None,
            clock_battery_low: None,
            reported: None,
            moved: None,
            timeline: Timeline::new(start, set_up),
            opening: None,
        }
    }

    /// The board whose game gives hints on request (a game against an engine), as its summary
    /// says.
    #[must_use]
    pub fn giving_hints(mut self) -> WatchedBoard {
        self.hints = true;
        self
    }

    /// The board that keeps the PGN of every game that ends on it in this session (for a
    /// broadcast that shows every game of the round, finished ones too).
    #[must_use]
    pub fn keeping_finished_games(mut self) -> WatchedBoard {
        self.finished = Some(Vec::new());
        self
    }

    /// The PGN of each game that ended on the board in this session, oldest first (empty
    /// unless [`WatchedBoard::keeping_finished_games`]).
    pub fn finished_games(&self) -> &[Arc<str>] {
        self.finished.as_deref().unwrap_or_default()
    }

    /// How many games have ended on the board in this session: it moves whenever
    /// [`WatchedBoard::finished_games`] changes.
    pub fn finished_total(&self) -> u64 {
        self.finished_total
    }

    /// The PGN tags of the current game (its players, the event, the round...).
    pub fn tags(&self) -> &PgnTags {
        &self.tags
    }

    /// The current game's name outside the board, known at the edge when it begins: its
    /// `GameId` and the day it began go into its PGN (a new game has neither until named).
    pub fn name_game(&mut self, label: &GameLabel) {
        self.tags.game_id.clone_from(&label.id);
        self.tags.date.clone_from(&label.date);
        self.pgn.set_tags(self.tags.clone());
    }

    /// The session's first game is game `number` of the board, from `start` (a session resumed
    /// from that game's record); the games after it are numbered on from there.
    pub fn resume_as_game(&mut self, number: u32, start: Chess) {
        self.first_game = number.max(1);
        self.game = self.first_game;
        self.set_players();
        self.clear_game(start);
    }

    /// Game `number` begins from `start` between `players`, as a session that plays one game
    /// after another says (`touchmove online`): the game before it is done with. Returns the
    /// event that tells the board's stream (a page starts the game afresh).
    pub fn begin_game(
        &mut self,
        t: Millis,
        number: u32,
        start: Chess,
        players: Players,
    ) -> StreamEvent {
        self.first_game = number.max(1);
        self.game = self.first_game;
        self.tags.white.clone_from(&players.white);
        self.tags.black.clone_from(&players.black);
        self.clear_game(start.clone());
        self.started = false;
        self.clock = None;
        self.online = None;
        let kind = if start == Chess::default() {
            EventKind::Game { number: self.game }
        } else {
            EventKind::Setup {
                number: self.game,
                fen: Fen::from_position(&start, EnPassantMode::Legal),
            }
        };
        let event = StreamEvent::from(GameEvent { t, kind });
        self.events.push(event.clone());
        self.timeline.stream(&event);
        event
    }

    /// The board told its battery.
    pub fn set_battery(&mut self, level: BatteryLevel) {
        self.battery = Some(level);
        self.heard();
    }

    /// The board said its serial number.
    pub fn set_serial(&mut self, serial: &str) {
        self.serial = Some(serial.to_owned());
        self.heard();
    }

    /// The online game played on the board, as it stands now (`None`: none); whether that
    /// changed anything.
    pub fn set_online(&mut self, online: Option<OnlineStatus>) -> bool {
        if self.online == online {
            return false;
        }
        self.online = online;
        true
    }

    /// The board whose game `n` is played by `pairings[n - 1]` (round them again once all have
    /// played), as when one board plays a known list of games.
    #[must_use]
    pub fn with_pairings(mut self, pairings: Vec<Players>) -> WatchedBoard {
        self.pairings = pairings;
        self.set_players();
        // The first game's record, made before the pairings were known, names its players too.
        let set_up = self.start != Chess::default();
        self.pgn = PgnRecorder::new(self.start.clone(), set_up, self.tags.clone());
        self
    }

    /// The players of the current game, from the pairings, into the summary and the PGN tags.
    fn set_players(&mut self) {
        let count = self.pairings.len();
        let index = usize::try_from(self.game.saturating_sub(1)).unwrap_or(0);
        let Some(players) = index.checked_rem(count).and_then(|i| self.pairings.get(i)) else {
            return;
        };
        self.tags.white.clone_from(&players.white);
        self.tags.black.clone_from(&players.black);
    }

    /// The board's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The port was opened (on `port`): the board will be heard.
    pub fn connected(&mut self, port: &str) {
        port.clone_into(&mut self.port);
        // An open port is no board answering: a board lost stays lost until it answers again
        // (a port reopened while the board is frozen opens all the same), and one not yet
        // heard is connected by its first report.
        if self.link != Link::Lost {
            self.link = Link::Connecting;
        }
        self.link_error = None;
    }

    /// The board said something (a report, its serial number): a board being opened is heard.
    fn heard(&mut self) {
        if self.link == Link::Connecting {
            self.link = Link::Connected;
        }
    }

    /// The board's port cannot be opened, for the reason `why`; the runner keeps trying. A
    /// board never heard is unreachable; one heard before stays lost (the reason said too).
    pub fn unreachable(&mut self, why: &str) {
        if matches!(self.link, Link::Connecting | Link::Unreachable) {
            self.link = Link::Unreachable;
        }
        self.link_error = Some(why.to_owned());
    }

    /// The board stopped answering at `t`, or answers again: the `link` event of the board's
    /// stream (kept with the game's events, as `watch --json` prints it among them).
    pub fn link(&mut self, t: Millis, state: LinkState) -> StreamEvent {
        self.link = match state {
            LinkState::Lost => Link::Lost,
            LinkState::Back => Link::Connected,
        };
        if state == LinkState::Back {
            self.link_error = None;
        }
        let event = StreamEvent {
            t,
            kind: StreamKind::Link(state),
        };
        self.events.push(event.clone());
        event
    }

    /// A clock report at `t` (once the game has a result, its clock stands as it stood).
    pub fn clock_reading(&mut self, t: Millis, reading: &ClockReading) {
        self.heard();
        if reading.battery_low.is_some() {
            self.clock_battery_low = reading.battery_low;
        }
        if self.result.is_some() {
            return;
        }
        self.clock = Some(ClockState {
            white: reading.times.white,
            black: reading.times.black,
            running: reading.running,
            t,
        });
    }

    /// Something the live game said, the game as it stands after it; returns the game event
    /// to pass on to the board's stream, if it is one.
    pub fn live(&mut self, event: &LiveEvent, game: &LiveGame) -> Option<StreamEvent> {
        match event {
            LiveEvent::Started { .. } => {
                // A Chess960 start the board showed by itself, before any move.
                if *game.start() != self.start && self.ply == 0 && self.result.is_none() {
                    self.clear_game(game.start().clone());
                }
                self.started = true;
                None
            }
            // The page shows a promotion waiting for its piece from the turn's summary.
            LiveEvent::Waiting { .. } | LiveEvent::PromotionAsked { .. } => None,
            LiveEvent::Decision(decision) => Some(self.decision(decision, game)),
            LiveEvent::SetUp { t } => Some(self.set_up(*t, game)),
        }
    }

    /// A new game was set up at `t` from `game`'s start: the event that says so.
    fn set_up(&mut self, t: Millis, game: &LiveGame) -> StreamEvent {
        // The new game is the board's next, and the session's games after it follow on.
        self.first_game = self.game.saturating_add(1);
        self.game = self.first_game;
        self.set_players();
        self.clear_game(game.start().clone());
        self.started = false;
        let event = StreamEvent::from(GameEvent {
            t,
            kind: EventKind::Setup {
                number: self.game,
                fen: Fen::from_position(game.start(), EnPassantMode::Legal),
            },
        });
        self.events.push(event.clone());
        self.timeline.stream(&event);
        self.read_turn(game);
        event
    }

    /// The decision as the board's stream says it (a new game numbered as the board's
    /// games are).
    fn decision(&mut self, decision: &GameEvent, game: &LiveGame) -> StreamEvent {
        let decision = self.record(StreamEvent::from(decision.clone()));
        self.read_turn(game);
        if let Some(interpreter) = game.interpreter() {
            self.position = interpreter.game().position().clone();
            self.ply = u32::try_from(interpreter.game().plies()).unwrap_or(u32::MAX);
        }
        decision
    }

    /// A decision that a record beside the live game made (a game against an engine, in which
    /// the engine's moves stand only as the engine chose them): the position and ply after it
    /// are that record's. Returns the event to pass on to the board's stream.
    pub fn decided(&mut self, decision: &StreamEvent, position: &Chess, ply: usize) -> StreamEvent {
        let decision = self.record(decision.clone());
        self.position = position.clone();
        self.ply = u32::try_from(ply).unwrap_or(u32::MAX);
        decision
    }

    /// Something said beside the game's decisions (an engine's analysis), kept in the board's
    /// stream as it is: the game does not change.
    pub fn commented(&mut self, said: &StreamEvent) -> StreamEvent {
        self.record(said.clone())
    }

    /// The decision kept: the record, the last move, the clock and the result follow it.
    fn record(&mut self, mut decision: StreamEvent) -> StreamEvent {
        if let StreamKind::Game(EventKind::Game { number }) = &mut decision.kind {
            self.new_game(*number);
            *number = self.game;
        }
        // A PGN refusing an event keeps what it had: the stream still carries the event.
        let _ = self.pgn.record_stream(&decision);
        if matches!(
            decision.game(),
            Some(EventKind::Move(_) | EventKind::Takeback { .. })
        ) {
            self.opening = self.pgn.opening();
        }
        self.timeline.stream(&decision);
        self.events.push(decision.clone());
        let Some(kind) = decision.game() else {
            return decision;
        };
        match kind {
            EventKind::Move(played) => {
                self.last_move = Some(played.uci.to_string());
                self.moved = Some(decision.t);
                if let Some(times) = played.clock {
                    self.clock_after_move(decision.t, times, !played.color);
                }
            }
            EventKind::Takeback { .. } => self.last_move = None,
            // The arbiter's times: the clock runs on from them.
            EventKind::TimeAdded { clock, .. } | EventKind::ClockSet { clock } => {
                let running = self.clock.and_then(|state| state.running);
                self.clock = Some(ClockState {
                    white: clock.white,
                    black: clock.black,
                    running,
                    t: decision.t,
                });
            }
            // This game's PGN took it; the next games' and the summary's players follow.
            EventKind::Tag { tag, value } => self.tags.set(*tag, value.clone()),
            EventKind::Result(result) => {
                self.result = Some(result.result.clone());
                if let Some(clock) = self.clock.as_mut() {
                    clock.running = None;
                }
            }
            _ => {}
        }
        decision
    }

    fn clock_after_move(&mut self, t: Millis, times: ClockTimes, running: Color) {
        self.clock = Some(ClockState {
            white: times.white,
            black: times.black,
            running: Some(running),
            t,
        });
    }

    /// A new game on the board, the session's game `number` (from the standard position):
    /// the stream and the PGN start again.
    fn new_game(&mut self, number: u32) {
        self.game = number.saturating_add(self.first_game).saturating_sub(1);
        self.set_players();
        self.clear_game(Chess::default());
    }

    /// The current game's record starts again from `start` (the game before it kept, if it
    /// was played and finished games are kept).
    fn clear_game(&mut self, start: Chess) {
        let played = self.ply > 0 || self.result.is_some();
        if let Some(finished) = self.finished.as_mut().filter(|_| played) {
            self.finished_total = self.finished_total.saturating_add(1);
            finished.push(Arc::from(self.pgn.to_pgn_string()));
            if finished.len() > FINISHED_KEPT {
                finished.remove(0);
            }
        }
        self.timeline.begin(self.game, start.clone());
        self.opening = None;
        self.timeline.keep_last(REPORTS_KEPT);
        self.events.clear();
        self.result = None;
        self.last_move = None;
        self.moved = None;
        self.ply = 0;
        // The game before's name is not this one's: it is named when it begins.
        self.tags.game_id = None;
        self.tags.date = None;
        let set_up = start != Chess::default();
        self.pgn = PgnRecorder::new(start.clone(), set_up, self.tags.clone());
        self.position = start.clone();
        self.start = start;
    }

    /// The board's reports are read turned round from `t` (or no longer): LiveChess's `flip`.
    pub fn set_flipped(&mut self, flipped: bool) {
        self.flipped = flipped;
    }

    /// The current game's moves that stand, in SAN, from its start.
    pub fn sans(&self) -> Vec<String> {
        let mut sans = Vec::new();
        let before = |ply: u32| usize::try_from(ply.saturating_sub(1)).unwrap_or(usize::MAX);
        for event in &self.events {
            match event.game() {
                Some(EventKind::Move(played)) => {
                    sans.truncate(before(played.ply));
                    sans.push(played.san.to_string());
                }
                Some(EventKind::Takeback { ply }) => sans.truncate(before(*ply)),
                _ => {}
            }
        }
        sans
    }

    /// The summary `GET /api/boards` gives.
    pub fn summary(&self) -> BoardSummary {
        let latest = self.reported.max(self.moved).unwrap_or_default();
        self.summary_at(latest)
    }

    /// The summary at `now` (ms of session time): how long ago the board reported and its last
    /// move was made counted to then.
    pub fn summary_at(&self, now: Millis) -> BoardSummary {
        let since = |t: Option<Millis>| t.map(|t| now.saturating_sub(t));
        BoardSummary {
            name: self.name.clone(),
            protocol: self.protocol,
            port: self.port.clone(),
            link: self.link,
            link_error: self.link_error.clone(),
            started: self.started,
            fen: Fen::from_position(&self.position, EnPassantMode::Legal).to_string(),
            ply: self.ply,
            result: self.result.clone(),
            clock: self.clock,
            players: Players {
                white: self.tags.white.clone(),
                black: self.tags.black.clone(),
            },
            game: self.game,
            last_move: self.last_move.clone(),
            turn: self.turn.clone(),
            board: format_placement(&self.physical),
            differs: self.differs().into_iter().map(|s| s.to_string()).collect(),
            flipped: self.flipped,
            start: Fen::from_position(&self.start, EnPassantMode::Legal).to_string(),
            online: self.online.clone(),
            hints: self.hints,
            serial: self.serial.clone(),
            clock_battery_low: self.clock_battery_low,
            battery: self.battery,
            since_report_ms: since(self.reported),
            since_move_ms: since(self.moved),
            opening: self.opening,
            tablebase: None,
        }
    }

    /// The squares where the board as it stands differs from the game's position: occupied on
    /// one and not the other, or holding another piece where the board can tell.
    fn differs(&self) -> Bitboard {
        let game = self.position.board();
        let occupancy = self.physical.occupied ^ game.occupied();
        let known = self.physical.pieces.occupied() & game.occupied();
        let other_piece = known
            .into_iter()
            .filter(|&square| self.physical.pieces.piece_at(square) != game.piece_at(square))
            .collect::<Bitboard>();
        occupancy | other_piece
    }

    /// The board as it stands with every piece named: the piece the board identified, else
    /// the game's piece on that square (a board that only senses occupancy); an occupied
    /// square with neither (a piece the board cannot tell, where the game has none) is left
    /// empty.
    pub fn named_board(&self) -> shakmaty::Board {
        let mut board = self.physical.pieces.clone();
        let unnamed = self.physical.occupied & !board.occupied();
        for square in unnamed {
            if let Some(piece) = self.position.board().piece_at(square) {
                board.set_piece_at(square, piece);
            }
        }
        board
    }

    /// The board as its reports show it (empty until its first full report).
    pub fn standing(&self) -> &BoardSnapshot {
        &self.physical
    }

    /// The board reported `event` and the game took it: the board as it stands and the turn
    /// in progress are read again.
    pub fn sensor(&mut self, event: &SensorEvent, game: &LiveGame) {
        self.heard();
        self.reported = Some(event.t);
        self.physical.apply(&event.kind);
        self.timeline.sensor(event);
        self.read_turn(game);
    }

    /// The turn in progress, read from the game (after a report, or a decision that a record
    /// beside the live game takes: the page's turn must not show a touch the move ended).
    pub fn read_turn(&mut self, game: &LiveGame) {
        self.turn = game.interpreter().map(|interpreter| {
            let view = interpreter.turn_view();
            self.timeline.turn(&view);
            let name = |square: shakmaty::Square| square.to_string();
            TurnSummary {
                in_hand: view
                    .in_hand
                    .iter()
                    .map(|(square, _)| name(*square))
                    .collect(),
                touched: view
                    .touched
                    .iter()
                    .map(|touched| name(touched.square))
                    .collect(),
                must_move: view.must_move.map(name),
                must_capture: view.must_capture.map(name),
                promotion: match view.pending {
                    Some(PendingDecision::PromotionChoice { chess_move }) => {
                        Some(name(chess_move.to()))
                    }
                    _ => None,
                },
            }
        });
    }

    /// The position the current game stands at.
    pub fn position(&self) -> &Chess {
        &self.position
    }

    /// The report of game `number` of the board, once it has a result (its times, touches,
    /// rulings; judged by the engine analysing beside the board, if one did): while it is the
    /// current game, and for the few games after it ([`REPORTS_KEPT`]).
    pub fn report(&self, number: u32) -> Option<GameReport> {
        self.finished_game(number).map(GameReport::of_game)
    }

    /// What the board saw of game `number`, once it has a result (see
    /// [`WatchedBoard::report`]).
    pub fn finished_game(&self, number: u32) -> Option<GameFacts> {
        let game = self
            .timeline
            .games()
            .filter(|game| game.number == number)
            .last()?;
        game.result.as_ref()?;
        Some(game.clone())
    }

    /// The current game's events, from its start.
    pub fn events(&self) -> &[StreamEvent] {
        &self.events
    }

    /// Whether the current game stands at `start` with nothing played: no move made (none
    /// taken back either) and no result.
    pub fn stands_unplayed_at(&self, start: &Chess) -> bool {
        self.ply == 0 && self.moved.is_none() && self.result.is_none() && self.start == *start
    }

    /// The current game as PGN (`*` while it goes on).
    pub fn pgn(&self) -> String {
        self.pgn.to_pgn_string()
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{Board, Square};

    use super::*;
    use touchmove_core::interpreter::Config;
    use touchmove_core::sensor::{BoardSnapshot, SensorEvent, SensorKind};

    /// A game of `1. e4` on board "7" with a link to watch it.
    fn e4_watched() -> WatchedBoard {
        let tags = PgnTags {
            round: Some("3".to_owned()),
            board: Some("7".to_owned()),
            white: Some("Anna".to_owned()),
            ..PgnTags::default()
        };
        let mut watched = WatchedBoard::new("7", "dgt", "/dev/ttyACM0", Chess::default(), tags);
        let mut game = LiveGame::new(Chess::default(), Config::default());
        let mut feed = |game: &mut LiveGame, event: SensorEvent| {
            game.handle_sensor(&event);
            watched.sensor(&event, game);
            while let Some(live) = game.poll_event() {
                watched.live(&live, game);
            }
        };
        let snapshot = SensorKind::Snapshot(Box::new(BoardSnapshot::identified(&Board::new())));
        feed(&mut game, SensorEvent::new(0, snapshot));
        let pawn = Some(Color::White.pawn());
        let lift = SensorKind::Lift {
            square: Square::E2,
            piece: pawn,
        };
        let place = SensorKind::Place {
            square: Square::E4,
            piece: pawn,
        };
        feed(&mut game, SensorEvent::new(1000, lift));
        feed(&mut game, SensorEvent::new(1300, place));
        watched
    }

    #[test]
    fn the_summary_follows_the_game() {
        let mut watched = e4_watched();
        // The port opened again: connected once the board says something.
        watched.connected("/dev/ttyACM0");
        assert_eq!(watched.summary().link, Link::Connecting);
        watched.set_serial("12345");
        let summary = watched.summary();
        assert_eq!(
            (summary.started, summary.ply, summary.link),
            (true, 1, Link::Connected)
        );
        assert_eq!(
            summary.fen,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        assert_eq!(summary.last_move.as_deref(), Some("e2e4"));
        assert_eq!(
            summary.board,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
        );
        assert!(summary.differs.is_empty(), "{:?}", summary.differs);
        assert_eq!(summary.players.white.as_deref(), Some("Anna"));
        watched.link(5000, LinkState::Lost);
        assert_eq!(watched.summary().link, Link::Lost);
        let json = serde_json::to_value(watched.summary()).unwrap_or_default();
        assert_eq!(json["link"], "lost");
        assert_eq!(json["result"], serde_json::Value::Null);
    }

    #[test]
    fn a_clock_s_low_battery_is_in_the_summary_once_a_clock_says_so() {
        let mut watched = e4_watched();
        assert_eq!(watched.summary().clock_battery_low, None);
        let times = ClockTimes {
            white: 60_000,
            black: 60_000,
        };
        let reading = ClockReading::new(times, Some(Color::White));
        watched.clock_reading(1_000, &reading);
        assert_eq!(watched.summary().clock_battery_low, None, "it said nothing");
        watched.clock_reading(2_000, &reading.with_battery_low(true));
        assert_eq!(watched.summary().clock_battery_low, Some(true));
    }

    #[test]
    fn a_player_the_arbiter_renames_is_in_the_summary_and_the_pgn() {
        let mut watched = e4_watched();
        let renamed = StreamEvent::from(GameEvent {
            t: 5_000,
            kind: EventKind::Tag {
                tag: touchmove_core::event::TagName::Black,
                value: "Ben Finegold".to_owned(),
            },
        });
        let position = watched.position.clone();
        watched.decided(&renamed, &position, 1);
        let summary = watched.summary();
        assert_eq!(summary.players.white.as_deref(), Some("Anna"));
        assert_eq!(summary.players.black.as_deref(), Some("Ben Finegold"));
        assert!(
            watched.pgn().contains("[Black \"Ben Finegold\"]"),
            "{}",
            watched.pgn()
        );
    }

    #[test]
    fn a_game_begun_by_the_session_starts_afresh_with_its_players() {
        let mut watched = e4_watched();
        watched.set_online(Some(OnlineStatus {
            server: "lichess.org".to_owned(),
            game: "g1".to_owned(),
            side: Color::White,
            draw_offer: None,
            takeback_proposal: None,
            opponent_gone: false,
            over: true,
        }));
        let players = Players {
            white: Some("Anna".to_owned()),
            black: Some("Ben".to_owned()),
        };
        let event = watched.begin_game(9000, 2, Chess::default(), players.clone());
        assert_eq!(event.game(), Some(&EventKind::Game { number: 2 }));
        let summary = watched.summary();
        assert_eq!((summary.game, summary.ply, summary.started), (2, 0, false));
        assert_eq!(summary.players, players);
        assert_eq!(summary.last_move, None);
        assert_eq!(summary.online, None);
        assert_eq!(watched.events(), [event]);
        assert!(
            watched.pgn().contains("[Black \"Ben\"]"),
            "{}",
            watched.pgn()
        );
        // A game from another position is a set-up, its FEN said.
        let after_e4: Chess = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
            .parse::<Fen>()
            .ok()
            .and_then(|fen| fen.into_position(shakmaty::CastlingMode::Standard).ok())
            .unwrap_or_default();
        let event = watched.begin_game(9500, 3, after_e4, players);
        assert!(
            matches!(event.game(), Some(EventKind::Setup { number: 3, .. })),
            "{event:?}"
        );
        assert_eq!(
            watched.summary().start,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
    }

    /// Plays `1. e4` on `watched` through a live game, then sets a new game up at `t`.
    fn e4_then_set_up(watched: &mut WatchedBoard, t: Millis) -> LiveGame {
        let mut game = LiveGame::new(Chess::default(), Config::default());
        let pawn = Some(Color::White.pawn());
        let reports = [
            (
                0,
                SensorKind::Snapshot(Box::new(BoardSnapshot::identified(&Board::new()))),
            ),
            (
                1000,
                SensorKind::Lift {
                    square: Square::E2,
                    piece: pawn,
                },
            ),
            (
                1300,
                SensorKind::Place {
                    square: Square::E4,
                    piece: pawn,
                },
            ),
        ];
        let drain = |game: &mut LiveGame, watched: &mut WatchedBoard| {
            while let Some(event) = game.poll_event() {
                watched.live(&event, game);
            }
        };
        for (at, kind) in reports {
            let event = SensorEvent::new(at, kind);
            game.handle_sensor(&event);
            watched.sensor(&event, &game);
            drain(&mut game, watched);
        }
        game.handle_timeout(t);
        drain(&mut game, watched);
        game.set_up(t, Chess::default());
        drain(&mut game, watched);
        game
    }

    #[test]
    fn a_board_keeps_its_finished_games_when_asked_each_once() {
        let mut kept = WatchedBoard::new("1", "dgt", "-", Chess::default(), PgnTags::default())
            .keeping_finished_games();
        let mut game = e4_then_set_up(&mut kept, 5000);
        assert_eq!(kept.finished_games().len(), 1);
        assert!(
            kept.finished_games()
                .first()
                .is_some_and(|pgn| pgn.contains("1. e4 *")),
            "{:?}",
            kept.finished_games()
        );
        assert_eq!(kept.summary().ply, 0);
        // A game set up and set up again before a move was made is no game.
        game.set_up(6000, Chess::default());
        while let Some(event) = game.poll_event() {
            kept.live(&event, &game);
        }
        assert_eq!(kept.finished_games().len(), 1);
        let mut plain = WatchedBoard::new("2", "dgt", "-", Chess::default(), PgnTags::default());
        e4_then_set_up(&mut plain, 5000);
        assert!(plain.finished_games().is_empty());
    }

    #[test]
    fn a_game_s_name_is_its_own_and_the_next_game_has_none_until_named() {
        let mut board = WatchedBoard::new("1", "dgt", "-", Chess::default(), PgnTags::default())
            .keeping_finished_games();
        board.name_game(&GameLabel {
            id: Some("hall-a/1/1/20261207T062658Z".to_owned()),
            date: Some("2026.12.07".to_owned()),
        });
        e4_then_set_up(&mut board, 5000);
        let finished = board.finished_games().first().cloned().unwrap_or_default();
        assert!(
            finished.contains("[Date \"2026.12.07\"]")
                && finished.contains("[GameId \"hall-a/1/1/20261207T062658Z\"]"),
            "{finished}"
        );
        // The game set up after it is not named yet: it never carries the last game's id.
        let next = board.pgn();
        assert!(
            next.contains("[Date \"????.??.??\"]") && !next.contains("GameId"),
            "{next}"
        );
        board.name_game(&GameLabel {
            id: Some("hall-a/1/2/20261207T063000Z".to_owned()),
            date: Some("2026.12.07".to_owned()),
        });
        assert!(
            board
                .pgn()
                .contains("[GameId \"hall-a/1/2/20261207T063000Z\"]")
        );
    }

    #[test]
    fn the_next_game_s_pgn_is_that_game_alone_and_the_finished_one_is_kept_once() {
        let mut watched = e4_watched().keeping_finished_games();
        let next = StreamEvent::from(GameEvent {
            t: 9_000,
            kind: EventKind::Game { number: 2 },
        });
        watched.decided(&next, &Chess::default(), 0);
        let pgn = watched.pgn();
        assert_eq!(pgn.matches("[Event ").count(), 1, "{pgn}");
        assert!(pgn.trim_end().ends_with('*'), "{pgn}");
        assert!(!pgn.contains("e4"), "{pgn}");
        let finished = watched.finished_games();
        assert_eq!(finished.len(), 1, "{finished:?}");
        assert!(
            finished.iter().all(|game| game.contains("1. e4 *")),
            "{finished:?}"
        );
    }

    #[test]
    fn an_open_port_is_no_board_answering_a_lost_board_stays_lost_until_it_answers() {
        let mut watched = WatchedBoard::new(
            "1",
            "dgt",
            "/dev/ttyACM0",
            Chess::default(),
            PgnTags::default(),
        );
        watched.connected("/dev/ttyACM0");
        assert_eq!(watched.summary().link, Link::Connecting, "open, not heard");
        watched.set_serial("12345");
        assert_eq!(watched.summary().link, Link::Connected, "heard");
        watched.link(1_000, LinkState::Lost);
        // The board frozen, its port reopened again and again: still lost, whatever comes.
        watched.connected("/dev/ttyACM0");
        assert_eq!(watched.summary().link, Link::Lost);
        let reading = ClockReading::new(ClockTimes { white: 1, black: 1 }, None);
        watched.clock_reading(2_000, &reading);
        assert_eq!(watched.summary().link, Link::Lost);
        watched.link(3_000, LinkState::Back);
        assert_eq!(watched.summary().link, Link::Connected);
    }

    #[test]
    fn a_board_playing_known_pairings_names_the_players_from_its_first_game() {
        let pairings = vec![
            Players {
                white: Some("Anna".to_owned()),
                black: Some("Ben".to_owned()),
            },
            Players {
                white: Some("Cleo".to_owned()),
                black: Some("Dan".to_owned()),
            },
        ];
        let mut watched = WatchedBoard::new("1", "dgt", "-", Chess::default(), PgnTags::default())
            .with_pairings(pairings);
        let pgn = watched.pgn();
        assert!(
            pgn.contains("[White \"Anna\"]") && pgn.contains("[Black \"Ben\"]"),
            "{pgn}"
        );
        let next = StreamEvent::from(GameEvent {
            t: 9_000,
            kind: EventKind::Game { number: 2 },
        });
        watched.decided(&next, &Chess::default(), 0);
        let pgn = watched.pgn();
        assert!(
            pgn.contains("[White \"Cleo\"]") && pgn.contains("[Black \"Dan\"]"),
            "{pgn}"
        );
    }

    #[test]
    fn a_board_never_heard_is_unreachable_and_one_heard_before_stays_lost() {
        let mut never = WatchedBoard::new(
            "1",
            "dgt",
            "/dev/ttyUSB7",
            Chess::default(),
            PgnTags::default(),
        );
        never.unreachable("/dev/ttyUSB7: no such port");
        let summary = never.summary();
        assert_eq!(summary.link, Link::Unreachable);
        assert_eq!(
            summary.link_error.as_deref(),
            Some("/dev/ttyUSB7: no such port")
        );
        let mut heard = e4_watched();
        heard.connected("/dev/ttyACM0");
        heard.link(5000, LinkState::Lost);
        heard.unreachable("/dev/ttyACM0: no such port");
        assert_eq!(heard.summary().link, Link::Lost);
        assert!(heard.summary().link_error.is_some());
        heard.connected("/dev/ttyACM0");
        assert_eq!(heard.summary().link_error, None);
    }

    #[test]
    fn the_moves_that_stand_are_the_moves_less_those_taken_back() {
        let mut watched = e4_watched();
        assert_eq!(watched.sans(), ["e4"]);
        let mut game = LiveGame::new(Chess::default(), Config::default());
        game.handle_sensor(&SensorEvent::new(
            0,
            SensorKind::Snapshot(Box::new(BoardSnapshot::identified(&Board::new()))),
        ));
        let pawn = Some(Color::White.pawn());
        let moves = [
            (1000, Square::E2, Square::E4),
            // The pawn goes back: 1. e4 is taken back.
            (3000, Square::E4, Square::E2),
        ];
        for (t, from, to) in moves {
            for kind in [
                SensorKind::Lift {
                    square: from,
                    piece: pawn,
                },
                SensorKind::Place {
                    square: to,
                    piece: pawn,
                },
            ] {
                game.handle_sensor(&SensorEvent::new(t, kind));
            }
            if let Some(due) = game.poll_timeout() {
                game.handle_timeout(due);
            }
        }
        game.finish();
        let mut watched_again =
            WatchedBoard::new("1", "dgt", "-", Chess::default(), PgnTags::default());
        while let Some(event) = game.poll_event() {
            watched_again.live(&event, &game);
        }
        let kinds: Vec<&str> = watched_again
            .events()
            .iter()
            .map(|event| match event.game() {
                Some(EventKind::Move(_)) => "move",
                Some(EventKind::Takeback { .. }) => "takeback",
                _ => "other",
            })
            .collect();
        assert_eq!(kinds, ["move", "takeback"]);
        assert!(watched_again.sans().is_empty());
        watched.set_flipped(true);
        assert!(watched.summary().flipped);
    }

    #[test]
    fn the_board_as_it_stands_is_drawn_and_its_differences_marked() {
        let mut watched = e4_watched();
        let game = LiveGame::new(Chess::default(), Config::default());
        // Black's e-pawn in hand; a white knight set down on f3 for a moment.
        let lift = SensorKind::Lift {
            square: Square::E7,
            piece: Some(Color::Black.pawn()),
        };
        watched.sensor(&SensorEvent::new(2000, lift), &game);
        let knight = SensorKind::Place {
            square: Square::F3,
            piece: Some(Color::White.knight()),
        };
        watched.sensor(&SensorEvent::new(2100, knight), &game);
        let summary = watched.summary();
        assert_eq!(
            summary.board,
            "rnbqkbnr/pppp1ppp/8/8/4P3/5N2/PPPP1PPP/RNBQKBNR"
        );
        assert_eq!(summary.differs, ["f3", "e7"]);
    }

    #[test]
    fn the_pgn_has_the_round_and_the_board_and_goes_on() {
        let pgn = e4_watched().pgn();
        assert!(pgn.contains("[Round \"3\"]"), "{pgn}");
        assert!(pgn.contains("[Board \"7\"]"), "{pgn}");
        assert!(pgn.trim_end().ends_with("1. e4 *"), "{pgn}");
    }

    #[test]
    fn each_game_has_its_pairing() {
        let pairing = |white: &str, black: &str| Players {
            white: Some(white.to_owned()),
            black: Some(black.to_owned()),
        };
        let mut watched = e4_watched().with_pairings(vec![pairing("A", "B"), pairing("C", "D")]);
        assert_eq!(watched.summary().players, pairing("A", "B"));
        let new_game = |number| GameEvent {
            t: 9000,
            kind: EventKind::Game { number },
        };
        let game = LiveGame::new(Chess::default(), Config::default());
        for (number, white) in [(2, "C"), (3, "A")] {
            watched.live(&LiveEvent::Decision(new_game(number)), &game);
            assert_eq!(watched.summary().players.white.as_deref(), Some(white));
            assert!(watched.pgn().contains(&format!("[White \"{white}\"]")));
        }
        // Resumed at the board's game 2, the session's second game is the board's third.
        watched.resume_as_game(2, Chess::default());
        assert_eq!(watched.summary().game, 2);
        watched.live(&LiveEvent::Decision(new_game(2)), &game);
        assert_eq!(watched.summary().game, 3);
        assert_eq!(watched.summary().players.white.as_deref(), Some("A"));
    }
}
