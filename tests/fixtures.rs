//! Every fixture in `fixtures/` through every path: the whole log at once, byte by byte through
//! the sans-IO decoder, in odd chunks through the reader, and the `touchmove replay --json`
//! process. Each path must give exactly the expected events; the PGN written must read back to
//! the recorded moves.

use crate::common;

use common::{
    Fixture, fixtures, replay_bytes_one_at_a_time, replay_in_chunks, replay_whole, run_cli,
};
use serde_json::Value;

/// Every field of `expected` is in `actual` with the same value (readers ignore extra fields);
/// a field `expected` gives as `null` must be absent from `actual`.
fn matches(expected: &Value, actual: &Value) -> bool {
    match (expected, actual) {
        (Value::Object(want), Value::Object(got)) => want
            .iter()
            .all(|(key, value)| got.get(key).map_or(value.is_null(), |g| matches(value, g))),
        _ => expected == actual,
    }
}

/// Why `actual` is not what the fixture expects, if it is not.
fn difference(fixture: &Fixture, path: &str, actual: &[Value]) -> Option<String> {
    let expected = &fixture.expected;
    let all: Vec<String> = actual.iter().map(Value::to_string).collect();
    let all = all.join("\n  ");
    if actual.len() != expected.len() {
        return Some(format!(
            "{} ({path}): {} events, expected {}:\n  {all}",
            fixture.name,
            actual.len(),
            expected.len()
        ));
    }
    expected
        .iter()
        .zip(actual)
        .position(|(want, got)| !matches(want, got))
        .map(|index| {
            format!(
                "{} ({path}): event {index} is\n  {}\nexpected\n  {}\nall:\n  {all}",
                fixture.name, actual[index], expected[index]
            )
        })
}

/// The events a fixture is checked against: `pending` events (what the board shows while it
/// waits to be decided) only where the fixture expects some, as the fixtures written before
/// them say the decisions alone.
fn checked(fixture: &Fixture, actual: Vec<Value>) -> Vec<Value> {
    let pending = |event: &Value| event.get("kind").and_then(Value::as_str) == Some("pending");
    if fixture.expected.iter().any(pending) {
        return actual;
    }
    actual.into_iter().filter(|event| !pending(event)).collect()
}

/// Runs `path` on every fixture and fails with every difference found.
fn check_all(path: &str, run: impl Fn(&Fixture) -> Vec<Value>) {
    let failures: Vec<String> = fixtures()
        .iter()
        .filter_map(|fixture| difference(fixture, path, &checked(fixture, run(fixture))))
        .collect();
    assert!(
        failures.is_empty(),
        "{} fixture(s) differ:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn there_are_fixtures_for_every_acceptance_case() {
    let all = fixtures();
    assert!(all.len() >= 50, "only {} fixtures", all.len());
    for fixture in &all {
        assert!(
            !fixture.expected.is_empty(),
            "{} expects nothing",
            fixture.name
        );
    }
}

#[test]
fn every_fixture_replayed_whole() {
    check_all("whole", replay_whole);
}

#[test]
fn every_fixture_decoded_byte_by_byte() {
    check_all("byte by byte", replay_bytes_one_at_a_time);
}

#[test]
fn every_fixture_read_in_odd_chunks() {
    check_all("chunks", |fixture| replay_in_chunks(fixture, 7));
}

#[test]
fn every_fixture_through_the_replay_command() {
    let written = std::cell::RefCell::new(Vec::new());
    check_all("touchmove replay --json", |fixture| {
        let run = run_cli(fixture);
        assert_eq!(
            run.pgn_sans, run.recorded_sans,
            "{}: the PGN does not read back to the recorded moves (pgn-reader)",
            fixture.name
        );
        written
            .borrow_mut()
            .push((fixture.name.clone(), run.pgn_text, run.pgn_sans));
        run.events
    });
    // Every PGN written, read back by python-chess too, move for move.
    let written = written.into_inner();
    let texts: Vec<String> = written.iter().map(|(_, text, _)| text.clone()).collect();
    for ((name, _, sans), read) in written.iter().zip(common::python_chess_games(&texts)) {
        assert_eq!(&read, sans, "{name}: python-chess reads other moves");
    }
}

#[test]
fn every_fixture_through_one_replay_process_for_the_whole_round() {
    use std::collections::BTreeMap;
    // One `touchmove replay LOG...` for every group of fixtures that take the same options.
    let all = fixtures();
    let mut groups: BTreeMap<&[String], Vec<&Fixture>> = BTreeMap::new();
    for fixture in &all {
        groups.entry(&fixture.options).or_default().push(fixture);
    }
    assert!(
        groups.values().any(|group| group.len() > 10),
        "{:?}",
        groups.keys()
    );
    let mut by_log: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for (options, group) in &groups {
        let logs: Vec<String> = group
            .iter()
            .map(|fixture| fixture.log.display().to_string())
            .collect();
        let output = common::bin()
            .args(["replay", "--json"])
            .args(options.iter())
            .args(&logs)
            .output()
            .expect("replay runs");
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        // One log alone is not tagged.
        let alone = logs.first().cloned().expect("a log");
        for (log, events) in common::events_by_log(&output.stdout, &alone) {
            by_log.entry(log).or_default().extend(events);
        }
    }
    check_all("touchmove replay LOG... (the round)", |fixture| {
        by_log
            .get(&fixture.log.display().to_string())
            .cloned()
            .unwrap_or_default()
    });
}
