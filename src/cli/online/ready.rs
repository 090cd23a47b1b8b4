//! Before a game is sought or a challenge accepted: the board found, and its pieces set up for
//! a game. A game paired while the port is missing, or while the board still shows the last
//! game, would be aborted by the server before the player could start it.

use std::io;
use std::rc::Rc;

use anyhow::{Context, Result};
use shakmaty::Chess;
use tokio::sync::Notify;

use touchmove::interpreter::Config;
use touchmove::live::{LiveEvent, LiveGame};
use touchmove::runner::{Happened, Sink};

use super::super::args::{OnlineArgs, OnlineVariant};

/// Waits until the board answers and shows a game's starting position (the standard start; a
/// Chess960 start with `--variant chess960`), saying what it waits for. `after_game`: a game
/// was played before in this session (the pieces are to be set up again).
pub(super) async fn board_ready(args: &OnlineArgs, after_game: bool) -> Result<()> {
    let board = &args.board;
    let mut match_board = super::super::session::match_board(board, None).await?;
    let mut game = LiveGame::new(Chess::default(), Config::default());
    if args.variant == OnlineVariant::Chess960 {
        game = game.recognising_chess960();
    }
    let where_ = board
        .port
        .as_ref()
        .map_or_else(|| "the board".to_owned(), |port| port.display().to_string());
    eprintln!(
        "touchmove: waiting for {where_} to show a game's starting position before seeking or accepting a game"
    );
    let ready = Rc::new(Notify::new());
    let mut sink = ReadySink {
        ready: Rc::clone(&ready),
        after_game,
        said_set_up: false,
    };
    let shutdown = async move { ready.notified().await };
    match_board
        .watch(&mut game, &mut sink, shutdown)
        .await
        .with_context(|| format!("{where_}: cannot watch the board"))?;
    eprintln!("touchmove: the board is set up for a game");
    Ok(())
}

/// What the board says while the game is awaited: its notices said, the set-up asked for once,
/// and the start told.
struct ReadySink {
    ready: Rc<Notify>,
    after_game: bool,
    said_set_up: bool,
}

impl Sink for ReadySink {
    fn take(&mut self, happened: Happened<'_>) -> io::Result<()> {
        match happened {
            Happened::Notice { text, .. } => eprintln!("touchmove: {text}"),
            Happened::Live {
                event: LiveEvent::Started { .. },
                ..
            } => self.ready.notify_one(),
            Happened::Live {
                event: LiveEvent::Waiting { .. },
                ..
            } if !std::mem::replace(&mut self.said_set_up, true) => {
                let which = if self.after_game { "the next" } else { "a" };
                eprintln!(
                    "touchmove: set up the pieces for {which} game: nothing is sought or \
                     accepted until the board shows the starting position"
                );
            }
            // Nothing is recorded: the game is not yet sought.
            Happened::Live { .. }
            | Happened::Sensor { .. }
            | Happened::ClockReading { .. }
            | Happened::Link { .. }
            | Happened::Battery { .. }
            | Happened::Serial { .. }
            | Happened::Connected { .. }
            | Happened::Unreachable { .. }
            | Happened::Timeout { .. }
            | Happened::Flipped { .. }
            | Happened::Exempted { .. }
            | Happened::Operated { .. }
            | Happened::Woken { .. }
            | Happened::Refused { .. } => {}
        }
        Ok(())
    }
}
