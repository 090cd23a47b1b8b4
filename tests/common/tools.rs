//! The programs the tests use besides the project's own binary: python-chess (reads our PGN
//! back), Debian's Chromium and ChromeDriver (render the pages), Stockfish (a real UCI engine),
//! Ethereal (a second one), Polyglot (makes opening books).
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

/// Debian's Polyglot (makes opening books: `polyglot make-book`); panics, saying how to get it,
/// if it is missing.
pub fn polyglot() -> String {
    debian_game("polyglot", "polyglot")
}

/// Debian's Ethereal, a second UCI engine (no `UCI_Elo`, no `Skill Level`); panics, saying how
/// to get it, if it is missing.
pub fn ethereal() -> String {
    debian_game("ethereal-chess", "ethereal-chess")
}

/// The path of `program`, which Debian's package `package` puts in `/usr/games` (or on the
/// PATH); panics, saying how to get it, if it is in neither.
fn debian_game(program: &str, package: &str) -> String {
    if on_path(program) {
        return program.to_owned();
    }
    let debian = format!("/usr/games/{program}");
    assert!(
        std::path::Path::new(&debian).exists(),
        "{program} is missing: `apt-get install -y {package}`, {HOW}"
    );
    debian
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
