//! What the interpreter decides: the game events of the JSON stream (`events-json.md`); the
//! engine game's and a live board's link, the stream's other producers, are [`crate::stream`]'s.
//!
//! Every event carries `t`, the log time at which it was *decided*. Serialising a
//! [`GameEvent`] with `serde_json` gives exactly one line of the contract.

use serde::{Serialize, Serializer};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{Color, KnownOutcome, Move, Square};

use crate::sensor::Millis;

/// One decision of the controller, stamped with the time it was made.
///
/// One event is one line of the JSON stream (`events-json.md`): `t`, `kind`, and the kind's
/// fields.
///
/// ```
/// use shakmaty::{Chess, Square};
/// use touchmove_core::{Config, Interpreter, SensorEvent, SensorKind};
///
/// let mut interpreter = Interpreter::new(Chess::default(), Config::default());
/// let lift = SensorKind::Lift { square: Square::G1, piece: None };
/// let place = SensorKind::Place { square: Square::F3, piece: None };
/// interpreter.handle_event(&SensorEvent::new(0, lift));
/// interpreter.handle_event(&SensorEvent::new(700, place));
/// interpreter.finish();
/// let event = interpreter.poll_event().expect("a move");
/// let line: serde_json::Value = serde_json::to_value(&event)?;
/// assert_eq!(line["kind"], "move");
/// assert_eq!(line["ply"], 1);
/// assert_eq!(line["color"], "white");
/// assert_eq!(line["san"], "Nf3");
/// assert_eq!(line["uci"], "g1f3");
/// assert_eq!(line["fen"], "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameEvent {
    /// The log time at which the controller decided this event.
    pub t: Millis,
    /// What was decided.
    #[serde(flatten)]
    pub kind: EventKind,
}

impl GameEvent {
    /// Appends the event's line of the contract to `out`, without the line feed: exactly what
    /// `serde_json` writes for it, made faster by writing the time and then the kind's own
    /// object (`{"kind":...}`) in place of serde's flattening.
    pub fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        write_line(self.t, &self.kind, out)
    }
}

/// Appends a line of the contract to `out`: the time `t`, then the fields of `kind`'s own
/// object (its `{` becomes the comma after the time), as serde flattens them.
pub(crate) fn write_line(
    t: Millis,
    kind: &impl Serialize,
    out: &mut Vec<u8>,
) -> serde_json::Result<()> {
    out.extend_from_slice(b"{\"t\":");
    serde_json::to_writer(&mut *out, &t)?;
    let kind_start = out.len();
    serde_json::to_writer(&mut *out, kind)?;
    if let Some(brace) = out.get_mut(kind_start) {
        *brace = b',';
    }
    Ok(())
}

/// The kinds of decision, with the fields the contract gives each.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
#[non_exhaustive]
pub enum EventKind {
    /// A legal move was made (FIDE 4.7).
    Move(MoveEvent),
    /// An Article 4 breach the arbiter should know of; play goes on.
    Violation(Violation),
    /// A completed illegal move (FIDE 7.5).
    Illegal(IllegalMove),
    /// The board went back to an earlier position: this ply was retracted.
    Takeback {
        /// The retracted ply (1-based).
        ply: u32,
    },
    /// The game ended.
    Result(GameResult),
    /// A draw the player having the move may claim.
    Claimable {
        /// `threefold` or `fifty-moves`.
        reason: ClaimReason,
    },
    /// The board matches no expected position.
    Mismatch {
        /// The squares where the board differs from the nearest expected position.
        #[serde(serialize_with = "ser_squares")]
        squares: Vec<Square>,
    },
    /// The board matches an expected position again after a mismatch.
    Resync,
    /// The board shows the piece of `from` gone, but not where: to one of `to`, each leaving it
    /// showing the same (a capture whose victim a sampling board never showed off), or, with
    /// one square, still in hand. Nothing is decided by it; the board's lights show the
    /// squares, and the piece lifted where it stands and set back tells (a later move may tell
    /// too). With `to` empty, nothing is asked any more: the board shows the piece back on
    /// `from`.
    Ambiguous {
        /// The square the piece left.
        #[serde(serialize_with = "ser_display")]
        from: Square,
        /// The squares it may stand on, in square order.
        #[serde(serialize_with = "ser_squares")]
        to: Vec<Square>,
    },
    /// A new game begins on the same board.
    Game {
        /// The number of the game on this board, from 1.
        number: u32,
    },
    /// A move the board shows that waits to be decided (it could still grow: the slide window,
    /// the press or the reply decides it), said the moment it is seen; the `move` that follows
    /// for the same ply decides it. Without a move, nothing is pending any more.
    Pending(PendingMove),
    /// The times a physical clock showed once the press that completed move `ply` was made,
    /// the increment included: they replace the `clock` the move was decided with (a move
    /// decided before its press carries the times of that instant).
    Clock {
        /// The ply (1-based) whose times these are.
        ply: u32,
        /// The side that moved and pressed.
        #[serde(serialize_with = "ser_display")]
        color: Color,
        /// Each player's remaining time after the press.
        clock: ClockTimes,
    },
    /// The arbiter gave a player more time, declared at the host (the two minutes of 7.5.5
    /// for an irregularity the board did not see, a 12.9.2 penalty to the opponent, a clock
    /// set wrongly made good): `ms` more for `color`, the times after it in `clock`.
    #[serde(rename = "time-added")]
    TimeAdded {
        /// The side given the time.
        #[serde(serialize_with = "ser_display")]
        color: Color,
        /// How much, in ms.
        ms: Millis,
        /// Each player's remaining time after it.
        clock: ClockTimes,
    },
    /// The arbiter set both players' times at the host: a clock set wrongly corrected (6.10.2),
    /// time taken from a player (12.9.3). `clock` is the times set; a physical clock is set so
    /// by the host.
    #[serde(rename = "clock-set")]
    ClockSet {
        /// Each player's remaining time as set.
        clock: ClockTimes,
    },
    /// A note the arbiter made on the game at the host (what was said, decided or seen off the
    /// board), kept in the record: a comment in the PGN.
    Note {
        /// The note, one line.
        text: String,
    },
    /// The arbiter named a tag of the game at the host (a player, the event, the round): from
    /// here on the record carries `value` for `tag`, this game and the board's next.
    Tag {
        /// The tag named.
        #[serde(serialize_with = "ser_display")]
        tag: TagName,
        /// Its value, one line.
        value: String,
    },
    /// The arbiter reinstated the position after ply `ply` at the host (7.4, 7.5.1: the
    /// position before an irregularity): the plies after it are taken back (a `takeback` each,
    /// before this event), their moves in `moves`, and the game goes on from `fen` once the
    /// board shows it again (a `mismatch` until then, a `resync` then).
    Reinstated {
        /// The plies that stand (0: the starting position).
        ply: u32,
        /// The moves taken back, in SAN, in the order they were played.
        moves: Vec<String>,
        /// The position reinstated.
        #[serde(serialize_with = "ser_fen")]
        fen: Fen,
    },
    /// A new game was set up on the same board (by a spectator's tool: LiveChess's `setup`):
    /// it starts from `fen` once the board shows it (live sessions only: a recording starts
    /// from its `@start`).
    Setup {
        /// The number of the game on this board, from 1.
        number: u32,
        /// The position the game starts from.
        #[serde(serialize_with = "ser_fen")]
        fen: Fen,
    },
}

/// `text` as one line of the record: line breaks become spaces, and the ends are trimmed (what
/// the arbiter types for a note or a tag).
pub fn one_line(text: &str) -> String {
    text.replace(['\n', '\r'], " ").trim().to_owned()
}

/// A tag of the game the arbiter may name at the host, as PGN names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TagName {
    /// `Event`: the tournament or match.
    Event,
    /// `Site`: where it is played.
    Site,
    /// `Round`: the round (and game) of the event.
    Round,
    /// `Board`: the board's number or name in the round.
    Board,
    /// `White`: White's player.
    White,
    /// `Black`: Black's player.
    Black,
}

impl TagName {
    /// Every tag the arbiter may name.
    pub const ALL: [TagName; 6] = [
        TagName::Event,
        TagName::Site,
        TagName::Round,
        TagName::Board,
        TagName::White,
        TagName::Black,
    ];

    /// The tag's name in PGN (`White`).
    pub fn as_str(self) -> &'static str {
        match self {
            TagName::Event => "Event",
            TagName::Site => "Site",
            TagName::Round => "Round",
            TagName::Board => "Board",
            TagName::White => "White",
            TagName::Black => "Black",
        }
    }
}

impl std::fmt::Display for TagName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A word that names no tag the arbiter may name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` names no tag: name Event, Site, Round, Board, White or Black")]
pub struct UnknownTag(pub String);

impl std::str::FromStr for TagName {
    type Err = UnknownTag;

    /// The tag named `word`, in any case (`white`, `White`).
    fn from_str(word: &str) -> Result<TagName, UnknownTag> {
        TagName::ALL
            .into_iter()
            .find(|tag| tag.as_str().eq_ignore_ascii_case(word))
            .ok_or_else(|| UnknownTag(word.to_owned()))
    }
}

/// Whether a live board answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LinkState {
    /// The board stopped answering, or its port closed: nothing it does is seen.
    Lost,
    /// The board answers again; a full board report resynchronises the game.
    Back,
}

impl LinkState {
    /// `lost` or `back`.
    pub fn as_str(self) -> &'static str {
        match self {
            LinkState::Lost => "lost",
            LinkState::Back => "back",
        }
    }
}

/// A legal move as decided.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MoveEvent {
    /// The ply number in the game, from 1.
    pub ply: u32,
    /// The side that moved.
    #[serde(serialize_with = "ser_display")]
    pub color: Color,
    /// The move in Standard Algebraic Notation, with `+` or `#` (written as text only when
    /// output).
    #[serde(serialize_with = "ser_san")]
    pub san: SanPlus,
    /// The move in UCI notation, castling as the king's two-square move (written as text only
    /// when output).
    #[serde(serialize_with = "ser_uci")]
    pub uci: UciMove,
    /// The position after the move (written as FEN; formatted only when output).
    #[serde(serialize_with = "ser_fen")]
    pub fen: Fen,
    /// Set when the promotion piece was neither sensed nor entered and the queen was assumed.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub promotion_default: bool,
    /// Each player's remaining time after the move, when a clock runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockTimes>,
    /// Set when the move was made while nobody was listening (the board unplugged, the host
    /// not running) and reconstructed as the only shortest way to what the board then showed.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub reconstructed: bool,
    /// The move itself, for Rust callers (not in the JSON: `uci` and `san` say it there).
    #[serde(skip)]
    pub chess_move: Move,
}

/// A move shown and not yet decided, or the word that none is pending any more.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PendingMove {
    /// The ply the move would be, from 1.
    pub ply: u32,
    /// The side moving.
    #[serde(serialize_with = "ser_display")]
    pub color: Color,
    /// The move in SAN, `None` when nothing is pending any more.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub san: Option<String>,
    /// The move in UCI notation, `None` when nothing is pending any more.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uci: Option<String>,
}

/// Each player's remaining time, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ClockTimes {
    /// White's remaining time.
    pub white: u64,
    /// Black's remaining time.
    pub black: u64,
}

impl ClockTimes {
    /// `color`'s remaining time.
    pub fn get(&self, color: Color) -> u64 {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// The same times with `color`'s set to `ms`.
    #[must_use]
    pub fn with(self, color: Color, ms: u64) -> ClockTimes {
        match color {
            Color::White => ClockTimes { white: ms, ..self },
            Color::Black => ClockTimes { black: ms, ..self },
        }
    }
}

/// An Article 4 breach.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// The article of the FIDE Laws, e.g. `4.3.1`.
    pub rule: Rule,
    /// The side that committed the breach.
    #[serde(serialize_with = "ser_display")]
    pub color: Color,
    /// The square the ruling is about (see the contract for which one each rule names).
    #[serde(serialize_with = "ser_display")]
    pub square: Square,
    /// A sentence for the arbiter.
    pub message: String,
    /// What the board showed that the ruling rests on, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<crate::evidence::Evidence>,
}

/// A completed illegal move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct IllegalMove {
    /// The side that made it.
    #[serde(serialize_with = "ser_display")]
    pub color: Color,
    /// This side's completed illegal moves so far, this one included.
    pub count: u32,
    /// A sentence for the arbiter.
    pub message: String,
    /// The attempted move, when it is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uci: Option<String>,
    /// The time added to the opponent (FIDE 7.5.5), when a clock runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub penalty_ms: Option<u64>,
    /// What the board showed that the ruling rests on, in order: the placement, and what
    /// completed it (the press, or the opponent's lift).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<crate::evidence::Evidence>,
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameResult {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// Why, in words (`checkmate`, `stalemate`, ...).
    pub reason: String,
    /// The article that ended the game, when one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<Rule>,
    /// How the game ended, as PGN's `Termination` tag says it, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub termination: Option<Termination>,
    /// The outcome itself, for Rust callers (not in the JSON: `result` says it there).
    #[serde(skip)]
    pub outcome: KnownOutcome,
}

/// A draw a player may claim (serialised as [`ClaimReason::as_str`] writes it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimReason {
    /// The same position for the third time (FIDE 9.2).
    Threefold,
    /// Fifty moves by each side without a capture or pawn move (FIDE 9.3).
    FiftyMoves,
}

/// An article of the FIDE Laws of Chess (2023 numbering), serialised as the contract writes
/// it ([`Rule::article`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Rule {
    /// Touched own piece must be moved.
    TouchOwn,
    /// Touched opponent's piece must be captured.
    TouchOpponent,
    /// Pieces of both colours touched.
    TouchBoth,
    /// King then rook touched: must castle.
    KingThenRook,
    /// Rook then king touched: may not castle.
    RookThenKing,
    /// King touched to castle illegally: must make another king move.
    IllegalCastlingIntent,
    /// A piece released on a square as a legal move moved on.
    ReleasedPieceMoved,
    /// Checkmate.
    Checkmate,
    /// Stalemate.
    Stalemate,
    /// Dead position.
    DeadPosition,
    /// A flag fell: the player's time is exhausted.
    FlagFall,
    /// Second (or limit) completed illegal move loses.
    IllegalMoveLimit,
    /// Fivefold repetition.
    Fivefold,
    /// 75 moves without capture or pawn move.
    SeventyFiveMoves,
    /// A player resigned (declared at the host: no sensor sees it).
    Resignation,
    /// The players agreed a draw (declared at the host).
    DrawAgreed,
    /// A claim of threefold repetition, upheld by the arbiter.
    ThreefoldClaimed,
    /// A claim under the 50-move rule, upheld by the arbiter.
    FiftyMovesClaimed,
    /// A player arrived after the default time, or not at all: the game is lost by default.
    Default,
    /// The arbiter declared the game lost by the offending player (a penalty).
    ArbiterPenalty,
}

/// How a game ended, in the words of PGN's `Termination` tag (PGN standard, 9.8.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Termination {
    /// Over on the board, or by the players: mate, a draw by rule, a resignation, an agreement,
    /// a claim upheld.
    Normal,
    /// A flag fell.
    TimeForfeit,
    /// The loser broke the Laws or the event's rules: a second illegal move, a default, an
    /// arbiter's penalty.
    RulesInfraction,
    /// The arbiter decided the result.
    Adjudication,
    /// A player left the game (an online opponent gone).
    Abandoned,
}

impl Termination {
    /// The tag's value.
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::TimeForfeit => "time forfeit",
            Termination::RulesInfraction => "rules infraction",
            Termination::Adjudication => "adjudication",
            Termination::Abandoned => "abandoned",
        }
    }
}

impl Serialize for Termination {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl Rule {
    /// How a game this rule ended ended, as PGN's `Termination` says it.
    pub fn termination(self) -> Termination {
        match self {
            Rule::FlagFall => Termination::TimeForfeit,
            Rule::IllegalMoveLimit | Rule::Default | Rule::ArbiterPenalty => {
                Termination::RulesInfraction
            }
            _ => Termination::Normal,
        }
    }

    /// The article number as the contract writes it, e.g. `"4.3.1"`.
    pub fn article(self) -> &'static str {
        match self {
            Rule::TouchOwn => "4.3.1",
            Rule::TouchOpponent => "4.3.2",
            Rule::TouchBoth => "4.3.3",
            Rule::KingThenRook => "4.4.1",
            Rule::RookThenKing => "4.4.2",
            Rule::IllegalCastlingIntent => "4.4.3",
            Rule::ReleasedPieceMoved => "4.7",
            Rule::Checkmate => "5.1.1",
            Rule::Stalemate => "5.2.1",
            Rule::DeadPosition => "5.2.2",
            Rule::FlagFall => "6.9",
            Rule::IllegalMoveLimit => "7.5.5",
            Rule::Fivefold => "9.6.1",
            Rule::SeventyFiveMoves => "9.6.2",
            Rule::Resignation => "5.1.2",
            Rule::DrawAgreed => "5.2.3",
            Rule::ThreefoldClaimed => "9.2",
            Rule::FiftyMovesClaimed => "9.3",
            Rule::Default => "6.7.1",
            Rule::ArbiterPenalty => "12.9.6",
        }
    }
}

impl ClaimReason {
    /// The reason as the contract writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            ClaimReason::Threefold => "threefold",
            ClaimReason::FiftyMoves => "fifty-moves",
        }
    }
}

impl Serialize for Rule {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.article())
    }
}

impl Serialize for ClaimReason {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// `white` or `black`, as the contract writes a colour.
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

pub(crate) fn ser_display<S: Serializer, T: std::fmt::Display>(
    value: &T,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

/// A SAN as one string.
fn ser_san<S: Serializer>(san: &SanPlus, s: S) -> Result<S::Ok, S::Error> {
    let mut text = String::with_capacity(8);
    san.append_to_string(&mut text);
    s.serialize_str(&text)
}

/// A UCI move as one string.
fn ser_uci<S: Serializer>(uci: &UciMove, s: S) -> Result<S::Ok, S::Error> {
    let mut text = String::with_capacity(5);
    uci.append_to_string(&mut text);
    s.serialize_str(&text)
}

/// A FEN as one string: written whole, not a character at a time through `Display`, which
/// the JSON writer would escape character by character.
fn ser_fen<S: Serializer>(fen: &Fen, s: S) -> Result<S::Ok, S::Error> {
    let mut text = String::with_capacity(96);
    fen.append_to_string(&mut text);
    s.serialize_str(&text)
}

pub(crate) fn ser_squares<S: Serializer>(squares: &[Square], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(squares.iter().map(|sq| sq.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn violation_serialises_as_the_contract_says() {
        let event = GameEvent {
            t: 4100,
            kind: EventKind::Violation(Violation {
                rule: Rule::TouchOwn,
                color: Color::White,
                square: Square::D2,
                message: "touched d2".to_owned(),
                evidence: Vec::new(),
            }),
        };
        let json = serde_json::to_string(&event).expect("serialisable");
        assert_eq!(
            json,
            r#"{"t":4100,"kind":"violation","rule":"4.3.1","color":"white","square":"d2","message":"touched d2"}"#
        );
    }

    #[test]
    fn resync_and_takeback_have_kind_and_t() {
        let resync = GameEvent {
            t: 5,
            kind: EventKind::Resync,
        };
        assert_eq!(
            serde_json::to_string(&resync).expect("serialisable"),
            r#"{"t":5,"kind":"resync"}"#
        );
        let takeback = GameEvent {
            t: 7,
            kind: EventKind::Takeback { ply: 3 },
        };
        assert_eq!(
            serde_json::to_string(&takeback).expect("serialisable"),
            r#"{"t":7,"kind":"takeback","ply":3}"#
        );
    }

    #[test]
    fn a_flag_fall_is_article_6_9_in_json_and_in_words() {
        let json = serde_json::to_string(&Rule::FlagFall).expect("serialisable");
        assert_eq!(json, r#""6.9""#);
        assert_eq!(Rule::FlagFall.article(), "6.9");
    }
}
