//! Finding the account's games: challenges accepted as `--accept` says, and a seek kept open
//! while none is going on (`--seek`).

use std::time::Duration;

use tokio::task::JoinHandle;

use touchmove::online::lichess::ndjson::Line;
use touchmove::online::lichess::request::{SEEK, accept_challenge};
use touchmove::online::lichess::wire::Challenge;

use super::super::args::{OnlineArgs, Seek, SeekColor};
use super::client::{Lichess, StreamFailure};

/// How long a seek that could not be posted waits before it is posted again.
const SEEK_RETRY: Duration = Duration::from_secs(5);

/// Whether `--accept` takes `challenge`: one to the account, of standard chess, from the user
/// named (any, with `any`).
pub(super) fn accepted(accept: Option<&str>, challenge: &Challenge) -> bool {
    let Some(accept) = accept else {
        return false;
    };
    let from = |user: &str| user.eq_ignore_ascii_case(accept);
    let by_name = challenge.challenger.as_ref().is_some_and(|challenger| {
        from(&challenger.id) || challenger.name.as_deref().is_some_and(from)
    });
    challenge.is_incoming()
        && challenge.is_standard()
        && (accept.eq_ignore_ascii_case("any") || by_name)
}

/// Accepts `challenge` if `--accept` takes it, saying what came of it.
pub(super) async fn answer_challenge(args: &OnlineArgs, lichess: &Lichess, challenge: &Challenge) {
    if !accepted(args.accept.as_deref(), challenge) {
        return;
    }
    let from = challenge
        .challenger
        .as_ref()
        .map_or("?", |user| user.name.as_deref().unwrap_or(&user.id));
    match lichess.post(&accept_challenge(&challenge.id)).await {
        Ok(reply) if reply.status == 200 => {
            eprintln!("touchmove: challenge {} from {from} accepted", challenge.id);
        }
        Ok(reply) => eprintln!(
            "touchmove: challenge {} from {from}: the server answers {}: {}",
            challenge.id,
            reply.status,
            reply.body.trim()
        ),
        Err(why) => eprintln!("touchmove: challenge {} from {from}: {why}", challenge.id),
    }
}

/// The form of a seek.
pub(super) fn seek_form(seek: Seek, rated: bool, color: SeekColor) -> Vec<(&'static str, String)> {
    vec![
        ("time", seek.minutes.to_string()),
        ("increment", seek.increment.to_string()),
        ("rated", rated.to_string()),
        ("color", color.as_str().to_owned()),
        ("variant", "standard".to_owned()),
    ]
}

/// A seek, kept open by a task of its own until the server closes it (a game started) or the
/// seeking is dropped (a game was found).
pub(super) struct Seeking(JoinHandle<()>);

impl Seeking {
    /// Posts the seek `args` ask for, if they ask for one.
    pub(super) fn start(args: &OnlineArgs, lichess: &Lichess) -> Option<Seeking> {
        let form = seek_form(args.seek?, args.rated, args.color);
        let lichess = lichess.clone();
        Some(Seeking(tokio::task::spawn_local(async move {
            loop {
                match lichess.stream_post(SEEK, &form).await {
                    Ok(mut lines) => {
                        eprintln!("touchmove: seeking a game");
                        // Kept open, read to its end: the server closes it when a game starts.
                        while let Some(line) = lines.next().await {
                            if let Line::Text(text) = line {
                                tracing::debug!(%text, "the seek's stream");
                            }
                        }
                        return;
                    }
                    Err(StreamFailure::Unauthorized(why) | StreamFailure::Passing(why)) => {
                        eprintln!("touchmove: lichess: the seek: {why}");
                    }
                }
                tokio::time::sleep(SEEK_RETRY).await;
            }
        })))
    }
}

impl Drop for Seeking {
    fn drop(&mut self) {
        self.0.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn challenge(from: &str, direction: &str, variant: &str) -> Challenge {
        serde_json::from_value(serde_json::json!({
            "id": "ch1",
            "challenger": {"id": from.to_ascii_lowercase(), "name": from},
            "direction": direction,
            "variant": {"key": variant, "name": variant},
        }))
        .unwrap_or_else(|error| panic!("a challenge: {error}"))
    }

    #[test]
    fn a_challenge_is_accepted_from_the_user_named_or_anyone_with_any() {
        let mary = challenge("Mary", "in", "standard");
        assert!(accepted(Some("mary"), &mary));
        assert!(accepted(Some("MARY"), &mary));
        assert!(accepted(Some("any"), &mary));
        assert!(!accepted(Some("bob"), &mary));
        assert!(!accepted(None, &mary));
        assert!(!accepted(
            Some("any"),
            &challenge("Mary", "out", "standard")
        ));
        assert!(!accepted(Some("any"), &challenge("Mary", "in", "chess960")));
    }

    #[test]
    fn a_seek_asks_for_its_time_control_rating_and_colour() {
        let seek = Seek {
            minutes: 10,
            increment: 5,
        };
        let form = seek_form(seek, true, SeekColor::White);
        let get = |key: &str| {
            form.iter()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(get("time"), Some("10"));
        assert_eq!(get("increment"), Some("5"));
        assert_eq!(get("rated"), Some("true"));
        assert_eq!(get("color"), Some("white"));
    }
}
