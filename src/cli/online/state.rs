//! The online game and its outputs, shared by the board's runner (through its sink) and the
//! tasks that read the server's stream and send its requests.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, StdoutLock};
use std::rc::Rc;

use tokio::sync::{Notify, mpsc};

use touchmove::live::{Feedback, LiveEvent, LiveGame};
use touchmove::online::lichess::request::Request;
use touchmove::online::lichess::wire::GameMessage;
use touchmove::online::{Answer, OnlineEvent, OnlineGame};
use touchmove::runner::{Control, Happened, Sink};
use touchmove::sensor::Millis;
use touchmove::sensor_log::HostNote;

use super::super::watch_sink::WatchSink;

/// What the server said, until the runner wakes the sink to take it.
#[derive(Debug)]
pub(super) enum Heard {
    /// A line of the game's stream, as sent, and read.
    Line { raw: String, message: GameMessage },
    /// The answer to a request.
    Answer { request: Request, answer: Answer },
}

/// The online game and its outputs.
pub(super) struct OnlineState {
    pub(super) out: WatchSink<StdoutLock<'static>>,
    pub(super) game: OnlineGame,
    pub(super) controls: mpsc::UnboundedSender<Control>,
    pub(super) requests: mpsc::UnboundedSender<Request>,
    /// What the server said, in order, until it is taken.
    pub(super) heard: VecDeque<Heard>,
    /// The board has shown the game's start: what the server says is taken (and recorded,
    /// after the board's first report) from then on.
    pub(super) started: bool,
    /// Told once the server has ended the game and the board shows its last move (or, that
    /// move left undone, [`LAST_MOVE_WAIT`] later).
    pub(super) over: Rc<Notify>,
    /// The server's end was seen.
    pub(super) ended: bool,
    /// A resumed game's recorded part is being read back: nothing is sent, shown or set.
    pub(super) replaying: bool,
}

/// How long the server's last move (the move that ended the game) may wait to be carried out
/// on the board before the session ends without it.
pub(super) const LAST_MOVE_WAIT: std::time::Duration = std::time::Duration::from_secs(60);

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
    pub(super) fn drain(&mut self) -> io::Result<()> {
        while let Some(event) = self.game.poll_event() {
            match event {
                OnlineEvent::Decision(decision) => {
                    let position = self.game.position().clone();
                    self.out.write_decision(&decision, Some(&position))?;
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

/// The board runner's sink: the recording and the terminal as `watch`'s, the decisions through
/// the online game.
pub(super) struct OnlineSink(pub(super) Rc<RefCell<OnlineState>>);

impl Sink for OnlineSink {
    fn take(&mut self, happened: Happened<'_>) -> io::Result<()> {
        match happened {
            Happened::Live { event, game } => self.live(event, game),
            Happened::Woken { t } => self.0.borrow_mut().take_heard(t),
            Happened::Resigned { .. } | Happened::Exempted { .. } => Ok(()),
            Happened::Notice(_)
            | Happened::Sensor { .. }
            | Happened::ClockReading { .. }
            | Happened::Link { .. }
            | Happened::Connected { .. }
            | Happened::Unreachable { .. }
            | Happened::Timeout { .. }
            | Happened::Flipped { .. } => self.0.borrow_mut().out.take(happened),
        }
    }
}

impl OnlineSink {
    fn live(&mut self, event: &LiveEvent, game: &LiveGame) -> io::Result<()> {
        let mut state = self.0.borrow_mut();
        match event {
            LiveEvent::Decision(decision) => state.game.handle_decision(decision),
            LiveEvent::Started { t } => {
                state.out.take(Happened::Live { event, game })?;
                state.started = true;
                state.take_heard(*t)?;
            }
            LiveEvent::Waiting { .. } | LiveEvent::SetUp { .. } => {
                state.out.take(Happened::Live { event, game })?;
            }
        }
        state.drain()
    }
}
