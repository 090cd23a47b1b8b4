//! `touchmove watch` against an emulated board, and `touchmove replay` of what it recorded,
//! as real processes: the pieces the end-to-end tests of every board protocol share.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use serde_json::Value;
use touchmove_simulation::fidelity::san_list;
use touchmove_simulation::pgn_games::read_games;

use super::emulator::emulate_board;

/// What a `watch` run gave.
pub struct Watched {
    /// The JSON game events on standard output (the link's states and the notices left out: a
    /// replay has none).
    pub events: Vec<Value>,
    /// The link's states on standard output (`link` events): `lost`, `back`.
    pub links: Vec<String>,
    /// The notices on standard output (`notice` events' `text`), in order.
    pub notices: Vec<String>,
    /// The sensor log it recorded.
    pub record: PathBuf,
    /// Its diagnostics.
    pub stderr: String,
}

/// Starts `touchmove emulate BOARD EMULATE_ARGS` and runs `touchmove watch --json WATCH_ARGS`
/// on its port until the board has gone, recording the sensor log under `name`.
pub fn watch_board(board: &str, name: &str, emulate_args: &[&str], watch_args: &[&str]) -> Watched {
    watch_board_kept(board, name, emulate_args, watch_args, None)
}

/// Where a board is known from one run to the next: the data directory where what is learnt
/// of it is kept, and the stable name of its port (a link to its pseudo-terminal, as
/// `/dev/serial/by-id/…` names a USB board).
pub struct Kept<'a> {
    /// The `XDG_DATA_HOME` of the runs.
    pub data: &'a Path,
    /// The port's stable name.
    pub link: &'a Path,
}

/// [`watch_board`], the board's port reached through `kept`'s link and what is learnt of it
/// kept in `kept`'s data directory, when given.
pub fn watch_board_kept(
    board: &str,
    name: &str,
    emulate_args: &[&str],
    watch_args: &[&str],
    kept: Option<&Kept>,
) -> Watched {
    // With -v the emulator says what its player types at the host (a promotion's piece the
    // board cannot tell), which is typed at watch's terminal, as the player would.
    let mut args = vec!["-v"];
    args.extend_from_slice(emulate_args);
    let mut emulator = emulate_board(board, &args);
    let dir = std::env::temp_dir().join(format!("touchmove-watch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp dir");
    let record = dir.join(format!("{board}-{name}.log"));
    let mut command = super::bin();
    let port = match kept {
        Some(kept) => {
            link_to(kept.link, &emulator.port);
            command.env("XDG_DATA_HOME", kept.data);
            kept.link.display().to_string()
        }
        None => emulator.port.clone(),
    };
    let mut child = command
        .args([
            "watch",
            "--protocol",
            board,
            "--json",
            "--give-up-after",
            "1",
        ])
        .args(["--port", &port])
        .arg("--record")
        .arg(&record)
        .args(watch_args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("watch runs");
    if let (Some(mut keyboard), Some(typed)) = (child.stdin.take(), emulator.typed.take()) {
        std::thread::spawn(move || {
            use std::io::Write;
            for line in typed {
                if writeln!(keyboard, "{line}").is_err() {
                    break;
                }
            }
        });
    }
    let output = child.wait_with_output().expect("watch runs");
    // The board gone for good, watch gives up.
    super::assert_gave_up(&output);
    let (notices, events): (Vec<Value>, Vec<Value>) = super::json_lines(&output.stdout)
        .into_iter()
        .partition(|event| event["kind"] == "notice");
    let (links, events): (Vec<Value>, Vec<Value>) = events
        .into_iter()
        .partition(|event| event["kind"] == "link");
    let links = links
        .iter()
        .map(|event| event["state"].as_str().unwrap_or("?").to_owned())
        .collect();
    let notices = notices
        .iter()
        .map(|event| event["text"].as_str().unwrap_or("?").to_owned())
        .collect();
    Watched {
        events,
        links,
        notices,
        record,
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Makes `link` (replacing what was there) a link to `port`.
pub fn link_to(link: &Path, port: &str) {
    let _ = std::fs::remove_file(link);
    std::os::unix::fs::symlink(port, link).expect("the port's stable name");
}

/// `touchmove replay --json ARGS` on `log`.
pub fn replay_with(log: &Path, args: &[&str]) -> Vec<Value> {
    let output = super::bin()
        .args(["replay", "--json"])
        .arg(log)
        .args(args)
        .output()
        .expect("replay runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    super::json_lines(&output.stdout)
}

/// The SAN of game `number` of `fixtures/PGN`, to the move that ends it by rule.
pub fn source_game(pgn: &str, number: usize) -> Vec<String> {
    let path = super::fixture_dir().join(pgn);
    let game = read_games(std::fs::File::open(path).expect("the PGN"))
        .filter_map(Result::ok)
        .find(|g| g.number == number)
        .expect("the game");
    san_list(&game.start, &game.moves)
}
