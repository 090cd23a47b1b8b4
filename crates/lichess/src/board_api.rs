//! The Lichess server as online play reaches it over HTTPS (reqwest): its ndjson streams
//! line by line, and its requests with their answers. The token goes in a header marked
//! sensitive and is taken out of anything the server echoes before it is shown.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::StatusCode;
use reqwest::header::{AUTHORIZATION, CONTENT_TYPE};

use touchmove_core::decode::StreamDecoder;
use touchmove_online::lichess::ndjson::{Line, NdjsonLines};
use touchmove_online::lichess::token_test::{self, TokenInfo};

use crate::credentials::{Credentials, LichessError, Reply, client};

/// How long a connection may take to open.
const CONNECT: Duration = Duration::from_secs(10);

/// How long a request (not a stream) may take.
const REQUEST: Duration = Duration::from_secs(20);

/// A stream silent this long is cut (the server sends an empty line every few seconds).
pub const SILENCE: Duration = Duration::from_secs(20);

/// The server, with the account's token.
#[derive(Clone)]
pub struct Lichess {
    base: String,
    /// The server's address as the messages name it (`lichess.org:443`).
    address: String,
    credentials: Credentials,
    http: reqwest::Client,
    /// Why the server could not be reached, as last said (`None`: it is reached): a fault is
    /// said once, and again only when it changes or ends.
    fault: Arc<Mutex<Option<String>>>,
}

/// Why a stream could not be read.
#[derive(Debug)]
pub enum StreamFailure {
    /// The token is refused (401): nothing will work.
    Unauthorized(String),
    /// Anything else (the network, the server): try again later.
    Passing(String),
}

impl Lichess {
    /// The server at `base` (`https://lichess.org`), for the account of `token`.
    pub fn new(base: &str, token: &str) -> Result<Lichess, LichessError> {
        let credentials = Credentials::new(token)?;
        let http = client(reqwest::Client::builder().connect_timeout(CONNECT))?;
        let base = base.trim_end_matches('/').to_owned();
        Ok(Lichess {
            address: address_of(&base),
            base,
            credentials,
            http,
            fault: Arc::new(Mutex::new(None)),
        })
    }

    /// The server could not be reached for `what` (`the event stream`, `the move request`):
    /// `why` is said, unless it was the last fault said.
    pub fn unreachable(&self, what: &str, why: &str) {
        let mut fault = self
            .fault
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if fault.as_deref() != Some(why) {
            eprintln!("touchmove: lichess: {why} ({what}); trying again");
            *fault = Some(why.to_owned());
        }
    }

    /// The server answered: if it had not been reached, that is said once.
    pub fn reached(&self) {
        let mut fault = self
            .fault
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if fault.take().is_some() {
            eprintln!("touchmove: lichess: {} answers again", self.address);
        }
    }

    /// Why `error` came instead of an answer, in words that name the server and the cause.
    fn failure(&self, error: &reqwest::Error) -> String {
        self.redacted(&format!("{}: {}", self.address, cause(error)))
    }

    /// `text` with the token taken out (a server or a proxy may echo it).
    pub fn redacted(&self, text: &str) -> String {
        self.credentials.redacted(text)
    }

    /// Opens the ndjson stream at `path` (`GET`).
    pub async fn stream(&self, path: &str) -> Result<Lines, StreamFailure> {
        self.open(path, self.http.get(format!("{}{path}", self.base)))
            .await
    }

    /// Opens the ndjson stream that `POST path` with `form` answers (a seek).
    pub async fn stream_post(
        &self,
        path: &str,
        form: &[(&str, String)],
    ) -> Result<Lines, StreamFailure> {
        let request = self.http.post(format!("{}{path}", self.base)).form(form);
        self.open(path, request).await
    }

    /// Sends `request` for the ndjson stream at `path`.
    async fn open(
        &self,
        path: &str,
        request: reqwest::RequestBuilder,
    ) -> Result<Lines, StreamFailure> {
        let sent = request
            .header(AUTHORIZATION, self.credentials.authorization())
            .send();
        // A server that takes the connection and never answers: timed out, as a request.
        let response = tokio::time::timeout(REQUEST, sent)
            .await
            .map_err(|_| StreamFailure::Passing(format!("{}: timed out", self.address)))?
            .map_err(|error| StreamFailure::Passing(self.failure(&error)))?;
        let status = response.status();
        if status == StatusCode::UNAUTHORIZED {
            let body = response.text().await.unwrap_or_default();
            return Err(StreamFailure::Unauthorized(self.redacted(&body)));
        }
        if !status.is_success() {
            let body = response.text().await.unwrap_or_default();
            return Err(StreamFailure::Passing(format!(
                "{}{path}: {status}: {}",
                self.address,
                self.redacted(body.trim())
            )));
        }
        Ok(Lines {
            response,
            lines: NdjsonLines::new(),
            done: false,
        })
    }

    /// Sends `POST path` without a body; the answer, or why none came.
    pub async fn post(&self, path: &str) -> Result<Reply, String> {
        let response = self
            .http
            .post(format!("{}{path}", self.base))
            .header(AUTHORIZATION, self.credentials.authorization())
            .timeout(REQUEST)
            .send()
            .await
            .map_err(|error| self.failure(&error))?;
        Ok(Reply::read(response, &self.credentials).await)
    }

    /// What the server says of the token (`POST /api/token/test`, the token as the body, no
    /// `Authorization`): its account and scopes, `None` if the server does not know it; else
    /// why no answer came or what was wrong with it, the token taken out.
    pub async fn test_token(&self) -> Result<Option<TokenInfo>, String> {
        let response = self
            .http
            .post(format!("{}{}", self.base, token_test::PATH))
            .header(CONTENT_TYPE, "text/plain")
            .body(self.credentials.token().to_owned())
            .timeout(REQUEST)
            .send()
            .await
            .map_err(|error| self.failure(&error))?;
        let status = response.status();
        if !status.is_success() {
            return Err(format!("{}: HTTP {}", self.address, status.as_u16()));
        }
        // The answer is keyed by the token: read as it came, never shown.
        let body = response
            .text()
            .await
            .map_err(|error| self.failure(&error))?;
        token_test::read_answer(&body, self.credentials.token())
            .map_err(|error| format!("{}: {}", self.address, error.kind()))
    }
}

/// The server's address as messages name it: the URL's host and port (the scheme's port when
/// it gives none), or the URL itself when it does not read.
fn address_of(base: &str) -> String {
    match reqwest::Url::parse(base) {
        Ok(url) => match (url.host_str(), url.port_or_known_default()) {
            (Some(host), Some(port)) => format!("{host}:{port}"),
            (Some(host), None) => host.to_owned(),
            (None, _) => base.to_owned(),
        },
        Err(_) => base.to_owned(),
    }
}

/// Why a request got no answer, in a few words: the name not found, the connection refused or
/// reset, a TLS failure, a time-out; else the deepest cause's own words.
fn cause(error: &reqwest::Error) -> String {
    let mut deepest = error.to_string();
    let mut source = std::error::Error::source(error);
    let mut io_kind = None;
    while let Some(cause) = source {
        let text = cause.to_string();
        if text.contains("dns error") || text.contains("failed to lookup address") {
            return "name not found".to_owned();
        }
        // An I/O error may wrap another (the connector's around the TLS layer's): the
        // innermost says what happened.
        let mut io = cause.downcast_ref::<std::io::Error>();
        while let Some(error) = io {
            io_kind = Some(error.kind());
            io = error
                .get_ref()
                .and_then(|inner| inner.downcast_ref::<std::io::Error>());
        }
        deepest = text;
        source = cause.source();
    }
    let lower = deepest.to_ascii_lowercase();
    match io_kind {
        Some(std::io::ErrorKind::ConnectionRefused) => "connection refused".to_owned(),
        Some(std::io::ErrorKind::ConnectionReset) => "connection reset".to_owned(),
        Some(std::io::ErrorKind::TimedOut) => "timed out".to_owned(),
        // rustls's errors reach reqwest as the connection's invalid data.
        Some(std::io::ErrorKind::InvalidData) => format!("TLS: {deepest}"),
        _ if error.is_timeout() => "timed out".to_owned(),
        _ if lower.contains("certificate")
            || lower.contains("tls")
            || lower.contains("handshake") =>
        {
            format!("TLS: {deepest}")
        }
        _ => deepest,
    }
}

/// An open ndjson stream, read line by line.
pub struct Lines {
    response: reqwest::Response,
    lines: NdjsonLines,
    done: bool,
}

impl Lines {
    /// The next line; `None` once the server closed the stream, or when it fell silent for
    /// [`SILENCE`] or the connection failed (the caller opens it again).
    pub async fn next(&mut self) -> Option<Line> {
        loop {
            match self.lines.poll() {
                Some(Ok(line)) => return Some(line),
                Some(Err(unreadable)) => {
                    tracing::debug!(
                        unreadable.length,
                        "a line of the stream dropped: unreadable"
                    );
                    continue;
                }
                None => {}
            }
            if self.done {
                return None;
            }
            match tokio::time::timeout(SILENCE, self.response.chunk()).await {
                Ok(Ok(Some(bytes))) => self.lines.push(&bytes),
                Ok(Ok(None)) => {
                    self.done = true;
                    self.lines.finish();
                }
                Ok(Err(_)) | Err(_) => {
                    self.done = true;
                }
            }
        }
    }
}
