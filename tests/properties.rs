//! Property tests: a game turned into hand motions replays to exactly the same moves, with
//! exactly the rulings the hands earned (none in clean play), and the PGN written reads back to
//! the same moves.
//!
//! Games come from two sources: random legal games, and the real games copied into
//! `fixtures/corpus/`. Hand styles (capture order, slides, castling order, en passant order,
//! promotion orders, bounces, knocks, DGT scans, clock presses) are drawn at random.

use crate::common;

use std::fs::File;
use std::path::Path;

use proptest::prelude::*;
use shakmaty::{Chess, Move, Position};
use touchmove::interpreter::Config;
use touchmove::output::pgn::{PgnRecorder, PgnTags};
use touchmove::replay::replay_events;
use touchmove_simulation::fidelity::{check_game, recorded_sans, san_list};
use touchmove_simulation::pgn_games::{PgnGame, read_games};
use touchmove_simulation::simulate::{BoardKind, HandStyle, simulate};

/// A hand style with every handling option drawn at random, on a random board; injected
/// breaches only when `breaches`.
fn hand_style(breaches: bool) -> impl Strategy<Value = HandStyle> {
    (any::<[bool; 15]>(), any::<bool>()).prop_map(move |(on, identifying)| {
        let board = if identifying {
            BoardKind::Identifying
        } else {
            BoardKind::Occupancy
        };
        HandStyle {
            thinking: on[0],
            clock: on[1],
            victim_first_captures: on[2],
            sliding: on[3],
            rook_first_castling: on[4],
            en_passant_victim_after: on[5],
            promotion_orders: on[6],
            omit_queen_choice: on[7],
            bounces: on[8],
            knocks: on[9],
            scans: on[10],
            blitz_presses: on[14],
            // Each breach has its own flag, so that any of them can come with or without the
            // others.
            touch_put_back: breaches && on[11],
            corrected_placement: breaches && on[12],
            illegal_move: breaches && on[13],
            ..HandStyle::clean(board)
        }
    })
}

/// A random legal game of up to `max_plies` plies from the starting position (it stops early
/// when the game ends).
fn random_game(max_plies: usize) -> impl Strategy<Value = Vec<Move>> {
    proptest::collection::vec(any::<u16>(), 0..=max_plies).prop_map(|choices| {
        let mut position = Chess::default();
        let mut moves = Vec::new();
        for choice in choices {
            let legal = position.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[usize::from(choice) % legal.len()];
            position.play_unchecked(m);
            moves.push(m);
        }
        moves
    })
}

fn corpus_games() -> Vec<PgnGame> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/corpus");
    let mut games = Vec::new();
    for name in [
        "chessjs-benchmark.pgn",
        "kasparov-deep-blue-1997.pgn",
        "promotion.pgn",
    ] {
        let file = File::open(dir.join(name)).expect("corpus file");
        games.extend(read_games(file).map(|game| game.expect("a valid corpus game")));
    }
    games
}

/// Writes the simulated log and the decisions, interleaved by time, where a failure can be read.
fn dump_failure(
    start: &Chess,
    moves: &[Move],
    style: &HandStyle,
    seed: u64,
    config: &Config,
) -> String {
    let simulated = simulate(start, moves, style, seed).expect("simulable");
    let config = config
        .with_report_horizon_ms(config.report_horizon_ms.max(style.report_horizon_ms()))
        .with_scan_ms(config.scan_ms.max(style.scan_ms()));
    let events = replay_events(start.clone(), config, &simulated.events);
    let mut lines: Vec<(u64, String)> = simulated
        .events
        .iter()
        .map(|e| {
            (
                e.t,
                format!("   {}", touchmove::sensor_log::format_event(e)),
            )
        })
        .collect();
    lines.extend(events.iter().map(|e| {
        (
            e.t,
            format!(">> {}", serde_json::to_string(e).expect("serialisable")),
        )
    }));
    lines.sort_by_key(|(t, _)| *t);
    let text: Vec<String> = lines.into_iter().map(|(_, line)| line).collect();
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("property-failure-{seed}.txt"));
    let report = format!(
        "{}\nexpected rulings: {:?}\n",
        text.join("\n"),
        simulated.expected_rulings
    );
    std::fs::write(&path, report).expect("writable target dir");
    path.display().to_string()
}

/// Simulates, replays and asserts exact moves and exactly the earned rulings.
fn assert_faithful(start: &Chess, moves: &[Move], style: &HandStyle, seed: u64, config: &Config) {
    let verdict = check_game(start, moves, style, seed, config).expect("simulable");
    if !verdict.faithful() {
        let path = dump_failure(start, moves, style, seed, config);
        eprintln!("log and decisions: {path}");
    }
    assert!(
        verdict.exact(),
        "moves differ (seed {seed}, {style:?}):\nexpected {:?}\nrecorded {:?}",
        verdict.expected,
        verdict.recorded
    );
    assert!(
        verdict.false_rulings.is_empty() && verdict.missed_rulings.is_empty(),
        "rulings differ (seed {seed}, {style:?}): false {:?}, missed {:?}",
        verdict.false_rulings,
        verdict.missed_rulings
    );
}

proptest! {
    // 48 cases in CI; `PROPTEST_CASES=5000` for a longer hunt.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(48)
    ))]

    #[test]
    fn random_games_in_clean_play_replay_exactly(
        moves in random_game(120),
        style in hand_style(false),
        seed in any::<u64>(),
    ) {
        assert_faithful(&Chess::default(), &moves, &style, seed, &Config::default());
    }

    #[test]
    fn random_games_with_breaches_get_exactly_their_rulings(
        moves in random_game(80),
        style in hand_style(true),
        seed in any::<u64>(),
    ) {
        assert_faithful(&Chess::default(), &moves, &style, seed, &Config::default());
    }

    #[test]
    fn casual_mode_makes_no_article_4_ruling(
        moves in random_game(80),
        style in hand_style(true),
        seed in any::<u64>(),
    ) {
        let casual = Config::default().with_strict(false);
        assert_faithful(&Chess::default(), &moves, &style, seed, &casual);
    }

    #[test]
    fn real_games_replay_exactly(index in 0usize..107, style in hand_style(false), seed in any::<u64>()) {
        let games = corpus_games();
        let game = &games[index % games.len()];
        assert_faithful(&game.start, &game.moves, &style, seed, &Config::default());
    }
}

#[test]
fn every_real_game_replays_exactly_in_messy_play_on_both_boards() {
    // On the scanning board also with blitz presses, which arrive before the scan that
    // reports their move.
    let blitz = HandStyle {
        blitz_presses: true,
        ..HandStyle::messy(BoardKind::Identifying)
    };
    assert!(blitz.report_horizon_ms() > 0);
    for game in corpus_games() {
        for style in [
            HandStyle::messy(BoardKind::Occupancy),
            HandStyle::messy(BoardKind::Identifying),
            blitz.clone(),
        ] {
            assert_faithful(
                &game.start,
                &game.moves,
                &style,
                game.number as u64,
                &Config::default(),
            );
        }
    }
}

#[test]
fn the_pgn_written_reads_back_to_the_same_moves() {
    for game in corpus_games().into_iter().take(30) {
        let style = HandStyle::messy(BoardKind::Occupancy);
        let simulated = simulate(&game.start, &game.moves, &style, 7).expect("simulable");
        let events = replay_events(game.start.clone(), Config::default(), &simulated.events);
        let set_up = game.start != Chess::default();
        let mut recorder = PgnRecorder::new(game.start.clone(), set_up, PgnTags::default());
        for event in &events {
            recorder.record(event).expect("recordable");
        }
        let pgn = recorder.to_pgn_string();
        let read_back = common::pgn_games(&pgn);
        assert_eq!(
            read_back,
            vec![recorded_sans(&events)],
            "game {}",
            game.number
        );
        assert_eq!(
            read_back[0],
            san_list(&game.start, &game.moves),
            "game {}",
            game.number
        );
    }
}
