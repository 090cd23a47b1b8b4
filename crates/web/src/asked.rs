//! What the player asks at the host, whichever way it is asked (a key, the page's button):
//! shared by the pages (`requests.rs`, `board.rs`) and the key readers of `play` and `online`.

use shakmaty::Role;
use touchmove_online::lichess::request::Request;
pub use touchmove_runtime::keys::typed::promotion_piece;

/// What the player asks at the host (a key, the page's button): of an online game's server,
/// or of the engine of a game against it.
///
/// ```
/// use shakmaty::Role;
/// use touchmove_web::asked::{Asked, promotion_piece};
///
/// let knight = Asked::Promotion(promotion_piece("n").expect("a piece"));
/// assert_eq!(knight, Asked::Promotion(Role::Knight));
/// assert_eq!(knight.word(), "promote/n");
/// assert_eq!(knight.name(), "promotion to a knight");
/// assert_eq!(Asked::Hint.word(), "hint");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asked {
    /// A request of the server.
    Server(Request),
    /// The piece of the promotion waiting for it (the board cannot identify it), as a board's
    /// promotion button would choose it.
    Promotion(Role),
    /// A hint: the engine's best move for the player.
    Hint,
    /// Play on after the coach spoke (`play --coach`): the engine's reply held is carried out.
    PlayOn,
}

impl Asked {
    /// What was asked, in words (`draw`, `promotion to a knight`).
    pub fn name(&self) -> String {
        match self {
            Asked::Server(request) => request.name(),
            Asked::Promotion(role) => format!("promotion to a {role:?}").to_lowercase(),
            Asked::Hint => "hint".to_owned(),
            Asked::PlayOn => "play on".to_owned(),
        }
    }

    /// What was asked as the page's address says it (`draw/yes`, `promote/n`).
    pub fn word(&self) -> String {
        match self {
            Asked::Server(request) => request.word(),
            Asked::Promotion(role) => format!("promote/{}", role.char()),
            Asked::Hint => "hint".to_owned(),
            Asked::PlayOn => "play-on".to_owned(),
        }
    }
}
