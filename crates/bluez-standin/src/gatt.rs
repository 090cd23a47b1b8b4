//! `org.bluez.GattService1` and `org.bluez.GattCharacteristic1`: a board's profile as BlueZ
//! shows it once the services are resolved.

use std::collections::HashMap;

use tokio::sync::mpsc::UnboundedSender;
use zbus::fdo;
use zbus::zvariant::{OwnedObjectPath, OwnedValue};

/// A primary service of the board's.
pub(crate) struct Service {
    pub(crate) uuid: String,
    pub(crate) device: OwnedObjectPath,
}

#[zbus::interface(name = "org.bluez.GattService1")]
impl Service {
    #[zbus(property, name = "UUID")]
    fn uuid(&self) -> String {
        self.uuid.clone()
    }

    #[zbus(property)]
    fn primary(&self) -> bool {
        true
    }

    #[zbus(property)]
    fn device(&self) -> OwnedObjectPath {
        self.device.clone()
    }
}

/// A characteristic: the one the host writes (its writes go to the board), or one the board
/// notifies on.
pub(crate) struct Characteristic {
    pub(crate) uuid: String,
    pub(crate) service: OwnedObjectPath,
    pub(crate) value: Vec<u8>,
    pub(crate) notifying: bool,
    /// Where the host's writes go (the written characteristic only).
    pub(crate) writes: Option<UnboundedSender<Vec<u8>>>,
}

#[zbus::interface(name = "org.bluez.GattCharacteristic1")]
impl Characteristic {
    /// The last value written or notified.
    fn read_value(&self, _options: HashMap<String, OwnedValue>) -> Vec<u8> {
        self.value.clone()
    }

    /// A write from the host, to the board.
    fn write_value(
        &mut self,
        value: Vec<u8>,
        _options: HashMap<String, OwnedValue>,
    ) -> fdo::Result<()> {
        let Some(writes) = &self.writes else {
            return Err(fdo::Error::NotSupported(
                "org.bluez.Error.NotPermitted: the characteristic is not written".to_owned(),
            ));
        };
        writes
            .send(value)
            .map_err(|_| fdo::Error::Failed("the board has gone".to_owned()))
    }

    /// Notifications on.
    async fn start_notify(
        &mut self,
        #[zbus(signal_emitter)] emitter: zbus::object_server::SignalEmitter<'_>,
    ) -> fdo::Result<()> {
        self.notifying = true;
        self.notifying_changed(&emitter).await?;
        Ok(())
    }

    /// Notifications off.
    async fn stop_notify(
        &mut self,
        #[zbus(signal_emitter)] emitter: zbus::object_server::SignalEmitter<'_>,
    ) -> fdo::Result<()> {
        self.notifying = false;
        self.notifying_changed(&emitter).await?;
        Ok(())
    }

    #[zbus(property, name = "UUID")]
    fn uuid(&self) -> String {
        self.uuid.clone()
    }

    #[zbus(property)]
    fn service(&self) -> OwnedObjectPath {
        self.service.clone()
    }

    #[zbus(property)]
    fn flags(&self) -> Vec<String> {
        if self.writes.is_some() {
            vec!["write".to_owned(), "write-without-response".to_owned()]
        } else {
            vec!["read".to_owned(), "notify".to_owned()]
        }
    }

    #[zbus(property)]
    fn value(&self) -> Vec<u8> {
        self.value.clone()
    }

    #[zbus(property)]
    fn notifying(&self) -> bool {
        self.notifying
    }
}
