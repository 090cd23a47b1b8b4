//! A hall across hosts: two `serve` processes, each with its own demo boards, push to one
//! Lichess broadcast round, a stand-in that merges pushes as lila's `RelayUpdatePlan` does
//! (`common::relay`). Both hosts play the same pairings in the same order on boards of the
//! same names (`--demo-first 1`), with the same event, site and round: the case where matching
//! by tags would merge host B's games into host A's chapters. Each game carries a `GameId`
//! naming its host, board, number and start, so every game of both hosts is a chapter of its
//! own: none replaced, none dropped, each with its players, its `GameId` and its `Date`.

use crate::common;

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::push_stand_in::StandIn;
use common::relay::Round;
use common::serving::{serve_command, start};

const TOKEN: &str = "lip_touchmoveHallAcrossHosts0123456789";

/// A host of the hall: two demo boards pushing to the round at `url`.
fn host(name: &str, url: &str) -> common::serving::Serve {
    let mut command = serve_command(&[
        "--host-id",
        name,
        "--demo",
        "2",
        "--demo-first",
        "1",
        "--demo-speed",
        "8",
        "--demo-thinking",
        "200-400",
        "--slide-ms",
        "30",
        "--bounce-ms",
        "6",
        "--event",
        "Club championship",
        "--site",
        "Oslo NOR",
        "--round",
        "4",
        "--lichess-round",
        "r0und1d",
        "--lichess-url",
        url,
    ]);
    command.env("LICHESS_TOKEN", TOKEN);
    start(command)
}

#[test]
fn two_hosts_push_to_one_round_and_every_game_is_a_chapter_of_its_own() {
    let round = Arc::new(Mutex::new(Round::default()));
    let pushed = Arc::clone(&round);
    let stand_in = StandIn::answering(Arc::new(move |_, body: &str| {
        let reply = pushed.lock().expect("the round").push(body);
        (200, Vec::new(), reply)
    }));
    let url = format!("http://{}", stand_in.address);
    let a = host("hall-a", &url);
    let b = host("hall-b", &url);

    // Until each host's boards have begun their second game (so that each pushed a finished
    // game and the game after it).
    let deadline = Instant::now() + Duration::from_secs(240);
    let second_games = |round: &Round| {
        round
            .chapters
            .iter()
            .filter_map(|chapter| chapter.tags.get("GameId"))
            .filter(|id| id.split('/').nth(2) == Some("2"))
            .filter_map(|id| id.split('/').next().map(str::to_owned))
            .collect::<BTreeSet<String>>()
    };
    loop {
        let hosts = second_games(&round.lock().expect("the round"));
        if hosts.len() == 2 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no second game on both hosts: {hosts:?}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    drop((a, b));
    let round = round.lock().expect("the round");

    // Every chapter a game of its own, named by one host: as many chapters as games pushed.
    let ids: Vec<&String> = round
        .chapters
        .iter()
        .filter_map(|c| c.tags.get("GameId"))
        .collect();
    assert_eq!(
        ids.len(),
        round.chapters.len(),
        "a chapter without a GameId"
    );
    let distinct: BTreeSet<&String> = ids.iter().copied().collect();
    assert_eq!(
        distinct.len(),
        ids.len(),
        "two chapters of one game: {ids:?}"
    );
    for host in ["hall-a", "hall-b"] {
        for board in ["1", "2"] {
            let games = ids
                .iter()
                .filter(|id| id.starts_with(&format!("{host}/{board}/")))
                .count();
            assert!(games >= 1, "no game of {host}'s board {board}: {ids:?}");
        }
    }
    assert!(
        round.replaced.is_empty(),
        "chapters replaced: {:?}",
        round.replaced
    );
    assert!(
        round.dropped.is_empty(),
        "games dropped: {:?}",
        round.dropped
    );
    for chapter in &round.chapters {
        let tag = |name: &str| chapter.tags.get(name).map(String::as_str).unwrap_or("?");
        for side in ["White", "Black"] {
            assert_ne!(tag(side), "?", "{side} unknown: {:?}", chapter.tags);
        }
        let date = tag("Date");
        assert!(
            touchmove::sensor_log::GameLabel::is_date(date),
            "no date: {:?}",
            chapter.tags
        );
        assert_eq!(tag("Site"), "Oslo NOR");
        assert_eq!(tag("Round"), "4");
    }
    // Both hosts played the same games: by tags alone they would be one host's chapters.
    let first_of = |host: &str| {
        round
            .chapters
            .iter()
            .find(|c| {
                c.tags
                    .get("GameId")
                    .is_some_and(|id| id.starts_with(&format!("{host}/1/1/")))
            })
            .map(|c| (c.tags.get("White").cloned(), c.tags.get("Black").cloned()))
    };
    assert_eq!(
        first_of("hall-a"),
        first_of("hall-b"),
        "the hosts' pairings differ"
    );
    assert!(round.pushes >= 2);
}
