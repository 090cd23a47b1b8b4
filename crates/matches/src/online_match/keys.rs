//! What the player types at the terminal during an online game: the requests of the Board API
//! that are no move, and the piece of a promotion the board cannot identify.

use tokio::sync::mpsc;

use touchmove_online::lichess::request::Request;

use touchmove_runtime::keys::typed::read_typed;
use touchmove_web::asked::{Asked, promotion_piece};

/// What typing does, said when a line is not understood.
const TYPED: &str = "`draw` (offer or accept), `draw no`, `takeback` (propose or accept), \
                     `takeback no`, `resign`, `abort`, `claim` (the opponent has left), \
                     `promote q|r|b|n` (a promotion's piece)";

/// What a typed line asks for, if it names something.
pub fn typed_request(line: &str) -> Option<Asked> {
    Some(Asked::Server(
        match line.split_whitespace().collect::<Vec<_>>().as_slice() {
            ["promote", letter] => return promotion_piece(letter).map(Asked::Promotion),
            ["draw"] | ["draw", "yes"] => Request::Draw(true),
            ["draw", "no"] => Request::Draw(false),
            ["takeback"] | ["takeback", "yes"] => Request::Takeback(true),
            ["takeback", "no"] => Request::Takeback(false),
            ["resign"] => Request::Resign,
            ["abort"] => Request::Abort,
            ["claim"] | ["claim-victory"] => Request::ClaimVictory,
            _ => return None,
        },
    ))
}

/// Reads what the player types and hands each request on to `requests`.
pub fn read_keys(requests: mpsc::UnboundedSender<Asked>) {
    read_typed(TYPED, move |line| {
        match typed_request(&line.to_ascii_lowercase()) {
            Some(request) => requests.send(request).is_ok(),
            None => {
                eprintln!("touchmove: `{line}`? type {TYPED}, and Enter");
                true
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_request_has_its_words() {
        let cases = [
            ("draw", Some(Request::Draw(true))),
            ("draw no", Some(Request::Draw(false))),
            ("takeback", Some(Request::Takeback(true))),
            ("takeback  no", Some(Request::Takeback(false))),
            ("resign", Some(Request::Resign)),
            ("abort", Some(Request::Abort)),
            ("claim", Some(Request::ClaimVictory)),
            ("e2e4", None),
            ("draw maybe", None),
        ];
        for (line, request) in cases {
            assert_eq!(typed_request(line), request.map(Asked::Server), "{line}");
        }
        let knight = Some(Asked::Promotion(shakmaty::Role::Knight));
        assert_eq!(typed_request("promote n"), knight);
        assert_eq!(typed_request("promote k"), None);
    }
}
