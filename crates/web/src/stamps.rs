//! When a demo board's reports entered the process: the emulated board's end of the
//! pseudo-terminal notes the instant of every write, and the host's end finds, for each read,
//! when its first byte was written. The latency `/api/stats` gives runs from there.

use std::collections::VecDeque;
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use std::time::Instant;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The writes of one pseudo-terminal not read yet, and the origin of the last read.
#[derive(Debug, Default)]
pub struct WriteStamps(Mutex<Stamps>);

#[derive(Debug, Default)]
struct Stamps {
    /// Bytes written so far.
    written: u64,
    /// Bytes read so far.
    read: u64,
    /// Each write not wholly read: the byte count once it was written, and when.
    writes: VecDeque<(u64, Instant)>,
    /// When the first byte of the last read was written.
    last_read: Option<Instant>,
}

impl WriteStamps {
    fn lock(&self) -> MutexGuard<'_, Stamps> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// When the first byte of the last read was written.
    pub fn last_read(&self) -> Option<Instant> {
        self.lock().last_read
    }

    fn wrote(&self, n: usize, at: Instant) {
        let mut stamps = self.lock();
        stamps.written = stamps.written.saturating_add(n as u64);
        let end = stamps.written;
        stamps.writes.push_back((end, at));
    }

    fn read(&self, n: usize) {
        let mut stamps = self.lock();
        let first = stamps.read;
        stamps.read = first.saturating_add(n as u64);
        let read = stamps.read;
        stamps.last_read = stamps
            .writes
            .iter()
            .find(|(end, _)| *end > first)
            .map(|(_, at)| *at);
        while stamps.writes.front().is_some_and(|(end, _)| *end <= read) {
            stamps.writes.pop_front();
        }
    }
}

/// A port whose writes (the board's end) or reads (the host's end) are noted in `stamps`.
pub struct Stamped<P> {
    port: P,
    stamps: Arc<WriteStamps>,
}

impl<P> Stamped<P> {
    /// `port`, noted in `stamps`.
    pub fn new(port: P, stamps: Arc<WriteStamps>) -> Stamped<P> {
        Stamped { port, stamps }
    }
}

impl<P: AsyncRead + Unpin> AsyncRead for Stamped<P> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.port).poll_read(cx, buf);
        let n = buf.filled().len().saturating_sub(before);
        if n > 0 {
            self.stamps.read(n);
        }
        polled
    }
}

impl<P: AsyncWrite + Unpin> AsyncWrite for Stamped<P> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.port).poll_write(cx, buf);
        if let Poll::Ready(Ok(n)) = polled {
            self.stamps.wrote(n, Instant::now());
        }
        polled
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.port).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.port).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_read_is_as_old_as_its_first_byte() {
        let stamps = WriteStamps::default();
        let start = Instant::now();
        let later = start + Duration::from_millis(5);
        stamps.wrote(3, start);
        stamps.wrote(2, later);
        // Two bytes of the first write, then its last byte and the whole second.
        stamps.read(2);
        assert_eq!(stamps.last_read(), Some(start));
        stamps.read(3);
        assert_eq!(stamps.last_read(), Some(start));
        assert!(stamps.lock().writes.is_empty());
        stamps.wrote(1, later);
        stamps.read(1);
        assert_eq!(stamps.last_read(), Some(later));
    }
}
