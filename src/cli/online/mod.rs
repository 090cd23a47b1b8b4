//! `touchmove online`: the account's Lichess games played on the board through the Board API.
//! The board is watched as `watch` watches it; the library's `online::OnlineGame` stands
//! between the interpreter's decisions and the server's game. The server's stream is read, and
//! its requests sent one at a time, by tasks of their own that hand what the server said to the
//! runner (`Control::Wake`), which takes it at its place among the board's reports: everything
//! runs on one thread.
//!
//! Here: the games one after another, and a game's setting up and playing as a match
//! (`touchmove_matches`: the runner, the resume, the game's state, sink and transport in
//! `online_match`, with the requests typed); `finding.rs` the challenges accepted and the
//! seek; `ready.rs` the board set up before a game is sought. The server is reached over
//! HTTPS through `touchmove_lichess::board_api`.

mod finding;
mod ready;

use std::cell::RefCell;
use std::collections::{HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::Duration;

use anyhow::{Result, bail};
use shakmaty::{Chess, Color};
use tokio::sync::{Notify, mpsc};
use tokio::task::LocalSet;

use touchmove::live::LiveGame;
use touchmove::online::OnlineGame;
use touchmove::online::lichess::ndjson::Line;
use touchmove::online::lichess::request::EVENT_STREAM;
use touchmove::online::lichess::start::{set_up_from, start_position};
use touchmove::online::lichess::wire::IncomingEvent;
use touchmove::output::pgn::PgnTags;
use touchmove::runner::Control;
use touchmove::sensor_log::{LogHeader, OnlineSeat};
use touchmove::timing::Timing;
use touchmove::watched::Players;

use super::args::OnlineArgs;
use touchmove_lichess::board_api::{Lichess, StreamFailure};
use touchmove_links::board::board_protocol;
use touchmove_matches::online_match::state::{Heard, OnlineSink, OnlineState};
use touchmove_matches::online_match::transport::{
    BACKOFF_MAX, Typed, open_game, read_game, send_requests, take_typed,
};
use touchmove_matches::runner::{self as matches, Match, Played};
use touchmove_runtime::files::resumed::Resumed;
use touchmove_web::PageSink;

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
    let file = file.map(|path| ("--token-file", path));
    let Some(token) = super::secrets::token(file, super::secrets::LICHESS_TOKEN)? else {
        bail!(
            "no token: set LICHESS_TOKEN (or give --token-file) to a Lichess token with the \
             board:play scope (https://lichess.org/account/oauth/token)"
        );
    };
    Ok(token)
}

/// The game `play` plays: its seat, its number in the session, what the player types.
struct Game<'a> {
    seat: &'a Seat,
    number: usize,
    typed: &'a Typed,
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
    touchmove_matches::online_match::keys::read_keys(typed_requests);
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
        opponent.display_name(),
        set_up_from(&start)
    );
    let board = &args.board;
    let match_board = super::session::match_board(board, None).await?;
    let protocol = match_board.protocol;
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
    let game = LiveGame::new(start.clone(), interpreter);
    // A new game's recording is the session's `--record` numbered for it; a resumed one's the
    // file named.
    let path = match (&board.record, &resumed) {
        (Some(path), None) => Some(game_log(path, number)),
        (path, Some(_)) => path.clone(),
        (None, None) => None,
    };
    let recording = matches::recording(path.as_deref(), resumed.as_ref(), || header)?;
    let tags = PgnTags {
        white: Some(full.white.display_name()),
        black: Some(full.black.display_name()),
        time_control: full
            .clock
            .map(|clock| format!("{}+{}", clock.initial / 1000, clock.increment / 1000)),
        ..PgnTags::default()
    };
    let out = super::session::outputs(board, recording, &start, tags.clone())?;
    let (controls, control_receiver) = mpsc::unbounded_channel();
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
    let mut a_match = Match {
        board: match_board,
        game,
        sink: OnlineSink(Rc::clone(&state)),
        controls: control_receiver,
    };
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
    a_match.resume(resumed.as_ref())?;
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
    drop(state);
    let Played { mut state, watched } = a_match
        .run(
            super::session::give_up_after(board),
            start_at,
            vec![reader, poster, keys],
            shutdown,
        )
        .await?;
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
}
