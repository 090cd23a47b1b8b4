//! The per-move table, as text for a terminal: each move's thinking time, time in hand, clock,
//! touches, rulings, and with an engine its evaluation, loss and judgement.

use crate::format::seconds;
use crate::report::GameReport;

/// The table's column heads.
pub const HEADS: [&str; 9] = [
    "move",
    "think",
    "in hand",
    "clock",
    "eval",
    "loss",
    "",
    "best",
    "touched / rulings",
];

/// An evaluation as the table writes it: as PGN's `[%eval]` does, `mate` once mated.
pub fn eval_text(eval: crate::judgement::Eval) -> String {
    if eval.is_mated() {
        "mate".to_owned()
    } else {
        eval.pgn()
    }
}

/// The evaluation of position `index` (0: the start) as the table writes it: a tablebase's
/// result as `TB` and its winner (`TB 1-0`, `TB draw`), else the engine's.
pub fn position_text(report: &GameReport, index: usize) -> String {
    let Some(eval) = report.evals.get(index).and_then(Option::as_ref) else {
        return String::new();
    };
    match &eval.table {
        Some(table) => match table.winner() {
            Some(shakmaty::Color::White) => "TB 1-0".to_owned(),
            Some(shakmaty::Color::Black) => "TB 0-1".to_owned(),
            None => "TB draw".to_owned(),
        },
        None => eval_text(eval.eval),
    }
}

/// The row of move `index` (from 0) of `report`'s game, its cells in [`HEADS`]' order.
pub fn row(report: &GameReport, index: usize) -> Option<[String; 9]> {
    let played = report.facts.moves.get(index)?;
    let number = played.ply.div_ceil(2);
    let numbered = match played.color {
        shakmaty::Color::White => format!("{number}. {}", played.san),
        shakmaty::Color::Black => format!("{number}... {}", played.san),
    };
    let review = report.review(index);
    let judged = review.and_then(|r| r.judged.as_ref());
    let mut notes: Vec<String> = played
        .touched
        .iter()
        .map(|s| format!("touched {s}"))
        .collect();
    notes.extend(played.rulings.iter().cloned());
    Some([
        numbered,
        played.think_ms.map(seconds).unwrap_or_default(),
        played.in_hand_ms.map(seconds).unwrap_or_default(),
        played
            .clock
            .map(|c| touchmove_core::clock::clk(c.get(played.color)))
            .unwrap_or_default(),
        position_text(report, index + 1),
        judged.map(|j| j.loss_cp.to_string()).unwrap_or_default(),
        judged
            .and_then(|j| j.judgement)
            .map(|j| j.glyph().to_owned())
            .unwrap_or_default(),
        review.and_then(|r| r.best.clone()).unwrap_or_default(),
        notes.join("; "),
    ])
}

/// One row a move of `report`'s game, under a heading line, columns aligned.
pub fn move_table(report: &GameReport) -> String {
    let mut rows: Vec<[String; 9]> = vec![HEADS.map(str::to_owned)];
    rows.extend((0..report.facts.moves.len()).filter_map(|index| row(report, index)));
    let widths: Vec<usize> = (0..HEADS.len())
        .map(|column| {
            rows.iter()
                .filter_map(|row| row.get(column))
                .map(|cell| cell.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in &rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, width)| format!("{cell:<width$}"))
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    for (side, accuracy) in [
        ("white", report.white_accuracy),
        ("black", report.black_accuracy),
    ] {
        if let Some(accuracy) = accuracy {
            out.push_str(&format!("accuracy {side}: {accuracy:.1}\n"));
        }
    }
    out
}
