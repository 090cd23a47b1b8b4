//! Scenario tests of the interpreter on short hand-written event sequences.

use super::*;
use crate::event::Rule;
use crate::testutil::position;
use shakmaty::Square;

/// Replays `script` (sensor log event lines, one per line, indentation ignored) from `start`.
fn run(start: Chess, config: Config, script: &str) -> Vec<GameEvent> {
    let lines: Vec<&str> = script.lines().map(str::trim).collect();
    let log = crate::sensor_log::read_log(&format!("touchmove-log 1\n{}\n", lines.join("\n")))
        .expect("a valid script");
    crate::replay::replay_events(start, config, &log.events)
}

fn sans(events: &[GameEvent]) -> Vec<(Millis, String)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Move(m) => Some((e.t, m.san.to_string())),
            _ => None,
        })
        .collect()
}

/// The moves that stand in `events` once their takebacks are applied.
fn record_of(events: &[GameEvent]) -> Vec<String> {
    let mut record = Vec::new();
    for event in events {
        match &event.kind {
            EventKind::Move(m) => record.push(m.san.to_string()),
            EventKind::Takeback { ply } => record.truncate((*ply as usize).saturating_sub(1)),
            _ => {}
        }
    }
    record
}

fn rulings(events: &[GameEvent]) -> Vec<(Rule, Square)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Violation(v) => Some((v.rule, v.square)),
            _ => None,
        })
        .collect()
}

#[test]
fn the_log_format_example_gives_three_moves_and_no_ruling() {
    let out = run(
        Chess::default(),
        Config::default(),
        "0 lift e2
         410 place e3
         470 lift e3
         620 place e4
         2100 lift e7
         2700 place e5
         3900 adjust
         4000 lift d2
         4100 place d2
         5200 lift g1
         5900 place f3",
    );
    assert_eq!(
        sans(&out),
        vec![
            (620, "e4".into()),
            (2700, "e5".into()),
            (5900, "Nf3".into())
        ]
    );
    assert_eq!(rulings(&out), vec![]);
}

#[test]
fn a_pawn_step_waits_for_the_slide_window() {
    let out = run(
        Chess::default(),
        Config::default(),
        "0 lift e2\n100 place e3\n2000 lift e7\n2300 place e5",
    );
    assert_eq!(sans(&out), vec![(350, "e3".into()), (2300, "e5".into())]);
}

#[test]
fn the_opponent_starting_a_reply_decides_the_pending_move() {
    let out = run(
        Chess::default(),
        Config::default(),
        "0 lift e2\n100 place e3\n200 lift e7\n400 place e5",
    );
    assert_eq!(sans(&out), vec![(200, "e3".into()), (400, "e5".into())]);
}

#[test]
fn touching_another_own_piece_first_breaks_4_3_1() {
    let out = run(
        Chess::default(),
        Config::default(),
        "0 lift d2\n300 place d2\n1000 lift e2\n1300 place e4",
    );
    assert_eq!(sans(&out), vec![(1300, "e4".into())]);
    assert_eq!(rulings(&out), vec![(Rule::TouchOwn, Square::D2)]);
}

#[test]
fn casual_mode_makes_no_ruling() {
    let config = Config {
        strict: false,
        ..Config::default()
    };
    let out = run(
        Chess::default(),
        config,
        "0 lift d2\n300 place d2\n1000 lift e2\n1300 place e4",
    );
    // The double step cannot grow: decided when the pawn lands; the touched d2 goes unruled.
    assert_eq!(sans(&out), vec![(1300, "e4".into())]);
    assert_eq!(rulings(&out), vec![]);
}

#[test]
fn castling_rook_first_is_castling_with_4_4_2() {
    let start = position("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    let out = run(
        start.clone(),
        Config::default(),
        "0 lift h1\n200 place f1\n300 lift e1\n500 place g1",
    );
    assert_eq!(sans(&out), vec![(500, "O-O".into())]);
    assert_eq!(rulings(&out), vec![(Rule::RookThenKing, Square::H1)]);

    let slow = run(
        start,
        Config::default(),
        "0 lift h1\n200 place f1\n3000 lift e1\n3300 place g1",
    );
    assert_eq!(sans(&slow), vec![(450, "Rf1".into()), (3300, "O-O".into())]);
    assert_eq!(rulings(&slow), vec![(Rule::RookThenKing, Square::H1)]);
}

#[test]
fn a_bounce_is_neither_touch_nor_move() {
    let out = run(
        Chess::default(),
        Config::default(),
        "0 lift d2\n20 place d2\n1000 lift e2\n1300 place e4",
    );
    assert_eq!(rulings(&out), vec![]);
    assert_eq!(sans(&out), vec![(1300, "e4".into())]);
}

#[test]
fn a_clock_press_without_a_move_is_an_illegal_move() {
    let out = run(Chess::default(), Config::default(), "0 clock white");
    assert!(
        matches!(&out[0].kind, EventKind::Illegal(i) if i.count == 1 && i.color == Color::White)
    );
}

/// The illegal moves among `events`: who, and their count.
fn illegal_moves(events: &[GameEvent]) -> Vec<(Color, u32)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Illegal(i) => Some((i.color, i.count)),
            _ => None,
        })
        .collect()
}

#[test]
fn an_exempt_side_is_never_judged_for_a_press_but_its_press_completes_its_move() {
    // White presses without a move three times; then, once Black has replied, with a knight
    // set down on an illegal square; then plays Nf3 and presses at once (pending: a knight's
    // move is decided when it rests or at the press).
    let script = "0 clock white
         1000 clock white
         2000 clock white
         3000 lift e2
         3400 place e4
         4000 lift e7
         4400 place e5
         5000 lift g1
         5400 place g4
         5600 clock white
         6000 lift g4
         6400 place f3
         6450 clock white";
    let exempt = Config::default().with_exempt(Some(Color::White));
    let out = run(Chess::default(), exempt, script);
    assert_eq!(illegal_moves(&out), [], "{out:?}");
    assert_eq!(sans(&out).len(), 3, "{out:?}");
    assert!(
        !out.iter().any(|e| matches!(e.kind, EventKind::Result(_))),
        "{out:?}"
    );
    // Not exempt: the first press is an illegal move, the second loses.
    let out = run(Chess::default(), Config::default(), script);
    assert_eq!(
        illegal_moves(&out),
        [(Color::White, 1), (Color::White, 2)],
        "{out:?}"
    );
    assert!(
        out.iter()
            .any(|e| matches!(&e.kind, EventKind::Result(r) if r.result == "0-1"))
    );
}

#[test]
fn an_exempt_side_s_illegal_move_completed_by_the_reply_is_reported_but_not_counted() {
    // White (exempt) sets the g1 knight down on g4, and Black lifts the e7 pawn to reply:
    // the illegal move is completed (7.5.1), reported with count 0, and the game goes on.
    let script = "0 lift g1
         400 place g4
         1000 lift e7";
    let exempt = Config::default().with_exempt(Some(Color::White));
    let out = run(Chess::default(), exempt, script);
    assert_eq!(illegal_moves(&out), [(Color::White, 0)], "{out:?}");
    let out = run(Chess::default(), Config::default(), script);
    assert_eq!(illegal_moves(&out), [(Color::White, 1)], "{out:?}");
}

#[test]
fn an_exempt_side_earns_no_article_4_ruling() {
    // White touches the g1 knight, then moves the e-pawn (4.3.1), then Black does the same.
    let script = "0 lift g1
         400 place g1
         1000 lift e2
         1400 place e4
         2000 lift g8
         2400 place g8
         3000 lift e7
         3400 place e5";
    let out = run(Chess::default(), Config::default(), script);
    assert_eq!(rulings(&out).len(), 2, "{out:?}");
    let exempt = Config::default().with_exempt(Some(Color::Black));
    let out = run(Chess::default(), exempt, script);
    assert_eq!(rulings(&out), [(Rule::TouchOwn, Square::G1)], "{out:?}");
}

#[test]
fn an_unidentified_promotion_awaits_the_choice_when_asked_to_and_is_a_queen_otherwise() {
    let start = position("8/4P1k1/8/8/8/8/P7/4K3 w - - 0 1");
    let script = "0 lift e7\n700 place e8\n60000 promote n\n61000 lift g7\n61300 place h7";
    // By default the queen is taken once the move has rested (and marked as assumed).
    let out = run(start.clone(), Config::default(), script);
    assert_eq!(sans(&out).first(), Some(&(950, "e8=Q".to_owned())));
    let defaulted = out
        .iter()
        .any(|e| matches!(&e.kind, EventKind::Move(m) if m.promotion_default));
    assert!(defaulted, "{out:?}");
    // Awaited: nothing is decided until the knight is chosen, a minute later; then e8=N, and
    // the reply after it.
    let config = Config::default().awaiting_promotion_choice();
    let mut interpreter = Interpreter::new(start.clone(), config);
    for event in read_events("0 lift e7\n700 place e8") {
        interpreter.handle_event(&event);
    }
    interpreter.handle_timeout(59_000);
    // Nothing is decided: the move is only said pending, as a queen until the choice.
    let said: Vec<GameEvent> = std::iter::from_fn(|| interpreter.poll_event()).collect();
    let pending: Vec<Option<&str>> = said
        .iter()
        .map(|e| match &e.kind {
            EventKind::Pending(p) => p.san.as_deref(),
            _ => Some("a decision"),
        })
        .collect();
    assert_eq!(pending, [Some("e8=Q")], "{said:?}");
    assert_eq!(interpreter.poll_timeout(), None, "no deadline falls");
    let e8q = interpreter
        .game()
        .position()
        .legal_moves()
        .into_iter()
        .find(|m| m.to() == Square::E8 && m.promotion() == Some(shakmaty::Role::Queen));
    assert_eq!(
        interpreter.turn_view().pending,
        e8q.map(|chess_move| PendingDecision::PromotionChoice { chess_move })
    );
    let out = run(start, config, script);
    assert_eq!(
        sans(&out),
        vec![(60000, "e8=N+".to_owned()), (61300, "Kh7".to_owned())]
    );
    assert!(
        out.iter()
            .all(|e| !matches!(&e.kind, EventKind::Move(m) if m.promotion_default))
    );
}

/// The sensor events of `script` (sensor log event lines).
fn read_events(script: &str) -> Vec<crate::sensor::SensorEvent> {
    crate::sensor_log::read_log(&format!("touchmove-log 1\n{script}\n"))
        .expect("a valid script")
        .events
}

#[test]
fn a_full_report_that_forward_play_also_explains_is_no_takeback() {
    // 1. Nf3 Nf6 seen; unplugged, 2. Ng1 Ng8 are played, and the full report shows the start
    // position again: an earlier position, and two plies forward. It is not taken back (before,
    // it was: two takebacks, and 3. e4 recorded as the game's first move). Then e2-e4 is seen:
    // Ng1 Ng8 e4 and e4 Ng8 Ng1 both lead there, but the report showed e2 still occupied and
    // e4 was seen made after it: e4 is the last move, and Ng1 Ng8 were made unseen before it.
    let out = run(
        Chess::default(),
        Config::default(),
        "@board identifying
         0 lift g1 N
         300 place f3 N
         1000 lift g8 n
         1300 place f6 n
         5000 snapshot rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR
         7000 lift e2 P
         7300 place e4 P",
    );
    assert!(
        out.iter()
            .all(|e| !matches!(e.kind, EventKind::Takeback { .. })),
        "{out:?}"
    );
    let played: Vec<String> = sans(&out).into_iter().map(|(_, san)| san).collect();
    assert_eq!(played, ["Nf3", "Nf6", "Ng1", "Ng8", "e4"], "{out:?}");
    let reconstructed: Vec<bool> = out
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Move(m) => Some(m.reconstructed),
            _ => None,
        })
        .collect();
    assert_eq!(reconstructed, [false, false, true, true, true], "{out:?}");
}

/// Feeds `script` (sensor log event lines) to `interpreter` and returns what it decided.
fn feed(interpreter: &mut Interpreter, script: &str) -> Vec<GameEvent> {
    let lines: Vec<&str> = script.lines().map(str::trim).collect();
    let log = crate::sensor_log::read_log(&format!("touchmove-log 1\n{}\n", lines.join("\n")))
        .expect("a valid script");
    for event in &log.events {
        interpreter.handle_event(event);
    }
    std::iter::from_fn(|| interpreter.poll_event()).collect()
}

#[test]
fn while_a_reinstated_position_is_put_back_no_press_is_ruled_and_a_board_put_back_is_in_step() {
    let config = Config::default();
    let mut interpreter = Interpreter::new(Chess::default(), config);
    feed(
        &mut interpreter,
        "1000 lift e2 P
         1200 place e4 P
         2000 lift e7 p
         2200 place e5 p",
    );
    interpreter.reinstate(3_000, 1);
    let kinds: Vec<&str> = std::iter::from_fn(|| interpreter.poll_event())
        .map(|event| match event.kind {
            EventKind::Takeback { .. } => "takeback",
            EventKind::Reinstated { .. } => "reinstated",
            EventKind::Mismatch { .. } => "mismatch",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["takeback", "reinstated", "mismatch"]);
    // Black presses before the pawn is back: no illegal move, nothing decided.
    let pressed = feed(&mut interpreter, "3500 clock black");
    assert!(pressed.is_empty(), "{pressed:?}");
    // The pawn back on e7: in step again, and Black's move counts.
    let back = feed(
        &mut interpreter,
        "4000 lift e5 p
         4200 place e7 p
         5000 lift c7 p
         5200 place c5 p",
    );
    assert!(matches!(back[0].kind, EventKind::Resync), "{back:?}");
    interpreter.finish();
    let rest: Vec<GameEvent> = back
        .into_iter()
        .chain(std::iter::from_fn(|| interpreter.poll_event()))
        .collect();
    assert_eq!(sans(&rest), [(5_200, "c5".to_owned())]);

    // A board already put back when the arbiter reinstates it (the pawn back on e2, before
    // that was read as a takeback) is in step: no mismatch, no resync.
    let mut interpreter = Interpreter::new(Chess::default(), config);
    let moved = feed(
        &mut interpreter,
        "1000 lift e2 P
         1200 place e4 P
         3000 lift e4 P
         3100 place e2 P",
    );
    assert_eq!(sans(&moved), [(1_200, "e4".to_owned())]);
    interpreter.reinstate(3_100, 0);
    let said: Vec<GameEvent> = std::iter::from_fn(|| interpreter.poll_event()).collect();
    assert!(
        said.iter()
            .any(|event| matches!(event.kind, EventKind::Reinstated { ply: 0, .. }))
            && said
                .iter()
                .all(|event| !matches!(event.kind, EventKind::Mismatch { .. } | EventKind::Resync)),
        "{said:?}"
    );
}

// Before 13. Nxe5 fxe5 14. Nxe5 Rf6: a board that samples occupancy every 250 ms saw each
// capture as the capturing piece's square emptied, nothing more.
use super::frames::BEFORE_NXE5;

/// A board sampling occupancy every 250 ms (a Certabo Sentio's scan).
fn sampled() -> Config {
    Config::default().with_scan_ms(250)
}

#[test]
fn captures_a_sampling_board_hid_are_caught_up_in_the_order_it_showed_them() {
    // The board showed c4 emptied, then f6, then f3, then f7, then f6 filled: both knights
    // took on e5, and 13. Nfxe5 fxe5 14. Ncxe5 reaches the same squares; only the c4 knight
    // first keeps the order shown.
    let out = run(
        position(BEFORE_NXE5),
        sampled(),
        "1000 snapshot X1XX1XX1/XXX2XXX/2X1XX2/X3X3/4X3/3X1X2/1XX2XXX/X1X1XX1X
         2000 snapshot X1XX1XX1/XXX2XXX/2X1X3/X3X3/4X3/3X1X2/1XX2XXX/X1X1XX1X
         3000 snapshot X1XX1XX1/XXX2XXX/2X1X3/X3X3/4X3/3X4/1XX2XXX/X1X1XX1X
         4000 snapshot X1XX1XX1/XXX3XX/2X1X3/X3X3/4X3/3X4/1XX2XXX/X1X1XX1X
         5000 snapshot X1XX1XX1/XXX3XX/2X1XX2/X3X3/4X3/3X4/1XX2XXX/X1X1XX1X",
    );
    let moves: Vec<(String, bool)> = out
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Move(m) => Some((m.uci.to_string(), m.reconstructed)),
            _ => None,
        })
        .collect();
    // The captures made unseen are reconstructed; the rook's move, seen leaving f7 and
    // reaching f6 once the record had caught up, is a move like any other.
    let expected = [
        ("c4e5", true),
        ("f6e5", true),
        ("f3e5", true),
        ("f7f6", false),
    ]
    .map(|(uci, reconstructed)| (uci.to_owned(), reconstructed));
    assert_eq!(moves, expected);
    assert!(
        out.iter()
            .all(|e| !matches!(e.kind, EventKind::Violation(_) | EventKind::Illegal(_))),
        "{out:?}"
    );
}

#[test]
fn a_neighbour_knocked_for_a_window_while_a_pawn_is_in_hand_is_no_capture() {
    // After 1. e4 e6 2. d4 d5, on a board sampling every 50 ms: the e4 pawn lifted, the e6
    // pawn knocked off and put back exactly one slide window later, then the e4 pawn set down
    // on e5. The board, weighed only once the frame that ends the window is seen, shows the
    // pawn in hand, not 3. exd5 exd5 made unseen.
    let start = "rnbqkbnr/ppp2ppp/4p3/3p4/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 0 3";
    let script = "1000 snapshot XXXXXXXX/XXX2XXX/4X3/3X4/3X4/8/XXX2XXX/XXXXXXXX
                  1300 snapshot XXXXXXXX/XXX2XXX/8/3X4/3X4/8/XXX2XXX/XXXXXXXX
                  1550 snapshot XXXXXXXX/XXX2XXX/4X3/3X4/3X4/8/XXX2XXX/XXXXXXXX
                  2000 snapshot XXXXXXXX/XXX2XXX/4X3/3XX3/3X4/8/XXX2XXX/XXXXXXXX";
    let out = run(position(start), Config::default().with_scan_ms(50), script);
    let moves: Vec<String> = sans(&out).into_iter().map(|(_, san)| san).collect();
    assert_eq!(moves, ["e5"], "{out:?}");
}

#[test]
fn a_frame_that_shows_a_pawn_passing_a_square_is_weighed_once_the_board_rested() {
    // A frame each 250 ms: White's e2 pawn lifted; then set down on e4, and Black's pawn shown
    // on e6 on its way from e7 to e5 (a quick reply); then on e5. 1. e4 e6 explains the second
    // frame; weighed once the board rested, the third shows 1. e4 e5.
    let script = "1000 snapshot XXXXXXXX/XXXXXXXX/8/8/8/8/XXXX1XXX/XXXXXXXX
                  1250 snapshot XXXXXXXX/XXXX1XXX/4X3/8/4X3/8/XXXX1XXX/XXXXXXXX
                  1500 snapshot XXXXXXXX/XXXX1XXX/8/4X3/4X3/8/XXXX1XXX/XXXXXXXX";
    let out = run(Chess::default(), sampled(), script);
    let moves: Vec<String> = sans(&out).into_iter().map(|(_, san)| san).collect();
    assert_eq!(moves, ["e4", "e5"], "{out:?}");
}

#[test]
fn a_reply_a_sampling_board_showed_before_the_move_was_caught_up_is_weighed_by_its_frames() {
    // From a corpus game (chessjs-benchmark.pgn game 6) on the bench's Sentio board: 31...
    // Rxd5 shows c5 emptied, nothing more (the rook may be in hand); then White's queen lifted
    // from e5, the rook of d5 off for a frame, the queen set down: 32. Qxd5+. Rxd5 is caught
    // up only then; the frames since it rested still show which of the queen's captures
    // (d5, g5, c7, h2...) was made.
    let script = "1000 snapshot 8/2XX1X2/7X/3XX1X1/8/6X1/X4X1X/5XX1
                  3750 snapshot 8/2XX1X2/7X/3X2X1/8/6X1/X4X1X/5XX1
                  4000 snapshot 8/2XX1X2/7X/6X1/8/6X1/X4X1X/5XX1
                  4250 snapshot 8/2XX1X2/7X/3X2X1/8/6X1/X4X1X/5XX1";
    let start = position("8/2pk1p2/7p/2rRQ1p1/8/6P1/P4P1P/5RK1 b - - 0 31");
    let out = run(start, sampled(), script);
    let moves: Vec<String> = sans(&out).into_iter().map(|(_, san)| san).collect();
    assert_eq!(moves, ["Rxd5", "Qxd5+"], "{out:?}");
}

#[test]
fn a_knock_that_read_as_a_capture_is_corrected_where_the_piece_in_hand_lands() {
    // From a corpus game (chessjs-benchmark.pgn game 68) on the bench's Sentio board: White's
    // queen lifted from b7 and Black's knight of c6 knocked off within one frame; the knight
    // put back by the next (the board shows 11. Qxc6); the queen, in hand all along, then set
    // down on b3. The board shows 11. Qb3: the capture is corrected, not left as a mismatch.
    let start = position("r4rk1/pQpqb1pp/2nppn2/4p1B1/4P3/2PP1N1P/PP3PP1/RN2K2R w KQ - 1 11");
    let script = "1000 snapshot X4XX1/XXXXX1XX/2XXXX2/4X1X1/4X3/2XX1X1X/XX3XX1/XX2X2X
                  1250 snapshot X4XX1/X1XXX1XX/3XXX2/4X1X1/4X3/2XX1X1X/XX3XX1/XX2X2X
                  1500 snapshot X4XX1/X1XXX1XX/2XXXX2/4X1X1/4X3/2XX1X1X/XX3XX1/XX2X2X
                  2250 snapshot X4XX1/X1XXX1XX/2XXXX2/4X1X1/4X3/1XXX1X1X/XX3XX1/XX2X2X
                  5000 snapshot X4XX1/X1XXX1XX/2XXXX2/4X1X1/4X3/1XXX1X1X/XX3XX1/XX2X2X";
    let out = run(start, sampled(), script);
    let record = record_of(&out);
    assert_eq!(record, ["Qb3"], "{out:?}");
    assert!(
        out.iter().all(|e| !matches!(
            e.kind,
            EventKind::Violation(_) | EventKind::Illegal(_) | EventKind::Mismatch { .. }
        )),
        "{out:?}"
    );
}

#[test]
fn a_knock_corrected_while_the_reply_begins_is_corrected_before_the_reply() {
    // From a corpus game (twic1599_1000k.pgn game 662) on the bench's Sentio board: Black's
    // queen lifted from b6; Black's pawn of b7 and White's pawn of f2 knocked off within a
    // frame and put back by the next (the board shows 22... Qxf2+); the queen set down on b5,
    // and in the next frame White's knight of a4 already lifted, then set down on c5. The
    // queen might have moved on from b5 when the knight was lifted: 22... Qb5 corrects the
    // capture all the same, and 23. Nc5 follows.
    let start = position("r3r3/1p4k1/pq1bppnp/8/NP2Q3/P4N2/5PPP/2R1R1K1 b - - 1 22");
    let script = "1000 snapshot X3X3/1X4X1/XX1XXXXX/8/XX2X3/X4X2/5XXX/2X1X1X1
                  1250 snapshot X3X3/1X4X1/X2XXXXX/8/XX2X3/X4X2/5XXX/2X1X1X1
                  1500 snapshot X3X3/6X1/X2XXXXX/8/XX2X3/X4X2/6XX/2X1X1X1
                  1750 snapshot X3X3/1X4X1/X2XXXXX/8/XX2X3/X4X2/5XXX/2X1X1X1
                  2000 snapshot X3X3/1X4X1/X2XXXXX/1X6/XX2X3/X4X2/5XXX/2X1X1X1
                  2250 snapshot X3X3/1X4X1/X2XXXXX/1X6/1X2X3/X4X2/5XXX/2X1X1X1
                  2500 snapshot X3X3/1X4X1/X2XXXXX/1XX5/1X2X3/X4X2/5XXX/2X1X1X1
                  5000 snapshot X3X3/1X4X1/X2XXXXX/1XX5/1X2X3/X4X2/5XXX/2X1X1X1";
    let out = run(start, sampled(), script);
    assert_eq!(record_of(&out), ["Qb5", "Nc5"], "{out:?}");
    assert!(
        out.iter()
            .all(|e| !matches!(e.kind, EventKind::Violation(_) | EventKind::Illegal(_))),
        "{out:?}"
    );
}

#[test]
fn a_move_caught_up_beside_a_knock_is_corrected_where_the_piece_lands() {
    // From a corpus game (chessjs-benchmark.pgn game 86) on the bench's Sentio board: Black's
    // pawn of b7 lifted (in hand, passing b6 between frames), White's knight of c4 knocked
    // off; the board rests showing b7 and c4 emptied, which 17... b6 with 18. Nxb6 under way
    // (its victim taken off first) explains, so b6 is caught up. The knight put back, the pawn
    // set down on b5: the board shows 17... b5, and the move caught up is corrected.
    let start = position("r2q1rk1/pp4bp/2p3p1/3b1p2/1PNPp3/PQ2P3/5PPP/R1B2RK1 b - - 0 17");
    let script = "1000 snapshot X2X1XX1/XX4XX/2X3X1/3X1X2/1XXXX3/XX2X3/5XXX/X1X2XX1
                  1250 snapshot X2X1XX1/X5XX/2X3X1/3X1X2/1XXXX3/XX2X3/5XXX/X1X2XX1
                  1500 snapshot X2X1XX1/X5XX/2X3X1/3X1X2/1X1XX3/XX2X3/5XXX/X1X2XX1
                  2000 snapshot X2X1XX1/X5XX/2X3X1/3X1X2/1XXXX3/XX2X3/5XXX/X1X2XX1
                  2250 snapshot X2X1XX1/X5XX/2X3X1/1X1X1X2/1XXXX3/XX2X3/5XXX/X1X2XX1
                  5000 snapshot X2X1XX1/X5XX/2X3X1/1X1X1X2/1XXXX3/XX2X3/5XXX/X1X2XX1";
    let out = run(start, sampled(), script);
    assert_eq!(record_of(&out), ["b5"], "{out:?}");
}

#[test]
fn a_reply_made_before_the_move_was_decided_is_no_takeback_in_a_repetition() {
    // From a corpus game (world_matches.pgn game 185) on the bench's Sentio board: 40. Rg3 Kf4
    // 41. Rg1 Ke4, then 42. Rg3 shown (pending: the rook may move on), Black's king lifted a
    // frame later and set down on f4. The board shows the position after 40... Kf4, two plies
    // back, but it showed the rook's move first: 42. Rg3 Kf4 is the reply to the move left, no
    // takeback, and not a mismatch the game waits on.
    let start = position("5r2/4R3/2r3p1/ppp1n1P1/4k2N/2P5/P3K3/6R1 w - - 2 40");
    let script = "1000 snapshot 5X2/4X3/2X3X1/XXX1X1X1/4X2X/2X5/X3X3/6X1
                  2000 snapshot 5X2/4X3/2X3X1/XXX1X1X1/4X2X/2X5/X3X3/8
                  2250 snapshot 5X2/4X3/2X3X1/XXX1X1X1/4X2X/2X3X1/X3X3/8
                  4000 snapshot 5X2/4X3/2X3X1/XXX1X1X1/7X/2X3X1/X3X3/8
                  4250 snapshot 5X2/4X3/2X3X1/XXX1X1X1/5X1X/2X3X1/X3X3/8
                  6000 snapshot 5X2/4X3/2X3X1/XXX1X1X1/5X1X/2X5/X3X3/8
                  6250 snapshot 5X2/4X3/2X3X1/XXX1X1X1/5X1X/2X5/X3X3/6X1
                  8000 snapshot 5X2/4X3/2X3X1/XXX1X1X1/7X/2X5/X3X3/6X1
                  8250 snapshot 5X2/4X3/2X3X1/XXX1X1X1/4X2X/2X5/X3X3/6X1
                  10000 snapshot 5X2/4X3/2X3X1/XXX1X1X1/4X2X/2X5/X3X3/8
                  10250 snapshot 5X2/4X3/2X3X1/XXX1X1X1/4X2X/2X3X1/X3X3/8
                  10500 snapshot 5X2/4X3/2X3X1/XXX1X1X1/7X/2X3X1/X3X3/8
                  11000 snapshot 5X2/4X3/2X3X1/XXX1X1X1/5X1X/2X3X1/X3X3/8
                  20000 snapshot 5X2/4X3/2X3X1/XXX1X1X1/5X1X/2X3X1/X3X3/8";
    let out = run(start, sampled(), script);
    assert_eq!(
        record_of(&out),
        ["Rg3", "Kf4", "Rg1", "Ke4", "Rg3", "Kf4"],
        "{out:?}"
    );
}

#[test]
fn a_knock_read_as_a_capture_is_corrected_when_the_reply_shows_the_capture_elsewhere() {
    // From a corpus game (lichess_db_1000k.pgn game 306) on the bench's Sentio board: White's
    // queen lifted from f3; Black's pawn of f5 and White's rook of e2 knocked off within a
    // frame and put back by the next (the board shows 32. Qxf5); Black's rook of a8 then off
    // for a frame, and back: the queen took there, the board showing the same. Black's king
    // set on h7, where the queen on f5 would attack it: no move from the record explains the
    // board, and 32. Qxa8+ Kh7 from the position before does (a8 emptied and filled since the
    // capture was decided): the capture is corrected, and 33. Qf3 follows.
    let start = position("r5k1/2b2pp1/7p/1p3p1B/2p5/2P2Q1P/2P1RKPq/8 w - - 7 32");
    let script = "1000 snapshot X5X1/2X2XX1/7X/1X3X1X/2X5/2X2X1X/2X1XXXX/8
                  1250 snapshot X5X1/2X2XX1/7X/1X3X1X/2X5/2X4X/2X1XXXX/8
                  1500 snapshot X5X1/2X2XX1/7X/1X5X/2X5/2X4X/2X2XXX/8
                  1750 snapshot X5X1/2X2XX1/7X/1X3X1X/2X5/2X4X/2X1XXXX/8
                  2250 snapshot 6X1/2X2XX1/7X/1X3X1X/2X5/2X4X/2X1XXXX/8
                  2750 snapshot X5X1/2X2XX1/7X/1X3X1X/2X5/2X4X/2X1XXXX/8
                  6000 snapshot X7/2X2XX1/7X/1X3X1X/2X5/2X4X/2X1XXXX/8
                  6500 snapshot X7/2X2XXX/7X/1X3X1X/2X5/2X4X/2X1XXXX/8
                  8000 snapshot 8/2X2XXX/7X/1X3X1X/2X5/2X4X/2X1XXXX/8
                  8250 snapshot 8/2X2XXX/7X/1X3X1X/2X5/2X2X1X/2X1XXXX/8
                  12000 snapshot 8/2X2XXX/7X/1X3X1X/2X5/2X2X1X/2X1XXXX/8";
    let out = run(start, sampled(), script);
    assert_eq!(record_of(&out), ["Qxa8+", "Kh7", "Qf3"], "{out:?}");
    assert!(
        out.iter()
            .all(|e| !matches!(e.kind, EventKind::Violation(_) | EventKind::Illegal(_))),
        "{out:?}"
    );
}

#[test]
fn an_en_passant_capture_whose_victim_is_still_on_is_a_move_under_way() {
    // From a corpus game (lichess_db_1000k.pgn game 192) on the bench's Sentio board: after
    // 20... f5, White's pawn of e5 lifted, set down on f6, and the board rests a frame before
    // the pawn of f5 is taken off. 21. e6 Bf6 22. e7 leaves the same squares occupied: it is
    // not caught up; the capture is under way, and 21. exf6 is made once f5 is emptied.
    let start = position("r4rk1/3qb2p/p1p3pQ/1p1pPp2/P2P1P2/2P1B2P/6P1/R4RK1 w - f6 0 21");
    let script = "1000 snapshot X4XX1/3XX2X/X1X3XX/1X1XXX2/X2X1X2/2X1X2X/6X1/X4XX1
                  1250 snapshot X4XX1/3XX2X/X1X3XX/1X1X1X2/X2X1X2/2X1X2X/6X1/X4XX1
                  1500 snapshot X4XX1/3XX2X/X1X2XXX/1X1X1X2/X2X1X2/2X1X2X/6X1/X4XX1
                  2000 snapshot X4XX1/3XX2X/X1X2XXX/1X1X4/X2X1X2/2X1X2X/6X1/X4XX1
                  5000 snapshot X4XX1/3XX2X/X1X2XXX/1X1X4/X2X1X2/2X1X2X/6X1/X4XX1";
    let out = run(start, sampled(), script);
    assert_eq!(record_of(&out), ["exf6"], "{out:?}");
}

#[test]
fn a_promotion_whose_piece_is_chosen_at_the_host_is_not_caught_up_before_the_choice() {
    // From a corpus game (dortmund.pgn game 299) on the bench's Sentio board: White's pawn set
    // on e8, lifted again to be replaced, the board resting a frame with e7 and e8 emptied
    // before the queen is typed at the host and set down. 54. e8=N+ Kxc6 55. Nc7 leaves the
    // same squares occupied; with the piece not chosen yet no promotion is caught up, and
    // 54. e8=Q is made once it is.
    let start = position("8/p1k1P3/P1P2K2/5p1p/7P/4P3/6p1/8 w - - 1 54");
    let script = "1000 snapshot 8/X1X1X3/X1X2X2/5X1X/7X/4X3/6X1/8
                  1250 snapshot 4X3/X1X5/X1X2X2/5X1X/7X/4X3/6X1/8
                  1750 snapshot 8/X1X5/X1X2X2/5X1X/7X/4X3/6X1/8
                  2149 promote q
                  2250 snapshot 4X3/X1X5/X1X2X2/5X1X/7X/4X3/6X1/8
                  5000 snapshot 4X3/X1X5/X1X2X2/5X1X/7X/4X3/6X1/8";
    let config = sampled().awaiting_promotion_choice();
    let out = run(start, config, script);
    assert_eq!(record_of(&out), ["e8=Q"], "{out:?}");
}

#[test]
fn a_promotion_piece_set_down_first_corrects_no_capture() {
    // From a corpus game (twic1599_1000k.pgn game 717) on the bench's Sentio board: 63. Nxa2
    // (a neighbour knocked off and put back meanwhile), then Black's queen typed at the host
    // and set down on d1 before the pawn of d2 is lifted. The board showed 63. Nd1 from the
    // position before for a frame: a piece set down where the side to move may promote is no
    // knight landing from the hand; 63... d1=Q+ is made.
    let start = position("8/8/8/4k2K/8/2N5/p2p4/8 w - - 2 63");
    let script = "1000 snapshot 8/8/8/4X2X/8/2X5/X2X4/8
                  1250 snapshot 8/8/8/4X2X/8/8/X2X4/8
                  1500 snapshot 8/8/8/4X2X/8/8/X7/8
                  1750 snapshot 8/8/8/4X2X/8/8/X2X4/8
                  2000 snapshot 8/8/8/4X2X/8/8/3X4/8
                  2250 snapshot 8/8/8/4X2X/8/8/X2X4/8
                  6786 promote q
                  7000 snapshot 8/8/8/4X2X/8/8/X2X4/3X4
                  7250 snapshot 8/8/8/4X2X/8/8/X7/3X4
                  10000 snapshot 8/8/8/4X2X/8/8/X7/3X4";
    let config = sampled().awaiting_promotion_choice();
    let out = run(start, config, script);
    assert_eq!(record_of(&out), ["Nxa2", "d1=Q+"], "{out:?}");
}

#[test]
fn where_a_king_went_is_asked_at_once_not_held_back_for_a_gesture() {
    // From a corpus game (dortmund.pgn game 32) on the bench's Sentio board: 68. Rxd8, then
    // 68... Kxd8 made within a frame (c7 emptied, nothing more). The king may be in hand, on
    // its way to the centre for the result gesture, so what is decided meanwhile is held back;
    // but where it went (c6 or d8, no centre square) is asked at once, as the lights must ask
    // the hands, and the king lifted from d8 and set back answers it.
    let start = position("3rR3/2kP2K1/2P5/8/1p6/8/8/8 w - - 0 68");
    let script = "1000 snapshot 3XX3/2XX2X1/2X5/8/1X6/8/8/8
                  9000 snapshot 3X4/2XX2X1/2X5/8/1X6/8/8/8
                  9500 snapshot 8/2XX2X1/2X5/8/1X6/8/8/8
                  9750 snapshot 3X4/2XX2X1/2X5/8/1X6/8/8/8
                  25500 snapshot 3X4/3X2X1/2X5/8/1X6/8/8/8
                  28000 snapshot 8/3X2X1/2X5/8/1X6/8/8/8
                  28500 snapshot 3X4/3X2X1/2X5/8/1X6/8/8/8";
    let lines: Vec<&str> = script.lines().map(str::trim).collect();
    let log = crate::sensor_log::read_log(&format!("touchmove-log 1\n{}\n", lines.join("\n")))
        .expect("a valid script");
    let mut interpreter = Interpreter::new(start, sampled().awaiting_promotion_choice());
    // As a live session: each deadline handled when due, the events polled as they come.
    let mut live: Vec<(Millis, GameEvent)> = Vec::new();
    let mut poll = |interpreter: &mut Interpreter, now: Millis| {
        live.extend(std::iter::from_fn(|| interpreter.poll_event()).map(|e| (now, e)));
    };
    for event in &log.events {
        while let Some(due) = interpreter.poll_timeout().filter(|due| *due < event.t) {
            interpreter.handle_timeout(due);
            poll(&mut interpreter, due);
        }
        interpreter.handle_event(event);
        poll(&mut interpreter, event.t);
    }
    let polled_at = |wanted: &dyn Fn(&EventKind) -> bool| {
        live.iter()
            .find(|(_, e)| wanted(&e.kind))
            .map(|(now, _)| *now)
    };
    let asked = polled_at(
        &|kind| matches!(kind, EventKind::Ambiguous { from: Square::C7, to } if !to.is_empty()),
    );
    assert_eq!(asked, Some(25_751), "{live:?}");
    let kxd8 = polled_at(&|kind| matches!(kind, EventKind::Move(m) if m.san.to_string() == "Kxd8"));
    assert!(kxd8.is_some(), "decided once answered: {live:?}");
}

#[test]
fn a_reply_begun_with_its_victim_taken_off_is_under_way_after_a_move_caught_up() {
    // From a corpus game (world_matches.pgn game 31) on the bench's Sentio board: White's
    // bishop lifted from e3 (the knight of e2 knocked off and put back), set down on g5, and
    // Black's reply begun at once by taking the bishop of d3 off; the board rests there. 14.
    // Bg5 is caught up with 14... Nxd3 under way (its victim off first), not 14. Bg5 Nxd3 15.
    // b4 Nb2, which leaves the same squares occupied; the knight set down on d3 makes it.
    let start = position("r1bq1rk1/1p2n1bp/p3p1p1/3pP3/1n1P4/2NBB3/PP1QN1PP/R4RK1 w - - 2 14");
    let script = "1000 snapshot X1XX1XX1/1X2X1XX/X3X1X1/3XX3/1X1X4/2XXX3/XX1XX1XX/X4XX1
                  1250 snapshot X1XX1XX1/1X2X1XX/X3X1X1/3XX3/1X1X4/2XX4/XX1X2XX/X4XX1
                  1500 snapshot X1XX1XX1/1X2X1XX/X3X1X1/3XX3/1X1X4/2XX4/XX1XX1XX/X4XX1
                  1750 snapshot X1XX1XX1/1X2X1XX/X3X1X1/3XX1X1/1X1X4/2XX4/XX1XX1XX/X4XX1
                  2000 snapshot X1XX1XX1/1X2X1XX/X3X1X1/3XX1X1/1X1X4/2X5/XX1XX1XX/X4XX1
                  2750 snapshot X1XX1XX1/1X2X1XX/X3X1X1/3XX1X1/3X4/2X5/XX1XX1XX/X4XX1
                  3250 snapshot X1XX1XX1/1X2X1XX/X3X1X1/3XX1X1/3X4/2XX4/XX1XX1XX/X4XX1
                  6000 snapshot X1XX1XX1/1X2X1XX/X3X1X1/3XX1X1/3X4/2XX4/XX1XX1XX/X4XX1";
    let out = run(start, sampled(), script);
    assert_eq!(record_of(&out), ["Bg5", "Nxd3"], "{out:?}");
}

/// The questions asked in `out` (`ambiguous` events with squares: the square a piece left and
/// those it may stand on), in order.
fn questions(out: &[GameEvent]) -> Vec<(Square, Vec<Square>)> {
    out.iter()
        .filter_map(|e| match &e.kind {
            EventKind::Ambiguous { from, to } if !to.is_empty() => Some((*from, to.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn a_capture_a_sampling_board_cannot_place_is_asked_once_and_the_piece_lifted_answers() {
    // The queen of h3 lifted, set down on e6 or h7 with its victim taken off within a frame:
    // the board shows h3 emptied, nothing more. Which square is asked (once, however long
    // the board rests, the mismatch said meanwhile); the queen lifted from e6 and set back
    // answers: 1. Qxe6+, decided when it is set back, not only when the log ends.
    let script = "1000 snapshot 6X1/7X/4X3/8/8/8/8/6X1
                  5500 snapshot 6X1/7X/8/8/8/8/8/6X1
                  6000 snapshot 6X1/7X/4X3/8/8/8/8/6X1
                  9000 snapshot 6X1/7X/4X3/8/8/8/8/6X1";
    let start = position("6k1/7p/4p3/8/8/7Q/8/6K1 w - - 0 1");
    let out = run(start.clone(), sampled(), script);
    let asked = questions(&out);
    assert_eq!(
        asked,
        [(Square::H3, vec![Square::E6, Square::H7])],
        "{out:?}"
    );
    let moves = sans(&out);
    assert_eq!(moves.len(), 1, "{out:?}");
    assert_eq!(moves[0].1, "Qxe6+");
    assert!(moves[0].0 < 9_000, "decided when answered: {out:?}");
    // Unanswered, the question stands, and nothing is decided before the log ends.
    let unanswered = "1000 snapshot 6X1/7X/4X3/8/8/8/8/6X1
                      9000 snapshot 6X1/7X/4X3/8/8/8/8/6X1";
    let out = run(start.clone(), sampled(), unanswered);
    assert!(sans(&out).iter().all(|(t, _)| *t >= 9_000), "{out:?}");
    // The queen set back on h3 (it was in hand): nothing is asked any more.
    let back = "1000 snapshot 6X1/7X/4X3/8/8/8/8/6X1
                2000 snapshot 6X1/7X/4X3/8/8/7X/8/6X1";
    let out = run(start, sampled(), back);
    let said: Vec<(Square, usize)> = out
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Ambiguous { from, to } => Some((*from, to.len())),
            _ => None,
        })
        .collect();
    assert_eq!(said, [(Square::H3, 2), (Square::H3, 0)], "{out:?}");
    assert!(sans(&out).is_empty(), "{out:?}");
}

#[test]
fn a_capture_left_open_after_moves_caught_up_is_asked_too() {
    // From a corpus game (lichess_db_1000k.pgn game 264) on the bench's Sentio board: 26...
    // Bxd2+ 27. Nxd2 each made within a frame (e3, f3 and d2 emptied, d2 filled again); then
    // the rook of d8 lifted and 27... Rxd2 made within a frame: the board shows d8 emptied,
    // nothing more. Bxd2+ Nxd2 are caught up; whether the rook is in hand or took on d2 is
    // asked (it was not asked once the record stood there), and the rook lifted from d2 and
    // set back answers it.
    let script = "1000 snapshot 3X2X1/X4XXX/2X5/6X1/5X1X/4XX2/XXXXX3/2X5
                  1250 snapshot 3X2X1/X4XXX/2X5/6X1/5X1X/8/XXX1X3/2X5
                  1500 snapshot 3X2X1/X4XXX/2X5/6X1/5X1X/8/XXXXX3/2X5
                  3000 snapshot 6X1/X4XXX/2X5/6X1/5X1X/8/XXXXX3/2X5
                  6000 snapshot 6X1/X4XXX/2X5/6X1/5X1X/8/XXX1X3/2X5
                  6250 snapshot 6X1/X4XXX/2X5/6X1/5X1X/8/XXXXX3/2X5
                  9000 snapshot 6X1/X4XXX/2X5/6X1/5X1X/8/XXXXX3/2X5";
    let start = position("3r2k1/p4ppp/2p5/6P1/5q1P/4bN2/PPPNR3/2K5 b - - 0 26");
    let out = run(start, sampled(), script);
    let asked = questions(&out);
    assert_eq!(
        asked.last(),
        Some(&(Square::D8, vec![Square::D2])),
        "{out:?}"
    );
    let moves = sans(&out);
    let sans_only: Vec<&str> = moves.iter().map(|(_, san)| san.as_str()).collect();
    assert_eq!(sans_only, ["Bxd2+", "Nxd2", "Rxd2"], "{out:?}");
    assert!(
        moves.iter().all(|(t, _)| *t < 9_000),
        "decided when answered: {out:?}"
    );
}

#[test]
fn where_a_piece_went_is_answered_after_the_reply_was_made() {
    // From a corpus game (twic1599_1000k.pgn game 1075) on the bench's Sentio board: 29. Rxg4
    // made within a frame (e4 emptied, nothing more: Rxd4 shows the same), then 29... Rxd3
    // (b3 emptied: Rxa3 shows the same) before the hands answered. Where the rook of e4 went
    // is asked, and stays asked once the reply is made; the rook lifted from g4 and set back
    // answers it (29. Rxg4 decided once it is set back and the board rested); then where the
    // rook of b3 went is asked, and the rook lifted from d3 and set back answers it.
    let frames = [
        "1000 snapshot 3X2X1/X4XXX/7X/4XX2/3XX1X1/XX1X2X1/3X3X/5XX1",
        "1250 snapshot 3X2X1/X4XXX/7X/4XX2/3X2X1/XX1X2X1/3X3X/5XX1",
        "2500 snapshot 3X2X1/X4XXX/7X/4XX2/3X2X1/X2X2X1/3X3X/5XX1",
    ];
    let answers = [
        "5000 snapshot 3X2X1/X4XXX/7X/4XX2/3X4/X2X2X1/3X3X/5XX1",
        "5750 snapshot 3X2X1/X4XXX/7X/4XX2/3X2X1/X2X2X1/3X3X/5XX1",
        "7000 snapshot 3X2X1/X4XXX/7X/4XX2/3X2X1/X5X1/3X3X/5XX1",
        "7750 snapshot 3X2X1/X4XXX/7X/4XX2/3X2X1/X2X2X1/3X3X/5XX1",
    ];
    let end = "9000 snapshot 3X2X1/X4XXX/7X/4XX2/3X2X1/X2X2X1/3X3X/5XX1";
    let script: Vec<&str> = frames
        .iter()
        .chain(&answers)
        .chain([&end])
        .copied()
        .collect();
    let start = position("3r2k1/p4ppn/7p/4PP2/3pR1q1/Pr1Q2P1/3B3P/5RK1 w - - 4 29");
    let out = run(start.clone(), sampled(), &script.join("\n"));
    let asked = questions(&out);
    let expected = [
        (Square::E4, vec![Square::D4, Square::G4]),
        (Square::B3, vec![Square::A3, Square::D3]),
    ];
    assert_eq!(asked, expected, "{out:?}");
    let moves = sans(&out);
    let decided: Vec<(bool, &str)> = moves
        .iter()
        .map(|(t, san)| {
            let answered = (5_750..=6_250).contains(t) || (7_750..=8_250).contains(t);
            (answered, san.as_str())
        })
        .collect();
    assert_eq!(decided, [(true, "Rxg4"), (true, "Rxd3")], "{out:?}");
    // Unanswered, nothing is decided while the log goes on.
    let unanswered: Vec<&str> = frames.iter().chain([&end]).copied().collect();
    let out = run(start, sampled(), &unanswered.join("\n"));
    assert!(sans(&out).iter().all(|(t, _)| *t >= 9_000), "{out:?}");
}

#[test]
fn an_answer_seen_begun_before_the_move_was_decided_holds_nothing_up_after() {
    // From a corpus game (lichess_db_1000k.pgn game 105) on the bench's Sentio board: 19...
    // Qd7 (d8 emptied, d7 filled), White's queen lifted from g4 at once, then 20. Qxd7 made
    // within a frame (d7 off, then on). Where Black's queen went was asked (d7 or g5); d7
    // emptied and filled looked like its answer, but 19... Qd7 was decided otherwise. From
    // there, where White's queen went (d7 or h5) is asked, not held up for an answer to the
    // question before, and answered.
    let script = "1000 snapshot X2XX1X1/X4X1X/2X3X1/3XX1XX/6X1/2X4X/XXX3X1/X4XX1
                  1250 snapshot X3X1X1/X4X1X/2X3X1/3XX1XX/6X1/2X4X/XXX3X1/X4XX1
                  1500 snapshot X3X1X1/X2X1X1X/2X3X1/3XX1XX/6X1/2X4X/XXX3X1/X4XX1
                  1750 snapshot X3X1X1/X2X1X1X/2X3X1/3XX1XX/8/2X4X/XXX3X1/X4XX1
                  2250 snapshot X3X1X1/X4X1X/2X3X1/3XX1XX/8/2X4X/XXX3X1/X4XX1
                  2500 snapshot X3X1X1/X2X1X1X/2X3X1/3XX1XX/8/2X4X/XXX3X1/X4XX1
                  4000 snapshot X3X1X1/X4X1X/2X3X1/3XX1XX/8/2X4X/XXX3X1/X4XX1
                  4600 snapshot X3X1X1/X2X1X1X/2X3X1/3XX1XX/8/2X4X/XXX3X1/X4XX1
                  9000 snapshot X3X1X1/X2X1X1X/2X3X1/3XX1XX/8/2X4X/XXX3X1/X4XX1";
    let start = position("r2qr1k1/p4p1p/2p3b1/3pP1Bn/6Q1/2N4P/PPP3P1/R4RK1 b - - 2 19");
    let out = run(start, sampled(), script);
    let asked = questions(&out);
    assert_eq!(
        asked.last(),
        Some(&(Square::G4, vec![Square::H5, Square::D7])),
        "{out:?}"
    );
    let moves = sans(&out);
    let decided: Vec<(bool, &str)> = moves
        .iter()
        .map(|(t, san)| (*t < 4_000 || (4_600..=5_100).contains(t), san.as_str()))
        .collect();
    assert_eq!(decided, [(true, "Qd7"), (true, "Qxd7")], "{out:?}");
}

#[test]
fn a_castling_begun_with_the_rook_on_a_sampling_board_waits_for_the_king() {
    // From a corpus game (dortmund.pgn game 234) on the bench's messy Sentio row: 15. O-O begun
    // with the rook (h1 emptied, f1 filled), then the king lifted. With the king in hand the
    // board also shows 15. Rh4 Bxh4 16. Kf1 Be7 made unseen; it is a castling under way, and
    // once the king is set down on g1, 15. O-O.
    let script = "1000 snapshot X3X1XX/XX1XXXX1/X1X1X2X/7X/2XX4/3X1XX1/XX1X1XX1/X3X2X
                  1250 snapshot X3X1XX/XX1XXXX1/X1X1X2X/7X/2XX4/3X1XX1/XX1X1XX1/X3X3
                  1500 snapshot X3X1XX/XX1XXXX1/X1X1X2X/7X/2XX4/3X1XX1/XX1X1XX1/X3XX2
                  1750 snapshot X3X1XX/XX1XXXX1/X1X1X2X/7X/2XX4/3X1XX1/XX1X1XX1/X4X2
                  3000 snapshot X3X1XX/XX1XXXX1/X1X1X2X/7X/2XX4/3X1XX1/XX1X1XX1/X4XX1
                  9000 snapshot X3X1XX/XX1XXXX1/X1X1X2X/7X/2XX4/3X1XX1/XX1X1XX1/X4XX1";
    let start = position("r3k1nr/pp1nbpp1/q1p1p2p/7P/2PP4/3Q1NN1/PP1B1PP1/R3K2R w KQkq - 1 15");
    let out = run(start, sampled(), script);
    let moves = sans(&out);
    let sans_only: Vec<&str> = moves.iter().map(|(_, san)| san.as_str()).collect();
    assert_eq!(sans_only, ["O-O"], "{out:?}");
    assert!(
        moves.iter().all(|(t, _)| (3_000..9_000).contains(t)),
        "{out:?}"
    );
}

#[test]
fn a_last_capture_a_sampling_board_hid_is_taken_once_the_input_ends() {
    // 13. Nxe5, the last move recorded: only c4 was seen emptied. While the log goes on, the
    // knight may be in hand; once it has ended, it is not: the one capture from c4 was made.
    let script = "1000 snapshot X1XX1XX1/XXX2XXX/2X1XX2/X3X3/4X3/3X1X2/1XX2XXX/X1X1XX1X";
    let out = run(position(BEFORE_NXE5), sampled(), script);
    let moves: Vec<String> = out
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Move(m) if m.reconstructed => Some(m.san.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(moves, ["Ncxe5"]);
    // A board reporting every change as it happens would have shown the pawn taken off: the
    // knight is in hand.
    let every_change = run(position(BEFORE_NXE5), Config::default(), script);
    assert!(sans(&every_change).is_empty(), "{every_change:?}");
}
