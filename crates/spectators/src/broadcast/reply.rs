//! A push's reply, read.

use serde::Deserialize;

/// What Lichess said of one pushed game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameReply {
    /// Taken: the game has this many moves (plies) on Lichess.
    Moves(u32),
    /// Refused, with Lichess's reason (`No move found`, ...).
    Error(String),
}

#[derive(Deserialize)]
struct Reply {
    games: Vec<Game>,
}

#[derive(Deserialize)]
struct Game {
    moves: Option<u32>,
    error: Option<String>,
}

/// The games of a successful push's reply, in the order they were pushed (`None`: the body is
/// not such a reply).
pub fn parse_reply(body: &str) -> Option<Vec<GameReply>> {
    let reply: Reply = serde_json::from_str(body).ok()?;
    Some(
        reply
            .games
            .into_iter()
            .map(|game| match (game.error, game.moves) {
                (Some(error), _) => GameReply::Error(error),
                (None, moves) => GameReply::Moves(moves.unwrap_or(0)),
            })
            .collect(),
    )
}

/// The `error` of an error reply's body (`{"error": "Cannot parse moves"}`), if it has one.
pub(super) fn error_message(body: &str) -> Option<String> {
    #[derive(Deserialize)]
    struct Error {
        error: String,
    }
    serde_json::from_str::<Error>(body)
        .ok()
        .map(|error| error.error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_says_each_game_s_fate_in_order() {
        let body = r#"{"games":[{"tags":{"White":"A","Black":"B"},"moves":12},
            {"tags":{"White":"C"},"error":"No move found: Nf9"}]}"#;
        assert_eq!(
            parse_reply(body),
            Some(vec![
                GameReply::Moves(12),
                GameReply::Error("No move found: Nf9".to_owned())
            ])
        );
        assert_eq!(parse_reply("nonsense"), None);
        assert_eq!(
            error_message(r#"{"error":"Cannot parse moves"}"#).as_deref(),
            Some("Cannot parse moves")
        );
    }
}
