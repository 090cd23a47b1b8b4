//! Where a served board's runner puts what happens: the board's shared state and stream, and
//! its sensor log with `--record-dir`.

use std::io;
use std::sync::Arc;
use std::time::Instant;

use shakmaty::Chess;
use touchmove_boards::live::{LiveEvent, LiveGame};
use touchmove_core::clock::ClockReading;
use touchmove_core::event::{EventKind, LinkState};
use touchmove_core::sensor::{Millis, SensorEvent};
use touchmove_core::sensor_log::GameLabel;
use touchmove_core::stream::{StreamEvent, StreamKind};
use touchmove_runtime::runner::{Happened, Sink};
use touchmove_spectators::watched::{OnlineStatus, Players};

use super::board::BoardHandle;
use super::naming::GameNamer;
use super::records::{GameRecords, RecordsError};
use super::stamps::WriteStamps;

/// The outputs of one served board.
pub struct PageSink {
    handle: Arc<BoardHandle>,
    records: Option<GameRecords>,
    /// When the board's writes were made (a demo board's), if known.
    stamps: Option<Arc<WriteStamps>>,
    /// When what the game decides now entered the process.
    origin: Instant,
    /// Names each game as it begins (its `GameId` and date), if the games are named.
    namer: Option<GameNamer>,
}

impl PageSink {
    /// Outputs to `handle`, the sensor reports to `records` (a log per game); a report's
    /// origin is when the board wrote it if `stamps` knows, else when it was read.
    pub fn new(
        handle: Arc<BoardHandle>,
        records: Option<GameRecords>,
        stamps: Option<Arc<WriteStamps>>,
    ) -> PageSink {
        PageSink {
            handle,
            records,
            stamps,
            origin: Instant::now(),
            namer: None,
        }
    }

    /// The same sink, naming each game that begins with `namer` (its `GameId` and the day it
    /// began, in its PGN and its log's header).
    #[must_use]
    pub fn naming_games(mut self, namer: GameNamer) -> PageSink {
        self.namer = Some(namer);
        self
    }

    /// A report arrived: what it decides, it decides from when it entered the process.
    fn reported(&mut self) {
        self.origin = self
            .stamps
            .as_ref()
            .and_then(|stamps| stamps.last_read())
            .unwrap_or_else(Instant::now);
    }

    /// The board's name.
    pub fn name(&self) -> &str {
        &self.handle.name
    }

    /// Writes what is still pending of the recording.
    pub fn finish(mut self) -> Result<(), RecordsError> {
        match self.records.as_mut() {
            Some(records) => records.finish(),
            None => Ok(()),
        }
    }

    /// A decision that a record beside the live game made (`play`: the game against the
    /// engine), `position` and `ply` after it: kept and published as the runner's are.
    pub fn decided(&mut self, decision: &StreamEvent, position: &Chess, ply: usize) {
        let mut state = self.handle.lock();
        let event = state.decided(decision, position, ply);
        // Published under the lock, as the runner's decisions are.
        self.handle.publish(event, self.origin);
        drop(state);
        self.handle.changed();
    }

    /// The interpreter decided something that a record beside the live game takes (`play`,
    /// `online`): the turn in progress is read again from `game`.
    pub fn turn_changed(&mut self, game: &LiveGame) {
        self.handle.lock().read_turn(game);
        self.handle.changed();
    }

    /// The board's runner starts now, its session time at `start_at`: the page counts the
    /// clock from the times it reports.
    pub fn session_starts(&self, start_at: Millis) {
        self.handle.session_starts(start_at);
    }

    /// Game `number` begins from `start` between `players` (`touchmove online`: the session's
    /// next game), its runner's session time starting at `start_at`: the page starts afresh.
    pub fn begin_game(&mut self, number: u32, start: Chess, players: Players, start_at: Millis) {
        self.session_starts(start_at);
        let mut state = self.handle.lock();
        let event = state.begin_game(start_at, number, start, players);
        self.handle.publish(event, Instant::now());
        drop(state);
        self.handle.changed();
    }

    /// The online game played on the board, as it stands now.
    pub fn set_online(&mut self, online: Option<OnlineStatus>) {
        let changed = self.handle.lock().set_online(online);
        if changed {
            self.handle.changed();
        }
    }

    fn say(&self, text: &str) {
        eprintln!("touchmove: board {}: {text}", self.handle.name);
    }
}

impl touchmove_runtime::commented::Commented for PageSink {
    fn commented(
        &mut self,
        t: Millis,
        note: &touchmove_core::sensor_log::HostNote,
        event: &StreamEvent,
    ) -> io::Result<()> {
        if let Some(records) = self.records.as_mut() {
            records.host_note(t, note);
        }
        let mut state = self.handle.lock();
        let event = state.commented(event);
        self.handle.publish(event, Instant::now());
        drop(state);
        self.handle.changed();
        Ok(())
    }
}

impl Sink for PageSink {
    fn take(&mut self, happened: Happened<'_>) -> io::Result<()> {
        match happened {
            Happened::Sensor { event, game } => self.sensor(event, game),
            Happened::ClockReading { t, reading, game } => self.clock_reading(t, reading, game),
            Happened::Live { event, game } => self.live(event, game),
            Happened::Link { t, state } => self.link(t, state),
            Happened::Refused { t, refusal } => {
                self.say(&format!("refused ({}): {}", refusal.asked, refusal.why));
                let event = StreamEvent {
                    t,
                    kind: StreamKind::Refused(refusal.clone()),
                };
                self.handle.publish(event, Instant::now());
                Ok(())
            }
            Happened::Notice { text, .. } => {
                self.say(text);
                Ok(())
            }
            Happened::Connected { t, name } => self.connected(t, name),
            Happened::Serial { serial } => {
                self.handle.lock().set_serial(serial);
                self.handle.changed();
                Ok(())
            }
            Happened::Battery { level, .. } => {
                let charging = if level.charging { ", charging" } else { "" };
                self.say(&format!(
                    "the board's battery: {} %{charging}",
                    level.percent
                ));
                self.handle.lock().set_battery(level);
                self.handle.changed();
                Ok(())
            }
            Happened::Unreachable { t, why } => self.unreachable(t, why),
            Happened::Timeout { due } => {
                self.origin = due;
                Ok(())
            }
            Happened::Flipped { t, flipped } => self.flipped(t, flipped),
            // A result the operator declared is kept for the replay; the page shows it as the
            // game decides it.
            Happened::Operated { t, note } => {
                if let Some(records) = self.records.as_mut() {
                    records.host_note(t, note);
                }
                Ok(())
            }
            // The page shows what the game decides of them; the records are the caller's.
            Happened::Exempted { .. } | Happened::Woken { .. } => Ok(()),
        }
    }
}

impl PageSink {
    fn sensor(&mut self, event: &SensorEvent, game: &LiveGame) -> io::Result<()> {
        self.reported();
        self.handle.lock().sensor(event, game);
        self.handle.changed();
        if let Some(records) = self.records.as_mut() {
            records.event(event, game);
        }
        Ok(())
    }

    fn clock_reading(
        &mut self,
        t: Millis,
        reading: &ClockReading,
        game: &LiveGame,
    ) -> io::Result<()> {
        self.reported();
        self.handle.lock().clock_reading(t, reading);
        self.handle.changed();
        if let Some(records) = self.records.as_mut() {
            records.clock_reading(t, reading, game);
        }
        Ok(())
    }

    fn live(&mut self, event: &LiveEvent, game: &LiveGame) -> io::Result<()> {
        let mut state = self.handle.lock();
        let Some(decision) = state.live(event, game) else {
            return Ok(());
        };
        let standing = state.standing().clone();
        let begins = match decision.game() {
            Some(EventKind::Game { number }) => Some((*number, false)),
            Some(EventKind::Setup { number, .. }) => Some((*number, true)),
            _ => None,
        };
        let t = decision.t;
        // A game that begins is named now, before anyone reads its PGN.
        let label = match (begins, &self.namer) {
            (Some((number, _)), Some(namer)) => {
                let label = namer.now(state.name(), number);
                state.name_game(&label);
                label
            }
            _ => GameLabel::default(),
        };
        self.handle.publish(decision, self.origin);
        drop(state);
        self.handle.changed();
        let (Some((number, set_up)), Some(records)) = (begins, self.records.as_mut()) else {
            return Ok(());
        };
        let begun = if set_up {
            records.set_up(number, t, standing, game, &label)
        } else {
            records.new_game(number, standing, &label)
        };
        if let Err(error) = begun {
            // The game goes on unrecorded rather than stopping: said, as a failing write is.
            self.say(&format!("{error:#}"));
        }
        Ok(())
    }

    fn flipped(&mut self, _t: Millis, flipped: bool) -> io::Result<()> {
        self.say(if flipped {
            "read turned round from now on"
        } else {
            "read the right way round from now on"
        });
        // The full report read the new way round follows at once, and says the change (a
        // feed woken now would show the board turned one way and read the other).
        self.handle.lock().set_flipped(flipped);
        Ok(())
    }

    fn link(&mut self, t: Millis, state: LinkState) -> io::Result<()> {
        self.say(state.as_str());
        let mut board = self.handle.lock();
        let event = board.link(t, state);
        self.handle.publish(event, Instant::now());
        drop(board);
        self.handle.changed();
        Ok(())
    }

    fn unreachable(&mut self, _t: Millis, why: &str) -> io::Result<()> {
        self.handle.lock().unreachable(why);
        self.handle.changed();
        Ok(())
    }

    fn connected(&mut self, _t: Millis, name: &str) -> io::Result<()> {
        self.handle.lock().connected(name);
        self.handle.changed();
        Ok(())
    }
}
