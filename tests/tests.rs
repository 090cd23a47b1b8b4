//! Every integration test of the `touchmove` package in one binary (as ripgrep gathers its
//! own): one link of the crate instead of one per file, and the files' tests run side by side.
//! Each file of `tests/` is a module of it; `common/` holds what they share. Run one file's
//! tests with `cargo test --test integration FILE::`.

// Tests and benchmarks stop on what they did not expect: the workspace's denial of `unwrap`,
// `expect`, indexing and `panic!` is for the code input reaches, not for them.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

mod common;

mod analyse;
mod arbiter_clock;
mod arbiter_console;
mod ble_watch;
mod board_health;
mod certabo_watch;
mod chess960;
mod chesslink_watch;
mod cli;
mod corpus_pgn;
mod dgt_watch;
mod doctor;
mod emulate_dgt;
mod emulate_hall;
mod engine;
mod every_protocol;
mod examples;
mod fixtures;
mod full_disk;
mod hall_across_hosts;
mod hall_file;
mod hall_runner;
mod hall_vectors;
mod hall_watch;
mod hostile_clients;
mod lichess_push;
mod link_faults;
mod live_runner;
mod livechess;
mod online;
mod pages_1080p;
mod play;
mod play_book;
mod play_coach;
mod play_hint;
mod play_tablebase;
mod properties;
mod public_delay;
mod report;
mod robustness;
mod serve;
mod simulate_replay;
mod speak;
mod tablebase_serve;
