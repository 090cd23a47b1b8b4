//! Tests of the recorder: exact PGN for hand-made games, and the PGN re-read with `pgn_reader`
//! and replayed with shakmaty.

use std::ops::ControlFlow;

use pgn_reader::{Outcome, RawComment, RawTag, Reader, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Position, Square};

use super::*;
use crate::event::{ClaimReason, ClockTimes, GameResult, IllegalMove, MoveEvent, Rule, Violation};

// ----- building events -----

fn event(kind: EventKind) -> GameEvent {
    GameEvent { t: 0, kind }
}

/// A move event; the recorder only reads `ply`, `color` and `san`.
fn mv(ply: u32, color: Color, san: &str) -> GameEvent {
    event(EventKind::Move(MoveEvent {
        ply,
        color,
        san: SanPlus::from_ascii(san.as_bytes()).expect("a SAN"),
        uci: UciMove::Null,
        fen: Fen::default(),
        promotion_default: false,
        reconstructed: false,
        clock: None,
        // Not read by what is tested here.
        chess_move: shakmaty::Move::Put {
            role: shakmaty::Role::Pawn,
            to: shakmaty::Square::A1,
        },
    }))
}

fn violation(rule: Rule, color: Color, square: Square, message: &str) -> GameEvent {
    event(EventKind::Violation(Violation {
        rule,
        color,
        square,
        message: message.to_owned(),
        evidence: Vec::new(),
    }))
}

/// A result event; the recorder reads the `result` text (the outcome is what it says, a draw
/// for a text that is none).
fn result(result: &str, reason: &str, rule: Option<Rule>) -> GameEvent {
    let outcome = shakmaty::KnownOutcome::from_ascii(result.as_bytes())
        .unwrap_or(shakmaty::KnownOutcome::Draw);
    event(EventKind::Result(GameResult {
        result: result.to_owned(),
        reason: reason.to_owned(),
        rule,
        termination: rule.map(Rule::termination),
        outcome,
    }))
}

fn record_all(recorder: &mut PgnRecorder, events: &[GameEvent]) {
    for event in events {
        recorder.record(event).expect("event fits the game");
    }
}

fn standard() -> PgnRecorder {
    PgnRecorder::new(Chess::default(), false, PgnTags::default())
}

const DEFAULT_ROSTER_UNFINISHED: &str = "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n\
[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n";

// ----- reading back with pgn_reader -----

/// A game as `pgn_reader` sees it.
#[derive(Debug, Default)]
struct ReadGame {
    tags: Vec<(String, String)>,
    sans: Vec<String>,
    comments: Vec<String>,
    outcome: Option<String>,
}

impl ReadGame {
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

struct Collector;

impl Visitor for Collector {
    type Tags = Vec<(String, String)>;
    type Movetext = ReadGame;
    type Output = ReadGame;

    fn begin_tags(&mut self) -> ControlFlow<ReadGame, Self::Tags> {
        ControlFlow::Continue(Vec::new())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<ReadGame> {
        tags.push((
            String::from_utf8_lossy(name).into_owned(),
            value.decode_utf8_lossy().into_owned(),
        ));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<ReadGame, ReadGame> {
        ControlFlow::Continue(ReadGame {
            tags,
            ..ReadGame::default()
        })
    }

    fn san(&mut self, game: &mut ReadGame, san_plus: SanPlus) -> ControlFlow<ReadGame> {
        game.sans.push(san_plus.to_string());
        ControlFlow::Continue(())
    }

    fn comment(&mut self, game: &mut ReadGame, comment: RawComment<'_>) -> ControlFlow<ReadGame> {
        let text = String::from_utf8_lossy(comment.as_bytes());
        game.comments
            .push(text.split_whitespace().collect::<Vec<_>>().join(" "));
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, game: &mut ReadGame, outcome: Outcome) -> ControlFlow<ReadGame> {
        game.outcome = Some(outcome.as_str().to_owned());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: ReadGame) -> ReadGame {
        game
    }
}

fn reread(pgn: &str) -> Vec<ReadGame> {
    let mut reader = Reader::new(pgn.as_bytes());
    let mut games = Vec::new();
    while let Some(game) = reader
        .read_game(&mut Collector)
        .expect("reading from memory")
    {
        games.push(game);
    }
    games
}

/// Replays the SAN moves of `game` from its FEN tag (or the standard start), checking each is
/// legal and written exactly as shakmaty writes it; returns the final position.
fn replay(game: &ReadGame) -> Chess {
    let mut position: Chess = match game.tag("FEN") {
        Some(fen) => fen
            .parse::<Fen>()
            .expect("FEN tag parses")
            .into_position(CastlingMode::Standard)
            .expect("FEN tag is legal"),
        None => Chess::default(),
    };
    for san in &game.sans {
        let m = SanPlus::from_ascii(san.as_bytes())
            .expect("SAN parses")
            .san
            .to_move(&position)
            .expect("SAN is legal");
        assert_eq!(&SanPlus::from_move(position.clone(), m).to_string(), san);
        position.play_unchecked(m);
    }
    position
}

fn assert_lines_fit(pgn: &str) {
    for line in pgn.lines() {
        assert!(line.len() <= 80, "{line:?} is {} bytes", line.len());
    }
}

// ----- the tests -----

#[test]
fn a_game_id_and_a_site_are_written_and_a_game_s_tags_change_before_it_closes() {
    let tags = PgnTags {
        site: Some("Oslo".to_owned()),
        board: Some("3".to_owned()),
        ..PgnTags::default()
    };
    let mut recorder = PgnRecorder::new(Chess::default(), false, tags.clone());
    recorder.set_tags(PgnTags {
        date: Some("2026.12.07".to_owned()),
        game_id: Some("hall-a/3/1/2026-12-07T06:26:58Z".to_owned()),
        ..tags
    });
    record_all(&mut recorder, &[mv(1, Color::White, "e4")]);
    assert_eq!(
        recorder.to_pgn_string(),
        "[Event \"?\"]\n[Site \"Oslo\"]\n[Date \"2026.12.07\"]\n[Round \"?\"]\n\
         [White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n[Board \"3\"]\n\
         [GameId \"hall-a/3/1/2026-12-07T06:26:58Z\"]\n\
         [ECO \"B00\"]\n[Opening \"King's Pawn Game\"]\n\n1. e4 *\n"
    );
}

#[test]
fn moves_and_rulings_are_written_where_they_were_decided() {
    let tags = PgnTags {
        event: Some("Club night".to_owned()),
        date: Some("2025.01.31".to_owned()),
        round: Some("3".to_owned()),
        white: Some("Alice".to_owned()),
        black: Some("Bob".to_owned()),
        site: None,
        time_control: None,
        board: None,
        game_id: None,
    };
    let mut recorder = PgnRecorder::new(Chess::default(), false, tags);
    record_all(
        &mut recorder,
        &[
            mv(1, Color::White, "e4"),
            mv(2, Color::Black, "e5"),
            violation(
                Rule::TouchOwn,
                Color::White,
                Square::D2,
                "touched d2, moved g1",
            ),
            mv(3, Color::White, "Nf3"),
            event(EventKind::Illegal(IllegalMove {
                color: Color::Black,
                count: 1,
                message: "not a king move".to_owned(),
                uci: Some("e8e6".to_owned()),
                penalty_ms: None,
                evidence: Vec::new(),
            })),
            mv(4, Color::Black, "Nc6"),
            event(EventKind::Mismatch {
                squares: vec![Square::D2, Square::E4],
            }),
            event(EventKind::Resync),
        ],
    );
    let pgn = recorder.to_pgn_string();
    assert_eq!(
        pgn,
        "[Event \"Club night\"]\n[Site \"?\"]\n[Date \"2025.01.31\"]\n[Round \"3\"]\n\
         [White \"Alice\"]\n[Black \"Bob\"]\n[Result \"*\"]\n\
         [ECO \"C44\"]\n[Opening \"King's Knight Opening: Normal Variation\"]\n\n\
         1. e4 e5 {4.3.1 white d2: touched d2, moved g1} 2. Nf3 {illegal move e8e6 by\n\
         black (1): not a king move} 2... Nc6 {mismatch: d2 e4} {resync: the board\n\
         matches again} *\n"
    );
    assert_lines_fit(&pgn);
    let games = reread(&pgn);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].sans, ["e4", "e5", "Nf3", "Nc6"]);
    assert_eq!(
        games[0].comments,
        [
            "4.3.1 white d2: touched d2, moved g1",
            "illegal move e8e6 by black (1): not a king move",
            "mismatch: d2 e4",
            "resync: the board matches again",
        ]
    );
    assert_eq!(games[0].outcome.as_deref(), Some("*"));
    replay(&games[0]);
}

#[test]
fn a_takeback_removes_the_last_move_and_the_comments_after_it() {
    let mut recorder = standard();
    record_all(
        &mut recorder,
        &[
            mv(1, Color::White, "e4"),
            mv(2, Color::Black, "e5"),
            mv(3, Color::White, "Nf3"),
            violation(
                Rule::ReleasedPieceMoved,
                Color::White,
                Square::F3,
                "released on f3",
            ),
            event(EventKind::Takeback { ply: 3 }),
            mv(3, Color::White, "Nc3"),
            mv(4, Color::Black, "Nf6"),
            event(EventKind::Takeback { ply: 4 }),
            event(EventKind::Mismatch {
                squares: vec![Square::F6],
            }),
            mv(4, Color::Black, "Nc6"),
        ],
    );
    let pgn = recorder.to_pgn_string();
    assert_eq!(
        pgn,
        format!(
            "{DEFAULT_ROSTER_UNFINISHED}[ECO \"C25\"]\n[Opening \"Vienna Game: Max Lange Defense\"]\n\n\
             1. e4 e5 2. Nc3 {{mismatch: f6}} 2... Nc6 *\n"
        )
    );
    let games = reread(&pgn);
    assert_eq!(games[0].sans, ["e4", "e5", "Nc3", "Nc6"]);
    replay(&games[0]);
}

/// A move event with `clock` times.
fn timed(ply: u32, color: Color, san: &str, white: u64, black: u64) -> GameEvent {
    let mut timed = mv(ply, color, san);
    if let EventKind::Move(played) = &mut timed.kind {
        played.clock = Some(ClockTimes { white, black });
    }
    timed
}

/// The clock's times after the press of `ply`.
fn pressed(ply: u32, color: Color, white: u64, black: u64) -> GameEvent {
    event(EventKind::Clock {
        ply,
        color,
        clock: ClockTimes { white, black },
    })
}

#[test]
fn the_clock_after_a_move_s_press_replaces_its_times_and_gives_one_to_a_move_without() {
    let mut recorder = standard();
    record_all(
        &mut recorder,
        &[
            // e4 decided with 4:58 left; the press and its increment leave 5:02.
            timed(1, Color::White, "e4", 298_700, 300_000),
            violation(Rule::ReleasedPieceMoved, Color::White, Square::E4, "moved"),
            pressed(1, Color::White, 302_000, 300_000),
            // e5 decided before any clock; the press gives it its first times.
            mv(2, Color::Black, "e5"),
            pressed(2, Color::Black, 302_000, 301_000),
        ],
    );
    let pgn = recorder.to_pgn_string();
    assert_eq!(
        pgn,
        format!(
            "{DEFAULT_ROSTER_UNFINISHED}[ECO \"C20\"]\n[Opening \"King's Pawn Game\"]\n\n\
             1. e4 {{[%clk 0:05:02]}} {{4.7 white e4: moved}} 1... e5 \
             {{[%clk 0:05:01]}} *\n"
        )
    );
    // Only the last move's times can follow a press.
    let refused = recorder.record(&pressed(1, Color::White, 1, 1));
    assert!(matches!(
        refused,
        Err(RecordError::TimesNotOfTheLastPly {
            ply: 1,
            last_ply: 2
        })
    ));
}

#[test]
fn a_set_up_start_with_black_to_move_has_fen_tags_and_an_ellipsis() {
    let fen = "r3k3/8/8/8/8/8/4P3/4K3 b q - 5 30";
    let start: Chess = fen
        .parse::<Fen>()
        .expect("valid FEN")
        .into_position(CastlingMode::Standard)
        .expect("legal position");
    let mut recorder = PgnRecorder::new(start, true, PgnTags::default());
    record_all(
        &mut recorder,
        &[
            mv(1, Color::Black, "Kd7"),
            mv(2, Color::White, "e4"),
            mv(3, Color::Black, "Ra1+"),
        ],
    );
    let pgn = recorder.to_pgn_string();
    assert_eq!(
        pgn,
        format!(
            "{DEFAULT_ROSTER_UNFINISHED}[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n30... Kd7 31. e4 Ra1+ *\n"
        )
    );
    let games = reread(&pgn);
    assert_eq!(games[0].tag("FEN"), Some(fen));
    assert_eq!(games[0].sans, ["Kd7", "e4", "Ra1+"]);
    let end = replay(&games[0]);
    assert!(end.is_check());
    assert_eq!(end.fullmoves().get(), 32);
}

#[test]
fn a_game_event_starts_a_new_pgn_game_from_the_standard_position() {
    let mut recorder = standard();
    record_all(
        &mut recorder,
        &[
            mv(1, Color::White, "f3"),
            mv(2, Color::Black, "e5"),
            mv(3, Color::White, "g4"),
            mv(4, Color::Black, "Qh4#"),
            result("0-1", "checkmate", Some(Rule::Checkmate)),
            event(EventKind::Game { number: 2 }),
            mv(1, Color::White, "d4"),
        ],
    );
    let pgn = recorder.to_pgn_string();
    // A checkmate is a normal termination (PGN standard, 9.8.1).
    let first = DEFAULT_ROSTER_UNFINISHED.replace(
        "[Result \"*\"]",
        "[Result \"0-1\"]\n[ECO \"A00\"]\n[Opening \"Barnes Opening: Fool's Mate\"]\n\
         [Termination \"normal\"]",
    );
    assert_eq!(
        pgn,
        format!(
            "{first}\n1. f3 e5 2. g4 Qh4# {{checkmate (5.1.1)}} 0-1\n\n\
             {DEFAULT_ROSTER_UNFINISHED}[ECO \"A40\"]\n[Opening \"Queen's Pawn Game\"]\n\n1. d4 *\n"
        )
    );
    let games = reread(&pgn);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tag("Result"), Some("0-1"));
    assert_eq!(games[0].outcome.as_deref(), Some("0-1"));
    assert!(replay(&games[0]).is_checkmate());
    assert_eq!(games[1].tag("Result"), Some("*"));
    assert_eq!(games[1].sans, ["d4"]);
    assert_eq!(games[1].tag("FEN"), None);
}

#[test]
fn game_one_announced_at_the_start_keeps_the_set_up_start() {
    let start: Chess = "5k2/8/8/8/8/8/8/4K2R w K - 0 1"
        .parse::<Fen>()
        .expect("valid FEN")
        .into_position(CastlingMode::Standard)
        .expect("legal position");
    let mut recorder = PgnRecorder::new(start, true, PgnTags::default());
    record_all(
        &mut recorder,
        &[
            event(EventKind::Game { number: 1 }),
            mv(1, Color::White, "O-O+"),
        ],
    );
    let games = reread(&recorder.to_pgn_string());
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].sans, ["O-O+"]);
    replay(&games[0]);
}

#[test]
fn result_tags_follow_the_result_and_draws_are_claimable_comments() {
    let mut recorder = standard();
    record_all(
        &mut recorder,
        &[
            mv(1, Color::White, "Nf3"),
            event(EventKind::Claimable {
                reason: ClaimReason::Threefold,
            }),
            result("1/2-1/2", "agreement", None),
        ],
    );
    let pgn = recorder.to_pgn_string();
    assert!(pgn.contains("[Result \"1/2-1/2\"]\n"), "{pgn}");
    assert!(
        pgn.ends_with("\n1. Nf3 {draw claimable: threefold} {agreement} 1/2-1/2\n"),
        "{pgn}"
    );
    let games = reread(&pgn);
    assert_eq!(games[0].outcome.as_deref(), Some("1/2-1/2"));

    let mut white_wins = standard();
    record_all(&mut white_wins, &[result("1-0", "", None)]);
    let pgn = white_wins.to_pgn_string();
    assert!(pgn.contains("[Result \"1-0\"]\n"), "{pgn}");
    assert!(pgn.ends_with("\n\n1-0\n"), "{pgn}");
}

#[test]
fn san_is_written_as_shakmaty_writes_it() {
    let mut recorder = standard();
    record_all(
        &mut recorder,
        &[mv(1, Color::White, "Ng1f3"), mv(2, Color::Black, "d5")],
    );
    assert!(recorder.to_pgn_string().ends_with("\n1. Nf3 d5 *\n"));
}

#[test]
fn events_that_do_not_fit_are_refused_and_not_recorded() {
    let mut recorder = standard();
    assert!(matches!(
        recorder.record(&mv(1, Color::White, "e5")),
        Err(RecordError::IllegalSan { ply: 1, san, .. }) if san == "e5"
    ));
    assert!(matches!(
        recorder.record(&mv(1, Color::White, "Ke2")),
        Err(RecordError::IllegalSan { ply: 1, san, .. }) if san == "Ke2"
    ));
    assert_eq!(
        recorder.record(&mv(1, Color::Black, "e5")),
        Err(RecordError::WrongSide {
            ply: 1,
            expected: Color::White,
            found: Color::Black
        })
    );
    assert_eq!(
        recorder.record(&event(EventKind::Takeback { ply: 1 })),
        Err(RecordError::NothingToTakeBack { ply: 1 })
    );
    record_all(&mut recorder, &[mv(1, Color::White, "e4")]);
    assert_eq!(
        recorder.record(&event(EventKind::Takeback { ply: 2 })),
        Err(RecordError::NotTheLastPly {
            ply: 2,
            last_ply: 1
        })
    );
    assert_eq!(
        recorder.record(&result("2-0", "", None)),
        Err(RecordError::UnknownResult {
            result: "2-0".to_owned()
        })
    );
    record_all(&mut recorder, &[result("1-0", "resignation", None)]);
    assert_eq!(
        recorder.record(&mv(2, Color::Black, "e5")),
        Err(RecordError::GameOver {
            result: "1-0".to_owned(),
            event: "move"
        })
    );
    assert_eq!(
        recorder.record(&event(EventKind::Takeback { ply: 1 })),
        Err(RecordError::GameOver {
            result: "1-0".to_owned(),
            event: "takeback"
        })
    );
    assert!(
        recorder
            .to_pgn_string()
            .ends_with("\n1. e4 {resignation} 1-0\n")
    );
}

#[test]
fn hostile_comment_text_stays_inside_its_comment() {
    let mut recorder = standard();
    let message = format!("a }} 1. e4 {{ b\n%c {}", "x".repeat(120));
    record_all(
        &mut recorder,
        &[
            mv(1, Color::White, "d4"),
            violation(Rule::TouchOpponent, Color::Black, Square::D4, &message),
            mv(2, Color::Black, "d5"),
        ],
    );
    let pgn = recorder.to_pgn_string();
    assert_lines_fit(&pgn);
    let games = reread(&pgn);
    assert_eq!(games[0].sans, ["d4", "d5"]);
    assert_eq!(games[0].comments.len(), 1);
    assert!(games[0].comments[0].starts_with("4.3.2 black d4: a ) 1. e4 ( b %c xxx"));
}

#[test]
fn write_pgn_writes_the_same_text() {
    let mut recorder = standard();
    record_all(&mut recorder, &[mv(1, Color::White, "c4")]);
    let mut out = Vec::new();
    recorder.write_pgn(&mut out).expect("writing to memory");
    assert_eq!(out, recorder.to_pgn_string().into_bytes());
}

#[test]
fn the_termination_tag_says_how_the_game_ended() {
    let cases = [
        (
            "1-0",
            "flag fall",
            Some(Rule::FlagFall),
            Some("time forfeit"),
        ),
        (
            "0-1",
            "illegal moves",
            Some(Rule::IllegalMoveLimit),
            Some("rules infraction"),
        ),
        (
            "1/2-1/2",
            "draw agreed",
            Some(Rule::DrawAgreed),
            Some("normal"),
        ),
        (
            "1-0",
            "default",
            Some(Rule::Default),
            Some("rules infraction"),
        ),
        ("1-0", "result gesture", None, None),
    ];
    for (outcome, reason, rule, termination) in cases {
        let mut recorder = standard();
        record_all(
            &mut recorder,
            &[mv(1, Color::White, "e4"), result(outcome, reason, rule)],
        );
        let games = reread(&recorder.to_pgn_string());
        assert_eq!(games[0].tag("Termination"), termination, "{reason}");
        assert_eq!(games[0].tag("Result"), Some(outcome), "{reason}");
    }
}

fn tag(tag: crate::event::TagName, value: &str) -> GameEvent {
    event(EventKind::Tag {
        tag,
        value: value.to_owned(),
    })
}

#[test]
fn tags_the_arbiter_names_hold_from_that_game_on_and_earlier_games_keep_theirs() {
    use crate::event::TagName;
    let mut recorder = standard();
    record_all(
        &mut recorder,
        &[
            tag(TagName::White, "Anna"),
            mv(1, Color::White, "e4"),
            tag(TagName::Black, "Ben"),
            event(EventKind::Game { number: 2 }),
            tag(TagName::Round, "2"),
            tag(TagName::White, "Cleo"),
            mv(1, Color::White, "d4"),
            tag(TagName::Black, ""),
        ],
    );
    let games = reread(&recorder.to_pgn_string());
    assert_eq!(games.len(), 2);
    let tags = |game: &ReadGame| {
        ["White", "Black", "Round"].map(|name| game.tag(name).unwrap_or_default().to_owned())
    };
    assert_eq!(tags(&games[0]), ["Anna", "Ben", "?"]);
    assert_eq!(tags(&games[1]), ["Cleo", "?", "2"]);
}

#[test]
fn a_reinstated_position_is_said_after_the_moves_that_stand() {
    let mut recorder = standard();
    let after_e5 = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    record_all(
        &mut recorder,
        &[
            mv(1, Color::White, "e4"),
            mv(2, Color::Black, "e5"),
            mv(3, Color::White, "Nf3"),
            event(EventKind::Takeback { ply: 3 }),
            event(EventKind::Reinstated {
                ply: 2,
                moves: vec!["Nf3".to_owned()],
                fen: after_e5.parse().expect("a FEN"),
            }),
            mv(3, Color::White, "d4"),
        ],
    );
    let games = reread(&recorder.to_pgn_string());
    assert_eq!(games[0].sans, ["e4", "e5", "d4"]);
    assert_eq!(
        games[0].comments,
        ["the arbiter reinstated the position after ply 2 (Nf3 taken back): put the board back"]
    );
}
