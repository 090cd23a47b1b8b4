//! A recorded online game replayed to what the live session decided: the sensor log's reports
//! through the interpreter, and its `#server-line` / `#server-answer` notes to the
//! [`OnlineGame`] at their place, the player's side as the log's `@online` says. A log without
//! `@online` replays as any other.

use shakmaty::Chess;

use crate::game::{Answer, OnlineEvent, OnlineGame};
use crate::lichess::request::Request;
use crate::lichess::wire::GameMessage;
use touchmove_core::event::GameEvent;
use touchmove_core::replay::Replay;
use touchmove_core::sensor::Millis;
use touchmove_core::sensor_log::{HostNote, LogRecord};
use touchmove_core::stream::StreamEvent;

/// A log being replayed, through its online game when it had one.
#[derive(Debug)]
pub struct OnlineReplay {
    replay: Replay,
    game: Option<OnlineGame>,
}

impl OnlineReplay {
    /// Replays through `replay` (its interpreter's settings, its report horizon).
    pub fn new(replay: Replay) -> OnlineReplay {
        OnlineReplay { replay, game: None }
    }

    /// Takes one record of the log and passes every event decided so far to `sink`: the
    /// interpreter's, through the online game when the log had one.
    pub fn record(&mut self, record: LogRecord, sink: &mut impl FnMut(StreamEvent)) {
        match record {
            LogRecord::Header(header) => {
                if let Some(seat) = &header.online {
                    let start = header.start_position().unwrap_or_else(|_| Chess::default());
                    self.game = Some(OnlineGame::new(start, seat.side));
                }
                self.replay
                    .record(LogRecord::Header(header), &mut |decision| {
                        sink(decision.into())
                    });
            }
            // The interpreter takes its part first (the game where it stood then), then the
            // online game.
            LogRecord::HostNote { t, note } => {
                let record = LogRecord::HostNote {
                    t,
                    note: note.clone(),
                };
                self.through_game(sink, |replay, mut decide| {
                    replay.record(record, &mut decide)
                });
                if let Some(game) = self.game.as_mut() {
                    take_note(game, t, &note);
                    drain(game, sink);
                }
            }
            record => self.through_game(sink, |replay, mut decide| {
                replay.record(record, &mut decide)
            }),
        }
    }

    /// End of the log: decides what is pending.
    pub fn finish(&mut self, sink: &mut impl FnMut(StreamEvent)) {
        self.through_game(sink, |replay, mut decide| replay.finish(&mut decide));
    }

    /// Runs `step` on the replay, its decisions going through the online game (when there is
    /// one) on their way to `sink`.
    fn through_game(
        &mut self,
        sink: &mut impl FnMut(StreamEvent),
        step: impl FnOnce(&mut Replay, &mut dyn FnMut(GameEvent)),
    ) {
        let Some(game) = self.game.as_mut() else {
            step(&mut self.replay, &mut |decision| sink(decision.into()));
            return;
        };
        step(&mut self.replay, &mut |decision| {
            game.handle_decision(&decision);
            drain(game, sink);
        });
    }
}

/// A host's note, as the live session took it: a server's line, an answer to a request. A
/// line or answer that does not read was not taken live either.
pub fn take_note(game: &mut OnlineGame, t: Millis, note: &HostNote) {
    match note {
        HostNote::ServerLine(line) => {
            if let Ok(message) = serde_json::from_str::<GameMessage>(line) {
                game.handle_message(t, &message);
            }
        }
        HostNote::ServerAnswer { request, answer } => {
            if let (Some(request), Some(answer)) =
                (Request::from_word(request), Answer::from_words(answer))
            {
                game.handle_answer(t, &request, answer);
            }
        }
        _ => {}
    }
}

/// The game's decisions to `sink` (what it sends, shows and sets the clock to is live's
/// alone: the recording has the clock's readings as records of their own).
fn drain(game: &mut OnlineGame, sink: &mut impl FnMut(StreamEvent)) {
    while let Some(event) = game.poll_event() {
        if let OnlineEvent::Decision(decision) = event {
            sink(decision);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use touchmove_core::interpreter::Config;
    use touchmove_core::sensor_log::read_log;
    use touchmove_core::stream::{OnlineNotice, StreamKind};

    #[test]
    fn a_recorded_online_game_replays_to_its_record() {
        let log = "touchmove-log 1\n\
            @online lichess 5IrD6Gzz white\n\
            0 lift e2\n\
            400 place e4\n\
            #server-answer 1300 move/e2e4 taken\n\
            #server-line 1400 {\"type\":\"gameState\",\"moves\":\"e2e4\",\"wtime\":299000,\"btime\":300000,\"winc\":0,\"binc\":0,\"status\":\"started\"}\n\
            #server-line 2000 {\"type\":\"gameState\",\"moves\":\"e2e4 c7c5\",\"wtime\":299000,\"btime\":299000,\"winc\":0,\"binc\":0,\"status\":\"started\"}\n\
            #server-line 2100 {\"type\":\"chatLine\",\"room\":\"player\",\"username\":\"mary\",\"text\":\"hi\"}\n\
            3000 lift c7\n\
            3400 place c5\n\
            5000 lift g1\n\
            5400 place f3\n\
            #server-answer 6400 move/g1f3 refused Not your turn\n";
        let log = read_log(log).expect("a log");
        let mut replay = OnlineReplay::new(Replay::new(Config::default()));
        let mut out = Vec::new();
        for record in log.records() {
            replay.record(record, &mut |event| out.push(event));
        }
        replay.finish(&mut |event| out.push(event));
        let said: Vec<String> = out
            .iter()
            .map(|e| match &e.kind {
                StreamKind::Game(touchmove_core::event::EventKind::Move(m)) => {
                    format!("{} move {}", e.t, m.san)
                }
                StreamKind::Game(touchmove_core::event::EventKind::Takeback { ply }) => {
                    format!("{} takeback {ply}", e.t)
                }
                StreamKind::Online(OnlineNotice::Move { san, .. }) => {
                    format!("{} server {san}", e.t)
                }
                StreamKind::Online(OnlineNotice::Chat { user, text }) => {
                    format!("{} chat {user}: {text}", e.t)
                }
                StreamKind::Online(OnlineNotice::Refused { uci, .. }) => {
                    format!("{} refused {uci}", e.t)
                }
                StreamKind::Execution(x) => format!("{} execution {}", e.t, x.message),
                other => format!("{} {other:?}", e.t),
            })
            .collect();
        // Each move is one that cannot grow (a double step, a knight's): decided as it is set
        // down.
        assert_eq!(
            said,
            [
                "400 move e4",
                "2000 server c5",
                "2100 chat mary: hi",
                "3400 move c5",
                "5400 move Nf3",
                "6400 refused g1f3",
                "6400 takeback 3",
                "6400 execution take Nf3 back: the server refused it",
            ]
        );
    }
}
