//! How a board is reached: its serial port, its Bluetooth LE link (`--port ble:NAME` or
//! `ble:ADDRESS`), or USB HID (`--port hid`, `hid:PATH`: a Chessnut board plugged in), each a
//! byte port the runner reads and writes the same way.

use std::io;
use std::path::PathBuf;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio_serial::SerialStream;

use touchmove_boards::live::Protocol;
use touchmove_runtime::runner::Connector;

use crate::ble::{BleConnector, BlePort, target};
use crate::hid::{HidConnector, HidPort};
use crate::serial::SerialConnector;

/// The protocol of the board on `port`: the one `named` (`--protocol`), else a Bluetooth LE
/// board's family (told by its advertisement or its services), else DGT.
pub async fn board_protocol(
    port: Option<&std::path::Path>,
    named: Option<&str>,
) -> Result<&'static Protocol, LinkError> {
    let ble = port.and_then(|port| port.to_str()).and_then(target);
    if port
        .and_then(|port| port.to_str())
        .and_then(crate::hid::target)
        .is_some()
    {
        // Only Chessnut boards are reached over USB HID.
        let chessnut = &touchmove_boards::chessnut::PROTOCOL;
        if named.is_some_and(|named| named != chessnut.name) {
            return Err(LinkError::NotOverHid);
        }
        return Ok(chessnut);
    }
    let protocol = match (named, ble) {
        (Some(named), _) => touchmove_boards::registry::find(named)
            .ok_or_else(|| LinkError::UnknownProtocol(named.to_owned()))?,
        (None, Some(board)) => crate::ble::family(board).await.map_err(LinkError::Family)?,
        (None, None) => &touchmove_boards::dgt::PROTOCOL,
    };
    // A board reached only one way is refused at once the other way, not tried again and again.
    if ble.is_none() {
        crate::serial::line_of(protocol).map_err(LinkError::NoSerialLine)?;
    } else if protocol.ble.is_none() {
        return Err(LinkError::NotOverBle(protocol.name));
    }
    Ok(protocol)
}

/// Why a board's protocol cannot be told, or why its board cannot be reached the way its port
/// names.
#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    /// `--protocol` names no protocol of the registry.
    #[error("no board protocol is called `{0}`")]
    UnknownProtocol(String),
    /// A board plugged in by USB HID that is not a Chessnut board.
    #[error("only Chessnut boards (`--protocol chessnut`) are reached over USB HID")]
    NotOverHid,
    /// A Bluetooth LE board whose family could not be told.
    #[error(transparent)]
    Family(std::io::Error),
    /// A serial port named for a protocol with no serial line.
    #[error(transparent)]
    NoSerialLine(std::io::Error),
    /// A Bluetooth LE board named for a protocol reached only by wire.
    #[error(
        "a {0} board is not reached over Bluetooth LE: give its serial port (`touchmove ports` \
         lists them)"
    )]
    NotOverBle(&'static str),
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
        if let Some(path) = named.and_then(crate::hid::target) {
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
