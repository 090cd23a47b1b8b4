//! The live runner over a real pseudo-terminal, with a scripted DGT board on the other end:
//! handshake, the start position from the board dump, a move from field updates, a board
//! that falls silent and comes back (reconnect, the move made meanwhile seen in the new dump).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use shakmaty::{Board, Chess, Color, Square};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::Notify;
use tokio_serial::SerialStream;

use touchmove::dgt::link::DgtLink;
use touchmove::event::EventKind;
use touchmove::interpreter::Config;
use touchmove::live::runner::{Connector, RunnerConfig, run};
use touchmove::live::{LiveEvent, LiveGame};

mod common;

use common::dgt_board::{Collect, dump, field_update, scripted_board};

/// Hands out the host end of a pty pair once; later connections find nothing.
struct PtyConnector {
    host: Option<SerialStream>,
}

impl Connector for PtyConnector {
    type Port = SerialStream;

    async fn connect(&mut self) -> std::io::Result<(SerialStream, String)> {
        self.host
            .take()
            .map(|port| (port, "pty".to_owned()))
            .ok_or_else(|| std::io::Error::other("unplugged"))
    }
}

#[tokio::test(flavor = "current_thread")]
async fn a_move_on_the_board_is_decided_over_a_pty() {
    let (board_end, host_end) = SerialStream::pair().expect("a pty pair");
    let pawn = Color::White.pawn();
    let updates = vec![
        field_update(Square::E2, None),
        field_update(Square::E4, Some(pawn)),
    ];
    tokio::spawn(scripted_board(board_end, Board::new(), updates));

    let events = Arc::new(Mutex::new(Vec::new()));
    let done = Arc::new(Notify::new());
    let mut sink = Collect {
        events: Arc::clone(&events),
        moves_wanted: 1,
        done: Arc::clone(&done),
    };
    let mut connector = PtyConnector {
        host: Some(host_end),
    };
    let mut game = LiveGame::new(Chess::default(), Config::default());
    let mut link = DgtLink::default();
    let config = RunnerConfig {
        give_up_after: Some(Duration::from_millis(200)),
        ..RunnerConfig::default()
    };
    let finished = tokio::time::timeout(
        Duration::from_secs(10),
        run(
            &mut connector,
            &mut link,
            &mut game,
            &mut sink,
            config,
            done.notified(),
        ),
    )
    .await;
    assert!(finished.is_ok(), "the runner did not finish");
    let events = events.lock().expect("not poisoned");
    assert!(
        matches!(events.first(), Some(LiveEvent::Started { .. })),
        "{events:?}"
    );
    let sans: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            LiveEvent::Decision(d) => match &d.kind {
                EventKind::Move(m) => Some(m.san.clone()),
                _ => None,
            },
            _ => None,
        })
        .collect();
    assert_eq!(sans, ["e4"]);
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

/// A board that answers the handshake, reports `updates` in update mode, then goes silent.
async fn board_that_falls_silent(mut board_end: SerialStream, board: Board, updates: Vec<Vec<u8>>) {
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
            let reply = match command {
                0x4d => vec![0x93, 0x00, 0x05, 0x01, 0x02],
                0x42 => dump(&board),
                0x4b => match updates.take() {
                    Some(updates) => updates.concat(),
                    // Update mode again would be a new connection: this board is gone.
                    None => return,
                },
                0x45 if updates.is_none() => {
                    // Keep-alive after the updates: the cable is out. Hold the port, say nothing.
                    std::future::pending::<()>().await;
                    return;
                }
                _ => Vec::new(),
            };
            if board_end.write_all(&reply).await.is_err() {
                return;
            }
        }
    }
}

#[tokio::test(flavor = "current_thread")]
async fn a_move_under_way_when_the_cable_came_out_completes_after_the_replug() {
    let pawn = Color::White.pawn();
    let (first_board, first_host) = SerialStream::pair().expect("a pty pair");
    // The pawn leaves e2, then the cable comes out.
    tokio::spawn(board_that_falls_silent(
        first_board,
        Board::new(),
        vec![field_update(Square::E2, None)],
    ));
    // Plugged back: the dump shows the pawn on e4.
    let (second_board, second_host) = SerialStream::pair().expect("a pty pair");
    let mut after = Board::new();
    after.discard_piece_at(Square::E2);
    after.set_piece_at(Square::E4, pawn);
    tokio::spawn(scripted_board(second_board, after, Vec::new()));

    let events = Arc::new(Mutex::new(Vec::new()));
    let done = Arc::new(Notify::new());
    let mut sink = Collect {
        events: Arc::clone(&events),
        moves_wanted: 1,
        done: Arc::clone(&done),
    };
    let mut connector = Replugs {
        hosts: vec![first_host, second_host],
    };
    let mut game = LiveGame::new(Chess::default(), Config::default());
    let mut link = DgtLink::default();
    let finished = tokio::time::timeout(
        Duration::from_secs(15),
        run(
            &mut connector,
            &mut link,
            &mut game,
            &mut sink,
            RunnerConfig::default(),
            done.notified(),
        ),
    )
    .await;
    assert!(
        finished.is_ok(),
        "the runner did not finish: {:?}",
        events.lock().expect("not poisoned")
    );
    let events = events.lock().expect("not poisoned");
    let moves: Vec<String> = events
        .iter()
        .filter_map(|e| match e {
            LiveEvent::Decision(d) => match &d.kind {
                EventKind::Move(m) => Some(m.san.clone()),
                _ => None,
            },
            _ => None,
        })
        .collect();
    assert_eq!(moves, ["e4"], "{events:?}");
}
