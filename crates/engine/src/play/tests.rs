//! A game against an engine, the human's and the engine's moves made by hands on a board that
//! identifies pieces, through the live game and its interpreter.

use shakmaty::{Board, Chess, Color, Square};

use super::*;
use touchmove_boards::live::{LiveEvent, LiveGame};
use touchmove_core::interpreter::Config;
use touchmove_core::sensor::{BoardSnapshot, SensorEvent, SensorKind};

/// A board, its game, and the game against the engine, with the time running on.
struct Table {
    board: Board,
    live: LiveGame,
    play: EngineGame,
    t: Millis,
}

impl Table {
    /// The start position on the board; the engine plays Black.
    fn new() -> Table {
        let mut table = Table {
            board: Board::new(),
            live: LiveGame::new(Chess::default(), Config::default()),
            play: EngineGame::new(Chess::default(), Color::Black),
            t: 0,
        };
        let snapshot = SensorKind::Snapshot(Box::new(BoardSnapshot::identified(&Board::new())));
        table.sense(snapshot);
        table
    }

    fn sense(&mut self, kind: SensorKind) {
        self.live.handle_sensor(&SensorEvent::new(self.t, kind));
        self.pass();
    }

    /// What the live game decided, into the game against the engine.
    fn pass(&mut self) {
        while let Some(event) = self.live.poll_event() {
            match event {
                LiveEvent::Started { .. } => self.play.started(),
                LiveEvent::Decision(decision) => self.play.handle_decision(&decision),
                LiveEvent::Waiting { .. }
                | LiveEvent::SetUp { .. }
                | LiveEvent::PromotionAsked { .. } => {}
            }
        }
    }

    /// A hand moves the piece on `from` to `to` (taking what stands there), then rests.
    fn slide(&mut self, from: Square, to: Square) {
        let piece = self.board.remove_piece_at(from);
        self.t += 1000;
        self.sense(SensorKind::Lift {
            square: from,
            piece,
        });
        if let Some(victim) = self.board.remove_piece_at(to) {
            self.t += 100;
            self.sense(SensorKind::Lift {
                square: to,
                piece: Some(victim),
            });
        }
        if let Some(piece) = piece {
            self.board.set_piece_at(to, piece);
        }
        self.t += 300;
        self.sense(SensorKind::Place { square: to, piece });
        self.t += 1000;
        let now = self.t;
        self.live.handle_timeout(now);
        self.pass();
    }

    /// The engine chose `uci`.
    fn engine(&mut self, uci: &str) {
        let chosen = uci
            .parse::<UciMove>()
            .ok()
            .and_then(|m| m.to_move(self.play.position()).ok());
        let Some(chosen) = chosen else {
            panic!("{uci} is no move of the engine's here");
        };
        self.t += 50;
        self.play.handle_engine_move(self.t, chosen, None);
    }

    /// What came out, in short: `move e4`, `engine e5`, `ask`, ...
    fn said(&mut self) -> Vec<String> {
        std::iter::from_fn(|| self.play.poll_event())
            .map(|event| match event {
                PlayEvent::AskEngine => "ask".to_owned(),
                PlayEvent::CancelEngine => "cancel".to_owned(),
                PlayEvent::Show(Feedback::Show { from, to, text }) => {
                    format!("show {text} {from}{to}")
                }
                PlayEvent::Show(Feedback::Pending { text }) => {
                    format!("show pending {}", text.unwrap_or_default())
                }
                PlayEvent::Show(Feedback::SetPieces { board }) => format!("set {board}"),
                PlayEvent::Show(other) => format!("show {other:?}"),
                PlayEvent::Decision(decision) => match decision.kind {
                    StreamKind::Game(EventKind::Move(played)) => format!("move {}", played.san),
                    StreamKind::Engine(choice) => format!("engine {}", choice.san),
                    StreamKind::Hint(hint) => format!("hint {}", hint.san),
                    StreamKind::Game(EventKind::Takeback { ply }) => format!("takeback {ply}"),
                    StreamKind::Game(EventKind::Pending(pending)) => {
                        format!("pending {}", pending.san.unwrap_or_default())
                    }
                    StreamKind::Execution(Execution {
                        message, squares, ..
                    }) => {
                        let squares: Vec<String> =
                            squares.iter().map(ToString::to_string).collect();
                        format!("execution {message} [{}]", squares.join(" "))
                    }
                    StreamKind::Game(other) => format!("{other:?}"),
                    other => format!("{other:?}"),
                },
            })
            .collect()
    }
}

#[test]
fn the_engine_is_asked_after_the_human_s_move_and_its_move_carried_out() {
    let mut table = Table::new();
    assert!(
        table.said().is_empty(),
        "White is the human's: nothing to ask"
    );
    table.slide(Square::E2, Square::E4);
    assert_eq!(table.said(), ["move e4", "ask"]);
    table.engine("e7e5");
    // The engine's move shown, then the position it leaves (which a robot board sets).
    assert_eq!(
        table.said(),
        [
            "show e5 e7e5",
            "set rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR",
            "engine e5"
        ]
    );
    table.slide(Square::E7, Square::E5);
    assert_eq!(table.said(), ["move e5"]);
    table.slide(Square::G1, Square::F3);
    assert_eq!(table.said(), ["move Nf3", "ask"]);
    assert_eq!(table.play.moves().len(), 3);
}

#[test]
fn the_human_s_move_that_could_still_grow_is_shown_pending_the_engine_s_is_not() {
    let mut table = Table::new();
    table.slide(Square::E2, Square::E4);
    table.engine("e7e5");
    table.slide(Square::E7, Square::E5);
    table.said();
    // The bishop could go on to b5 or a6: shown at once, decided when the window closes.
    table.slide(Square::F1, Square::C4);
    assert_eq!(
        table.said(),
        ["show pending Bc4", "pending Bc4", "move Bc4", "ask"]
    );
    // The engine's queen move carried out waits the same, but its move is shown already.
    table.engine("d8h4");
    table.said();
    table.slide(Square::D8, Square::G5);
    // Said pending, but not shown: the clock shows Qh4, which is shown again once the wrong
    // move stands.
    assert_eq!(
        table.said(),
        [
            "pending Qg5",
            "execution carry out Qh4, not Qg5 [d8 h4]",
            "show Qh4 d8h4",
            "set rnb1kbnr/pppp1ppp/8/4p3/2B1P2q/8/PPPP1PPP/RNBQK1NR"
        ]
    );
}

#[test]
fn after_a_resignation_the_start_position_again_is_a_new_game_the_engine_asked_again() {
    let mut table = Table::new();
    table.slide(Square::E2, Square::E4);
    table.engine("e7e5");
    table.slide(Square::E7, Square::E5);
    let _ = table.said();
    // White resigns; the pieces are set up again.
    table.t += 1000;
    let t = table.t;
    table.live.resign(t, Color::White);
    table.pass();
    let said = table.said();
    assert_eq!(said.len(), 2, "{said:?}");
    // The engine's search, if any, no longer applies; the game is over.
    assert_eq!(said[0], "cancel");
    assert!(
        said[1].contains("0-1") && said[1].contains("resignation"),
        "{said:?}"
    );
    table.board = Board::new();
    table.t += 1000;
    table.sense(SensorKind::Snapshot(Box::new(BoardSnapshot::identified(
        &Board::new(),
    ))));
    assert_eq!(table.said(), ["Game { number: 2 }"]);
    assert!(table.play.moves().is_empty());
    // The new game goes as the first did.
    table.slide(Square::D2, Square::D4);
    assert_eq!(table.said(), ["move d4", "ask"]);
}

#[test]
fn another_move_than_the_engine_s_is_reported_and_waited_for() {
    let mut table = Table::new();
    table.slide(Square::E2, Square::E4);
    table.engine("e7e5");
    let _ = table.said();
    // The hands play d5 instead.
    table.slide(Square::D7, Square::D5);
    assert_eq!(
        table.said(),
        [
            "execution carry out e5, not d5 [e7 e5]",
            "show e5 e7e5",
            "set rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR"
        ]
    );
    assert_eq!(table.play.moves().len(), 1, "d5 does not stand");
    // Put back, then the engine's move.
    table.slide(Square::D5, Square::D7);
    assert_eq!(table.said(), Vec::<String>::new());
    table.slide(Square::E7, Square::E5);
    assert_eq!(table.said(), ["move e5"]);
    assert_eq!(table.play.moves().len(), 2);
}

#[test]
fn a_move_made_for_the_engine_before_it_chose_waits_for_its_choice() {
    let mut table = Table::new();
    table.slide(Square::E2, Square::E4);
    let _ = table.said();
    // The hands were quicker than the engine: c5 is not taken until the engine chooses it.
    table.slide(Square::C7, Square::C5);
    assert_eq!(
        table.said(),
        ["execution wait for the engine's move: c5 is not taken []"]
    );
    table.engine("c7c5");
    assert_eq!(
        table.said(),
        [
            "show c5 c7c5",
            "set rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR",
            "engine c5",
            "move c5"
        ]
    );
}

#[test]
fn the_human_taking_back_their_move_takes_back_the_engine_s_reply() {
    let mut table = Table::new();
    table.slide(Square::E2, Square::E4);
    table.engine("e7e5");
    table.slide(Square::E7, Square::E5);
    let _ = table.said();
    // Both pawns back: the start position again.
    table.slide(Square::E5, Square::E7);
    table.slide(Square::E4, Square::E2);
    let said = table.said();
    assert_eq!(
        said,
        ["takeback 2", "cancel", "ask", "takeback 1", "cancel"],
        "{said:?}"
    );
    assert!(table.play.moves().is_empty());
}

#[test]
fn without_its_engine_the_game_goes_on_between_two_players() {
    let mut table = Table::new();
    table.slide(Square::E2, Square::E4);
    let _ = table.said();
    // The hands move for Black; the engine then gives up: the move stands.
    table.slide(Square::E7, Square::E5);
    let _ = table.said();
    table.play.engine_gone(table.t);
    assert_eq!(table.said(), ["move e5"]);
    table.slide(Square::G1, Square::F3);
    assert_eq!(table.said(), ["move Nf3"], "the engine is not asked");
    table.slide(Square::B8, Square::C6);
    assert_eq!(table.said(), ["move Nc6"]);
}

#[test]
fn the_engine_s_move_carries_its_score() {
    let mut table = Table::new();
    table.slide(Square::E2, Square::E4);
    let _ = table.said();
    let e5 = "e7e5"
        .parse::<UciMove>()
        .ok()
        .and_then(|m| m.to_move(table.play.position()).ok());
    let Some(e5) = e5 else {
        panic!("e5 is legal here");
    };
    table
        .play
        .handle_engine_move(5000, e5, Some(crate::Score::Centipawns(-31)));
    let announced = std::iter::from_fn(|| table.play.poll_event()).find_map(|event| match event {
        PlayEvent::Decision(StreamEvent {
            kind: StreamKind::Engine(choice),
            ..
        }) => Some((choice.score_cp, choice.mate)),
        _ => None,
    });
    assert_eq!(announced, Some((Some(-31), None)));
}

mod replayed {
    use super::*;
    use touchmove_core::replay::Replay;
    use touchmove_core::sensor_log::read_log;

    /// The events a log replays to, through the game against its engine.
    fn replay(text: &str) -> Vec<StreamEvent> {
        let log = read_log(text).expect("a valid log");
        let mut replay = EngineReplay::new(Replay::new(Config::default()));
        let mut events = Vec::new();
        for record in log.records() {
            replay.record(record, &mut |event| events.push(event));
        }
        replay.finish(&mut |event| events.push(event));
        events
    }

    #[test]
    fn a_log_with_its_host_notes_replays_to_the_engine_game() {
        // 1. e4, the engine's e5 at 1000 ms, then d5 made for it instead, then taken back and
        // e5 made.
        let events = replay(
            "touchmove-log 1\n@engine black\n\
             100 lift e2 P\n400 place e4 P\n\
             #engine-move 1000 e7e5 cp 20\n\
             2000 lift d7 p\n2300 place d5 p\n\
             4000 lift d5 p\n4300 place d7 p\n\
             6000 lift e7 p\n6300 place e5 p\n",
        );
        let said: Vec<(Millis, String)> = events
            .iter()
            .map(|event| {
                let text = match &event.kind {
                    StreamKind::Game(EventKind::Move(played)) => format!("move {}", played.san),
                    StreamKind::Engine(choice) => {
                        format!("engine {} {:?}", choice.san, choice.score_cp)
                    }
                    StreamKind::Execution(execution) => {
                        format!("execution {}", execution.message)
                    }
                    other => format!("{other:?}"),
                };
                (event.t, text)
            })
            .collect();
        assert_eq!(
            said,
            [
                (400, "move e4".to_owned()),
                (1000, "engine e5 Some(20)".to_owned()),
                (2300, "execution carry out e5, not d5".to_owned()),
                (6300, "move e5".to_owned()),
            ]
        );
    }

    #[test]
    fn a_resignation_in_the_log_ends_the_game_once_what_was_pending_is_decided() {
        // e4 is still in its slide window (400 + 250 ms) when White resigns at 500 ms: it is
        // decided first. A second resignation, the game over, says nothing.
        let events = replay(
            "touchmove-log 1\n100 lift e2 P\n400 place e4 P\n\
             #resign 500 white\n#resign 600 black\n",
        );
        assert_eq!(events.len(), 2, "{events:?}");
        assert!(
            matches!(events[0].game(), Some(EventKind::Move(played)) if played.san.to_string() == "e4")
        );
        let Some(EventKind::Result(result)) = events[1].game() else {
            panic!("{events:?}");
        };
        assert_eq!(events[1].t, 500);
        assert_eq!(
            (result.result.as_str(), result.reason.as_str(), result.rule),
            (
                "0-1",
                "resignation",
                Some(touchmove_core::event::Rule::Resignation)
            )
        );
        assert_eq!(touchmove_core::event::Rule::Resignation.article(), "5.1.2");
    }

    /// The Article 4 rulings (article, side, square) a log replays to.
    fn rulings(text: &str) -> Vec<(String, Color, Square)> {
        replay(text)
            .iter()
            .filter_map(|event| match event.game() {
                Some(EventKind::Violation(violation)) => Some((
                    violation.rule.article().to_owned(),
                    violation.color,
                    violation.square,
                )),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn once_the_engine_is_gone_its_side_earns_rulings_again() {
        // Black touches d7 (lifted and put back), then plays e5: a 4.3.1 breach.
        let body = "100 lift e2 P\n400 place e4 P\n\
                    3000 lift d7 p\n3500 place d7 p\n5000 lift e7 p\n5300 place e5 p\n";
        let engine_side = format!("touchmove-log 1\n@engine black\n{body}");
        assert_eq!(rulings(&engine_side), [], "the engine's side earns none");
        let (before, after) = body.split_at(body.find("3000").unwrap_or(0));
        let gone = format!("touchmove-log 1\n@engine black\n{before}#engine-gone 2000\n{after}");
        assert_eq!(
            rulings(&gone),
            [("4.3.1".to_owned(), Color::Black, Square::D7)]
        );
    }

    #[test]
    fn without_an_engine_the_log_replays_as_any_other() {
        let text = "touchmove-log 1\n100 lift e2 P\n400 place e4 P\n\
                    #engine-move 1000 e7e5\n2000 lift d7 p\n2300 place d5 p\n";
        let events = replay(text);
        let moves: Vec<String> = events
            .iter()
            .filter_map(|event| match event.game() {
                Some(EventKind::Move(played)) => Some(played.san.to_string()),
                _ => None,
            })
            .collect();
        assert_eq!(moves, ["e4", "d5"]);
    }
}

#[test]
fn a_hint_is_given_on_the_player_s_move_only_and_changes_nothing() {
    let mut table = Table::new();
    let _ = table.said();
    let move_of = |table: &Table, uci: &str| {
        uci.parse::<UciMove>()
            .ok()
            .and_then(|m| m.to_move(table.play.position()).ok())
            .unwrap_or_else(|| panic!("{uci}"))
    };
    // White (the player) to move: the hint is said and shown, marked.
    assert!(table.play.hint_wanted());
    let nf3 = move_of(&table, "g1f3");
    table
        .play
        .handle_hint(10, nf3, Some(Score::Centipawns(25)), None);
    assert_eq!(table.said(), ["show H Nf3 g1f3", "hint Nf3"]);
    assert!(table.play.moves().is_empty());
    // The player plays e4: the engine's move is awaited; a hint now (a late answer) is not
    // given, nor on the engine's move.
    table.slide(Square::E2, Square::E4);
    let said = table.said();
    assert!(said.contains(&"ask".to_owned()), "{said:?}");
    assert!(!table.play.hint_wanted());
    let e5 = move_of(&table, "e7e5");
    table.play.handle_hint(20_000, e5, None, None);
    assert!(table.said().is_empty());
    assert_eq!(table.play.moves().len(), 1);
}
