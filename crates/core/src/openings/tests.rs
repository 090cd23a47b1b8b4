//! The table read whole, and games named by hand from its lines.

use shakmaty::san::San;
use shakmaty::{Chess, Position};

use super::*;

/// The positions of a game of `moves` (SAN), the start first.
fn positions(moves: &str) -> Vec<Chess> {
    let mut position = Chess::default();
    let mut all = vec![position.clone()];
    for san in moves.split_whitespace() {
        let m = san.parse::<San>().unwrap().to_move(&position).unwrap();
        position.play_unchecked(m);
        all.push(position.clone());
    }
    all
}

fn opening(moves: &str) -> Option<(&'static str, &'static str)> {
    of_game(&positions(moves)).map(|opening| (opening.eco, opening.name))
}

#[test]
fn every_line_of_the_table_is_read() {
    let table = table();
    assert!(table.refused().is_empty(), "{:?}", table.refused());
    // 3,807 lines (5 files of 818, 770, 1,251, 615 and 358 lines, each with a header line).
    // Where two lines reach one position the first names it, so there are at most as many
    // positions.
    assert!(
        table.len() <= 3_807 && table.len() > 3_700,
        "{}",
        table.len()
    );
}

#[test]
fn a_line_of_the_table_is_named_by_it() {
    // d.tsv: `D30 Queen's Gambit Declined 1. d4 d5 2. c4 e6`.
    assert_eq!(
        opening("d4 d5 c4 e6"),
        Some(("D30", "Queen's Gambit Declined"))
    );
    // a.tsv: `A00 Barnes Opening: Fool's Mate 1. f3 e5 2. g4 Qh4#`.
    assert_eq!(
        opening("f3 e5 g4 Qh4#"),
        Some(("A00", "Barnes Opening: Fool's Mate"))
    );
}

#[test]
fn a_transposition_is_named_as_the_line_it_reaches() {
    // 1. c4 e6 2. d4 d5 is no line of the table; it stands where 1. d4 d5 2. c4 e6 does.
    assert_eq!(
        opening("c4 e6 d4 d5"),
        Some(("D30", "Queen's Gambit Declined"))
    );
    // e.tsv: `E12 Queen's Indian Defense 1. d4 Nf6 2. c4 e6 3. Nf3 b6`, reached from 1. Nf3.
    assert_eq!(
        opening("Nf3 Nf6 c4 b6 d4 e6"),
        Some(("E12", "Queen's Indian Defense"))
    );
}

#[test]
fn a_game_keeps_the_deepest_line_it_reached() {
    // b.tsv: `B20 Sicilian Defense 1. e4 c5`; 2. a4 c4 leaves the table.
    assert_eq!(
        opening("e4 c5 h3 h6 a4 a5"),
        Some(("B20", "Sicilian Defense"))
    );
    assert_eq!(opening(""), None, "the starting position is no opening");
}
