//! A readable one-line rendering of each game event, for the terminal.

use crate::clock::clk;
use crate::event::{
    EventKind, GameEvent, GameResult, IllegalMove, MoveEvent, Violation, color_name,
};
use shakmaty::Color;

use super::notation::Notation;
use crate::evidence::{Evidence, timed};
use crate::stream::{Analysis, EngineMove, OnlineNotice, StreamEvent, StreamKind};

/// One line describing `event` for a person watching the game, without a line ending; a ruling
/// has a second line with its evidence (`  evidence: 1400 released on e1 ...`).
pub fn render(event: &GameEvent) -> String {
    render_in(event, Notation::San)
}

/// The text for `event` (see [`render`]), its move (if it is one) written in `notation`.
pub fn render_in(event: &GameEvent, notation: Notation) -> String {
    render_kind(&event.kind, notation, &MoveNumbers::default())
}

/// The text for one line of the stream, whoever decided it (see [`render_in`]); a ply is
/// said as a move of a game from the standard start (see [`render_numbered`]).
pub fn render_stream_in(event: &StreamEvent, notation: Notation) -> String {
    render_numbered(event, notation, &MoveNumbers::default(), true)
}

/// Whether `event` is a detail the text output says only when asked (`-v`): a move pending
/// before it is decided, the clock's times after a press. Moves, rulings and results are not.
pub fn is_detail(event: &StreamEvent) -> bool {
    matches!(
        event.game(),
        Some(EventKind::Pending(_) | EventKind::Clock { .. })
    )
}

/// Which move of the game each ply is (`2.`, `2...`), as learnt from the moves and set-ups
/// decided: a game may start from a position with any move number and either side to move.
/// Until it learns otherwise, ply 1 is White's first move.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MoveNumbers {
    /// A ply whose move is known: the ply, its move number, its side.
    anchor: Option<(u32, u32, Color)>,
}

impl MoveNumbers {
    /// Learns from `event`: a move says its own number, a new game starts from its start.
    pub fn learn(&mut self, event: &StreamEvent) {
        match event.game() {
            Some(EventKind::Move(played)) => {
                self.anchor = Some((played.ply, move_number(played), played.color));
            }
            Some(EventKind::Game { .. }) => self.anchor = None,
            Some(EventKind::Setup { fen, .. }) => {
                let setup = fen.as_setup();
                self.anchor = Some((1, u32::from(setup.fullmoves), setup.turn));
            }
            _ => {}
        }
    }

    /// Ply `ply`'s move number and side.
    fn of(self, ply: u32) -> (i64, Color) {
        let (anchor_ply, number, color) = self.anchor.unwrap_or((1, 1, Color::White));
        let half = 2 * i64::from(number) + i64::from(color == Color::Black);
        let at = half + i64::from(ply) - i64::from(anchor_ply);
        let side = if at.rem_euclid(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        (at.div_euclid(2), side)
    }

    /// Ply `ply` as a move is numbered: `2.` (White's), `2...` (Black's).
    pub fn label(self, ply: u32) -> String {
        match self.of(ply) {
            (number, Color::White) => format!("{number}."),
            (number, Color::Black) => format!("{number}..."),
        }
    }

    /// Ply `ply` in words: `white's move 2`.
    pub fn words(self, ply: u32) -> String {
        let (number, side) = self.of(ply);
        format!("{}'s move {number}", color_name(side))
    }
}

/// The text for one line of the stream (see [`render_in`]), its plies said as moves of the
/// game as `numbers` knows it (`takeback of white's move 2`, `pending 2... Nf6`); a move's
/// clock times only with the `details`.
pub fn render_numbered(
    event: &StreamEvent,
    notation: Notation,
    numbers: &MoveNumbers,
    details: bool,
) -> String {
    match &event.kind {
        StreamKind::Game(EventKind::Move(played)) => render_move(played, notation, details),
        StreamKind::Game(kind) => render_kind(kind, notation, numbers),
        StreamKind::Link(state) => format!("board {}", state.as_str()),
        StreamKind::Engine(choice) => render_engine(choice, notation),
        StreamKind::Hint(hint) => render_hint(hint, notation),
        StreamKind::Analysis(analysis) => render_analysis(analysis, numbers),
        StreamKind::Execution(execution) => execution.message.clone(),
        StreamKind::Online(notice) => render_online(notice, notation),
        StreamKind::Refused(refusal) => format!("refused ({}): {}", refusal.asked, refusal.why),
        StreamKind::Battery(level) => format!(
            "the board's battery: {} %{}",
            level.percent,
            if level.charging { ", charging" } else { "" }
        ),
        StreamKind::Notice(notice) => notice.text.clone(),
        StreamKind::Coach(warning) => format!(
            "coach: {}: take it back, or type `go` to let the engine reply",
            warning.words()
        ),
    }
}

/// What the server of an online game said or did, in words.
fn render_online(notice: &OnlineNotice, notation: Notation) -> String {
    match notice {
        OnlineNotice::Move {
            color,
            san,
            chess_move,
            ..
        } => {
            let written = notation.write(san, *chess_move);
            format!(
                "{} plays {written}: carry it out on the board",
                color_name(*color)
            )
        }
        OnlineNotice::Refused { uci, message } => {
            format!("the server refused {uci} ({message}): take it back on the board")
        }
        OnlineNotice::TakenBack { plies } => {
            format!("the server took the game back to ply {plies}: set the board to it")
        }
        OnlineNotice::DrawOffer { color } => format!("{} offers a draw", color_name(*color)),
        OnlineNotice::TakebackProposal { color } => {
            format!("{} proposes a takeback", color_name(*color))
        }
        OnlineNotice::OpponentGone { gone: false, .. } => "the opponent is back".to_owned(),
        OnlineNotice::OpponentGone {
            gone: true,
            claim_in_s,
        } => match claim_in_s {
            Some(0) => "the opponent left the game: the win may be claimed".to_owned(),
            Some(s) => format!("the opponent left the game: the win may be claimed in {s} s"),
            None => "the opponent left the game".to_owned(),
        },
        OnlineNotice::Chat { user, text } => format!("chat: {user}: {text}"),
        OnlineNotice::Ended { message, .. } => message.clone(),
        OnlineNotice::Failed { request, message } => {
            format!("the server did not take the {request} request: {message}")
        }
    }
}

/// `engine plays e5 (-0.31): carry it out on the board`, the move in `notation`.
fn render_engine(choice: &EngineMove, notation: Notation) -> String {
    let written = notation.write(&choice.san, choice.chess_move);
    format!(
        "engine plays {written}{}: carry it out on the board",
        score_words(choice)
    )
}

/// An engine's analysis: `analysis after white's move 2 (depth 18): +0.31 Nf3 Nc6 Bb5`.
fn render_analysis(analysis: &Analysis, numbers: &MoveNumbers) -> String {
    let score = match (analysis.mate, analysis.score_cp) {
        (Some(mate), _) => format!("#{mate}"),
        (None, Some(cp)) => format!("{:+.2}", f64::from(cp) / 100.0),
        (None, None) => "?".to_owned(),
    };
    let after = if analysis.ply == 0 {
        "the start".to_owned()
    } else {
        numbers.words(analysis.ply)
    };
    let line = format!(
        "analysis after {after} (depth {}): {score} {}",
        analysis.depth,
        analysis.pv.join(" ")
    );
    match &analysis.tablebase {
        Some(table) => format!("{}; tablebase: {}", line.trim_end(), table.words()),
        None => line.trim_end().to_owned(),
    }
}

/// A hint: the engine's best move for the player.
fn render_hint(hint: &EngineMove, notation: Notation) -> String {
    let written = notation.write(&hint.san, hint.chess_move);
    format!(
        "hint for {}: {written}{} (nothing is changed)",
        crate::event::color_name(hint.color),
        score_words(hint)
    )
}

/// An engine move's score, from the side of the move, or that it came from the book.
fn score_words(choice: &EngineMove) -> String {
    match (choice.mate, choice.score_cp) {
        _ if choice.book => " (book)".to_owned(),
        _ if choice.tablebase.is_some() => choice
            .tablebase
            .as_ref()
            .map(|table| format!(" (tablebase: {})", table.words()))
            .unwrap_or_default(),
        (Some(mate), _) => format!(" (mate in {mate})"),
        (None, Some(cp)) => format!(" ({:+.2})", f64::from(cp) / 100.0),
        (None, None) => String::new(),
    }
}

fn render_kind(kind: &EventKind, notation: Notation, numbers: &MoveNumbers) -> String {
    match kind {
        EventKind::Move(played) => render_move(played, notation, true),
        EventKind::Violation(violation) => render_violation(violation),
        EventKind::Illegal(illegal) => render_illegal(illegal),
        EventKind::Takeback { ply } => format!("takeback of {}", numbers.words(*ply)),
        EventKind::Result(result) => render_result(result),
        EventKind::Claimable { reason } => format!("draw claimable: {}", reason.as_str()),
        EventKind::Mismatch { squares } => {
            let squares: Vec<String> = squares.iter().map(ToString::to_string).collect();
            format!("board mismatch at {}", squares.join(" "))
        }
        EventKind::Resync => "board matches again (resync)".to_owned(),
        EventKind::Ambiguous { from, to } if to.is_empty() => {
            format!("the piece of {from} is back: nothing is asked")
        }
        EventKind::Ambiguous { from, to } => {
            let to: Vec<String> = to.iter().map(ToString::to_string).collect();
            format!(
                "which square? the piece of {from} went to {}: lift it where it stands and set \
                 it back",
                to.join(" or ")
            )
        }
        EventKind::Pending(pending) => match &pending.san {
            Some(san) => format!("pending {} {san}", numbers.label(pending.ply)),
            None => format!("nothing pending for {}", numbers.words(pending.ply)),
        },
        EventKind::Clock { ply, clock, .. } => format!(
            "clock after {}: white {}, black {}",
            numbers.words(*ply),
            clk(clock.white),
            clk(clock.black)
        ),
        EventKind::Note { text } => format!("arbiter's note: {text}"),
        EventKind::TimeAdded { color, ms, clock } => format!(
            "the arbiter gave {} {} s more: white {}, black {}",
            crate::event::color_name(*color),
            ms / 1_000,
            clk(clock.white),
            clk(clock.black)
        ),
        EventKind::ClockSet { clock } => format!(
            "the arbiter set the clock: white {}, black {}",
            clk(clock.white),
            clk(clock.black)
        ),
        EventKind::Tag { tag, value } => format!("the arbiter named {tag}: {value}"),
        EventKind::Reinstated { ply, moves, .. } => reinstated_text(*ply, moves),
        EventKind::Game { number } => format!("new game {number}"),
        EventKind::Setup { number, fen } => format!("new game {number} set up from {fen}"),
    }
}

/// What the text output and the PGN say of a position reinstated after `ply`, `moves` taken
/// back.
pub(crate) fn reinstated_text(ply: u32, moves: &[String]) -> String {
    let taken = if moves.is_empty() {
        String::new()
    } else {
        format!(" ({} taken back)", moves.join(" "))
    };
    format!("the arbiter reinstated the position after ply {ply}{taken}: put the board back")
}

/// `   1. e4` or `   1... e5`, the number right-aligned in four columns, and both clock
/// times when a clock runs and `with_clock` (`   1. e4   (clock white 0:04:58, black
/// 0:05:00)`).
fn render_move(played: &MoveEvent, notation: Notation, with_clock: bool) -> String {
    let number = move_number(played);
    let written = notation.write(&played.san.to_string(), played.chess_move);
    let line = match played.color {
        Color::White => format!("{number:>4}. {written}"),
        Color::Black => format!("{number:>4}... {written}"),
    };
    match played.clock.filter(|_| with_clock) {
        Some(times) => format!(
            "{line}   (clock white {}, black {})",
            clk(times.white),
            clk(times.black)
        ),
        None => line,
    }
}

/// The move number of a move: the fullmove field of the position after it (one less after a
/// Black move).
fn move_number(played: &MoveEvent) -> u32 {
    let after = u32::from(played.fen.as_setup().fullmoves);
    match played.color {
        Color::White => after,
        Color::Black => after.saturating_sub(1),
    }
}

/// `violation 4.3.1 by white at d2: <message>`, then its evidence on a second line.
fn render_violation(violation: &Violation) -> String {
    let line = format!(
        "violation {} by {} at {}: {}",
        violation.rule.article(),
        color_name(violation.color),
        violation.square,
        violation.message
    );
    with_evidence(line, &violation.evidence)
}

/// `line`, and when there is evidence a second line with it, each item with its time.
fn with_evidence(line: String, evidence: &[Evidence]) -> String {
    if evidence.is_empty() {
        line
    } else {
        format!("{line}\n  evidence: {}", timed(evidence))
    }
}

/// `illegal move by black (1): <message>`, with the move when it is known, then its evidence
/// on a second line.
fn render_illegal(illegal: &IllegalMove) -> String {
    with_evidence(illegal_line(illegal), &illegal.evidence)
}

/// `illegal move by black (1): <message>`, with the move when it is known.
pub(crate) fn illegal_line(illegal: &IllegalMove) -> String {
    let attempted = illegal
        .uci
        .as_deref()
        .map(|uci| format!(" {uci}"))
        .unwrap_or_default();
    format!(
        "illegal move{attempted} by {} ({}): {}",
        color_name(illegal.color),
        illegal.count,
        illegal.message
    )
}

/// `result 1-0 (checkmate)`, with the article when one ended the game.
fn render_result(result: &GameResult) -> String {
    match result.rule {
        Some(rule) => format!(
            "result {} ({}, {})",
            result.result,
            result.reason,
            rule.article()
        ),
        None => format!("result {} ({})", result.result, result.reason),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{ClaimReason, ClockTimes, Rule};
    use crate::evidence::Observed;
    use shakmaty::Square;

    fn line(kind: EventKind) -> String {
        render(&GameEvent { t: 1234, kind })
    }

    fn mv(ply: u32, color: Color, san: &str, fen: &str) -> EventKind {
        EventKind::Move(MoveEvent {
            ply,
            color,
            san: shakmaty::san::SanPlus::from_ascii(san.as_bytes()).expect("a SAN"),
            uci: shakmaty::uci::UciMove::Null,
            fen: shakmaty::fen::Fen::from_ascii(fen.as_bytes()).expect("a valid FEN"),
            promotion_default: false,
            reconstructed: false,
            clock: None,
            // Not read by what is tested here.
            chess_move: shakmaty::Move::Put {
                role: shakmaty::Role::Pawn,
                to: shakmaty::Square::A1,
            },
        })
    }

    #[test]
    fn moves_are_numbered_from_the_fen_after_them() {
        assert_eq!(
            line(mv(
                1,
                Color::White,
                "e4",
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
            )),
            "   1. e4"
        );
        assert_eq!(
            line(mv(
                2,
                Color::Black,
                "e5",
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
            )),
            "   1... e5"
        );
        // A game set up at move 30 with Black to move: ply 1 is 30... and the FEN says 31.
        assert_eq!(
            line(mv(
                1,
                Color::Black,
                "Kd7",
                "r7/3k4/8/8/8/8/4P3/4K3 w - - 6 31"
            )),
            "  30... Kd7"
        );
    }

    #[test]
    fn a_move_with_a_clock_shows_both_times() {
        let mut kind = mv(
            1,
            Color::White,
            "e4",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        );
        if let EventKind::Move(played) = &mut kind {
            played.clock = Some(crate::event::ClockTimes {
                white: 298_400,
                black: 3_661_000,
            });
        }
        assert_eq!(
            line(kind),
            "   1. e4   (clock white 0:04:58, black 1:01:01)"
        );
    }

    #[test]
    fn the_engine_s_move_is_written_in_the_notation() {
        let kind = StreamKind::Engine(EngineMove {
            color: shakmaty::Color::Black,
            san: "Nf6".to_owned(),
            uci: "g8f6".to_owned(),
            score_cp: Some(31),
            mate: None,
            book: false,
            tablebase: None,
            chess_move: shakmaty::Move::Normal {
                role: shakmaty::Role::Knight,
                from: Square::G8,
                capture: None,
                to: Square::F6,
                promotion: None,
            },
        });
        let event = StreamEvent { t: 1, kind };
        assert_eq!(
            render_stream_in(&event, Notation::San),
            "engine plays Nf6 (+0.31): carry it out on the board"
        );
        assert_eq!(
            render_stream_in(&event, Notation::RuLong),
            "engine plays Кg8-f6 (+0.31): carry it out on the board"
        );
        let mut book = event.clone();
        if let StreamKind::Engine(choice) = &mut book.kind {
            choice.book = true;
            choice.score_cp = None;
        }
        assert_eq!(
            render_stream_in(&book, Notation::San),
            "engine plays Nf6 (book): carry it out on the board"
        );
        let mut hint = event.clone();
        if let StreamKind::Engine(choice) = hint.kind.clone() {
            hint.kind = StreamKind::Hint(choice);
        }
        assert_eq!(
            render_stream_in(&hint, Notation::San),
            "hint for black: Nf6 (+0.31) (nothing is changed)"
        );
    }

    #[test]
    fn rulings_read_as_sentences() {
        assert_eq!(
            line(EventKind::Violation(Violation {
                rule: Rule::TouchOwn,
                color: Color::White,
                square: Square::D2,
                message: "must move d2".to_owned(),
                evidence: Vec::new(),
            })),
            "violation 4.3.1 by white at d2: must move d2"
        );
        let evidence = vec![
            Evidence::rest(1400, Square::E1, 620, 3),
            Evidence::on(2520, Observed::Moved, Square::F1),
        ];
        assert_eq!(
            line(EventKind::Violation(Violation {
                rule: Rule::ReleasedPieceMoved,
                color: Color::White,
                square: Square::E1,
                message: "moved on".to_owned(),
                evidence,
            })),
            "violation 4.7 by white at e1: moved on\n  evidence: 1400 released on e1 for 620 ms \
             (3 reports); 2520 moved to f1"
        );
        let mut illegal = IllegalMove {
            color: Color::Black,
            count: 1,
            message: "king in check".to_owned(),
            uci: None,
            penalty_ms: None,
            evidence: Vec::new(),
        };
        assert_eq!(
            line(EventKind::Illegal(illegal.clone())),
            "illegal move by black (1): king in check"
        );
        illegal.uci = Some("e8e7".to_owned());
        assert_eq!(
            line(EventKind::Illegal(illegal)),
            "illegal move e8e7 by black (1): king in check"
        );
    }

    #[test]
    fn plies_are_said_as_moves_of_the_game_as_it_started() {
        let standard = MoveNumbers::default();
        assert_eq!(
            [1, 2, 3, 4].map(|ply| standard.label(ply)),
            ["1.", "1...", "2.", "2..."]
        );
        // A game set up at move 40 with Black to move: its first ply is 40..., its second 41.
        let mut set_up = MoveNumbers::default();
        let fen: shakmaty::fen::Fen = "4k3/8/8/8/8/8/8/4K2R b K - 0 40"
            .parse()
            .unwrap_or_default();
        set_up.learn(&StreamEvent::from(GameEvent {
            t: 0,
            kind: EventKind::Setup { number: 2, fen },
        }));
        assert_eq!(
            [1, 2, 3].map(|ply| set_up.label(ply)),
            ["40...", "41.", "41..."]
        );
        assert_eq!(set_up.words(2), "white's move 41");
        // A new game from the standard position starts at 1. again.
        set_up.learn(&StreamEvent::from(GameEvent {
            t: 0,
            kind: EventKind::Game { number: 3 },
        }));
        assert_eq!(set_up.label(1), "1.");
    }

    #[test]
    fn details_are_the_pending_moves_and_the_clock_and_nothing_else() {
        let event = |kind| StreamEvent::from(GameEvent { t: 0, kind });
        let clock = ClockTimes {
            white: 298_000,
            black: 300_000,
        };
        let pressed = event(EventKind::Clock {
            ply: 3,
            color: Color::White,
            clock,
        });
        assert!(is_detail(&pressed));
        assert_eq!(
            render_stream_in(&pressed, Notation::San),
            "clock after white's move 2: white 0:04:58, black 0:05:00"
        );
        assert!(!is_detail(&event(EventKind::Takeback { ply: 3 })));
        assert!(!is_detail(&event(EventKind::Resync)));
    }

    #[test]
    fn board_and_game_events_are_one_line_each() {
        // Ply 5 of a game from the standard start: 1. w, 1... b, 2. w, 2... b, 3. w.
        assert_eq!(
            line(EventKind::Takeback { ply: 5 }),
            "takeback of white's move 3"
        );
        assert_eq!(
            line(EventKind::Result(GameResult {
                result: "1-0".to_owned(),
                reason: "checkmate".to_owned(),
                rule: None,
                termination: None,
                outcome: shakmaty::KnownOutcome::Decisive {
                    winner: Color::White
                },
            })),
            "result 1-0 (checkmate)"
        );
        assert_eq!(
            line(EventKind::Result(GameResult {
                result: "0-1".to_owned(),
                reason: "second illegal move".to_owned(),
                rule: Some(Rule::IllegalMoveLimit),
                termination: None,
                outcome: shakmaty::KnownOutcome::Decisive {
                    winner: Color::Black
                },
            })),
            "result 0-1 (second illegal move, 7.5.5)"
        );
        assert_eq!(line(EventKind::Game { number: 2 }), "new game 2");
        assert_eq!(
            line(EventKind::Mismatch {
                squares: vec![Square::D2, Square::E4]
            }),
            "board mismatch at d2 e4"
        );
        assert_eq!(line(EventKind::Resync), "board matches again (resync)");
        assert_eq!(
            line(EventKind::Ambiguous {
                from: Square::H3,
                to: vec![Square::E6, Square::H7],
            }),
            "which square? the piece of h3 went to e6 or h7: lift it where it stands and set it \
             back"
        );
        assert_eq!(
            line(EventKind::Ambiguous {
                from: Square::H3,
                to: Vec::new(),
            }),
            "the piece of h3 is back: nothing is asked"
        );
        assert_eq!(
            line(EventKind::Claimable {
                reason: ClaimReason::FiftyMoves
            }),
            "draw claimable: fifty-moves"
        );
    }
}
