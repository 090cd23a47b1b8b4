//! `org.bluez.Device1`: an emulated board in range, as BlueZ shows a peripheral.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use zbus::fdo;
use zbus::object_server::SignalEmitter;
use zbus::zvariant::OwnedObjectPath;

/// A board in range: connected when the host asked and the board is switched on.
pub(crate) struct Device {
    pub(crate) name: String,
    pub(crate) address: String,
    pub(crate) rssi: i16,
    pub(crate) uuids: Vec<String>,
    pub(crate) adapter: OwnedObjectPath,
    pub(crate) connected: bool,
    /// Whether the board is switched on (its emulator's plug), shared with its driver.
    pub(crate) plugged: Arc<AtomicBool>,
}

#[zbus::interface(name = "org.bluez.Device1")]
impl Device {
    /// Connects, once the board is switched on; the services are resolved at once.
    async fn connect(
        &mut self,
        #[zbus(signal_emitter)] emitter: SignalEmitter<'_>,
    ) -> fdo::Result<()> {
        if !self.plugged.load(Ordering::SeqCst) {
            return Err(fdo::Error::Failed(
                "le-connection-abort-by-local: the board does not answer".to_owned(),
            ));
        }
        self.connected = true;
        self.connected_changed(&emitter).await?;
        self.services_resolved_changed(&emitter).await?;
        Ok(())
    }

    /// Disconnects.
    async fn disconnect(
        &mut self,
        #[zbus(signal_emitter)] emitter: SignalEmitter<'_>,
    ) -> fdo::Result<()> {
        self.drop_link(&emitter).await
    }

    #[zbus(property)]
    fn address(&self) -> String {
        self.address.clone()
    }

    #[zbus(property)]
    fn address_type(&self) -> String {
        "random".to_owned()
    }

    #[zbus(property)]
    fn name(&self) -> String {
        self.name.clone()
    }

    #[zbus(property)]
    fn alias(&self) -> String {
        self.name.clone()
    }

    #[zbus(property)]
    fn paired(&self) -> bool {
        false
    }

    #[zbus(property)]
    fn trusted(&self) -> bool {
        false
    }

    #[zbus(property)]
    fn blocked(&self) -> bool {
        false
    }

    #[zbus(property)]
    fn legacy_pairing(&self) -> bool {
        false
    }

    #[zbus(property)]
    fn connected(&self) -> bool {
        self.connected
    }

    #[zbus(property)]
    fn services_resolved(&self) -> bool {
        self.connected
    }

    #[zbus(property, name = "RSSI")]
    fn rssi(&self) -> i16 {
        self.rssi
    }

    /// The services the board advertises.
    #[zbus(property, name = "UUIDs")]
    fn uuids(&self) -> Vec<String> {
        self.uuids.clone()
    }

    #[zbus(property)]
    fn adapter(&self) -> OwnedObjectPath {
        self.adapter.clone()
    }
}

impl Device {
    /// The link drops (the host disconnected, the board was switched off).
    pub(crate) async fn drop_link(&mut self, emitter: &SignalEmitter<'_>) -> fdo::Result<()> {
        if self.connected {
            self.connected = false;
            self.connected_changed(emitter).await?;
            self.services_resolved_changed(emitter).await?;
        }
        Ok(())
    }
}
