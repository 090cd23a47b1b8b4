//! `touchmove doctor`, run as a user runs it: an emulated DGT board on a real pseudo-terminal
//! is found on its port; an engine that is not there, a port this user may not open and a
//! Lichess token are each reported with their fix (the token asked of a local stand-in for
//! Lichess's `POST /api/token/test`); a hall file is read back, its token's value hidden. The
//! exit status says whether something the commands asked about needs is missing.

use crate::common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Output;

use common::emulator::emulate_board;

/// `touchmove doctor ARGS`, its output.
fn doctor(args: &[&str]) -> Output {
    common::bin()
        .arg("doctor")
        .args(args)
        .env_remove("LICHESS_TOKEN")
        .output()
        .expect("doctor runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn an_engine_missing_fails_play_with_its_fix_and_one_there_passes() {
    let board = emulate_board("dgt", &["--pgn", "fixtures/games/coverage.pgn"]);
    let stockfish = common::tools::stockfish();
    let found = doctor(&["play", "--port", &board.port, "--engine", &stockfish]);
    let said = stdout(&found);
    let board_line = format!("  ok       {}: a board: DGT board", board.port);
    assert!(
        said.contains(&board_line),
        "the emulated board is not found:\n{said}"
    );
    assert!(said.ends_with("nothing is missing for play\n"), "{said}");
    assert_eq!(found.status.code(), Some(0), "{said}");

    let missing = doctor(&[
        "play",
        "--port",
        &board.port,
        "--engine",
        "no-such-engine-xyz",
    ]);
    let said = stdout(&missing);
    let expected = "  MISSING  engine `no-such-engine-xyz`: not found on the PATH nor in /usr/games \
                    (needed by play)\n           fix: `sudo apt-get install stockfish`, or give \
                    --engine the path of a UCI engine\n";
    assert!(said.contains(expected), "{said}");
    assert!(
        said.ends_with("1 missing for play: see the fixes above\n"),
        "{said}"
    );
    assert_eq!(missing.status.code(), Some(1), "{said}");
}

#[test]
fn an_engine_in_usr_games_only_is_named_with_the_path_to_give() {
    assert!(
        Path::new("/usr/games/stockfish").exists(),
        "Debian's Stockfish is missing from /usr/games: `apt-get install -y stockfish`"
    );
    let output = common::bin()
        .args(["doctor", "play", "--engine", "stockfish"])
        .env("PATH", "/usr/bin:/bin")
        .output()
        .expect("doctor runs");
    let said = stdout(&output);
    let expected = "  note     engine stockfish: in /usr/games, not on the PATH\n           fix: \
                    give `--engine /usr/games/stockfish`, or add /usr/games to the PATH\n";
    assert!(said.contains(expected), "{said}");
}

#[test]
fn a_port_this_user_may_not_open_is_named_with_its_fix() {
    let dir = tempfile::tempdir().expect("a directory");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).expect("755");
    let port = dir.path().join("ttyBOARD");
    std::fs::write(&port, "").expect("a port");
    let port_name = port.display().to_string();
    let output = if is_root() {
        // Root may open anything: the port is the group dialout's (gid 20 on Debian), 0660,
        // and doctor runs as nobody, who is not in it.
        std::os::unix::fs::chown(&port, Some(0), Some(20)).expect("chown");
        std::fs::set_permissions(&port, std::fs::Permissions::from_mode(0o660)).expect("660");
        let setpriv = "/usr/bin/setpriv";
        assert!(
            Path::new(setpriv).exists(),
            "setpriv is missing: `apt-get install -y util-linux`"
        );
        std::process::Command::new(setpriv)
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(common::bin().get_program())
            .args(["doctor", "watch", "--port", &port_name])
            .env_remove("LICHESS_TOKEN")
            .output()
            .expect("doctor runs as nobody")
    } else {
        std::fs::set_permissions(&port, std::fs::Permissions::from_mode(0o000)).expect("000");
        doctor(&["watch", "--port", &port_name])
    };
    let said = stdout(&output);
    let line = said
        .lines()
        .find(|line| line.contains(&port_name))
        .unwrap_or_default();
    assert!(line.starts_with("  MISSING  port "), "{said}");
    assert!(
        line.contains("may not read and write it (Permission denied"),
        "{said}"
    );
    assert!(
        line.ends_with("(needed by watch, play, online, serve, calibrate)"),
        "{said}"
    );
    let fix = if is_root() {
        "fix: `sudo usermod -aG dialout nobody`, then log out and in again".to_owned()
    } else {
        "fix: its group".to_owned()
    };
    assert!(said.contains(&fix), "{said}");
    assert_eq!(output.status.code(), Some(1), "{said}");
}

/// Whether the tests run as root.
fn is_root() -> bool {
    std::fs::metadata("/proc/self")
        .map(|metadata| std::os::unix::fs::MetadataExt::uid(&metadata) == 0)
        .unwrap_or(false)
}

#[test]
fn the_lichess_token_is_asked_of_the_server_and_never_printed() {
    use common::lichess::{Script, StandIn, TOKEN, USER_ID};
    let stand_in = StandIn::start(Script::new(shakmaty::Color::White, &[]));
    let dir = tempfile::tempdir().expect("a directory");
    let file = dir.path().join("lichess.token");
    let asked = |token: &str| {
        std::fs::write(&file, format!("{token}\n")).expect("the token written");
        let file = file.display().to_string();
        let output = doctor(&[
            "online",
            "--lichess-token-file",
            &file,
            "--lichess-url",
            &stand_in.url,
        ]);
        let said = format!(
            "{}{}",
            stdout(&output),
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(!said.contains(token), "the token is printed:\n{said}");
        said
    };
    let said = asked(TOKEN);
    assert!(
        said.contains(&format!(
            "  ok       Lichess token: account {USER_ID}, board:play\n"
        )),
        "{said}"
    );
    assert!(
        said.contains(
            "  note     Lichess token: no study:write scope (a broadcast push needs it)\n"
        ),
        "{said}"
    );
    let said = asked("lip_revokedToken42");
    assert!(
        said.contains(
            "  MISSING  Lichess token: the server does not know it (revoked, expired or \
             mistyped) (needed by online, serve)\n"
        ),
        "{said}"
    );
    let posted = stand_in
        .received()
        .iter()
        .filter(|request| request.path == "/api/token/test")
        .count();
    assert_eq!(posted, 2, "each token asked once");
}

#[test]
fn a_hall_file_is_read_back_with_its_token_hidden() {
    let dir = tempfile::tempdir().expect("a directory");
    let config = dir.path().join("hall.toml");
    let secret = "operatorSecret123";
    let hall = format!("event = \"Open\"\n\ntoken = \"{secret}\"\nconsole = true\n");
    std::fs::write(&config, hall).expect("written");
    let config_name = config.display().to_string();
    let output = doctor(&["serve", "--config", &config_name]);
    let said = stdout(&output);
    let expected = format!(
        "hall file\n  ok       {config_name}: 3 key(s), as serve reads them:\n  ok         line 1: \
         --event=Open\n  ok         line 3: --token=(hidden)\n  ok         line 4: --console\n"
    );
    assert!(said.starts_with(&expected), "{said}");
    assert!(!said.contains(secret), "the token is printed:\n{said}");

    std::fs::write(&config, "event = \"Open\"\nconsle = true\n").expect("written");
    let output = doctor(&["serve", "--config", &config_name]);
    let said = stdout(&output);
    assert!(
        said.contains(&format!(
            "  MISSING  {config_name}:2: `consle`: no such key"
        )),
        "{said}"
    );
    assert_eq!(output.status.code(), Some(1), "{said}");
}
