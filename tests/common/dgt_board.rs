//! A scripted DGT board for the runner tests: it answers the handshake and sends field updates.

use shakmaty::{Board, Piece, Square};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_serial::SerialStream;

use touchmove::dgt::wire::protocol::{code_from_piece, index_from_square};
use touchmove::live::LiveEvent;

use super::live::run_session_until_moves;

/// A BOARD_DUMP of `board`.
pub fn dump(board: &Board) -> Vec<u8> {
    let mut codes = [0u8; 64];
    for square in Square::ALL {
        codes[usize::from(index_from_square(square))] = code_from_piece(board.piece_at(square));
    }
    let mut bytes = vec![0x86, 0x00, 0x43];
    bytes.extend_from_slice(&codes);
    bytes
}

/// A FIELD_UPDATE: `square` now holds `piece`.
pub fn field_update(square: Square, piece: Option<Piece>) -> Vec<u8> {
    vec![
        0x8e,
        0x00,
        0x05,
        index_from_square(square),
        code_from_piece(piece),
    ]
}

/// A DGT board answering the handshake, then making `updates` as field updates once in update
/// mode.
pub async fn scripted_board(board_end: SerialStream, board: Board, updates: Vec<Vec<u8>>) {
    board_script(board_end, board, updates, false).await;
}

/// A board that answers the handshake, reports `updates` in update mode, then goes silent (the
/// cable is out): it holds the port and answers nothing more.
pub async fn board_that_falls_silent(board_end: SerialStream, board: Board, updates: Vec<Vec<u8>>) {
    board_script(board_end, board, updates, true).await;
}

async fn board_script(
    mut board_end: SerialStream,
    board: Board,
    updates: Vec<Vec<u8>>,
    silent_after_updates: bool,
) {
    let mut buffer = [0u8; 64];
    let mut updates = Some(updates);
    loop {
        let Ok(n) = board_end.read(&mut buffer).await else {
            return;
        };
        if n == 0 {
            return;
        }
        for &command in &buffer[..n] {
            if silent_after_updates && updates.is_none() {
                std::future::pending::<()>().await;
            }
            let reply = match command {
                0x4d => vec![0x93, 0x00, 0x05, 0x01, 0x02],
                0x45 => vec![0x91, 0x00, 0x08, b'1', b'2', b'3', b'4', b'5'],
                0x42 => dump(&board),
                0x4b => updates.take().unwrap_or_default().concat(),
                _ => Vec::new(),
            };
            if board_end.write_all(&reply).await.is_err() {
                return;
            }
        }
    }
}

/// Runs the live runner over `connector` with a DGT link and a game from the starting position
/// until `moves_wanted` moves were decided (or `limit` passed: a failure); returns everything
/// the game said.
pub async fn run_until_moves<C: touchmove::runner::Connector>(
    connector: &mut C,
    config: touchmove::runner::RunnerConfig,
    moves_wanted: usize,
    limit: std::time::Duration,
) -> Vec<LiveEvent> {
    let mut link = touchmove::dgt::session::link::DgtLink::default();
    run_session_until_moves(connector, &mut link, config, moves_wanted, limit).await
}
