//! `touchmove watch`: a live board of any protocol in the registry over a serial port,
//! decisions as they are made.

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};
use shakmaty::Chess;
use tokio::sync::mpsc;

use touchmove::live::{BoardSession, LiveGame, Protocol, SessionOptions};
use touchmove::output::pgn::PgnTags;
use touchmove::runner::{self, RunnerConfig};
use touchmove::sensor_log::LogHeader;
use touchmove::timing::Timing;

use super::args::{AnalyseArgs, WatchArgs};
use touchmove_links::board::{BoardConnector, board_protocol};
use touchmove_runtime::analysis::Analysing;
use touchmove_runtime::files::recording::Recording;
use touchmove_runtime::files::resumed::Resumed;
use touchmove_runtime::sinks::watch::WatchSink;

/// Runs `touchmove watch`.
pub fn run(args: &WatchArgs, analyse: &AnalyseArgs) -> Result<()> {
    let (resumed, start) = super::outputs::outputs_and_start(args)?;
    let runtime = super::session::runtime()?;
    runtime.block_on(watch(args, analyse, start, resumed))
}

/// Opens the board the way its protocol needs and watches it with the protocol's session.
async fn watch(
    args: &WatchArgs,
    analyse: &AnalyseArgs,
    start: Chess,
    resumed: Option<Resumed>,
) -> Result<()> {
    let protocol = board_protocol(args.port.as_deref(), args.protocol.as_deref()).await?;
    // A resumed game's clock kept running on its own: it is not set again.
    let time_control = args
        .interpreter
        .time_control
        .clone()
        .filter(|_| resumed.is_none());
    let options = SessionOptions::new()
        .white_side(args.white_on_clock)
        .set_clock(time_control);
    let session = (protocol.new_session)(&options);
    let connector = BoardConnector::new(args.port.clone(), protocol);
    let board = Board {
        protocol,
        start,
        resumed,
    };
    watch_with(args, analyse, board, connector, session).await
}

/// The board watched: its protocol, where its game starts, its recording read back.
struct Board {
    protocol: &'static Protocol,
    start: Chess,
    resumed: Option<Resumed>,
}

/// How a recording names the board it came from.
fn board_name(protocol: &Protocol) -> String {
    format!("{} via touchmove watch", protocol.name)
}

/// Watches the board behind `connector` with `session` until Ctrl-C or the give-up limit
/// (after the recorded part of a resumed game).
async fn watch_with<S: BoardSession>(
    args: &WatchArgs,
    analyse: &AnalyseArgs,
    board: Board,
    mut connector: BoardConnector,
    mut session: S,
) -> Result<()> {
    let Board {
        protocol,
        start,
        resumed,
    } = board;
    // A resumed game decides as it was recorded, unless told otherwise.
    let recorded = resumed.as_ref().map(|resumed| &resumed.log.header);
    let config = args.interpreter.live_config(recorded, protocol);
    let mut game = LiveGame::new(start.clone(), config)
        .with_time_control(args.interpreter.time_control.clone())
        .recognising_chess960();
    let recording = match (&args.record, &resumed) {
        (Some(path), Some(resumed)) => {
            Some(Recording::resume(path, resumed.written, resumed.last_t))
        }
        (Some(path), None) => {
            let header = LogHeader::new(&start, &board_name(protocol))
                .with_timing(Timing::of_config(&config))
                .with_promotion_choice_of(&config);
            Some(Recording::create(path, header))
        }
        (None, _) => None,
    };
    let recording = recording.transpose().with_context(|| {
        format!(
            "--record {}",
            args.record.as_deref().unwrap_or(Path::new("")).display()
        )
    })?;
    let sink = WatchSink::new(
        std::io::stdout().lock(),
        args.json,
        recording,
        args.pgn.as_deref(),
        &start,
        PgnTags {
            time_control: args
                .interpreter
                .time_control
                .as_ref()
                .map(ToString::to_string),
            ..PgnTags::default()
        },
    )
    .with_text(args.notation, args.text.details, args.text.diagram())
    .with_speaker(super::session::speaker(args)?);
    // A result the board cannot see (a draw agreed, a claim upheld...) is typed at the
    // terminal; the analysing engine wakes the runner when it has said something.
    let (controls, mut controlled) = mpsc::unbounded_channel();
    let wake = controls.clone();
    let engine = super::session::analysis_engine(analyse, move || {
        wake.send(touchmove::runner::Control::Wake).is_ok()
    })?;
    let tables = super::session::tablebases(analyse)?;
    let mut sink = Analysing::new(sink, start.clone(), engine).with_tables(tables);
    let start_at = match &resumed {
        Some(resumed) => {
            // What was decided before was said then: read back in silence.
            sink.inner().hush(true);
            resumed.replay_into(&mut game, &mut session, sink.inner(), "")?;
            sink.inner().hush(false);
            resumed.resume_at
        }
        None => 0,
    };
    let config = RunnerConfig {
        give_up_after: args.give_up_after.map(Duration::from_secs_f64),
        start_at,
        ..RunnerConfig::default()
    };
    let shutdown = super::session::stop_signal();
    touchmove_runtime::keys::arbiter::read_arbiter_keys(controls);
    let parts = runner::Parts {
        session: &mut session,
        game: &mut game,
        sink: &mut sink,
        controls: Some(&mut controlled),
    };
    let watched = runner::run_with_controls(&mut connector, parts, config, shutdown).await;
    // What was decided is written whether the board was given up on or not.
    let finished = sink.into_inner().finish();
    super::session::session_outcome(watched, finished)
}
