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
