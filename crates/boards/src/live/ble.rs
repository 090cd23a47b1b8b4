//! How a Bluetooth LE board is reached, as its protocol states it ([`BleProfile`]): the GATT
//! service that tells its family, the characteristic the host writes, the ones the board
//! notifies on, and the pace of the writes. The transport that uses it (the `touchmove`
//! package's) carries bytes only: each write is one command of the session's, the notified
//! bytes are handed to the session in the order they came.

use touchmove_core::sensor::Millis;

/// Bytes turned into the bytes of another layer (the air's, the session's).
pub type Translate = fn(&[u8]) -> Vec<u8>;

/// A GATT service of a board's, with the characteristics the host uses under it.
#[derive(Debug, Clone, Copy)]
pub struct GattService {
    /// The service's UUID.
    pub uuid: &'static str,
    /// The characteristics under it the host writes or subscribes to.
    pub characteristics: &'static [&'static str],
}

/// A Bluetooth LE board's GATT profile.
#[derive(Debug, Clone, Copy)]
pub struct BleProfile {
    /// The primary services that tell a board of this family, as UUIDs in lower-case text
    /// (found in its advertisement, or after connecting when it advertises none).
    pub services: &'static [&'static str],
    /// Advertised names (their beginnings, any case) that tell the family when the
    /// advertisement names no service of it.
    pub names: &'static [&'static str],
    /// The board's services and the characteristics under them the host uses (what a
    /// Bluetooth stand-in serves).
    pub gatt: &'static [GattService],
    /// The characteristic the host writes its commands to.
    pub write: &'static str,
    /// Whether a write waits for the board's response (a board that drops commands sent too
    /// fast gets them one at a time).
    pub write_with_response: bool,
    /// The least time between two writes (ms).
    pub write_gap_ms: Millis,
    /// The characteristics the board notifies on, subscribed in this order.
    pub notify: &'static [&'static str],
    /// Which of [`BleProfile::notify`] a frame the board sends goes out on (the emulated
    /// board's side: the Bluetooth stand-in routes its frames with it).
    pub notify_of: fn(&[u8]) -> usize,
    /// The bytes as they go on the air from the bytes the session writes (a ChessLink board's
    /// parity bit); `None`: the same.
    pub to_air: Option<Translate>,
    /// The bytes the session reads from the bytes that came on the air; `None`: the same.
    pub from_air: Option<Translate>,
}

impl BleProfile {
    /// Whether an advertisement of `name` and `services` is of this family.
    pub fn recognises(&self, name: Option<&str>, services: &[String]) -> bool {
        let by_service = services.iter().any(|service| {
            self.services
                .iter()
                .any(|own| own.eq_ignore_ascii_case(service))
        });
        let by_name = name.is_some_and(|name| {
            let name = name.trim().to_ascii_lowercase();
            self.names
                .iter()
                .any(|own| name.starts_with(&own.to_ascii_lowercase()))
        });
        by_service || by_name
    }
}

/// Every frame on the first notified characteristic.
pub fn first_notify(_frame: &[u8]) -> usize {
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROFILE: BleProfile = BleProfile {
        services: &["6e400001-b5a3-f393-e0a9-e50e24dcca9e"],
        names: &["DGT_PEGASUS"],
        gatt: &[],
        write: "6e400002-b5a3-f393-e0a9-e50e24dcca9e",
        write_with_response: true,
        write_gap_ms: 0,
        notify: &["6e400003-b5a3-f393-e0a9-e50e24dcca9e"],
        notify_of: first_notify,
        to_air: None,
        from_air: None,
    };

    #[test]
    fn a_board_is_recognised_by_its_service_or_by_the_beginning_of_its_name() {
        let service = vec!["6E400001-B5A3-F393-E0A9-E50E24DCCA9E".to_owned()];
        assert!(PROFILE.recognises(None, &service));
        assert!(PROFILE.recognises(Some("DGT_Pegasus_12345"), &[]));
        assert!(PROFILE.recognises(Some(" dgt_pegasus\n"), &[]));
        assert!(!PROFILE.recognises(Some("Chessnut Air"), &[]));
        assert!(!PROFILE.recognises(None, &[]));
    }
}
