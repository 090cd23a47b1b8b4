//! The annotated PGN: the game's record as every PGN of the project writes it (rulings,
//! clocks, result, opening), each move with what the board saw of it and, with an engine, its
//! evaluation, its glyph and the better move.

use touchmove_core::output::pgn::{PgnRecorder, PgnTags};

use crate::format::seconds;

use crate::report::GameReport;

/// The game of `report` as annotated PGN under `tags`: each move followed by a comment with
/// `[%eval]` (with an engine), `[%emt]` (the thinking time: PGN's elapsed move time), the time
/// in hand and the pieces touched and not moved; a judged move gets its NAG and the best move.
/// A comment before the first move says each player's accuracy and how it was reached.
pub fn annotated_pgn(report: &GameReport, tags: &PgnTags) -> String {
    let facts = &report.facts;
    let mut pgn = PgnRecorder::new(facts.start.clone(), facts.set_up, tags.clone());
    if let Some(summary) = accuracy_comment(report) {
        pgn.comment(summary);
    }
    let mut moves = facts.moves.iter().enumerate().peekable();
    for (index, event) in facts.events.iter().enumerate() {
        // An event the record refuses leaves it as it was, as it did when the game was played.
        let _ = pgn.record_stream(event);
        let Some((number, played)) = moves.next_if(|(_, m)| m.event_index == index) else {
            continue;
        };
        let review = report.review(number);
        if let Some(judgement) = review.and_then(|r| r.judged.as_ref()?.judgement) {
            pgn.annotate(judgement.nag());
        }
        let mut commands = Vec::new();
        // A mate on the board needs no evaluation: the move says it.
        let after = report.evals.get(number + 1).and_then(Option::as_ref);
        let table = after.and_then(|after| after.table.as_ref());
        // A table's result is said in words: its win is no engine's evaluation.
        if let Some(eval) = after
            .filter(|a| a.table.is_none())
            .map(|a| a.eval)
            .filter(|e| !e.is_mated())
        {
            commands.push(format!("[%eval {}]", eval.pgn()));
        }
        if let Some(think) = played.think_ms {
            commands.push(format!("[%emt {}]", crate::format::emt(think)));
        }
        let mut words = Vec::new();
        if let Some(table) = table {
            words.push(format!("tablebase: {}", table.words()));
        }
        if let Some(review) = review
            && let Some(judged) = &review.judged
            && let Some(judgement) = judged.judgement
        {
            let mut said = format!(
                "({} → {}) {}",
                crate::table::position_text(report, number),
                crate::table::position_text(report, number + 1),
                capitalised(judgement.name())
            );
            if let Some(best) = &review.best {
                said.push_str(&format!(". {best} was best"));
            }
            words.push(said);
        }
        if let Some(in_hand) = played.in_hand_ms {
            words.push(format!("in hand {}", seconds(in_hand)));
        }
        if !played.touched.is_empty() {
            words.push(format!(
                "touched {} and did not move it",
                played.touched.join(", ")
            ));
        }
        let words = [commands.join(" "), words.join("; ")];
        let words: Vec<&str> = words
            .iter()
            .map(String::as_str)
            .filter(|w| !w.is_empty())
            .collect();
        if !words.is_empty() {
            pgn.comment(words.join(" "));
        }
    }
    pgn.to_pgn_string()
}

/// `accuracy: white 91.2, black 63.0 (Stockfish 16, depth 12; Lichess's measure, ...)`.
fn accuracy_comment(report: &GameReport) -> Option<String> {
    let engine = report.engine.as_deref()?;
    let side = |accuracy: Option<f64>| accuracy.map_or("-".to_owned(), |a| format!("{a:.1}"));
    Some(format!(
        "accuracy: white {}, black {} (judged by {engine}; each move's accuracy from the win \
         percentage it lost, as Lichess counts it, and a player's the mean of their moves')",
        side(report.white_accuracy),
        side(report.black_accuracy)
    ))
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
