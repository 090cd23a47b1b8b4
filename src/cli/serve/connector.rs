//! How a served board is reached: its port (serial or Bluetooth LE), or the host's end of a
//! board emulated in the process (`serve --demo`).

use tokio_serial::SerialStream;

use touchmove::runner::Connector;

use touchmove_links::board::BoardConnector;
use touchmove_web::stamps::Stamped;

/// How a planned board is reached.
pub enum PlannedConnector {
    /// Its port: serial, or a Bluetooth LE link.
    Board(BoardConnector),
    /// The host's end of an emulated board's pseudo-terminal.
    Demo(OwnEnd),
}

/// Hands out the host's end of an emulated board's pseudo-terminal once, when the board has
/// been switched on.
pub struct OwnEnd(Option<Stamped<SerialStream>>, String, tokio::time::Instant);

impl OwnEnd {
    /// The host's end `port` of the pseudo-terminal called `name`, handed out at `powered`
    /// (when the board is switched on).
    pub fn new(port: Stamped<SerialStream>, name: String, powered: tokio::time::Instant) -> OwnEnd {
        OwnEnd(Some(port), name, powered)
    }
}

impl Connector for OwnEnd {
    type Port = Stamped<SerialStream>;

    async fn connect(&mut self) -> std::io::Result<(Stamped<SerialStream>, String)> {
        tokio::time::sleep_until(self.2).await;
        let port = self
            .0
            .take()
            .ok_or_else(|| std::io::Error::other("the emulated board has gone"))?;
        Ok((port, self.1.clone()))
    }
}
