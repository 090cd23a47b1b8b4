//! The Lichess server as `touchmove online` reaches it over HTTPS (reqwest): its ndjson streams
//! line by line, and its requests with their answers. The token goes in a header marked
//! sensitive and is taken out of anything the server echoes before it is shown.

use std::collections::VecDeque;
use std::time::Duration;

use anyhow::{Context, Result};
use reqwest::StatusCode;
use reqwest::header::{AUTHORIZATION, HeaderValue, RETRY_AFTER};

use touchmove::online::lichess::ndjson::{Line, NdjsonLines};

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
    authorization: HeaderValue,
    token: String,
    http: reqwest::Client,
}

/// Why a stream could not be read.
#[derive(Debug)]
pub enum StreamFailure {
    /// The token is refused (401): nothing will work.
    Unauthorized(String),
    /// Anything else (the network, the server): try again later.
    Passing(String),
}

/// A server's answer to a request.
#[derive(Debug, Clone)]
pub struct Reply {
    /// Its status.
    pub status: u16,
    /// `Retry-After`, in seconds, when given.
    pub retry_after: Option<u64>,
    /// Its body (the token taken out).
    pub body: String,
}

impl Lichess {
    /// The server at `base` (`https://lichess.org`), for the account of `token`.
    pub fn new(base: &str, token: &str) -> Result<Lichess> {
        let mut authorization = HeaderValue::from_str(&format!("Bearer {}", token.trim()))
            .map_err(|_| anyhow::anyhow!("the token holds characters no token has"))?;
        authorization.set_sensitive(true);
        let http = reqwest::Client::builder()
            .connect_timeout(CONNECT)
            .user_agent(concat!("touchmove/", env!("CARGO_PKG_VERSION")))
            .build()
            .context("cannot make an HTTPS client")?;
        Ok(Lichess {
            base: base.trim_end_matches('/').to_owned(),
            authorization,
            token: token.trim().to_owned(),
            http,
        })
    }

    /// `text` with the token taken out (a server or a proxy may echo it).
    pub fn redacted(&self, text: &str) -> String {
        if self.token.is_empty() {
            return text.to_owned();
        }
        text.replace(&self.token, "[redacted]")
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
        let response = request
            .header(AUTHORIZATION, self.authorization.clone())
            .send()
            .await
            .map_err(|error| {
                StreamFailure::Passing(self.redacted(&error.without_url().to_string()))
            })?;
        let status = response.status();
        if status == StatusCode::UNAUTHORIZED {
            let body = response.text().await.unwrap_or_default();
            return Err(StreamFailure::Unauthorized(self.redacted(&body)));
        }
        if !status.is_success() {
            let body = response.text().await.unwrap_or_default();
            return Err(StreamFailure::Passing(format!(
                "{path}: {status}: {}",
                self.redacted(body.trim())
            )));
        }
        Ok(Lines {
            response,
            lines: NdjsonLines::new(),
            ready: VecDeque::new(),
            done: false,
        })
    }

    /// Sends `POST path` without a body; the answer, or why none came.
    pub async fn post(&self, path: &str) -> Result<Reply, String> {
        let response = self
            .http
            .post(format!("{}{path}", self.base))
            .header(AUTHORIZATION, self.authorization.clone())
            .timeout(REQUEST)
            .send()
            .await
            .map_err(|error| self.redacted(&error.without_url().to_string()))?;
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.trim().parse().ok());
        let body = response.text().await.unwrap_or_default();
        Ok(Reply {
            status,
            retry_after,
            body: self.redacted(&body),
        })
    }
}

/// An open ndjson stream, read line by line.
pub struct Lines {
    response: reqwest::Response,
    lines: NdjsonLines,
    ready: VecDeque<Line>,
    done: bool,
}

impl Lines {
    /// The next line; `None` once the server closed the stream, or when it fell silent for
    /// [`SILENCE`] or the connection failed (the caller opens it again).
    pub async fn next(&mut self) -> Option<Line> {
        loop {
            if let Some(line) = self.ready.pop_front() {
                return Some(line);
            }
            if self.done {
                return None;
            }
            match tokio::time::timeout(SILENCE, self.response.chunk()).await {
                Ok(Ok(Some(bytes))) => self.ready.extend(self.lines.push(&bytes)),
                Ok(Ok(None)) => {
                    self.done = true;
                    self.ready.extend(self.lines.finish());
                }
                Ok(Err(_)) | Err(_) => {
                    self.done = true;
                }
            }
        }
    }
}
