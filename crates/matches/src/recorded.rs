//! A log replayed as it was played: through the engine game when it records a game against an
//! engine (`@engine`), through the online game when it records an online game (`@online`), as
//! any other log otherwise. Which one, its header says.

use touchmove_core::interpreter::Config;
use touchmove_core::replay::Replay;
use touchmove_core::sensor_log::{HostNote, LogRecord};
use touchmove_core::stream::{StreamEvent, StreamKind};
use touchmove_engine::play::EngineReplay;
use touchmove_online::OnlineReplay;

/// A log's replay, chosen by its header.
pub enum Recorded {
    /// The header is not read yet.
    Pending(Replay),
    /// Any log but an online game's (a game against an engine replays through it).
    Engine(EngineReplay),
    /// An online game's.
    Online(OnlineReplay),
}

impl Recorded {
    /// A replay through `replay` (its interpreter's settings), chosen once the header is read.
    pub fn new(replay: Replay) -> Recorded {
        Recorded::Pending(replay)
    }

    /// Takes one record, passing every event decided so far to `sink`; an engine's analysis
    /// (`#analysis`) is said again where it was said, after what was due by then.
    pub fn record(&mut self, record: LogRecord, sink: &mut impl FnMut(StreamEvent)) {
        let said = match &record {
            LogRecord::HostNote {
                t,
                note: HostNote::Analysis(analysis),
            } => Some(StreamEvent {
                t: *t,
                kind: StreamKind::Analysis(analysis.clone()),
            }),
            _ => None,
        };
        self.take(record, sink);
        if let Some(said) = said {
            sink(said);
        }
    }

    fn take(&mut self, record: LogRecord, sink: &mut impl FnMut(StreamEvent)) {
        if let (Recorded::Pending(replay), LogRecord::Header(header)) = (&mut *self, &record) {
            let replay = std::mem::replace(replay, Replay::new(Config::default()));
            *self = if header.online.is_some() {
                Recorded::Online(OnlineReplay::new(replay))
            } else {
                Recorded::Engine(EngineReplay::new(replay))
            };
        }
        match self {
            Recorded::Pending(replay) => replay.record(record, &mut |event| sink(event.into())),
            Recorded::Engine(replay) => replay.record(record, sink),
            Recorded::Online(replay) => replay.record(record, sink),
        }
    }

    /// Where the turn stands, once the replay has begun: the pieces in hand, the touches that
    /// bind (a report reads which pieces were touched and not moved).
    pub fn turn_view(&self) -> Option<touchmove_core::interpreter::TurnView> {
        match self {
            Recorded::Pending(replay) => replay.turn_view(),
            Recorded::Engine(replay) => replay.turn_view(),
            Recorded::Online(replay) => replay.turn_view(),
        }
    }

    /// End of the log: decides what is pending.
    pub fn finish(&mut self, sink: &mut impl FnMut(StreamEvent)) {
        match self {
            Recorded::Pending(replay) => replay.finish(&mut |event| sink(event.into())),
            Recorded::Engine(replay) => replay.finish(sink),
            Recorded::Online(replay) => replay.finish(sink),
        }
    }
}
