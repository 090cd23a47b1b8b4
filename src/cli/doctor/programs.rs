//! The programs touchmove starts: a UCI engine (`play`, `--analyse`) and espeak-ng (`--speak`),
//! looked for on the PATH and in /usr/games, where Debian puts its chess engines (a directory
//! not on every user's PATH).

use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::finding::{Finding, Need};

/// Where Debian installs chess engines.
pub const GAMES: &str = "/usr/games";

/// UCI engines Debian packages (each package named as its program).
const ENGINES: &[&str] = &["stockfish", "ethereal-chess", "fruit", "toga2", "lc0"];

/// Where a program was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// On the PATH, at this path.
    OnPath(PathBuf),
    /// Only in /usr/games, not on the PATH.
    InGames(PathBuf),
    /// Nowhere.
    Nowhere,
}

/// Where `program` is: a path (with a `/`) as it stands, a name on `path` (the PATH's value)
/// or in /usr/games.
pub fn find(program: &str, path: Option<&OsString>) -> Found {
    if program.contains('/') {
        let given = PathBuf::from(program);
        return if runnable(&given) {
            Found::OnPath(given)
        } else {
            Found::Nowhere
        };
    }
    let on_path = path
        .into_iter()
        .flat_map(std::env::split_paths)
        .map(|folder| folder.join(program))
        .find(|candidate| runnable(candidate));
    if let Some(found) = on_path {
        return Found::OnPath(found);
    }
    let games = Path::new(GAMES).join(program);
    if runnable(&games) {
        Found::InGames(games)
    } else {
        Found::Nowhere
    }
}

/// Whether `path` is a file someone may run.
fn runnable(path: &Path) -> bool {
    std::fs::metadata(path)
        .is_ok_and(|metadata| metadata.is_file() && metadata.permissions().mode() & 0o111 != 0)
}

/// The engines: the one `--engine` names (its program, the first word), else every engine
/// Debian packages that is here.
pub fn engines(given: Option<&str>, path: Option<&OsString>) -> Vec<Finding> {
    match given {
        Some(command) => {
            let program = command.split_whitespace().next().unwrap_or_default();
            engine(program, path).map_or_else(|| vec![not_found(program)], |found| vec![found])
        }
        None => {
            let found: Vec<Finding> = ENGINES
                .iter()
                .filter_map(|program| engine(program, path))
                .collect();
            if found.is_empty() {
                vec![Finding::missing(
                    &[Need::Play],
                    "no UCI engine on the PATH nor in /usr/games",
                    "`sudo apt-get install stockfish` (Debian, Raspberry Pi OS), or give \
                     `--engine PATH` to any UCI engine"
                        .to_owned(),
                )]
            } else {
                found
            }
        }
    }
}

/// One engine's finding, `None` when it is nowhere.
fn engine(program: &str, path: Option<&OsString>) -> Option<Finding> {
    match find(program, path) {
        Found::OnPath(at) => Some(Finding::ok(format!("engine {program}: {}", at.display()))),
        Found::InGames(at) => Some(Finding::note(
            format!("engine {program}: in {GAMES}, not on the PATH"),
            Some(format!(
                "give `--engine {}`, or add {GAMES} to the PATH",
                at.display()
            )),
        )),
        Found::Nowhere => None,
    }
}

/// The engine `--engine` names, found nowhere.
fn not_found(program: &str) -> Finding {
    Finding::missing(
        &[Need::Play],
        format!("engine `{program}`: not found on the PATH nor in {GAMES}"),
        "`sudo apt-get install stockfish`, or give --engine the path of a UCI engine".to_owned(),
    )
}

/// espeak-ng, which `--speak` speaks through.
pub fn voice(path: Option<&OsString>) -> Finding {
    match find("espeak-ng", path) {
        Found::OnPath(at) => Finding::ok(format!("espeak-ng (--speak): {}", at.display())),
        Found::InGames(_) | Found::Nowhere => Finding::note(
            "espeak-ng (--speak): not found; --speak needs it",
            Some("`sudo apt-get install espeak-ng`".to_owned()),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_is_found_on_the_path_given_and_not_elsewhere() -> std::io::Result<()> {
        let dir = tempfile::tempdir()?;
        let program = dir.path().join("myengine");
        std::fs::write(&program, "#!/bin/sh\n")?;
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755))?;
        let path = Some(OsString::from(dir.path()));
        assert_eq!(
            find("myengine", path.as_ref()),
            Found::OnPath(program.clone())
        );
        assert_eq!(find("myengine", None), Found::Nowhere);
        let by_path = program.display().to_string();
        assert_eq!(find(&by_path, None), Found::OnPath(program.clone()));
        // Not runnable: not an engine.
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o644))?;
        assert_eq!(find("myengine", path.as_ref()), Found::Nowhere);
        Ok(())
    }

    #[test]
    fn an_engine_named_and_missing_is_missing_for_play_with_its_fix() {
        let found = engines(Some("no-such-engine-xyz --threads 2"), None);
        let expected = Finding::missing(
            &[Need::Play],
            "engine `no-such-engine-xyz`: not found on the PATH nor in /usr/games",
            "`sudo apt-get install stockfish`, or give --engine the path of a UCI engine"
                .to_owned(),
        );
        assert_eq!(found, vec![expected]);
    }
}
