//! How a board is reached: its serial port, its Bluetooth LE link (`--port ble:NAME` or
//! `ble:ADDRESS`), or USB HID (`--port hid`, `hid:PATH`: a Chessnut board plugged in), each a
//! byte port the runner reads and writes the same way.

use std::io;
use std::path::PathBuf;
use std::pin::Pin;
use std::task::{Context, Poll};

use anyhow::Context as _;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio_serial::SerialStream;

use touchmove::live::Protocol;
use touchmove::runner::Connector;

use super::ble::{BleConnector, BlePort, target};
use super::hid::{HidConnector, HidPort};
use super::serial::SerialConnector;

/// The protocol of the board on `port`: the one `named` (`--protocol`), else a Bluetooth LE
/// board's family (told by its advertisement or its services), else DGT.
pub async fn board_protocol(
    port: Option<&std::path::Path>,
    named: Option<&str>,
) -> anyhow::Result<&'static Protocol> {
    let ble = port.and_then(|port| port.to_str()).and_then(target);
    if port
        .and_then(|port| port.to_str())
        .and_then(super::hid::target)
        .is_some()
    {
        // Only Chessnut boards are reached over USB HID.
        let chessnut = &touchmove::chessnut::PROTOCOL;
        if named.is_some_and(|named| named != chessnut.name) {
            anyhow::bail!("only Chessnut boards (`--protocol chessnut`) are reached over USB HID");
        }
        return Ok(chessnut);
    }
    let protocol = match (named, ble) {
        (Some(named), _) => touchmove::registry::find(named)
            .with_context(|| format!("no board protocol is called `{named}`"))?,
        (None, Some(board)) => super::ble::family(board).await?,
        (None, None) => &touchmove::dgt::PROTOCOL,
    };
    // A board reached only one way is refused at once the other way, not tried again and again.
    if ble.is_none() {
        super::serial::line_of(protocol)?;
    } else if protocol.ble.is_none() {
        anyhow::bail!(
            "a {} board is not reached over Bluetooth LE: give its serial port (`touchmove \
             ports` lists them)",
            protocol.name
        );
    }
    Ok(protocol)
}

/// A board's connector: serial or Bluetooth LE, as its port says.
pub enum BoardConnector {
    /// A serial port (or the first that answers as the protocol's board).
    Serial(SerialConnector),
    /// A Bluetooth LE board.
    Ble(BleConnector),
    /// A Chessnut board plugged in by USB (HID).
    Hid(HidConnector),
}

impl BoardConnector {
    /// The connector of `port` (`ble:…` for a Bluetooth LE board; a path; `None`: the first
    /// serial port that answers) for a board of `protocol`.
    pub fn new(port: Option<PathBuf>, protocol: &'static Protocol) -> BoardConnector {
        let named = port.as_ref().and_then(|port| port.to_str());
        if let Some(path) = named.and_then(super::hid::target) {
            return BoardConnector::Hid(HidConnector::new(path));
        }
        let ble = named.and_then(target).map(str::to_owned);
        match ble {
            Some(target) => BoardConnector::Ble(BleConnector::new(&target, protocol)),
            None => BoardConnector::Serial(SerialConnector::new(port, protocol)),
        }
    }
}

/// A board's open port.
pub enum BoardPort {
    /// A serial port.
    Serial(SerialStream),
    /// A Bluetooth LE link.
    Ble(BlePort),
    /// A USB HID device.
    Hid(HidPort),
}

impl Connector for BoardConnector {
    type Port = BoardPort;

    async fn connect(&mut self) -> io::Result<(BoardPort, String)> {
        match self {
            BoardConnector::Serial(serial) => {
                let (port, name) = serial.connect().await?;
                Ok((BoardPort::Serial(port), name))
            }
            BoardConnector::Ble(ble) => {
                let (port, name) = ble.connect().await?;
                Ok((BoardPort::Ble(port), name))
            }
            BoardConnector::Hid(hid) => {
                let (port, name) = hid.connect().await?;
                Ok((BoardPort::Hid(port), name))
            }
        }
    }

    fn learnt(&mut self, name: &str) -> io::Result<Option<String>> {
        match self {
            BoardConnector::Serial(serial) => serial.learnt(name),
            // A Bluetooth or USB HID board learns nothing.
            BoardConnector::Ble(_) | BoardConnector::Hid(_) => Ok(None),
        }
    }

    fn keep_learnt(&mut self, name: &str, learnt: &str) -> io::Result<Option<String>> {
        match self {
            BoardConnector::Serial(serial) => serial.keep_learnt(name, learnt),
            BoardConnector::Ble(_) | BoardConnector::Hid(_) => Ok(None),
        }
    }
}

impl AsyncRead for BoardPort {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            BoardPort::Serial(port) => Pin::new(port).poll_read(cx, buf),
            BoardPort::Ble(port) => Pin::new(port).poll_read(cx, buf),
            BoardPort::Hid(port) => Pin::new(port).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for BoardPort {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            BoardPort::Serial(port) => Pin::new(port).poll_write(cx, buf),
            BoardPort::Ble(port) => Pin::new(port).poll_write(cx, buf),
            BoardPort::Hid(port) => Pin::new(port).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            BoardPort::Serial(port) => Pin::new(port).poll_flush(cx),
            BoardPort::Ble(port) => Pin::new(port).poll_flush(cx),
            BoardPort::Hid(port) => Pin::new(port).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            BoardPort::Serial(port) => Pin::new(port).poll_shutdown(cx),
            BoardPort::Ble(port) => Pin::new(port).poll_shutdown(cx),
            BoardPort::Hid(port) => Pin::new(port).poll_shutdown(cx),
        }
    }
}
