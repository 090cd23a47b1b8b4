//! The pushes to a Lichess broadcast round (`POST /api/broadcast/round/ID/push`, the round's
//! games as PGN): where they go and with what token, and one push sent. When to push and what
//! a reply means is `touchmove_spectators::broadcast::Pusher`'s.

use std::future::Future;
use std::time::Duration;

use reqwest::header::{AUTHORIZATION, CONTENT_TYPE};

use crate::credentials::{Credentials, LichessError, Reply, client};

/// How long a push may take before it counts as failed.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Where the pushes go, and with what token.
#[derive(Clone)]
pub struct PushTarget {
    endpoint: String,
    round: String,
    credentials: Credentials,
}

impl PushTarget {
    /// The round `round` of the server at `base` (`https://lichess.org`), pushed to with
    /// `token` (its scope `study:write`).
    pub fn new(base: &str, round: &str, token: &str) -> Result<PushTarget, LichessError> {
        let base = base.trim_end_matches('/');
        Ok(PushTarget {
            endpoint: format!("{base}/api/broadcast/round/{round}/push"),
            round: round.to_owned(),
            credentials: Credentials::new(token)?,
        })
    }

    /// The round's identity, as the messages name it.
    pub fn round(&self) -> &str {
        &self.round
    }

    /// `text` with the token taken out.
    pub fn redacted(&self, text: &str) -> String {
        self.credentials.redacted(text)
    }
}

/// The HTTPS client the pushes go through.
#[derive(Clone)]
pub struct PushClient {
    http: reqwest::Client,
}

impl PushClient {
    /// A client whose pushes time out after 30 s.
    pub fn new() -> Result<PushClient, LichessError> {
        Ok(PushClient {
            http: client(reqwest::Client::builder().timeout(REQUEST_TIMEOUT))?,
        })
    }

    /// Pushes `pgn` (the round's games, one after another) to `target`: the reply, or why none
    /// came (the token taken out of both). The request is built now; the future sends it and
    /// may run on a task of its own.
    pub fn push(
        &self,
        target: &PushTarget,
        pgn: String,
    ) -> impl Future<Output = Result<Reply, String>> + Send + 'static {
        let send = self
            .http
            .post(&target.endpoint)
            .header(AUTHORIZATION, target.credentials.authorization())
            .header(CONTENT_TYPE, "text/plain; charset=utf-8")
            .body(pgn);
        let credentials = target.credentials.clone();
        async move {
            let response = send
                .send()
                .await
                .map_err(|error| credentials.redacted(&error.without_url().to_string()))?;
            Ok(Reply::read(response, &credentials).await)
        }
    }
}
