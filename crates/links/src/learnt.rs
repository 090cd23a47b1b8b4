//! What a board's session learnt of the board (a Certabo board's chips), kept in a file per
//! board for its next session: `$XDG_DATA_HOME/touchmove/learnt/PROTOCOL/BOARD` (else under
//! `~/.local/share`), BOARD the USB bridge's identity and serial number when the system gives
//! them (the same board on another port name), else the port's name.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Where what was learnt of the board of `protocol` on the port `port` is kept; `None` when
/// the machine has no data directory (no `XDG_DATA_HOME`, no `HOME`).
pub fn place(protocol: &str, port: &str) -> Option<PathBuf> {
    let data = std::env::var_os("XDG_DATA_HOME")
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|dir| !dir.is_empty())
                .map(|home| Path::new(&home).join(".local").join("share"))
        })?;
    Some(
        data.join("touchmove")
            .join("learnt")
            .join(file_name(protocol))
            .join(board_key(port)),
    )
}

/// The board on `port` as a file name: its USB identity and serial number when the system
/// lists them, else the port's name.
fn board_key(port: &str) -> String {
    let usb = serialport::available_ports()
        .ok()
        .into_iter()
        .flatten()
        .find(|listed| same_port(&listed.port_name, port))
        .and_then(|listed| match listed.port_type {
            serialport::SerialPortType::UsbPort(usb) => usb
                .serial_number
                .map(|serial| format!("usb-{:04x}-{:04x}-{serial}", usb.vid, usb.pid)),
            _ => None,
        });
    file_name(&usb.unwrap_or_else(|| port.to_owned()))
}

/// Whether two port names name one device (a `/dev/serial/by-id` link and its target).
fn same_port(a: &str, b: &str) -> bool {
    a == b
        || std::fs::canonicalize(a)
            .ok()
            .zip(std::fs::canonicalize(b).ok())
            .is_some_and(|(a, b)| a == b)
}

/// `name` with only letters, digits, `-`, `_` and `.` (no separator, no leading dot).
fn file_name(name: &str) -> String {
    let kept: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '-'
            }
        })
        .collect();
    let trimmed = kept.trim_start_matches(['-', '.']);
    if trimmed.is_empty() {
        "board".to_owned()
    } else {
        trimmed.to_owned()
    }
}

/// What is kept at `path`; `None` when nothing is.
pub fn read(path: &Path) -> io::Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(io::Error::new(
            error.kind(),
            format!("{}: {error}", path.display()),
        )),
    }
}

/// Keeps `text` at `path`, whole or not at all: written to a new file beside it, then renamed
/// over it (never written through a link, never left half written).
pub fn write(path: &Path, text: &str) -> io::Result<()> {
    let in_context =
        |error: io::Error| io::Error::new(error.kind(), format!("{}: {error}", path.display()));
    let dir = path
        .parent()
        .ok_or_else(|| in_context(io::Error::other("no directory")))?;
    std::fs::create_dir_all(dir).map_err(in_context)?;
    let mut file = tempfile::NamedTempFile::new_in(dir).map_err(in_context)?;
    file.write_all(text.as_bytes()).map_err(in_context)?;
    file.as_file().sync_all().map_err(in_context)?;
    file.persist(path)
        .map_err(|error| in_context(error.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_port_s_name_becomes_a_file_name() {
        assert_eq!(file_name("/dev/ttyUSB0"), "dev-ttyUSB0");
        assert_eq!(file_name("../../etc"), "etc");
        assert_eq!(file_name("/"), "board");
    }

    #[test]
    fn what_is_kept_is_read_back_and_replaces_a_link_rather_than_writing_through_it() {
        let dir = tempfile::tempdir().map_err(|e| e.to_string());
        let Ok(dir) = dir else {
            panic!("no temporary directory");
        };
        let path = dir.path().join("certabo").join("dev-ttyUSB0");
        assert_eq!(read(&path).ok(), Some(None), "nothing kept yet");
        assert!(write(&path, "Q 1 2 3 4 5\n").is_ok());
        assert_eq!(read(&path).ok(), Some(Some("Q 1 2 3 4 5\n".to_owned())));
        // A link in its place is replaced, its target left alone.
        let target = dir.path().join("target");
        assert!(std::fs::write(&target, "kept elsewhere").is_ok());
        assert!(std::fs::remove_file(&path).is_ok());
        assert!(std::os::unix::fs::symlink(&target, &path).is_ok());
        assert!(write(&path, "K 5 4 3 2 1\n").is_ok());
        assert_eq!(
            std::fs::read_to_string(&target).ok().as_deref(),
            Some("kept elsewhere")
        );
        assert_eq!(read(&path).ok(), Some(Some("K 5 4 3 2 1\n".to_owned())));
    }
}
