//! The Square Off (Neo, Pro): ASCII messages over the Nordic UART service, the board sensing
//! occupancy only (no piece identities) and reporting each lift and placement by its square,
//! with a light on each square. Its arm, which moves pieces by itself, is not driven.
//!
//! - [`wire`]: the messages (`CODE#BODY*`), the occupancy's square order, the lights;
//! - [`session`]: the host's sans-IO session ([`SquareOffSession`]).
//!
//! Sources (protocol facts, no code), each fact used confirmed by two of them:
//! Klepvink/CircleOn (a Square Off Pro, its app's traffic read: `UartComm.py`,
//! `SquareOffInstance.py`, `notes.txt`), mono424/squareoffdriver (`lib/protocol/`: the framing,
//! `0#…u*`/`d*`, `30#R*`, `25#`, `27#`), faidros/squareoffneo-control (a Neo, firmware 3.0.7:
//! the Nordic UART service, `e2u`/`e4d`, a 64-character occupancy, file by file) and
//! mrquincle/squareoff (a Neo: the Nordic UART service). Not confirmed, and so not used: the
//! arm's commands (`xd2d4z` in mrquincle/squareoff, coordinate routes on a characteristic of
//! its own in faidros/squareoffneo-control), the battery (`4#*` answered `22#…*` in
//! squareoffdriver only), the new-game handshake (`14#1*` answered `14#GO*` in
//! squareoffdriver; `!#*` in CircleOn, which touchmove sends), the pace of writes.

pub mod session;
pub mod wire;

pub use session::SquareOffSession;

/// The Square Off, over Bluetooth LE. It reports each change as it happens (0: no scan
/// period); the report horizon covers the Bluetooth link's delivery. It has no clock and no
/// buttons: a promotion's piece is chosen at the host. Its service is the Nordic UART service,
/// which other boards share: a Square Off is told by its name (`Squareoff Pro`, `Square Off
/// Neo - …`; or `--protocol squareoff`).
pub const PROTOCOL: crate::live::Protocol = crate::live::Protocol {
    name: "squareoff",
    summary: "a Square Off Neo or Pro over Bluetooth LE (occupancy only; its arm not driven)",
    line: None,
    ble: Some(crate::live::BleProfile {
        services: &[],
        names: &["Squareoff", "Square Off"],
        gatt: &[crate::live::GattService {
            uuid: wire::UART_SERVICE,
            characteristics: &[wire::UART_WRITE, wire::UART_NOTIFY],
        }],
        write: wire::UART_WRITE,
        write_with_response: false,
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
