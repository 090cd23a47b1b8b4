//! Every position of the games searched by a UCI engine, one after another (one thread, a fixed
//! depth: the same game gives the same evaluations), and the games judged.

use std::io::IsTerminal;

use anyhow::{Result, bail};
use shakmaty::Chess;
use tokio::sync::mpsc;

use touchmove::output::pgn::PgnTags;
use touchmove_engine::{EngineConfig, EngineEvent, Score, SearchLimits};
use touchmove_runtime::engine_runner::{self, EngineCommand, EngineReport, EngineRequest};
use touchmove_runtime::tablebase::Tablebases;
use touchmove_trainer::{GameReport, PositionEval};

use super::ReadGame;

/// The games judged by the engine `command` searching each position to `depth`.
pub fn judge(
    command: &str,
    depth: u8,
    tables: Option<&Tablebases>,
    games: Vec<ReadGame>,
) -> Result<Vec<(GameReport, PgnTags)>> {
    let Some(engine) = EngineCommand::parse(command) else {
        bail!("--engine: no command given");
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let (requests, asked) = mpsc::unbounded_channel();
        let (said, mut reports) = mpsc::unbounded_channel();
        let config = EngineConfig {
            // One thread and a small fixed hash: a search's result depends on the position alone.
            options: vec![
                ("Threads".to_owned(), "1".to_owned()),
                ("Hash".to_owned(), "16".to_owned()),
            ],
            ..EngineConfig::default()
        };
        let running = tokio::spawn(engine_runner::run(engine, config, asked, said));
        let total: usize = games.iter().map(|game| game.facts.moves.len() + 1).sum();
        let mut progress = Progress::new(total);
        let mut judged = Vec::new();
        let mut name = None;
        for game in games {
            let mut evals = Vec::new();
            let positions = game.facts.positions();
            for index in 0..=game.facts.moves.len() {
                progress.step();
                let Some((start, moves)) = game.facts.line(index) else {
                    break;
                };
                let position = positions.get(index).cloned().unwrap_or_default();
                let table = tables.and_then(|tables| tables.probe(&position));
                let eval = match (PositionEval::of_finished(&position), table) {
                    (Some(eval), _) => Some(eval),
                    (None, Some(table)) => Some(PositionEval::of_table(table)),
                    (None, None) => {
                        let limits = SearchLimits::Depth(depth);
                        if requests
                            .send(EngineRequest::Go {
                                start,
                                moves,
                                limits,
                            })
                            .is_err()
                        {
                            bail!("the engine's runner ended");
                        }
                        search(&mut reports, &position, &mut name).await?
                    }
                };
                evals.push(eval);
            }
            let engine = format!("{}, depth {depth}", name.as_deref().unwrap_or(command));
            judged.push((GameReport::judged(game.facts, evals, engine), game.tags));
        }
        progress.done();
        drop(requests);
        let _ = running.await;
        Ok(judged)
    })
}

/// What the engine said of `position` once its search ended: its last score, its best move.
async fn search(
    reports: &mut mpsc::UnboundedReceiver<EngineReport>,
    position: &Chess,
    name: &mut Option<String>,
) -> Result<Option<PositionEval>> {
    let mut last: Option<(Score, Option<u8>)> = None;
    while let Some(report) = reports.recv().await {
        match report {
            EngineReport::Said(EngineEvent::Ready { name: said, .. }) => *name = said,
            EngineReport::Said(EngineEvent::Info {
                position: searched,
                depth,
                score: Some(score),
                ..
            }) if *searched == *position => last = Some((score, depth)),
            EngineReport::Said(EngineEvent::BestMove { chess_move, .. }) => {
                let (cp, mate, depth) = match last {
                    Some((Score::Centipawns(cp), depth)) => (Some(cp), None, depth),
                    Some((Score::Mate(moves), depth)) => (None, Some(moves), depth),
                    None => (None, None, None),
                };
                return Ok(PositionEval::of_search(
                    position,
                    cp,
                    mate,
                    Some(&chess_move),
                    depth,
                ));
            }
            EngineReport::Said(EngineEvent::NoMove) => return Ok(None),
            EngineReport::GaveUp { why, .. } => bail!("{why}"),
            EngineReport::Restarted { why, attempt } => {
                tracing::warn!("{why}: the engine was started again ({attempt})");
            }
            EngineReport::Said(_) => {}
        }
    }
    bail!("the engine's runner ended")
}

/// How far the search has gone, on standard error when it is a terminal.
struct Progress {
    total: usize,
    done: usize,
    shown: bool,
}

impl Progress {
    fn new(total: usize) -> Progress {
        Progress {
            total,
            done: 0,
            shown: std::io::stderr().is_terminal(),
        }
    }

    fn step(&mut self) {
        self.done = self.done.saturating_add(1);
        if self.shown {
            eprint!("\rjudging position {} of {}", self.done, self.total);
        }
    }

    fn done(&self) {
        if self.shown {
            eprintln!();
        }
    }
}
