//! `--analyse ENGINE` (`watch`, `serve`): a UCI engine analyses the game on a board between two
//! people as it goes. A sink around the board's own ([`Analysing`]) hands the game's decisions
//! to the library's `analysis::Analyst`, the engine runs in a task of its own
//! (`engine_runner`), and what it says is taken at the runner's time (`Control::Wake`,
//! `Happened::Woken`): each analysis said is recorded (`#analysis`) where it was said, so that
//! a replay says it again. Nothing is shown on the board.

use std::collections::VecDeque;
use std::io;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::mpsc;

use crate::engine_runner::{self, EngineCommand, EngineReport, EngineRequest};
use crate::runner::{Happened, Sink};
use touchmove_boards::live::LiveEvent;
use touchmove_core::sensor::Millis;
use touchmove_core::sensor_log::HostNote;
use touchmove_core::stream::{StreamEvent, StreamKind};
use touchmove_engine::analysis::{Analyst, AnalystEvent};
use touchmove_engine::{EngineConfig, EngineEvent, SearchLimits};

use crate::commented::Commented;
use crate::tablebase::Tablebases;

/// The engine that analyses one board's game: where its questions go, and what it said, until
/// the board's runner takes it.
pub struct AnalysisEngine {
    ask: mpsc::UnboundedSender<EngineRequest>,
    heard: Arc<Mutex<VecDeque<EngineReport>>>,
    limits: SearchLimits,
}

impl AnalysisEngine {
    /// Starts the engine `command` (`--analyse`), searching each position for `move_time_ms`;
    /// `wake` wakes the board's runner when it has said something (false once the runner is
    /// gone).
    pub fn start(
        command: EngineCommand,
        move_time_ms: u64,
        wake: impl Fn() -> bool + Send + 'static,
    ) -> AnalysisEngine {
        let (ask, requests) = mpsc::unbounded_channel();
        let (said, mut reports) = mpsc::unbounded_channel();
        tokio::spawn(engine_runner::run(
            command,
            EngineConfig::default(),
            requests,
            said,
        ));
        let heard = Arc::new(Mutex::new(VecDeque::new()));
        let queue = Arc::clone(&heard);
        tokio::spawn(async move {
            while let Some(report) = reports.recv().await {
                queue
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push_back(report);
                if !wake() {
                    return;
                }
            }
        });
        AnalysisEngine {
            ask,
            heard,
            limits: SearchLimits::MoveTime(move_time_ms),
        }
    }

    fn take_heard(&self) -> Vec<EngineReport> {
        self.heard
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .drain(..)
            .collect()
    }
}

/// A board's sink, and the engine that analyses its game.
pub struct Analysing<S> {
    inner: S,
    analyst: Analyst,
    engine: Option<AnalysisEngine>,
    /// The engine was said to be gone.
    gone: bool,
    /// `--syzygy`: what the tables say of a position is said with its analysis.
    tables: Option<Arc<Tablebases>>,
}

impl<S> Analysing<S> {
    /// `inner`, its game (from `start`) analysed by `engine` (when there is one).
    pub fn new(inner: S, start: shakmaty::Chess, engine: Option<AnalysisEngine>) -> Analysing<S> {
        Analysing {
            inner,
            analyst: Analyst::new(start),
            engine,
            gone: false,
            tables: None,
        }
    }

    /// The same, each analysis of a position `tables` hold saying their result too.
    #[must_use]
    pub fn with_tables(mut self, tables: Option<Arc<Tablebases>>) -> Analysing<S> {
        self.tables = tables;
        self
    }

    /// The board's own sink.
    pub fn inner(&mut self) -> &mut S {
        &mut self.inner
    }

    /// The board's own sink, the analysis done with.
    pub fn into_inner(self) -> S {
        self.inner
    }
}

impl<S: Sink + Commented> Sink for Analysing<S> {
    fn take(&mut self, happened: Happened<'_>) -> io::Result<()> {
        if self.engine.is_none() {
            return self.inner.take(happened);
        }
        match happened {
            Happened::Live { event, game } => {
                self.inner.take(Happened::Live { event, game })?;
                match event {
                    LiveEvent::Started { .. } => self.analyst.started(),
                    LiveEvent::Decision(decision) => self.analyst.handle_decision(decision),
                    LiveEvent::Waiting { .. }
                    | LiveEvent::SetUp { .. }
                    | LiveEvent::PromotionAsked { .. } => {}
                }
                self.drive(None)
            }
            Happened::Woken { t } => {
                self.inner.take(Happened::Woken { t })?;
                let heard = self
                    .engine
                    .as_ref()
                    .map(AnalysisEngine::take_heard)
                    .unwrap_or_default();
                for report in heard {
                    self.heard(t, report)?;
                }
                self.drive(Some(t))
            }
            other => self.inner.take(other),
        }
    }
}

impl<S: Sink + Commented> Analysing<S> {
    /// What the engine's process said or became, at `t`: its words aside, and what became of
    /// it, told to the board's own sink as notices.
    fn heard(&mut self, t: Millis, report: EngineReport) -> io::Result<()> {
        let said = match report {
            EngineReport::Said(EngineEvent::Notice(text)) => format!("--analyse: {text}"),
            EngineReport::Said(said) => {
                self.analyst.handle_engine(t, &said);
                return Ok(());
            }
            EngineReport::Restarted { why, attempt } => {
                format!("--analyse: {why}: started again ({attempt})")
            }
            EngineReport::GaveUp { why, .. } if !self.gone => {
                self.gone = true;
                format!("--analyse: {why}: the game goes on without analysis")
            }
            EngineReport::GaveUp { .. } => return Ok(()),
        };
        self.inner.take(Happened::Notice { t, text: &said })
    }

    /// Carries out what the analyst says: questions to the engine, analyses to say at `t`.
    fn drive(&mut self, t: Option<Millis>) -> io::Result<()> {
        while let Some(event) = self.analyst.poll_event() {
            let request = match event {
                AnalystEvent::Analyse { start, moves } => {
                    let limits = self
                        .engine
                        .as_ref()
                        .map_or(SearchLimits::MoveTime(1000), |engine| engine.limits);
                    EngineRequest::Go {
                        start,
                        moves,
                        limits,
                    }
                }
                AnalystEvent::NewGame => EngineRequest::NewGame,
                AnalystEvent::Cancel => EngineRequest::Cancel,
                AnalystEvent::Said(mut analysis) => {
                    // Said only on the runner's time (an engine's line taken when woken).
                    let Some(t) = t else {
                        continue;
                    };
                    // An analysis is of the position the game stands at.
                    if let Some(tables) = &self.tables {
                        analysis.tablebase = tables.probe(self.analyst.position());
                    }
                    let note = HostNote::Analysis(analysis.clone());
                    let event = StreamEvent {
                        t,
                        kind: StreamKind::Analysis(analysis),
                    };
                    self.inner.commented(t, &note, &event)?;
                    continue;
                }
            };
            if let Some(engine) = self.engine.as_ref() {
                let _ = engine.ask.send(request);
            }
        }
        Ok(())
    }
}
