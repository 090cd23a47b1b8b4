//! `touchmove play`: a human plays a UCI engine on the board. The board is watched as `watch`
//! watches it; the library's `play::EngineGame` stands between the interpreter's decisions and
//! the record; the engine runs in its own task (`engine_runner`). The engine's moves reach the
//! game, and what to show reaches the board, over channels: everything runs on one thread.
//!
//! Here: the command and the game's setting up; `state.rs` the game's state and the runner's
//! sink; `limits.rs` how long the engine thinks; `resume.rs` `--resume`; `keys.rs` what the
//! human types.

mod book;
mod keys;
mod limits;
mod state;

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io;
use std::rc::Rc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use rand::Rng;
use shakmaty::{Chess, Color};
use tokio::sync::mpsc;
use tokio::task::LocalSet;

use touchmove::engine::{EngineConfig, EngineEvent, Strength};
use touchmove::engine_runner::{self as engine_runner, EngineCommand, EngineReport};
use touchmove::live::{LiveGame, SessionOptions};
use touchmove::output::pgn::PgnTags;
use touchmove::play::EngineGame;
use touchmove::runner::{self, Control, Parts, RunnerConfig};
use touchmove::sensor_log::LogHeader;
use touchmove::timing::Timing;

use super::args::{PlayArgs, PlaySide};
use super::resumed_match::resume;
use book::OpeningBook;
use keys::read_keys;
use limits::{DEFAULT_MOVETIME, Limits};
use state::{Heard, PlaySink, PlayState};
use touchmove_links::board::{BoardConnector, board_protocol};
use touchmove_runtime::files::recording::Recording;
use touchmove_runtime::files::resumed::Resumed;
use touchmove_runtime::sinks::watch::WatchSink;
use touchmove_web::asked::Asked;

/// How long the engine may take to start and say it is ready.
const ENGINE_START: Duration = Duration::from_secs(20);

/// Runs `touchmove play`.
pub fn run(args: &PlayArgs) -> Result<()> {
    let (resumed, start) = super::outputs::outputs_and_start(&args.board)?;
    let command = EngineCommand::parse(&args.engine)
        .context("--engine: name the engine's program (and its arguments)")?;
    // A resumed game's engine plays the side its recording says.
    let recorded = resumed.as_ref().map(|resumed| resumed.log.header.engine);
    let human = match (recorded, args.color) {
        (Some(Some(engine)), _) => !engine,
        (Some(None), _) => bail!(
            "--resume: the recording has no `@engine` line: it is not a game against an engine \
             (resume it with `touchmove watch --resume`)"
        ),
        (None, PlaySide::White) => Color::White,
        (None, PlaySide::Black) => Color::Black,
        (None, PlaySide::Random) => {
            if rand::rng().random_bool(0.5) {
                Color::White
            } else {
                Color::Black
            }
        }
    };
    let config = EngineConfig {
        options: args.engine_options.clone(),
        elo: args.elo,
        skill: args.skill,
        chess960: touchmove::rules::chess960::is_chess960(&start),
    };
    let book = args
        .book
        .as_deref()
        .map(|path| OpeningBook::open(path, args.book_seed))
        .transpose()?;
    let runtime = super::session::runtime()?;
    let local = LocalSet::new();
    let game = Setting {
        start,
        engine: !human,
        resumed,
        book,
    };
    local.block_on(&runtime, play(args, game, command, config))
}

/// The engine's settings, for the PGN tag: `movetime 1000 ms, Elo 1500, book mine.bin`; the
/// strength as the engine was set to play (`strength`: within its range).
fn settings(args: &PlayArgs, strength: Option<Strength>, book: Option<&str>) -> String {
    let mut said = Vec::new();
    match (args.depth, args.movetime) {
        (Some(depth), _) => said.push(format!("depth {depth}")),
        (None, Some(ms)) => said.push(format!("movetime {ms} ms")),
        (None, None) if args.board.interpreter.time_control.is_some() => {
            said.push("the clock's times".to_owned());
        }
        (None, None) => said.push(format!("movetime {DEFAULT_MOVETIME} ms")),
    }
    if let Some(strength) = strength {
        said.push(strength.to_string());
    }
    if let Some(book) = book {
        said.push(format!("book {book}"));
    }
    for (name, value) in &args.engine_options {
        said.push(format!("{name}={value}"));
    }
    said.join(", ")
}

/// The game to play: where it starts, the engine's side, and its recording read back with
/// `--resume`.
struct Setting {
    start: Chess,
    engine: Color,
    resumed: Option<Resumed>,
    book: Option<OpeningBook>,
}

async fn play(
    args: &PlayArgs,
    setting: Setting,
    command: EngineCommand,
    config: EngineConfig,
) -> Result<()> {
    let Setting {
        start,
        engine,
        resumed,
        book,
    } = setting;
    let (ask, requests) = mpsc::unbounded_channel();
    let (said, mut reports) = mpsc::unbounded_channel();
    let engine_task = tokio::task::spawn_local(engine_runner::run(command, config, requests, said));
    let (name, strength) = engine_ready(args, &mut reports).await?;
    eprintln!(
        "touchmove: {name} plays {}; you play {} (type `resign` and Enter to resign)",
        super::session::side_name(engine),
        super::session::side_name(!engine)
    );
    let board = &args.board;
    let protocol = board_protocol(board.port.as_deref(), board.protocol.as_deref()).await?;
    // A resumed game's clock kept running on its own: it is not set again.
    let options = SessionOptions::new()
        .white_side(board.white_on_clock)
        .set_clock(
            board
                .interpreter
                .time_control
                .clone()
                .filter(|_| resumed.is_none()),
        );
    let mut session = (protocol.new_session)(&options);
    let mut connector = BoardConnector::new(board.port.clone(), protocol);
    // A resumed game decides as it was recorded, unless told otherwise. The engine's side: its
    // moves are carried out by the human's hands.
    let recorded = resumed.as_ref().map(|resumed| &resumed.log.header);
    let interpreter = board
        .interpreter
        .live_config(recorded, protocol)
        .with_exempt(Some(engine));
    let mut game = LiveGame::new(start.clone(), interpreter)
        .with_time_control(board.interpreter.time_control.clone());
    let recording = match (&board.record, &resumed) {
        (Some(path), Some(resumed)) => Some(
            Recording::resume(path, resumed.written, resumed.last_t)
                .with_context(|| format!("--record {}", path.display()))?,
        ),
        (Some(path), None) => {
            let header = LogHeader::new(&start, &format!("{} via touchmove play", protocol.name))
                .with_timing(Timing::of_config(&interpreter))
                .with_promotion_choice_of(&interpreter)
                .with_engine(engine);
            Some(
                Recording::create(path, header)
                    .with_context(|| format!("--record {}", path.display()))?,
            )
        }
        (None, _) => None,
    };
    let book_name = book.as_ref().map(|book| book.name.clone());
    let engine_tag = format!(
        "{name} ({})",
        settings(args, strength, book_name.as_deref())
    );
    let tags = PgnTags {
        white: (engine == Color::White).then(|| engine_tag.clone()),
        black: (engine == Color::Black).then(|| engine_tag.clone()),
        time_control: board
            .interpreter
            .time_control
            .as_ref()
            .map(ToString::to_string),
        ..PgnTags::default()
    };
    // What the player asks of the engine (a hint), typed or from the page.
    let (asks, mut asked) = mpsc::unbounded_channel();
    let page = match args.listen {
        Some(listen) => {
            let start = (start.clone(), tags.clone());
            let page = super::one_page::game_page(
                listen,
                protocol.name,
                board,
                start,
                Some(asks.clone()),
                true,
            );
            Some(page.await?)
        }
        None => None,
    };
    let out = WatchSink::new(
        io::stdout().lock(),
        board.json,
        recording,
        board.pgn.as_deref(),
        &start,
        tags,
    )
    .with_notation(board.notation)
    .with_speaker(super::session::speaker(board)?);
    let (controls, mut control_receiver) = mpsc::unbounded_channel();
    let state = Rc::new(RefCell::new(PlayState {
        out,
        game: EngineGame::new(start, engine),
        ask,
        controls,
        limits: Limits::new(args),
        clock: None,
        score: None,
        page,
        heard: VecDeque::new(),
        book,
        hint_asked: None,
        replaying: false,
    }));
    // What the engine says waits for the runner, which takes it at its place among the
    // board's reports, with the session's time (`Control::Wake`, `Happened::Woken`).
    let listener = {
        let state = Rc::clone(&state);
        tokio::task::spawn_local(async move {
            while let Some(report) = reports.recv().await {
                let mut state = state.borrow_mut();
                if let EngineReport::GaveUp { why, restarts } = report {
                    // Its side is a person's from now on: rulings again, from the interpreter.
                    let after = match restarts {
                        0 => String::new(),
                        n => format!(", after {n} restarts"),
                    };
                    eprintln!("touchmove: {why}{after}; the game goes on as a two-player game");
                    let _ = state.controls.send(Control::Exempt(None));
                    continue;
                }
                state.heard.push_back(Heard::Engine(report));
                let _ = state.controls.send(Control::Wake);
            }
        })
    };
    // A hint asked for (typed, or the page's button) goes to the engine at once: its answer
    // comes back as its moves do.
    let hints = {
        let state = Rc::clone(&state);
        tokio::task::spawn_local(async move {
            while let Some(request) = asked.recv().await {
                if request == Asked::Hint {
                    state.borrow_mut().ask_hint();
                }
            }
        })
    };
    // `resign` typed at the terminal resigns the human's game; `hint` asks for a hint.
    read_keys(state.borrow().controls.clone(), asks, !engine);
    let mut sink = PlaySink(Rc::clone(&state));
    let start_at = match &resumed {
        Some(resumed) => {
            resume(resumed, &mut game, &mut session, &mut sink)?;
            resumed.resume_at
        }
        None => 0,
    };
    if let Some(page) = state.borrow().page.as_ref() {
        page.session_starts(start_at);
    }
    let config = RunnerConfig {
        give_up_after: board.give_up_after.map(Duration::from_secs_f64),
        start_at,
        ..RunnerConfig::default()
    };
    let shutdown = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    let parts = Parts {
        session: &mut session,
        game: &mut game,
        sink: &mut sink,
        controls: Some(&mut control_receiver),
    };
    let watched = runner::run_with_controls(&mut connector, parts, config, shutdown).await;
    drop(sink);
    listener.abort();
    let _ = listener.await;
    hints.abort();
    let _ = hints.await;
    let state = Rc::into_inner(state)
        .context("the game's state is still shared")?
        .into_inner();
    drop(state.ask);
    let _ = engine_task.await;
    // What was decided is written whether the board was given up on or not.
    let finished = state.out.finish();
    super::session::session_outcome(watched, finished)
}

/// Waits for the engine's handshake: its name and the strength it plays at, or why it cannot
/// play (as asked).
async fn engine_ready(
    args: &PlayArgs,
    reports: &mut mpsc::UnboundedReceiver<EngineReport>,
) -> Result<(String, Option<Strength>)> {
    let mut lacks: Option<(&str, Vec<String>)> = None;
    let ready = tokio::time::timeout(ENGINE_START, async {
        loop {
            match reports.recv().await {
                Some(EngineReport::Said(EngineEvent::Ready { name, strength })) => {
                    let name = name.unwrap_or_else(|| "the engine".to_owned());
                    if let Some((option, declared)) = lacks {
                        bail!(lacking(args, &name, option, &declared));
                    }
                    return Ok((name, strength));
                }
                Some(EngineReport::Said(EngineEvent::Lacks { option, declared })) => {
                    lacks = Some((option, declared));
                }
                Some(EngineReport::Said(EngineEvent::Notice(text))) => {
                    eprintln!("touchmove: engine: {text}");
                }
                Some(EngineReport::GaveUp { why, .. }) => bail!("--engine: {why}"),
                Some(EngineReport::Restarted { why, .. }) => {
                    eprintln!("touchmove: engine: {why}: started again");
                }
                Some(_) => {}
                None => bail!("--engine: the engine ended before it was ready"),
            }
        }
    });
    ready
        .await
        .map_err(|_| anyhow::anyhow!("--engine: not ready within {} s", ENGINE_START.as_secs()))?
}

/// Why the engine cannot play as asked: it lacks `option` (it declares `declared`).
fn lacking(args: &PlayArgs, name: &str, option: &str, declared: &[String]) -> String {
    let has = if declared.is_empty() {
        "none".to_owned()
    } else {
        declared.join(", ")
    };
    if option == "UCI_Chess960" {
        return format!(
            "{name} has no `UCI_Chess960` option: it cannot play this game of Chess960. Its \
             options: {has}"
        );
    }
    let asked = match (args.elo, args.skill) {
        (Some(elo), _) if option == "UCI_Elo" => format!("--elo {elo}"),
        (_, Some(level)) => format!("--skill {level}"),
        _ => format!("`{option}`"),
    };
    let other = if option == "UCI_Elo" && declared.iter().any(|o| o == "Skill Level") {
        " (it has `Skill Level`: try --skill)"
    } else if option == "Skill Level" && declared.iter().any(|o| o == "UCI_Elo") {
        " (it has `UCI_Elo`: try --elo)"
    } else {
        ""
    };
    format!(
        "{asked}: {name} has no `{option}` option, so it cannot play at the strength asked; \
         leave {asked} out{other}. Its options: {has}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use touchmove::engine::SearchLimits;
    use touchmove::event::ClockTimes;

    #[test]
    fn the_engine_s_settings_are_said_as_given() {
        use clap::Parser;
        let cli = super::super::args::Cli::parse_from([
            "touchmove",
            "play",
            "--engine",
            "stockfish",
            "--elo",
            "1500",
            "--engine-option",
            "Hash=64",
        ]);
        let super::super::args::Command::Play(args) = cli.command else {
            panic!("play");
        };
        assert_eq!(
            settings(&args, Some(Strength::Elo(1500)), Some("mine.bin")),
            "movetime 1000 ms, Elo 1500, book mine.bin, Hash=64"
        );
        assert_eq!(
            Limits::new(&args).search(None),
            SearchLimits::MoveTime(1000)
        );
    }

    #[test]
    fn with_a_time_control_the_engine_is_given_the_clock() {
        use clap::Parser;
        let cli = super::super::args::Cli::parse_from([
            "touchmove",
            "play",
            "--engine",
            "stockfish",
            "--time-control",
            "300+2",
        ]);
        let super::super::args::Command::Play(args) = cli.command else {
            panic!("play");
        };
        let clock = Some(ClockTimes {
            white: 290_000,
            black: 295_000,
        });
        assert_eq!(
            Limits::new(&args).search(clock),
            SearchLimits::Clock {
                white: 290_000,
                black: 295_000,
                white_increment: 2000,
                black_increment: 2000
            }
        );
    }
}
