//! One game as recorded: its start, its moves and comments in order, and its result.

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, EnPassantMode, KnownOutcome, Position};

use super::error::RecordError;
use super::movetext::{MovetextItem, Numbering, movetext_lines};
use super::tags::{PgnTags, push_tag};
use crate::event::{MoveEvent, Termination};
use crate::openings::{self, Opening};

/// A recorded move, with the position before it so that it can be taken back, and where its
/// `[%clk]` comment stands, once it has one.
#[derive(Debug, Clone)]
struct RecordedMove {
    before: Chess,
    clk: Option<usize>,
}

/// One game of the recording.
#[derive(Debug, Clone)]
pub(super) struct GameRecord {
    start: Chess,
    set_up: bool,
    position: Chess,
    items: Vec<MovetextItem>,
    moves: Vec<RecordedMove>,
    result: Option<KnownOutcome>,
    /// How the game ended, as the `Termination` tag says it, when the result says.
    termination: Option<Termination>,
}

impl GameRecord {
    /// A game starting from `start`; `set_up` says it is a set-up position (the `SetUp` and
    /// `FEN` tags are also written whenever `start` is not the standard starting position).
    pub(super) fn new(start: Chess, set_up: bool) -> GameRecord {
        GameRecord {
            position: start.clone(),
            start,
            set_up,
            items: Vec::new(),
            moves: Vec::new(),
            result: None,
            termination: None,
        }
    }

    /// Whether nothing at all has been recorded in this game.
    pub(super) fn start(&self) -> &Chess {
        &self.start
    }

    pub(super) fn is_untouched(&self) -> bool {
        self.items.is_empty() && self.result.is_none()
    }

    /// Records a legal move, checking it against the recorded position.
    pub(super) fn play(&mut self, event: &MoveEvent) -> Result<(), RecordError> {
        self.refuse_after_result("move")?;
        if event.color != self.position.turn() {
            return Err(RecordError::WrongSide {
                ply: event.ply,
                expected: self.position.turn(),
                found: event.color,
            });
        }
        let before = self.position.clone();
        let m = event
            .san
            .san
            .to_move(&before)
            .map_err(|source| RecordError::IllegalSan {
                ply: event.ply,
                san: event.san.to_string(),
                fen: fen_of(&before),
                source,
            })?;
        let san = SanPlus::from_move_and_play_unchecked(&mut self.position, m);
        self.items.push(MovetextItem::Move(san.to_string(), None));
        self.moves.push(RecordedMove { before, clk: None });
        Ok(())
    }

    /// Takes back the last move and the comments recorded after it.
    pub(super) fn take_back(&mut self, ply: u32) -> Result<(), RecordError> {
        self.refuse_after_result("takeback")?;
        let last_ply = u32::try_from(self.moves.len()).unwrap_or(u32::MAX);
        if last_ply == 0 {
            return Err(RecordError::NothingToTakeBack { ply });
        }
        if ply != last_ply {
            return Err(RecordError::NotTheLastPly { ply, last_ply });
        }
        if let Some(taken) = self.moves.pop() {
            self.position = taken.before;
        }
        while let Some(MovetextItem::Comment(_)) = self.items.last() {
            self.items.pop();
        }
        self.items.pop();
        Ok(())
    }

    /// Sets the `[%clk]` comment of ply `ply`, the last move: its first is recorded at the
    /// current point of the game, a later one (the times after the move's press) replaces it.
    pub(super) fn set_clock(&mut self, ply: u32, clk: String) -> Result<(), RecordError> {
        let last_ply = u32::try_from(self.moves.len()).unwrap_or(u32::MAX);
        if ply != last_ply {
            return Err(RecordError::TimesNotOfTheLastPly { ply, last_ply });
        }
        let at = self.items.len();
        let Some(last) = self.moves.last_mut() else {
            return Err(RecordError::TimesNotOfTheLastPly { ply, last_ply });
        };
        match last.clk.and_then(|index| self.items.get_mut(index)) {
            Some(item) => *item = MovetextItem::Comment(clk),
            None => {
                last.clk = Some(at);
                self.items.push(MovetextItem::Comment(clk));
            }
        }
        Ok(())
    }

    /// Gives the last move the annotation glyph `nag` (a NAG: 6 `?!`, 2 `?`, 4 `??`); nothing
    /// before the first move.
    pub(super) fn annotate(&mut self, nag: u8) {
        let last_move = self.items.iter_mut().rev().find_map(|item| match item {
            MovetextItem::Move(_, glyph) => Some(glyph),
            MovetextItem::Comment(_) => None,
        });
        if let Some(glyph) = last_move {
            *glyph = Some(nag);
        }
    }

    /// Records a comment at the current point of the game.
    pub(super) fn comment(&mut self, text: String) {
        self.items.push(MovetextItem::Comment(text));
    }

    /// Records the result, and how the game ended when known.
    pub(super) fn finish(
        &mut self,
        result: &str,
        termination: Option<Termination>,
    ) -> Result<(), RecordError> {
        self.refuse_after_result("result")?;
        let outcome = KnownOutcome::from_ascii(result.as_bytes()).map_err(|_| {
            RecordError::UnknownResult {
                result: result.to_owned(),
            }
        })?;
        self.result = Some(outcome);
        self.termination = termination;
        Ok(())
    }

    /// The game as PGN: tags, a blank line, the movetext lines.
    pub(super) fn to_pgn(&self, tags: &PgnTags) -> String {
        let result = self.result.map_or("*", KnownOutcome::as_str);
        let mut out = String::new();
        for (name, value) in tags.roster(result) {
            push_tag(&mut out, name, value);
        }
        // A Chess960 start whose castling standard chess cannot write (a king or a castling
        // rook off its standard square); the others castle as standard chess does.
        if crate::rules::chess960::is_chess960(&self.start) {
            push_tag(&mut out, "Variant", "Chess960");
        }
        if self.needs_fen() {
            push_tag(&mut out, "SetUp", "1");
            push_tag(&mut out, "FEN", &fen_of(&self.start));
        }
        if let Some(board) = &tags.board {
            push_tag(&mut out, "Board", board);
        }
        if let Some(game_id) = &tags.game_id {
            push_tag(&mut out, "GameId", game_id);
        }
        if let Some(opening) = self.opening() {
            push_tag(&mut out, "ECO", opening.eco);
            push_tag(&mut out, "Opening", opening.name);
        }
        if let Some(termination) = self.termination {
            push_tag(&mut out, "Termination", termination.as_str());
        }
        if let Some(time_control) = &tags.time_control {
            push_tag(&mut out, "TimeControl", time_control);
        }
        out.push('\n');
        for line in movetext_lines(&self.items, self.numbering(), result) {
            out.push_str(&line);
            out.push('\n');
        }
        out
    }

    /// The opening the game reached: the deepest position of it the openings table names.
    pub(super) fn opening(&self) -> Option<Opening> {
        let before = self.moves.iter().map(|recorded| &recorded.before);
        openings::of_game(before.chain(std::iter::once(&self.position)))
    }

    /// Whether the `SetUp` and `FEN` tags are needed.
    fn needs_fen(&self) -> bool {
        self.set_up || fen_of(&self.start) != fen_of(&Chess::default())
    }

    /// How the first move is numbered.
    fn numbering(&self) -> Numbering {
        Numbering {
            fullmoves: self.start.fullmoves().get(),
            turn: self.start.turn(),
        }
    }

    /// Refuses `event` once the game has a result.
    fn refuse_after_result(&self, event: &'static str) -> Result<(), RecordError> {
        match self.result {
            Some(result) => Err(RecordError::GameOver {
                result: result.as_str().to_owned(),
                event,
            }),
            None => Ok(()),
        }
    }
}

/// The FEN of `position`, en passant square only when a capture is possible.
fn fen_of(position: &Chess) -> String {
    Fen::from_position(position, EnPassantMode::Legal).to_string()
}
