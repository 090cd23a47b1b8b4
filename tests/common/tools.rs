//! The programs the tests use besides the project's own binary: python-chess (reads our PGN
//! back), Debian's Chromium and ChromeDriver (render the pages), Stockfish (a real UCI engine).
//! A test that needs one that is missing fails saying how to get it; none is skipped.

use std::process::{Command, Stdio};

/// What to tell a person who lacks a tool.
const HOW: &str = "or run `.ci/run` (as root), which installs everything the tests need";

/// Panics, saying how to get it, unless python3 can import python-chess.
pub fn require_python_chess() {
    let found = Command::new("python3")
        .args(["-c", "import chess.pgn"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    assert!(
        found,
        "python-chess is missing: `python3 -m pip install chess==1.11.2`, {HOW}"
    );
}

/// Panics, saying how to get them, unless `chromium` and `chromedriver` are on the PATH.
pub fn require_chromium() {
    for program in ["chromium", "chromedriver"] {
        assert!(
            on_path(program),
            "{program} is missing: `apt-get install -y chromium chromium-driver`, {HOW}"
        );
    }
}

/// Stockfish's path (on the PATH, or where Debian puts it); panics, saying how to get it, if
/// it is in neither.
pub fn stockfish() -> String {
    if on_path("stockfish") {
        return "stockfish".to_owned();
    }
    let debian = "/usr/games/stockfish";
    assert!(
        std::path::Path::new(debian).exists(),
        "Stockfish is missing: `apt-get install -y stockfish`, {HOW}"
    );
    debian.to_owned()
}

/// Whether `program` is an executable file in one of the PATH's folders.
fn on_path(program: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|folder| {
            std::fs::metadata(folder.join(program)).is_ok_and(|metadata| {
                metadata.is_file() && metadata.permissions().mode() & 0o111 != 0
            })
        })
    })
}
