//! The messages of the Lichess Board API, as its published OpenAPI description gives them
//! (repository lichess-org/api, `doc/specs`): what the incoming-events stream and a game's
//! stream send, read with serde. Fields this controller does not use are left out; unknown
//! fields and unknown message types are ignored, as a client of a growing API must.

use serde::Deserialize;
use shakmaty::Color;

/// A line of the incoming-events stream (`GET /api/stream/event`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum IncomingEvent {
    /// A game of the account started (or was going on when the stream opened).
    GameStart {
        /// The game.
        game: GameInfo,
    },
    /// A game of the account ended.
    GameFinish {
        /// The game.
        game: GameInfo,
    },
    /// A challenge to or from the account.
    Challenge {
        /// The challenge.
        challenge: Challenge,
    },
    /// A challenge to the account was withdrawn.
    ChallengeCanceled {
        /// The challenge.
        challenge: Challenge,
    },
    /// A challenge from the account was declined.
    ChallengeDeclined {
        /// The challenge.
        challenge: Challenge,
    },
    /// A message type this controller does not know.
    #[serde(other)]
    Other,
}

/// A game as the incoming-events stream describes it (`GameEventInfo`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameInfo {
    /// The game's id (8 characters).
    pub game_id: String,
    /// The account's side, `white` or `black`.
    #[serde(default)]
    pub color: Option<String>,
    /// Whether the game can be played with the Board API (`compat.board`).
    #[serde(default)]
    pub compat: Option<Compat>,
    /// The variant, by its key (`standard`, `chess960`...).
    #[serde(default)]
    pub variant: Option<Variant>,
}

impl GameInfo {
    /// The account's side, when the message says it.
    pub fn side(&self) -> Option<Color> {
        self.color.as_deref().and_then(color_named)
    }

    /// Whether the Board API can play the game (a game of a speed it refuses is not).
    pub fn board_compatible(&self) -> bool {
        self.compat.as_ref().is_none_or(|compat| compat.board)
    }

    /// The variant's key (`standard` when the message does not say).
    pub fn variant_key(&self) -> &str {
        self.variant
            .as_ref()
            .map_or(STANDARD, |variant| variant.key.as_str())
    }
}

/// Which APIs can play a game or challenge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct Compat {
    /// The Bot API.
    #[serde(default)]
    pub bot: bool,
    /// The Board API.
    #[serde(default)]
    pub board: bool,
}

/// A challenge (`ChallengeJson`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Challenge {
    /// The challenge's id.
    pub id: String,
    /// Who challenges.
    pub challenger: Option<User>,
    /// `in`: a challenge to the account; `out`: from it.
    #[serde(default)]
    pub direction: Option<String>,
    /// The variant, by its key (`standard`, `chess960`...).
    #[serde(default)]
    pub variant: Option<Variant>,
}

impl Challenge {
    /// Whether the challenge is to the account (a challenge it sent is not its to accept).
    pub fn is_incoming(&self) -> bool {
        self.direction.as_deref() != Some("out")
    }

    /// The variant's key (`standard` when the challenge does not say).
    pub fn variant_key(&self) -> &str {
        self.variant
            .as_ref()
            .map_or(STANDARD, |variant| variant.key.as_str())
    }
}

/// A player as a challenge names them.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct User {
    /// The account's id (its name in lower case).
    pub id: String,
    /// The account's name as written.
    #[serde(default)]
    pub name: Option<String>,
}

/// A variant of chess.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Variant {
    /// Its key: `standard`, `chess960`, `fromPosition`...
    pub key: String,
}

/// The key of standard chess.
pub const STANDARD: &str = "standard";

/// The key of Chess960.
pub const CHESS960: &str = "chess960";

/// The key of standard chess from a position set up.
pub const FROM_POSITION: &str = "fromPosition";

/// Whether a game of the variant `key` is played by the rules of chess, so that the board can
/// play it: standard chess, Chess960, standard chess from a position (not crazyhouse, atomic,
/// three-check and the others, whose rules differ).
pub fn is_chess(key: &str) -> bool {
    [STANDARD, CHESS960, FROM_POSITION].contains(&key)
}

/// A line of a game's stream (`GET /api/board/game/stream/{gameId}`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum GameMessage {
    /// The whole game: sent first, and again whenever the stream is opened again.
    GameFull(Box<GameFull>),
    /// The game's state after a move, a draw or takeback offer, or its end.
    GameState(GameState),
    /// A chat line.
    ChatLine(ChatLine),
    /// Whether the opponent has left the game.
    OpponentGone(OpponentGone),
    /// A message type this controller does not know.
    #[serde(other)]
    Other,
}

/// The whole game (`GameFullEvent`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameFull {
    /// The game's id.
    pub id: String,
    /// The variant.
    pub variant: Variant,
    /// The clock, for a real-time game.
    #[serde(default)]
    pub clock: Option<GameClock>,
    /// Whether the game is rated.
    #[serde(default)]
    pub rated: bool,
    /// White.
    pub white: Player,
    /// Black.
    pub black: Player,
    /// The starting position: `startpos` or a FEN.
    pub initial_fen: String,
    /// The state now.
    pub state: GameState,
}

/// A game's clock setting, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub struct GameClock {
    /// Each side's time at the start.
    pub initial: u64,
    /// The time added after each move.
    pub increment: u64,
}

/// A player of a game (`GameEventPlayer`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Player {
    /// The account's id, absent for Lichess's own AI.
    #[serde(default)]
    pub id: Option<String>,
    /// The account's name.
    #[serde(default)]
    pub name: Option<String>,
    /// Its rating.
    #[serde(default)]
    pub rating: Option<u32>,
    /// The level of Lichess's AI, when it is the AI.
    #[serde(default)]
    pub ai_level: Option<u8>,
}

impl Player {
    /// The player's name for the terminal and the PGN: the account's name, or Lichess's AI.
    pub fn display_name(&self) -> String {
        match (&self.name, self.ai_level) {
            (Some(name), _) => name.clone(),
            (None, Some(level)) => format!("Lichess AI level {level}"),
            (None, None) => "?".to_owned(),
        }
    }
}

/// A game's state (`GameStateEvent`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct GameState {
    /// Every move so far, in UCI, separated by spaces (castling as the king's move to its
    /// square, as in standard chess).
    pub moves: String,
    /// White's time left, in milliseconds.
    pub wtime: u64,
    /// Black's time left, in milliseconds.
    pub btime: u64,
    /// White's increment, in milliseconds.
    #[serde(default)]
    pub winc: u64,
    /// Black's increment, in milliseconds.
    #[serde(default)]
    pub binc: u64,
    /// Where the game stands (`started`, `mate`, `resign`, `outoftime`...).
    pub status: String,
    /// The winner, once there is one.
    #[serde(default)]
    pub winner: Option<String>,
    /// White offers a draw.
    #[serde(default)]
    pub wdraw: bool,
    /// Black offers a draw.
    #[serde(default)]
    pub bdraw: bool,
    /// White proposes a takeback.
    #[serde(default)]
    pub wtakeback: bool,
    /// Black proposes a takeback.
    #[serde(default)]
    pub btakeback: bool,
}

impl GameState {
    /// The moves as UCI texts, in order.
    pub fn uci_moves(&self) -> impl Iterator<Item = &str> {
        self.moves.split_ascii_whitespace()
    }

    /// Whether the game is still being played.
    pub fn is_going_on(&self) -> bool {
        matches!(self.status.as_str(), "created" | "started")
    }

    /// The winner's side, once there is one.
    pub fn winner_side(&self) -> Option<Color> {
        self.winner.as_deref().and_then(color_named)
    }

    /// Whether `color` offers a draw.
    pub fn offers_draw(&self, color: Color) -> bool {
        color.fold_wb(self.wdraw, self.bdraw)
    }

    /// Whether `color` proposes a takeback.
    pub fn proposes_takeback(&self, color: Color) -> bool {
        color.fold_wb(self.wtakeback, self.btakeback)
    }

    /// `color`'s time left, in milliseconds.
    pub fn time_left(&self, color: Color) -> u64 {
        color.fold_wb(self.wtime, self.btime)
    }
}

/// A chat line (`ChatLineEvent`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ChatLine {
    /// `player` or `spectator`.
    pub room: String,
    /// Who wrote it.
    pub username: String,
    /// What they wrote.
    pub text: String,
}

/// Whether the opponent has left the game (`OpponentGone`).
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpponentGone {
    /// Gone (or back).
    pub gone: bool,
    /// In how many seconds the player may claim the win.
    #[serde(default)]
    pub claim_win_in_seconds: Option<f64>,
}

impl Eq for OpponentGone {}

/// An error the API answers with (`Error`): `{"error": "..."}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ApiError {
    /// What was wrong.
    pub error: String,
}

/// `white` or `black` as a side.
pub fn color_named(name: &str) -> Option<Color> {
    match name {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The examples of the OpenAPI description, as published.
    const GAME_FULL: &str = r#"{"id":"xcoxhDvh","variant":{"key":"standard","name":"Standard","short":"Std"},"speed":"blitz","perf":{"name":"Blitz"},"rated":false,"createdAt":1789845859939,"white":{"id":"kenneth","name":"Kenneth","title":null,"rating":804},"black":{"id":"salma","name":"Salma","title":null,"rating":714},"initialFen":"startpos","clock":{"initial":300000,"increment":0},"type":"gameFull","state":{"type":"gameState","moves":"","wtime":300000,"btime":300000,"winc":0,"binc":0,"status":"started"}}"#;
    const GAME_START: &str = r#"{"type":"gameStart","game":{"fullId":"9NaCTu2vz1c4","gameId":"9NaCTu2v","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","color":"white","lastMove":"","source":"friend","status":{"id":20,"name":"started"},"variant":{"key":"standard","name":"Standard"},"speed":"blitz","perf":"blitz","rated":false,"hasMoved":false,"opponent":{"id":"mary","username":"Mary","rating":1007},"isMyTurn":true,"secondsLeft":300,"compat":{"bot":false,"board":true},"id":"9NaCTu2v"}}"#;

    #[test]
    fn the_published_examples_read() {
        let GameMessage::GameFull(full) = serde_json::from_str(GAME_FULL).expect("gameFull") else {
            panic!("not a gameFull");
        };
        assert_eq!(full.id, "xcoxhDvh");
        assert_eq!(full.initial_fen, "startpos");
        assert_eq!(
            full.clock,
            Some(GameClock {
                initial: 300_000,
                increment: 0
            })
        );
        assert_eq!(full.white.name.as_deref(), Some("Kenneth"));
        assert!(full.state.is_going_on() && full.state.uci_moves().next().is_none());
        let IncomingEvent::GameStart { game } = serde_json::from_str(GAME_START).expect("start")
        else {
            panic!("not a gameStart");
        };
        assert_eq!(game.game_id, "9NaCTu2v");
        assert_eq!(game.side(), Some(Color::White));
        assert!(game.board_compatible());
    }

    #[test]
    fn a_state_says_moves_clocks_offers_and_the_end() {
        let state: GameState = serde_json::from_str(
            r#"{"type":"gameState","moves":"e2e4 c7c5 f2f4","wtime":7598040,"btime":8395220,"winc":10000,"binc":10000,"status":"resign","winner":"black","bdraw":true}"#,
        )
        .expect("gameState");
        assert_eq!(
            state.uci_moves().collect::<Vec<_>>(),
            ["e2e4", "c7c5", "f2f4"]
        );
        assert_eq!(state.time_left(Color::Black), 8_395_220);
        assert!(!state.is_going_on());
        assert_eq!(state.winner_side(), Some(Color::Black));
        assert!(state.offers_draw(Color::Black) && !state.offers_draw(Color::White));
    }

    #[test]
    fn a_game_s_variant_is_read_and_only_chess_s_are_played() {
        let IncomingEvent::GameStart { game } =
            serde_json::from_str(GAME_START).expect("gameStart")
        else {
            panic!("not a gameStart");
        };
        assert_eq!(game.variant_key(), "standard");
        let atomic = GAME_START.replace(
            r#""variant":{"key":"standard","name":"Standard"}"#,
            r#""variant":{"key":"atomic","name":"Atomic"}"#,
        );
        let IncomingEvent::GameStart { game } = serde_json::from_str(&atomic).expect("gameStart")
        else {
            panic!("not a gameStart");
        };
        assert_eq!(game.variant_key(), "atomic");
        assert!(!is_chess(game.variant_key()));
        for key in ["standard", "chess960", "fromPosition"] {
            assert!(is_chess(key), "{key}");
        }
        for key in [
            "crazyhouse",
            "kingOfTheHill",
            "threeCheck",
            "antichess",
            "horde",
        ] {
            assert!(!is_chess(key), "{key}");
        }
    }

    #[test]
    fn unknown_messages_and_fields_are_ignored() {
        let message: GameMessage =
            serde_json::from_str(r#"{"type":"somethingNew","x":1}"#).expect("read");
        assert_eq!(message, GameMessage::Other);
        let gone: GameMessage = serde_json::from_str(
            r#"{"type":"opponentGone","gone":true,"claimWinInSeconds":8,"new":0}"#,
        )
        .expect("read");
        assert!(matches!(
            gone,
            GameMessage::OpponentGone(OpponentGone { gone: true, .. })
        ));
        let chat: GameMessage = serde_json::from_str(
            r#"{"type":"chatLine","room":"player","username":"thibault","text":"Good luck, have fun"}"#,
        )
        .expect("read");
        assert!(
            matches!(chat, GameMessage::ChatLine(ref line) if line.text == "Good luck, have fun")
        );
    }
}
