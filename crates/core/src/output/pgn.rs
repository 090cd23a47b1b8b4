//! Recording the game-event stream as PGN: moves in SAN, rulings as comments, one PGN game per
//! game on the board.

mod comment;
mod error;
mod game;
mod movetext;
mod tags;

#[cfg(test)]
mod tests;

use std::io::Write;

use shakmaty::Chess;

use crate::event::{EventKind, GameEvent, GameResult};
use crate::stream::{OnlineNotice, StreamEvent, StreamKind};
pub use comment::{illegal_comment, violation_comment};
use comment::{mismatch_comment, result_comment};
pub use error::RecordError;
use game::GameRecord;
pub use tags::PgnTags;

/// Builds the PGN of a session from its game events, fed one at a time.
///
/// Moves are checked against the recorded position and written in SAN; violations, illegal
/// moves, claimable draws and board mismatches become `{ }` comments where they were decided;
/// a takeback removes the last move and the comments after it; a result sets the `Result` tag
/// and the termination marker; a `tag` event names a tag of this game and the next ones; a
/// `game` event starts a new game from the standard position.
///
/// ```
/// use shakmaty::Chess;
/// use touchmove_core::output::pgn::{PgnRecorder, PgnTags};
/// use touchmove_core::sensor_log::read_log;
/// use touchmove_core::{Config, Replay};
///
/// let log = read_log("touchmove-log 1\n0 lift e2\n400 place e4\n900 lift e7\n1300 place e5\n")?;
/// let mut replay = Replay::new(Config::default());
/// let mut pgn = PgnRecorder::new(Chess::default(), false, PgnTags::default());
/// let mut decided = Vec::new();
/// for record in log.records() {
///     replay.record(record, &mut |event| decided.push(event));
/// }
/// replay.finish(&mut |event| decided.push(event));
/// for event in &decided {
///     pgn.record(event)?;
/// }
/// let text = pgn.to_pgn_string();
/// assert!(text.contains("1. e4 e5"), "{text}");
/// assert!(text.contains("[Result \"*\"]"), "no result yet: {text}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct PgnRecorder {
    tags: PgnTags,
    /// The games closed, each with the tags it ended with.
    closed: Vec<(GameRecord, PgnTags)>,
    current: GameRecord,
}

impl PgnRecorder {
    /// A recorder whose first game starts from `start`; `set_up` says it is a set-up position
    /// (the `SetUp` and `FEN` tags are written for it, as they are for any start that is not the
    /// standard starting position). `tags` apply to every game.
    pub fn new(start: Chess, set_up: bool, tags: PgnTags) -> PgnRecorder {
        PgnRecorder {
            tags,
            closed: Vec::new(),
            current: GameRecord::new(start, set_up),
        }
    }

    /// The tags of the current game and the games after it (those closed keep theirs): a
    /// game's date and `GameId`, known once it begins.
    pub fn set_tags(&mut self, tags: PgnTags) {
        self.tags = tags;
    }

    /// The current game, not begun yet, starts from `start` instead (a Chess960 start the board
    /// showed by itself); nothing once it has a move.
    pub fn starts_from(&mut self, start: &Chess) {
        if self.current.is_untouched() && self.current.start() != start {
            self.current = GameRecord::new(start.clone(), *start != Chess::default());
        }
    }

    /// Records one line of the stream, whoever decided it: the interpreter's decisions as
    /// [`PgnRecorder::record`] does, a wrong execution of the engine's or the server's move as
    /// a comment, and so a move the server refused or moves it took back (the engine's or the
    /// server's move is the move that follows; the link's state is the session's, not the
    /// game's; offers and chat are not the game's record).
    pub fn record_stream(&mut self, event: &StreamEvent) -> Result<(), RecordError> {
        match &event.kind {
            StreamKind::Game(kind) => self.record_kind(kind),
            StreamKind::Execution(execution) => self.note(execution.message.clone()),
            StreamKind::Online(notice) => match notice {
                OnlineNotice::Refused { uci, message } => {
                    self.note(format!("the server refused {uci}: {message}"))
                }
                OnlineNotice::TakenBack { plies } => {
                    self.note(format!("the server took the game back to ply {plies}"))
                }
                OnlineNotice::Ended { message, .. } => self.note(message.clone()),
                _ => Ok(()),
            },
            StreamKind::Hint(hint) => self.note(match &hint.tablebase {
                Some(table) => format!(
                    "hint: {}, the tablebase's move for {} ({}), shown at the player's request",
                    hint.san,
                    crate::event::color_name(hint.color),
                    table.words()
                ),
                None => format!(
                    "hint: {}, the engine's best move for {}, shown at the player's request",
                    hint.san,
                    crate::event::color_name(hint.color)
                ),
            }),
            StreamKind::Coach(warning) => self.note(format!(
                "coach: {}, said before the engine replied",
                warning.words()
            )),
            // An engine's opinion, not the game's record.
            // Nor is an action the host did not carry out.
            StreamKind::Engine(_)
            | StreamKind::Link(_)
            | StreamKind::Analysis(_)
            | StreamKind::Refused(_)
            | StreamKind::Battery(_)
            | StreamKind::Notice(_) => Ok(()),
        }
    }

    /// Records one game event; an event that does not fit the game so far is refused and
    /// nothing is recorded.
    pub fn record(&mut self, event: &GameEvent) -> Result<(), RecordError> {
        self.record_kind(&event.kind)
    }

    fn record_kind(&mut self, kind: &EventKind) -> Result<(), RecordError> {
        match kind {
            EventKind::Move(played) => {
                self.current.play(played)?;
                if played.reconstructed {
                    self.note(
                        "reconstructed: made while the board was not heard, the only way to \
                         what it showed"
                            .to_owned(),
                    )?;
                }
                match played.clock {
                    Some(clock) => {
                        let clk = clk_comment(played.color, clock);
                        self.current.set_clock(played.ply, clk)
                    }
                    None => Ok(()),
                }
            }
            // What is pending is not yet the record, nor a question to the hands.
            EventKind::Pending(_) | EventKind::Ambiguous { .. } => Ok(()),
            EventKind::Clock { ply, color, clock } => {
                self.current.set_clock(*ply, clk_comment(*color, *clock))
            }
            EventKind::Takeback { ply } => self.current.take_back(*ply),
            EventKind::Result(result) => self.finish(result),
            EventKind::ClockSet { clock } => self.note(format!(
                "the arbiter set the clock: white {}, black {}",
                crate::clock::clk(clock.white),
                crate::clock::clk(clock.black)
            )),
            EventKind::Tag { tag, value } => {
                self.tags.set(*tag, value.clone());
                Ok(())
            }
            EventKind::Reinstated { ply, moves, .. } => {
                self.note(crate::output::text::reinstated_text(*ply, moves))
            }
            EventKind::Game { number } => {
                self.start_game(*number);
                Ok(())
            }
            EventKind::Setup { fen, .. } => self.set_up(fen),
            EventKind::Violation(violation) => self.note(violation_comment(violation)),
            EventKind::Illegal(illegal) => self.note(illegal_comment(illegal)),
            EventKind::Claimable { reason } => {
                self.note(format!("draw claimable: {}", reason.as_str()))
            }
            EventKind::Mismatch { squares } => self.note(mismatch_comment(squares)),
            EventKind::Resync => self.note("resync: the board matches again".to_owned()),
            EventKind::Note { text } => self.note(format!("arbiter: {text}")),
            EventKind::TimeAdded { color, ms, .. } => self.note(format!(
                "the arbiter gave {} {} s more",
                crate::event::color_name(*color),
                ms / 1_000
            )),
        }
    }

    /// Writes every game recorded so far as PGN, an unfinished game ending with `*`.
    pub fn write_pgn(&self, w: &mut impl Write) -> std::io::Result<()> {
        w.write_all(self.to_pgn_string().as_bytes())
    }

    /// Writes the games that have ended and forgets them (a long session's PGN is written as it
    /// goes, its memory flat); [`PgnRecorder::write_pgn`] then writes the rest, each game
    /// separated from the one before it by a blank line as in [`PgnRecorder::to_pgn_string`].
    pub fn write_closed(&mut self, w: &mut impl Write) -> std::io::Result<()> {
        for (game, tags) in self.closed.drain(..) {
            w.write_all(game.to_pgn(&tags).as_bytes())?;
            w.write_all(b"\n")?;
        }
        Ok(())
    }

    /// Every game recorded so far as PGN text, games separated by a blank line.
    pub fn to_pgn_string(&self) -> String {
        let games: Vec<String> = self
            .closed
            .iter()
            .map(|(game, tags)| game.to_pgn(tags))
            .chain(std::iter::once(self.current.to_pgn(&self.tags)))
            .collect();
        games.join("\n")
    }

    /// The opening the current game reached, as its `ECO` and `Opening` tags name it.
    pub fn opening(&self) -> Option<crate::openings::Opening> {
        self.current.opening()
    }

    /// Gives the last move of the current game the annotation glyph `nag`, written `$N` after
    /// it (PGN standard 8.2.4: 6 `?!`, 2 `?`, 4 `??`): a review's judgement, not the game's
    /// record. Nothing before the first move.
    pub fn annotate(&mut self, nag: u8) {
        self.current.annotate(nag);
    }

    /// Adds a comment at the current point of the current game (after its last move): a
    /// review's words, not the game's record.
    pub fn comment(&mut self, text: String) {
        self.current.comment(text);
    }

    /// Records a comment at the current point of the game.
    fn note(&mut self, text: String) -> Result<(), RecordError> {
        self.current.comment(text);
        Ok(())
    }

    /// Sets the result, with its reason as a comment.
    fn finish(&mut self, result: &GameResult) -> Result<(), RecordError> {
        self.current.finish(&result.result, result.termination)?;
        if !result.reason.is_empty() || result.rule.is_some() {
            self.current.comment(result_comment(result));
        }
        Ok(())
    }

    /// Closes the current game and starts one from `fen` (a set-up position: its `FEN` tag is
    /// written); a position that is no legal chess position is refused.
    fn set_up(&mut self, fen: &shakmaty::fen::Fen) -> Result<(), RecordError> {
        let start: Chess = crate::rules::chess960::from_fen(fen)
            .map_err(|error| RecordError::SetUp(error.into()))?;
        let finished = std::mem::replace(&mut self.current, GameRecord::new(start, true));
        // An empty game is no game: one game is one game, in every PGN the project writes.
        if !finished.is_untouched() {
            self.closed.push((finished, self.tags.clone()));
        }
        Ok(())
    }

    /// Closes the current game and starts game `number` from the standard position; an empty
    /// game is dropped rather than closed (game 1 announced before anything was recorded keeps
    /// the recorder's start).
    fn start_game(&mut self, number: u32) {
        let fresh = GameRecord::new(Chess::default(), false);
        if self.current.is_untouched() {
            if number > 1 || !self.closed.is_empty() {
                self.current = fresh;
            }
            return;
        }
        let finished = std::mem::replace(&mut self.current, fresh);
        self.closed.push((finished, self.tags.clone()));
    }
}

/// The `[%clk h:mm:ss]` comment after a move: the mover's remaining time.
fn clk_comment(mover: shakmaty::Color, clock: crate::event::ClockTimes) -> String {
    format!("[%clk {}]", crate::clock::clk(clock.get(mover)))
}
