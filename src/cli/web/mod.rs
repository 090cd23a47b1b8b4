//! The web pages of live boards and what feeds them, shared by `serve` (every board of a hall),
//! `play` and `demo` (one board's page): the shared state of each board and its stream
//! (`board.rs`), the runner's sink that fills them and, under `serve --record-dir`, one log per
//! game (`sink.rs`, `records.rs`), the routes and the pages built into the binary (`routes.rs`,
//! `page/`), who may do what (`access.rs`), what the public sees late (`delay.rs`), the HTTP loop with its timeouts (`server.rs`), the
//! online game's buttons (`requests.rs`), the
//! streams' latency (`stamps.rs`, `stats.rs`), and one board's page served on its own
//! (`one_page.rs`).

pub mod access;
pub mod asked;
pub mod board;
pub mod delay;
pub mod one_page;
pub mod records;
pub mod requests;
pub mod results;
pub mod routes;
pub mod server;
pub mod sink;
pub mod stamps;
pub mod stats;

pub use one_page::serve_one;
pub use sink::PageSink;
