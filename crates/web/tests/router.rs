//! The web layer's routes driven in-process, as the binary serves them (the access guard
//! around the router) but without a socket: each request goes to the router as a tower
//! service. What the access rules (`access.rs`) and the handlers' documents say is what is
//! checked here, for a board that has not started a game.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::http::{Method, Request, StatusCode, header};
use shakmaty::Chess;
use tower::ServiceExt;

use touchmove_core::output::pgn::PgnTags;
use touchmove_spectators::watched::WatchedBoard;
use touchmove_web::access::{Access, Allowed};
use touchmove_web::board::{BoardHandle, Overview};
use touchmove_web::token::Token;
use touchmove_web::{routes, server};

/// One board, `board-1`, on a hall served at `listen` with what the operator `allowed`.
fn hall(listen: &str, allowed: Allowed) -> (Arc<BoardHandle>, Router) {
    let board = WatchedBoard::new(
        "board-1",
        "dgt",
        "/dev/ttyUSB0",
        Chess::default(),
        PgnTags::default(),
    );
    let handle = Arc::new(BoardHandle::new(board));
    let overview = Arc::new(Overview::new(vec![Arc::clone(&handle)]));
    let listen: SocketAddr = listen.parse().unwrap();
    let app = server::guarded(
        routes::router(overview),
        Access::new(listen, Arc::new(allowed)),
    );
    (handle, app)
}

fn request(
    method: Method,
    uri: &str,
    headers: &[(header::HeaderName, &str)],
    body: &str,
) -> Request<Body> {
    let mut builder = Request::builder().method(method).uri(uri);
    for (name, value) in headers {
        builder = builder.header(name, *value);
    }
    builder.body(Body::from(body.to_owned())).unwrap()
}

async fn answer(app: Router, request: Request<Body>) -> (StatusCode, String) {
    let response = app.oneshot(request).await.unwrap();
    let status = response.status();
    let body = to_bytes(response.into_body(), 1 << 20).await.unwrap();
    (status, String::from_utf8(body.to_vec()).unwrap())
}

#[tokio::test]
async fn the_boards_are_listed_to_a_page_of_this_machine() {
    let (_, app) = hall("127.0.0.1:8080", Allowed::default());
    let asked = request(
        Method::GET,
        "/api/boards",
        &[(header::HOST, "localhost:8080")],
        "",
    );
    let (status, body) = answer(app, asked).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let listed: serde_json::Value = serde_json::from_str(&body).unwrap();
    let boards = listed.as_array().expect("a list of boards");
    assert_eq!(boards.len(), 1);
    assert_eq!(boards[0]["name"], "board-1");
    assert_eq!(boards[0]["protocol"], "dgt");
    assert_eq!(boards[0]["started"], false);
    assert_eq!(boards[0]["ply"], 0);
}

#[tokio::test]
async fn a_request_naming_another_server_is_misdirected() {
    // A page of another site that rebinds its own name to this address (DNS rebinding).
    let (_, app) = hall("127.0.0.1:8080", Allowed::default());
    let asked = request(
        Method::GET,
        "/api/boards",
        &[(header::HOST, "evil.example")],
        "",
    );
    let (status, _) = answer(app, asked).await;
    assert_eq!(status, StatusCode::MISDIRECTED_REQUEST);
}

#[tokio::test]
async fn a_change_from_another_site_is_forbidden_even_with_the_token() {
    // A page of another site that learnt the token still cannot change a game: its Origin is
    // not this server's, nor an allowed one. With the same token and no Origin the request
    // passes the guard (the handler's 409: no game in progress).
    let allowed = Allowed {
        token: Token::new("s3cret"),
        ..Allowed::default()
    };
    let (board, app) = hall("127.0.0.1:8080", allowed);
    let mut controls = board.take_controls().expect("the board's controls");
    let resign = |origin: Option<&'static str>| {
        let mut headers = vec![
            (header::HOST, "localhost:8080"),
            (header::AUTHORIZATION, "Bearer s3cret"),
        ];
        headers.extend(origin.map(|origin| (header::ORIGIN, origin)));
        request(
            Method::POST,
            "/api/boards/board-1/result",
            &headers,
            "resigned white",
        )
    };
    let from_elsewhere = resign(Some("https://evil.example"));
    assert_eq!(
        answer(app.clone(), from_elsewhere).await.0,
        StatusCode::FORBIDDEN
    );
    assert!(controls.try_recv().is_err(), "nothing reached the board");
    assert_eq!(answer(app, resign(None)).await.0, StatusCode::CONFLICT);
}

#[tokio::test]
async fn the_arbiters_actions_need_the_token_even_on_this_machine() {
    // Any program or page on the machine could otherwise end a game (access.rs).
    let host = [(header::HOST, "127.0.0.1:8080")];
    let resign = || {
        request(
            Method::POST,
            "/api/boards/board-1/result",
            &host,
            "resigned white",
        )
    };
    let (_, untokened) = hall("127.0.0.1:8080", Allowed::default());
    assert_eq!(answer(untokened, resign()).await.0, StatusCode::FORBIDDEN);

    let allowed = Allowed {
        token: Token::new("s3cret"),
        ..Allowed::default()
    };
    let (_, app) = hall("127.0.0.1:8080", allowed);
    assert_eq!(
        answer(app.clone(), resign()).await.0,
        StatusCode::UNAUTHORIZED
    );
    // With the token, past the guard: the handler answers 409 for a board with no game in
    // progress, 400 for words that declare nothing, 404 for no such board (results.rs).
    let operator = |board: &str, words: &str| {
        request(
            Method::POST,
            &format!("/api/boards/{board}/result"),
            &[
                (header::HOST, "127.0.0.1:8080"),
                (header::AUTHORIZATION, "Bearer s3cret"),
            ],
            words,
        )
    };
    let resigned = operator("board-1", "resigned white");
    assert_eq!(answer(app.clone(), resigned).await.0, StatusCode::CONFLICT);
    let nonsense = operator("board-1", "white wins");
    assert_eq!(
        answer(app.clone(), nonsense).await.0,
        StatusCode::BAD_REQUEST
    );
    let nowhere = operator("board-9", "resigned white");
    assert_eq!(answer(app, nowhere).await.0, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn from_elsewhere_any_change_needs_the_operators_token() {
    // Resetting the latency figures changes something but is no arbiter's action: on this
    // machine it needs no token; on an address other machines reach, it does, and without a
    // token configured no change is taken there. Reading stays open to the public.
    let reset = |address: &str| {
        request(
            Method::POST,
            "/api/stats/reset",
            &[(header::HOST, address)],
            "",
        )
    };
    let (_, here) = hall("127.0.0.1:8080", Allowed::default());
    assert_eq!(
        answer(here, reset("127.0.0.1:8080")).await.0,
        StatusCode::NO_CONTENT
    );

    let (_, untokened) = hall("192.0.2.7:8080", Allowed::default());
    assert_eq!(
        answer(untokened.clone(), reset("192.0.2.7:8080")).await.0,
        StatusCode::FORBIDDEN
    );
    let read = request(
        Method::GET,
        "/api/boards",
        &[(header::HOST, "192.0.2.7:8080")],
        "",
    );
    assert_eq!(answer(untokened, read).await.0, StatusCode::OK);

    let allowed = Allowed {
        token: Token::new("s3cret"),
        ..Allowed::default()
    };
    let (_, tokened) = hall("192.0.2.7:8080", allowed);
    assert_eq!(
        answer(tokened.clone(), reset("192.0.2.7:8080")).await.0,
        StatusCode::UNAUTHORIZED
    );
    let with_token = request(
        Method::POST,
        "/api/stats/reset",
        &[
            (header::HOST, "192.0.2.7:8080"),
            (header::AUTHORIZATION, "Bearer s3cret"),
        ],
        "",
    );
    assert_eq!(answer(tokened, with_token).await.0, StatusCode::NO_CONTENT);
}
