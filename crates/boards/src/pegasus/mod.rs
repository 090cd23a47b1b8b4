//! The DGT Pegasus (Bluetooth LE): the DGT board protocol over the Nordic UART service, the
//! board sensing occupancy only (no piece identities), with LEDs and a battery.
//!
//! - [`wire`]: what the Pegasus adds to [`crate::dgt::wire`] (its service, its LED frames, its
//!   battery);
//! - [`session`]: the host's sans-IO session ([`PegasusSession`]).
//!
//! Sources (protocol facts, no code): adrian-dybwad/DGTCentaurMods `emulators/pegasus.py` (the
//! commands and replies, occupancy `00`/`01`, the LED frames, the DGT app's opening bytes) and
//! the BLE names it advertises; Programmierbaer/BearChess (the advertised name `DGT_PEGASUS`,
//! the battery request `4c`); the DGT board protocol as `docs/dgt-protocol.md` sums it up
//! (framing, square numbers). Not confirmed: the battery request (`4c` in BearChess, `32` in
//! DGTCentaurMods' emulator: touchmove sends `4c`), whether a developer key is needed (none is
//! sent), the LED bytes' speed and brightness directions, the board's scan rate.

pub mod session;
pub mod wire;

pub use session::PegasusSession;

/// The DGT Pegasus, over Bluetooth LE. It reports each change as it happens (no scan period
/// is published: 0); the report horizon covers the Bluetooth link's delivery. It has no clock.
/// Its service is the Nordic UART service, which other devices share: a Pegasus is told by its
/// name (or `--protocol pegasus`).
pub const PROTOCOL: crate::live::Protocol = crate::live::Protocol {
    name: "pegasus",
    summary: "a DGT Pegasus over Bluetooth LE (occupancy only)",
    line: None,
    ble: Some(crate::live::BleProfile {
        services: &[],
        names: &["DGT_PEGASUS", "DGT PEGASUS", "PCS-REVII"],
        gatt: &[crate::live::GattService {
            uuid: wire::UART_SERVICE,
            characteristics: &[wire::UART_WRITE, wire::UART_NOTIFY],
        }],
        write: wire::UART_WRITE,
        write_with_response: true,
        write_gap_ms: 0,
        notify: &[wire::UART_NOTIFY],
        notify_of: crate::live::first_notify,
        to_air: None,
        from_air: None,
    }),
    report_horizon_ms: 150,
    scan_ms: 0,
    new_session: session::new_session,
    probe: None,
    promotion_at_host: true,
};
