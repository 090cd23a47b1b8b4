//! Replaying a recorded sensor log through the interpreter.
//!
//! [`Replay`] is the thin loop every path uses: records in (from a decoder, a reader or a
//! list), game events out to a sink, in the order they were decided. It does no I/O of its own.

use shakmaty::Chess;

use crate::clock::{ClockReading, TimeControl};
use crate::event::GameEvent;
use crate::interpreter::{Config, Interpreter};
use crate::sensor::{Millis, SensorEvent};
use crate::sensor_log::{HostNote, LogHeader, LogRecord};
use crate::timing::Timing;

/// A log being replayed: the interpreter, created once the header is known.
#[derive(Debug)]
pub struct Replay {
    config: Config,
    /// The timing given for the replay, before the log's (see [`crate::timing`]).
    given: Timing,
    /// The scan period of the board a log's `@board` names, for a log that states none.
    board_scans: Option<fn(&str) -> Option<Millis>>,
    time_control: Option<TimeControl>,
    interpreter: Option<Interpreter>,
    header: Option<LogHeader>,
}

impl Replay {
    /// A replay that will use `config` once the log's header has been read.
    pub fn new(config: Config) -> Replay {
        Replay {
            config,
            given: Timing::default(),
            board_scans: None,
            time_control: None,
            interpreter: None,
            header: None,
        }
    }

    /// Weighs presses with this report horizon instead of the one the log states (see
    /// [`Config::report_horizon_ms`]); `None` keeps the log's (the configuration's when it
    /// states none).
    pub fn with_report_horizon(mut self, horizon_ms: Option<Millis>) -> Replay {
        self.given.report_horizon_ms = horizon_ms;
        self
    }

    /// Decides with these slide and bounce windows instead of the ones the log states (see
    /// [`Config::slide_ms`], [`Config::bounce_ms`]); `None` keeps the log's (the
    /// configuration's when it states none).
    pub fn with_windows(mut self, slide_ms: Option<Millis>, bounce_ms: Option<Millis>) -> Replay {
        self.given.slide_ms = slide_ms;
        self.given.bounce_ms = bounce_ms;
        self
    }

    /// Decides with this scan period of the board instead of the one the log states (see
    /// [`Config::scan_ms`]); `None` keeps the log's: its `@scan-ms`, else the scan of the board
    /// its `@board` names (through [`Replay::with_board_scans`]), else the configuration's.
    pub fn with_scan(mut self, scan_ms: Option<Millis>) -> Replay {
        self.given.scan_ms = scan_ms;
        self
    }

    /// Finds the scan period of the board a log's `@board` text names, for a log that states
    /// no `@scan-ms` (the registry's `boards::scan_of_board`; the replay itself knows no
    /// protocol).
    pub fn with_board_scans(mut self, scans: fn(&str) -> Option<Millis>) -> Replay {
        self.board_scans = Some(scans);
        self
    }

    /// The configuration to decide a log with `header` with: the timing given, else the log's,
    /// else the board's its `@board` names (its scan), else the configuration's; the side an
    /// engine played, as `touchmove play` ran it (its moves carried out for it).
    fn config_for(&self, header: &LogHeader) -> Config {
        let board_scan = self
            .board_scans
            .and_then(|scans| header.board.as_deref().and_then(scans));
        header.config(self.config, self.given, board_scan)
    }

    /// Runs a clock for `time_control` (see [`Interpreter::with_time_control`]).
    pub fn with_time_control(mut self, time_control: Option<TimeControl>) -> Replay {
        self.time_control = time_control;
        self
    }

    /// Where the turn stands, once the replay has begun: the pieces in hand, the touches that
    /// bind (a report reads which pieces were touched and not moved).
    pub fn turn_view(&self) -> Option<crate::interpreter::TurnView> {
        self.interpreter.as_ref().map(Interpreter::turn_view)
    }

    /// The position the game started from, once the header has been read.
    pub fn start_position(&self) -> Option<Chess> {
        self.header
            .as_ref()
            .and_then(|header| header.start_position().ok())
    }

    /// Takes one record of the log and passes every event decided so far to `sink`.
    pub fn record(&mut self, record: LogRecord, sink: &mut impl FnMut(GameEvent)) {
        match record {
            LogRecord::Header(header) => {
                // The decoder validated the FEN; a position it rejects cannot reach here.
                let start = header.start_position().unwrap_or_default();
                let config = self.config_for(&header);
                let interpreter = new_interpreter(start, config, &self.time_control);
                self.interpreter = Some(interpreter);
                self.header = Some(*header);
            }
            LogRecord::Event(event) => self.event(&event, sink),
            LogRecord::ClockReading { t, reading } => self.clock_reading(t, &reading, sink),
            LogRecord::HostNote { t, note } => {
                let interpreter = self.interpreter();
                take_host_note(interpreter, t, &note);
                drain(interpreter, sink);
            }
        }
    }

    /// Decides what the deadlines due at or before `t` decide: the game as it stood at `t`
    /// (before something that is no sensor report, a host's note, is taken at `t`).
    pub fn advance(&mut self, t: Millis, sink: &mut impl FnMut(GameEvent)) {
        let interpreter = self.interpreter();
        interpreter.handle_timeout(t);
        drain(interpreter, sink);
    }

    /// Takes one report of a physical clock (see [`Interpreter::handle_clock_reading`]).
    pub fn clock_reading(
        &mut self,
        t: Millis,
        reading: &ClockReading,
        sink: &mut impl FnMut(GameEvent),
    ) {
        let interpreter = self.interpreter();
        interpreter.handle_clock_reading(t, reading);
        drain(interpreter, sink);
    }

    /// Takes one sensor event (the standard start is assumed if no header came first).
    pub fn event(&mut self, event: &SensorEvent, sink: &mut impl FnMut(GameEvent)) {
        let interpreter = self.interpreter();
        interpreter.handle_event(event);
        drain(interpreter, sink);
    }

    /// The interpreter (from the standard start if no header came first).
    fn interpreter(&mut self) -> &mut Interpreter {
        let (config, given, time_control) = (self.config, self.given, &self.time_control);
        // The configuration is worked out only for a log without a header, not per event.
        self.interpreter.get_or_insert_with(|| {
            new_interpreter(Chess::default(), given.applied_to(config), time_control)
        })
    }

    /// End of the log: decides what is pending as the windows would close.
    pub fn finish(&mut self, sink: &mut impl FnMut(GameEvent)) {
        if let Some(interpreter) = self.interpreter.as_mut() {
            interpreter.finish();
            drain(interpreter, sink);
        }
    }
}

/// What the host knew at `t`, as the sensor log keeps it, taken by the game: a result declared
/// (the game ends), time given or the clocks set (the clock follows), the arbiter's note or tag,
/// a position reinstated, an engine gone (its side a person's from then on). An engine's choice
/// or a server's line is the engine's or online game's: the game only stands where it did then.
/// Live and in replay, the one way a note is taken.
pub fn take_host_note(interpreter: &mut Interpreter, t: Millis, note: &HostNote) {
    match *note {
        HostNote::Declared(declared) => interpreter.declare(t, declared),
        HostNote::TimeAdded { color, ms } => interpreter.add_time(t, color, ms),
        HostNote::ClockSet(times) => interpreter.set_clock(t, times),
        HostNote::Note(ref text) => interpreter.note(t, text),
        HostNote::Tag { tag, ref value } => interpreter.tag(t, tag, value),
        HostNote::Reinstate { ply } => interpreter.reinstate(t, ply),
        HostNote::EngineGone => interpreter.set_exempt(t, None),
        HostNote::EngineMove { .. }
        | HostNote::Hint { .. }
        | HostNote::Analysis(_)
        | HostNote::Coach(_)
        | HostNote::ServerLine(_)
        | HostNote::ServerAnswer { .. } => {
            interpreter.handle_timeout(t);
        }
    }
}

/// An interpreter from `start`, with a clock when a time control is given.
fn new_interpreter(
    start: Chess,
    config: Config,
    time_control: &Option<TimeControl>,
) -> Interpreter {
    let interpreter = Interpreter::new(start, config);
    match time_control {
        Some(time_control) => interpreter.with_time_control(time_control.clone()),
        None => interpreter,
    }
}

fn drain(interpreter: &mut Interpreter, sink: &mut impl FnMut(GameEvent)) {
    while let Some(event) = interpreter.poll_event() {
        sink(event);
    }
}

/// Replays a list of sensor events from `start` and returns every decision.
pub fn replay_events(start: Chess, config: Config, events: &[SensorEvent]) -> Vec<GameEvent> {
    let mut interpreter = Interpreter::new(start, config);
    let mut out = Vec::new();
    for event in events {
        interpreter.handle_event(event);
        out.extend(std::iter::from_fn(|| interpreter.poll_event()));
    }
    interpreter.finish();
    out.extend(std::iter::from_fn(|| interpreter.poll_event()));
    out
}
