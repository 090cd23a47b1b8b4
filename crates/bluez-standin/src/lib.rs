//! A stand-in for BlueZ, the Linux Bluetooth stack, on a private D-Bus bus: emulated Bluetooth
//! LE boards shown as BlueZ shows the peripherals in range, written from BlueZ's published
//! D-Bus API (`doc/org.bluez.Adapter.rst`, `org.bluez.Device.rst`, `org.bluez.GattService.rst`,
//! `org.bluez.GattCharacteristic.rst`).
//!
//! A host's Bluetooth code (btleplug, through bluez-async and libdbus) reaches BlueZ on the
//! system bus, whose address libdbus takes from `DBUS_SYSTEM_BUS_ADDRESS`. Pointed at a
//! private `dbus-daemon` on which this stand-in owns `org.bluez`, the host's real transport
//! code runs on a machine with no radio: it scans, connects, finds the services, subscribes to
//! notifications and writes, and each board is an emulated board of `touchmove-simulation`
//! behind its family's GATT profile ([`touchmove_boards::live::BleProfile`]).
//!
//! What is served:
//!
//! - `/`: `org.freedesktop.DBus.ObjectManager` (every object below, with its interfaces);
//! - `/org/bluez/hci0`: `org.bluez.Adapter1` (discovery started and stopped, a filter taken);
//! - `/org/bluez/hci0/dev_XX_XX_XX_XX_XX_XX`: `org.bluez.Device1` per board (its name,
//!   address, signal strength, advertised services; `Connect` and `Disconnect`);
//! - `…/serviceNNNN` and `…/serviceNNNN/charNNNN`: `org.bluez.GattService1` and
//!   `org.bluez.GattCharacteristic1` per the board's profile; a write to the written
//!   characteristic goes to the emulated board, what the board sends is notified on the
//!   characteristic its profile routes it to, as a `PropertiesChanged` of `Value`.
//!
//! A board unplugged by its script (`--unplug-at`) drops its connection (`Connected` false); it
//! takes a new `Connect` once plugged in again.

mod adapter;
mod device;
mod gatt;
mod peripheral;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use zbus::connection::Builder;

pub use peripheral::Peripheral;

/// The well-known name BlueZ owns.
pub const BLUEZ: &str = "org.bluez";

/// The adapter's object path.
pub const ADAPTER_PATH: &str = "/org/bluez/hci0";

/// What went wrong standing in.
#[derive(Debug, thiserror::Error)]
pub enum StandInError {
    /// No bus address was given and `DBUS_SYSTEM_BUS_ADDRESS` is not set: the stand-in never
    /// serves on the machine's own system bus.
    #[error(
        "DBUS_SYSTEM_BUS_ADDRESS is not set: the Bluetooth stand-in serves only on a private bus \
         (start one with `dbus-daemon --session --print-address --fork` and export its address)"
    )]
    NoPrivateBus,
    /// The bus refused or failed.
    #[error("the D-Bus bus at {address}: {error}")]
    Bus {
        /// The bus's address.
        address: String,
        /// What failed.
        error: Box<zbus::Error>,
    },
}

/// The stand-in, serving until dropped.
pub struct StandIn {
    _connection: zbus::Connection,
    tasks: Vec<tokio::task::JoinHandle<()>>,
    done: Vec<Arc<Finished>>,
}

/// Whether a board's script is done, and a wake-up for whoever waits for it.
#[derive(Debug, Default)]
pub(crate) struct Finished {
    done: AtomicBool,
    woken: tokio::sync::Notify,
}

impl Finished {
    /// The script is done (from its first call on).
    pub(crate) fn set(&self) {
        if !self.done.swap(true, Ordering::SeqCst) {
            self.woken.notify_waiters();
        }
    }

    fn is_set(&self) -> bool {
        self.done.load(Ordering::SeqCst)
    }

    /// Returns once the script is done.
    async fn wait(&self) {
        loop {
            // Created before the check: a wake-up in between is not missed.
            let woken = self.woken.notified();
            if self.is_set() {
                return;
            }
            woken.await;
        }
    }
}

impl Drop for StandIn {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

impl StandIn {
    /// The bus address the stand-in serves on: `DBUS_SYSTEM_BUS_ADDRESS`, as the host's
    /// Bluetooth code reads it.
    pub fn private_bus() -> Result<String, StandInError> {
        std::env::var("DBUS_SYSTEM_BUS_ADDRESS").map_err(|_| StandInError::NoPrivateBus)
    }

    /// Serves `peripherals` as BlueZ would on the bus at `address` (each its board driven by a
    /// task of the current tokio runtime's, local to it).
    pub async fn serve(
        address: &str,
        peripherals: Vec<Peripheral>,
    ) -> Result<StandIn, StandInError> {
        let bus = |error| StandInError::Bus {
            address: address.to_owned(),
            error: Box::new(error),
        };
        let connection = Builder::address(address)
            .map_err(bus)?
            .name(BLUEZ)
            .map_err(bus)?
            .serve_at("/", zbus::fdo::ObjectManager)
            .map_err(bus)?
            .serve_at(ADAPTER_PATH, adapter::Adapter::new())
            .map_err(bus)?
            .method_timeout(Duration::from_secs(25))
            .build()
            .await
            .map_err(bus)?;
        let mut tasks = Vec::new();
        let mut done = Vec::new();
        for (index, peripheral) in peripherals.into_iter().enumerate() {
            let finished = Arc::new(Finished::default());
            let served = peripheral::serve(&connection, index, peripheral, Arc::clone(&finished))
                .await
                .map_err(bus)?;
            tasks.push(served);
            done.push(finished);
        }
        Ok(StandIn {
            _connection: connection,
            tasks,
            done,
        })
    }

    /// Whether every board's script has started and everything in it has happened.
    pub fn scripts_done(&self) -> bool {
        self.done.iter().all(|done| done.is_set())
    }

    /// Returns once every board's script has started and everything in it has happened.
    pub async fn scripts_finished(&self) {
        for done in &self.done {
            done.wait().await;
        }
    }
}
