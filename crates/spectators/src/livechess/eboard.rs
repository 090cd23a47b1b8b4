//! A board as `eboards` lists it, and as a feed shows it.

use serde::Serialize;
use shakmaty::Color;

use crate::watched::{BoardSummary, ClockState, Link, WatchedBoard};

/// A board's state at one instant, for the LiveChess API.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardView {
    /// Its summary, the clock's running side counted down to the instant.
    pub summary: BoardSummary,
    /// The pieces on the board as a FEN piece placement (see [`WatchedBoard::named_board`]).
    pub placement: String,
    /// The current game's moves that stand, in SAN.
    pub sans: Vec<String>,
    /// Whether the game was set up by a client (`setup`): DGT LiveChess says the moves
    /// (`start`, `san`, `match`) of such a game only.
    pub set_up: bool,
}

impl BoardView {
    /// The view of `watched`, whose summary (its clock counted down) is `summary`.
    pub fn of(watched: &WatchedBoard, summary: BoardSummary) -> BoardView {
        BoardView {
            summary,
            placement: watched.named_board().board_fen().to_string(),
            sans: watched.sans(),
            set_up: false,
        }
    }
}

/// A clock as LiveChess gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ClockInfo {
    /// White's remaining time, in whole seconds.
    pub white: u64,
    /// Black's remaining time, in whole seconds.
    pub black: u64,
    /// `true` while White's time runs, `false` while Black's does, `null` when stopped.
    pub run: Option<bool>,
    /// When the times were read (ms since the Unix epoch).
    pub time: u64,
}

impl ClockInfo {
    /// `clock`, read at `time` (ms since the Unix epoch).
    pub fn new(clock: &ClockState, time: u64) -> ClockInfo {
        ClockInfo {
            white: clock.white / 1000,
            black: clock.black / 1000,
            run: clock.running.map(|color| color == Color::White),
            time,
        }
    }

    /// Whether `other` shows the same times and running side (read at any instant).
    pub fn shows_as(&self, other: &ClockInfo) -> bool {
        (self.white, self.black, self.run) == (other.white, other.black, other.run)
    }
}

/// One device of the `sources` call: a port a board is on (an eboard's `source` names it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Source {
    /// The port.
    pub device: String,
}

impl Source {
    /// The devices of `eboards`, each once, in board order (a board not opened yet has none).
    pub fn of(eboards: &[Eboard]) -> Vec<Source> {
        let mut sources: Vec<Source> = Vec::new();
        for device in eboards.iter().filter_map(|eboard| eboard.source.clone()) {
            if sources.iter().all(|source| source.device != device) {
                sources.push(Source { device });
            }
        }
        sources
    }
}

/// One board of `GET /api/v1.0/eboards` and of the `eboards` call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Eboard {
    /// The board's serial number, once the board has said it (else touchmove's name for it).
    pub serialnr: String,
    /// The port it is on (`null` until it has been opened).
    pub source: Option<String>,
    /// `ACTIVE` while it answers, `NOTRESPONDING` when it stopped, `null` until it was heard.
    pub state: Option<&'static str>,
    /// Its battery (`null`: no board touchmove speaks to reports one).
    pub battery: Option<String>,
    /// The players, `White - Black`, when known.
    pub comment: Option<String>,
    /// The pieces on the board (FEN piece placement).
    pub board: String,
    /// Whether the board is read turned round.
    pub flipped: bool,
    /// The clock, when one runs.
    pub clock: Option<ClockInfo>,
}

impl Eboard {
    /// The board `view` shows, at `now` (ms since the Unix epoch).
    pub fn new(view: &BoardView, now: u64) -> Eboard {
        let summary = &view.summary;
        let heard = !matches!(summary.link, Link::Connecting | Link::Unreachable);
        let players = &summary.players;
        let comment = match (&players.white, &players.black) {
            (None, None) => None,
            (white, black) => Some(format!(
                "{} - {}",
                white.as_deref().unwrap_or("?"),
                black.as_deref().unwrap_or("?")
            )),
        };
        Eboard {
            serialnr: serialnr(summary),
            source: heard.then(|| summary.port.clone()),
            state: match summary.link {
                Link::Connected => Some("ACTIVE"),
                Link::Lost => Some("NOTRESPONDING"),
                Link::Connecting | Link::Unreachable => None,
            },
            battery: None,
            comment,
            board: view.placement.clone(),
            flipped: summary.flipped,
            clock: summary
                .clock
                .as_ref()
                .map(|clock| ClockInfo::new(clock, now)),
        }
    }
}
/// A board's `serialnr`: its serial number once the board has said it, as LiveChess gives
/// it (clients configured with a board's serial find it), else its name in serve.
pub fn serialnr(summary: &BoardSummary) -> String {
    summary
        .serial
        .clone()
        .unwrap_or_else(|| summary.name.clone())
}

/// Whether `serialnr`, as a client asks for a board, names the board of `summary`: its serial
/// number, or its name in serve.
pub fn is_named(summary: &BoardSummary, serialnr: &str) -> bool {
    summary.name == serialnr || summary.serial.as_deref() == Some(serialnr)
}
