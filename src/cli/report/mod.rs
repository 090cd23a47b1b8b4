//! `touchmove report`: a game's report from its recording (a sensor log or a PGN file), with
//! an engine's judgement when asked; the annotated PGN, the per-move table, the chart, a page.
//! The report is the trainer's (sans-IO); here the files are read and written and the engine
//! is run.

mod engine;
mod log_input;
mod pgn_input;

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};

use touchmove::output::pgn::PgnTags;
use touchmove_runtime::files::paths::{Existing, check_output};
use touchmove_runtime::files::whole::write_whole;
use touchmove_runtime::tablebase::Tablebases;
use touchmove_trainer::annotated::annotated_pgn;
use touchmove_trainer::chart::chart_svg;
use touchmove_trainer::html::report_html;
use touchmove_trainer::table::move_table;
use touchmove_trainer::{GameFacts, GameReport};

use super::args::ReportArgs;

/// A game read, with the tags its PGN is written under.
pub struct ReadGame {
    /// What the board saw of it (or what its PGN said).
    pub facts: GameFacts,
    /// Its tags.
    pub tags: PgnTags,
}

/// Runs `touchmove report`.
pub fn run(args: &ReportArgs) -> Result<()> {
    for (path, what) in [
        (&args.pgn, "--pgn"),
        (&args.svg, "--svg"),
        (&args.html, "--html"),
    ] {
        if let Some(path) = path {
            check_output(path, what, Existing::Replace)?;
        }
    }
    let tables = args.syzygy.as_deref().map(Tablebases::open).transpose()?;
    let games = read_games(&args.input)?;
    let reports = match &args.engine {
        Some(command) => engine::judge(command, args.depth, tables.as_ref(), games)?,
        None => games
            .into_iter()
            .map(|game| (judged_by_tables(game.facts, tables.as_ref()), game.tags))
            .collect(),
    };
    write_outputs(args, &reports)
}

/// The report of `facts` without an engine: the analyses recorded beside the board, and the
/// tables' results where they hold a position.
fn judged_by_tables(facts: GameFacts, tables: Option<&Tablebases>) -> GameReport {
    match tables {
        Some(tables) => GameReport::with_tables(facts, |position| tables.probe(position)),
        None => GameReport::of_game(facts),
    }
}

/// The games of the file at `path`: a sensor log's, or a PGN file's.
fn read_games(path: &Path) -> Result<Vec<ReadGame>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("{}: cannot read", path.display()))?;
    let games = if text
        .trim_start_matches('\u{feff}')
        .starts_with("touchmove-log")
    {
        log_input::games(path, &text)?
    } else {
        pgn_input::games(path, &text)?
    };
    anyhow::ensure!(!games.is_empty(), "{}: no game in it", path.display());
    Ok(games)
}

/// The annotated PGN (to standard output, or `--pgn` and then the table to standard output),
/// the chart, the page.
fn write_outputs(args: &ReportArgs, reports: &[(GameReport, PgnTags)]) -> Result<()> {
    let pgns: Vec<String> = reports
        .iter()
        .map(|(report, tags)| annotated_pgn(report, tags))
        .collect();
    let charts = reports
        .iter()
        .map(|(report, _)| chart_svg(report))
        .collect::<Result<Vec<String>, _>>()?;
    let mut stdout = std::io::stdout().lock();
    match &args.pgn {
        Some(path) => {
            write_whole(path, &pgns.join("\n"))?;
            for (report, _) in reports {
                writeln!(stdout, "Game {}", report.facts.number)?;
                stdout.write_all(move_table(report).as_bytes())?;
            }
        }
        None => stdout.write_all(pgns.join("\n").as_bytes())?,
    }
    stdout.flush()?;
    if let (Some(path), Some(chart)) = (&args.svg, charts.last()) {
        write_whole(path, chart)?;
    }
    if let Some(path) = &args.html {
        let title = format!("touchmove report · {}", args.input.display());
        let games: Vec<(&GameReport, &str, &str)> = reports
            .iter()
            .zip(&charts)
            .zip(&pgns)
            .map(|(((report, _), chart), pgn)| (report, chart.as_str(), pgn.as_str()))
            .collect();
        write_whole(path, &report_html(&title, &games))?;
    }
    Ok(())
}
