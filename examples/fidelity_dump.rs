//! Exploratory: dump the simulated log and the decisions for one corpus game and style.
use std::fs::File;
use touchmove::interpreter::Config;
use touchmove::pgn_games::read_games;
use touchmove::replay::replay_events;
use touchmove::sensor_log::format_event;
use touchmove::simulate::{BoardKind, HandStyle, simulate};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let number: usize = args[2].parse().expect("game");
    let style = match args[3].as_str() {
        "clean-occ" => HandStyle::clean(BoardKind::Occupancy),
        "clean-id" => HandStyle::clean(BoardKind::Identifying),
        "messy-occ" => HandStyle::messy(BoardKind::Occupancy),
        "messy-id" => HandStyle::messy(BoardKind::Identifying),
        "all-occ" => HandStyle::everything(BoardKind::Occupancy),
        _ => HandStyle::everything(BoardKind::Identifying),
    };
    let game = read_games(File::open(&args[1]).expect("open"))
        .filter_map(Result::ok)
        .find(|g| g.number == number)
        .expect("game");
    let sim = simulate(&game.start, &game.moves, &style, number as u64).expect("sim");
    let out = replay_events(game.start.clone(), Config::default(), &sim.events);
    let mut all: Vec<(u64, String)> = sim
        .events
        .iter()
        .map(|e| (e.t, format!("   {}", format_event(e))))
        .collect();
    all.extend(
        out.iter()
            .map(|e| (e.t, format!(">> {}", serde_json::to_string(e).unwrap()))),
    );
    all.sort_by_key(|(t, _)| *t);
    for (_, l) in all {
        println!("{l}");
    }
    println!("expected rulings: {:?}", sim.expected_rulings);
}
