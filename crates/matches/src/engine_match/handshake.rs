//! The engine's handshake awaited before the game: its name and the strength it plays at, or
//! why it cannot play as asked.

use std::time::Duration;

use tokio::sync::mpsc;

use touchmove_engine::{EngineEvent, Strength};
use touchmove_runtime::engine_runner::EngineReport;

/// How long the engine may take to say it is ready.
const ENGINE_START: Duration = Duration::from_secs(20);

/// The strength asked of the engine (`--elo`, `--skill`).
#[derive(Debug, Clone, Copy, Default)]
pub struct AskedStrength {
    /// `--elo`.
    pub elo: Option<u32>,
    /// `--skill`.
    pub skill: Option<i64>,
}

/// Why the engine cannot play the game.
#[derive(Debug, thiserror::Error)]
pub enum EngineNotReady {
    /// It lacks an option the game needs (said in full).
    #[error("{0}")]
    Lacks(String),
    /// Its process was given up on.
    #[error("--engine: {0}")]
    GaveUp(touchmove_runtime::engine_runner::EngineLoss),
    /// It ended before it was ready.
    #[error("--engine: the engine ended before it was ready")]
    Ended,
    /// It did not say it was ready in time.
    #[error("--engine: not ready within {} s", ENGINE_START.as_secs())]
    TimedOut,
}

/// Waits for the engine's handshake: its name and the strength it plays at, or why it cannot
/// play (as asked).
pub async fn engine_ready(
    asked: AskedStrength,
    reports: &mut mpsc::UnboundedReceiver<EngineReport>,
) -> Result<(String, Option<Strength>), EngineNotReady> {
    let mut lacks: Option<(&str, Vec<String>)> = None;
    let ready = tokio::time::timeout(ENGINE_START, async {
        loop {
            match reports.recv().await {
                Some(EngineReport::Said(EngineEvent::Ready { name, strength })) => {
                    let name = name.unwrap_or_else(|| "the engine".to_owned());
                    if let Some((option, declared)) = lacks {
                        return Err(EngineNotReady::Lacks(lacking(
                            asked, &name, option, &declared,
                        )));
                    }
                    return Ok((name, strength));
                }
                Some(EngineReport::Said(EngineEvent::Lacks { option, declared })) => {
                    lacks = Some((option, declared));
                }
                Some(EngineReport::Said(EngineEvent::Notice(text))) => {
                    eprintln!("touchmove: engine: {text}");
                }
                Some(EngineReport::GaveUp { why, .. }) => return Err(EngineNotReady::GaveUp(why)),
                Some(EngineReport::Restarted { why, .. }) => {
                    eprintln!("touchmove: engine: {why}: started again");
                }
                Some(_) => {}
                None => return Err(EngineNotReady::Ended),
            }
        }
    });
    ready.await.map_err(|_| EngineNotReady::TimedOut)?
}

/// Why the engine cannot play as asked: it lacks `option` (it declares `declared`).
fn lacking(asked: AskedStrength, name: &str, option: &str, declared: &[String]) -> String {
    let has = if declared.is_empty() {
        "none".to_owned()
    } else {
        declared.join(", ")
    };
    if option == "UCI_Chess960" {
        return format!(
            "{name} has no `UCI_Chess960` option: it cannot play this game of Chess960. Its \
             options: {has}"
        );
    }
    let asked = match (asked.elo, asked.skill) {
        (Some(elo), _) if option == "UCI_Elo" => format!("--elo {elo}"),
        (_, Some(level)) => format!("--skill {level}"),
        _ => format!("`{option}`"),
    };
    let other = if option == "UCI_Elo" && declared.iter().any(|o| o == "Skill Level") {
        " (it has `Skill Level`: try --skill)"
    } else if option == "Skill Level" && declared.iter().any(|o| o == "UCI_Elo") {
        " (it has `UCI_Elo`: try --elo)"
    } else {
        ""
    };
    format!(
        "{asked}: {name} has no `{option}` option, so it cannot play at the strength asked; \
         leave {asked} out{other}. Its options: {has}"
    )
}
