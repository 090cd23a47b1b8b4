use super::*;
use shakmaty::Square;
use touchmove_core::event::MoveEvent;
use touchmove_core::rules::Game;

/// The interpreter's side of the tests: a game on the board, its move events as the
/// interpreter makes them.
struct Board {
    game: Game,
}

impl Board {
    fn new() -> Board {
        Board {
            game: Game::new(Chess::default()),
        }
    }

    fn play(&mut self, t: Millis, uci: &str) -> GameEvent {
        let m = UciMove::from_ascii(uci.as_bytes())
            .expect("uci")
            .to_move(self.game.position())
            .expect("legal");
        let played: MoveEvent = self.game.play(m).into_event(false, None);
        GameEvent {
            t,
            kind: EventKind::Move(played),
        }
    }

    fn take_back(&mut self, t: Millis) -> GameEvent {
        let ply = self.game.take_back().expect("a move to take back");
        GameEvent {
            t,
            kind: EventKind::Takeback { ply },
        }
    }
}

fn state(moves: &str, status: &str) -> GameState {
    serde_json::from_value(serde_json::json!({
        "type": "gameState", "moves": moves, "wtime": 300_000, "btime": 290_000,
        "winc": 0, "binc": 0, "status": status,
    }))
    .expect("a state")
}

fn drain(game: &mut OnlineGame) -> Vec<OnlineEvent> {
    std::iter::from_fn(|| game.poll_event()).collect()
}

fn sent(events: &[OnlineEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            OnlineEvent::Send(request) => Some(request.name()),
            _ => None,
        })
        .collect()
}

/// The game of the player of White after 1. e4 e5, both stated by the server and carried out on
/// the board, its output taken.
fn after_e4_e5() -> (OnlineGame, Board) {
    let mut game = OnlineGame::new(Chess::default(), Color::White);
    let mut board = Board::new();
    game.handle_decision(&board.play(1000, "e2e4"));
    game.handle_state(1100, &state("e2e4 e7e5", "started"));
    game.handle_decision(&board.play(2000, "e7e5"));
    drain(&mut game);
    (game, board)
}

/// The record's lines: moves by SAN, takebacks, notices and executions by their `what`.
fn said(events: &[OnlineEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            OnlineEvent::Decision(d) => Some(match &d.kind {
                StreamKind::Game(EventKind::Move(m)) => format!("move {}", m.san),
                StreamKind::Game(EventKind::Takeback { ply }) => format!("takeback {ply}"),
                StreamKind::Game(EventKind::Result(r)) => {
                    format!("result {} {}", r.result, r.reason)
                }
                StreamKind::Execution(x) => format!("execution: {}", x.message),
                StreamKind::Online(OnlineNotice::Move { san, .. }) => format!("server {san}"),
                StreamKind::Online(notice) => format!("notice {notice:?}"),
                other => format!("{other:?}"),
            }),
            _ => None,
        })
        .collect()
}

#[test]
fn the_player_s_move_is_sent_once_and_the_opponent_s_shown_then_carried_out() {
    let mut game = OnlineGame::new(Chess::default(), Color::White);
    let mut board = Board::new();
    game.handle_state(0, &state("", "started"));
    let start = drain(&mut game);
    assert!(
        matches!(start.first(), Some(OnlineEvent::Clock(0, reading)) if reading.running == Some(Color::White))
    );
    game.handle_decision(&board.play(1000, "e2e4"));
    let out = drain(&mut game);
    assert_eq!(said(&out), ["move e4"]);
    assert_eq!(sent(&out), ["move e2e4"]);
    // The server states the move, then the reply: the reply is shown.
    game.handle_state(1100, &state("e2e4", "started"));
    assert!(said(&drain(&mut game)).is_empty());
    game.handle_state(3000, &state("e2e4 e7e5", "started"));
    let out = drain(&mut game);
    assert_eq!(said(&out), ["server e5"]);
    assert!(out.contains(&OnlineEvent::Show(Feedback::Show {
        from: Square::E7,
        to: Square::E5,
        text: "e5".to_owned(),
    })));
    assert!(sent(&out).is_empty());
    // Carried out on the board: it stands, and nothing is sent for it.
    game.handle_decision(&board.play(4000, "e7e5"));
    let out = drain(&mut game);
    assert_eq!(said(&out), ["move e5"]);
    assert!(sent(&out).is_empty());
    assert_eq!(game.moves().len(), 2);
}

#[test]
fn a_wrong_execution_is_reported_and_the_right_one_taken() {
    let mut game = OnlineGame::new(Chess::default(), Color::White);
    let mut board = Board::new();
    game.handle_decision(&board.play(1000, "e2e4"));
    game.handle_state(1100, &state("e2e4 e7e5", "started"));
    drain(&mut game);
    game.handle_decision(&board.play(2000, "e7e6"));
    let out = drain(&mut game);
    assert_eq!(said(&out), ["execution: carry out e5, not e6"]);
    game.handle_decision(&board.take_back(2500));
    game.handle_decision(&board.play(3000, "e7e5"));
    assert_eq!(said(&drain(&mut game)), ["move e5"]);
}

#[test]
fn a_refused_move_is_taken_back_and_not_sent_again_until_the_board_is_put_back() {
    let mut game = OnlineGame::new(Chess::default(), Color::White);
    let mut board = Board::new();
    game.handle_state(0, &state("", "started"));
    drain(&mut game);
    game.handle_decision(&board.play(1000, "e2e4"));
    let out = drain(&mut game);
    let Some(OnlineEvent::Send(request)) = out.iter().find(|e| matches!(e, OnlineEvent::Send(_)))
    else {
        panic!("sent")
    };
    let request = request.clone();
    game.handle_answer(1200, &request, Answer::Refused("Not your turn".to_owned()));
    let out = drain(&mut game);
    assert_eq!(
        said(&out),
        [
            "notice Refused { uci: \"e2e4\", message: \"Not your turn\" }",
            "takeback 1",
            "execution: take e4 back: the server refused it",
        ]
    );
    assert!(sent(&out).is_empty());
    // Another report of the same board says nothing more; the board put back clears it.
    game.handle_state(1300, &state("", "started"));
    assert!(said(&drain(&mut game)).is_empty());
    game.handle_decision(&board.take_back(2000));
    assert!(said(&drain(&mut game)).is_empty());
    game.handle_decision(&board.play(3000, "d2d4"));
    let out = drain(&mut game);
    assert_eq!(said(&out), ["move d4"]);
    assert_eq!(sent(&out), ["move d2d4"]);
}

#[test]
fn a_move_whose_answer_was_lost_is_sent_again_only_if_the_server_lacks_it() {
    let e4 = Request::Move(UciMove::from_ascii(b"e2e4").expect("uci"));
    // The server has it: nothing is sent again.
    let mut game = OnlineGame::new(Chess::default(), Color::White);
    let mut board = Board::new();
    game.handle_decision(&board.play(1000, "e2e4"));
    drain(&mut game);
    game.handle_answer(1100, &e4, Answer::Unknown);
    game.handle_state(5000, &state("e2e4", "started"));
    assert!(sent(&drain(&mut game)).is_empty());
    // The server lacks it: sent again, once.
    let mut game = OnlineGame::new(Chess::default(), Color::White);
    let mut board = Board::new();
    game.handle_decision(&board.play(1000, "e2e4"));
    drain(&mut game);
    game.handle_answer(1100, &e4, Answer::Unknown);
    game.handle_state(5000, &state("", "started"));
    assert_eq!(sent(&drain(&mut game)), ["move e2e4"]);
    game.handle_state(5100, &state("", "started"));
    assert!(sent(&drain(&mut game)).is_empty());
}

#[test]
fn the_server_s_takeback_takes_the_record_back_and_the_board_must_follow() {
    let (mut game, mut board) = after_e4_e5();
    game.handle_state(3000, &state("e2e4", "started"));
    let out = drain(&mut game);
    assert_eq!(
        said(&out),
        [
            "notice TakenBack { plies: 1 }",
            "takeback 2",
            "execution: take e5 back: the server took it back",
        ]
    );
    game.handle_decision(&board.take_back(4000));
    assert!(said(&drain(&mut game)).is_empty());
}

#[test]
fn the_player_s_move_waits_for_the_opponent_s_and_rulings_pass() {
    let mut game = OnlineGame::new(Chess::default(), Color::Black);
    let mut board = Board::new();
    game.handle_state(0, &state("", "started"));
    drain(&mut game);
    // White's move made on the board before the server has it: not taken.
    game.handle_decision(&board.play(1000, "e2e4"));
    let out = drain(&mut game);
    assert_eq!(
        said(&out),
        ["execution: wait for the opponent's move: e4 is not taken"]
    );
    assert!(sent(&out).is_empty());
    // The server's move is that one: it stands.
    game.handle_state(2000, &state("e2e4", "started"));
    assert_eq!(said(&drain(&mut game)), ["move e4"]);
}

#[test]
fn the_server_s_result_ends_the_game_and_the_board_s_own_does_not() {
    let mut game = OnlineGame::new(Chess::default(), Color::White);
    let checkmate = GameEvent {
        t: 10,
        kind: EventKind::Result(GameResult {
            result: "1-0".to_owned(),
            reason: "checkmate".to_owned(),
            rule: None,
            termination: None,
            outcome: KnownOutcome::Decisive {
                winner: Color::White,
            },
        }),
    };
    game.handle_decision(&checkmate);
    assert!(drain(&mut game).is_empty());
    let mut resigned = state("", "resign");
    resigned.winner = Some("black".to_owned());
    game.handle_state(20, &resigned);
    let out = drain(&mut game);
    assert_eq!(said(&out), ["result 0-1 resignation"]);
    assert!(
        matches!(out.first(), Some(OnlineEvent::Clock(20, reading)) if reading.running.is_none())
    );
    assert!(game.is_over());
    game.handle_state(30, &resigned);
    assert!(said(&drain(&mut game)).is_empty());
}

#[test]
fn the_result_gesture_asks_the_server() {
    for (winner, expected) in [
        (Some(Color::White), "claim-victory"),
        (Some(Color::Black), "resign"),
        (None, "draw"),
    ] {
        let mut game = OnlineGame::new(Chess::default(), Color::White);
        let outcome = winner.map_or(KnownOutcome::Draw, |winner| KnownOutcome::Decisive {
            winner,
        });
        game.handle_decision(&GameEvent {
            t: 5,
            kind: EventKind::Result(GameResult {
                result: outcome.as_str().to_owned(),
                reason: "gesture".to_owned(),
                rule: None,
                termination: None,
                outcome,
            }),
        });
        assert_eq!(sent(&drain(&mut game)), [expected]);
    }
}

#[test]
fn a_resumed_game_sends_its_last_move_again_only_if_the_server_lacks_it_and_shows_the_reply_again()
{
    let mut game = OnlineGame::new(Chess::default(), Color::White);
    let mut board = Board::new();
    game.handle_decision(&board.play(1000, "e2e4"));
    game.handle_state(1100, &state("e2e4 e7e5", "started"));
    drain(&mut game);
    game.handle_decision(&board.play(2000, "e7e5"));
    game.handle_decision(&board.play(3000, "g1f3"));
    game.handle_state(3100, &state("e2e4 e7e5 g1f3 b8c6", "started"));
    drain(&mut game);
    // The session stops before the board carried Nc6 out; resumed, the server's game is as it
    // was: Nc6 is shown again, nothing is sent.
    let mut again = game.clone();
    again.resumed();
    again.handle_state(9000, &state("e2e4 e7e5 g1f3 b8c6", "started"));
    let out = drain(&mut again);
    assert_eq!(said(&out), ["server Nc6"]);
    assert!(sent(&out).is_empty());
    // Stopped right after deciding Bc4 (sent or not, nobody knows): sent again only if the
    // server lacks it.
    game.handle_decision(&board.play(4000, "b8c6"));
    game.handle_decision(&board.play(5000, "f1c4"));
    drain(&mut game);
    let mut lacking = game.clone();
    lacking.resumed();
    lacking.handle_state(9000, &state("e2e4 e7e5 g1f3 b8c6", "started"));
    assert_eq!(sent(&drain(&mut lacking)), ["move f1c4"]);
    let mut taken = game.clone();
    taken.resumed();
    taken.handle_state(9000, &state("e2e4 e7e5 g1f3 b8c6 f1c4", "started"));
    assert!(sent(&drain(&mut taken)).is_empty());
}

#[test]
fn a_move_made_after_a_resume_waits_for_the_server_s_state_before_it_is_sent() {
    let (mut game, mut board) = after_e4_e5();
    // Killed as Nf3 was decided (and maybe sent); resumed, the board decides it again before
    // the new stream's first line.
    game.resumed();
    let nf3 = board.play(3000, "g1f3");
    let mut taken = game.clone();
    taken.handle_decision(&nf3);
    assert!(
        sent(&drain(&mut taken)).is_empty(),
        "nothing before the state"
    );
    taken.handle_state(3100, &state("e2e4 e7e5 g1f3", "started"));
    assert!(sent(&drain(&mut taken)).is_empty(), "the server has it");
    let mut lacking = game.clone();
    lacking.handle_decision(&nf3);
    assert!(sent(&drain(&mut lacking)).is_empty());
    lacking.handle_state(3100, &state("e2e4 e7e5", "started"));
    assert_eq!(sent(&drain(&mut lacking)), ["move g1f3"]);
}

#[test]
fn the_player_s_own_move_the_server_has_is_not_shown_to_carry_out_while_the_board_decides_it() {
    let (mut game, mut board) = after_e4_e5();
    // Killed once Nf3 was decided and sent; resumed, the recording leaves Nf3 pending (its
    // decision was the window's end, after the last report), and the server has it.
    game.resumed();
    let pending = |san: Option<&str>, uci: Option<&str>| GameEvent {
        t: 3000,
        kind: EventKind::Pending(touchmove_core::event::PendingMove {
            ply: 3,
            color: Color::White,
            san: san.map(str::to_owned),
            uci: uci.map(str::to_owned),
        }),
    };
    let mut deciding = game.clone();
    deciding.handle_decision(&pending(Some("Nf3"), Some("g1f3")));
    deciding.handle_state(3100, &state("e2e4 e7e5 g1f3", "started"));
    let out = drain(&mut deciding);
    assert!(
        !said(&out).iter().any(|line| line.starts_with("server")),
        "{out:?}"
    );
    assert!(
        !out.iter()
            .any(|e| matches!(e, OnlineEvent::Show(Feedback::Show { .. }))),
        "{out:?}"
    );
    // Decided: it stands, nothing sent; the reply is shown once the server has it.
    deciding.handle_decision(&board.play(3300, "g1f3"));
    let out = drain(&mut deciding);
    assert_eq!(said(&out), ["move Nf3"]);
    assert!(sent(&out).is_empty());
    deciding.handle_state(4000, &state("e2e4 e7e5 g1f3 b8c6", "started"));
    assert_eq!(said(&drain(&mut deciding)), ["server Nc6"]);
    // Nothing pending on the board (withdrawn), a move of the player's the server has (made
    // elsewhere) is shown to carry out, as before.
    let mut elsewhere = game.clone();
    elsewhere.handle_decision(&pending(Some("Nf3"), Some("g1f3")));
    elsewhere.handle_decision(&pending(None, None));
    drain(&mut elsewhere);
    elsewhere.handle_state(3100, &state("e2e4 e7e5 g1f3", "started"));
    assert_eq!(said(&drain(&mut elsewhere)), ["server Nf3"]);
}

#[test]
fn offers_are_said_once() {
    let mut game = OnlineGame::new(Chess::default(), Color::White);
    let mut offer = state("", "started");
    offer.bdraw = true;
    game.handle_state(1, &offer);
    game.handle_state(2, &offer);
    let out = drain(&mut game);
    assert_eq!(said(&out), ["notice DrawOffer { color: Black }"]);
}

#[test]
fn the_standing_offers_and_the_opponent_s_absence_are_known_until_they_end() {
    let mut game = OnlineGame::new(Chess::default(), Color::White);
    let mut offer = state("e2e4", "started");
    offer.bdraw = true;
    offer.wtakeback = true;
    game.handle_state(1, &offer);
    assert_eq!(game.draw_offered_by(), Some(Color::Black));
    assert_eq!(game.takeback_proposed_by(), Some(Color::White));
    game.handle_state(2, &state("e2e4 e7e5", "started"));
    assert_eq!(game.draw_offered_by(), None);
    assert_eq!(game.takeback_proposed_by(), None);
    let gone = |gone: bool| {
        serde_json::from_value::<GameMessage>(serde_json::json!({
            "type": "opponentGone", "gone": gone, "claimWinInSeconds": 10,
        }))
        .expect("a message")
    };
    assert!(!game.opponent_gone());
    game.handle_message(3, &gone(true));
    assert!(game.opponent_gone());
    game.handle_message(4, &gone(false));
    assert!(!game.opponent_gone());
    game.handle_message(5, &gone(true));
    game.handle_state(6, &state("e2e4 e7e5", "timeout"));
    assert!(!game.opponent_gone(), "the game is over: nothing to claim");
}

#[test]
fn the_opponent_s_mating_move_is_announced_and_shown_like_any_other() {
    // Fool's mate, the player White: 1. f3 e5 2. g4 Qh4#.
    let mut board = Board::new();
    let mut game = OnlineGame::new(Chess::default(), Color::White);
    for (t, mine, theirs, moves) in [(100, "f2f3", "e7e5", "f2f3 e7e5"), (300, "g2g4", "", "")] {
        game.handle_decision(&board.play(t, mine));
        if !theirs.is_empty() {
            game.handle_state(t + 50, &state(moves, "started"));
            game.handle_decision(&board.play(t + 100, theirs));
        }
    }
    drain(&mut game);
    let mut mated = state("f2f3 e7e5 g2g4 d8h4", "mate");
    mated.winner = Some("black".to_owned());
    game.handle_state(400, &mated);
    let out = drain(&mut game);
    assert_eq!(said(&out), ["server Qh4#", "result 0-1 checkmate"]);
    let shown = out.iter().any(|e| {
        matches!(e, OnlineEvent::Show(Feedback::Show { from, to, text })
            if (*from, *to, text.as_str()) == (Square::D8, Square::H4, "Qh4#"))
    });
    assert!(shown, "{out:?}");
}

#[test]
fn the_server_s_status_says_how_the_game_ended() {
    for (status, winner, termination) in [
        ("resign", Some("black"), Some(Termination::Normal)),
        ("outoftime", Some("white"), Some(Termination::TimeForfeit)),
        ("timeout", Some("white"), Some(Termination::Abandoned)),
        ("cheat", Some("black"), Some(Termination::RulesInfraction)),
        ("variantEnd", Some("white"), None),
    ] {
        let mut game = OnlineGame::new(Chess::default(), Color::White);
        let mut ended = state("", status);
        ended.winner = Some(winner.unwrap_or_default().to_owned());
        game.handle_state(20, &ended);
        let results: Vec<Option<Termination>> = drain(&mut game)
            .iter()
            .filter_map(|e| match e {
                OnlineEvent::Decision(d) => match &d.kind {
                    StreamKind::Game(EventKind::Result(r)) => Some(r.termination),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        assert_eq!(results, [termination], "{status}");
    }
}

/// The whole game as the server first states it: of `variant`, from the standard start, no
/// move yet.
fn game_full(variant: &str) -> GameMessage {
    serde_json::from_value(serde_json::json!({
        "type": "gameFull", "id": "tmGame01", "variant": {"key": variant, "name": variant},
        "clock": {"initial": 300_000, "increment": 0}, "rated": false,
        "white": {"id": "player", "name": "Player"}, "black": {"id": "mary", "name": "Mary"},
        "initialFen": "startpos",
        "state": {"type": "gameState", "moves": "", "wtime": 300_000, "btime": 300_000,
                  "winc": 0, "binc": 0, "status": "started"},
    }))
    .expect("a gameFull")
}

#[test]
fn castling_is_sent_as_the_server_writes_it_in_chess960_even_from_the_standard_start() {
    let opening = ["e2e4", "e7e5", "g1f3", "g8f6", "f1c4", "f8c5"];
    for (variant, white_castles, black_castles) in
        [("standard", "e1g1", "e8g8"), ("chess960", "e1h1", "e8h8")]
    {
        let mut game = OnlineGame::new(Chess::default(), Color::White);
        let mut board = Board::new();
        game.handle_message(0, &game_full(variant));
        let mut moves: Vec<&str> = Vec::new();
        for (ply, uci) in opening.iter().enumerate() {
            let t = 1000 * (ply as Millis + 1);
            game.handle_decision(&board.play(t, uci));
            moves.push(uci);
            game.handle_state(t + 100, &state(&moves.join(" "), "started"));
        }
        drain(&mut game);
        // White castles on the board (the board's record: standard chess, e1g1).
        game.handle_decision(&board.play(10_000, "e1g1"));
        let out = drain(&mut game);
        assert_eq!(said(&out), ["move O-O"], "{variant}");
        assert_eq!(sent(&out), [format!("move {white_castles}")], "{variant}");
        // The server's castling reply, in its writing, is shown and carried out as O-O.
        moves.extend([white_castles, black_castles]);
        game.handle_state(10_100, &state(&moves.join(" "), "started"));
        let out = drain(&mut game);
        assert_eq!(said(&out), ["server O-O"], "{variant}");
        game.handle_decision(&board.play(11_000, "e8g8"));
        assert_eq!(said(&drain(&mut game)), ["move O-O"], "{variant}");
        assert_eq!(game.moves().len(), 8, "{variant}");
    }
}
