//! The network: the addresses serve listens on, and the Lichess token asked of the server
//! itself (`POST /api/token/test`): whose it is and whether it has the scopes the commands need.

use std::net::{SocketAddr, TcpListener};

use touchmove::online::lichess::token_test::{BOARD_PLAY, STUDY_WRITE, TokenInfo};

use super::finding::{Finding, Need};

/// Where a personal token is made, with both scopes ticked.
const NEW_TOKEN: &str = "https://lichess.org/account/oauth/token/create?scopes[]=board:play\
                         &scopes[]=study:write&description=touchmove";

/// Whether `address` is free to listen on; `what` says who wants it and what happens if not.
pub fn free(address: SocketAddr, what: &str, if_taken: &str) -> Finding {
    match TcpListener::bind(address) {
        Ok(_) => Finding::ok(format!("{address} ({what}): free")),
        Err(error) => Finding::note(
            format!("{address} ({what}): {error}"),
            Some(if_taken.to_owned()),
        ),
    }
}

/// No token anywhere: online cannot play.
pub fn no_token() -> Finding {
    Finding::missing(
        &[Need::Online],
        "Lichess token: none (LICHESS_TOKEN is not set, no --lichess-token-file)",
        format!(
            "make a personal token ({NEW_TOKEN}) and keep it in a file for --lichess-token-file"
        ),
    )
}

/// What the server said of the token: `pushing` when a hall file pushes to a round (so that
/// serve needs `study:write`).
pub fn token(answer: Result<Option<TokenInfo>, String>, pushing: bool) -> Vec<Finding> {
    let info = match answer {
        Ok(Some(info)) => info,
        Ok(None) => {
            return vec![Finding::missing(
                &[Need::Online, Need::Serve],
                "Lichess token: the server does not know it (revoked, expired or mistyped)",
                format!("make a new one: {NEW_TOKEN}"),
            )];
        }
        Err(why) => {
            return vec![Finding::note(
                format!("Lichess token: not checked, the server did not answer ({why})"),
                Some("check the network, then run doctor again".to_owned()),
            )];
        }
    };
    let scopes = if info.scopes.is_empty() {
        "no scopes".to_owned()
    } else {
        info.scopes.join(", ")
    };
    let mut found = vec![Finding::ok(format!(
        "Lichess token: account {}, {scopes}",
        info.user_id
    ))];
    if !info.has(BOARD_PLAY) {
        found.push(Finding::missing(
            &[Need::Online],
            format!("Lichess token: no {BOARD_PLAY} scope (online plays through the Board API)"),
            format!("make a token with it: {NEW_TOKEN}"),
        ));
    }
    if !info.has(STUDY_WRITE) {
        let said = format!("Lichess token: no {STUDY_WRITE} scope (a broadcast push needs it)");
        let fix = format!("make a token with it: {NEW_TOKEN}");
        found.push(if pushing {
            Finding::missing(&[Need::Serve], said, fix)
        } else {
            Finding::note(said, Some(fix))
        });
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::doctor::finding::State;

    fn info(scopes: &[&str]) -> TokenInfo {
        TokenInfo {
            user_id: "anna".to_owned(),
            scopes: scopes.iter().map(|scope| (*scope).to_owned()).collect(),
            expires: None,
        }
    }

    #[test]
    fn a_token_without_board_play_is_missing_for_online() {
        let found = token(Ok(Some(info(&["study:write"]))), false);
        let states: Vec<State> = found.iter().map(|finding| finding.state.clone()).collect();
        assert_eq!(states, vec![State::Ok, State::Missing(&[Need::Online])]);
        assert_eq!(found[0].said, "Lichess token: account anna, study:write");
    }

    #[test]
    fn study_write_is_missing_only_for_a_hall_that_pushes() {
        let states = |pushing| {
            token(Ok(Some(info(&["board:play"]))), pushing)
                .into_iter()
                .map(|finding| finding.state)
                .collect::<Vec<_>>()
        };
        assert_eq!(states(false), vec![State::Ok, State::Note]);
        assert_eq!(
            states(true),
            vec![State::Ok, State::Missing(&[Need::Serve])]
        );
    }

    #[test]
    fn an_unknown_token_is_missing_and_an_unreachable_server_a_note() {
        let unknown = token(Ok(None), false);
        assert_eq!(unknown.len(), 1);
        assert!(unknown[0].fails(&[Need::Online]));
        let unreachable = token(Err("lichess.org:443: name not found".to_owned()), true);
        assert_eq!(unreachable[0].state, State::Note);
    }
}
