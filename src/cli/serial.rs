//! Serial ports: opening the board's port with its protocol's line settings
//! ([`touchmove::live::SerialLine`]), listing ports, and finding a DGT board by asking each port
//! for its version.

use std::io;
use std::path::PathBuf;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_serial::{DataBits, FlowControl, Parity, SerialPortBuilderExt, SerialStream, StopBits};

use touchmove::dgt::codec::{Decoded, DgtDecoder};
use touchmove::dgt::command::{HostCommand, encode};
use touchmove::dgt::message::BoardMessage;
use touchmove::live::runner::Connector;
use touchmove::live::{Parity as LineParity, SerialLine};

/// How long a port has to answer the version request.
const PROBE_TIMEOUT: Duration = Duration::from_millis(800);

/// Opens the board's port with its line settings: the one given, or the first port that
/// answers as a DGT board.
pub struct SerialConnector {
    path: Option<PathBuf>,
    line: SerialLine,
}

impl SerialConnector {
    /// A connector for a DGT board on `path`, or on whichever port answers as one when `None`.
    pub fn dgt(path: Option<PathBuf>) -> SerialConnector {
        SerialConnector {
            path,
            line: touchmove::dgt::PROTOCOL.line,
        }
    }

    /// A connector for the board on `path`, opened with `line` (no port is searched for).
    pub fn at(path: PathBuf, line: SerialLine) -> SerialConnector {
        SerialConnector {
            path: Some(path),
            line,
        }
    }
}

impl Connector for SerialConnector {
    type Port = SerialStream;

    async fn connect(&mut self) -> io::Result<(SerialStream, String)> {
        let path = match &self.path {
            Some(path) => path.display().to_string(),
            None => find_dgt_board().await?,
        };
        let port = open(&path, &self.line)?;
        Ok((port, path))
    }
}

/// Opens `path` with `line`'s settings, no flow control.
pub fn open(path: &str, line: &SerialLine) -> io::Result<SerialStream> {
    let data_bits = match line.data_bits {
        5 => DataBits::Five,
        6 => DataBits::Six,
        7 => DataBits::Seven,
        _ => DataBits::Eight,
    };
    let parity = match line.parity {
        LineParity::None => Parity::None,
        LineParity::Odd => Parity::Odd,
        LineParity::Even => Parity::Even,
    };
    let stop_bits = if line.stop_bits == 2 {
        StopBits::Two
    } else {
        StopBits::One
    };
    tokio_serial::new(path, line.baud_rate)
        .data_bits(data_bits)
        .parity(parity)
        .stop_bits(stop_bits)
        .flow_control(FlowControl::None)
        .open_native_async()
        .map_err(io::Error::other)
}

/// The serial ports this machine has, by name.
pub fn port_names() -> io::Result<Vec<String>> {
    let ports = serialport::available_ports().map_err(io::Error::other)?;
    Ok(ports.into_iter().map(|port| port.port_name).collect())
}

/// The first port that answers the version request as a DGT board.
async fn find_dgt_board() -> io::Result<String> {
    for name in port_names()? {
        if let Ok(Some(_)) = probe(&name).await {
            return Ok(name);
        }
    }
    Err(io::Error::new(
        io::ErrorKind::NotFound,
        "no serial port answers as a DGT board (is it plugged in? see `touchmove ports`)",
    ))
}

/// Asks `name` for its version: `Some((main, sub))` when a DGT board answers.
pub async fn probe(name: &str) -> io::Result<Option<(u8, u8)>> {
    let mut port = open(name, &touchmove::dgt::PROTOCOL.line)?;
    port.write_all(&encode(&HostCommand::SendVersion)).await?;
    let mut decoder = DgtDecoder::new();
    let mut buffer = [0u8; 64];
    let answer = tokio::time::timeout(PROBE_TIMEOUT, async {
        loop {
            let n = port.read(&mut buffer).await?;
            if n == 0 {
                return Ok::<_, io::Error>(None);
            }
            decoder.push(buffer.get(..n).unwrap_or_default());
            while let Some(decoded) = decoder.poll() {
                if let Decoded::Message(BoardMessage::Version { main, sub }) = decoded {
                    return Ok(Some((main, sub)));
                }
            }
        }
    })
    .await;
    match answer {
        Ok(result) => result,
        Err(_elapsed) => Ok(None),
    }
}
