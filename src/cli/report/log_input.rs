//! A sensor log's games, replayed as `replay` replays it, with what the board showed.

use std::path::Path;

use anyhow::{Context, Result};

use touchmove::output::pgn::PgnTags;
use touchmove::replay::Replay;
use touchmove::sensor_log::{LogRecord, read_log};
use touchmove_matches::recorded::Recorded;
use touchmove_trainer::Timeline;

use super::ReadGame;

/// Every game of the log `text` (read from `path`): its facts, under the tags its header and
/// its events give.
pub fn games(path: &Path, text: &str) -> Result<Vec<ReadGame>> {
    let log = read_log(text).with_context(|| format!("{}: malformed log", path.display()))?;
    let mut replay = Recorded::new(
        Replay::new(touchmove::interpreter::Config::default())
            .with_board_scans(touchmove::registry::scan_of_board),
    );
    let mut timeline = Timeline::new(shakmaty::Chess::default(), false);
    let mut tags = PgnTags::default();
    for record in log.records() {
        match &record {
            LogRecord::Header(header) => {
                let start = header.start_position().unwrap_or_default();
                let set_up = start != shakmaty::Chess::default();
                timeline.starts_from(start, set_up);
                tags.game_id.clone_from(&header.game.id);
                tags.date.clone_from(&header.game.date);
            }
            LogRecord::Event(event) => timeline.sensor(event),
            _ => {}
        }
        replay.record(record, &mut |event| timeline.stream(&event));
        if let Some(view) = replay.turn_view() {
            timeline.turn(&view);
        }
    }
    replay.finish(&mut |event| timeline.stream(&event));
    Ok(timeline
        .finish()
        .into_iter()
        .map(|facts| ReadGame {
            facts,
            tags: tags.clone(),
        })
        .collect())
}
