//! Bluetooth LE boards as a person would use them, without a radio: a private D-Bus bus
//! (Debian's `dbus-daemon`), `touchmove emulate chessnut|pegasus|eone|squareoff` serving its
//! board behind the BlueZ stand-in on it, and `touchmove watch --port ble:NAME` reaching the
//! board through the real Bluetooth code (btleplug, bluez-async, libdbus) pointed at the bus
//! by `DBUS_SYSTEM_BUS_ADDRESS`. The game watched is the game played, live as in the replay of
//! the recording; a link dropped mid-game is reconnected and loses nothing.

use std::path::Path;
use std::process::Stdio;

use serde_json::Value;

use crate::common;

use common::ble::{Bus, emulate_on, families, private_bus};
use common::watching::replay_with;

/// What `watch` decided and recorded.
struct Watched {
    events: Vec<Value>,
    links: Vec<String>,
    /// The `battery` lines.
    batteries: Vec<Value>,
    record: std::path::PathBuf,
    stderr: String,
    _dir: tempfile::TempDir,
}

/// `touchmove watch [--protocol BOARD] --port PORT --json` on `bus` until the board has been
/// gone `give_up` seconds (without a protocol, the family is the one the board tells).
fn watch_on(bus: &Bus, board: Option<&str>, port: &str, give_up: &str) -> Watched {
    let dir = tempfile::tempdir().expect("a folder");
    let record = dir.path().join("game.log");
    let named: Vec<&str> = board
        .map(|board| vec!["--protocol", board])
        .unwrap_or_default();
    let output = common::bin()
        .args(["watch", "--json", "--give-up-after", give_up])
        .args(named)
        .args(["--port", port])
        .arg("--record")
        .arg(&record)
        .args(common::SCALED_WINDOWS)
        .env(common::ble::BUS_VARIABLE, &bus.address)
        .stdin(Stdio::null())
        .output()
        .expect("watch runs");
    common::assert_gave_up(&output);
    let (links, events): (Vec<Value>, Vec<Value>) = common::json_lines(&output.stdout)
        .into_iter()
        .partition(common::live_only);
    Watched {
        events,
        batteries: links
            .iter()
            .filter(|event| event["kind"] == "battery")
            .cloned()
            .collect(),
        links: links
            .iter()
            .filter_map(|event| event["state"].as_str())
            .map(str::to_owned)
            .collect(),
        record,
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        _dir: dir,
    }
}

/// A Ruy Lopez to both sides castled: no promotion, which an occupancy board cannot tell.
const RUY_LOPEZ: &str = "[Event \"ble\"]\n[White \"W\"]\n[Black \"B\"]\n[Result \"*\"]\n\n\
1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O *\n";

/// The same, move by move.
const RUY_LOPEZ_SAN: [&str; 16] = [
    "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6",
    "c3", "O-O",
];

/// How `watch` is told the board's family.
#[derive(Clone, Copy)]
enum Family {
    /// `--protocol NAME`.
    Named,
    /// Nothing: the board tells it.
    Told,
}

/// The game `board` plays on `bus` from `pgn` (at `speed` times a player's pace), watched until
/// the board has been gone `give_up` seconds.
fn played(
    board: &str,
    family: Family,
    pgn: &Path,
    speed: &str,
    give_up: &str,
    extra: &[&str],
) -> Watched {
    let bus = private_bus();
    let mut args = vec!["--pgn", pgn.to_str().expect("a path"), "--speed", speed];
    args.extend_from_slice(extra);
    let emulator = emulate_on(&bus, board, &args, Stdio::inherit());
    let named = match family {
        Family::Named => Some(board),
        Family::Told => None,
    };
    let watched = watch_on(&bus, named, &emulator.port, give_up);
    drop(emulator);
    watched
}

fn assert_live_equals_replay(board: &str, watched: &Watched) {
    assert_eq!(
        watched.events,
        replay_with(&watched.record, &common::SCALED_WINDOWS),
        "{board}: live decisions differ from the replay of the recording\n{}",
        watched.stderr
    );
}

/// Each board is watched without naming its family: the board tells it.
#[test]
fn every_bluetooth_family_plays_the_game_watched_through_the_bluez_stand_in() {
    let dir = tempfile::tempdir().expect("a folder");
    let pgn = dir.path().join("ruy.pgn");
    std::fs::write(&pgn, RUY_LOPEZ).expect("written");
    for board in families() {
        let watched = played(board, Family::Told, &pgn, "20", "1", &[]);
        assert_eq!(
            common::recorded_games(&watched.events),
            vec![
                RUY_LOPEZ_SAN
                    .iter()
                    .map(|san| (*san).to_owned())
                    .collect::<Vec<_>>()
            ],
            "{board}: not the game played\n{}",
            watched.stderr
        );
        assert_live_equals_replay(board, &watched);
        assert!(
            watched.stderr.contains("connected to ble:"),
            "{board}: {}",
            watched.stderr
        );
        // The boards that tell their battery (the eONE does not): what the emulated one holds
        // (a Chessnut Move's asked as `41 01 0c`, answered `41 03 0c`).
        let told = match board {
            "chessnut" | "chessnut-move" => {
                Some(touchmove_simulation::emulators::chessnut::BATTERY_PERCENT)
            }
            "pegasus" => Some(touchmove_simulation::emulators::pegasus::BATTERY_PERCENT),
            _ => None,
        };
        let percents: Vec<Option<u64>> = watched
            .batteries
            .iter()
            .map(|event| event["percent"].as_u64())
            .collect();
        match told {
            Some(percent) => assert_eq!(
                percents.first(),
                Some(&Some(u64::from(percent))),
                "{board}: {:?}",
                watched.batteries
            ),
            None => assert!(percents.is_empty(), "{board}: {percents:?}"),
        }
    }
}

#[test]
fn a_chessnut_link_dropped_for_3_s_mid_game_is_reconnected_and_the_game_goes_on() {
    let pgn = common::fixture_dir().join("games/coverage.pgn");
    // At 4 times a player's pace the game lasts about 15 s; the board is switched off 3 s
    // after it began, for 3 s (the emulator's own time, not the script's).
    let watched = played(
        "chessnut",
        Family::Named,
        &pgn,
        "4",
        // Waited for longer than the drop.
        "6",
        &["--unplug-at", "3000", "--unplug-for", "3000"],
    );
    assert_eq!(
        common::recorded_games(&watched.events),
        vec![common::watching::source_game("games/coverage.pgn", 1)],
        "not the game played\n{}",
        watched.stderr
    );
    assert_live_equals_replay("chessnut", &watched);
    let connections = watched.stderr.matches("connected to ble:").count();
    assert!(connections >= 2, "never reconnected:\n{}", watched.stderr);
    assert!(
        watched.links.iter().any(|state| state == "lost"),
        "{:?}\n{}",
        watched.links,
        watched.stderr
    );
}

#[test]
fn ports_lists_each_bluetooth_board_in_range_with_its_family_and_signal() {
    let dir = tempfile::tempdir().expect("a folder");
    let pgn = dir.path().join("ruy.pgn");
    std::fs::write(&pgn, RUY_LOPEZ).expect("written");
    for family in families() {
        let bus = private_bus();
        let args = ["--pgn", pgn.to_str().expect("a path")];
        let emulator = emulate_on(&bus, family, &args, Stdio::inherit());
        let output = common::bin()
            .arg("ports")
            .env(common::ble::BUS_VARIABLE, &bus.address)
            .output()
            .expect("ports runs");
        let port = emulator.port.clone();
        drop(emulator);
        assert!(output.status.success());
        let stdout = String::from_utf8_lossy(&output.stdout);
        // The emulated board's address and signal strength are the stand-in's.
        let expected = format!("{port}\tC0:FF:EE:00:00:01\t--protocol {family}\t-58 dBm");
        assert!(
            stdout.lines().any(|line| line == expected),
            "{expected:?} not in:\n{stdout}"
        );
    }
}

#[test]
fn a_pegasus_promotion_waits_for_the_piece_typed_at_watch_s_terminal() {
    use std::io::Write;
    // 5. bxa8=N: a Pegasus senses only that a8 is occupied; watch asks for the piece and the
    // player types the knight.
    let dir = tempfile::tempdir().expect("a folder");
    let pgn = dir.path().join("knight.pgn");
    std::fs::write(
        &pgn,
        "[Event \"knight\"]\n\n1. e4 d5 2. exd5 c6 3. dxc6 Qb6 4. cxb7 Kd8 5. bxa8=N *\n",
    )
    .expect("written");
    let bus = private_bus();
    let args = ["--pgn", pgn.to_str().expect("a path"), "--speed", "10"];
    let emulator = emulate_on(&bus, "pegasus", &args, Stdio::inherit());
    let record = dir.path().join("game.log");
    let mut watch = common::bin()
        .args(["watch", "--json", "--give-up-after", "1"])
        .args(["--port", &emulator.port])
        .arg("--record")
        .arg(&record)
        .args(common::SCALED_WINDOWS)
        .env(common::ble::BUS_VARIABLE, &bus.address)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("watch runs");
    let mut keyboard = watch.stdin.take().expect("stdin");
    let said = common::child::lines_of(watch.stderr.take().expect("stderr"));
    let lines = common::child::lines_of(watch.stdout.take().expect("stdout"));
    let mut stderr = Vec::new();
    loop {
        let line = said
            .recv_timeout(std::time::Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("no promotion asked for: {stderr:?}"));
        let asked = line.contains("b7-a8 promotes: choose the piece");
        stderr.push(line);
        if asked {
            break;
        }
    }
    keyboard.write_all(b"promote n\n").expect("typed");
    let status = watch.wait().expect("watch ends");
    drop(emulator);
    stderr.extend(said.iter());
    let stderr = stderr.join("\n");
    // It gives up once the board has gone (the emulator ended), as it says.
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert_eq!(stderr.matches("giving up").count(), 1, "{stderr}");
    let events: Vec<Value> = lines
        .iter()
        .map(|line| serde_json::from_str(&line).expect("JSON"))
        .filter(|event: &Value| !common::live_only(event))
        .collect();
    let sans = [
        "e4", "d5", "exd5", "c6", "dxc6", "Qb6", "cxb7", "Kd8", "bxa8=N",
    ];
    assert_eq!(
        common::recorded_games(&events),
        vec![sans.iter().map(|san| (*san).to_owned()).collect::<Vec<_>>()],
        "{stderr}"
    );
    assert!(
        events.iter().all(|e| e["promotion_default"].is_null()),
        "{events:?}"
    );
    let recorded = std::fs::read_to_string(&record).expect("the recording");
    assert!(
        recorded.lines().any(|l| l == "@promotion-choice awaited")
            && recorded.lines().any(|l| l.ends_with(" promote n")),
        "{recorded}"
    );
    assert_eq!(
        events,
        replay_with(&record, &common::SCALED_WINDOWS),
        "live decisions differ from the replay of the recording\n{stderr}"
    );
}
