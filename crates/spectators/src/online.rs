//! What a page shows of an online game played on the board (`touchmove online --listen`):
//! the server's game, the account's side, the offers standing and whether the opponent has
//! left, so that the page offers the right buttons.

use serde::Serialize;
use shakmaty::Color;

/// An online game as its page shows it (`online` in `GET /api/boards`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OnlineStatus {
    /// The server's host (`lichess.org`).
    pub server: String,
    /// The game's id on the server.
    pub game: String,
    /// The account's side: the player at the board.
    #[serde(serialize_with = "ser_side")]
    pub side: Color,
    /// The side whose draw offer stands, if any.
    #[serde(serialize_with = "ser_some_side")]
    pub draw_offer: Option<Color>,
    /// The side whose takeback proposal stands, if any.
    #[serde(serialize_with = "ser_some_side")]
    pub takeback_proposal: Option<Color>,
    /// The opponent has left the game: the player may claim the win (once the server allows).
    pub opponent_gone: bool,
    /// The server has ended the game.
    pub over: bool,
}

fn side_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn ser_side<S: serde::Serializer>(color: &Color, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(side_name(*color))
}

fn ser_some_side<S: serde::Serializer>(color: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
    match color {
        Some(color) => s.serialize_str(side_name(*color)),
        None => s.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_are_written_as_the_page_reads_them() {
        let status = OnlineStatus {
            server: "lichess.org".to_owned(),
            game: "abcd1234".to_owned(),
            side: Color::Black,
            draw_offer: Some(Color::White),
            takeback_proposal: None,
            opponent_gone: false,
            over: false,
        };
        let json = serde_json::to_value(&status).expect("JSON");
        assert_eq!(
            json,
            serde_json::json!({
                "server": "lichess.org", "game": "abcd1234", "side": "black",
                "draw_offer": "white", "takeback_proposal": null,
                "opponent_gone": false, "over": false,
            })
        );
    }
}
