//! The thin I/O loop around a sans-IO emulated board of any protocol: a pseudo-terminal pair and
//! the wall clock. Bytes read go to `handle_bytes`, what `poll_transmit` gives is written, and
//! the loop sleeps until `poll_timeout`. All the board's behaviour lives in the emulator.

use std::time::Duration;

use anyhow::{Context, Result};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::time::{Instant, sleep_until, timeout};
use tokio_serial::{SerialPort, SerialStream};

use touchmove::sensor::Millis;
use touchmove_simulation::emulation::{EmulatedBoard, hex};

/// How long a write may wait for the host to read; then the bytes are dropped, as on a serial
/// line without flow control.
const WRITE_TIMEOUT: Duration = Duration::from_millis(500);

/// How long to sleep when nothing is due.
const IDLE_WAKE: Duration = Duration::from_secs(3600);

/// Serves the emulated board on a new pseudo-terminal until the script is done and `grace` has
/// passed, or Ctrl-C.
pub async fn serve(emulator: impl EmulatedBoard, grace: Duration) -> Result<()> {
    // Our own handle on the host's end stays open (unlocked, so the host may lock it) so that
    // the host may close and reopen it without the pair hanging up.
    let (port, host_end) = SerialStream::pair().context("cannot create a pseudo-terminal pair")?;
    let path = host_end.name().context("the pseudo-terminal has no name")?;
    // The first line on standard output: the port a host should open.
    super::session::announce(&format!("port: {path}"))?;
    serve_on(port, emulator, grace).await
}

/// Serves the emulated board on `port` (the board's end of a pseudo-terminal pair) until the
/// script is done and `grace` has passed, or Ctrl-C.
pub async fn serve_on<P: AsyncRead + AsyncWrite + Unpin>(
    mut port: P,
    mut emulator: impl EmulatedBoard,
    grace: Duration,
) -> Result<()> {
    let start = Instant::now();
    let mut done_at: Option<Instant> = None;
    let mut buffer = [0u8; 256];
    let ctrl_c = tokio::signal::ctrl_c();
    tokio::pin!(ctrl_c);
    loop {
        emulator.handle_timeout(millis(start));
        transmit(&mut emulator, &mut port).await?;
        report_notices(&mut emulator);
        if emulator.script_done() && done_at.is_none() {
            tracing::info!("script done");
            done_at = Some(Instant::now());
        }
        let end = done_at.map(|done| done + grace);
        if end.is_some_and(|end| end <= Instant::now()) {
            return Ok(());
        }
        let wake = wake_at(&emulator, start, end);
        tokio::select! {
            read = port.read(&mut buffer) => {
                let n = read.context("cannot read the pseudo-terminal")?;
                let bytes = buffer.get(..n).unwrap_or_default();
                tracing::debug!("host → board: {}", hex(bytes));
                if n == 0 {
                    sleep_until(wake).await;
                }
                emulator.handle_bytes(millis(start), bytes);
            }
            () = sleep_until(wake) => {}
            signal = &mut ctrl_c => return signal.context("cannot wait for Ctrl-C"),
        }
    }
}

/// Emulator time: ms since `start`.
fn millis(start: Instant) -> Millis {
    Millis::try_from(start.elapsed().as_millis()).unwrap_or(Millis::MAX)
}

/// When the loop must wake next: the emulator's next timeout or the end of the grace period.
fn wake_at(emulator: &impl EmulatedBoard, start: Instant, end: Option<Instant>) -> Instant {
    let timeout = emulator
        .poll_timeout()
        .map(|ms| start + Duration::from_millis(ms));
    [timeout, end]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or_else(|| Instant::now() + IDLE_WAKE)
}

/// Writes everything the emulator has to send; what the host does not take in time is lost.
async fn transmit<P: AsyncWrite + Unpin>(
    emulator: &mut impl EmulatedBoard,
    port: &mut P,
) -> Result<()> {
    while let Some(bytes) = emulator.poll_transmit() {
        tracing::debug!("board → host: {}", hex(&bytes));
        match timeout(WRITE_TIMEOUT, AsyncWriteExt::write_all(port, &bytes)).await {
            Ok(written) => written.context("cannot write the pseudo-terminal")?,
            Err(_) => tracing::warn!("the host does not read: {} bytes lost", bytes.len()),
        }
    }
    Ok(())
}

/// Diagnostics about the host's bytes and the board's life, on standard error.
fn report_notices(emulator: &mut impl EmulatedBoard) {
    while let Some(notice) = emulator.poll_notice() {
        match notice.describe() {
            (line, true) => tracing::warn!("{line}"),
            (line, false) => tracing::info!("{line}"),
        }
    }
}
