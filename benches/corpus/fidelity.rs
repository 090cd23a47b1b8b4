//! One style over the corpus: fidelity and decision latency, interpreter and baseline side by
//! side.

use std::collections::HashMap;

use touchmove::event::{EventKind, GameEvent};
use touchmove::interpreter::Config;
use touchmove::replay::replay_events;
use touchmove::sensor::SensorEvent;
use touchmove_simulation::baseline::Baseline;
use touchmove_simulation::fidelity::{compare, recorded_sans};
use touchmove_simulation::pgn_games::PgnGame;
use touchmove_simulation::simulate::{MoveEnd, simulate};

use crate::stats::Samples;
use crate::styles::NamedStyle;

/// The figures of one style.
#[derive(Default)]
pub struct Row {
    pub games: usize,
    pub exact: usize,
    pub baseline_exact: usize,
    pub false_rulings: usize,
    pub breaches_found: usize,
    pub breaches_expected: usize,
    pub final_latency: Samples,
    pub all_latency: Samples,
    pub late: usize,
    pub baseline_latency: Samples,
    pub events: usize,
    /// The first games not reproduced exactly, for the report: (file game number, seed).
    pub inexact: Vec<String>,
    /// The first games with a false or a missed ruling, for the report.
    pub misruled: Vec<String>,
}

/// Replays every game of `games` under `style` through the interpreter and the baseline.
pub fn run(games: &[(String, PgnGame)], style: &NamedStyle, config: &Config) -> Row {
    // A log states the report horizon its presses need and its board's scan, as a recording
    // does.
    let config = &config
        .with_report_horizon_ms(
            config
                .report_horizon_ms
                .max(style.style.report_horizon_ms()),
        )
        .with_scan_ms(config.scan_ms.max(style.style.scan_ms()));
    let mut row = Row::default();
    for (seed, (file, game)) in games.iter().enumerate() {
        let seed = seed as u64;
        let Ok(sim) = simulate(&game.start, &game.moves, &style.style, seed) else {
            continue;
        };
        row.games += 1;
        row.events += sim.events.len();
        let events = replay_events(game.start.clone(), *config, &sim.events);
        let verdict = compare(
            &game.start,
            &game.moves,
            &sim.expected_rulings,
            &events,
            config,
        );
        let baseline = baseline_events(game, &sim.events);
        let baseline_sans = recorded_sans(&baseline);
        row.baseline_exact += usize::from(baseline_sans == verdict.expected);
        row.false_rulings += verdict.false_rulings.len();
        let misruled = !(verdict.false_rulings.is_empty() && verdict.missed_rulings.is_empty());
        if misruled && row.misruled.len() < 5 {
            row.misruled
                .push(format!("{file} game {} seed {seed}", game.number));
        }
        row.breaches_expected += verdict.earned_rulings;
        row.breaches_found += verdict.earned_rulings - verdict.missed_rulings.len();
        if verdict.exact() {
            row.exact += 1;
            interpreter_latency(
                &mut row,
                &events,
                &sim.move_ends,
                verdict.expected.len(),
                config,
            );
        } else if row.inexact.len() < 5 {
            row.inexact
                .push(format!("{file} game {} seed {seed}", game.number));
        }
        let agreed = verdict
            .expected
            .iter()
            .zip(&baseline_sans)
            .take_while(|(a, b)| a == b)
            .count();
        for (ply, t) in decision_times(&baseline) {
            if let Some(end) = sim.move_ends.get(ply - 1).filter(|_| ply <= agreed) {
                row.baseline_latency.push(t.saturating_sub(end.t));
            }
        }
    }
    row
}

/// The time each ply was last decided at.
fn decision_times(events: &[GameEvent]) -> HashMap<usize, u64> {
    events
        .iter()
        .filter_map(|event| match &event.kind {
            EventKind::Move(m) => Some((m.ply as usize, event.t)),
            _ => None,
        })
        .collect()
}

/// Latency of each ply of an exact record; late when beyond the slide window and not decided
/// by the move's clock press.
fn interpreter_latency(
    row: &mut Row,
    events: &[GameEvent],
    ends: &[MoveEnd],
    plies: usize,
    config: &Config,
) {
    let decided = decision_times(events);
    for (index, end) in ends.iter().enumerate().take(plies) {
        let Some(&t) = decided.get(&(index + 1)) else {
            continue;
        };
        let latency = t.saturating_sub(end.t);
        row.all_latency.push(latency);
        if !end.extendable {
            row.final_latency.push(latency);
        }
        if latency > config.slide_ms && end.clock != Some(t) {
            row.late += 1;
        }
    }
}

/// The baseline's decisions on the simulated events.
fn baseline_events(game: &PgnGame, events: &[SensorEvent]) -> Vec<GameEvent> {
    let mut baseline = Baseline::new(game.start.clone());
    let mut out = Vec::new();
    for event in events {
        baseline.handle_event(event);
        out.extend(std::iter::from_fn(|| baseline.poll_event()));
    }
    baseline.finish();
    out.extend(std::iter::from_fn(|| baseline.poll_event()));
    out
}
