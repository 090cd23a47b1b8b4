//! `touchmove play`: a human plays a UCI engine on the board. The board is watched as `watch`
//! watches it; the library's `play::EngineGame` stands between the interpreter's decisions and
//! the record; the engine runs in its own task (`engine_runner`). The engine's moves reach the
//! game, and what to show reaches the board, over channels: everything runs on one thread.
//!
//! Here: the command, the engine started and awaited, and the game set up and played as a
//! match (`touchmove_matches`: the runner, the resume, the game's state and sink in
//! `engine_match`, with the engine's limits, the book and what the human types).

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use anyhow::{Context, Result, bail};
use rand::Rng;
use shakmaty::{Chess, Color};
use tokio::sync::mpsc;
use tokio::task::LocalSet;

use touchmove::engine::{EngineConfig, Strength};
use touchmove::engine_runner::{self as engine_runner, EngineCommand};
use touchmove::live::LiveGame;
use touchmove::output::pgn::PgnTags;
use touchmove::play::EngineGame;
use touchmove::sensor_log::LogHeader;
use touchmove::timing::Timing;

use super::args::{CoachLevel, PlayArgs, PlaySide};
use touchmove_matches::engine_match::book::OpeningBook;
use touchmove_matches::engine_match::handshake::{AskedStrength, engine_ready};
use touchmove_matches::engine_match::keys::read_keys;
use touchmove_matches::engine_match::limits::{DEFAULT_MOVETIME, Limits};
use touchmove_matches::engine_match::state::{PlaySink, PlayState};
use touchmove_matches::engine_match::transport::{listen, take_hints};
use touchmove_matches::runner::{self as matches, Match, Played};
use touchmove_runtime::files::resumed::Resumed;
use touchmove_trainer::judgement::Judgement;

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
    let asked = AskedStrength {
        elo: args.elo,
        skill: args.skill,
    };
    let (name, strength) = engine_ready(asked, &mut reports).await?;
    eprintln!(
        "touchmove: {name} plays {}; you play {} (type `resign` and Enter to resign)",
        super::session::side_name(engine),
        super::session::side_name(!engine)
    );
    let board = &args.board;
    // A resumed game's clock kept running on its own: it is not set again.
    let clock = board.interpreter.time_control.clone();
    let match_board =
        super::session::match_board(board, clock.filter(|_| resumed.is_none())).await?;
    let protocol = match_board.protocol;
    // A resumed game decides as it was recorded, unless told otherwise. The engine's side: its
    // moves are carried out by the human's hands.
    let recorded = resumed.as_ref().map(|resumed| &resumed.log.header);
    let interpreter = board
        .interpreter
        .live_config(recorded, protocol)
        .with_exempt(Some(engine));
    let game = LiveGame::new(start.clone(), interpreter)
        .with_time_control(board.interpreter.time_control.clone());
    let recording = matches::recording(board.record.as_deref(), resumed.as_ref(), || {
        LogHeader::new(&start, &format!("{} via touchmove play", protocol.name))
            .with_timing(Timing::of_config(&interpreter))
            .with_promotion_choice_of(&interpreter)
            .with_engine(engine)
    })?;
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
    let (asks, asked) = mpsc::unbounded_channel();
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
    let out = super::session::outputs(board, recording, &start, tags)?;
    let tables = args
        .syzygy
        .as_deref()
        .map(touchmove_runtime::tablebase::Tablebases::open)
        .transpose()?
        .map(std::sync::Arc::new);
    let (controls, control_receiver) = mpsc::unbounded_channel();
    let state = Rc::new(RefCell::new(PlayState {
        out,
        game: EngineGame::new(start, engine),
        ask,
        controls,
        limits: limits_of(args),
        clock: None,
        score: None,
        page,
        heard: VecDeque::new(),
        book,
        hint_asked: None,
        replaying: false,
        tables,
        coach: args.coach.map(|level| {
            touchmove_matches::engine_match::coach::Coach::new(match level {
                CoachLevel::Inaccuracy => Judgement::Inaccuracy,
                CoachLevel::Mistake => Judgement::Mistake,
                CoachLevel::Blunder => Judgement::Blunder,
            })
        }),
    }));
    let listener = tokio::task::spawn_local(listen(reports, Rc::clone(&state)));
    let hints = tokio::task::spawn_local(take_hints(asked, Rc::clone(&state)));
    // `resign` typed at the terminal resigns the human's game; `hint` asks for a hint.
    read_keys(state.borrow().controls.clone(), asks, !engine);
    let mut a_match = Match {
        board: match_board,
        game,
        sink: PlaySink(Rc::clone(&state)),
        controls: control_receiver,
    };
    let start_at = a_match.resume(resumed.as_ref())?;
    if let Some(page) = state.borrow().page.as_ref() {
        page.session_starts(start_at);
    }
    let shutdown = super::session::stop_signal();
    drop(state);
    let Played { state, watched } = a_match
        .run(
            super::session::give_up_after(board),
            start_at,
            vec![listener, hints],
            shutdown,
        )
        .await?;
    drop(state.ask);
    let _ = engine_task.await;
    // What was decided is written whether the board was given up on or not.
    let finished = state.out.finish();
    super::session::session_outcome(watched, finished)
}

/// How long the engine is asked to think: `--depth`, `--movetime`, else the clock's times.
fn limits_of(args: &PlayArgs) -> Limits {
    let time_control = args.board.interpreter.time_control.as_ref();
    Limits::new(args.depth, args.movetime, time_control)
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
        assert_eq!(limits_of(&args).search(None), SearchLimits::MoveTime(1000));
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
            limits_of(&args).search(clock),
            SearchLimits::Clock {
                white: 290_000,
                black: 295_000,
                white_increment: 2000,
                black_increment: 2000
            }
        );
    }
}
