//! The trainer's parts on games worked out by hand.

use shakmaty::san::San;
use shakmaty::{Chess, Color, Move, Position};

use touchmove_core::Config;
use touchmove_core::output::pgn::PgnTags;
use touchmove_core::replay::Replay;
use touchmove_core::sensor_log::{LogRecord, read_log};

use crate::annotated::annotated_pgn;
use crate::judgement::{Eval, Judgement, MoveJudgement};
use crate::pgn_game::PgnGame;
use crate::report::{GameReport, PositionEval};
use crate::timeline::Timeline;

/// The facts of the games of a log, as `report` gathers them.
fn facts_of_log(log: &str) -> Vec<crate::GameFacts> {
    let log = read_log(log).unwrap();
    let mut replay = Replay::new(Config::default());
    let mut timeline = Timeline::new(Chess::default(), false);
    for record in log.records() {
        if let LogRecord::Event(event) = &record {
            timeline.sensor(event);
        }
        replay.record(record, &mut |event| timeline.decided(&event));
        if let Some(view) = replay.turn_view() {
            timeline.turn(&view);
        }
    }
    replay.finish(&mut |event| timeline.decided(&event));
    timeline.finish()
}

/// `sans` played from the start, each with no clock.
fn moves(sans: &str) -> Vec<(Move, Option<u64>)> {
    let mut position = Chess::default();
    sans.split_whitespace()
        .map(|san| {
            let m = san.parse::<San>().unwrap().to_move(&position).unwrap();
            position.play_unchecked(m);
            (m, None)
        })
        .collect()
}

#[test]
fn thinking_time_time_in_hand_and_a_touch_not_moved_are_read_from_the_log() {
    // White: e2 lifted at 0, set down on e4 at 400. Black's turn begins at that release; the
    // knight on g8 is touched at 1400 and put back at 1900 (a touch that binds: 4.3.1), then
    // e7 is lifted at 2000 and set down on e5 at 2300.
    let games = facts_of_log(
        "touchmove-log 1\n0 lift e2\n400 place e4\n1400 lift g8\n1900 place g8\n\
         2000 lift e7\n2300 place e5\n",
    );
    let [game] = games.as_slice() else {
        panic!("{games:?}")
    };
    let [e4, e5] = game.moves.as_slice() else {
        panic!("{:?}", game.moves)
    };
    assert_eq!(
        (e4.san.as_str(), e4.think_ms, e4.in_hand_ms),
        ("e4", None, Some(400))
    );
    assert!(e4.touched.is_empty() && e4.rulings.is_empty(), "{e4:?}");
    // Thought from 400 to 1400; e7 in the hand from 2000 to 2300.
    assert_eq!(
        (e5.san.as_str(), e5.think_ms, e5.in_hand_ms),
        ("e5", Some(1000), Some(300))
    );
    assert_eq!(e5.touched, ["g8"]);
    assert_eq!(e5.rulings.len(), 1, "{:?}", e5.rulings);
    assert!(e5.rulings[0].starts_with("4.3.1"), "{:?}", e5.rulings);
    // b.tsv: `C20 King's Pawn Game 1. e4 e5`.
    assert_eq!(game.opening().map(|o| o.eco), Some("C20"));
}

#[test]
fn a_move_s_time_off_the_clock_is_its_thinking_time_from_a_pgn() {
    // 300+3: White 5:00 after e4, 5:01 after Nf3 (4:58 + 3): Nf3 took 2 s. Black 5:00 after
    // e5, 4:50 after Nc6 (4:47 + 3): 13 s.
    let mut game = PgnGame {
        moves: moves("e4 e5 Nf3 Nc6"),
        increment_ms: 3_000,
        result: Some("1-0".to_owned()),
        ..PgnGame::default()
    };
    for (played, clk) in game
        .moves
        .iter_mut()
        .zip([300_000, 300_000, 301_000, 290_000])
    {
        played.1 = Some(clk);
    }
    let facts = game.facts(1);
    let thought: Vec<Option<u64>> = facts.moves.iter().map(|m| m.think_ms).collect();
    assert_eq!(thought, [None, None, Some(2_000), Some(13_000)]);
    assert_eq!(facts.result.as_deref(), Some("1-0"));
    assert_eq!(
        facts.moves[3].clock.map(|c| (c.white, c.black)),
        Some((301_000, 290_000))
    );
}

#[test]
fn winning_chances_accuracy_and_judgements_are_lichess_s() {
    // 2 / (1 + e^-0.368208) - 1 = 2 / 1.691973 - 1 = 0.18205.
    assert!((Eval::Cp(100).chances(Color::White) - 0.18205).abs() < 1e-4);
    assert!((Eval::Cp(100).chances(Color::Black) + 0.18205).abs() < 1e-4);
    // A mate counts as 1,000 cp: 2 / (1 + e^-3.68208) - 1 = 0.95089.
    let mate = Eval::Mate {
        winner: Color::White,
        moves: 1,
    };
    assert!((mate.chances(Color::White) - 0.95089).abs() < 1e-4);
    // Missing a mate in one for +0.30 (2 / (1 + e^-0.110462) - 1 = 0.05517): 0.8957 lost.
    let missed = MoveJudgement::of(Color::White, mate, Eval::Cp(30));
    assert_eq!(missed.judgement, Some(Judgement::Blunder));
    assert_eq!(missed.loss_cp, 970);
    // Win percentages 97.544 and 52.758: 103.1668 e^(-0.043544 × 44.786) - 3.1669
    // = 103.1668 × 0.14225 - 3.1669 = 11.51.
    assert!(
        (missed.accuracy - 11.51).abs() < 0.01,
        "{}",
        missed.accuracy
    );
    // A move that loses nothing is 100 % accurate.
    assert_eq!(
        MoveJudgement::of(Color::Black, Eval::Cp(-20), Eval::Cp(-20)).accuracy,
        100.0
    );
    for (lost, judgement) in [
        (0.35, Some(Judgement::Blunder)),
        (0.25, Some(Judgement::Mistake)),
        (0.15, Some(Judgement::Inaccuracy)),
        (0.05, None),
    ] {
        assert_eq!(Judgement::of_loss(lost), judgement, "{lost}");
    }
}

#[test]
fn engines_scores_are_turned_to_white_s_side_and_written_as_pgn_s_eval() {
    assert_eq!(
        Eval::from_side_to_move(Color::Black, Some(50), None),
        Some(Eval::Cp(-50))
    );
    assert_eq!(
        Eval::from_side_to_move(Color::Black, None, Some(-2)),
        Some(Eval::Mate {
            winner: Color::White,
            moves: 2
        })
    );
    assert_eq!(Eval::Cp(-120).pgn(), "-1.20");
    assert_eq!(Eval::Cp(5).pgn(), "0.05");
    assert_eq!(Eval::Cp(-5).pgn(), "-0.05");
    assert_eq!(
        Eval::Mate {
            winner: Color::Black,
            moves: 3
        }
        .pgn(),
        "#-3"
    );
}

#[test]
fn a_missed_mate_is_a_blunder_with_the_mate_as_the_best_move() {
    // 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qf3: after 3...Nf6, 4. Qxf7# mates (the queen takes f7
    // guarded by the bishop on c4); 4. Qf3 lets it go.
    let game = PgnGame {
        moves: moves("e4 e5 Bc4 Nc6 Qh5 Nf6 Qf3"),
        ..PgnGame::default()
    };
    let facts = game.facts(1);
    let positions = facts.positions();
    let even = |_: usize| {
        Some(PositionEval {
            eval: Eval::Cp(30),
            best: None,
            depth: Some(10),
            table: None,
        })
    };
    let mut evals: Vec<Option<PositionEval>> = (0..positions.len()).map(even).collect();
    evals[6] = Some(PositionEval {
        eval: Eval::Mate {
            winner: Color::White,
            moves: 1,
        },
        best: Some("Qxf7#".to_owned()),
        depth: Some(10),
        table: None,
    });
    let report = GameReport::judged(facts, evals, "by hand".to_owned());
    // 3...Nf6 let White mate (0.3 to 1,000 cp for White: Black lost 0.8957), 4. Qf3 let the
    // mate go (1,000 to 30).
    let judged: Vec<Option<Judgement>> = report
        .reviews
        .iter()
        .map(|review| review.judged.as_ref().and_then(|j| j.judgement))
        .collect();
    let blunder = Some(Judgement::Blunder);
    assert_eq!(judged, [None, None, None, None, None, blunder, blunder]);
    assert_eq!(report.reviews[6].best.as_deref(), Some("Qxf7#"));
    let pgn = annotated_pgn(&report, &PgnTags::default());
    assert!(
        pgn.contains("4. Qf3 $4 {[%eval 0.30] (#1 → 0.30) Blunder. Qxf7# was best}"),
        "{pgn}"
    );
    assert!(pgn.contains("3... Nf6 $4"), "{pgn}");
}
