//! How long the engine may think: the `go` command's limits, and the bound after which an
//! engine that has not answered counts as hung.

use std::time::Duration;

use shakmaty::Color;
use shakmaty_uci::{UciMessage, UciSearchControl, UciTimeControl};

use touchmove_core::sensor::Millis;

/// The margin over the time given before an engine that has not moved counts as hung.
const GRACE_MS: Millis = 5000;

/// How long a search to a fixed depth may take before the engine counts as hung.
const DEPTH_BOUND_MS: Millis = 120_000;

/// What the engine is told to search for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchLimits {
    /// `go movetime MS`.
    MoveTime(Millis),
    /// `go depth N`.
    Depth(u8),
    /// `go wtime btime winc binc`: both players' remaining times and increments (ms).
    Clock {
        /// White's remaining time.
        white: Millis,
        /// Black's remaining time.
        black: Millis,
        /// White's increment.
        white_increment: Millis,
        /// Black's increment.
        black_increment: Millis,
    },
}

impl SearchLimits {
    /// The `go` command.
    pub(super) fn go(self) -> UciMessage {
        let ms = Duration::from_millis;
        match self {
            SearchLimits::MoveTime(time) => UciMessage::go_movetime(ms(time)),
            SearchLimits::Depth(depth) => UciMessage::Go {
                time_control: None,
                search_control: Some(UciSearchControl {
                    search_moves: Vec::new(),
                    mate: None,
                    depth: Some(depth),
                    nodes: None,
                }),
            },
            SearchLimits::Clock {
                white,
                black,
                white_increment,
                black_increment,
            } => UciMessage::Go {
                time_control: Some(UciTimeControl::TimeLeft {
                    white_time: Some(ms(white)),
                    black_time: Some(ms(black)),
                    white_increment: Some(ms(white_increment)),
                    black_increment: Some(ms(black_increment)),
                    moves_to_go: None,
                }),
                search_control: None,
            },
        }
    }

    /// How long the engine, moving as `mover`, may take before it counts as hung: the time it
    /// was given and a margin.
    pub(super) fn bound(self, mover: Color) -> Millis {
        let given = match self {
            SearchLimits::MoveTime(time) => time,
            SearchLimits::Depth(_) => DEPTH_BOUND_MS,
            SearchLimits::Clock {
                white,
                black,
                white_increment,
                black_increment,
            } => match mover {
                Color::White => white.saturating_add(white_increment),
                Color::Black => black.saturating_add(black_increment),
            },
        };
        given.saturating_add(GRACE_MS)
    }
}
