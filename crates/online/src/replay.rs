//! A recorded online game replayed to what the live session decided: the sensor log's reports
//! through the interpreter, and its `#server-line` / `#server-answer` notes to the
//! [`OnlineGame`] at their place, the player's side as the log's `@online` says. A log without
//! `@online` replays as any other. The replay of every match (`MatchReplay`), with the online
//! game as its opponent.

use shakmaty::{Chess, Move};
use touchmove_boards::opponent::{MatchReplay, Opponent};
use touchmove_core::event::GameEvent;
use touchmove_core::sensor::Millis;
use touchmove_core::sensor_log::{HostNote, LogHeader};
use touchmove_core::stream::StreamEvent;

use crate::game::{Answer, OnlineEvent, OnlineGame};
use crate::lichess::request::Request;
use crate::lichess::wire::GameMessage;

/// A log being replayed, through its online game when it had one.
pub type OnlineReplay = MatchReplay<OnlineGame>;

impl Opponent for OnlineGame {
    type Event = OnlineEvent;

    /// The player's side from the log's `@online`, the game started from its `@start`.
    fn from_header(header: &LogHeader) -> Option<OnlineGame> {
        let seat = header.online.as_ref()?;
        let start = header.start_position().unwrap_or_else(|_| Chess::default());
        Some(OnlineGame::new(start, seat.side))
    }

    fn handle_decision(&mut self, event: &GameEvent) {
        OnlineGame::handle_decision(self, event);
    }

    /// A server's line, an answer to a request. A line or answer that does not read was not
    /// taken live either.
    fn handle_note(&mut self, t: Millis, note: &HostNote) {
        match note {
            HostNote::ServerLine(line) => {
                if let Ok(message) = serde_json::from_str::<GameMessage>(line) {
                    self.handle_message(t, &message);
                }
            }
            HostNote::ServerAnswer { request, answer } => {
                if let (Some(request), Some(answer)) =
                    (Request::from_word(request), Answer::from_words(answer))
                {
                    self.handle_answer(t, &request, answer);
                }
            }
            _ => {}
        }
    }

    fn poll_event(&mut self) -> Option<OnlineEvent> {
        OnlineGame::poll_event(self)
    }

    /// What it sends, shows and sets the clock to is live's alone: the recording has the
    /// clock's readings as records of their own.
    fn decision(event: OnlineEvent) -> Option<StreamEvent> {
        match event {
            OnlineEvent::Decision(decision) => Some(decision),
            OnlineEvent::Send(_) | OnlineEvent::Show(_) | OnlineEvent::Clock(..) => None,
        }
    }

    fn resumed(&mut self) {
        OnlineGame::resumed(self);
    }

    fn moves(&self) -> &[Move] {
        OnlineGame::moves(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use touchmove_core::interpreter::Config;
    use touchmove_core::replay::Replay;
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
