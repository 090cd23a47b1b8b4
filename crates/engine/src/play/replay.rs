//! A recorded game against an engine replayed to what the live session decided: the sensor
//! log's reports through the interpreter, and its `#engine-move` / `#engine-gone` notes to the
//! [`EngineGame`] at their place, the engine's side as the log's `@engine` says. A log without
//! `@engine` replays as any other.

use shakmaty::Chess;

use super::{EngineGame, PlayEvent};
use touchmove_core::event::GameEvent;
use touchmove_core::replay::Replay;
use touchmove_core::sensor_log::LogRecord;
use touchmove_core::stream::StreamEvent;

/// A log being replayed, through the game against its engine when it had one.
#[derive(Debug)]
pub struct EngineReplay {
    replay: Replay,
    game: Option<EngineGame>,
}

impl EngineReplay {
    /// Replays through `replay` (its interpreter's settings, its report horizon).
    pub fn new(replay: Replay) -> EngineReplay {
        EngineReplay { replay, game: None }
    }

    /// Takes one record of the log and passes every event decided so far to `sink`: the
    /// interpreter's, and the engine game's when the log had an engine.
    pub fn record(&mut self, record: LogRecord, sink: &mut impl FnMut(StreamEvent)) {
        match record {
            LogRecord::Header(header) => {
                if let Some(engine) = header.engine {
                    let start = header.start_position().unwrap_or_else(|_| Chess::default());
                    let mut game = EngineGame::new(start, engine);
                    game.started();
                    self.game = Some(game);
                }
                self.replay
                    .record(LogRecord::Header(header), &mut |decision| {
                        sink(decision.into())
                    });
            }
            // The interpreter takes its part first (the game where it stood then; a
            // resignation; the engine's side a person's once it is gone), then the engine game.
            LogRecord::HostNote { t, note } => {
                let record = LogRecord::HostNote {
                    t,
                    note: note.clone(),
                };
                self.through_game(sink, |replay, mut decide| {
                    replay.record(record, &mut decide)
                });
                if let Some(game) = self.game.as_mut() {
                    game.handle_note(t, &note);
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

    /// The position the game started from, once the header has been read.
    pub fn start_position(&self) -> Option<Chess> {
        self.replay.start_position()
    }

    /// Runs `step` on the replay, its decisions going through the game against the engine
    /// (when there is one) on their way to `sink`.
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

/// The game's decisions to `sink` (what it asks of the engine and the board is live's alone).
fn drain(game: &mut EngineGame, sink: &mut impl FnMut(StreamEvent)) {
    while let Some(event) = game.poll_event() {
        if let PlayEvent::Decision(decision) = event {
            sink(decision);
        }
    }
}
