//! A link's incoming frames as a byte stream: what a port whose transport delivers whole frames
//! on a channel (a Bluetooth LE link's notifications, a USB HID device's reports) reads.

use std::collections::VecDeque;
use std::io;
use std::task::{Context, Poll};

use tokio::io::ReadBuf;
use tokio::sync::mpsc::UnboundedReceiver;

/// The frames received, and the bytes of the last not yet read.
pub struct FramesIn {
    frames: UnboundedReceiver<Vec<u8>>,
    pending: VecDeque<u8>,
}

impl FramesIn {
    /// The frames `frames` delivers; the channel closed is the port's end.
    pub fn new(frames: UnboundedReceiver<Vec<u8>>) -> FramesIn {
        FramesIn {
            frames,
            pending: VecDeque::new(),
        }
    }

    /// `AsyncRead::poll_read` over the frames, each passed through `taken` as it arrives.
    pub fn poll_read(
        &mut self,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
        taken: impl FnOnce(Vec<u8>) -> Vec<u8>,
    ) -> Poll<io::Result<()>> {
        if self.pending.is_empty() {
            match self.frames.poll_recv(cx) {
                Poll::Ready(Some(frame)) => self.pending.extend(taken(frame)),
                // The link is gone: the port ends as an unplugged one does.
                Poll::Ready(None) => return Poll::Ready(Ok(())),
                Poll::Pending => return Poll::Pending,
            }
        }
        let n = buf.remaining().min(self.pending.len());
        let bytes: Vec<u8> = self.pending.drain(..n).collect();
        buf.put_slice(&bytes);
        Poll::Ready(Ok(()))
    }
}
