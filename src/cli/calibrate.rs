//! `touchmove calibrate`: what a board's session must learn of the board (a Certabo RFID
//! board's chips, from the pieces set up for a game and the spare queens on d6 and d3),
//! learnt again and kept for its next sessions ([`touchmove_links::learnt`]), replacing what was kept.

use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use touchmove::live::{BoardSession, LinkEvent, SessionOptions};
use touchmove::runner::Connector;
use touchmove::sensor::Millis;

use super::args::CalibrateArgs;
use touchmove_links::serial::SerialConnector;

/// Runs `touchmove calibrate`.
pub fn run(args: &CalibrateArgs) -> Result<()> {
    let runtime = super::session::runtime()?;
    runtime.block_on(calibrate(args))
}

async fn calibrate(args: &CalibrateArgs) -> Result<()> {
    let protocol = touchmove::registry::find(&args.protocol)
        .with_context(|| format!("no board protocol is called `{}`", args.protocol))?;
    let mut connector = SerialConnector::new(args.port.clone(), protocol);
    let (mut port, name) = connector.connect().await?;
    println!(
        "{name}: set the pieces up for a game (the spare queens on d6 and d3, if the set has them)"
    );
    // Nothing recalled: the session learns.
    let mut session = (protocol.new_session)(&SessionOptions::new());
    let started = Instant::now();
    let now = || Millis::try_from(started.elapsed().as_millis()).unwrap_or(Millis::MAX);
    session.connect(now());
    let limit = Duration::from_secs(args.timeout);
    let mut buffer = [0u8; 1024];
    let learnt = loop {
        while let Some(bytes) = session.poll_transmit() {
            port.write_all(&bytes).await?;
        }
        if let Some(learnt) = said(&mut session, &name)? {
            break learnt;
        }
        let left = limit.saturating_sub(started.elapsed());
        if left.is_zero() {
            bail!(
                "{name}: nothing learnt in {} s (the squares said above did not read steadily, \
                 or the board needs no calibration)",
                args.timeout
            );
        }
        let wait = session
            .poll_timeout()
            .map_or(left, |at| Duration::from_millis(at.saturating_sub(now())))
            .min(left);
        match tokio::time::timeout(wait, port.read(&mut buffer)).await {
            Ok(read) => {
                let n = read.with_context(|| format!("{name}: cannot read"))?;
                if n == 0 {
                    bail!("{name}: the port closed");
                }
                session.handle_bytes(now(), buffer.get(..n).unwrap_or_default());
            }
            Err(_elapsed) => session.handle_timeout(now()),
        }
    };
    let place = connector
        .keep_learnt(&name, &learnt)
        .with_context(|| format!("{name}: cannot keep what was learnt"))?
        .context("no place to keep what was learnt: set XDG_DATA_HOME or HOME")?;
    println!("kept for this board in {place}");
    Ok(())
}

/// What the session said, said on: what it learnt, once it did (`None` before).
fn said(session: &mut dyn BoardSession, name: &str) -> Result<Option<String>> {
    while let Some(event) = session.poll_event() {
        match event {
            LinkEvent::Learnt(learnt) => return Ok(Some(learnt)),
            LinkEvent::Notice(notice) => println!("{notice}"),
            LinkEvent::Identified { what, .. } => println!("{name}: {what}"),
            LinkEvent::Lost | LinkEvent::Gone => bail!("{name}: the board sends nothing"),
            _ => {}
        }
    }
    Ok(None)
}
