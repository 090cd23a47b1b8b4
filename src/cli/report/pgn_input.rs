//! A PGN file's games (pgn-reader): each mainline with the `[%clk]` after its moves, its tags.

use std::ops::ControlFlow;
use std::path::Path;

use anyhow::{Result, anyhow};
use pgn_reader::{RawComment, RawTag, Reader, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{Chess, Position};

use touchmove::output::pgn::PgnTags;
use touchmove::sensor::Millis;
use touchmove_trainer::pgn_game::PgnGame;

use super::ReadGame;

/// Every game of the PGN `text` (read from `path`); a game that cannot be read is an error
/// naming it, its ply and what was wrong.
pub fn games(path: &Path, text: &str) -> Result<Vec<ReadGame>> {
    let mut reader = Reader::new(text.as_bytes());
    let mut visitor = Games { number: 0 };
    let mut games = Vec::new();
    while let Some(game) = reader
        .read_game(&mut visitor)
        .map_err(|error| anyhow!("{}: {error}", path.display()))?
    {
        let (game, tags, number) = game.map_err(|error| anyhow!("{}: {error}", path.display()))?;
        games.push(ReadGame {
            facts: game.facts(number),
            tags,
        });
    }
    Ok(games)
}

/// Reads games one after another, counting them.
struct Games {
    number: u32,
}

/// A game's tags as read so far.
struct Tags {
    number: u32,
    tags: PgnTags,
    fen: Option<String>,
    increment_ms: Millis,
}

/// A game's mainline as read so far.
struct Moves {
    number: u32,
    tags: PgnTags,
    game: PgnGame,
    position: Chess,
}

type Output = Result<(PgnGame, PgnTags, u32), String>;

impl Visitor for Games {
    type Tags = Tags;
    type Movetext = Moves;
    type Output = Output;

    fn begin_tags(&mut self) -> ControlFlow<Output, Tags> {
        self.number = self.number.saturating_add(1);
        ControlFlow::Continue(Tags {
            number: self.number,
            tags: PgnTags::default(),
            fen: None,
            increment_ms: 0,
        })
    }

    fn tag(&mut self, tags: &mut Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Output> {
        let value = value.decode_utf8_lossy().into_owned();
        let field = match name {
            b"Event" => &mut tags.tags.event,
            b"Site" => &mut tags.tags.site,
            b"Date" => &mut tags.tags.date,
            b"Round" => &mut tags.tags.round,
            b"White" => &mut tags.tags.white,
            b"Black" => &mut tags.tags.black,
            b"TimeControl" => {
                tags.increment_ms = increment_ms(&value);
                &mut tags.tags.time_control
            }
            b"Board" => &mut tags.tags.board,
            b"GameId" => &mut tags.tags.game_id,
            b"FEN" => &mut tags.fen,
            _ => return ControlFlow::Continue(()),
        };
        *field = Some(value);
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<Output, Moves> {
        let start = match &tags.fen {
            None => Chess::default(),
            Some(fen) => match Fen::from_ascii(fen.trim().as_bytes())
                .map_err(|error| error.to_string())
                .and_then(|fen| {
                    touchmove::rules::chess960::from_fen(&fen).map_err(|error| error.to_string())
                }) {
                Ok(start) => start,
                Err(error) => {
                    return ControlFlow::Break(Err(format!(
                        "game {}: bad FEN {fen:?}: {error}",
                        tags.number
                    )));
                }
            },
        };
        ControlFlow::Continue(Moves {
            number: tags.number,
            tags: tags.tags,
            game: PgnGame {
                start: start.clone(),
                set_up: tags.fen.is_some(),
                increment_ms: tags.increment_ms,
                ..PgnGame::default()
            },
            position: start,
        })
    }

    fn san(&mut self, moves: &mut Moves, san_plus: SanPlus) -> ControlFlow<Output> {
        match san_plus.san.to_move(&moves.position) {
            Ok(m) => {
                moves.position.play_unchecked(m);
                moves.game.moves.push((m, None));
                ControlFlow::Continue(())
            }
            Err(error) => ControlFlow::Break(Err(format!(
                "game {}: ply {}: {san_plus}: {error}",
                moves.number,
                moves.game.moves.len() + 1
            ))),
        }
    }

    fn comment(&mut self, moves: &mut Moves, comment: RawComment<'_>) -> ControlFlow<Output> {
        let text = String::from_utf8_lossy(comment.as_bytes());
        if let (Some(clk), Some(last)) = (clk_of(&text), moves.game.moves.last_mut()) {
            last.1 = Some(clk);
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, moves: &mut Moves, outcome: pgn_reader::Outcome) -> ControlFlow<Output> {
        if let pgn_reader::Outcome::Known(known) = outcome {
            moves.game.result = Some(known.as_str().to_owned());
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, moves: Moves) -> Output {
        Ok((moves.game, moves.tags, moves.number))
    }
}

/// The time of a `[%clk h:mm:ss]` (or `h:mm:ss.s`) command in a comment, in ms.
fn clk_of(comment: &str) -> Option<Millis> {
    let rest = comment.split("[%clk").nth(1)?;
    let value = rest.split(']').next()?.trim();
    let mut parts = value.split(':');
    let (hours, minutes, seconds) = (parts.next()?, parts.next()?, parts.next()?);
    let hours: Millis = hours.parse().ok()?;
    let minutes: Millis = minutes.parse().ok()?;
    let seconds: f64 = seconds.parse().ok()?;
    if !(0.0..60.0).contains(&seconds) {
        return None;
    }
    let whole = hours
        .checked_mul(3_600_000)?
        .checked_add(minutes.checked_mul(60_000)?)?;
    // Tenths of seconds at most: the fraction is rounded to the millisecond.
    whole.checked_add((seconds * 1000.0).round() as Millis)
}

/// The increment of a `TimeControl` tag (`300+2`: 2,000 ms; the last period's for
/// `40/5400+30:1800+30`), 0 without one.
fn increment_ms(time_control: &str) -> Millis {
    let last = time_control.rsplit(':').next().unwrap_or_default();
    last.split_once('+')
        .and_then(|(_, increment)| increment.parse::<f64>().ok())
        .filter(|seconds| seconds.is_finite() && *seconds >= 0.0 && *seconds < 3600.0)
        .map_or(0, |seconds| (seconds * 1000.0).round() as Millis)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clk_commands_are_read_to_the_millisecond() {
        assert_eq!(clk_of("[%clk 0:05:02]"), Some(302_000));
        assert_eq!(clk_of("[%eval 0.3] [%clk 1:00:00.5]"), Some(3_600_500));
        assert_eq!(clk_of("no clock"), None);
        assert_eq!(clk_of("[%clk 0:61:99]"), None);
    }

    #[test]
    fn the_increment_is_the_last_period_s() {
        assert_eq!(increment_ms("300+2"), 2_000);
        assert_eq!(increment_ms("40/5400+30:1800+30"), 30_000);
        assert_eq!(increment_ms("600"), 0);
        assert_eq!(increment_ms("-"), 0);
    }
}
