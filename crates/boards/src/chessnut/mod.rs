//! The Chessnut protocol (Chessnut Air, Air+, Go and Pro over Bluetooth LE; the same frames
//! over USB HID): the board reports the whole position, its pieces identified, about ten times
//! a second; the host lights squares, a bit a square.
//!
//! - [`wire`]: the frames both ways, the position and LED bytes, streaming decoders;
//! - [`usb`]: the board over USB HID (which device it is, a report's frame, the writes' pace);
//! - [`session`]: the host's sans-IO session ([`ChessnutSession`]): reports in, lifts and
//!   placements out, the move to carry out and mismatches on the LEDs, the battery; on a
//!   Chessnut Move ([`ROBOT_PROTOCOL`]) the move to carry out sent to its robot.
//!
//! Sources (protocol facts, no code): the vendor's description, chessnutech/Chessnut_eBoards
//! `README.md` (UUIDs, the position and piece codes, LEDs, battery); a hardware capture of a
//! Chessnut Air, egdels/moveapiece `tools/chessnut-sniffer/CHESSNUT_PROTOCOL.md` (the 38-byte
//! report with its 4-byte uptime, the acknowledgement, the NEW GAME button, the beep's byte
//! order, the advertised name `Chessnut Air` with a line break and no service). Where the two
//! differ (a report of 36 or 38 bytes) the capture is followed: the report's length byte says
//! 36 bytes after it, so both are right about different things. The Chessnut Move's robot,
//! coloured LEDs and battery query: the vendor's chessnutech/chess_move_api `README.md`,
//! confirmed by daymxn/chessnut-move-rs `src/protocol/command.rs` and cognivore/openchessnutmove
//! `chessnut_move_stack/driver/protocol.py` (the `42 21` command's 35 bytes and flag, `43 20`,
//! `41 01 0c`).

pub mod session;
pub mod usb;
pub mod wire;

pub use session::ChessnutSession;

/// Which characteristic a frame of the board's goes out on: reports on `…8262`, the rest on
/// `…8273`.
fn notify_of(frame: &[u8]) -> usize {
    usize::from(frame.first() != Some(&wire::KIND_REPORT))
}

/// What a Chessnut board of either kind reads and is sent over Bluetooth LE, its names and
/// advertised services apart.
const fn profile(
    services: &'static [&'static str],
    names: &'static [&'static str],
) -> crate::live::BleProfile {
    crate::live::BleProfile {
        services,
        names,
        gatt: &[
            crate::live::GattService {
                uuid: wire::REPORT_SERVICE,
                characteristics: &[wire::REPORT_NOTIFY],
            },
            crate::live::GattService {
                uuid: wire::COMMAND_SERVICE,
                characteristics: &[wire::COMMAND_WRITE, wire::REPLY_NOTIFY],
            },
        ],
        write: wire::COMMAND_WRITE,
        write_with_response: true,
        write_gap_ms: 0,
        notify: &[wire::REPORT_NOTIFY, wire::REPLY_NOTIFY],
        notify_of,
        to_air: None,
        from_air: None,
    }
}

/// The Chessnut protocol, over Bluetooth LE. The report horizon is a report period (about
/// 100 ms), the next report that confirms a change and a margin; a change is seen at a
/// report, so the scan period is the report period. The board has no clock.
pub const PROTOCOL: crate::live::Protocol = crate::live::Protocol {
    name: "chessnut",
    summary: "a Chessnut board (Air, Air+, Go, Pro) over Bluetooth LE",
    line: None,
    ble: Some(profile(
        &[wire::REPORT_SERVICE, wire::COMMAND_SERVICE],
        &["Chessnut"],
    )),
    report_horizon_ms: 300,
    scan_ms: 100,
    new_session: session::new_session,
    probe: None,
    promotion_at_host: false,
};

/// A Chessnut Move over Bluetooth LE: a Chessnut board whose robot carries out the moves the host
/// sends ([`session::ChessnutSession::robot`]). Told from the other Chessnut boards by its
/// advertised name alone (its services are theirs): the registry lists it before them.
pub const ROBOT_PROTOCOL: crate::live::Protocol = crate::live::Protocol {
    name: "chessnut-move",
    summary: "a Chessnut Move (its robot carries out the moves sent) over Bluetooth LE",
    ble: Some(profile(&[], &["Chessnut Move"])),
    new_session: session::new_robot_session,
    ..PROTOCOL
};
