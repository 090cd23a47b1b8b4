//! Whole-game tests of the simulator: the logs replay to the right position, are reproducible
//! and respect the interpreter's conventions.

use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;

use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Square};

use super::*;
use crate::pgn_games::{PgnGame, read_games};
use touchmove_core::sensor::Millis;
use touchmove_core::sensor::SensorKind;

/// A game with en passant, castling on both sides and capturing under-promotions.
const SPECIAL: &str = "[SetUp \"1\"]\n[FEN \"r3k2r/6P1/8/3pP3/8/8/1p6/R3K2R w KQkq d6 0 1\"]\n\n\
    1. exd6 O-O-O 2. O-O bxa1=N 3. gxh8=R Rxh8 4. d7+ Kxd7 *\n";

fn parse(pgn: &str) -> Vec<PgnGame> {
    read_games(pgn.as_bytes())
        .map(|g| g.expect("valid test game"))
        .collect()
}

/// A file of the project's copy of the corpus (`fixtures/corpus` at the repository's root,
/// provenance in its README).
fn corpus(name: &str) -> Vec<PgnGame> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/corpus")
        .join(name);
    let file = File::open(path).expect("corpus file");
    read_games(BufReader::new(file))
        .map(|g| g.expect("valid corpus game"))
        .collect()
}

fn test_games() -> Vec<PgnGame> {
    let mut games = parse(SPECIAL);
    games.extend(corpus("promotion.pgn"));
    games.extend(corpus("kasparov-deep-blue-1997.pgn"));
    games
}

fn final_position(game: &PgnGame) -> Chess {
    let mut pos = game.start.clone();
    for &m in &game.moves {
        pos.play_unchecked(m);
    }
    pos
}

/// Every style worth testing on `board`: clean, each option alone, and all combined.
fn styles(board: BoardKind) -> Vec<HandStyle> {
    type Switch = fn(&mut HandStyle);
    let switches: [Switch; 13] = [
        |s| s.victim_first_captures = true,
        |s| s.sliding = true,
        |s| s.rook_first_castling = true,
        |s| s.en_passant_victim_after = true,
        |s| s.promotion_orders = true,
        |s| s.omit_queen_choice = true,
        |s| s.bounces = true,
        |s| s.knocks = true,
        |s| s.scans = true,
        |s| s.touch_put_back = true,
        |s| s.corrected_placement = true,
        |s| s.illegal_move = true,
        |s| s.clock = false,
    ];
    let mut all = vec![HandStyle::clean(board)];
    for switch in switches {
        let mut style = HandStyle::clean(board);
        style.thinking_ms = (300, 3_000);
        switch(&mut style);
        all.push(style);
    }
    all.push(HandStyle::messy(board));
    all.push(HandStyle::everything(board));
    all
}

/// Applies lifts and places to the occupied squares; lifting an empty square or (unless
/// `over` is allowed) placing on an occupied one is an error.
fn replay_occupancy(start: Bitboard, events: &[SensorEvent], over: bool) -> Bitboard {
    let mut occupied = start;
    for (i, e) in events.iter().enumerate() {
        match e.kind {
            SensorKind::Lift { square, .. } => {
                assert!(
                    occupied.contains(square),
                    "event {i}: lift of empty {square}"
                );
                occupied.discard(square);
            }
            SensorKind::Place { square, .. } => {
                assert!(
                    over || !occupied.contains(square),
                    "event {i}: place on full {square}"
                );
                occupied.add(square);
            }
            _ => {}
        }
    }
    occupied
}

/// Applies identified lifts and places to a board, checking each lifted letter.
fn replay_pieces(start: &Board, events: &[SensorEvent]) -> Board {
    let mut board = start.clone();
    for (i, e) in events.iter().enumerate() {
        match e.kind {
            SensorKind::Lift { square, piece } => {
                assert_eq!(
                    board.remove_piece_at(square),
                    piece,
                    "event {i}: lift {square}"
                );
            }
            SensorKind::Place { square, piece } => {
                board.set_piece_at(square, piece.expect("identified piece"));
            }
            _ => {}
        }
    }
    board
}

/// A real lift and place back-to-back on one square less than 50 ms apart (a bounce).
fn bounce_pairs(events: &[SensorEvent]) -> usize {
    events
        .windows(2)
        .filter(|w| match (&w[0].kind, &w[1].kind) {
            (SensorKind::Lift { square: a, .. }, SensorKind::Place { square: b, .. }) => {
                a == b && w[1].t - w[0].t < 50
            }
            _ => false,
        })
        .count()
}

fn clocks(events: &[SensorEvent]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e.kind, SensorKind::Clock(_)))
        .count()
}

/// Everything a simulated log must satisfy, whatever the style.
fn check(game: &PgnGame, style: &HandStyle, seed: u64) -> SimulatedGame {
    let sim = simulate(&game.start, &game.moves, style, seed).expect("simulates");
    let events = &sim.events;
    assert!(
        events.windows(2).all(|w| w[0].t <= w[1].t),
        "times decrease"
    );
    let end = final_position(game);
    let occupied = replay_occupancy(game.start.board().occupied(), events, style.scanning());
    assert_eq!(
        occupied,
        end.board().occupied(),
        "final occupancy, seed {seed}"
    );
    if style.board == BoardKind::Identifying {
        assert_eq!(&replay_pieces(game.start.board(), events), end.board());
    }
    if !style.bounces || style.scanning() {
        assert_eq!(bounce_pairs(events), 0, "a real motion looks like a bounce");
    }
    let illegal = sim
        .expected_rulings
        .iter()
        .filter(|r| r.kind == RulingKind::Illegal)
        .count();
    let expected_clocks = if style.clock {
        game.moves.len() + illegal
    } else {
        0
    };
    assert_eq!(clocks(events), expected_clocks);
    sim
}

#[test]
fn every_style_replays_to_the_final_position() {
    for board in [BoardKind::Occupancy, BoardKind::Identifying] {
        for style in styles(board) {
            for game in test_games() {
                for seed in 0..12 {
                    check(&game, &style, seed);
                }
            }
        }
    }
}

#[test]
fn every_chessjs_game_simulates() {
    let games = corpus("chessjs-benchmark.pgn");
    assert_eq!(games.len(), 100);
    for (seed, game) in games.iter().enumerate() {
        check(
            game,
            &HandStyle::everything(BoardKind::Occupancy),
            seed as u64,
        );
        check(
            game,
            &HandStyle::everything(BoardKind::Identifying),
            seed as u64,
        );
    }
}

#[test]
fn clean_play_expects_no_ruling() {
    for board in [BoardKind::Occupancy, BoardKind::Identifying] {
        for game in test_games() {
            for seed in 0..8 {
                let sim = check(&game, &HandStyle::messy(board).without_rook_first(), seed);
                assert!(
                    sim.expected_rulings.is_empty(),
                    "{:?}",
                    sim.expected_rulings
                );
            }
        }
    }
}

impl HandStyle {
    fn without_rook_first(mut self) -> HandStyle {
        self.rook_first_castling = false;
        self
    }
}

#[test]
fn same_seed_same_log_and_other_seeds_differ() {
    let game = &corpus("kasparov-deep-blue-1997.pgn")[0];
    let style = HandStyle::everything(BoardKind::Identifying);
    let a = simulate(&game.start, &game.moves, &style, 7).expect("simulates");
    let b = simulate(&game.start, &game.moves, &style, 7).expect("simulates");
    let c = simulate(&game.start, &game.moves, &style, 8).expect("simulates");
    assert_eq!(a, b);
    assert_ne!(a.events, c.events);
}

#[test]
fn rook_first_castling_expects_4_4_2_on_the_rook_square() {
    let game = &parse(SPECIAL)[0];
    let mut style = HandStyle::clean(BoardKind::Occupancy);
    style.rook_first_castling = true;
    let mut seen = 0;
    for seed in 0..20 {
        let sim = check(game, &style, seed);
        for r in &sim.expected_rulings {
            assert_eq!(r.kind, RulingKind::Rule(Rule::RookThenKing));
            let expected = match r.color {
                Color::White => (3, Square::H1),
                Color::Black => (2, Square::A8),
            };
            assert_eq!((r.ply, r.square), expected);
            seen += 1;
        }
    }
    assert!(seen > 0, "rook-first castling never chosen");
}

#[test]
fn injected_breaches_are_listed_with_evidence_in_the_log() {
    let game = &corpus("kasparov-deep-blue-1997.pgn")[1];
    let mut style = HandStyle::clean(BoardKind::Occupancy);
    style.touch_put_back = true;
    style.illegal_move = true;
    let (mut touches, mut illegals) = (0, 0);
    for seed in 0..10 {
        let sim = check(game, &style, seed);
        for color in [Color::White, Color::Black] {
            let count = sim
                .expected_rulings
                .iter()
                .filter(|r| r.kind == RulingKind::Illegal && r.color == color)
                .count();
            assert!(count <= 1, "more than one illegal move for {color:?}");
        }
        for r in &sim.expected_rulings {
            assert!(placed_then_lifted_or_lifted_then_placed(
                &sim.events,
                r.square
            ));
            match r.kind {
                RulingKind::Rule(Rule::TouchOwn | Rule::TouchBoth) => touches += 1,
                RulingKind::Illegal => illegals += 1,
                other => panic!("unexpected ruling {other:?}"),
            }
        }
    }
    assert!(
        touches > 0 && illegals > 0,
        "{touches} touches, {illegals} illegal moves"
    );
}

/// The square was visited by a hand: a lift and a place on it, at least 300 ms apart.
fn placed_then_lifted_or_lifted_then_placed(events: &[SensorEvent], square: Square) -> bool {
    let times: Vec<u64> = events
        .iter()
        .filter(|e| {
            matches!(e.kind, SensorKind::Lift { square: s, .. } | SensorKind::Place { square: s, .. } if s == square)
        })
        .map(|e| e.t)
        .collect();
    times.windows(2).any(|w| w[1] - w[0] >= 300)
}

#[test]
fn occupancy_promotions_announce_the_piece_before_placing_it() {
    let game = &parse(SPECIAL)[0];
    let mut style = HandStyle::clean(BoardKind::Occupancy);
    style.promotion_orders = true;
    for seed in 0..10 {
        let sim = check(game, &style, seed);
        let promotes: Vec<usize> = sim
            .events
            .iter()
            .enumerate()
            .filter(|(_, e)| matches!(e.kind, SensorKind::Promote(_)))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(promotes.len(), 2, "one per under-promotion");
        for i in promotes {
            let next_place = sim.events[i..].iter().find_map(|e| match e.kind {
                SensorKind::Place { square, .. } => Some(square),
                _ => None,
            });
            assert!(matches!(next_place, Some(Square::A1 | Square::H8)));
        }
    }
}

#[test]
fn identifying_boards_name_the_new_piece_and_never_send_promote() {
    let game = &parse(SPECIAL)[0];
    let style = HandStyle::messy(BoardKind::Identifying);
    let sim = check(game, &style, 3);
    assert!(
        !sim.events
            .iter()
            .any(|e| matches!(e.kind, SensorKind::Promote(_)))
    );
    let knight_lands = sim.events.iter().any(|e| {
        matches!(e.kind, SensorKind::Place { square: Square::A1, piece: Some(p) }
            if p.role == shakmaty::Role::Knight)
    });
    assert!(knight_lands);
}

#[test]
fn scanning_boards_hide_capture_victims() {
    let game = &corpus("kasparov-deep-blue-1997.pgn")[0];
    let mut style = HandStyle::clean(BoardKind::Identifying);
    style.scans = true;
    let sim = check(game, &style, 11);
    let mut occupied = game.start.board().occupied();
    let mut over = 0;
    for e in &sim.events {
        match e.kind {
            SensorKind::Lift { square, .. } => occupied.discard(square),
            SensorKind::Place { square, .. } => {
                over += usize::from(occupied.contains(square));
                occupied.add(square);
            }
            _ => {}
        }
    }
    let captures = game
        .moves
        .iter()
        .filter(|m| m.is_capture() && !m.is_en_passant())
        .count();
    assert_eq!(over, captures);
}

#[test]
fn an_illegal_move_list_is_rejected() {
    let start = Chess::default();
    let bad = Move::Normal {
        role: shakmaty::Role::Pawn,
        from: Square::E2,
        capture: None,
        to: Square::E5,
        promotion: None,
    };
    let err = simulate(&start, &[bad], &HandStyle::clean(BoardKind::Occupancy), 0);
    assert!(matches!(
        err,
        Err(SimulateError::IllegalMove { ply: 1, .. })
    ));
}

/// What the board reports once every event up to and including time `until` is in: the
/// occupied squares, and the pieces on an identifying board.
fn board_until(
    start: &Board,
    events: &[SensorEvent],
    until: Millis,
    kind: BoardKind,
) -> (Bitboard, Option<Board>) {
    let upto = events.partition_point(|e| e.t <= until);
    let occupied = replay_occupancy(start.occupied(), &events[..upto], true);
    let pieces = (kind == BoardKind::Identifying).then(|| replay_pieces(start, &events[..upto]));
    (occupied, pieces)
}

#[test]
fn each_move_ends_when_the_board_first_shows_it() {
    for board in [BoardKind::Occupancy, BoardKind::Identifying] {
        for style in [HandStyle::messy(board), HandStyle::everything(board)] {
            for game in test_games() {
                for seed in 0..4 {
                    let sim = check(&game, &style, seed);
                    assert_eq!(sim.move_ends.len(), game.moves.len());
                    let start = game.start.board();
                    let mut pos = game.start.clone();
                    for (&m, end) in game.moves.iter().zip(&sim.move_ends) {
                        let before = board_until(start, &sim.events, end.t - 1, board);
                        pos.play_unchecked(m);
                        let after = board_until(start, &sim.events, end.t, board);
                        assert_eq!(after.0, pos.board().occupied(), "seed {seed}, {m}");
                        if let Some(pieces) = &after.1 {
                            assert_eq!(pieces, pos.board(), "seed {seed}, {m}");
                        }
                        assert_ne!(before, after, "seed {seed}, {m}: nothing at its end");
                        let clock = end.clock.expect("clock pressed");
                        assert!(clock >= end.t);
                        assert!(sim.events.iter().any(
                            |e| e.t == clock && e.kind == SensorKind::Clock(pos.turn().other())
                        ));
                    }
                }
            }
        }
    }
}

#[test]
fn without_a_clock_no_move_waits_on_one() {
    let mut style = HandStyle::clean(BoardKind::Occupancy);
    style.clock = false;
    for game in test_games() {
        let sim = check(&game, &style, 3);
        assert!(sim.move_ends.iter().all(|end| end.clock.is_none()));
        assert!(sim.move_ends.windows(2).all(|w| w[0].t < w[1].t));
    }
}

/// Simulates `uci` moves from `fen`.
fn simulate_uci(fen: &str, uci: &[&str], style: &HandStyle, seed: u64) -> SimulatedGame {
    let setup: shakmaty::fen::Fen = fen.parse().expect("valid FEN");
    let start: Chess = setup
        .into_position(shakmaty::CastlingMode::Standard)
        .expect("playable position");
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for text in uci {
        let m = text
            .parse::<shakmaty::uci::UciMove>()
            .expect("valid UCI")
            .to_move(&pos)
            .expect("legal move");
        pos.play_unchecked(m);
        moves.push(m);
    }
    simulate(&start, &moves, style, seed).expect("simulates")
}

#[test]
fn rook_first_castling_is_not_chosen_where_the_rook_move_alone_ends_the_game() {
    // Rf1 alone is checkmate here (and so is O-O).
    let mut style = HandStyle::clean(BoardKind::Identifying);
    style.rook_first_castling = true;
    for seed in 0..40 {
        let sim = simulate_uci(
            "4rkr1/4p1p1/8/8/8/8/8/4K2R w K - 0 1",
            &["e1g1"],
            &style,
            seed,
        );
        assert!(sim.expected_rulings.is_empty(), "seed {seed}");
        let first = sim.events.first().map(|e| e.kind.clone());
        assert!(
            matches!(
                first,
                Some(SensorKind::Lift {
                    square: Square::E1,
                    ..
                })
            ),
            "seed {seed}: {first:?}"
        );
    }
    // Where the rook's move alone does not end the game, rook first still happens.
    let rook_first = (0..40).any(|seed| {
        let sim = simulate_uci(
            "4rk2/4p1p1/8/8/8/8/8/4K2R w K - 0 1",
            &["e1g1"],
            &style,
            seed,
        );
        !sim.expected_rulings.is_empty()
    });
    assert!(rook_first, "rook-first castling never chosen");
}

/// The time from the place of a piece on `square` to the first lift after the clock press that
/// follows it.
fn reply_gap(events: &[SensorEvent], square: Square) -> Option<Millis> {
    let placed = events
        .iter()
        .position(|e| matches!(e.kind, SensorKind::Place { square: s, .. } if s == square))?;
    let rest = events.get(placed..)?;
    let press = rest
        .iter()
        .position(|e| matches!(e.kind, SensorKind::Clock(_)))?;
    let reply = rest
        .get(press..)?
        .iter()
        .find(|e| matches!(e.kind, SensorKind::Lift { .. }))?;
    Some(reply.t - events.get(placed)?.t)
}

#[test]
fn a_quick_reply_takes_the_piece_just_moved_only_once_it_was_seen_landing() {
    let mut style = HandStyle::clean(BoardKind::Identifying);
    style.clock = true;
    style.blitz_presses = true;
    // An en passant and a recapture, each taking the piece the last move set down.
    let games: [(&str, &[&str], Square); 2] = [
        (
            "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1",
            &["d7d5", "e5d6"],
            Square::D5,
        ),
        (
            "4k3/8/4p3/3p4/8/2N5/8/4K3 w - - 0 1",
            &["c3d5", "e6d5"],
            Square::D5,
        ),
    ];
    for (fen, uci, square) in games {
        let gaps: Vec<Millis> = (0..200)
            .filter_map(|seed| reply_gap(&simulate_uci(fen, uci, &style, seed).events, square))
            .collect();
        assert_eq!(gaps.len(), 200, "{fen}");
        let least = gaps.iter().min().copied().unwrap_or_default();
        assert!(
            least >= REACTION_MS,
            "{fen}: a reply {least} ms after the landing"
        );
        // Quick replies happened: a thought-out reply starts at least 300 ms after the press.
        assert!(
            least < REACTION_MS + 300,
            "{fen}: no quick reply ({least} ms)"
        );
    }
}
