//! The account's token as every request carries it, and kept out of every text: a header
//! marked sensitive (never shown by reqwest's debug output), and the token taken out of
//! anything a server or a proxy echoes before it is shown.

use reqwest::header::{HeaderValue, RETRY_AFTER};

/// The token, as a request's `Authorization` and as what to take out of an answer.
///
/// ```
/// use touchmove_lichess::credentials::Credentials;
///
/// let credentials = Credentials::new("lip_abc123\n").expect("a token is a header's value");
/// // The header is marked sensitive: reqwest's debug output never shows it.
/// assert!(credentials.authorization().is_sensitive());
/// assert_eq!(
///     credentials.redacted("401: Bearer lip_abc123 is not valid"),
///     "401: Bearer [redacted] is not valid"
/// );
/// ```
#[derive(Clone)]
pub struct Credentials {
    /// `Bearer TOKEN`, marked sensitive.
    authorization: HeaderValue,
    /// The token, trimmed.
    token: String,
}

/// Why Lichess cannot be reached at all.
#[derive(Debug, thiserror::Error)]
pub enum LichessError {
    /// The token cannot be a header's value (a token is letters, digits and `_`).
    #[error("the token holds characters no token has")]
    BadToken,
    /// The HTTPS client cannot be made (no TLS roots, ...).
    #[error("cannot make an HTTPS client")]
    Client(#[source] reqwest::Error),
}

impl Credentials {
    /// The credentials of `token` (surrounding white space is no part of it).
    pub fn new(token: &str) -> Result<Credentials, LichessError> {
        let token = token.trim();
        let mut authorization = HeaderValue::from_str(&format!("Bearer {token}"))
            .map_err(|_| LichessError::BadToken)?;
        authorization.set_sensitive(true);
        Ok(Credentials {
            authorization,
            token: token.to_owned(),
        })
    }

    /// The token itself, for the one request that sends it as its body (`/api/token/test`).
    pub(crate) fn token(&self) -> &str {
        &self.token
    }

    /// The `Authorization` header's value.
    pub fn authorization(&self) -> HeaderValue {
        self.authorization.clone()
    }

    /// `text` with every occurrence of the token replaced by `[redacted]`: a server or a
    /// proxy may echo the request's `Authorization` in an error.
    pub fn redacted(&self, text: &str) -> String {
        redact(text, &self.token)
    }
}

/// `text` with every occurrence of `token` replaced by `[redacted]`.
fn redact(text: &str, token: &str) -> String {
    if token.is_empty() {
        return text.to_owned();
    }
    text.replace(token, "[redacted]")
}

/// The HTTPS client every request goes through, named as touchmove.
pub(crate) fn client(builder: reqwest::ClientBuilder) -> Result<reqwest::Client, LichessError> {
    builder
        .user_agent(concat!("touchmove/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(LichessError::Client)
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

impl Reply {
    /// The answer `response` brings, its body read and the token taken out.
    pub(crate) async fn read(response: reqwest::Response, credentials: &Credentials) -> Reply {
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|value| value.to_str().ok())
            .and_then(|value| value.trim().parse().ok());
        let body = response.text().await.unwrap_or_default();
        Reply {
            status,
            retry_after,
            body: credentials.redacted(&body),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_echoed_token_is_redacted() {
        let credentials = Credentials::new(" lip_s3cret\n").expect("a token");
        let body = r#"{"error":"Bad token: Bearer lip_s3cret (lip_s3cret)"}"#;
        assert_eq!(
            credentials.redacted(body),
            r#"{"error":"Bad token: Bearer [redacted] ([redacted])"}"#
        );
        assert_eq!(redact("nothing", ""), "nothing");
        assert!(credentials.authorization().is_sensitive());
    }

    #[test]
    fn a_token_that_cannot_be_a_header_is_refused() {
        assert!(matches!(
            Credentials::new("lip_\u{7f}x"),
            Err(LichessError::BadToken)
        ));
    }
}
