//! The live runner over a real pseudo-terminal, with a scripted DGT board on the other end:
//! handshake, the start position from the board dump, a move from field updates, a board
//! that falls silent and comes back (reconnect, the move made meanwhile seen in the new dump).

use std::time::Duration;

use shakmaty::{Board, Color, Square};
use tokio_serial::SerialStream;

use touchmove::live::LiveEvent;
use touchmove::runner::{Connector, RunnerConfig};

use crate::common;

use common::dgt_board::{board_that_falls_silent, field_update, run_until_moves, scripted_board};
use common::live::{PtyConnector, sans};

#[tokio::test(flavor = "current_thread")]
async fn a_move_on_the_board_is_decided_over_a_pty() {
    let (board_end, host_end) = common::pty_pair();
    let pawn = Color::White.pawn();
    let updates = vec![
        field_update(Square::E2, None),
        field_update(Square::E4, Some(pawn)),
    ];
    tokio::spawn(scripted_board(board_end, Board::new(), updates));

    let mut connector = PtyConnector {
        host: Some(host_end),
    };
    let config = RunnerConfig {
        give_up_after: Some(Duration::from_millis(200)),
        ..RunnerConfig::default()
    };
    let events = run_until_moves(&mut connector, config, 1, Duration::from_secs(10)).await;
    assert!(
        matches!(events.first(), Some(LiveEvent::Started { .. })),
        "{events:?}"
    );
    assert_eq!(sans(&events), ["e4"]);
}

/// Hands out the host ends of several boards in turn (a board unplugged and plugged back).
struct Replugs {
    hosts: Vec<SerialStream>,
}

impl Connector for Replugs {
    type Port = SerialStream;

    async fn connect(&mut self) -> std::io::Result<(SerialStream, String)> {
        if self.hosts.is_empty() {
            return Err(std::io::Error::other("unplugged"));
        }
        Ok((self.hosts.remove(0), "pty".to_owned()))
    }
}

#[tokio::test(flavor = "current_thread")]
async fn a_move_under_way_when_the_cable_came_out_completes_after_the_replug() {
    let pawn = Color::White.pawn();
    let (first_board, first_host) = common::pty_pair();
    // The pawn leaves e2, then the cable comes out.
    tokio::spawn(board_that_falls_silent(
        first_board,
        Board::new(),
        vec![field_update(Square::E2, None)],
    ));
    // Plugged back: the dump shows the pawn on e4.
    let (second_board, second_host) = common::pty_pair();
    let mut after = Board::new();
    after.discard_piece_at(Square::E2);
    after.set_piece_at(Square::E4, pawn);
    tokio::spawn(scripted_board(second_board, after, Vec::new()));

    let mut connector = Replugs {
        hosts: vec![first_host, second_host],
    };
    let events = run_until_moves(
        &mut connector,
        RunnerConfig::default(),
        1,
        Duration::from_secs(15),
    )
    .await;
    assert_eq!(sans(&events), ["e4"], "{events:?}");
}
