//! Chessnut boards plugged in by USB (`--port hid` for the first found, `--port hid:PATH` for
//! one device): the board's HID reports as a byte port, as the runner reads every board. A
//! thread of its own reads the reports (a frame each, [`frame_of`]) and writes the session's
//! frames, one output report each, paced as the board needs ([`WritePacer`]). The device is
//! reached through [`HidLink`]: hidapi's device, or an emulated board in the tests (no USB HID
//! device can be made on a test machine). Untested on a real board.

#[cfg(test)]
mod tests;

use std::collections::VecDeque;
use std::io;
use std::pin::Pin;
use std::sync::mpsc::{Receiver, Sender, TryRecvError, channel};
use std::task::{Context, Poll};
use std::time::Instant;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::mpsc::{UnboundedSender, unbounded_channel};

use crate::frames_in::FramesIn;
use touchmove_boards::chessnut::usb::{WritePacer, frame_of, is_chessnut};
use touchmove_core::sensor::Millis;
use touchmove_runtime::runner::Connector;

/// The prefix of a `--port` that names a board plugged in by USB HID.
pub const PREFIX: &str = "hid";

/// The longest a read waits for a report before the writes are looked at again (ms).
const READ_SLICE_MS: Millis = 20;

/// The largest input report read.
const REPORT_SIZE: usize = 256;

/// A HID device's reports, as the transport uses them.
pub trait HidLink: Send + 'static {
    /// Reads one input report into `buf`, waiting up to `timeout_ms`: its length, 0 when none
    /// came.
    fn read_report(&mut self, buf: &mut [u8], timeout_ms: i32) -> io::Result<usize>;
    /// Writes one output report (its first byte the report id: a Chessnut frame's kind).
    fn write_report(&mut self, report: &[u8]) -> io::Result<usize>;
}

impl HidLink for hidapi::HidDevice {
    fn read_report(&mut self, buf: &mut [u8], timeout_ms: i32) -> io::Result<usize> {
        self.read_timeout(buf, timeout_ms).map_err(io::Error::other)
    }

    fn write_report(&mut self, report: &[u8]) -> io::Result<usize> {
        self.write(report).map_err(io::Error::other)
    }
}

/// What `--port` names over USB HID: `Some(None)` for `hid` (the first Chessnut board),
/// `Some(Some(path))` for `hid:PATH`, `None` for another port.
pub fn target(port: &str) -> Option<Option<&str>> {
    match port.strip_prefix(PREFIX)? {
        "" => Some(None),
        rest => rest.strip_prefix(':').map(Some),
    }
}

/// An open board over USB HID, as a byte port: its frames in, the session's frames out.
pub struct HidPort {
    read: FramesIn,
    write: Sender<Vec<u8>>,
}

impl HidPort {
    /// The port of `device`, served by a thread of its own until the port is dropped or the
    /// device fails (unplugged: the port then ends, as an unplugged serial port does).
    pub fn new(device: impl HidLink) -> HidPort {
        let (frames, read) = unbounded_channel();
        let (write, writes) = channel();
        std::thread::spawn(move || serve(device, &frames, &writes));
        HidPort {
            read: FramesIn::new(read),
            write,
        }
    }
}

/// Reads `device`'s reports into `frames` and writes what comes on `writes`, paced, until the
/// port is dropped or the device fails.
fn serve(mut device: impl HidLink, frames: &UnboundedSender<Vec<u8>>, writes: &Receiver<Vec<u8>>) {
    let started = Instant::now();
    let now = || Millis::try_from(started.elapsed().as_millis()).unwrap_or(Millis::MAX);
    let mut pacer = WritePacer::new();
    let mut queued: VecDeque<Vec<u8>> = VecDeque::new();
    let mut buffer = [0u8; REPORT_SIZE];
    loop {
        match writes.try_recv() {
            Ok(frame) => queued.push_back(frame),
            Err(TryRecvError::Disconnected) => return,
            Err(TryRecvError::Empty) => {}
        }
        let at = now();
        if !queued.is_empty() && pacer.next_at(at) <= at {
            if let Some(frame) = queued.pop_front()
                && let Err(error) = device.write_report(&frame)
            {
                tracing::debug!(%error, "the board's HID device cannot be written");
                return;
            }
            // The write's time rounded up, once it is done: the next goes a whole interval
            // after it, never a fraction of a millisecond less.
            pacer.wrote(now().saturating_add(1));
        }
        let wait = if queued.is_empty() {
            READ_SLICE_MS
        } else {
            pacer.next_at(at).saturating_sub(at).min(READ_SLICE_MS)
        };
        let timeout = i32::try_from(wait).unwrap_or(i32::MAX);
        match device.read_report(&mut buffer, timeout) {
            Ok(0) => {}
            Ok(n) => {
                let report = buffer.get(..n).unwrap_or_default();
                if frames.send(frame_of(report).to_vec()).is_err() {
                    return;
                }
            }
            Err(error) => {
                tracing::debug!(%error, "the board's HID device cannot be read");
                return;
            }
        }
    }
}

impl AsyncRead for HidPort {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        self.read.poll_read(cx, buf, |frame| frame)
    }
}

impl AsyncWrite for HidPort {
    /// Takes one frame of the session's (the runner writes each whole) as one output report.
    fn poll_write(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.write.send(buf.to_vec()) {
            Ok(()) => Poll::Ready(Ok(buf.len())),
            Err(_) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::BrokenPipe,
                "the board's USB link is gone",
            ))),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

/// Opens a Chessnut board plugged in by USB: the one at a HID path, or the first found.
pub struct HidConnector {
    path: Option<String>,
}

impl HidConnector {
    /// A connector for the board at `path` (`None`: the first Chessnut board found).
    pub fn new(path: Option<&str>) -> HidConnector {
        HidConnector {
            path: path.map(str::to_owned),
        }
    }
}

impl Connector for HidConnector {
    type Port = HidPort;

    async fn connect(&mut self) -> io::Result<(HidPort, String)> {
        let path = self.path.clone();
        tokio::task::spawn_blocking(move || open(path.as_deref()))
            .await
            .map_err(io::Error::other)?
    }
}

/// The Chessnut boards plugged in by USB, each as `--port` takes it.
pub fn boards_plugged_in() -> io::Result<Vec<String>> {
    let api = hidapi::HidApi::new().map_err(io::Error::other)?;
    Ok(api
        .device_list()
        .filter(|device| is_chessnut(device.vendor_id(), device.product_id(), device.usage_page()))
        .map(|device| format!("{PREFIX}:{}", device.path().to_string_lossy()))
        .collect())
}

/// Opens the board at `path`, or the first Chessnut board's frame interface.
fn open(path: Option<&str>) -> io::Result<(HidPort, String)> {
    let api = hidapi::HidApi::new()
        .map_err(|error| io::Error::other(format!("USB HID devices cannot be listed: {error}")))?;
    let found = api.device_list().find(|device| match path {
        Some(path) => device.path().to_string_lossy() == path,
        None => is_chessnut(device.vendor_id(), device.product_id(), device.usage_page()),
    });
    let Some(info) = found else {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            match path {
                Some(path) => format!("no USB HID device at {path}"),
                None => "no Chessnut board is plugged in by USB (on Linux its /dev/hidraw \
                         device must be readable: see docs/boards.md)"
                    .to_owned(),
            },
        ));
    };
    let name = format!("{PREFIX}:{}", info.path().to_string_lossy());
    let device = info
        .open_device(&api)
        .map_err(|error| io::Error::other(format!("{name}: cannot open: {error}")))?;
    Ok((HidPort::new(device), name))
}
