//! The UCI conversation with a scripted engine (a real one, Stockfish, in `tests/engine.rs`).

use shakmaty::san::San;
use shakmaty::{Chess, Move, Position};

use super::*;

/// Every line the session has to send.
fn sent(session: &mut EngineSession) -> Vec<String> {
    std::iter::from_fn(|| session.poll_transmit()).collect()
}

fn events(session: &mut EngineSession) -> Vec<EngineEvent> {
    std::iter::from_fn(|| session.poll_event()).collect()
}

/// The moves of `sans` from the start.
fn moves(sans: &[&str]) -> Vec<Move> {
    let mut position = Chess::default();
    let mut moves = Vec::new();
    for san in sans {
        let chess_move = san
            .parse::<San>()
            .ok()
            .and_then(|san| san.to_move(&position).ok());
        let Some(chess_move) = chess_move else {
            panic!("{san} is no move here");
        };
        position.play_unchecked(chess_move);
        moves.push(chess_move);
    }
    moves
}

/// An engine that has said its name and options, and is ready.
fn ready(config: EngineConfig) -> (EngineSession, Vec<String>) {
    let mut session = EngineSession::new(config, 0);
    assert_eq!(sent(&mut session), ["uci"]);
    for line in [
        "id name Fake 1.0",
        "id author Someone",
        "option name Hash type spin default 16 min 1 max 1024",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 1320 min 1320 max 3190",
        "uciok",
    ] {
        session.handle_line(10, line);
    }
    let mut lines = sent(&mut session);
    session.handle_line(20, "readyok");
    lines.extend(sent(&mut session));
    (session, lines)
}

#[test]
fn the_handshake_sets_the_options_and_the_strength() {
    let config = EngineConfig {
        options: vec![
            ("Hash".to_owned(), "64".to_owned()),
            ("Threads".to_owned(), "2".to_owned()),
        ],
        elo: Some(1000),
        skill: None,
        chess960: false,
    };
    let (mut session, lines) = ready(config);
    assert_eq!(
        lines,
        [
            "setoption name Hash value 64",
            "setoption name UCI_LimitStrength value true",
            "setoption name UCI_Elo value 1320",
            "isready"
        ]
    );
    assert_eq!(
        events(&mut session),
        [
            EngineEvent::Notice("the engine has no option `Threads`: not set".to_owned()),
            EngineEvent::Notice(
                "UCI_Elo 1000 is out of the engine's range: it plays at 1320, the nearest it can"
                    .to_owned()
            ),
            EngineEvent::Ready {
                name: Some("Fake 1.0".to_owned()),
                strength: Some(Strength::Elo(1320)),
            }
        ]
    );
    assert_eq!(session.name(), Some("Fake 1.0"));
}

/// An engine that declares `options` (besides its name) and is ready, set up with `config`:
/// what it is sent and what the session says.
fn handshake(config: EngineConfig, options: &[&str]) -> (Vec<String>, Vec<EngineEvent>) {
    let mut session = EngineSession::new(config, 0);
    let mut lines = sent(&mut session);
    session.handle_line(5, "id name Fake 2.0");
    for option in options {
        session.handle_line(6, option);
    }
    session.handle_line(10, "uciok");
    session.handle_line(20, "readyok");
    lines.extend(sent(&mut session));
    (lines, events(&mut session))
}

#[test]
fn a_skill_level_is_set_within_the_engine_s_range() {
    let skill = "option name Skill Level type spin default 20 min 0 max 20";
    let config = |level| EngineConfig {
        skill: Some(level),
        ..EngineConfig::default()
    };
    let (lines, said) = handshake(config(5), &[skill]);
    assert_eq!(
        lines,
        ["uci", "setoption name Skill Level value 5", "isready"]
    );
    assert_eq!(
        said,
        [EngineEvent::Ready {
            name: Some("Fake 2.0".to_owned()),
            strength: Some(Strength::Skill(5)),
        }]
    );
    // Below the range: the lowest, said.
    let (lines, said) = handshake(config(-3), &[skill]);
    assert_eq!(
        lines.get(1).map(String::as_str),
        Some("setoption name Skill Level value 0")
    );
    assert!(
        matches!(said.first(), Some(EngineEvent::Notice(text)) if text.contains("it plays at 0"))
    );
}

#[test]
fn an_engine_without_the_strength_asked_for_says_what_it_lacks_and_what_it_has() {
    // As Ethereal 12 declares them: no UCI_Elo, no Skill Level.
    let options = [
        "option name Hash type spin default 16 min 2 max 65536",
        "option name Threads type spin default 1 min 1 max 2048",
        "option name UCI_Chess960 type check default false",
    ];
    let declared = vec![
        "Hash".to_owned(),
        "Threads".to_owned(),
        "UCI_Chess960".to_owned(),
    ];
    let elo = EngineConfig {
        elo: Some(1500),
        ..EngineConfig::default()
    };
    let (lines, said) = handshake(elo, &options);
    assert_eq!(lines, ["uci", "isready"], "no strength option is sent");
    assert_eq!(
        said,
        [
            EngineEvent::Lacks {
                option: "UCI_Elo",
                declared: declared.clone(),
            },
            EngineEvent::Ready {
                name: Some("Fake 2.0".to_owned()),
                strength: None,
            }
        ]
    );
    let skill = EngineConfig {
        skill: Some(3),
        ..EngineConfig::default()
    };
    let (_, said) = handshake(skill, &options);
    assert_eq!(
        said.first(),
        Some(&EngineEvent::Lacks {
            option: "Skill Level",
            declared,
        })
    );
}

#[test]
fn a_search_asked_before_the_engine_is_ready_waits_for_it_and_a_new_game() {
    let mut session = EngineSession::new(EngineConfig::default(), 0);
    let _ = sent(&mut session);
    session.go(
        5,
        &Chess::default(),
        &moves(&["e4"]),
        SearchLimits::MoveTime(1000),
    );
    assert!(sent(&mut session).is_empty(), "nothing before uciok");
    session.handle_line(10, "uciok");
    assert_eq!(sent(&mut session), ["isready"]);
    session.handle_line(20, "readyok");
    assert_eq!(sent(&mut session), ["ucinewgame", "isready"]);
    session.handle_line(30, "readyok");
    assert_eq!(
        sent(&mut session),
        ["position startpos moves e2e4", "go movetime 1000"]
    );
    let _ = events(&mut session);
    session.handle_line(
        500,
        "info depth 12 seldepth 15 score cp -31 nodes 100 pv e7e5 g1f3",
    );
    session.handle_line(900, "bestmove e7e5 ponder g1f3");
    let said = events(&mut session);
    assert_eq!(
        said.first(),
        Some(&EngineEvent::Info {
            position: Box::new({
                let mut after = Chess::default();
                after.play_unchecked(moves(&["e4"])[0]);
                after
            }),
            depth: Some(12),
            score: Some(Score::Centipawns(-31)),
            pv: vec!["e7e5".to_owned(), "g1f3".to_owned()]
        })
    );
    assert!(
        matches!(said.get(1), Some(EngineEvent::BestMove { uci, .. }) if uci == "e7e5"),
        "{said:?}"
    );
    assert!(!session.searching());
    // The next search of the same game: no new game.
    session.go(
        1000,
        &Chess::default(),
        &moves(&["e4", "e5", "Nf3"]),
        SearchLimits::Depth(8),
    );
    assert_eq!(
        sent(&mut session),
        ["position startpos moves e2e4 e7e5 g1f3", "go depth 8"]
    );
}

#[test]
fn the_clock_s_times_are_given_and_castling_is_the_king_s_move() {
    let (mut session, _) = ready(EngineConfig::default());
    let limits = SearchLimits::Clock {
        white: 60_000,
        black: 55_000,
        white_increment: 2000,
        black_increment: 2000,
    };
    let played = moves(&["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O"]);
    session.go(0, &Chess::default(), &played, limits);
    session.handle_line(5, "readyok");
    let lines = sent(&mut session);
    assert_eq!(
        lines.get(2..),
        Some(
            &[
                "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1g1".to_owned(),
                "go wtime 60000 btime 55000 winc 2000 binc 2000".to_owned()
            ][..]
        ),
        "{lines:?}"
    );
    // Black's clock: 55 s and 2 s given, and 5 s more before it counts as hung.
    assert_eq!(session.poll_timeout(), Some(62_005));
}

#[test]
fn an_illegal_or_missing_move_is_said_and_a_silent_engine_reported() {
    let (mut session, _) = ready(EngineConfig::default());
    let played = moves(&["e4"]);
    session.go(0, &Chess::default(), &played, SearchLimits::MoveTime(100));
    let _ = sent(&mut session);
    session.handle_line(10, "readyok");
    let _ = (sent(&mut session), events(&mut session));
    // White's move, but Black is to move.
    session.handle_line(150, "bestmove d2d4");
    assert_eq!(
        events(&mut session),
        [EngineEvent::Illegal {
            said: "d2d4".to_owned()
        }]
    );
    session.go(200, &Chess::default(), &played, SearchLimits::MoveTime(100));
    session.handle_line(300, "bestmove (none)");
    assert_eq!(events(&mut session), [EngineEvent::NoMove]);
    // No answer within the time given and the margin: reported, and nothing more is asked.
    session.go(400, &Chess::default(), &played, SearchLimits::MoveTime(100));
    assert_eq!(session.poll_timeout(), Some(5500));
    session.handle_timeout(5499);
    assert!(events(&mut session).is_empty());
    session.handle_timeout(5500);
    assert_eq!(
        events(&mut session),
        [EngineEvent::Unresponsive {
            waiting_for: "bestmove",
            after: 5100
        }]
    );
    assert_eq!(session.poll_timeout(), None);
}

#[test]
fn a_search_asked_again_stops_the_one_under_way_and_its_answer_is_dropped() {
    let (mut session, _) = ready(EngineConfig::default());
    session.go(
        0,
        &Chess::default(),
        &moves(&["e4"]),
        SearchLimits::MoveTime(5000),
    );
    session.handle_line(5, "readyok");
    let _ = (sent(&mut session), events(&mut session));
    // The player took e4 back and played d4.
    session.go(
        100,
        &Chess::default(),
        &moves(&["d4"]),
        SearchLimits::MoveTime(5000),
    );
    assert_eq!(sent(&mut session), ["stop"]);
    session.handle_line(110, "info depth 3 score cp 10 pv e7e5");
    session.handle_line(120, "bestmove e7e5");
    assert!(
        events(&mut session).is_empty(),
        "the stopped search's answer"
    );
    assert_eq!(
        sent(&mut session),
        ["position startpos moves d2d4", "go movetime 5000"]
    );
    session.handle_line(900, "bestmove d7d5");
    assert!(matches!(
        events(&mut session).as_slice(),
        [EngineEvent::BestMove { uci, .. }] if uci == "d7d5"
    ));
}

#[test]
fn a_handshake_that_never_ends_is_reported() {
    let mut session = EngineSession::new(EngineConfig::default(), 0);
    assert_eq!(session.poll_timeout(), Some(10_000));
    session.handle_timeout(10_000);
    assert_eq!(
        events(&mut session),
        [EngineEvent::Unresponsive {
            waiting_for: "uciok",
            after: 10_000
        }]
    );
}

#[test]
fn a_set_up_start_is_given_as_its_fen() {
    let (mut session, _) = ready(EngineConfig::default());
    let start: Chess = shakmaty::fen::Fen::from_ascii(b"4k3/8/8/8/8/8/8/4K2R w K - 0 1")
        .ok()
        .and_then(|fen| fen.into_position(shakmaty::CastlingMode::Standard).ok())
        .unwrap_or_default();
    session.go(0, &start, &[], SearchLimits::Depth(1));
    session.handle_line(5, "readyok");
    let lines = sent(&mut session);
    assert_eq!(
        lines.get(2).map(String::as_str),
        Some("position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1"),
        "{lines:?}"
    );
    // Moves that are no game from the start are not sent.
    session.go(10, &start, &moves(&["e4"]), SearchLimits::Depth(1));
    assert!(matches!(
        events(&mut session).last(),
        Some(EngineEvent::Notice(_))
    ));
}
