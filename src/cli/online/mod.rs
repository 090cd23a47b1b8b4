//! `touchmove online`: the account's Lichess games played on the board through the Board API.
//! The board is watched as `watch` watches it; the library's `online::OnlineGame` stands
//! between the interpreter's decisions and the server's game. The server's stream is read, and
//! its requests sent one at a time, by tasks of their own that hand what the server said to the
//! runner (`Control::Wake`), which takes it at its place among the board's reports: everything
//! runs on one thread.
//!
//! Here: the games one after another, and a game's setting up; `state.rs` the game's state and
//! the runner's sink; `keys.rs` the requests typed; `finding.rs` the challenges accepted and
//! the seek. The server is reached over HTTPS through `touchmove_lichess::board_api`.

mod finding;
mod keys;
mod ready;
mod state;

use std::cell::RefCell;
use std::collections::{HashSet, VecDeque};
use std::io;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use shakmaty::fen::Fen;
use shakmaty::{Chess, Color};
use tokio::sync::{Notify, mpsc};
use tokio::task::LocalSet;

use touchmove::live::{LiveGame, SessionOptions};
use touchmove::online::OnlineGame;
use touchmove::online::lichess::ndjson::Line;
use touchmove::online::lichess::request::{EVENT_STREAM, Request, game_stream};
use touchmove::online::lichess::wire::{GameFull, GameMessage, IncomingEvent, Player};
use touchmove::online::{Answer, lichess::wire::ApiError};
use touchmove::output::pgn::PgnTags;
use touchmove::runner::{self, Control, Parts, RunnerConfig};
use touchmove::sensor_log::{LogHeader, OnlineSeat};
use touchmove::timing::Timing;
use touchmove::watched::Players;

use super::args::OnlineArgs;
use state::{Heard, OnlineSink, OnlineState};
use touchmove_lichess::board_api::{Lichess, Lines, StreamFailure};
use touchmove_links::board::{BoardConnector, board_protocol};
use touchmove_runtime::files::recording::Recording;
use touchmove_runtime::files::resumed::Resumed;
use touchmove_runtime::sinks::watch::WatchSink;
use touchmove_web::PageSink;
use touchmove_web::asked::Asked;

/// The longest wait before a stream is opened again.
const BACKOFF_MAX: Duration = Duration::from_secs(60);

/// How long a request refused with 429 waits when the server does not say (`Retry-After`):
/// the API asks for a full minute.
const RATE_LIMITED: Duration = Duration::from_secs(60);

/// Runs `touchmove online`.
pub fn run(args: &OnlineArgs) -> Result<()> {
    refuse_a_start_of_our_own(args)?;
    let token = token(args.token_file.as_deref())?;
    let lichess = Lichess::new(&args.lichess_url, &token)?;
    let runtime = super::session::runtime()?;
    let local = LocalSet::new();
    local.block_on(&runtime, games(args, lichess))
}

/// Refuses `--start`, `--chess960 N` and `--time-control`: an online game starts where the
/// server says, and its clock is the server's.
fn refuse_a_start_of_our_own(args: &OnlineArgs) -> Result<()> {
    if args.board.interpreter.time_control.is_some() {
        bail!(
            "--time-control: an online game's clock is the server's (its times reach the game, \
             and a DGT 3000 is set to them); seek a time control with --seek MIN+INC"
        );
    }
    let given = match (&args.board.start, args.board.chess960) {
        (Some(_), _) => "--start",
        (None, Some(_)) => "--chess960",
        (None, None) => return Ok(()),
    };
    bail!(
        "{given}: an online game starts from the position the server gives (for Chess960, \
         `--variant chess960` seeks such games and accepts their challenges; the server draws \
         the position, and the game waits for the board to show it)"
    )
}

/// The account's token: `--token-file`'s, else `LICHESS_TOKEN`'s; never printed.
fn token(file: Option<&Path>) -> Result<String> {
    let token = match file {
        Some(path) => std::fs::read_to_string(path)
            .with_context(|| format!("--token-file {}", path.display()))?,
        None => std::env::var("LICHESS_TOKEN").unwrap_or_default(),
    };
    let token = token.trim().to_owned();
    if token.is_empty() {
        bail!(
            "no token: set LICHESS_TOKEN (or give --token-file) to a Lichess token with the \
             board:play scope (https://lichess.org/account/oauth/token)"
        );
    }
    Ok(token)
}

/// What the player types, shared by the games one after another.
type Typed = Rc<tokio::sync::Mutex<mpsc::UnboundedReceiver<Asked>>>;

/// The game `play` plays: its seat, its number in the session, what the player types.
struct Game<'a> {
    seat: &'a Seat,
    number: usize,
    typed: &'a Typed,
}

/// Hands what the player types (or asks on the page) to the online game, which sends it
/// (nothing once the game is over).
async fn take_typed(typed: Typed, state: Rc<RefCell<OnlineState>>) {
    let mut typed = typed.lock().await;
    // Asked while no game was going on: not for this one.
    while let Ok(request) = typed.try_recv() {
        eprintln!(
            "touchmove: {} was asked while no game was going on: not sent",
            request.name()
        );
    }
    while let Some(asked) = typed.recv().await {
        let mut state = state.borrow_mut();
        match asked {
            Asked::Server(request) => {
                eprintln!("touchmove: {} asked of the server", request.name());
                state.game.request(request);
            }
            // The board's game takes it as a board's promotion button (and records it so).
            Asked::Promotion(role) if state.promotion.is_some() => {
                eprintln!("touchmove: {} chosen", asked.name());
                let _ = state.controls.send(Control::Promote(role));
            }
            Asked::Promotion(_) => {
                eprintln!(
                    "touchmove: {}: no promotion waits for its piece",
                    asked.name()
                );
            }
            // The page offers none in an online game (no engine helps a player there).
            Asked::Hint => eprintln!("touchmove: no hints in an online game"),
        }
        if let Err(error) = state.drain() {
            tracing::debug!(%error, "cannot pass on what was typed");
        }
    }
}

/// A game to play: its id and the account's side.
struct Seat {
    id: String,
    side: Color,
}

/// Plays the account's games one after another until stopped (or `--games` are played): with
/// `--resume`, the recorded game first.
async fn games(args: &OnlineArgs, lichess: Lichess) -> Result<()> {
    let mut played = HashSet::new();
    // What the player types, for every game (one reader of the terminal).
    let (typed_requests, typed) = mpsc::unbounded_channel();
    // The page's buttons ask as the keys do.
    let mut page = match args.listen {
        Some(listen) => {
            let protocol =
                board_protocol(args.board.port.as_deref(), args.board.protocol.as_deref()).await?;
            let start = (Chess::default(), PgnTags::default());
            let requests = Some(typed_requests.clone());
            let page = super::one_page::game_page(
                listen,
                protocol.name,
                &args.board,
                start,
                requests,
                false,
            );
            Some(page.await?)
        }
        None => None,
    };
    keys::read_keys(typed_requests);
    let typed: Typed = Rc::new(tokio::sync::Mutex::new(typed));
    let mut resumed = match (&args.board.record, args.board.resume) {
        (Some(path), true) => Resumed::read_or_clear(path)?,
        _ => None,
    };
    loop {
        let recorded = resumed
            .as_ref()
            .and_then(|resumed| resumed.log.header.online.clone());
        let seat = match recorded {
            Some(seat) => Seat {
                id: seat.game,
                side: seat.side,
            },
            None => tokio::select! {
                seat = next_game(args, &lichess, &played) => seat?,
                _ = tokio::signal::ctrl_c() => {
                    eprintln!("touchmove: stopped: no game was going on");
                    return Ok(());
                }
            },
        };
        if resumed
            .as_ref()
            .is_some_and(|r| r.log.header.online.is_none())
        {
            bail!(
                "--resume: the recording has no `@online` line: it is not an online game (resume \
                 it with `touchmove watch --resume`)"
            );
        }
        played.insert(seat.id.clone());
        let game = Game {
            seat: &seat,
            number: played.len(),
            typed: &typed,
        };
        let stopped = play(args, &lichess, game, resumed.take(), &mut page).await?;
        let enough = args
            .games
            .is_some_and(|games| played.len() >= usize::try_from(games).unwrap_or(usize::MAX));
        if stopped || enough {
            return Ok(());
        }
    }
}

/// The next game of the account not played yet, from its event stream (games already going on
/// come first, as the stream sends them). Challenges are accepted as `--accept` says; with
/// `--seek`, a seek is posted once the stream has said what is going on (its first keep-alive)
/// and kept open until a game starts. Nothing is sought or accepted before the board answers
/// and shows a game's starting position ([`ready::board_ready`]).
async fn next_game(args: &OnlineArgs, lichess: &Lichess, played: &HashSet<String>) -> Result<Seat> {
    let mut backoff = Duration::from_secs(1);
    let mut seeking: Option<finding::Seeking> = None;
    let mut ready = false;
    loop {
        match lichess.stream(EVENT_STREAM).await {
            Ok(mut lines) => {
                lichess.reached();
                backoff = Duration::from_secs(1);
                while let Some(line) = lines.next().await {
                    let text = match line {
                        Line::Text(text) => text,
                        Line::KeepAlive => {
                            if seeking.is_none() && args.seek.is_some() {
                                be_ready(args, &mut ready, played).await?;
                                seeking = finding::Seeking::start(args, lichess);
                            }
                            continue;
                        }
                    };
                    let game = match serde_json::from_str(&text) {
                        Ok(IncomingEvent::GameStart { game }) => game,
                        Ok(IncomingEvent::Challenge { challenge }) => {
                            if finding::accepted(args.accept.as_deref(), args.variant, &challenge) {
                                be_ready(args, &mut ready, played).await?;
                            }
                            finding::answer_challenge(args, lichess, &challenge).await;
                            continue;
                        }
                        _ => continue,
                    };
                    if played.contains(&game.game_id) {
                        continue;
                    }
                    if !touchmove::online::lichess::wire::is_chess(game.variant_key()) {
                        eprintln!(
                            "touchmove: game {} is of the variant `{}`, whose rules are not \
                             chess's: it is left alone",
                            game.game_id,
                            game.variant_key()
                        );
                        continue;
                    }
                    if !game.board_compatible() {
                        eprintln!(
                            "touchmove: game {} cannot be played with the Board API (its speed); \
                             it is left alone",
                            game.game_id
                        );
                        continue;
                    }
                    if let Some(side) = game.side() {
                        return Ok(Seat {
                            id: game.game_id,
                            side,
                        });
                    }
                }
            }
            Err(StreamFailure::Unauthorized(why)) => {
                bail!("the server refuses the token (401): {why}")
            }
            Err(StreamFailure::Passing(why)) => lichess.unreachable("the event stream", &why),
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(BACKOFF_MAX);
    }
}

/// Waits for the board to be ready for a game, unless it was found so already (`ready`) in this
/// search; `played`: the games played before in the session.
async fn be_ready(args: &OnlineArgs, ready: &mut bool, played: &HashSet<String>) -> Result<()> {
    if !*ready {
        ready::board_ready(args, !played.is_empty()).await?;
        *ready = true;
    }
    Ok(())
}

/// The board `online` plays on: its protocol, a session of it and the connector to its port.
struct BoardLink {
    protocol: &'static touchmove::live::Protocol,
    session: Box<dyn touchmove::live::BoardSession + Send>,
    connector: BoardConnector,
}

/// The board the options `board` name (`--protocol`, `--port`, `--white-on-clock`).
async fn board_link(board: &super::args::WatchArgs) -> Result<BoardLink> {
    let protocol = board_protocol(board.port.as_deref(), board.protocol.as_deref()).await?;
    let options = SessionOptions::new().white_side(board.white_on_clock);
    Ok(BoardLink {
        protocol,
        session: (protocol.new_session)(&options),
        connector: BoardConnector::new(board.port.clone(), protocol),
    })
}

/// Opens game `id`'s stream and reads its first line, the whole game.
async fn open_game(lichess: &Lichess, id: &str) -> Result<(Lines, String, GameFull)> {
    let mut backoff = Duration::from_secs(1);
    loop {
        match lichess.stream(&game_stream(id)).await {
            Ok(mut lines) => {
                lichess.reached();
                while let Some(line) = lines.next().await {
                    let Line::Text(text) = line else { continue };
                    if let Ok(GameMessage::GameFull(full)) = serde_json::from_str(&text) {
                        return Ok((lines, text, *full));
                    }
                }
            }
            Err(StreamFailure::Unauthorized(why)) => {
                bail!("the server refuses the token (401): {why}")
            }
            Err(StreamFailure::Passing(why)) => lichess.unreachable("the game's stream", &why),
        }
        tokio::time::sleep(backoff).await;
        backoff = (backoff * 2).min(BACKOFF_MAX);
    }
}

/// Plays game `seat` on the board, the `number`th of the session, going on with its recording
/// `resumed` if there is one; whether the session was stopped (Ctrl-C) rather than the game
/// ended.
async fn play(
    args: &OnlineArgs,
    lichess: &Lichess,
    game: Game<'_>,
    resumed: Option<Resumed>,
    page: &mut Option<PageSink>,
) -> Result<bool> {
    let Game {
        seat,
        number,
        typed,
    } = game;
    let (lines, first, full) = open_game(lichess, &seat.id).await?;
    let start = start_position(&full.initial_fen)?;
    let opponent = if seat.side == Color::White {
        &full.black
    } else {
        &full.white
    };
    eprintln!(
        "touchmove: game {} on {}: you play {} against {}{}",
        seat.id,
        lichess_host(&args.lichess_url),
        super::session::side_name(seat.side),
        player_name(opponent),
        set_up_from(&start)
    );
    let board = &args.board;
    let BoardLink {
        protocol,
        mut session,
        mut connector,
    } = board_link(board).await?;
    let header = LogHeader::new(&start, &format!("{} via touchmove online", protocol.name))
        .with_online(OnlineSeat {
            server: "lichess".to_owned(),
            game: seat.id.clone(),
            side: seat.side,
        });
    // Decided as a replay of the recording decides: the opponent's side earns no rulings and
    // no number of illegal moves loses (the header's settings); a resumed game as recorded.
    let recorded = resumed.as_ref().map(|resumed| &resumed.log.header);
    let interpreter = header.config(
        board.interpreter.live_config(recorded, protocol),
        Timing::default(),
        None,
    );
    let header = header
        .with_timing(Timing::of_config(&interpreter))
        .with_promotion_choice_of(&interpreter);
    let mut game = LiveGame::new(start.clone(), interpreter);
    let recording = match (&board.record, &resumed) {
        (Some(path), Some(resumed)) => Some(
            Recording::resume(path, resumed.written, resumed.last_t)
                .with_context(|| format!("--record {}", path.display()))?,
        ),
        (Some(path), None) => {
            let path = game_log(path, number);
            Some(
                Recording::create(&path, header)
                    .with_context(|| format!("--record {}", path.display()))?,
            )
        }
        (None, _) => None,
    };
    let tags = PgnTags {
        white: Some(player_name(&full.white)),
        black: Some(player_name(&full.black)),
        time_control: full
            .clock
            .map(|clock| format!("{}+{}", clock.initial / 1000, clock.increment / 1000)),
        ..PgnTags::default()
    };
    let out = WatchSink::new(
        io::stdout().lock(),
        board.json,
        recording,
        board.pgn.as_deref(),
        &start,
        tags.clone(),
    )
    .with_notation(board.notation)
    .with_speaker(super::session::speaker(board)?);
    let (controls, mut control_receiver) = mpsc::unbounded_channel();
    let (requests, request_receiver) = mpsc::unbounded_channel();
    let over = Rc::new(Notify::new());
    let reopen = Rc::new(Notify::new());
    let state = Rc::new(RefCell::new(OnlineState {
        out,
        game: OnlineGame::new(start.clone(), seat.side),
        controls,
        requests,
        heard: VecDeque::new(),
        started: false,
        over: Rc::clone(&over),
        ended: false,
        replaying: false,
        page: None,
        promotion: None,
        seat: (lichess_host(&args.lichess_url).to_owned(), seat.id.clone()),
    }));
    let mut sink = OnlineSink(Rc::clone(&state));
    let start_at = resumed.as_ref().map_or(0, |resumed| resumed.resume_at);
    if let Some(mut page) = page.take() {
        let players = Players {
            white: tags.white.clone(),
            black: tags.black.clone(),
        };
        let number = u32::try_from(number).unwrap_or(u32::MAX);
        page.begin_game(number, start, players, start_at);
        state.borrow_mut().page = Some(page);
    }
    if let Some(resumed) = &resumed {
        super::resumed_match::resume(resumed, &mut game, &mut session, &mut sink)?;
    }
    // The stream's first line, the whole game, taken once the board's game is where it was.
    if let Ok(message) = serde_json::from_str(&first) {
        state.borrow_mut().heard.push_back(Heard::Line {
            raw: first,
            message,
        });
    }
    let reader = tokio::task::spawn_local(read_game(
        lichess.clone(),
        seat.id.clone(),
        lines,
        Rc::clone(&state),
        Rc::clone(&reopen),
    ));
    let poster = tokio::task::spawn_local(send_requests(
        lichess.clone(),
        seat.id.clone(),
        request_receiver,
        Rc::clone(&state),
        Rc::clone(&reopen),
    ));
    let keys = tokio::task::spawn_local(take_typed(Rc::clone(typed), Rc::clone(&state)));
    let _ = state.borrow().controls.send(Control::Wake);
    let config = RunnerConfig {
        give_up_after: board.give_up_after.map(Duration::from_secs_f64),
        start_at,
        ..RunnerConfig::default()
    };
    let stopped = Rc::new(std::cell::Cell::new(false));
    let shutdown = {
        let stopped = Rc::clone(&stopped);
        async move {
            tokio::select! {
                interrupted = tokio::signal::ctrl_c() => {
                    if interrupted.is_ok() {
                        stopped.set(true);
                    } else {
                        std::future::pending::<()>().await;
                    }
                }
                () = over.notified() => {}
            }
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
    reader.abort();
    poster.abort();
    keys.abort();
    let _ = reader.await;
    let _ = poster.await;
    let _ = keys.await;
    let mut state = Rc::into_inner(state)
        .context("the game's state is still shared")?
        .into_inner();
    *page = state.page.take();
    if stopped.get() && !state.game.is_over() {
        say_game_goes_on(args, &seat.id);
    }
    let finished = state.out.finish();
    super::session::session_outcome(watched, finished)?;
    Ok(stopped.get())
}

/// Stopped in the middle of game `id`: it goes on at the server, the player's clock running;
/// how to end it or go on with it is said.
fn say_game_goes_on(args: &OnlineArgs, id: &str) {
    let url = format!("{}/{id}", args.lichess_url.trim_end_matches('/'));
    let resume = match &args.board.record {
        Some(log) => format!("touchmove online --resume --record {}", log.display()),
        None => "touchmove online".to_owned(),
    };
    eprintln!(
        "touchmove: stopped, but game {id} goes on at {host} and your clock runs: go on with          it with `{resume}` (the same board and options), or end it at {url} (resign, or          abort before both have moved); next time, type `resign` or `abort` here before          stopping",
        host = lichess_host(&args.lichess_url)
    );
}

/// Reads the game's stream, handing each line to the runner; a cut stream (or one told to,
/// after a request whose answer was lost) is opened again, and its first line, the whole game,
/// reconciles the game with what the server has.
async fn read_game(
    lichess: Lichess,
    id: String,
    mut lines: Lines,
    state: Rc<RefCell<OnlineState>>,
    reopen: Rc<Notify>,
) {
    let mut backoff = Duration::from_secs(1);
    // Whether the server said the game is over: its stream, which the server then closes, is
    // not opened again, whether the board's game has taken that line yet or not (a game
    // ended before the board showed its start).
    let mut ended: Option<String> = None;
    loop {
        loop {
            let line = tokio::select! {
                line = lines.next() => line,
                () = reopen.notified() => None,
            };
            let Some(line) = line else { break };
            let Line::Text(raw) = line else { continue };
            let Ok(message) = serde_json::from_str::<GameMessage>(&raw) else {
                continue;
            };
            let said_state = match &message {
                GameMessage::GameFull(full) => Some(&full.state),
                GameMessage::GameState(game_state) => Some(game_state),
                _ => None,
            };
            if let Some(over) = said_state.filter(|said| !said.is_going_on()) {
                ended = Some(over.status.clone());
            }
            let mut state = state.borrow_mut();
            state.heard.push_back(Heard::Line { raw, message });
            let _ = state.controls.send(Control::Wake);
        }
        if let Some(status) = &ended {
            // Ended before the board showed its start: nothing was played, and the game's
            // end is said here (the board's game never took the server's lines).
            let state = state.borrow();
            if !state.started {
                eprintln!(
                    "touchmove: game {id}: the server ended it ({status}) before the board \
                     showed its starting position: nothing was played"
                );
                state.over.notify_one();
            }
            return;
        }
        if state.borrow().game.is_over() {
            return;
        }
        loop {
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(BACKOFF_MAX);
            match lichess.stream(&game_stream(&id)).await {
                Ok(opened) => {
                    lichess.reached();
                    lines = opened;
                    backoff = Duration::from_secs(1);
                    break;
                }
                Err(StreamFailure::Unauthorized(why) | StreamFailure::Passing(why)) => {
                    lichess.unreachable("the game's stream", &why);
                }
            }
        }
    }
}

/// Sends the game's requests one at a time: a 429 waits as long as the server says (the
/// minute the API asks, when it does not) and is sent again; a request whose answer was lost (the network, a 5xx) is said to the game as such, and
/// the stream is opened again, whose first line says what the server has.
async fn send_requests(
    lichess: Lichess,
    id: String,
    mut requests: mpsc::UnboundedReceiver<Request>,
    state: Rc<RefCell<OnlineState>>,
    reopen: Rc<Notify>,
) {
    while let Some(request) = requests.recv().await {
        let path = request.path(&id);
        let answer = loop {
            let answered = lichess.post(&path).await;
            if answered.is_ok() {
                lichess.reached();
            }
            match answered {
                Ok(reply) if (200..300).contains(&reply.status) => break Answer::Taken,
                Ok(reply) if reply.status == 429 => {
                    let wait = reply.retry_after.map_or(RATE_LIMITED, Duration::from_secs);
                    eprintln!(
                        "touchmove: lichess: too many requests (429): the {} request waits {} s",
                        request.name(),
                        wait.as_secs()
                    );
                    tokio::time::sleep(wait).await;
                }
                Ok(reply) if (400..500).contains(&reply.status) => {
                    let why = serde_json::from_str::<ApiError>(&reply.body)
                        .map(|error| error.error)
                        .unwrap_or_else(|_| format!("{} {}", reply.status, reply.body.trim()));
                    break Answer::Refused(why);
                }
                Ok(reply) => {
                    eprintln!(
                        "touchmove: lichess: the {} request: {} from the server",
                        request.name(),
                        reply.status
                    );
                    break Answer::Unknown;
                }
                Err(why) => {
                    lichess.unreachable(&format!("the {} request", request.name()), &why);
                    break Answer::Unknown;
                }
            }
        };
        let lost = answer == Answer::Unknown;
        {
            let mut state = state.borrow_mut();
            state.heard.push_back(Heard::Answer { request, answer });
            let _ = state.controls.send(Control::Wake);
        }
        if lost {
            tokio::time::sleep(Duration::from_secs(1)).await;
            reopen.notify_one();
        }
    }
}

/// What to set up on the board when the game does not start from the standard position: its
/// FEN, and its number when it is a Chess960 start (nothing for the standard start).
fn set_up_from(start: &Chess) -> String {
    if *start == Chess::default() {
        return String::new();
    }
    let fen = Fen::from_position(start, shakmaty::EnPassantMode::Legal);
    match touchmove::rules::chess960::number_of(shakmaty::Position::board(start)) {
        Some(number) => format!("; Chess960 position {number}: set up {fen}"),
        None => format!("; set up {fen}"),
    }
}

/// The game's starting position: `startpos` or a FEN.
fn start_position(initial_fen: &str) -> Result<Chess> {
    if initial_fen == "startpos" {
        return Ok(Chess::default());
    }
    let fen: Fen = initial_fen
        .parse()
        .with_context(|| format!("the game's initial FEN `{initial_fen}` does not read"))?;
    touchmove::rules::chess960::from_fen(&fen)
        .with_context(|| format!("the game's initial FEN `{initial_fen}` is no position"))
}

/// The log of the session's `number`th game: `--record`'s path for the first, the game's
/// number before its extension for the others (`game.log`, `game-2.log`).
fn game_log(path: &Path, number: usize) -> PathBuf {
    if number <= 1 {
        return path.to_owned();
    }
    let stem = path
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match path.extension() {
        Some(extension) => format!("{stem}-{number}.{}", extension.to_string_lossy()),
        None => format!("{stem}-{number}"),
    };
    path.with_file_name(name)
}

/// A player's name for the terminal and the PGN: the account's name, or Lichess's AI.
fn player_name(player: &Player) -> String {
    match (&player.name, player.ai_level) {
        (Some(name), _) => name.clone(),
        (None, Some(level)) => format!("Lichess AI level {level}"),
        (None, None) => "?".to_owned(),
    }
}

/// The server's host, as the first line names it.
fn lichess_host(url: &str) -> &str {
    url.split("://").nth(1).unwrap_or(url).trim_end_matches('/')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_games_are_recorded_beside_the_first() {
        let path = Path::new("/tmp/x/game.log");
        assert_eq!(game_log(path, 1), path);
        assert_eq!(game_log(path, 2), Path::new("/tmp/x/game-2.log"));
        assert_eq!(game_log(Path::new("g"), 3), Path::new("g-3"));
    }

    #[test]
    fn the_start_is_startpos_or_a_fen() {
        assert_eq!(start_position("startpos").ok(), Some(Chess::default()));
        assert!(start_position("8/8/8/8/8/8/8/8 w - - 0 1").is_err());
        assert!(
            start_position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").is_ok()
        );
    }
}
