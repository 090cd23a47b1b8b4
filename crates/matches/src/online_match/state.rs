//! The online game and its outputs, shared by the board's runner (through its sink) and the
//! tasks that read the server's stream and send its requests.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, StdoutLock};
use std::rc::Rc;

use tokio::sync::{Notify, mpsc};

use shakmaty::Move;
use touchmove_boards::live::{Feedback, LiveEvent, LiveGame};
use touchmove_core::interpreter::PendingDecision;
use touchmove_core::sensor::Millis;
use touchmove_core::sensor_log::HostNote;
use touchmove_online::lichess::request::Request;
use touchmove_online::lichess::wire::GameMessage;
use touchmove_online::{Answer, OnlineEvent, OnlineGame};
use touchmove_runtime::runner::{Control, Happened, Sink};
use touchmove_spectators::watched::OnlineStatus;

use crate::resume::{MatchSink, MatchState};
use touchmove_runtime::sinks::watch::WatchSink;
use touchmove_web::PageSink;

/// What the server said, until the runner wakes the sink to take it.
#[derive(Debug)]
pub enum Heard {
    /// A line of the game's stream, as sent, and read.
    Line {
        /// The line as the server sent it (recorded so).
        raw: String,
        /// The line read.
        message: GameMessage,
    },
    /// The answer to a request.
    Answer {
        /// The request.
        request: Request,
        /// What became of it.
        answer: Answer,
    },
}

/// The online game and its outputs.
pub struct OnlineState {
    /// The terminal, the recording and the PGN.
    pub out: WatchSink<StdoutLock<'static>>,
    /// The game between the board and the server.
    pub game: OnlineGame,
    /// What is asked of the board's runner.
    pub controls: mpsc::UnboundedSender<Control>,
    /// The requests to send to the server, in order.
    pub requests: mpsc::UnboundedSender<Request>,
    /// What the server said, in order, until it is taken.
    pub heard: VecDeque<Heard>,
    /// The board has shown the game's start: what the server says is taken (and recorded,
    /// after the board's first report) from then on.
    pub started: bool,
    /// Told once the server has ended the game and the board shows its last move (or, that
    /// move left undone, [`LAST_MOVE_WAIT`] later).
    pub over: Rc<Notify>,
    /// The server's end was seen.
    pub ended: bool,
    /// A resumed game's recorded part is being read back: nothing is sent, shown or set.
    pub replaying: bool,
    /// The live page, with `--listen`.
    pub page: Option<PageSink>,
    /// The server's host and the game's id, for the page.
    pub seat: (String, String),
    /// The promotion waiting for the player's choice of piece (the board cannot identify it).
    pub promotion: Option<Move>,
}

/// How long the server's last move (the move that ended the game) may wait to be carried out
/// on the board before the session ends without it.
pub const LAST_MOVE_WAIT: std::time::Duration = std::time::Duration::from_secs(60);

impl OnlineState {
    /// Takes, at `now` (session time), what the server said: each line and answer is recorded,
    /// so that a replay of the log decides what this session decides, then taken by the game.
    fn take_heard(&mut self, now: Millis) -> io::Result<()> {
        if !self.started || self.replaying {
            return Ok(());
        }
        while let Some(heard) = self.heard.pop_front() {
            match heard {
                Heard::Line { raw, message } => {
                    self.out.host_note(now, &HostNote::ServerLine(raw));
                    self.game.handle_message(now, &message);
                }
                Heard::Answer { request, answer } => {
                    let note = HostNote::ServerAnswer {
                        request: request.word(),
                        answer: answer.words(),
                    };
                    self.out.host_note(now, &note);
                    self.game.handle_answer(now, &request, answer);
                }
            }
            self.drain()?;
        }
        Ok(())
    }

    /// Carries out what the online game says.
    pub fn drain(&mut self) -> io::Result<()> {
        while let Some(event) = self.game.poll_event() {
            match event {
                OnlineEvent::Decision(decision) => {
                    let position = self.game.position().clone();
                    self.out.write_decision(&decision, Some(&position))?;
                    if let Some(page) = self.page.as_mut() {
                        page.decided(&decision, &position, self.game.moves().len());
                    }
                }
                // Read back, the recording holds what they did (the clock's readings among its
                // records).
                OnlineEvent::Send(_) | OnlineEvent::Show(_) | OnlineEvent::Clock(..)
                    if self.replaying => {}
                OnlineEvent::Send(request) => {
                    let _ = self.requests.send(request);
                }
                OnlineEvent::Show(feedback) => {
                    let _ = self.controls.send(Control::Feedback(feedback));
                }
                OnlineEvent::Clock(_, reading) => {
                    // A board with a clock the host sets (a DGT 3000) shows the server's times.
                    let times = Feedback::Times {
                        times: reading.times,
                        running: reading.running,
                    };
                    let _ = self.controls.send(Control::Feedback(times));
                    let _ = self.controls.send(Control::ClockReading(reading));
                }
            }
        }
        let status = self.page_status();
        if let Some(page) = self.page.as_mut() {
            page.set_online(Some(status));
        }
        if self.game.is_over() && !self.replaying {
            if self.game.moves() == self.game.server_moves() {
                self.over.notify_one();
            } else if !std::mem::replace(&mut self.ended, true) {
                let over = Rc::clone(&self.over);
                tokio::task::spawn_local(async move {
                    tokio::time::sleep(LAST_MOVE_WAIT).await;
                    over.notify_one();
                });
            }
        }
        Ok(())
    }
}

impl OnlineState {
    /// What the page shows of the game: the offers standing, the opponent's absence.
    fn page_status(&self) -> OnlineStatus {
        let (server, game) = &self.seat;
        OnlineStatus {
            server: server.clone(),
            game: game.clone(),
            side: self.game.me(),
            draw_offer: self.game.draw_offered_by(),
            takeback_proposal: self.game.takeback_proposed_by(),
            opponent_gone: self.game.opponent_gone(),
            over: self.game.is_over(),
        }
    }

    /// Notes whether the board's game now waits for a promotion's piece (the live game says it
    /// and lights it; a choice asked for is taken only while one waits).
    fn watch_promotion(&mut self, game: &LiveGame) {
        self.promotion =
            game.interpreter()
                .and_then(|interpreter| match interpreter.turn_view().pending {
                    Some(PendingDecision::PromotionChoice { chess_move }) => Some(chess_move),
                    _ => None,
                });
    }

    /// The board's reports and its link: to the page, then as `watch` has them.
    fn board_said(&mut self, happened: Happened<'_>) -> io::Result<()> {
        if let Some(page) = self.page.as_mut() {
            page.take(happened)?;
        }
        self.out.take(happened)
    }
}

/// The board runner's sink: the recording and the terminal as `watch`'s, the decisions through
/// the online game.
pub struct OnlineSink(pub Rc<RefCell<OnlineState>>);

impl MatchSink for OnlineSink {
    type State = OnlineState;

    fn state(&self) -> &Rc<RefCell<OnlineState>> {
        &self.0
    }
}

impl MatchState for OnlineState {
    type Opponent = OnlineGame;

    fn opponent(&mut self) -> &mut OnlineGame {
        &mut self.game
    }

    fn replaying(&mut self, replaying: bool) {
        self.replaying = replaying;
        self.out.hush(replaying);
    }

    fn drain(&mut self) -> io::Result<()> {
        OnlineState::drain(self)
    }

    fn goes_on(&mut self, game: &LiveGame) {
        self.started = game.started();
    }
}

impl Sink for OnlineSink {
    fn take(&mut self, happened: Happened<'_>) -> io::Result<()> {
        match happened {
            Happened::Live { event, game } => self.live(event, game),
            Happened::Woken { t } => self.0.borrow_mut().take_heard(t),
            Happened::Operated { .. } | Happened::Exempted { .. } => Ok(()),
            // Said once, on the terminal.
            Happened::Notice { .. } | Happened::Refused { .. } => {
                self.0.borrow_mut().out.take(happened)
            }
            Happened::Sensor { game, .. } => {
                let mut state = self.0.borrow_mut();
                state.board_said(happened)?;
                state.watch_promotion(game);
                Ok(())
            }
            Happened::ClockReading { .. }
            | Happened::Link { .. }
            | Happened::Battery { .. }
            | Happened::Connected { .. }
            | Happened::Serial { .. }
            | Happened::Unreachable { .. }
            | Happened::Timeout { .. }
            | Happened::Flipped { .. } => self.0.borrow_mut().board_said(happened),
        }
    }
}

impl OnlineSink {
    fn live(&mut self, event: &LiveEvent, game: &LiveGame) -> io::Result<()> {
        let mut state = self.0.borrow_mut();
        let happened = Happened::Live { event, game };
        match event {
            LiveEvent::Decision(decision) => {
                state.game.handle_decision(decision);
                if let Some(page) = state.page.as_mut() {
                    page.turn_changed(game);
                }
            }
            LiveEvent::Started { t } => {
                state.board_said(happened)?;
                state.started = true;
                state.take_heard(*t)?;
            }
            LiveEvent::Waiting { .. }
            | LiveEvent::SetUp { .. }
            | LiveEvent::PromotionAsked { .. } => state.board_said(happened)?,
        }
        state.watch_promotion(game);
        state.drain()
    }
}
