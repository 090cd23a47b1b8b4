//! `serve` with no `--board`: every port on which a protocol's probe finds a board is watched,
//! now and whenever one appears (a board plugged in during the event). The ports are the
//! machine's serial ports and the entries of each `--scan-dir` (such as `/dev/serial/by-id`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use touchmove::live::Protocol;

use super::runners::{Planned, Setup};
use touchmove_links::serial::{port_names, probe};
use touchmove_web::board::Overview;

/// How often the ports are listed again.
const SCAN_EVERY: Duration = Duration::from_secs(2);

/// How long a port on which no board answered is left before it is asked again (a board
/// switched on behind an adapter already plugged in).
const ASK_AGAIN_AFTER: Duration = Duration::from_secs(30);

/// Finds the boards and starts their runners.
pub struct Discovery {
    setup: Setup,
    overview: Arc<Overview>,
    scan_dirs: Vec<PathBuf>,
    stopped: watch::Receiver<bool>,
    /// The ports watched, each with its board's runner, and when each port without a board
    /// was last asked.
    watched: Vec<(String, JoinHandle<Result<()>>)>,
    asked: HashMap<String, Instant>,
}

impl Discovery {
    /// Boards found are added to `overview` and watched with `setup` until `stopped`.
    pub fn new(
        setup: Setup,
        overview: Arc<Overview>,
        scan_dirs: Vec<PathBuf>,
        stopped: watch::Receiver<bool>,
    ) -> Discovery {
        Discovery {
            setup,
            overview,
            scan_dirs,
            stopped,
            watched: Vec::new(),
            asked: HashMap::new(),
        }
    }

    /// Scans until stopped; the runners it started, to wait for.
    pub async fn run(mut self) -> Vec<JoinHandle<Result<()>>> {
        let mut stopped = self.stopped.clone();
        loop {
            self.scan().await;
            tokio::select! {
                () = tokio::time::sleep(SCAN_EVERY) => {}
                _ = stopped.changed() => {
                    return self.watched.into_iter().map(|(_, runner)| runner).collect();
                }
            }
        }
    }

    /// Asks every port not watched (and not asked lately) which board it is. A port whose
    /// runner ended (another board answered there) is asked again.
    async fn scan(&mut self) {
        self.free_ended().await;
        for port in self.ports() {
            if self.watched.iter().any(|(watched, _)| *watched == port)
                || self
                    .asked
                    .get(&port)
                    .is_some_and(|at| at.elapsed() < ASK_AGAIN_AFTER)
            {
                continue;
            }
            match ask(&port).await {
                Some((protocol, what)) => self.watch(&port, protocol, &what),
                None => {
                    self.asked.insert(port, Instant::now());
                }
            }
        }
    }

    /// Takes back the ports whose runner ended, saying why.
    async fn free_ended(&mut self) {
        let (ended, going): (Vec<_>, Vec<_>) = std::mem::take(&mut self.watched)
            .into_iter()
            .partition(|(_, runner)| runner.is_finished());
        self.watched = going;
        for (port, runner) in ended {
            match runner.await {
                Ok(Err(error)) => eprintln!("touchmove: {error:#}"),
                Ok(Ok(())) => tracing::debug!(%port, "the board's runner ended"),
                Err(error) => eprintln!("touchmove: {port}: the board's runner failed: {error}"),
            }
        }
    }

    /// The ports to ask, in name order: the serial ports, then each scan directory's entries.
    fn ports(&self) -> Vec<String> {
        let mut ports = port_names().unwrap_or_else(|error| {
            tracing::debug!(%error, "cannot list the serial ports");
            Vec::new()
        });
        for dir in &self.scan_dirs {
            ports.extend(entries(dir));
        }
        ports.sort();
        ports.dedup();
        ports
    }

    /// Watches the board `what` found on `port`, as the next board of the overview.
    fn watch(&mut self, port: &str, protocol: &'static Protocol, what: &str) {
        let name = self.overview.len().saturating_add(1).to_string();
        eprintln!("touchmove: board {name}: {what} on {port}");
        let board = self.setup.board(&name, protocol, port);
        let plan = Planned::found(board, protocol, Path::new(port));
        self.overview.add(Arc::clone(&plan.handle));
        match self.setup.spawn(plan, self.stopped.clone()) {
            Ok(runner) => self.watched.push((port.to_owned(), runner)),
            Err(error) => eprintln!("touchmove: board {name}: {error:#}"),
        }
    }
}

/// The paths in `dir`, in name order (none if it cannot be read: it may appear later).
fn entries(dir: &Path) -> Vec<String> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<String> = read
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.path().display().to_string())
        .collect();
    paths.sort();
    paths
}

/// The first protocol of the registry whose probe recognises a board on `port`, and what the
/// board said it is.
async fn ask(port: &str) -> Option<(&'static Protocol, String)> {
    for protocol in touchmove::registry::PROTOCOLS {
        let (Some(probe_of), Some(line)) = (&protocol.probe, &protocol.line) else {
            continue;
        };
        match probe(port, line, probe_of).await {
            Ok(Some(what)) => return Some((protocol, what)),
            Ok(None) => {}
            Err(error) => {
                tracing::debug!(%error, "{port}: cannot open");
                return None;
            }
        }
    }
    None
}
