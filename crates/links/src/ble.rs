//! Bluetooth LE boards: finding one by name or address, connecting, subscribing to its
//! notifications and writing its commands at its pace, through btleplug (BlueZ on Linux,
//! CoreBluetooth on macOS, WinRT on Windows). The link is a byte port like a serial one: what
//! the board notifies is read, in the order it came; each write is one of the session's
//! commands. A dropped link ends the port (read returns nothing more), as an unplugged cable
//! does, and the runner connects again.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use btleplug::api::{
    Central, CentralEvent, Characteristic, Manager as _, Peripheral as _, ScanFilter, WriteType,
};
use btleplug::platform::{Adapter, Manager, Peripheral};
use futures_util::StreamExt;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

use touchmove_boards::live::{BleProfile, Protocol};
use touchmove_core::decode::hex;
use touchmove_runtime::runner::Connector;

use crate::frames_in::FramesIn;

/// How a port names a Bluetooth LE board: `ble:NAME` or `ble:ADDRESS`.
pub const PREFIX: &str = "ble:";

/// How long a board is looked for before it counts as not in range.
const SCAN: Duration = Duration::from_secs(10);

/// How often the boards in range are looked through while scanning.
const SCAN_POLL: Duration = Duration::from_millis(200);

/// The board a `ble:` port names, if `port` is one.
pub fn target(port: &str) -> Option<&str> {
    port.strip_prefix(PREFIX).filter(|name| !name.is_empty())
}

/// Whether `text` is a Bluetooth address (`C0:FF:EE:00:00:01`).
fn is_address(text: &str) -> bool {
    let parts: Vec<&str> = text.split(':').collect();
    parts.len() == 6
        && parts
            .iter()
            .all(|part| part.len() == 2 && part.chars().all(|c| c.is_ascii_hexdigit()))
}

/// Connects to the Bluetooth LE board a `ble:` port names, with its protocol's profile.
pub struct BleConnector {
    target: String,
    protocol: &'static Protocol,
    adapter: Option<Adapter>,
}

impl BleConnector {
    /// A connector to the board `target` names (its advertised name or its address).
    pub fn new(target: &str, protocol: &'static Protocol) -> BleConnector {
        BleConnector {
            target: target.to_owned(),
            protocol,
            adapter: None,
        }
    }

    fn profile(&self) -> io::Result<BleProfile> {
        self.protocol.ble.ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::Unsupported,
                format!(
                    "a {} board is not reached over Bluetooth LE (give its serial port)",
                    self.protocol.name
                ),
            )
        })
    }

    async fn adapter(&mut self) -> io::Result<Adapter> {
        if let Some(adapter) = &self.adapter {
            return Ok(adapter.clone());
        }
        let adapter = first_adapter().await?;
        self.adapter = Some(adapter.clone());
        Ok(adapter)
    }
}

/// The machine's first Bluetooth adapter.
pub async fn first_adapter() -> io::Result<Adapter> {
    let manager = Manager::new().await.map_err(|error| bluetooth(&error))?;
    let adapters = manager
        .adapters()
        .await
        .map_err(|error| bluetooth(&error))?;
    adapters.into_iter().next().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::NotFound,
            "no Bluetooth adapter (is Bluetooth switched on? on Linux: is bluetoothd running?)",
        )
    })
}

/// A Bluetooth failure in the user's words.
fn bluetooth(error: &btleplug::Error) -> io::Error {
    io::Error::other(format!("Bluetooth: {error}"))
}

/// The board in range whose name or address is `target`, scanning up to [`SCAN`] for it.
async fn find(adapter: &Adapter, target: &str) -> io::Result<Peripheral> {
    let by_address = is_address(target);
    let deadline = tokio::time::Instant::now() + SCAN;
    let mut scanning = false;
    loop {
        for peripheral in adapter
            .peripherals()
            .await
            .map_err(|error| bluetooth(&error))?
        {
            let Ok(Some(properties)) = peripheral.properties().await else {
                continue;
            };
            let found = if by_address {
                properties.address.to_string().eq_ignore_ascii_case(target)
            } else {
                properties
                    .local_name
                    .as_deref()
                    .is_some_and(|name| name.trim() == target.trim())
            };
            if found {
                if scanning {
                    let _ = adapter.stop_scan().await;
                }
                return Ok(peripheral);
            }
        }
        if !scanning {
            adapter
                .start_scan(ScanFilter::default())
                .await
                .map_err(|error| bluetooth(&error))?;
            scanning = true;
        }
        if tokio::time::Instant::now() >= deadline {
            let _ = adapter.stop_scan().await;
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!(
                    "ble:{target}: no such board in range (is it switched on and not connected \
                     to another host? see `touchmove ports`)"
                ),
            ));
        }
        tokio::time::sleep(SCAN_POLL).await;
    }
}

/// How long `ports` listens for Bluetooth LE boards.
const LISTEN: Duration = Duration::from_secs(3);

/// A Bluetooth LE board in range, as `ports` lists it.
pub struct InRange {
    /// Its advertised name, if any.
    pub name: Option<String>,
    /// Its address.
    pub address: String,
    /// The protocol whose profile recognises it, if one does.
    pub family: Option<&'static str>,
    /// Its signal strength (dBm), if known.
    pub rssi: Option<i16>,
}

impl std::fmt::Display for InRange {
    /// `ble:NAME  ADDRESS  family  RSSI` (the port by address when it advertises no name).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let port = self.name.as_deref().unwrap_or(&self.address);
        write!(f, "{PREFIX}{port}\t{}\t", self.address)?;
        match self.family {
            Some(family) => write!(f, "--protocol {family}")?,
            None => write!(f, "no board family touchmove knows")?,
        }
        match self.rssi {
            Some(rssi) => write!(f, "\t{rssi} dBm"),
            None => Ok(()),
        }
    }
}

/// The Bluetooth LE boards in range, after listening for `LISTEN`; the boards of a family
/// touchmove knows first.
pub async fn in_range() -> io::Result<Vec<InRange>> {
    let adapter = first_adapter().await?;
    adapter
        .start_scan(ScanFilter::default())
        .await
        .map_err(|error| bluetooth(&error))?;
    tokio::time::sleep(LISTEN).await;
    let _ = adapter.stop_scan().await;
    let mut found = Vec::new();
    for peripheral in adapter
        .peripherals()
        .await
        .map_err(|error| bluetooth(&error))?
    {
        let Ok(Some(properties)) = peripheral.properties().await else {
            continue;
        };
        let services: Vec<String> = properties
            .services
            .iter()
            .map(ToString::to_string)
            .collect();
        let name = properties.local_name.map(|name| name.trim().to_owned());
        let family = family_of(name.as_deref(), &services).map(|protocol| protocol.name);
        found.push(InRange {
            name,
            address: properties.address.to_string(),
            family,
            rssi: properties.rssi,
        });
    }
    found.sort_by_key(|board| board.family.is_none());
    Ok(found)
}

/// The protocol whose profile recognises a board advertised as `name` with `services`.
fn family_of(name: Option<&str>, services: &[String]) -> Option<&'static Protocol> {
    touchmove_boards::registry::PROTOCOLS
        .iter()
        .find(|protocol| {
            protocol
                .ble
                .is_some_and(|profile| profile.recognises(name, services))
        })
        .copied()
}

/// The family of the board `target` names (its advertised name or its address): told by its
/// advertisement (name, services), else by the services it serves once connected.
pub async fn family(target: &str) -> io::Result<&'static Protocol> {
    let adapter = first_adapter().await?;
    let peripheral = find(&adapter, target).await?;
    let properties = peripheral
        .properties()
        .await
        .map_err(|error| bluetooth(&error))?
        .unwrap_or_default();
    let name = properties.local_name.as_deref().map(str::trim);
    let advertised: Vec<String> = properties
        .services
        .iter()
        .map(ToString::to_string)
        .collect();
    if let Some(protocol) = family_of(name, &advertised) {
        return Ok(protocol);
    }
    let unknown = |why: &str| {
        io::Error::new(
            io::ErrorKind::NotFound,
            format!(
                "{PREFIX}{target}: {why}; name its family with --protocol (`touchmove ports` \
                 lists the boards in range)"
            ),
        )
    };
    if !peripheral.is_connected().await.unwrap_or(false) {
        peripheral
            .connect()
            .await
            .map_err(|error| unknown(&error.to_string()))?;
    }
    peripheral
        .discover_services()
        .await
        .map_err(|error| unknown(&error.to_string()))?;
    let served: Vec<String> = peripheral
        .services()
        .iter()
        .map(|service| service.uuid.to_string())
        .collect();
    family_of(name, &served).ok_or_else(|| unknown("no board family touchmove knows"))
}

/// The characteristic `uuid` of `peripheral`'s.
fn characteristic(peripheral: &Peripheral, uuid: &str) -> io::Result<Characteristic> {
    peripheral
        .characteristics()
        .into_iter()
        .find(|found| found.uuid.to_string().eq_ignore_ascii_case(uuid))
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::NotFound,
                format!("the board has no characteristic {uuid}: is it of the family named?"),
            )
        })
}

impl Connector for BleConnector {
    type Port = BlePort;

    async fn connect(&mut self) -> io::Result<(BlePort, String)> {
        let profile = self.profile()?;
        let adapter = self.adapter().await?;
        let peripheral = find(&adapter, &self.target).await?;
        let name = format!("{PREFIX}{}", self.target);
        if !peripheral.is_connected().await.unwrap_or(false) {
            peripheral
                .connect()
                .await
                .map_err(|error| io::Error::other(format!("{name}: {error}")))?;
        }
        peripheral
            .discover_services()
            .await
            .map_err(|error| io::Error::other(format!("{name}: {error}")))?;
        let write = characteristic(&peripheral, profile.write)?;
        let notifications = peripheral
            .notifications()
            .await
            .map_err(|error| bluetooth(&error))?;
        for uuid in profile.notify {
            let notified = characteristic(&peripheral, uuid)?;
            peripheral
                .subscribe(&notified)
                .await
                .map_err(|error| io::Error::other(format!("{name}: {error}")))?;
        }
        let events = adapter.events().await.map_err(|error| bluetooth(&error))?;
        let (read_tx, read_rx) = unbounded_channel();
        let id = peripheral.id();
        let reader = tokio::spawn(async move {
            let mut notifications = notifications;
            let mut events = events;
            loop {
                tokio::select! {
                    notification = notifications.next() => match notification {
                        Some(notification) => {
                            if read_tx.send(notification.value).is_err() {
                                return;
                            }
                        }
                        None => return,
                    },
                    event = events.next() => match event {
                        Some(CentralEvent::DeviceDisconnected(gone)) if gone == id => return,
                        Some(_) => {}
                        None => return,
                    },
                }
            }
        });
        let (write_tx, write_rx) = unbounded_channel();
        let writer = tokio::spawn(write_loop(peripheral, write, profile, write_rx));
        let port = BlePort {
            read: FramesIn::new(read_rx),
            write: write_tx,
            profile,
            tasks: [reader, writer],
        };
        Ok((port, name))
    }
}

/// Writes each command of the session's, one at a time, at the profile's pace; ends at the
/// first failure (the link gone: the reader sees the disconnection).
async fn write_loop(
    peripheral: Peripheral,
    write: Characteristic,
    profile: BleProfile,
    mut commands: UnboundedReceiver<Vec<u8>>,
) {
    let kind = if profile.write_with_response {
        WriteType::WithResponse
    } else {
        WriteType::WithoutResponse
    };
    let gap = Duration::from_millis(profile.write_gap_ms);
    while let Some(bytes) = commands.recv().await {
        let bytes = match profile.to_air {
            Some(to_air) => to_air(&bytes),
            None => bytes,
        };
        tracing::debug!(bytes = %hex(&bytes), "writing to the board");
        if let Err(error) = peripheral.write(&write, &bytes, kind).await {
            tracing::debug!(%error, "write to the board failed");
            return;
        }
        if !gap.is_zero() {
            tokio::time::sleep(gap).await;
        }
    }
}

/// An open link to a Bluetooth LE board, as a byte port.
pub struct BlePort {
    read: FramesIn,
    write: UnboundedSender<Vec<u8>>,
    profile: BleProfile,
    tasks: [tokio::task::JoinHandle<()>; 2],
}

impl Drop for BlePort {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

impl AsyncRead for BlePort {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let from_air = self.profile.from_air;
        self.read.poll_read(cx, buf, |bytes| match from_air {
            Some(from_air) => from_air(&bytes),
            None => bytes,
        })
    }
}

impl AsyncWrite for BlePort {
    fn poll_write(
        self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.write.send(buf.to_vec()) {
            Ok(()) => Poll::Ready(Ok(buf.len())),
            Err(_) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::BrokenPipe,
                "the Bluetooth link dropped",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ble_port_names_a_board_by_name_or_address() {
        assert_eq!(target("ble:Chessnut Air"), Some("Chessnut Air"));
        assert_eq!(target("ble:"), None);
        assert_eq!(target("/dev/ttyUSB0"), None);
        assert!(is_address("C0:FF:EE:00:00:01"));
        assert!(!is_address("Chessnut Air"));
        assert!(!is_address("C0:FF:EE:00:00"));
    }
}
