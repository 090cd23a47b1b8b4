//! `org.bluez.Adapter1`: the machine's Bluetooth adapter, as BlueZ shows it.

use std::collections::HashMap;

use zbus::fdo;
use zbus::object_server::SignalEmitter;
use zbus::zvariant::{OwnedObjectPath, OwnedValue};

/// The adapter: powered, discovering when asked.
pub(crate) struct Adapter {
    discovering: bool,
    powered: bool,
}

impl Adapter {
    pub(crate) fn new() -> Adapter {
        Adapter {
            discovering: false,
            powered: true,
        }
    }
}

#[zbus::interface(name = "org.bluez.Adapter1")]
impl Adapter {
    /// Starts discovering: the emulated boards are in range all along.
    async fn start_discovery(
        &mut self,
        #[zbus(signal_emitter)] emitter: SignalEmitter<'_>,
    ) -> fdo::Result<()> {
        self.discovering = true;
        self.discovering_changed(&emitter).await?;
        Ok(())
    }

    /// Stops discovering.
    async fn stop_discovery(
        &mut self,
        #[zbus(signal_emitter)] emitter: SignalEmitter<'_>,
    ) -> fdo::Result<()> {
        self.discovering = false;
        self.discovering_changed(&emitter).await?;
        Ok(())
    }

    /// Takes a discovery filter (every board is shown whatever it says).
    fn set_discovery_filter(&self, _filter: HashMap<String, OwnedValue>) {}

    /// Forgets a device (the emulated boards stay in range).
    fn remove_device(&self, _device: OwnedObjectPath) {}

    #[zbus(property)]
    fn address(&self) -> String {
        "00:1A:7D:DA:71:13".to_owned()
    }

    #[zbus(property)]
    fn address_type(&self) -> String {
        "public".to_owned()
    }

    #[zbus(property)]
    fn name(&self) -> String {
        "touchmove-standin".to_owned()
    }

    #[zbus(property)]
    fn alias(&self) -> String {
        "touchmove-standin".to_owned()
    }

    /// BlueZ's own modalias form (`usb:vVVVVpPPPPdDDDD`).
    #[zbus(property)]
    fn modalias(&self) -> String {
        "usb:v1D6Bp0246d0548".to_owned()
    }

    #[zbus(property)]
    fn powered(&self) -> bool {
        self.powered
    }

    /// Powered on or off (hosts power it on before they scan).
    #[zbus(property)]
    fn set_powered(&mut self, powered: bool) {
        self.powered = powered;
    }

    #[zbus(property)]
    fn discovering(&self) -> bool {
        self.discovering
    }
}
