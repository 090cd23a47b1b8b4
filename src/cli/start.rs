//! The position a game starts from, as the command line gives it (`watch`, `serve`).

use anyhow::{Context, Result};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// The position the game starts from: `--start FEN`, else the standard one.
pub fn start_position(fen: Option<&str>) -> Result<Chess> {
    let Some(fen) = fen else {
        return Ok(Chess::default());
    };
    let parsed =
        Fen::from_ascii(fen.as_bytes()).with_context(|| format!("--start {fen}: not a FEN"))?;
    parsed
        .into_position(CastlingMode::Standard)
        .map_err(|error| anyhow::anyhow!("--start {fen}: not a playable position: {error}"))
}
