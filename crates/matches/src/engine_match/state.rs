//! The game against the engine and its outputs, shared by the board's runner (through its
//! sink) and the task that listens to the engine.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, StdoutLock};
use std::rc::Rc;
use std::sync::Arc;

use shakmaty::uci::UciMove;
use shakmaty::{Color, Move, Position};
use tokio::sync::mpsc;

use touchmove_boards::live::{LiveEvent, LiveGame};
use touchmove_core::event::{ClockTimes, EventKind};
use touchmove_core::sensor::Millis;
use touchmove_core::sensor_log::HostNote;
use touchmove_core::stream::TableResult;
use touchmove_engine::play::{EngineGame, PlayEvent};
use touchmove_engine::{EngineEvent, Score, score_fields};
use touchmove_runtime::engine_runner::{EngineReport, EngineRequest};
use touchmove_runtime::runner::{Control, Happened, Sink};
use touchmove_runtime::tablebase::Tablebases;

use super::book::OpeningBook;
use super::coach::Coach;
use super::limits::Limits;
use crate::resume::{MatchSink, MatchState};
use touchmove_runtime::sinks::watch::WatchSink;
use touchmove_web::PageSink;

/// What answers the game's question for the engine's move, waiting for the runner.
pub enum Heard {
    /// What the engine's process said.
    Engine(EngineReport),
    /// The book's move after `moves` (taken only if the game still stands there).
    Book {
        /// The game's moves when the book was asked.
        moves: Vec<Move>,
        /// The book's move.
        chess_move: Move,
    },
    /// The Syzygy tables' move for the player after `moves`, asked as a hint (given only if
    /// the game still stands there).
    TableHint {
        /// The game's moves when the hint was asked.
        moves: Vec<Move>,
        /// The tables' move.
        chess_move: Move,
        /// What they say of the position.
        table: TableResult,
    },
    /// The player plays on after the coach spoke, the game at `moves`.
    PlayOn {
        /// The game's moves when the player asked.
        moves: Vec<Move>,
    },
}

/// The game against the engine and its outputs, shared by the board's runner and the task that
/// listens to the engine.
pub struct PlayState {
    /// The terminal, the recording and the PGN.
    pub out: WatchSink<StdoutLock<'static>>,
    /// The game against the engine.
    pub game: EngineGame,
    /// What is asked of the engine's process.
    pub ask: mpsc::UnboundedSender<EngineRequest>,
    /// What is asked of the board's runner.
    pub controls: mpsc::UnboundedSender<Control>,
    /// How long the engine thinks.
    pub limits: Limits,
    /// The clock after the last move that stands.
    pub clock: Option<ClockTimes>,
    /// The engine's last score in the search under way.
    pub score: Option<Score>,
    /// The live page, with `--listen`.
    pub page: Option<PageSink>,
    /// What the engine (or the book) said, until the runner wakes the sink to take it.
    pub heard: VecDeque<Heard>,
    /// `--book`: the engine's moves come from it while the game is in it.
    pub book: Option<OpeningBook>,
    /// A hint asked of the engine after these moves, not yet answered.
    pub hint_asked: Option<Vec<Move>>,
    /// A resumed game's recorded part is being read back: nothing is asked of the engine or
    /// shown on the board.
    pub replaying: bool,
    /// `--syzygy`: a hint in a position the tables hold is theirs.
    pub tables: Option<Arc<Tablebases>>,
    /// `--coach`: a move that loses much is said before the engine replies.
    pub coach: Option<Coach>,
}

impl PlayState {
    /// Carries out what the game against the engine says.
    pub fn drain(&mut self) -> io::Result<()> {
        while let Some(event) = self.game.poll_event() {
            match event {
                PlayEvent::Decision(decision) => {
                    if let Some(EventKind::Move(played)) = decision.game() {
                        self.clock = played.clock;
                        if let Some(coach) = self.coach.as_mut() {
                            coach.moved(played.san.to_string());
                        }
                    }
                    let position = self.game.position().clone();
                    self.out.write_decision(&decision, Some(&position))?;
                    if let Some(page) = self.page.as_mut() {
                        page.decided(&decision, &position, self.game.moves().len());
                    }
                }
                PlayEvent::AskEngine | PlayEvent::CancelEngine | PlayEvent::Show(_)
                    if self.replaying => {}
                PlayEvent::CancelEngine if self.coach.as_ref().is_some_and(Coach::holds) => {
                    // The move the coach spoke of was taken back: the engine's reply to it is
                    // no reply any more.
                    if let Some(coach) = self.coach.as_mut() {
                        coach.drop_held();
                    }
                    let _ = self.ask.send(EngineRequest::Cancel);
                }
                PlayEvent::AskEngine => self.ask_for_move(),
                PlayEvent::CancelEngine => {
                    // A book move not yet taken no longer applies either.
                    self.heard
                        .retain(|heard| !matches!(heard, Heard::Book { .. }));
                    let _ = self.ask.send(EngineRequest::Cancel);
                }
                PlayEvent::Show(feedback) => {
                    let _ = self.controls.send(Control::Feedback(feedback));
                }
            }
        }
        Ok(())
    }

    /// The engine's reply `chess_move` (scored `score`) came at `now`: held, and the player's
    /// move said, when the coach finds it lost too much. Whether it was held.
    pub(super) fn coached(&mut self, now: Millis, chess_move: Move, score: Option<Score>) -> bool {
        if self.replaying {
            return false;
        }
        let engine = self.game.position().turn();
        let Some(coach) = self.coach.as_mut() else {
            return false;
        };
        let Some(mut warning) = coach.judge(engine, score) else {
            return false;
        };
        warning.ply = u32::try_from(self.game.moves().len()).unwrap_or(u32::MAX);
        coach.hold(chess_move, score);
        self.out.host_note(now, &HostNote::Coach(warning.clone()));
        self.game.coach(now, warning);
        self.drain_or_say();
        true
    }

    /// The player plays on (typed `go`, the page's button): the engine's reply held is taken at
    /// the runner's time.
    pub fn ask_play_on(&mut self) {
        if !self.coach.as_ref().is_some_and(Coach::holds) {
            eprintln!("touchmove: nothing to play on from: the coach has said nothing");
            return;
        }
        self.heard.push_back(Heard::PlayOn {
            moves: self.game.moves().to_vec(),
        });
        let _ = self.controls.send(Control::Wake);
    }

    /// The engine's reply held is carried out at `now`, if the game still stands where it was
    /// held (`moves`).
    pub(super) fn play_on(&mut self, now: Millis, moves: &[Move]) {
        if self.game.moves() != moves || !self.game.engine_to_move() {
            return;
        }
        let Some((chess_move, score)) = self.coach.as_mut().and_then(Coach::take_held) else {
            return;
        };
        self.play_engine_move(now, chess_move, score);
        self.drain_or_say();
    }

    /// Carries out what the game says ([`PlayState::drain`]); an output that cannot be written
    /// is said, and the game goes on.
    pub(super) fn drain_or_say(&mut self) {
        if let Err(error) = self.drain() {
            eprintln!("touchmove: cannot write the results: {error}");
        }
    }

    /// The engine's move is wanted: the book's while the game is in it (taken by the runner at
    /// its place, as the engine's answers are), else the engine's search.
    fn ask_for_move(&mut self) {
        // A hint under way no longer applies: the engine's search replaces it.
        self.hint_asked = None;
        let position = self.game.position().clone();
        if let Some(chess_move) = self.book.as_mut().and_then(|book| book.choose(&position)) {
            self.heard.push_back(Heard::Book {
                moves: self.game.moves().to_vec(),
                chess_move,
            });
            let _ = self.controls.send(Control::Wake);
            return;
        }
        self.score = None;
        let _ = self.ask.send(self.search());
    }

    /// The player asks for a hint: the engine searches the game as it stands for the player
    /// (as long as it is given for its own moves; a minute at most), its answer taken as a
    /// hint. Only on the player's move.
    pub fn ask_hint(&mut self) {
        if self.replaying || !self.game.hint_wanted() {
            eprintln!("touchmove: no hint now: it is not your move");
            return;
        }
        let moves = self.game.moves().to_vec();
        if self.hint_asked.as_ref() == Some(&moves) {
            return;
        }
        if let Some((chess_move, table)) = self.table_move() {
            // Taken at the runner's time, as the engine's answers are.
            self.heard.push_back(Heard::TableHint {
                moves,
                chess_move,
                table,
            });
            let _ = self.controls.send(Control::Wake);
            return;
        }
        self.hint_asked = Some(moves.clone());
        self.score = None;
        let _ = self.ask.send(EngineRequest::Go {
            start: self.game.start().clone(),
            moves,
            limits: self.limits.hint(),
        });
    }

    /// The tables' move in the game as it stands, and what they say of it, if they hold it.
    fn table_move(&self) -> Option<(Move, TableResult)> {
        let position = self.game.position();
        let table = self.tables.as_ref()?.probe(position)?;
        let san: shakmaty::san::San = table.best.as_deref()?.parse().ok()?;
        let chess_move = san.to_move(position).ok()?;
        Some((chess_move, table))
    }

    /// What was heard, taken at `now` (session time): the engine's report, or the book's move
    /// if the game still stands where the book was asked. What the game takes is recorded.
    pub fn heard(&mut self, now: Millis, heard: Heard) {
        match heard {
            Heard::Engine(report) => self.engine_report(now, report),
            Heard::Book { moves, chess_move } => {
                if self.game.moves() != moves.as_slice() || !self.game.engine_to_move() {
                    return;
                }
                let note = HostNote::EngineMove {
                    uci: UciMove::from_move(chess_move, self.game.position().castles().mode()),
                    score_cp: None,
                    mate: None,
                    book: true,
                };
                self.out.host_note(now, &note);
                self.game.handle_book_move(now, chess_move);
                self.drain_or_say();
            }
            Heard::PlayOn { moves } => self.play_on(now, &moves),
            Heard::TableHint {
                moves,
                chess_move,
                table,
            } => {
                if self.game.moves() != moves.as_slice() || !self.game.hint_wanted() {
                    return;
                }
                let note = HostNote::Hint {
                    uci: UciMove::from_move(chess_move, self.game.position().castles().mode()),
                    score_cp: None,
                    mate: None,
                    tablebase: Some(table.clone()),
                };
                self.out.host_note(now, &note);
                self.game.handle_hint(now, chess_move, None, Some(table));
                self.drain_or_say();
            }
        }
    }

    /// The engine's move `chess_move` (its score `score`) taken at `now`: recorded, and
    /// carried out by the game.
    pub(super) fn play_engine_move(&mut self, now: Millis, chess_move: Move, score: Option<Score>) {
        let (score_cp, mate) = score_fields(score);
        let note = HostNote::EngineMove {
            uci: UciMove::from_move(chess_move, self.game.position().castles().mode()),
            score_cp,
            mate,
            book: false,
        };
        self.out.host_note(now, &note);
        if let Some(coach) = self.coach.as_mut() {
            coach.engine_moves(self.game.position().turn(), score);
        }
        self.game.handle_engine_move(now, chess_move, score);
    }

    /// What the engine's process said, taken at `now` (session time). What the game takes
    /// of it is recorded, so that a replay of the log decides what this session decides.
    fn engine_report(&mut self, now: Millis, report: EngineReport) {
        match report {
            EngineReport::Said(EngineEvent::BestMove { chess_move, .. })
                if self.hint_asked.is_some() =>
            {
                let score = self.score.take();
                let asked = self.hint_asked.take();
                if asked.as_deref() == Some(self.game.moves()) && self.game.hint_wanted() {
                    let (score_cp, mate) = score_fields(score);
                    let uci = UciMove::from_move(chess_move, self.game.position().castles().mode());
                    let note = HostNote::Hint {
                        uci,
                        score_cp,
                        mate,
                        tablebase: None,
                    };
                    self.out.host_note(now, &note);
                    self.game.handle_hint(now, chess_move, score, None);
                }
            }
            EngineReport::Said(EngineEvent::BestMove { chess_move, .. }) => {
                let score = self.score.take();
                if !self.coached(now, chess_move, score) {
                    self.play_engine_move(now, chess_move, score);
                }
            }
            EngineReport::Said(EngineEvent::Info {
                score: Some(score), ..
            }) => self.score = Some(score),
            EngineReport::Said(EngineEvent::NoMove) => {
                self.out.notice(now, "the engine has no move");
            }
            EngineReport::Said(EngineEvent::Illegal { said }) => {
                let said = format!("the engine answered `{said}`, no legal move: asked again");
                self.out.notice(now, &said);
                self.ask_again();
            }
            EngineReport::Said(EngineEvent::Notice(text)) => {
                self.out.notice(now, &format!("engine: {text}"));
            }
            EngineReport::Said(_) => {}
            EngineReport::Restarted { why, attempt } => {
                let said = format!("{why}: the engine is started again ({attempt})");
                self.out.notice(now, &said);
            }
            // Taken by the runner as `Control::Exempt` (`PlaySink::exempted`).
            EngineReport::GaveUp { .. } => {}
        }
        self.drain_or_say();
    }

    fn ask_again(&mut self) {
        if self.game.engine_to_move() {
            let _ = self.ask.send(self.search());
        }
    }

    /// The search for the engine's move in the game as it stands.
    fn search(&self) -> EngineRequest {
        EngineRequest::Go {
            start: self.game.start().clone(),
            moves: self.game.moves().to_vec(),
            limits: self.limits.search(self.clock),
        }
    }
}

impl MatchState for PlayState {
    type Opponent = EngineGame;

    fn opponent(&mut self) -> &mut EngineGame {
        &mut self.game
    }

    fn replaying(&mut self, replaying: bool) {
        self.replaying = replaying;
        self.out.hush(replaying);
    }

    fn drain(&mut self) -> io::Result<()> {
        PlayState::drain(self)
    }
}

/// The board runner's sink: the recording and the terminal as `watch`'s, the decisions through
/// the game against the engine.
pub struct PlaySink(pub Rc<RefCell<PlayState>>);

impl MatchSink for PlaySink {
    type State = PlayState;

    fn state(&self) -> &Rc<RefCell<PlayState>> {
        &self.0
    }
}

impl Sink for PlaySink {
    fn take(&mut self, happened: Happened<'_>) -> io::Result<()> {
        match happened {
            Happened::Live { event, game } => self.live(event, game),
            Happened::Exempted { t, side } => self.exempted(t, side),
            Happened::Operated { t, note } => {
                self.0.borrow_mut().out.host_note(t, note);
                Ok(())
            }
            Happened::Woken { t } => {
                let mut state = self.0.borrow_mut();
                while let Some(heard) = state.heard.pop_front() {
                    state.heard(t, heard);
                }
                Ok(())
            }
            // Said once, on the terminal.
            Happened::Notice { .. } => self.0.borrow_mut().out.take(happened),
            // The board's reports and its link: to the page, then as `watch` has them.
            Happened::Refused { .. }
            | Happened::Sensor { .. }
            | Happened::ClockReading { .. }
            | Happened::Link { .. }
            | Happened::Battery { .. }
            | Happened::Connected { .. }
            | Happened::Serial { .. }
            | Happened::Unreachable { .. }
            | Happened::Timeout { .. }
            | Happened::Flipped { .. } => {
                let mut state = self.0.borrow_mut();
                if let Some(page) = state.page.as_mut() {
                    page.take(happened)?;
                }
                state.out.take(happened)
            }
        }
    }
}

impl PlaySink {
    fn live(&mut self, event: &LiveEvent, game: &LiveGame) -> io::Result<()> {
        let mut state = self.0.borrow_mut();
        let happened = Happened::Live { event, game };
        match event {
            LiveEvent::Decision(decision) => state.game.handle_decision(decision),
            LiveEvent::Started { .. } => {
                state.out.take(happened)?;
                state.game.started();
            }
            LiveEvent::Waiting { .. }
            | LiveEvent::SetUp { .. }
            | LiveEvent::PromotionAsked { .. } => state.out.take(happened)?,
        }
        // The page sees the game's start and what the game against the engine decides, never
        // the interpreter's decisions themselves.
        if let Some(page) = state.page.as_mut() {
            if matches!(event, LiveEvent::Decision(_)) {
                page.turn_changed(game);
            } else {
                page.take(happened)?;
            }
        }
        state.drain()
    }

    /// The engine gave up: its side is no longer exempt, and the game goes on between two
    /// players (recorded as `#engine-gone`).
    fn exempted(&mut self, t: Millis, side: Option<Color>) -> io::Result<()> {
        let mut state = self.0.borrow_mut();
        if side.is_none() {
            state.out.host_note(t, &HostNote::EngineGone);
            state.game.engine_gone(t);
        }
        state.drain()
    }
}
