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
    render_kind(&event.kind, notation)
}

/// The text for one line of the stream, whoever decided it (see [`render_in`]).
pub fn render_stream_in(event: &StreamEvent, notation: Notation) -> String {
    match &event.kind {
        StreamKind::Game(kind) => render_kind(kind, notation),
        StreamKind::Link(state) => format!("board {}", state.as_str()),
        StreamKind::Engine(choice) => render_engine(choice, notation),
        StreamKind::Hint(hint) => render_hint(hint, notation),
        StreamKind::Analysis(analysis) => render_analysis(analysis),
        StreamKind::Execution(execution) => execution.message.clone(),
        StreamKind::Online(notice) => render_online(notice, notation),
        StreamKind::Refused(refusal) => format!("refused ({}): {}", refusal.asked, refusal.why),
        StreamKind::Battery(level) => format!(
            "the board's battery: {} %{}",
            level.percent,
            if level.charging { ", charging" } else { "" }
        ),
        StreamKind::Notice(notice) => notice.text.clone(),
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

/// An engine's analysis: `analysis after ply 3 (depth 18): +0.31 Nf3 Nc6 Bb5`.
fn render_analysis(analysis: &Analysis) -> String {
    let score = match (analysis.mate, analysis.score_cp) {
        (Some(mate), _) => format!("#{mate}"),
        (None, Some(cp)) => format!("{:+.2}", f64::from(cp) / 100.0),
        (None, None) => "?".to_owned(),
    };
    format!(
        "analysis after ply {} (depth {}): {score} {}",
        analysis.ply,
        analysis.depth,
        analysis.pv.join(" ")
    )
    .trim_end()
    .to_owned()
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
        (Some(mate), _) => format!(" (mate in {mate})"),
        (None, Some(cp)) => format!(" ({:+.2})", f64::from(cp) / 100.0),
        (None, None) => String::new(),
    }
}

fn render_kind(kind: &EventKind, notation: Notation) -> String {
    match kind {
        EventKind::Move(played) => render_move(played, notation),
        EventKind::Violation(violation) => render_violation(violation),
        EventKind::Illegal(illegal) => render_illegal(illegal),
        EventKind::Takeback { ply } => format!("takeback of ply {ply}"),
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
            Some(san) => format!("ply {} pending: {san}", pending.ply),
            None => format!("ply {}: nothing pending", pending.ply),
        },
        EventKind::Clock { ply, clock, .. } => format!(
            "clock after the press of ply {ply}: white {}, black {}",
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
/// times when a clock runs (`   1. e4   (clock white 0:04:58, black 0:05:00)`).
fn render_move(played: &MoveEvent, notation: Notation) -> String {
    let number = move_number(played);
    let written = notation.write(&played.san.to_string(), played.chess_move);
    let line = match played.color {
        Color::White => format!("{number:>4}. {written}"),
        Color::Black => format!("{number:>4}... {written}"),
    };
    match played.clock {
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
    use crate::event::{ClaimReason, Rule};
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
    fn board_and_game_events_are_one_line_each() {
        assert_eq!(line(EventKind::Takeback { ply: 5 }), "takeback of ply 5");
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
