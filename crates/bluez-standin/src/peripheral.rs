//! An emulated board behind its family's GATT profile: its objects on the bus, and the task
//! that drives it (the host's writes in, its frames notified, its unplugging a dropped link).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};
use tokio::task::JoinHandle;
use tokio::time::Instant;
use zbus::Connection;
use zbus::zvariant::OwnedObjectPath;

use super::device::Device;
use super::gatt::{Characteristic, Service};
use super::{ADAPTER_PATH, Finished};
use touchmove_boards::live::BleProfile;
use touchmove_core::sensor::Millis;
use touchmove_simulation::emulation::{EmulatedBoard, Notice};

/// A board in range of the stand-in's adapter.
pub struct Peripheral {
    /// The name it advertises.
    pub name: String,
    /// Its address (`C0:FF:EE:00:00:01`).
    pub address: String,
    /// Its signal strength (dBm).
    pub rssi: i16,
    /// The services it advertises (a Chessnut board advertises none).
    pub advertised: Vec<String>,
    /// Its family's GATT profile.
    pub profile: BleProfile,
    /// The emulated board behind it, its time counted from when the stand-in serves it.
    pub board: Box<dyn EmulatedBoard + Send>,
}

/// A characteristic's object path, from its service's and its number.
fn path(text: String) -> zbus::Result<OwnedObjectPath> {
    OwnedObjectPath::try_from(text).map_err(zbus::Error::from)
}

/// Puts `peripheral`'s objects on the bus (its `index` numbers its services) and starts the
/// task that drives its board.
pub(crate) async fn serve(
    connection: &Connection,
    index: usize,
    peripheral: Peripheral,
    done: Arc<Finished>,
) -> zbus::Result<JoinHandle<()>> {
    let server = connection.object_server();
    let device_path = path(format!(
        "{ADAPTER_PATH}/dev_{}",
        peripheral.address.replace(':', "_")
    ))?;
    let plugged = Arc::new(AtomicBool::new(true));
    let device = Device {
        name: peripheral.name.clone(),
        address: peripheral.address.clone(),
        rssi: peripheral.rssi,
        uuids: peripheral.advertised.clone(),
        adapter: path(ADAPTER_PATH.to_owned())?,
        connected: false,
        plugged: Arc::clone(&plugged),
    };
    server.at(device_path.clone(), device).await?;
    let (writes, written) = unbounded_channel();
    let profile = peripheral.profile;
    let mut notified: Vec<Option<OwnedObjectPath>> = vec![None; profile.notify.len()];
    let mut handle = 0x0010 + index.saturating_mul(0x0100);
    for service in profile.gatt {
        let service_path = path(format!("{}/service{handle:04x}", device_path.as_str()))?;
        let served = Service {
            uuid: service.uuid.to_owned(),
            device: device_path.clone(),
        };
        server.at(service_path.clone(), served).await?;
        for uuid in service.characteristics {
            handle = handle.saturating_add(1);
            let characteristic_path = path(format!("{}/char{handle:04x}", service_path.as_str()))?;
            let characteristic = Characteristic {
                uuid: (*uuid).to_owned(),
                service: service_path.clone(),
                value: Vec::new(),
                notifying: false,
                writes: (*uuid == profile.write).then(|| writes.clone()),
            };
            server
                .at(characteristic_path.clone(), characteristic)
                .await?;
            if let Some(slot) = profile
                .notify
                .iter()
                .position(|notify| notify == uuid)
                .and_then(|at| notified.get_mut(at))
            {
                *slot = Some(characteristic_path);
            }
        }
        handle = handle.saturating_add(0x0010);
    }
    let driver = Driver {
        connection: connection.clone(),
        device: device_path,
        notified,
        plugged,
        profile,
        board: peripheral.board,
        start: Instant::now(),
        done,
    };
    Ok(tokio::spawn(driver.run(written)))
}

/// The task that drives a board.
struct Driver {
    connection: Connection,
    device: OwnedObjectPath,
    /// The path of each characteristic the profile notifies on, in the profile's order.
    notified: Vec<Option<OwnedObjectPath>>,
    plugged: Arc<AtomicBool>,
    profile: BleProfile,
    board: Box<dyn EmulatedBoard + Send>,
    start: Instant,
    /// Set once the board's script has started and everything in it has happened.
    done: Arc<Finished>,
}

impl Driver {
    fn now(&self) -> Millis {
        Millis::try_from(self.start.elapsed().as_millis()).unwrap_or(Millis::MAX)
    }

    async fn run(mut self, mut written: UnboundedReceiver<Vec<u8>>) {
        loop {
            let now = self.now();
            self.board.handle_timeout(now);
            if let Err(error) = self.pass_on().await {
                tracing::warn!(%error, "the Bluetooth stand-in could not notify");
            }
            if self.board.script_done() {
                self.done.set();
            }
            let deadline = self.board.poll_timeout().map_or_else(
                || Instant::now() + Duration::from_secs(3600),
                |at| self.start + Duration::from_millis(at),
            );
            tokio::select! {
                write = written.recv() => match write {
                    Some(bytes) => {
                        let bytes = match self.profile.from_air {
                            Some(from_air) => from_air(&bytes),
                            None => bytes,
                        };
                        let now = self.now();
                        self.board.handle_bytes(now, &bytes);
                    }
                    None => return,
                },
                () = tokio::time::sleep_until(deadline) => {}
            }
        }
    }

    /// Notifies what the board sent and acts on what it tells (an unplugging drops the link).
    async fn pass_on(&mut self) -> zbus::Result<()> {
        while let Some(notice) = self.board.poll_notice() {
            match notice {
                Notice::Unplugged => {
                    self.plugged.store(false, Ordering::SeqCst);
                    drop_link(&self.connection, self.device.clone()).await?;
                }
                Notice::Replugged => self.plugged.store(true, Ordering::SeqCst),
                other => {
                    let (line, warning) = other.describe();
                    if warning {
                        tracing::warn!("{line}");
                    } else {
                        tracing::info!("{line}");
                    }
                }
            }
        }
        while let Some(bytes) = self.board.poll_transmit() {
            let at = (self.profile.notify_of)(&bytes);
            let bytes = match self.profile.to_air {
                Some(to_air) => to_air(&bytes),
                None => bytes,
            };
            if let Some(Some(path)) = self.notified.get(at) {
                let path = path.clone();
                notify(&self.connection, self.device.clone(), path, bytes).await?;
            }
        }
        Ok(())
    }
}

/// Whether the host is connected to the device at `device`.
async fn connected(connection: &Connection, device: OwnedObjectPath) -> zbus::Result<bool> {
    let device = connection
        .object_server()
        .interface::<_, Device>(device)
        .await?;
    Ok(device.get().await.connected)
}

/// The link of the device at `device` drops.
async fn drop_link(connection: &Connection, device: OwnedObjectPath) -> zbus::Result<()> {
    let device = connection
        .object_server()
        .interface::<_, Device>(device)
        .await?;
    let emitter = device.signal_emitter().clone();
    device.get_mut().await.drop_link(&emitter).await?;
    Ok(())
}

/// `bytes` notified on the characteristic at `path` of the device at `device`, if the host is
/// connected and subscribed.
async fn notify(
    connection: &Connection,
    device: OwnedObjectPath,
    path: OwnedObjectPath,
    bytes: Vec<u8>,
) -> zbus::Result<()> {
    if !connected(connection, device).await? {
        return Ok(());
    }
    let characteristic = connection
        .object_server()
        .interface::<_, Characteristic>(path)
        .await?;
    let mut guard = characteristic.get_mut().await;
    if !guard.notifying {
        return Ok(());
    }
    guard.value = bytes;
    guard.value_changed(characteristic.signal_emitter()).await?;
    Ok(())
}
