//! Finding the account's games: challenges accepted as `--accept` says, and a seek kept open
//! while none is going on (`--seek`).

use std::time::Duration;

use tokio::task::JoinHandle;

use touchmove::online::lichess::ndjson::Line;
use touchmove::online::lichess::request::{SEEK, accept_challenge};
use touchmove::online::lichess::wire::Challenge;

use super::super::args::{OnlineArgs, OnlineVariant, Seek, SeekColor};
use touchmove_lichess::board_api::{Lichess, StreamFailure};

/// How long a seek that could not be posted waits before it is posted again, at first...
const SEEK_RETRY: Duration = Duration::from_secs(5);

/// ...and at most, each failure doubling the wait.
const SEEK_RETRY_MAX: Duration = Duration::from_secs(60);

/// Whether `--accept` takes `challenge`: one to the account, in the variant sought
/// (`--variant`), from the user named (any, with `any`).
pub(super) fn accepted(
    accept: Option<&str>,
    variant: OnlineVariant,
    challenge: &Challenge,
) -> bool {
    let Some(accept) = accept else {
        return false;
    };
    let from = |user: &str| user.eq_ignore_ascii_case(accept);
    let by_name = challenge.challenger.as_ref().is_some_and(|challenger| {
        from(&challenger.id) || challenger.name.as_deref().is_some_and(from)
    });
    challenge.is_incoming()
        && challenge.variant_key() == variant.key()
        && (accept.eq_ignore_ascii_case("any") || by_name)
}

/// Accepts `challenge` if `--accept` takes it, saying what came of it.
pub(super) async fn answer_challenge(args: &OnlineArgs, lichess: &Lichess, challenge: &Challenge) {
    if !accepted(args.accept.as_deref(), args.variant, challenge) {
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

/// What a seek asks for: its time control, whether it is rated, the colour and the variant.
pub(super) struct SeekAsked {
    seek: Seek,
    rated: bool,
    color: SeekColor,
    variant: OnlineVariant,
}

/// The form of a seek.
pub(super) fn seek_form(asked: &SeekAsked) -> Vec<(&'static str, String)> {
    vec![
        ("time", asked.seek.minutes.to_string()),
        ("increment", asked.seek.increment.to_string()),
        ("rated", asked.rated.to_string()),
        ("color", asked.color.as_str().to_owned()),
        ("variant", asked.variant.key().to_owned()),
    ]
}

/// A seek, kept open by a task of its own until the server closes it (a game started) or the
/// seeking is dropped (a game was found).
pub(super) struct Seeking(JoinHandle<()>);

impl Seeking {
    /// Posts the seek `args` ask for, if they ask for one. It is said at once: the server may
    /// pair it and start the game before the post's answer is read.
    pub(super) fn start(args: &OnlineArgs, lichess: &Lichess) -> Option<Seeking> {
        let form = seek_form(&SeekAsked {
            seek: args.seek?,
            rated: args.rated,
            color: args.color,
            variant: args.variant,
        });
        eprintln!("touchmove: seeking a game");
        let lichess = lichess.clone();
        Some(Seeking(tokio::task::spawn_local(async move {
            let mut backoff = SEEK_RETRY;
            loop {
                match lichess.stream_post(SEEK, &form).await {
                    Ok(mut lines) => {
                        lichess.reached();
                        // Kept open, read to its end: the server closes it when a game starts.
                        while let Some(line) = lines.next().await {
                            if let Line::Text(text) = line {
                                tracing::debug!(%text, "the seek's stream");
                            }
                        }
                        return;
                    }
                    Err(StreamFailure::Unauthorized(why) | StreamFailure::Passing(why)) => {
                        lichess.unreachable("the seek", &why);
                    }
                }
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(SEEK_RETRY_MAX);
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
        let standard = OnlineVariant::Standard;
        let mary = challenge("Mary", "in", "standard");
        assert!(accepted(Some("mary"), standard, &mary));
        assert!(accepted(Some("MARY"), standard, &mary));
        assert!(accepted(Some("any"), standard, &mary));
        assert!(!accepted(Some("bob"), standard, &mary));
        assert!(!accepted(None, standard, &mary));
        assert!(!accepted(
            Some("any"),
            standard,
            &challenge("Mary", "out", "standard")
        ));
    }

    #[test]
    fn a_challenge_is_accepted_only_in_the_variant_sought() {
        let standard = challenge("Mary", "in", "standard");
        let chess960 = challenge("Mary", "in", "chess960");
        let atomic = challenge("Mary", "in", "atomic");
        assert!(!accepted(Some("any"), OnlineVariant::Standard, &chess960));
        assert!(accepted(Some("any"), OnlineVariant::Chess960, &chess960));
        assert!(!accepted(Some("any"), OnlineVariant::Chess960, &standard));
        for variant in [OnlineVariant::Standard, OnlineVariant::Chess960] {
            assert!(!accepted(Some("any"), variant, &atomic));
        }
    }

    #[test]
    fn a_seek_asks_for_its_time_control_rating_and_colour() {
        let seek = Seek {
            minutes: 10,
            increment: 5,
        };
        let form = |variant| {
            seek_form(&SeekAsked {
                seek,
                rated: true,
                color: SeekColor::White,
                variant,
            })
        };
        let standard = form(OnlineVariant::Standard);
        let get = |form: &[(&str, String)], key: &str| {
            form.iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone())
        };
        assert_eq!(get(&standard, "time").as_deref(), Some("10"));
        assert_eq!(get(&standard, "increment").as_deref(), Some("5"));
        assert_eq!(get(&standard, "rated").as_deref(), Some("true"));
        assert_eq!(get(&standard, "color").as_deref(), Some("white"));
        assert_eq!(get(&standard, "variant").as_deref(), Some("standard"));
        let chess960 = form(OnlineVariant::Chess960);
        assert_eq!(get(&chess960, "variant").as_deref(), Some("chess960"));
    }
}
