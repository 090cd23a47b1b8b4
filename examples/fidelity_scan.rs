//! Exploratory: every corpus game under every preset style; prints the first failures.
use std::fs::File;
use touchmove::fidelity::check_game;
use touchmove::interpreter::Config;
use touchmove::pgn_games::read_games;
use touchmove::simulate::{BoardKind, HandStyle};

fn main() {
    let path = std::env::args().nth(1).expect("pgn path");
    let limit: usize = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(100000);
    let styles = [
        ("clean-occ", HandStyle::clean(BoardKind::Occupancy)),
        ("clean-id", HandStyle::clean(BoardKind::Identifying)),
        ("messy-occ", HandStyle::messy(BoardKind::Occupancy)),
        ("messy-id", HandStyle::messy(BoardKind::Identifying)),
        ("all-occ", HandStyle::everything(BoardKind::Occupancy)),
        ("all-id", HandStyle::everything(BoardKind::Identifying)),
    ];
    for (name, style) in &styles {
        let (mut n, mut bad, mut shown) = (0, 0, 0);
        for game in read_games(File::open(&path).expect("open")).take(limit) {
            let Ok(game) = game else { continue };
            n += 1;
            let v = check_game(
                &game.start,
                &game.moves,
                style,
                game.number as u64,
                &Config::default(),
            )
            .expect("sim");
            if !v.faithful() {
                bad += 1;
                if shown < 3 {
                    shown += 1;
                    let div = v
                        .expected
                        .iter()
                        .zip(&v.recorded)
                        .position(|(a, b)| a != b)
                        .unwrap_or(v.expected.len().min(v.recorded.len()));
                    println!(
                        "{name} game {}: exp {} rec {} div@{div} exp={:?} rec={:?} false={:?} missed={:?}",
                        game.number,
                        v.expected.len(),
                        v.recorded.len(),
                        v.expected.get(div),
                        v.recorded.get(div),
                        v.false_rulings,
                        v.missed_rulings
                    );
                }
            }
        }
        println!("{name}: {bad}/{n} unfaithful");
    }
}
