//! `serve --config hall.toml`: a hall in one file. Three boards of three protocols, emulated as
//! independent processes on real pseudo-terminals, are `[[board]]` tables with their players;
//! the round, the event, the Lichess round and the token's file are keys. serve runs from the
//! file alone (the command line gives only its address, which overrides the file's) and pushes
//! to a local stand-in for Lichess: the pushes carry the file's players, round and event, and
//! the token read from the file. Stopped with SIGTERM, as systemd stops the service, serve ends
//! well, each board's record closed.

use crate::common;

use std::time::Duration;

use common::push_stand_in::StandIn;
use common::serving::{serve_command, start, three_boards};
use common::watching::source_game;

const TOKEN: &str = "lip_touchmoveHallFileToken0123456789";

#[test]
fn serve_runs_a_hall_from_its_file() {
    let stand_in = StandIn::start(|_| (200, vec![], r#"{"games":[]}"#.to_owned()));
    let (boards, ports) = three_boards();
    let dir = tempfile::tempdir().expect("a directory");
    let token_file = dir.path().join("lichess.token");
    let records = dir.path().join("records");
    std::fs::write(&token_file, format!("{TOKEN}\n")).expect("the token written");
    // The ports as three_boards gives them: `north=PORT`, `hall:PORT`, `chesslink:PORT`.
    let port = |spec: &str| {
        spec.rsplit([':', '='])
            .next()
            .unwrap_or_default()
            .to_owned()
    };
    let hall = format!(
        r#"# Round 4, three boards
event = "Club championship"
round = "4"
# Overridden by the command line's --listen (nothing of this machine answers there).
listen = "192.0.2.1:80"
lichess-round = "r0und1d"
lichess-url = "http://{stand_in}"
lichess-token-file = "{token}"
slide-ms = 12
bounce-ms = 2
record-dir = "{records}"

[[board]]
name = "north"
port = "{dgt}"
white = "Carlsen, Magnus"
black = "Nakamura, Hikaru"

[[board]]
protocol = "hall"
port = "{hall}"

[[board]]
name = "south"
protocol = "chesslink"
port = "{chesslink}"
white = "Anna"
black = "Boris"
"#,
        stand_in = stand_in.address,
        token = token_file.display(),
        records = records.display(),
        dgt = port(&ports[0]),
        hall = port(&ports[1]),
        chesslink = port(&ports[2]),
    );
    let config = dir.path().join("hall.toml");
    std::fs::write(&config, hall).expect("the hall written");
    let mut command = serve_command(&["--config", config.to_str().expect("a UTF-8 path")]);
    command.env_remove("LICHESS_TOKEN");
    let served = start(command);
    assert!(
        served.address.starts_with("127.0.0.1:"),
        "{}",
        served.address
    );

    // Pushes go on until one holds the three games played to their end.
    let played = source_game("games/coverage.pgn", 1);
    let received = stand_in.until(Duration::from_secs(120), |received| {
        received
            .last()
            .is_some_and(|last| common::pgn_games(&last.body) == vec![played.clone(); 3])
    });
    let last = received.last().cloned().expect("a push");
    assert_eq!(last.path, "/api/broadcast/round/r0und1d/push");
    assert_eq!(
        last.authorization.as_deref(),
        Some(format!("Bearer {TOKEN}").as_str()),
        "the token of lichess-token-file"
    );
    for tag in [
        "[Event \"Club championship\"]",
        "[Round \"4\"]",
        "[Board \"north\"]",
        "[White \"Carlsen, Magnus\"]",
        "[Black \"Nakamura, Hikaru\"]",
        "[Board \"2\"]",
        "[Board \"south\"]",
        "[White \"Anna\"]",
        "[Black \"Boris\"]",
    ] {
        assert!(last.body.contains(tag), "{tag} missing:\n{}", last.body);
    }

    // systemd stops the service with SIGTERM: serve ends as on Ctrl-C, its records closed.
    let mut served = served;
    common::child::terminate(&served.child);
    let status = common::child::ends_within(&mut served.child, Duration::from_secs(60));
    assert!(
        status.is_some_and(|status| status.success()),
        "serve did not end well on SIGTERM: {status:?}"
    );
    let mut logs: Vec<String> = std::fs::read_dir(&records)
        .expect("the records")
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    logs.sort();
    assert_eq!(logs, ["2-game1.log", "north-game1.log", "south-game1.log"]);
    for log in &logs {
        let text = std::fs::read_to_string(records.join(log)).expect("a record");
        assert!(text.ends_with('\n'), "{log} ends in the middle of a line");
    }
    drop(served);
    drop(boards);
}

#[test]
fn a_bad_hall_file_is_refused_with_its_line_and_key() {
    let dir = tempfile::tempdir().expect("a directory");
    let config = dir.path().join("hall.toml");
    std::fs::write(
        &config,
        "round = \"4\"\n[[board]]\nport = \"/dev/null\"\nplayer = \"A\"\n",
    )
    .expect("written");
    let output = common::bin()
        .args(["serve", "--config"])
        .arg(&config)
        .output()
        .expect("touchmove runs");
    let said = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(
        said.contains(&format!(
            "{}:4: `board`: no such key `player`",
            config.display()
        )),
        "{said}"
    );
}
