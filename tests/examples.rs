//! The examples run and say what they should: `cargo test` builds them beside the test
//! binaries (`target/<profile>/examples/`), and they are run from there as `cargo run --example`
//! would.

use std::path::PathBuf;
use std::process::Command;

/// The built example called `name`.
fn example(name: &str) -> PathBuf {
    let test = std::env::current_exe().expect("the test binary's path");
    // target/<profile>/deps/examples-… → target/<profile>/examples/<name>
    let profile = test
        .parent()
        .and_then(|deps| deps.parent())
        .expect("the profile directory");
    profile.join("examples").join(name)
}

fn run(name: &str, args: &[&str]) -> String {
    let output = Command::new(example(name))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap_or_else(|error| panic!("{name}: {error}"));
    assert!(
        output.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn embed_prints_the_moves_of_a_log() {
    let out = run("embed", &["fixtures/checkmate.log"]);
    assert!(out.contains("black Qh4#"), "{out}");
}

#[test]
fn the_custom_protocol_plays_its_three_moves_and_lights_them() {
    let out = run("custom_protocol", &[]);
    for line in ["1. e4", "1... e5", "2. Nf3", "to the board: light g1 f3"] {
        assert!(out.contains(line), "`{line}` missing:\n{out}");
    }
    assert!(out.contains("notice: not a report: \"%&*\""), "{out}");
}

/// The embedding example decides every fixture as `touchmove replay --json` does, byte for
/// byte: it resolves a log's settings with the same function (the log's, else its board's).
/// Fixtures run with command-line options are left out (the example takes none), and so are a
/// game against an engine's `engine` and `execution` lines, which come from the engine game
/// (`touchmove::play`), not the interpreter.
#[test]
fn embed_decides_every_fixture_as_replay_does() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut logs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixtures/")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "log"))
        .filter(|path| {
            let text = std::fs::read_to_string(path).expect("a fixture");
            !text.lines().any(|line| line.starts_with("# options:"))
        })
        .collect();
    logs.sort();
    assert!(
        logs.len() > 50,
        "only {} fixtures without options",
        logs.len()
    );
    let mut compared = 0;
    for log in &logs {
        let log = log.to_str().expect("a UTF-8 path");
        let embedded = run("embed", &["--json", log]);
        let replayed = Command::new(env!("CARGO_BIN_EXE_touchmove"))
            .args(["replay", "--json", log])
            .output()
            .expect("touchmove replay");
        assert!(replayed.status.success(), "replay {log}");
        let replayed: Vec<&str> = std::str::from_utf8(&replayed.stdout)
            .expect("UTF-8")
            .lines()
            .filter(|line| {
                !line.contains(r#""kind":"engine""#) && !line.contains(r#""kind":"execution""#)
            })
            .collect();
        let embedded: Vec<&str> = embedded.lines().collect();
        assert_eq!(embedded, replayed, "{log}: the example decides otherwise");
        compared += usize::from(!replayed.is_empty());
    }
    assert_eq!(compared, logs.len(), "a fixture decided nothing");
}
