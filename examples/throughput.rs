//! Exploratory: sensor events per second through the interpreter on simulated corpus games.
use std::fs::File;
use std::time::Instant;
use touchmove::interpreter::{Config, Interpreter};
use touchmove::pgn_games::read_games;
use touchmove::simulate::{BoardKind, HandStyle, simulate};

fn main() {
    let path = std::env::args().nth(1).expect("pgn");
    let style = HandStyle::messy(BoardKind::Occupancy);
    let games: Vec<_> = read_games(File::open(path).expect("open"))
        .filter_map(Result::ok)
        .map(|g| {
            let sim = simulate(&g.start, &g.moves, &style, 1).expect("sim");
            (g.start, sim.events)
        })
        .collect();
    let total: usize = games.iter().map(|(_, e)| e.len()).sum();
    for _ in 0..10 {
        let started = Instant::now();
        let mut decisions = 0;
        for (start, events) in &games {
            let mut it = Interpreter::new(start.clone(), Config::default());
            for e in events {
                it.handle_event(e);
                while it.poll_event().is_some() {
                    decisions += 1;
                }
            }
            it.finish();
            while it.poll_event().is_some() {
                decisions += 1;
            }
        }
        let s = started.elapsed().as_secs_f64();
        println!(
            "{total} events, {decisions} decisions, {:.3} s, {:.2} M events/s",
            s,
            total as f64 / s / 1e6
        );
    }
}
