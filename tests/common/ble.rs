//! Bluetooth LE boards without a radio: a private D-Bus bus (Debian's `dbus-daemon`), and
//! `touchmove emulate BOARD` serving its board behind the BlueZ stand-in on it. A host reaches
//! it through the real Bluetooth code when `DBUS_SYSTEM_BUS_ADDRESS` names the bus.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// The variable that points BlueZ's clients (and the stand-in) at a bus.
pub const BUS_VARIABLE: &str = "DBUS_SYSTEM_BUS_ADDRESS";

/// A private D-Bus bus, stopped when dropped.
pub struct Bus {
    child: Child,
    /// Its address, for [`BUS_VARIABLE`].
    pub address: String,
    _dir: tempfile::TempDir,
}

impl Drop for Bus {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts a private bus with Debian's `dbus-daemon` (the session configuration: any name may
/// be owned on it), or fails saying how to get it.
pub fn private_bus() -> Bus {
    let dir = tempfile::tempdir().expect("a folder for the bus");
    let socket = dir.path().join("bus");
    let child = Command::new("dbus-daemon")
        .args(["--session", "--nofork", "--print-address"])
        .arg(format!("--address=unix:path={}", socket.display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(error) => panic!(
            "dbus-daemon cannot be started ({error}): the Bluetooth tests need it \
             (`sudo apt-get install -y dbus-daemon`, or run .ci/run)"
        ),
    };
    let stdout = child.stdout.take().expect("its output");
    let mut address = String::new();
    BufReader::new(stdout)
        .read_line(&mut address)
        .expect("the bus's address");
    Bus {
        child,
        address: address.trim().to_owned(),
        _dir: dir,
    }
}

/// An emulated Bluetooth board's process; killed when dropped.
pub struct BleBoard {
    child: Child,
    /// The port a host names: `ble:NAME`.
    pub port: String,
}

impl Drop for BleBoard {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `touchmove emulate BOARD ARGS` serving on `bus`, its standard error to `stderr`; the port it
/// names (`ble:NAME`) read from its first line, the rest of its output read and dropped.
pub fn emulate_on(bus: &Bus, board: &str, args: &[&str], stderr: Stdio) -> BleBoard {
    let mut child = super::bin()
        .args(["emulate", board])
        .args(args)
        .env(BUS_VARIABLE, &bus.address)
        .current_dir(super::emulator::root())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("the emulator starts");
    let mut stdout = BufReader::new(child.stdout.take().expect("its output"));
    let mut first = String::new();
    stdout.read_line(&mut first).expect("a first line");
    std::thread::spawn(move || for _ in stdout.lines().map_while(Result::ok) {});
    let port = first
        .trim()
        .strip_prefix("port: ")
        .unwrap_or_else(|| panic!("`port: ble:NAME` expected, got `{first}`"))
        .to_owned();
    assert!(port.starts_with("ble:"), "{port}");
    BleBoard { child, port }
}

/// The protocols of the registry reached over Bluetooth LE.
pub fn families() -> impl Iterator<Item = &'static str> {
    touchmove::registry::PROTOCOLS
        .iter()
        .filter(|protocol| protocol.ble.is_some())
        .map(|protocol| protocol.name)
}

/// Whether `board`'s family is reached over Bluetooth LE only.
pub fn over_the_air(board: &str) -> bool {
    touchmove::registry::find(board).is_some_and(|protocol| protocol.ble.is_some())
}

/// An emulated board of any family: on a pseudo-terminal, or (a Bluetooth family) behind the
/// stand-in on a private bus of its own; the board is stopped before the bus.
pub struct AnyBoard {
    /// The port a host names.
    pub port: String,
    _board: Box<dyn std::any::Any>,
    bus: Option<Bus>,
}

impl AnyBoard {
    /// What a host's environment needs to reach the board (the bus, for a Bluetooth board).
    pub fn env(&self) -> Vec<(&'static str, String)> {
        self.bus
            .iter()
            .map(|bus| (BUS_VARIABLE, bus.address.clone()))
            .collect()
    }
}

/// `touchmove emulate BOARD ARGS`, its standard error to `stderr`, as a host reaches a board of
/// its family.
pub fn emulate_any(board: &str, args: &[&str], stderr: Stdio) -> AnyBoard {
    if over_the_air(board) {
        let bus = private_bus();
        let emulated = emulate_on(&bus, board, args, stderr);
        AnyBoard {
            port: emulated.port.clone(),
            _board: Box::new(emulated),
            bus: Some(bus),
        }
    } else {
        let emulated = super::emulator::emulate_with(board, args, stderr);
        AnyBoard {
            port: emulated.port.clone(),
            _board: Box::new(emulated),
            bus: None,
        }
    }
}
