//! Serial ports: opening the board's port with its protocol's line settings
//! ([`touchmove_boards::live::SerialLine`]), listing ports, and finding a board by its protocol's probe
//! ([`touchmove_boards::live::Probe`]).

use std::io;
use std::path::PathBuf;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_serial::{DataBits, FlowControl, Parity, SerialPortBuilderExt, SerialStream, StopBits};

use touchmove_boards::live::{Parity as LineParity, Probe, Protocol, SerialLine};
use touchmove_runtime::runner::Connector;

/// How long a port has to answer a probe.
const PROBE_TIMEOUT: Duration = Duration::from_millis(800);

/// The most a probe reads before giving up on a port that talks without saying what it is.
const PROBE_MAX_BYTES: usize = 4096;

/// Opens the board's port with its protocol's line settings: the one given, or the first port
/// on which the protocol's probe recognises a board.
///
/// A port that vanished (its device gone: a cable pulled, a pseudo-terminal closed) and came
/// back must prove that a board of the protocol answers there before it is watched again: the
/// kernel gives a freed name (`/dev/pts/N`, `/dev/ttyUSB0`) to the next device, which may be
/// another program's. Until the protocol's probe is answered, nothing but the probe's request
/// is written to it.
pub struct SerialConnector {
    path: Option<PathBuf>,
    protocol: &'static Protocol,
    /// The port was missing at the last attempt to open it, after it had been open.
    vanished: bool,
    /// The port has been opened once.
    opened: bool,
}

impl SerialConnector {
    /// A connector for a board of `protocol` on `path`, or on whichever port its probe
    /// recognises one when `None`.
    pub fn new(path: Option<PathBuf>, protocol: &'static Protocol) -> SerialConnector {
        SerialConnector {
            path,
            protocol,
            vanished: false,
            opened: false,
        }
    }
}

impl Connector for SerialConnector {
    type Port = SerialStream;

    /// What the board's session learnt, as kept for the board on the port `name`
    /// ([`crate::learnt`]).
    fn learnt(&mut self, name: &str) -> io::Result<Option<String>> {
        match crate::learnt::place(self.protocol.name, name) {
            Some(path) => crate::learnt::read(&path),
            None => Ok(None),
        }
    }

    /// Keeps what the board's session learnt for the board on the port `name`.
    fn keep_learnt(&mut self, name: &str, learnt: &str) -> io::Result<Option<String>> {
        let Some(path) = crate::learnt::place(self.protocol.name, name) else {
            return Ok(None);
        };
        crate::learnt::write(&path, learnt)?;
        Ok(Some(path.display().to_string()))
    }

    async fn connect(&mut self) -> io::Result<(SerialStream, String)> {
        let line = line_of(self.protocol)?;
        let path = match &self.path {
            Some(path) => path.display().to_string(),
            None => find_board(self.protocol).await?,
        };
        let mut port = match open(&path, &line) {
            Ok(port) => port,
            Err(error) => {
                let error = unopened(&path, &error);
                self.vanished |= self.opened && error.kind() == io::ErrorKind::NotFound;
                return Err(error);
            }
        };
        if self.vanished
            && let Some(probe) = &self.protocol.probe
            && ask(&mut port, probe).await?.is_none()
        {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{path}: no {} board answers there since the port came back (another \
                     device may have its name now)",
                    self.protocol.name
                ),
            ));
        }
        self.vanished = false;
        self.opened = true;
        Ok((port, path))
    }
}

/// The serial line of `protocol`'s boards, or why none of its boards is reached through a
/// serial port.
pub fn line_of(protocol: &Protocol) -> io::Result<SerialLine> {
    protocol.line.ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::Unsupported,
            format!(
                "a {} board is not reached through a serial port: it speaks Bluetooth LE \
                 (give --port ble:NAME; `touchmove ports` lists the boards in range)",
                protocol.name
            ),
        )
    })
}

/// Why the port at `path` could not be opened, as the user reads it: the path and the reason
/// (`/dev/ttyUSB9: no such port`).
fn unopened(path: &str, error: &io::Error) -> io::Error {
    let missing = std::fs::metadata(path).is_err() || error.kind() == io::ErrorKind::NotFound;
    if missing {
        return io::Error::new(io::ErrorKind::NotFound, format!("{path}: no such port"));
    }
    let reason = if error.kind() == io::ErrorKind::PermissionDenied
        || error.to_string().contains("Permission denied")
    {
        "permission denied (add yourself to the dialout group: `sudo usermod -aG dialout $USER`, \
         then log in again)"
            .to_owned()
    } else {
        error.to_string()
    };
    io::Error::new(error.kind(), format!("{path}: {reason}"))
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

/// The first port on which `protocol`'s probe recognises a board.
async fn find_board(protocol: &Protocol) -> io::Result<String> {
    let Some(probe_of) = &protocol.probe else {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!(
                "a {} board cannot be found by asking the ports: give --port PATH",
                protocol.name
            ),
        ));
    };
    let line = line_of(protocol)?;
    for name in port_names()? {
        if let Ok(Some(_)) = probe(&name, &line, probe_of).await {
            return Ok(name);
        }
    }
    Err(io::Error::new(
        io::ErrorKind::NotFound,
        format!(
            "no serial port answers as a {} board (is it plugged in? see `touchmove ports`)",
            protocol.name
        ),
    ))
}

/// Opens `name` with `line`, sends the probe's request and reads until the probe recognises
/// a board (what it is), the port falls silent for `PROBE_TIMEOUT` (`None`), or it has sent
/// `PROBE_MAX_BYTES` without saying what it is (`None`).
pub async fn probe(name: &str, line: &SerialLine, probe: &Probe) -> io::Result<Option<String>> {
    let mut port = open(name, line)?;
    ask(&mut port, probe).await
}

/// Sends the probe's request on the open `port` and reads as [`probe`] does.
async fn ask(port: &mut SerialStream, probe: &Probe) -> io::Result<Option<String>> {
    port.write_all(&(probe.request)()).await?;
    let mut received = Vec::new();
    let mut buffer = [0u8; 256];
    while received.len() < PROBE_MAX_BYTES {
        let read = tokio::time::timeout(PROBE_TIMEOUT, port.read(&mut buffer)).await;
        let n = match read {
            Ok(read) => read?,
            Err(_elapsed) => return Ok(None),
        };
        if n == 0 {
            return Ok(None);
        }
        received.extend_from_slice(buffer.get(..n).unwrap_or_default());
        if let Some(what) = (probe.recognise)(&received) {
            return Ok(Some(what));
        }
    }
    Ok(None)
}
