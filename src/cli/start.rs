//! The position a game starts from, as the command line gives it (`watch`, `serve`).

use anyhow::{Context, Result};
use shakmaty::Chess;
use shakmaty::fen::Fen;

/// The position the game starts from: `--start FEN`, `--chess960 N`, else the standard one.
pub fn start_position(fen: Option<&str>, chess960: Option<u16>) -> Result<Chess> {
    if let Some(number) = chess960 {
        return touchmove::rules::chess960::position(number)
            .with_context(|| format!("--chess960 {number}: give a number from 0 to 959"));
    }
    let Some(fen) = fen else {
        return Ok(Chess::default());
    };
    let parsed =
        Fen::from_ascii(fen.as_bytes()).with_context(|| format!("--start {fen}: not a FEN"))?;
    touchmove::rules::chess960::from_fen(&parsed)
        .map_err(|error| anyhow::anyhow!("--start {fen}: not a playable position: {error}"))
}
