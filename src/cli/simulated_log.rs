//! A simulated game written as a sensor log, the rulings it must produce in comments on top.

use std::io::Write;
use std::path::Path;

use anyhow::Result;

use touchmove::event::color_name;
use touchmove::sensor_log::{FlushPolicy, LogHeader, LogWriter};
use touchmove_simulation::pgn_games::PgnGame;
use touchmove_simulation::simulate::{
    BoardKind, ExpectedRuling, HandStyle, RulingKind, SimulatedGame,
};

/// Where a simulated log comes from, for its comments and header.
pub struct Source<'a> {
    /// The PGN file.
    pub pgn: &'a Path,
    /// The game of that file.
    pub game: &'a PgnGame,
    /// The seed the game was simulated with.
    pub seed: u64,
    /// The hand style.
    pub style: &'a HandStyle,
}

/// Writes the comments (source and expected rulings), then the log through [`LogWriter`].
pub fn write_simulated_log(
    mut out: impl Write,
    source: &Source<'_>,
    simulated: &SimulatedGame,
) -> Result<()> {
    writeln!(
        out,
        "# touchmove simulate: {} game {}, seed {}",
        source.pgn.display(),
        source.game.number,
        source.seed
    )?;
    writeln!(
        out,
        "# rulings expected: {}",
        simulated.expected_rulings.len()
    )?;
    for ruling in &simulated.expected_rulings {
        writeln!(out, "{}", expect_line(ruling))?;
    }
    let mut writer = LogWriter::new(out, &header(source), FlushPolicy::WhenAsked)?;
    for event in &simulated.events {
        writer.write_event(event)?;
    }
    writer.into_inner()?;
    Ok(())
}

/// `# expect <ply> <color> <article|illegal> <square>`.
pub fn expect_line(ruling: &ExpectedRuling) -> String {
    let what = match ruling.kind {
        RulingKind::Rule(rule) => rule.article(),
        RulingKind::Illegal => "illegal",
    };
    format!(
        "# expect {} {} {what} {}",
        ruling.ply,
        color_name(ruling.color),
        ruling.square
    )
}

/// `@start` when the game does not start from the standard position; `@board` naming the
/// simulated board.
fn header(source: &Source<'_>) -> LogHeader {
    let board = match source.style.board {
        BoardKind::Occupancy => "simulated occupancy board",
        BoardKind::Identifying => "simulated identifying board",
    };
    let mut header = LogHeader::new(&source.game.start, board);
    if let horizon @ 1.. = source.style.report_horizon_ms() {
        header = header.with_report_horizon(horizon);
    }
    if let scan @ 1.. = source.style.scan_ms() {
        header = header.with_scan(scan);
    }
    header
}
