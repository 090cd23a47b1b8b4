//! A recorded match replayed to what the live session decided: the sensor log's reports
//! through the interpreter, and the host's notes to the [`Opponent`] at their place. A log
//! whose header names no opponent replays as any other.

use shakmaty::Chess;
use touchmove_core::event::GameEvent;
use touchmove_core::replay::Replay;
use touchmove_core::sensor_log::LogRecord;
use touchmove_core::stream::StreamEvent;

use super::Opponent;

/// A log being replayed, through its opponent when it had one.
#[derive(Debug)]
pub struct MatchReplay<O> {
    replay: Replay,
    opponent: Option<O>,
}

impl<O: Opponent> MatchReplay<O> {
    /// Replays through `replay` (its interpreter's settings, its report horizon).
    pub fn new(replay: Replay) -> MatchReplay<O> {
        MatchReplay {
            replay,
            opponent: None,
        }
    }

    /// Where the turn stands (see [`Replay::turn_view`]).
    pub fn turn_view(&self) -> Option<touchmove_core::interpreter::TurnView> {
        self.replay.turn_view()
    }

    /// Takes one record of the log and passes every event decided so far to `sink`: the
    /// interpreter's, through the opponent when the log had one.
    pub fn record(&mut self, record: LogRecord, sink: &mut impl FnMut(StreamEvent)) {
        match record {
            LogRecord::Header(header) => {
                self.opponent = O::from_header(&header);
                self.replay
                    .record(LogRecord::Header(header), &mut |decision| {
                        sink(decision.into())
                    });
            }
            // The interpreter takes its part first (the game where it stood then; a
            // resignation; the engine's side a person's once it is gone), then the opponent.
            LogRecord::HostNote { t, note } => {
                let record = LogRecord::HostNote {
                    t,
                    note: note.clone(),
                };
                self.through_opponent(sink, |replay, mut decide| {
                    replay.record(record, &mut decide)
                });
                if let Some(opponent) = self.opponent.as_mut() {
                    opponent.handle_note(t, &note);
                    drain(opponent, sink);
                }
            }
            record => self.through_opponent(sink, |replay, mut decide| {
                replay.record(record, &mut decide)
            }),
        }
    }

    /// End of the log: decides what is pending.
    pub fn finish(&mut self, sink: &mut impl FnMut(StreamEvent)) {
        self.through_opponent(sink, |replay, mut decide| replay.finish(&mut decide));
    }

    /// The position the game started from, once the header has been read.
    pub fn start_position(&self) -> Option<Chess> {
        self.replay.start_position()
    }

    /// Runs `step` on the replay, its decisions going through the opponent (when there is
    /// one) on their way to `sink`.
    fn through_opponent(
        &mut self,
        sink: &mut impl FnMut(StreamEvent),
        step: impl FnOnce(&mut Replay, &mut dyn FnMut(GameEvent)),
    ) {
        let Some(opponent) = self.opponent.as_mut() else {
            step(&mut self.replay, &mut |decision| sink(decision.into()));
            return;
        };
        step(&mut self.replay, &mut |decision| {
            opponent.handle_decision(&decision);
            drain(opponent, sink);
        });
    }
}

/// The opponent's lines of the record to `sink`.
fn drain<O: Opponent>(opponent: &mut O, sink: &mut impl FnMut(StreamEvent)) {
    while let Some(event) = opponent.poll_event() {
        if let Some(decision) = O::decision(event) {
            sink(decision);
        }
    }
}
