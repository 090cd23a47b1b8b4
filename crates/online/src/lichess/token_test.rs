//! What Lichess says of a token: `POST /api/token/test` with the token as its body answers an
//! object keyed by each token sent, its account and scopes, or `null` for a token it does not
//! know (lichess-org/api, `doc/specs/tags/oauth/api-token-test.yaml`).

use std::collections::HashMap;

use serde::Deserialize;

/// The request's path.
pub const PATH: &str = "/api/token/test";

/// The scope online play needs (the Board API).
pub const BOARD_PLAY: &str = "board:play";
/// The scope a broadcast push needs.
pub const STUDY_WRITE: &str = "study:write";

/// A token Lichess knows: whose it is and what it may do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenInfo {
    /// The account's user id.
    pub user_id: String,
    /// Its scopes (`board:play`, `study:write`, ...).
    pub scopes: Vec<String>,
    /// When it expires (Unix time in ms), if it does.
    pub expires: Option<u64>,
}

impl TokenInfo {
    /// Whether the token has `scope`.
    pub fn has(&self, scope: &str) -> bool {
        self.scopes.iter().any(|held| held == scope)
    }
}

/// An answer that is not the documented object. Its words never quote the answer (which is
/// keyed by the token).
#[derive(Debug, thiserror::Error)]
#[error("not the answer of {PATH}: {}", self.kind())]
pub struct BadAnswer(#[from] serde_json::Error);

impl BadAnswer {
    /// What was wrong, without the answer's text: where (line and column) and what kind of
    /// fault.
    pub fn kind(&self) -> String {
        let kind = match self.0.classify() {
            serde_json::error::Category::Io => "unreadable",
            serde_json::error::Category::Syntax => "not JSON",
            serde_json::error::Category::Data => "not the documented object",
            serde_json::error::Category::Eof => "cut short",
        };
        format!(
            "{kind} (line {}, column {})",
            self.0.line(),
            self.0.column()
        )
    }
}

/// One token's entry as sent.
#[derive(Deserialize)]
struct Entry {
    #[serde(rename = "userId")]
    user_id: String,
    #[serde(default)]
    scopes: String,
    #[serde(default)]
    expires: Option<u64>,
}

/// What the answer `body` says of `token`: `None` when Lichess does not know it (its entry is
/// `null` or missing).
pub fn read_answer(body: &str, token: &str) -> Result<Option<TokenInfo>, BadAnswer> {
    let answer: HashMap<String, Option<Entry>> = serde_json::from_str(body)?;
    let entry = answer.into_iter().find(|(key, _)| key == token.trim());
    Ok(entry.and_then(|(_, entry)| entry).map(|entry| TokenInfo {
        user_id: entry.user_id,
        scopes: entry
            .scopes
            .split(',')
            .map(str::trim)
            .filter(|scope| !scope.is_empty())
            .map(str::to_owned)
            .collect(),
        expires: entry.expires,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_example_reads_as_its_account_and_scopes() {
        // lichess-org/api's example answer, for a known and an unknown token.
        let body = r#"{"lip_AvsS88TozFeSnZa1LN5c":{"scopes":"challenge:read,challenge:write","userId":"thibault","expires":1358509698620},"lip_badToken":null}"#;
        let known = read_answer(body, "lip_AvsS88TozFeSnZa1LN5c").ok().flatten();
        assert_eq!(
            known,
            Some(TokenInfo {
                user_id: "thibault".to_owned(),
                scopes: vec!["challenge:read".to_owned(), "challenge:write".to_owned()],
                expires: Some(1_358_509_698_620),
            })
        );
        assert!(known.is_some_and(|info| !info.has(BOARD_PLAY)));
        assert_eq!(read_answer(body, "lip_badToken").ok().flatten(), None);
        assert_eq!(read_answer(body, "lip_other").ok().flatten(), None);
    }

    #[test]
    fn no_scopes_and_no_expiry_are_read_as_such() {
        let body = r#"{"lip_x":{"scopes":"","userId":"anna","expires":null}}"#;
        let info = read_answer(body, "lip_x\n").ok().flatten();
        assert_eq!(
            info.map(|info| (info.scopes, info.expires)),
            Some((Vec::new(), None))
        );
    }

    #[test]
    fn another_answer_is_refused() {
        assert!(read_answer("<html>", "lip_x").is_err());
        assert!(read_answer(r#"{"lip_x":{"scopes":""}}"#, "lip_x").is_err());
    }
}
