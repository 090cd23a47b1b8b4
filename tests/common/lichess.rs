//! A stand-in for the Lichess Board API, written from its published OpenAPI description
//! (lichess-org/api, `doc/specs`): `GET /api/stream/event` and `GET /api/board/game/stream/{id}`
//! as ndjson with empty keep-alive lines, `POST /api/board/game/{id}/move/{uci}` and the other
//! game requests, a bearer token checked (401 otherwise); the game announced at once, or after
//! a challenge accepted (`POST /api/challenge/{id}/accept`) or a seek (`POST /api/board/seek`,
//! a stream kept open until the game starts). One game, the account's side given;
//! the opponent plays its moves from a script after a delay; clocks run in real time with the
//! increment. Faults on demand: the game stream cut after a number of lines, a request answered
//! 429 or 500. Every request is kept, with its answer's status.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Position};
use tokio::sync::mpsc;

/// The token the stand-in takes.
pub const TOKEN: &str = "lip_touchmoveOnlineTest0123456789";

/// The game's id.
pub const GAME: &str = "tmGame01";

/// How often an empty line is sent on a stream.
const KEEP_ALIVE: Duration = Duration::from_millis(500);

/// What the stand-in does.
#[derive(Debug, Clone)]
pub struct Script {
    /// The account's side.
    pub player: Color,
    /// The whole game, in UCI: the account's moves are expected, the opponent's played.
    pub moves: Vec<String>,
    /// How long the opponent takes to reply.
    pub reply: Duration,
    /// The clock: initial and increment, in ms.
    pub clock: (u64, u64),
    /// The first game stream is cut after this many lines (keep-alives not counted).
    pub cut_stream_after: Option<usize>,
    /// The move requests answered 429 (numbered from 0 among move requests).
    pub rate_limit_moves: Vec<usize>,
    /// The move requests answered 500 without being taken.
    pub fail_moves: Vec<usize>,
    /// How the game comes about.
    pub announce: Announce,
    /// The opponent offers a draw with the move that makes this many plies (the offer stands
    /// until the account answers it or moves).
    pub offer_draw_at: Option<usize>,
    /// The opponent makes no move once this many plies stand (it thinks on and on).
    pub silent_after: Option<usize>,
    /// The opponent accepts the account's draw offer at once (else leaves it standing).
    pub accepts_draw: bool,
    /// The position the game starts from (FEN; `None`: the standard start).
    pub initial_fen: Option<&'static str>,
    /// The variant's key (`standard`, `chess960`): in the game's announcement, its challenge
    /// and its stream. In Chess960 castling is the king taking its rook in UCI, as the API
    /// writes it.
    pub variant: &'static str,
    /// The server aborts the game (status `aborted`) this long after it started if no move has
    /// been made, as Lichess aborts a game nobody starts.
    pub aborted_after: Option<Duration>,
}

impl Script {
    /// The account plays `player` in the game `moves` (UCI); the opponent replies after 300 ms,
    /// 10 minutes and 2 s a move, the game going on at once, without faults or offers.
    pub fn new(player: Color, moves: &[String]) -> Script {
        Script {
            player,
            moves: moves.to_vec(),
            reply: Duration::from_millis(300),
            clock: (600_000, 2_000),
            cut_stream_after: None,
            rate_limit_moves: Vec::new(),
            fail_moves: Vec::new(),
            announce: Announce::AtOnce,
            offer_draw_at: None,
            silent_after: None,
            accepts_draw: false,
            initial_fen: None,
            variant: "standard",
            aborted_after: None,
        }
    }
}

/// How the game comes about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Announce {
    /// It is going on from the start.
    AtOnce,
    /// A challenge from this user (its id): the game starts once it is accepted.
    Challenge(&'static str),
    /// The game starts once the account seeks one.
    Seek,
}

/// The challenge's id.
pub const CHALLENGE: &str = "tmChal01";

/// A request the stand-in received.
#[derive(Debug, Clone)]
pub struct Received {
    pub method: String,
    pub path: String,
    pub status: u16,
    pub at: Instant,
    pub authorization: Option<String>,
}

struct Game {
    script: Script,
    moves: Vec<String>,
    position: Chess,
    status: &'static str,
    times: [u64; 2],
    since: Instant,
    game_streams: Vec<mpsc::UnboundedSender<String>>,
    /// The `gameStart` line of the game.
    game_start: Option<String>,
    /// The event streams open, and whether the game has been announced on them.
    event_streams: Vec<mpsc::UnboundedSender<String>>,
    announced: bool,
    /// The seeks open: closed when the game starts.
    seeks: Vec<mpsc::UnboundedSender<String>>,
    streams_opened: usize,
    move_requests: usize,
    received: Vec<Received>,
    /// Each side's draw offer and takeback proposal standing (White's first).
    draw_offers: [bool; 2],
    takeback_proposals: [bool; 2],
}

#[derive(Clone)]
struct Shared(Arc<Mutex<Game>>);

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Game> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The running stand-in.
pub struct StandIn {
    pub url: String,
    shared: Shared,
}

impl StandIn {
    /// Starts the stand-in on a free port of the loopback address, served by a thread of its
    /// own.
    pub fn start(script: Script) -> StandIn {
        StandIn::start_on(script, 0)
    }

    /// Starts the stand-in on `port` of the loopback address (0: a free one).
    pub fn start_on(script: Script, port: u16) -> StandIn {
        let mode = if script.variant == "chess960" {
            shakmaty::CastlingMode::Chess960
        } else {
            shakmaty::CastlingMode::Standard
        };
        let position = script.initial_fen.map_or_else(Chess::default, |fen| {
            fen.parse::<shakmaty::fen::Fen>()
                .expect("a FEN")
                .into_position(mode)
                .expect("a position")
        });
        let (initial, _) = script.clock;
        let announced = script.announce == Announce::AtOnce;
        let shared = Shared(Arc::new(Mutex::new(Game {
            script,
            moves: Vec::new(),
            position,
            status: "started",
            times: [initial, initial],
            since: Instant::now(),
            game_streams: Vec::new(),
            game_start: None,
            event_streams: Vec::new(),
            announced,
            seeks: Vec::new(),
            streams_opened: 0,
            move_requests: 0,
            received: Vec::new(),
            draw_offers: [false; 2],
            takeback_proposals: [false; 2],
        })));
        let app = Router::new()
            .route("/api/stream/event", get(event_stream))
            .route("/api/board/game/stream/{id}", get(game_stream))
            .route("/api/board/game/{id}/move/{uci}", post(make_move))
            .route("/api/challenge/{id}/accept", post(accept))
            .route("/api/board/seek", post(seek))
            .route("/api/board/game/{id}/{action}", post(game_action))
            .route("/api/board/game/{id}/{action}/{answer}", post(game_answer))
            .route("/api/token/test", post(token_test))
            .with_state(shared.clone());
        let (address, told) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
                    .await
                    .expect("a port");
                let _ = address.send(listener.local_addr().expect("an address"));
                let _ = axum::serve(listener, app).await;
            });
        });
        let url = format!("http://{}", told.recv().expect("the stand-in's address"));
        // The opponent moves first when the account plays Black.
        {
            let mut game = shared.lock();
            if game.announced {
                abort_unless_started(&game, &shared);
            }
            opponent_moves(&mut game, &shared);
        }
        StandIn { url, shared }
    }

    /// The server's moves.
    pub fn moves(&self) -> Vec<String> {
        self.shared.lock().moves.clone()
    }

    /// Every request received, in order.
    pub fn received(&self) -> Vec<Received> {
        self.shared.lock().received.clone()
    }

    /// Every `POST` received, in order: its path and the status it was answered with.
    pub fn posts(&self) -> Vec<(String, u16)> {
        self.received()
            .into_iter()
            .filter(|r| r.method == "POST")
            .map(|r| (r.path, r.status))
            .collect()
    }

    /// The game's status.
    pub fn status(&self) -> &'static str {
        self.shared.lock().status
    }

    /// Both times left now (White's first, in ms), the side to move's counted down.
    pub fn clock(&self) -> [u64; 2] {
        clock_now(&self.shared.lock())
    }
}

/// The script's game as a PGN file, for the emulated board's hands (`emulate --pgn`): `sans`
/// numbered in pairs, under an `Event` tag.
pub fn script_pgn(event: &str, sans: &[String]) -> String {
    let movetext: Vec<String> = sans
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" ")))
        .collect();
    format!("[Event \"{event}\"]\n\n{} *\n", movetext.join(" "))
}

fn authorized(headers: &HeaderMap) -> Option<String> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned)
}

fn refused_token() -> Response {
    (
        StatusCode::UNAUTHORIZED,
        axum::Json(json!({"error": "No such token"})),
    )
        .into_response()
}

fn keep(game: &mut Game, method: &str, path: String, status: u16, headers: &HeaderMap) {
    game.received.push(Received {
        method: method.to_owned(),
        path,
        status,
        at: Instant::now(),
        authorization: authorized(headers),
    });
}

/// The account's user id, as `/api/token/test` names it.
pub const USER_ID: &str = "player";

/// `POST /api/token/test` (lichess-org/api, `doc/specs/tags/oauth/api-token-test.yaml`): the
/// body is tokens separated by commas; each is answered with its account and scopes (the
/// stand-in's token has `board:play`, as online play's needs), or `null` if unknown. No
/// `Authorization` is needed.
async fn token_test(State(shared): State<Shared>, headers: HeaderMap, body: String) -> Response {
    let mut answer = serde_json::Map::new();
    for token in body.split(',').map(str::trim) {
        let entry = if token == TOKEN {
            json!({"userId": USER_ID, "scopes": "board:play", "expires": null})
        } else {
            Value::Null
        };
        answer.insert(token.to_owned(), entry);
    }
    let mut game = shared.lock();
    keep(
        &mut game,
        "POST",
        "/api/token/test".to_owned(),
        200,
        &headers,
    );
    axum::Json(Value::Object(answer)).into_response()
}

fn token_ok(headers: &HeaderMap) -> bool {
    authorized(headers).as_deref() == Some(&format!("Bearer {TOKEN}"))
}

/// An ndjson stream of `first` lines, then what `rx` sends, with keep-alives; it ends when
/// `rx` does.
fn ndjson(first: Vec<String>, rx: mpsc::UnboundedReceiver<String>) -> Response {
    let state = (VecDeque::from(first), rx, tokio::time::interval(KEEP_ALIVE));
    let stream = futures_util::stream::unfold(state, |(mut first, mut rx, mut tick)| async move {
        if let Some(line) = first.pop_front() {
            return Some((
                Ok::<_, Infallible>(Bytes::from(line + "\n")),
                (first, rx, tick),
            ));
        }
        tokio::select! {
            line = rx.recv() => line.map(|line| (Ok(Bytes::from(line + "\n")), (first, rx, tick))),
            _ = tick.tick() => Some((Ok(Bytes::from_static(b"\n")), (first, rx, tick))),
        }
    });
    Response::builder()
        .header(header::CONTENT_TYPE, "application/x-ndjson")
        .body(Body::from_stream(stream))
        .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
}

async fn event_stream(State(shared): State<Shared>, headers: HeaderMap) -> Response {
    let mut game = shared.lock();
    if !token_ok(&headers) {
        keep(
            &mut game,
            "GET",
            "/api/stream/event".to_owned(),
            401,
            &headers,
        );
        return refused_token();
    }
    keep(
        &mut game,
        "GET",
        "/api/stream/event".to_owned(),
        200,
        &headers,
    );
    let side = if game.script.player == Color::White {
        "white"
    } else {
        "black"
    };
    let variant = variant_json(game.script.variant);
    let start = json!({"type": "gameStart", "game": {
        "fullId": format!("{GAME}abcd"), "gameId": GAME, "id": GAME, "color": side,
        "fen": game.script.initial_fen
            .unwrap_or("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        "source": "friend", "status": {"id": 20, "name": "started"},
        "variant": variant, "speed": "rapid", "perf": "rapid",
        "rated": false, "hasMoved": false, "isMyTurn": true, "secondsLeft": 600,
        "opponent": {"id": "mary", "username": "Mary", "rating": 1500},
        "compat": {"bot": false, "board": true}}});
    let first = match (&game.script.announce, game.announced) {
        _ if game.status != "started" => Vec::new(),
        (_, true) => vec![start.to_string()],
        (Announce::Challenge(by), false) => vec![
            json!({"type": "challenge", "challenge": {
            "id": CHALLENGE, "url": format!("https://lichess.org/{CHALLENGE}"),
            "status": "created", "direction": "in",
            "challenger": {"id": by, "name": by, "rating": 1500},
            "destUser": {"id": "player", "name": "Player", "rating": 1500},
            "variant": variant_json(game.script.variant),
            "rated": false, "speed": "rapid",
            "timeControl": {"type": "clock", "limit": 600, "increment": 2, "show": "10+2"},
            "color": "black", "finalColor": "black", "perf": {"name": "Rapid"}}})
            .to_string(),
        ],
        (_, false) => Vec::new(),
    };
    // The stream stays open (keep-alives) for the session's life; the game is announced on it
    // when it starts.
    let (tx, rx) = mpsc::unbounded_channel();
    game.event_streams.push(tx);
    game.game_start = Some(start.to_string());
    ndjson(first, rx)
}

/// The variant as the API describes it.
fn variant_json(key: &str) -> Value {
    match key {
        "chess960" => json!({"key": "chess960", "name": "Chess960", "short": "960"}),
        "standard" => json!({"key": "standard", "name": "Standard", "short": "Std"}),
        other => json!({"key": other, "name": other, "short": other}),
    }
}

/// The game starts: announced on every event stream, the seeks closed; aborted later if the
/// script says so and nobody moves.
fn announce(game: &mut Game, shared: &Shared) {
    game.announced = true;
    game.since = Instant::now();
    game.seeks.clear();
    if let Some(start) = game.game_start.clone() {
        game.event_streams
            .retain(|tx| tx.send(start.clone()).is_ok());
    }
    abort_unless_started(game, shared);
}

/// With `aborted_after`, the game is aborted that long from now if no move stands by then.
fn abort_unless_started(game: &Game, shared: &Shared) {
    let Some(after) = game.script.aborted_after else {
        return;
    };
    let shared = shared.clone();
    std::thread::spawn(move || {
        std::thread::sleep(after);
        let mut game = shared.lock();
        if game.status == "started" && game.moves.is_empty() {
            game.status = "aborted";
            broadcast(&mut game);
        }
    });
}

async fn accept(
    State(shared): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let mut game = shared.lock();
    let path = format!("/api/challenge/{id}/accept");
    let expected = matches!(game.script.announce, Announce::Challenge(_)) && !game.announced;
    if !token_ok(&headers) {
        keep(&mut game, "POST", path, 401, &headers);
        return refused_token();
    }
    if id != CHALLENGE || !expected {
        keep(&mut game, "POST", path, 404, &headers);
        return (
            StatusCode::NOT_FOUND,
            axum::Json(json!({"error": "Not found"})),
        )
            .into_response();
    }
    keep(&mut game, "POST", path, 200, &headers);
    announce(&mut game, &shared);
    axum::Json(json!({"ok": true})).into_response()
}

/// `POST /api/board/seek`: the form kept as the request's path (`/api/board/seek?FORM`); the
/// answer a stream kept open until the game starts.
async fn seek(State(shared): State<Shared>, headers: HeaderMap, body: String) -> Response {
    let mut game = shared.lock();
    let path = format!("/api/board/seek?{body}");
    if !token_ok(&headers) {
        keep(&mut game, "POST", path, 401, &headers);
        return refused_token();
    }
    keep(&mut game, "POST", path, 200, &headers);
    let (tx, rx) = mpsc::unbounded_channel();
    game.seeks.push(tx);
    if game.script.announce == Announce::Seek && !game.announced {
        announce(&mut game, &shared);
    }
    ndjson(Vec::new(), rx)
}

async fn game_stream(
    State(shared): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let mut game = shared.lock();
    let path = format!("/api/board/game/stream/{id}");
    if !token_ok(&headers) {
        keep(&mut game, "GET", path, 401, &headers);
        return refused_token();
    }
    if id != GAME {
        keep(&mut game, "GET", path, 404, &headers);
        return (
            StatusCode::NOT_FOUND,
            axum::Json(json!({"error": "Not found"})),
        )
            .into_response();
    }
    keep(&mut game, "GET", path, 200, &headers);
    game.streams_opened += 1;
    let (initial, increment) = game.script.clock;
    let (white, black) = if game.script.player == Color::White {
        (
            json!({"id": "player", "name": "Player", "rating": 1500}),
            json!({"id": "mary", "name": "Mary", "rating": 1500}),
        )
    } else {
        (
            json!({"id": "mary", "name": "Mary", "rating": 1500}),
            json!({"id": "player", "name": "Player", "rating": 1500}),
        )
    };
    let full = json!({
        "type": "gameFull", "id": GAME, "variant": variant_json(game.script.variant),
        "clock": {"initial": initial, "increment": increment}, "speed": "rapid",
        "perf": {"name": "Rapid"}, "rated": false, "createdAt": 1_700_000_000_000u64,
        "white": white, "black": black,
        "initialFen": game.script.initial_fen.unwrap_or("startpos"),
        "state": state(&game),
    });
    let (tx, rx) = mpsc::unbounded_channel();
    let cut = (game.streams_opened == 1)
        .then_some(game.script.cut_stream_after)
        .flatten();
    if game.status == "started" {
        // A stream cut after `cut` lines: the sender counts them.
        if let Some(cut) = cut {
            let (inner_tx, mut inner_rx) = mpsc::unbounded_channel::<String>();
            let mut left = cut.saturating_sub(1);
            tokio::spawn(async move {
                while let Some(line) = inner_rx.recv().await {
                    if left == 0 {
                        return;
                    }
                    left -= 1;
                    if tx.send(line).is_err() {
                        return;
                    }
                }
            });
            game.game_streams.push(inner_tx);
        } else {
            game.game_streams.push(tx);
        }
    }
    ndjson(vec![full.to_string()], rx)
}

/// The game's state line.
fn state(game: &Game) -> Value {
    let [wtime, btime] = clock_now(game);
    let (_, increment) = game.script.clock;
    let mut state = json!({
        "type": "gameState", "moves": game.moves.join(" "), "wtime": wtime, "btime": btime,
        "winc": increment, "binc": increment, "status": game.status,
        "wdraw": game.draw_offers[0], "bdraw": game.draw_offers[1],
        "wtakeback": game.takeback_proposals[0], "btakeback": game.takeback_proposals[1],
    });
    // Only the account resigns here; a game ended otherwise is lost by the side to move.
    let winner = match game.status {
        "started" | "draw" | "aborted" => None,
        "resign" => Some(game.script.player.other()),
        _ => Some(game.position.turn().other()),
    };
    if let Some(winner) = winner {
        state["winner"] = json!(if winner == Color::White {
            "white"
        } else {
            "black"
        });
    }
    state
}

/// Both times now, the side to move's counted down since its turn began.
fn clock_now(game: &Game) -> [u64; 2] {
    let mut times = game.times;
    if game.status == "started" && !game.moves.is_empty() {
        let mover = usize::from(game.position.turn() == Color::Black);
        let spent = u64::try_from(game.since.elapsed().as_millis()).unwrap_or(u64::MAX);
        times[mover] = times[mover].saturating_sub(spent);
    }
    times
}

/// Plays `uci` in the game: the clock of its side stopped with the increment, the state sent.
fn play(game: &mut Game, uci: &str) -> Result<(), String> {
    let m = UciMove::from_ascii(uci.as_bytes())
        .map_err(|_| format!("Invalid UCI {uci}"))?
        .to_move(&game.position)
        .map_err(|_| format!("Illegal move {uci}"))?;
    let mover = usize::from(game.position.turn() == Color::Black);
    if !game.moves.is_empty() {
        game.times = clock_now(game);
        let (_, increment) = game.script.clock;
        game.times[mover] = game.times[mover].saturating_add(increment);
    }
    game.position.play_unchecked(m);
    game.moves.push(uci.to_owned());
    game.since = Instant::now();
    // A move answers the offers standing; the opponent may make one with it.
    game.draw_offers = [false; 2];
    game.takeback_proposals = [false; 2];
    if mover != side_index(game.script.player)
        && game.script.offer_draw_at == Some(game.moves.len())
    {
        game.draw_offers[mover] = true;
    }
    if game.moves.len() >= game.script.moves.len() {
        game.status = "draw";
    }
    broadcast(game);
    Ok(())
}

fn broadcast(game: &mut Game) {
    let line = state(game).to_string();
    game.game_streams.retain(|tx| tx.send(line.clone()).is_ok());
    if game.status != "started" {
        game.game_streams.clear();
    }
}

/// A side's index in the pairs of offers (White's first).
fn side_index(color: Color) -> usize {
    usize::from(color == Color::Black)
}

/// The opponent's scripted reply, after the script's delay, if it is the opponent's turn.
fn opponent_moves(game: &mut Game, shared: &Shared) {
    if game.status != "started" || game.position.turn() == game.script.player {
        return;
    }
    if game
        .script
        .silent_after
        .is_some_and(|plies| game.moves.len() >= plies)
    {
        return;
    }
    let Some(next) = game.script.moves.get(game.moves.len()).cloned() else {
        return;
    };
    let reply = game.script.reply;
    let shared = shared.clone();
    std::thread::spawn(move || {
        std::thread::sleep(reply);
        let mut game = shared.lock();
        if game.moves.len() < game.script.moves.len() && game.position.turn() != game.script.player
        {
            let _ = play(&mut game, &next);
        }
    });
}

async fn make_move(
    State(shared): State<Shared>,
    Path((id, uci)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let mut game = shared.lock();
    let path = format!("/api/board/game/{id}/move/{uci}");
    if !token_ok(&headers) {
        keep(&mut game, "POST", path, 401, &headers);
        return refused_token();
    }
    let number = game.move_requests;
    game.move_requests += 1;
    if game.script.rate_limit_moves.contains(&number) {
        keep(&mut game, "POST", path, 429, &headers);
        // Retry-After says how long: the client follows it (the API asks for a minute when it
        // says nothing).
        return (
            StatusCode::TOO_MANY_REQUESTS,
            [(header::RETRY_AFTER, "2")],
            axum::Json(json!({"error": "Too many requests"})),
        )
            .into_response();
    }
    if game.script.fail_moves.contains(&number) {
        keep(&mut game, "POST", path, 500, &headers);
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    }
    let refused = |game: &mut Game, why: String, headers: &HeaderMap| {
        keep(
            game,
            "POST",
            format!("/api/board/game/{id}/move/{uci}"),
            400,
            headers,
        );
        (StatusCode::BAD_REQUEST, axum::Json(json!({"error": why}))).into_response()
    };
    if id != GAME || game.status != "started" {
        return refused(&mut game, "No such game in progress".to_owned(), &headers);
    }
    if game.position.turn() != game.script.player {
        return refused(
            &mut game,
            "Not your turn, or game already over".to_owned(),
            &headers,
        );
    }
    if let Err(why) = play(&mut game, &uci) {
        return refused(&mut game, why, &headers);
    }
    keep(&mut game, "POST", path, 200, &headers);
    opponent_moves(&mut game, &shared);
    axum::Json(json!({"ok": true})).into_response()
}

async fn game_action(
    State(shared): State<Shared>,
    Path((id, action)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let mut game = shared.lock();
    let path = format!("/api/board/game/{id}/{action}");
    if !token_ok(&headers) {
        keep(&mut game, "POST", path, 401, &headers);
        return refused_token();
    }
    let moved = game.moves.len();
    match action.as_str() {
        "resign" if game.status == "started" => {
            // The account resigned: the opponent wins, whoever is to move.
            game.status = "resign";
            broadcast(&mut game);
            keep(&mut game, "POST", path, 200, &headers);
            axum::Json(json!({"ok": true})).into_response()
        }
        "abort" if game.status == "started" && moved < 2 => {
            game.status = "aborted";
            broadcast(&mut game);
            keep(&mut game, "POST", path, 200, &headers);
            axum::Json(json!({"ok": true})).into_response()
        }
        _ => {
            keep(&mut game, "POST", path, 400, &headers);
            (
                StatusCode::BAD_REQUEST,
                axum::Json(json!({"error": "Not possible"})),
            )
                .into_response()
        }
    }
}

/// `POST /api/board/game/{id}/draw/{yes|no}` and `.../takeback/{yes|no}`: the account offers
/// or accepts (`yes`), or declines the opponent's (`no`). The opponent accepts a draw offer if
/// the script says so, and declines every takeback after its reply delay.
async fn game_answer(
    State(shared): State<Shared>,
    Path((id, action, answer)): Path<(String, String, String)>,
    headers: HeaderMap,
) -> Response {
    let mut game = shared.lock();
    let path = format!("/api/board/game/{id}/{action}/{answer}");
    if !token_ok(&headers) {
        keep(&mut game, "POST", path, 401, &headers);
        return refused_token();
    }
    let me = side_index(game.script.player);
    let opponent = 1 - me;
    let yes = match answer.as_str() {
        "yes" => true,
        "no" => false,
        _ => {
            keep(&mut game, "POST", path, 400, &headers);
            return (
                StatusCode::BAD_REQUEST,
                axum::Json(json!({"error": "yes or no"})),
            )
                .into_response();
        }
    };
    if id != GAME || game.status != "started" || !matches!(action.as_str(), "draw" | "takeback") {
        keep(&mut game, "POST", path, 400, &headers);
        return (
            StatusCode::BAD_REQUEST,
            axum::Json(json!({"error": "Not possible"})),
        )
            .into_response();
    }
    match (action.as_str(), yes) {
        ("draw", true) if game.draw_offers[opponent] || game.script.accepts_draw => {
            game.draw_offers = [false; 2];
            game.status = "draw";
        }
        ("draw", true) => game.draw_offers[me] = true,
        ("draw", false) => game.draw_offers[opponent] = false,
        ("takeback", true) => {
            game.takeback_proposals[me] = true;
            let reply = game.script.reply;
            let shared = shared.clone();
            std::thread::spawn(move || {
                std::thread::sleep(reply);
                let mut game = shared.lock();
                if game.status == "started" && game.takeback_proposals[me] {
                    game.takeback_proposals[me] = false;
                    broadcast(&mut game);
                }
            });
        }
        _ => game.takeback_proposals[opponent] = false,
    }
    broadcast(&mut game);
    keep(&mut game, "POST", path, 200, &headers);
    axum::Json(json!({"ok": true})).into_response()
}
