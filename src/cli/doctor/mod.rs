//! `touchmove doctor`: what this machine has for touchmove's commands and what it lacks, each
//! missing thing with its fix: the serial ports and this user's right to open them, the boards
//! that answer (serial, USB HID, Bluetooth LE), the engines on the PATH and in /usr/games,
//! espeak-ng, the addresses serve listens on, the Lichess token as the server knows it, and a
//! hall file read back. The exit status is not zero when something the commands asked about
//! (every command by default) needs is missing.

mod access;
mod finding;
mod network;
mod programs;

use std::ffi::OsString;
use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use super::args::{DoctorArgs, ServeArgs};
use super::ports::{Answer, ask};
use finding::{Finding, ON_A_BOARD};

use finding::Need;

/// Where serve listens by default, and LiveChess's own address.
const SERVE_DEFAULT: &str = "127.0.0.1:8080";
const LIVECHESS: &str = "127.0.0.1:1982";
/// The Lichess server asked by default.
const LICHESS: &str = "https://lichess.org";

/// Runs `touchmove doctor`.
pub fn run(args: &DoctorArgs) -> Result<()> {
    let runtime = super::session::runtime()?;
    let mut sections = Vec::new();
    let hall = match &args.config {
        Some(path) => {
            let (findings, hall) = hall_file(path);
            sections.push(("hall file", findings));
            hall
        }
        None => None,
    };
    sections.push(("boards", runtime.block_on(boards(args, hall.as_ref()))));
    let path = std::env::var_os("PATH");
    let engine = args.engine.as_deref().or_else(|| {
        hall.as_ref()
            .and_then(|hall| hall.analyse.analyse.as_deref())
    });
    let mut programs = programs::engines(engine, path.as_ref());
    programs.push(programs::voice(path.as_ref()));
    sections.push(("programs", programs));
    sections.push(("network", addresses(hall.as_ref())));
    sections.push(("lichess", runtime.block_on(lichess(args, hall.as_ref()))));
    let report = finding::report(&sections, &args.commands);
    let mut out = std::io::stdout().lock();
    out.write_all(report.as_bytes())?;
    out.flush()?;
    let failing = sections
        .iter()
        .flat_map(|(_, findings)| findings)
        .any(|finding| finding.fails(&args.commands));
    if failing {
        bail!("something a command needs is missing (the fixes are above)");
    }
    Ok(())
}

/// The hall file read back as serve reads it: each key at its line (a token's value hidden),
/// or why it is refused; and serve's options with it.
fn hall_file(path: &Path) -> (Vec<Finding>, Option<ServeArgs>) {
    let argv: Vec<OsString> = vec![
        "touchmove".into(),
        "serve".into(),
        "--config".into(),
        path.as_os_str().to_owned(),
    ];
    let command = super::help::command();
    let read = super::hall_file::read(path, &command);
    let parsed = super::hall_file::parse(argv);
    match (read, parsed) {
        (Ok(file), Ok(cli)) => {
            let mut findings = vec![Finding::ok(format!(
                "{}: {} key(s), as serve reads them:",
                path.display(),
                file.settings.len()
            ))];
            findings.extend(file.settings.iter().map(|setting| {
                Finding::ok(format!("  line {}: {}", setting.line, shown(setting)))
            }));
            let serve = match cli.command {
                super::args::Command::Serve(serve) => Some(*serve),
                _ => None,
            };
            (findings, serve)
        }
        (Err(error), _) | (_, Err(super::hall_file::Refused::File(error))) => (
            vec![Finding::missing(
                &[Need::Serve],
                error.to_string(),
                "mend that line (docs/hall.md lists the keys)".to_owned(),
            )],
            None,
        ),
        (_, Err(super::hall_file::Refused::CommandLine(error))) => (
            vec![Finding::missing(
                &[Need::Serve],
                format!("{}: {}", path.display(), error.kind()),
                "mend the file (docs/hall.md lists the keys)".to_owned(),
            )],
            None,
        ),
    }
}

/// A setting as its arguments, a token's value hidden.
fn shown(setting: &super::hall_file::Setting) -> String {
    if setting.key == "token" {
        return "--token=(hidden)".to_owned();
    }
    let args: Vec<String> = setting
        .args
        .iter()
        .map(|arg| arg.to_string_lossy().into_owned())
        .collect();
    args.join(" ")
}

/// The boards: every serial port (the system's, `--port`'s, the hall file's) with this user's
/// right to open it and the board answering there; the Chessnut boards on USB; the Bluetooth
/// LE boards in range. No board at all is missing for the commands played on a board.
async fn boards(args: &DoctorArgs, hall: Option<&ServeArgs>) -> Vec<Finding> {
    let mut names: Vec<PathBuf> = touchmove_links::serial::port_names()
        .unwrap_or_default()
        .into_iter()
        .map(PathBuf::from)
        .collect();
    names.extend(args.ports.iter().cloned());
    let hall_ports = hall.into_iter().flat_map(|hall| &hall.boards);
    names.extend(hall_ports.map(|spec| spec.port.clone()));
    // Each port once (the system lists a port --port may name too), Bluetooth names aside.
    let mut seen = std::collections::HashSet::new();
    names.retain(|name| !name.to_string_lossy().starts_with("ble:") && seen.insert(name.clone()));
    let mut findings = Vec::new();
    let mut found = 0_usize;
    for name in &names {
        let finding = access::check(name);
        let may_open = finding.state == finding::State::Ok;
        findings.push(finding);
        if may_open {
            let port = name.display();
            match ask(&name.to_string_lossy()).await {
                Answer::Board(what) => {
                    found = found.saturating_add(1);
                    findings.push(Finding::ok(format!("{port}: a board: {what}")));
                }
                answer => findings.push(Finding::note(format!("{port}: {answer}"), None)),
            }
        }
    }
    match touchmove_links::hid::boards_plugged_in() {
        Ok(plugged) => {
            for board in plugged {
                found = found.saturating_add(1);
                findings.push(Finding::ok(format!(
                    "USB: {board}, a Chessnut board (--protocol chessnut)"
                )));
            }
        }
        Err(error) => findings.push(Finding::note(format!("USB HID: {error}"), None)),
    }
    match touchmove_links::ble::in_range().await {
        Ok(in_range) => {
            for board in in_range {
                found = found.saturating_add(1);
                findings.push(Finding::ok(format!("Bluetooth: {board}")));
            }
        }
        Err(error) => findings.push(Finding::note(
            error.to_string(),
            Some(
                "for a Bluetooth board: `sudo apt-get install bluez`, and switch the adapter on"
                    .to_owned(),
            ),
        )),
    }
    if found == 0 {
        findings.push(Finding::missing(
            ON_A_BOARD,
            "no board answers",
            "plug the board in (USB) or switch it on near this machine (Bluetooth); \
             `--port PATH` asks a port the system does not list"
                .to_owned(),
        ));
    }
    findings
}

/// The addresses serve listens on: the hall file's `listen` (else 8080 on loopback) and
/// LiveChess's (the hall file's `livechess`, else LiveChess's own).
fn addresses(hall: Option<&ServeArgs>) -> Vec<Finding> {
    let default = |text: &str| text.parse::<SocketAddr>().ok();
    let listen = hall
        .and_then(|hall| hall.listen)
        .or_else(|| default(SERVE_DEFAULT));
    let livechess = hall
        .and_then(|hall| hall.livechess)
        .or_else(|| default(LIVECHESS));
    let mut findings = Vec::new();
    if let Some(address) = listen {
        findings.push(network::free(
            address,
            "serve's pages",
            "serve takes another free port when none is given (said on its first line); \
             give --listen to choose",
        ));
    }
    if let Some(address) = livechess {
        findings.push(network::free(
            address,
            "serve --livechess",
            "is DGT LiveChess running? serve --livechess answers in its place: stop it, or \
             give --livechess another address",
        ));
    }
    findings
}

/// The Lichess token (`--lichess-token-file`, the hall file's, else `LICHESS_TOKEN`) as the
/// server knows it.
async fn lichess(args: &DoctorArgs, hall: Option<&ServeArgs>) -> Vec<Finding> {
    let file = args
        .lichess_token_file
        .as_deref()
        .or_else(|| hall.and_then(|hall| hall.lichess_token_file.as_deref()));
    let named = file.map(|path| ("--lichess-token-file", path));
    let token = match super::secrets::token(named, super::secrets::LICHESS_TOKEN) {
        Ok(Some(token)) => token,
        Ok(None) => return vec![network::no_token()],
        Err(error) => {
            return vec![Finding::missing(
                &[Need::Online, Need::Serve],
                format!("Lichess token: {error:#}"),
                "make the file readable by this user".to_owned(),
            )];
        }
    };
    let url = args
        .lichess_url
        .as_deref()
        .or_else(|| hall.map(|hall| hall.lichess_url.as_str()))
        .unwrap_or(LICHESS);
    let answer = match touchmove_lichess::board_api::Lichess::new(url, &token) {
        Ok(server) => server.test_token().await,
        Err(error) => Err(error.to_string()),
    };
    let pushing = hall.is_some_and(|hall| hall.lichess_round.is_some());
    network::token(answer, pushing)
}
