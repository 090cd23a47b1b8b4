//! Faults a pseudo-terminal cannot produce, scripted with `mockall`: a write that fails, and a
//! port that vanishes between open and read. The runner treats both as a lost board: it
//! reconnects, and the game goes on from the next link.

use crate::common;

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use mockall::mock;
use shakmaty::{Board, Color, Square};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio_serial::SerialStream;

use common::dgt_board::{field_update, run_until_moves, scripted_board};
use common::live::sans;
use touchmove::runner::{Connector, RunnerConfig};

mock! {
    /// The byte-level operations of a serial port.
    pub Wire {
        fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize>;
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize>;
    }
}

/// A link: a scripted faulty wire, or a real pseudo-terminal.
enum Port {
    Faulty(MockWire),
    Pty(SerialStream),
}

impl AsyncRead for Port {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Port::Faulty(wire) => {
                let mut bytes = vec![0u8; buf.remaining()];
                Poll::Ready(wire.read(&mut bytes).map(|n| buf.put_slice(&bytes[..n])))
            }
            Port::Pty(pty) => Pin::new(pty).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Port {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bytes: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Port::Faulty(wire) => Poll::Ready(wire.write(bytes)),
            Port::Pty(pty) => Pin::new(pty).poll_write(cx, bytes),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Port::Faulty(_) => Poll::Ready(Ok(())),
            Port::Pty(pty) => Pin::new(pty).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Port::Faulty(_) => Poll::Ready(Ok(())),
            Port::Pty(pty) => Pin::new(pty).poll_shutdown(cx),
        }
    }
}

/// Hands out the links in order, counting the attempts.
struct Links {
    ports: Vec<Port>,
    attempts: Arc<Mutex<usize>>,
}

impl Connector for Links {
    type Port = Port;

    async fn connect(&mut self) -> io::Result<(Port, String)> {
        *self.attempts.lock().expect("not poisoned") += 1;
        if self.ports.is_empty() {
            return Err(io::Error::other("unplugged"));
        }
        Ok((self.ports.remove(0), "link".to_owned()))
    }
}

/// Runs the runner over `first` and then a healthy pty board on which White plays e4.
async fn after_a_fault(first: MockWire) -> (Vec<String>, usize) {
    let (board, host) = common::pty_pair();
    let pawn = Color::White.pawn();
    let updates = vec![
        field_update(Square::E2, None),
        field_update(Square::E4, Some(pawn)),
    ];
    tokio::spawn(scripted_board(board, Board::new(), updates));
    let attempts = Arc::new(Mutex::new(0));
    let mut connector = Links {
        ports: vec![Port::Faulty(first), Port::Pty(host)],
        attempts: Arc::clone(&attempts),
    };
    let events = run_until_moves(
        &mut connector,
        RunnerConfig::default(),
        1,
        Duration::from_secs(10),
    )
    .await;
    let moves = sans(&events);
    let attempts = *attempts.lock().expect("not poisoned");
    (moves, attempts)
}

#[tokio::test(flavor = "current_thread")]
async fn a_write_that_fails_is_a_lost_link() {
    let mut wire = MockWire::new();
    wire.expect_write().times(1).returning(|_| {
        Err(io::Error::new(
            io::ErrorKind::BrokenPipe,
            "the cable came out",
        ))
    });
    wire.expect_read().times(0);
    let (moves, attempts) = after_a_fault(wire).await;
    assert_eq!(
        attempts, 2,
        "the runner did not reconnect after the failed write"
    );
    assert_eq!(moves, ["e4"]);
}

#[tokio::test(flavor = "current_thread")]
async fn a_port_that_vanishes_between_open_and_read_is_a_lost_link() {
    let mut wire = MockWire::new();
    wire.expect_write().returning(|bytes| Ok(bytes.len()));
    wire.expect_read()
        .times(1)
        .returning(|_| Err(io::Error::from_raw_os_error(6))); // ENXIO: no such device
    let (moves, attempts) = after_a_fault(wire).await;
    assert_eq!(
        attempts, 2,
        "the runner did not reconnect after the port vanished"
    );
    assert_eq!(moves, ["e4"]);
}
