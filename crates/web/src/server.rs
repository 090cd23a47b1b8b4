//! The HTTP server loop of `serve`'s pages, API and LiveChess API: hyper over a TCP listener,
//! with what a client may cost bounded. A request's head must arrive within
//! [`HEADER_TIMEOUT`], and a kept-alive connection that asks nothing more for as long is
//! closed (the same timer: it runs while the next head is awaited). Every request passes the
//! access rules first (`access::guard`).
//!
//! The servers run on a thread of their own, away from the boards' runners: whatever clients
//! do, the boards are read on time.

use std::io;
use std::net::SocketAddr;
use std::time::Duration;

use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::watch;

use super::access::{self, Access};

/// How long a client has to send a request's head, and how long a kept-alive connection may
/// wait for its next request.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long connections still open when the server stops are given to finish.
const DRAIN: Duration = Duration::from_secs(1);

/// The kernel's send buffer of a connection (the kernel doubles it): what a client that reads
/// nothing holds in the kernel, besides what its server-side queue holds.
const SEND_BUFFER: usize = 128 * 1024;

/// How long to wait before accepting again when the process is out of descriptors.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// `app` behind the access rules of `access`.
pub fn guarded(app: Router, access: Access) -> Router {
    app.layer(axum::middleware::from_fn_with_state(access, access::guard))
}

/// Serves `app` on `listener` until `stopped` turns true; then the connections still open are
/// asked to finish and given `DRAIN`.
pub async fn serve(listener: TcpListener, app: Router, mut stopped: watch::Receiver<bool>) {
    let mut builder = Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT);
    let (closing, _) = watch::channel(false);
    let mut connections = tokio::task::JoinSet::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    let _ = stream.set_nodelay(true);
                    let _ = socket2::SockRef::from(&stream).set_send_buffer_size(SEND_BUFFER);
                    connections.spawn(connection(
                        builder.clone(),
                        stream,
                        peer,
                        app.clone(),
                        closing.subscribe(),
                    ));
                }
                Err(error) => {
                    tracing::warn!(%error, "cannot accept a connection");
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                }
            },
            // Finished connections are reaped as they end.
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
            _ = stopped.changed() => break,
        }
    }
    let _ = closing.send(true);
    let drained = tokio::time::timeout(DRAIN, async {
        while connections.join_next().await.is_some() {}
    });
    if drained.await.is_err() {
        connections.abort_all();
    }
}

/// Serves one connection until it ends, or finishes it gracefully once `closing` turns true.
async fn connection(
    builder: Builder<TokioExecutor>,
    stream: tokio::net::TcpStream,
    peer: SocketAddr,
    app: Router,
    mut closing: watch::Receiver<bool>,
) {
    let service = TowerToHyperService::new(app);
    let served = builder.serve_connection_with_upgrades(TokioIo::new(stream), service);
    tokio::pin!(served);
    tokio::select! {
        result = served.as_mut() => {
            if let Err(error) = result {
                tracing::debug!(%peer, %error, "connection ended");
            }
        }
        _ = closing.changed() => {
            served.as_mut().graceful_shutdown();
            let _ = served.await;
        }
    }
}

/// Binds `address` for a server, so that a busy address is said before anything starts (the
/// listener is handed to the server's runtime with [`into_tokio`]).
pub fn bind(address: SocketAddr) -> io::Result<std::net::TcpListener> {
    let listener = std::net::TcpListener::bind(address)?;
    listener.set_nonblocking(true)?;
    Ok(listener)
}

/// A bound listener, on the runtime this is called on.
pub fn into_tokio(listener: std::net::TcpListener) -> io::Result<TcpListener> {
    TcpListener::from_std(listener)
}
