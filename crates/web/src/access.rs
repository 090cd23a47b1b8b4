//! Who may use what `serve` answers: only the operator changes a game.
//!
//! - Every request must name this server in its `Host` (a loopback name, an address literal of
//!   the listening address, or a name given with `--allow-host`): a page of another site
//!   that rebinds its own name to this address is refused, and so cannot read anything.
//! - A WebSocket upgrade and every request that changes something must come from no page (a
//!   native client sends no `Origin`), from the server's own pages, or from an allowed origin
//!   (lichess.org and chess.com, whose e-board pages talk to `ws://localhost:1982`, and those
//!   given with `--allow-origin`).
//! - On an address other machines can reach, a change also needs the operator's token
//!   (`--token` or `TOUCHMOVE_TOKEN`), as `Authorization: Bearer TOKEN` (or, for a WebSocket
//!   a browser opens, `?token=TOKEN`). Without a token configured, no change is taken there.
//! - The operator's own actions (a result declared for a board, time given a player, a note)
//!   need the operator's token on every address, the machine's own included: any program or
//!   page on it could otherwise end a game. Without a token configured, none is taken.
//!
//! The rules are plain functions of the request's headers, tested here; `guard` applies them to
//! every request as an axum middleware.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use touchmove_core::output::excerpt::excerpt;

use crate::token::Token;

/// The origins allowed by default: the e-board pages of lichess.org and chess.com, which talk
/// to DGT LiveChess on `ws://localhost:1982`.
pub const DEFAULT_ORIGINS: [&str; 2] = ["https://lichess.org", "https://www.chess.com"];

/// The name of the environment variable that may hold the operator's token.
pub const TOKEN_VARIABLE: &str = "TOUCHMOVE_TOKEN";

/// What the operator allowed, from the command line.
#[derive(Debug, Clone, Default)]
pub struct Allowed {
    /// Origins besides the defaults (`https://example.org`).
    pub origins: Vec<String>,
    /// Host names besides loopback names and the listening address.
    pub hosts: Vec<String>,
    /// The operator's token.
    pub token: Option<Token>,
}

/// Why a request is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The `Host` names another server.
    #[error(
        "Host `{0}` is not this server: it answers for localhost, its listening address and \
         --allow-host names"
    )]
    Host(String),
    /// The page asking is from a site that may not open a WebSocket or change anything.
    #[error(
        "a page from {0} may not open this WebSocket or change anything here (allowed: pages \
         of this server, {allowed} and --allow-origin)",
        allowed = DEFAULT_ORIGINS.join(", ")
    )]
    Origin(String),
    /// A change on an address other machines reach, without the operator's token.
    #[error(
        "a change here needs the operator's token (Authorization: Bearer TOKEN; serve takes it \
         from --token or {TOKEN_VARIABLE})"
    )]
    Token,
    /// An operator's action, and no token was configured.
    #[error(
        "an arbiter's action needs the operator's token, and serve was started without one \
         (start it with --token or {TOKEN_VARIABLE})"
    )]
    NoOperatorToken,
    /// A change on an address other machines reach, and no token was configured.
    #[error(
        "serve listens on {0}, which other machines reach, with no operator's token: nothing \
         may be changed (start it with --token or {TOKEN_VARIABLE} to allow changes)"
    )]
    NoToken(SocketAddr),
}

impl Refusal {
    /// The status it is answered with.
    pub fn status(&self) -> StatusCode {
        match self {
            Refusal::Host(_) => StatusCode::MISDIRECTED_REQUEST,
            Refusal::Origin(_) | Refusal::NoToken(_) | Refusal::NoOperatorToken => {
                StatusCode::FORBIDDEN
            }
            Refusal::Token => StatusCode::UNAUTHORIZED,
        }
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        (self.status(), format!("{self}\n")).into_response()
    }
}

/// The rules of one listening address.
#[derive(Debug, Clone)]
pub struct Access {
    listen: SocketAddr,
    allowed: Arc<Allowed>,
}

impl Access {
    /// The rules for a server listening on `listen`, with what the operator allowed.
    pub fn new(listen: SocketAddr, allowed: Arc<Allowed>) -> Access {
        Access { listen, allowed }
    }

    /// Whether machines other than this one reach the server.
    pub fn reachable_from_elsewhere(&self) -> bool {
        !self.listen.ip().is_loopback()
    }

    /// Whether `host` (a `Host` header: a name or an address, with or without a port) names
    /// this server. A request without one (an HTTP/1.0 client) is taken: no browser sends
    /// one without it.
    pub fn check_host(&self, host: Option<&str>) -> Result<(), Refusal> {
        let Some(host) = host else {
            return Ok(());
        };
        let name = host_name(host);
        let ours = is_loopback_name(&name)
            || match name.parse::<IpAddr>() {
                Ok(ip) => {
                    ip.is_loopback() || ip == self.listen.ip() || self.listen.ip().is_unspecified()
                }
                Err(_) => self
                    .allowed
                    .hosts
                    .iter()
                    .any(|allowed| allowed.eq_ignore_ascii_case(&name)),
            };
        if ours {
            Ok(())
        } else {
            Err(Refusal::Host(excerpt(host)))
        }
    }

    /// Whether a page of `origin` (the `Origin` header; `None`: not a page) may open a
    /// WebSocket or ask for a change of a server it reached as `host`.
    pub fn check_origin(&self, origin: Option<&str>, host: Option<&str>) -> Result<(), Refusal> {
        let Some(origin) = origin else {
            return Ok(());
        };
        let origin = origin.trim().trim_end_matches('/');
        let own = host.is_some_and(|host| {
            origin.eq_ignore_ascii_case(&format!("http://{host}"))
                || origin.eq_ignore_ascii_case(&format!("https://{host}"))
        });
        let allowed = DEFAULT_ORIGINS
            .iter()
            .copied()
            .chain(self.allowed.origins.iter().map(String::as_str))
            .any(|allowed| allowed.trim_end_matches('/').eq_ignore_ascii_case(origin));
        if own || allowed {
            Ok(())
        } else {
            Err(Refusal::Origin(excerpt(origin)))
        }
    }

    /// Whether a change may be made with `given`, the token the request carries (if any): on
    /// a loopback address, always; elsewhere, with the operator's token only.
    pub fn check_change(&self, given: Option<&str>) -> Result<(), Refusal> {
        if !self.reachable_from_elsewhere() {
            return Ok(());
        }
        let Some(token) = &self.allowed.token else {
            return Err(Refusal::NoToken(self.listen));
        };
        if given.is_some_and(|given| token.matches(given)) {
            Ok(())
        } else {
            Err(Refusal::Token)
        }
    }

    /// Whether an operator's action may be made with `given`, the token the request carries:
    /// with the operator's token only, on every address.
    pub fn check_operator(&self, given: Option<&str>) -> Result<(), Refusal> {
        let Some(token) = &self.allowed.token else {
            return Err(Refusal::NoOperatorToken);
        };
        if given.is_some_and(|given| token.matches(given)) {
            Ok(())
        } else {
            Err(Refusal::Token)
        }
    }

    /// The request's host and origin checked, and, for a request that changes something (any
    /// method but GET, HEAD and OPTIONS), its token.
    pub fn check_request(
        &self,
        method: &Method,
        headers: &HeaderMap,
        query: Option<&str>,
    ) -> Result<(), Refusal> {
        let host = text(headers, header::HOST);
        self.check_host(host)?;
        let upgrade = headers.contains_key(header::UPGRADE);
        let changes = !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS);
        if upgrade || changes {
            self.check_origin(text(headers, header::ORIGIN), host)?;
        }
        if changes {
            self.check_change(given_token(headers, query).as_deref())?;
        }
        Ok(())
    }

    /// Whether a request's token (its headers and query) allows changes (for a WebSocket,
    /// whose calls are checked one by one).
    pub fn may_change(&self, headers: &HeaderMap, query: Option<&str>) -> Result<(), Refusal> {
        self.check_change(given_token(headers, query).as_deref())
    }
}

/// The path that answers `200` to the operator's token alone (`401` to any other): the
/// console signs in with it.
pub const OPERATOR_CHECK: &str = "/api/operator";

/// Who asks, for what a request is shown: a request with the operator's token sees every
/// board live; any other is the public's (which `serve --public-delay` shows late).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewer {
    /// The operator's token came with the request.
    Operator,
    /// Anyone else.
    Public,
}

/// The middleware: refuses what [`Access::check_request`] refuses, with its reason; a request
/// let through carries its [`Viewer`].
pub async fn guard(State(access): State<Access>, mut request: Request, next: Next) -> Response {
    let query = request.uri().query();
    let given = given_token(request.headers(), query);
    let viewer = match access.check_operator(given.as_deref()) {
        Ok(()) => Viewer::Operator,
        Err(_) => Viewer::Public,
    };
    let checked = access
        .check_request(request.method(), request.headers(), query)
        .and_then(|()| {
            if is_operator_action(request.uri().path()) {
                access.check_operator(given.as_deref())
            } else {
                Ok(())
            }
        });
    match checked {
        Ok(()) => {
            request.extensions_mut().insert(viewer);
            next.run(request).await
        }
        Err(refusal) => {
            tracing::debug!(%refusal, "request refused");
            refusal.into_response()
        }
    }
}

/// Whether `path` is one of the operator's own actions: `/api/boards/NAME/` and `result`,
/// `time`, `clock`, `note`, `tag`, `reinstate` or `flip`; or `/api/operator`, which checks the
/// operator's token (the console's sign-in).
pub fn is_operator_action(path: &str) -> bool {
    if path == OPERATOR_CHECK {
        return true;
    }
    path.strip_prefix("/api/boards/")
        .and_then(|rest| rest.split('/').nth(1))
        .is_some_and(|action| {
            matches!(
                action,
                "result" | "time" | "clock" | "note" | "tag" | "reinstate" | "flip"
            )
        })
}

/// A header's value as text, if it is there and is text.
fn text(headers: &HeaderMap, name: header::HeaderName) -> Option<&str> {
    headers.get(name).and_then(|value| value.to_str().ok())
}

/// The token a request carries: `Authorization: Bearer TOKEN`, else a `token` query parameter
/// (a browser cannot give a WebSocket a header).
fn given_token(headers: &HeaderMap, query: Option<&str>) -> Option<String> {
    let bearer = text(headers, header::AUTHORIZATION)
        .and_then(|value| value.strip_prefix("Bearer "))
        .map(|token| token.trim().to_owned());
    bearer.or_else(|| {
        query?
            .split('&')
            .find_map(|pair| pair.strip_prefix("token="))
            .map(percent_decoded)
    })
}

/// `%XX` escapes decoded (a token is printable ASCII; what is no escape is kept as it came).
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        let escaped = (byte == b'%')
            .then(|| {
                let digits = std::str::from_utf8(bytes.get(at + 1..at + 3)?).ok()?;
                u8::from_str_radix(digits, 16).ok()
            })
            .flatten();
        match escaped {
            Some(decoded) => {
                out.push(decoded);
                at += 3;
            }
            None => {
                out.push(byte);
                at += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The name part of a `Host` value: without its port, an IPv6 address without its brackets,
/// in lower case.
fn host_name(host: &str) -> String {
    let host = host.trim();
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or(rest),
        None => host.rsplit_once(':').map_or(host, |(name, _port)| name),
    };
    name.trim_end_matches('.').to_ascii_lowercase()
}

/// `localhost` and its subdomains (which browsers resolve to loopback themselves).
fn is_loopback_name(name: &str) -> bool {
    name == "localhost" || name.ends_with(".localhost")
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn rules(listen: &str, allowed: Allowed) -> Access {
        Access::new(
            listen.parse().unwrap_or_else(|_| unreachable!()),
            Arc::new(allowed),
        )
    }

    fn loopback() -> Access {
        rules("127.0.0.1:8080", Allowed::default())
    }

    #[test]
    fn a_host_must_name_this_server() {
        let access = loopback();
        for ours in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST",
            "[::1]:8080",
            "a.localhost",
        ] {
            assert_eq!(access.check_host(Some(ours)), Ok(()), "{ours}");
        }
        assert_eq!(access.check_host(None), Ok(()));
        for theirs in [
            "evil.example",
            "evil.example:8080",
            "192.168.1.5:8080",
            "localhost.evil",
        ] {
            assert!(
                matches!(access.check_host(Some(theirs)), Err(Refusal::Host(_))),
                "{theirs}"
            );
        }
        // Listening everywhere: any address of the machine, no other name.
        let everywhere = rules("0.0.0.0:8080", Allowed::default());
        assert_eq!(everywhere.check_host(Some("192.168.1.5:8080")), Ok(()));
        assert!(everywhere.check_host(Some("evil.example:8080")).is_err());
        let named = rules(
            "0.0.0.0:8080",
            Allowed {
                hosts: vec!["hall.local".to_owned()],
                ..Allowed::default()
            },
        );
        assert_eq!(named.check_host(Some("Hall.Local:8080")), Ok(()));
    }

    #[test]
    fn an_origin_must_be_the_server_s_own_or_allowed() {
        let access = rules(
            "127.0.0.1:1982",
            Allowed {
                origins: vec!["https://relay.example".to_owned()],
                ..Allowed::default()
            },
        );
        let host = Some("localhost:1982");
        for ours in [
            None,
            Some("https://lichess.org"),
            Some("https://www.chess.com/"),
            Some("http://localhost:1982"),
            Some("https://relay.example"),
        ] {
            assert_eq!(access.check_origin(ours, host), Ok(()), "{ours:?}");
        }
        for theirs in [
            "https://evil.example",
            "null",
            "http://localhost:8081",
            "https://lichess.org.evil",
        ] {
            assert!(
                matches!(
                    access.check_origin(Some(theirs), host),
                    Err(Refusal::Origin(_))
                ),
                "{theirs}"
            );
        }
    }

    #[test]
    fn an_operator_s_action_needs_the_token_even_on_loopback() {
        assert_eq!(
            loopback().check_operator(None),
            Err(Refusal::NoOperatorToken)
        );
        assert_eq!(Refusal::NoOperatorToken.status(), StatusCode::FORBIDDEN);
        let guarded = rules(
            "127.0.0.1:8080",
            Allowed {
                token: Token::new("s3cret"),
                ..Allowed::default()
            },
        );
        assert_eq!(guarded.check_operator(Some("s3cret")), Ok(()));
        assert_eq!(guarded.check_operator(Some("other")), Err(Refusal::Token));
        assert_eq!(guarded.check_operator(None), Err(Refusal::Token));
        assert_eq!(Refusal::Token.status(), StatusCode::UNAUTHORIZED);
        assert!(is_operator_action("/api/boards/1/result"));
        assert!(is_operator_action("/api/boards/board%201/result"));
        assert!(is_operator_action("/api/boards/1/time"));
        assert!(is_operator_action("/api/boards/1/note"));
        assert!(is_operator_action("/api/boards/1/tag"));
        assert!(is_operator_action("/api/boards/1/reinstate"));
        assert!(is_operator_action("/api/boards/1/flip"));
        assert!(is_operator_action("/api/boards/1/clock"));
        assert!(is_operator_action("/api/operator"));
        assert!(!is_operator_action("/api/boards/1/events"));
        assert!(!is_operator_action("/api/boards/result"));
        assert!(!is_operator_action("/api/boards/1/online/resign"));
        assert!(!is_operator_action("/board/1/result"));
    }

    #[test]
    fn elsewhere_a_change_needs_the_token() {
        assert_eq!(loopback().check_change(None), Ok(()));
        let tokenless = rules("0.0.0.0:8080", Allowed::default());
        assert!(matches!(
            tokenless.check_change(Some("x")),
            Err(Refusal::NoToken(_))
        ));
        let guarded = rules(
            "0.0.0.0:8080",
            Allowed {
                token: Token::new("s3cret"),
                ..Allowed::default()
            },
        );
        assert_eq!(guarded.check_change(Some("s3cret")), Ok(()));
        assert_eq!(guarded.check_change(Some("s3cre")), Err(Refusal::Token));
        assert_eq!(guarded.check_change(None), Err(Refusal::Token));
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, HeaderValue::from_static("10.0.0.2:8080"));
        headers.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Bearer s3cret"),
        );
        assert_eq!(guarded.check_request(&Method::POST, &headers, None), Ok(()));
        headers.remove(header::AUTHORIZATION);
        assert_eq!(
            guarded.check_request(&Method::POST, &headers, None),
            Err(Refusal::Token)
        );
        assert_eq!(
            guarded.check_request(&Method::POST, &headers, Some("a=1&token=s3cret")),
            Ok(())
        );
        assert_eq!(guarded.check_request(&Method::GET, &headers, None), Ok(()));
    }

    #[test]
    fn a_cross_site_change_or_upgrade_is_refused_and_a_read_is_not() {
        let access = loopback();
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, HeaderValue::from_static("127.0.0.1:8080"));
        headers.insert(
            header::ORIGIN,
            HeaderValue::from_static("https://evil.example"),
        );
        assert_eq!(access.check_request(&Method::GET, &headers, None), Ok(()));
        assert!(matches!(
            access.check_request(&Method::POST, &headers, None),
            Err(Refusal::Origin(_))
        ));
        headers.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
        assert!(matches!(
            access.check_request(&Method::GET, &headers, None),
            Err(Refusal::Origin(_))
        ));
    }

    #[test]
    fn a_token_is_never_printed_and_a_refusal_quotes_little() {
        let token = Token::new(" s3cret ").unwrap_or_else(|| unreachable!());
        assert_eq!(format!("{token:?}"), "Token(redacted)");
        assert!(Token::new("  ").is_none());
        let long = "x".repeat(10_000);
        let said = Refusal::Host(excerpt(&long)).to_string();
        assert!(said.len() < 300, "{said}");
        assert_eq!(percent_decoded("a%2Fb%zz"), "a/b%zz");
    }
}
