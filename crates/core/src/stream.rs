//! The JSON stream (`events-json.md`) as its producers make it: the interpreter's decisions
//! ([`GameEvent`]), the engine game's ([`EngineMove`] as its choice or a hint, [`Execution`]:
//! `touchmove play`), the
//! online game's ([`OnlineNotice`], [`Execution`]: `touchmove online`) and a live board's link
//! ([`LinkState`]: the runner), each a type of its own, combined here, at the edge, into one
//! [`StreamEvent`] per line of the contract.

use serde::{Serialize, Serializer};
use shakmaty::{Color, Move, Square};

use crate::event::{EventKind, GameEvent, LinkState, ser_squares, write_line};
use crate::sensor::Millis;

/// An engine's analysis of a position of the game (`--analyse`: `watch`, `serve`, `online`):
/// its evaluation from White's side and its best line (kind `analysis`). Never shown on the
/// board; nothing in the game changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Analysis {
    /// The position analysed: after this many plies of the game.
    pub ply: u32,
    /// The depth the engine reached.
    pub depth: u32,
    /// Its evaluation from White's side, in hundredths of a pawn (when not a mate).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_cp: Option<i32>,
    /// Mate in this many moves, from White's side (positive: White mates; negative: Black
    /// mates; 0: the side to move is mated).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
    /// The best line, in SAN, from the position.
    pub pv: Vec<String>,
    /// What the Syzygy tables say of the position (`--syzygy DIR`), where they hold it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tablebase: Option<TableResult>,
}

/// What a Syzygy tablebase says of a position (`--syzygy DIR`): the result with best play
/// and the distance to zeroing, from the side to move's view. Exact where the table has the
/// position; nothing is ruled from it (the arbiter decides).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TableResult {
    /// The result with best play under the 50-move rule, for the side to move: `win`,
    /// `cursed-win` (a win the 50-move rule frustrates), `draw`, `blessed-loss`, `loss`; `maybe-win`
    /// and `maybe-loss` where the table's rounding leaves it open.
    pub wdl: TableWdl,
    /// The distance to zeroing: plies to the next capture, pawn move or mate with best play
    /// (Syzygy's DTZ), positive when the side to move wins, negative when it loses, 0 in a
    /// draw.
    pub dtz: i32,
    /// The table's best move, in SAN (none in a position without a move).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best: Option<String>,
    /// The side to move.
    #[serde(serialize_with = "crate::event::ser_display")]
    pub turn: Color,
}

/// A tablebase's result for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TableWdl {
    /// A win.
    Win,
    /// A win the 50-move rule frustrates.
    CursedWin,
    /// A win or a cursed win: the table's rounding leaves it open.
    MaybeWin,
    /// A draw.
    Draw,
    /// A loss or a blessed loss.
    MaybeLoss,
    /// A loss the 50-move rule saves.
    BlessedLoss,
    /// A loss.
    Loss,
}

impl TableWdl {
    /// As the JSON and the sensor log write it: `win`, `cursed-win`, `maybe-win`, `draw`,
    /// `maybe-loss`, `blessed-loss`, `loss`.
    pub fn as_str(self) -> &'static str {
        match self {
            TableWdl::Win => "win",
            TableWdl::CursedWin => "cursed-win",
            TableWdl::MaybeWin => "maybe-win",
            TableWdl::Draw => "draw",
            TableWdl::MaybeLoss => "maybe-loss",
            TableWdl::BlessedLoss => "blessed-loss",
            TableWdl::Loss => "loss",
        }
    }

    /// The result `text` names, as [`TableWdl::as_str`] writes it.
    pub fn parse(text: &str) -> Option<TableWdl> {
        [
            TableWdl::Win,
            TableWdl::CursedWin,
            TableWdl::MaybeWin,
            TableWdl::Draw,
            TableWdl::MaybeLoss,
            TableWdl::BlessedLoss,
            TableWdl::Loss,
        ]
        .into_iter()
        .find(|wdl| wdl.as_str() == text)
    }
}

impl TableResult {
    /// The side that wins with best play, if one does (a cursed win is a draw under the
    /// 50-move rule: none).
    pub fn winner(&self) -> Option<Color> {
        match self.wdl {
            TableWdl::Win | TableWdl::MaybeWin => Some(self.turn),
            TableWdl::Loss | TableWdl::MaybeLoss => Some(!self.turn),
            TableWdl::CursedWin | TableWdl::Draw | TableWdl::BlessedLoss => None,
        }
    }

    /// In words: `White wins (DTZ 13)`, `draw`, `Black wins, cursed by the 50-move rule
    /// (draw)`.
    pub fn words(&self) -> String {
        let side = |color: Color| match color {
            Color::White => "White",
            Color::Black => "Black",
        };
        let dtz = self.dtz.unsigned_abs();
        match self.wdl {
            TableWdl::Win | TableWdl::MaybeWin => format!("{} wins (DTZ {dtz})", side(self.turn)),
            TableWdl::Loss | TableWdl::MaybeLoss => {
                format!("{} wins (DTZ {dtz})", side(!self.turn))
            }
            TableWdl::CursedWin => {
                format!("draw: {} wins only past the 50-move rule", side(self.turn))
            }
            TableWdl::BlessedLoss => {
                format!("draw: {} wins only past the 50-move rule", side(!self.turn))
            }
            TableWdl::Draw => "draw".to_owned(),
        }
    }
}

/// An engine's move (`touchmove play`): its choice, which the player is to carry out on the
/// board (kind `engine`), or a hint, its best move for the player, which changes nothing (kind
/// `hint`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EngineMove {
    /// The side whose move it is: the engine's for its choice, the player's for a hint.
    #[serde(serialize_with = "crate::event::ser_display")]
    pub color: Color,
    /// The move, in SAN.
    pub san: String,
    /// The move, in UCI.
    pub uci: String,
    /// The engine's last score before it moved, from its own side, in hundredths of a pawn,
    /// when it gave one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_cp: Option<i32>,
    /// Mate in this many moves (negative: the engine is mated), when its last score was a mate
    /// score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
    /// The move came from the opening book, not from the engine's search (`"book": true`; not
    /// written otherwise). A book move has no score.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub book: bool,
    /// What the Syzygy tables say of the position, when the move is theirs (a hint, `play
    /// --syzygy`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tablebase: Option<TableResult>,
    /// The move itself, for Rust callers (not in the JSON: `uci` and `san` say it there).
    #[serde(skip)]
    pub chess_move: Move,
}

/// What the server of an online game said or did (`touchmove online`; kind `online`, with
/// `what` saying which).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "what", rename_all = "kebab-case")]
#[non_exhaustive]
pub enum OnlineNotice {
    /// A move the server has and the board does not yet: the player is to carry it out (the
    /// opponent's, or the player's own made elsewhere).
    Move {
        /// The side whose move it is.
        #[serde(serialize_with = "crate::event::ser_display")]
        color: Color,
        /// The move, in SAN.
        san: String,
        /// The move, in UCI.
        uci: String,
        /// The move itself, for Rust callers.
        #[serde(skip)]
        chess_move: Move,
    },
    /// The server refused the player's move: it is taken back, and the board must show the
    /// server's position again.
    Refused {
        /// The move, in UCI.
        uci: String,
        /// The server's reason.
        message: String,
    },
    /// The server took moves back (a takeback both players agreed to): the board must show
    /// its position again.
    TakenBack {
        /// The plies the server's game has now.
        plies: u32,
    },
    /// A side offers a draw.
    DrawOffer {
        /// Who offers.
        #[serde(serialize_with = "crate::event::ser_display")]
        color: Color,
    },
    /// A side proposes a takeback.
    TakebackProposal {
        /// Who proposes.
        #[serde(serialize_with = "crate::event::ser_display")]
        color: Color,
    },
    /// The opponent left the game, or came back.
    OpponentGone {
        /// Gone (`false`: back).
        gone: bool,
        /// In how many seconds the player may claim the win.
        #[serde(skip_serializing_if = "Option::is_none")]
        claim_in_s: Option<u32>,
    },
    /// A line of the game's chat.
    Chat {
        /// Who wrote it.
        user: String,
        /// What they wrote.
        text: String,
    },
    /// The server ended the game without a result (`aborted`: before both players moved,
    /// or by a player's request; `unknownFinish`): nobody won or lost.
    Ended {
        /// The server's status.
        status: String,
        /// What happened, in words.
        message: String,
    },
    /// A request of the player's was not carried out (`what` it was: `draw`, `resign`...).
    Failed {
        /// The request.
        request: String,
        /// Why.
        message: String,
    },
}

/// The board shows another move than the engine's (`touchmove play`): the game waits until it
/// shows the engine's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Execution {
    /// The engine's move, in SAN (`null`: the engine has not moved yet).
    pub expected: Option<String>,
    /// The move the board shows instead, in SAN, when it is a legal one.
    pub played: Option<String>,
    /// The engine's move's from and to squares.
    #[serde(serialize_with = "ser_squares")]
    pub squares: Vec<Square>,
    /// What to do, in words (`carry out Nf3, not Nc3`).
    pub message: String,
}

/// An operator's action at the host that was not carried out (kind `refused`; live sessions
/// only: nothing happened to the game, and the recording keeps nothing of it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Refusal {
    /// What was asked, in the words the recording would have kept (`time-added black 120000`).
    pub asked: String,
    /// Why it was not done, in words.
    pub why: String,
}

/// What the host tells the people at the board, in words (kind `notice`; live sessions only):
/// the board found and what it is, the starting position seen, a promotion waiting for its
/// piece, a file that cannot be written, what the engine or the server said aside. Nothing is
/// decided by it, and the recording keeps nothing of it. The terminal says the same words on
/// standard error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Notice {
    /// What is told, in words.
    pub text: String,
}

impl Notice {
    /// A notice saying `text`.
    pub fn new(text: impl Into<String>) -> Notice {
        Notice { text: text.into() }
    }
}

/// What one line of the stream says, whoever decided it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum StreamKind {
    /// The interpreter's decision.
    Game(EventKind),
    /// The engine's move (kind `engine`).
    Engine(EngineMove),
    /// The engine's best move for the player, asked for as a hint (kind `hint`): nothing in
    /// the game changes.
    Hint(EngineMove),
    /// An engine's analysis of the position (kind `analysis`): nothing in the game changes.
    Analysis(Analysis),
    /// A move carried out otherwise than the engine chose (kind `execution`).
    Execution(Execution),
    /// A live board stopped answering, or answers again (kind `link`; live sessions only: a
    /// recording replays to the same events less these).
    Link(LinkState),
    /// The server of an online game said or did something (kind `online`).
    Online(OnlineNotice),
    /// An operator's action was refused (kind `refused`; live sessions only).
    Refused(Refusal),
    /// The board's battery, as it told it (kind `battery`; live sessions only).
    Battery(BatteryLevel),
    /// What the host tells the people at the board (kind `notice`; live sessions only).
    Notice(Notice),
    /// The coach's word on the player's move before the engine replies (kind `coach`).
    Coach(CoachWarning),
}

/// The coach's word on the player's move, before the engine replies (`play --coach`; kind
/// `coach`): the move lost more than the coach lets pass; the player may take it back. Nothing
/// in the game changes by it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CoachWarning {
    /// The move's ply.
    pub ply: u32,
    /// The side that made it (the player).
    #[serde(serialize_with = "crate::event::ser_display")]
    pub color: Color,
    /// The move, in SAN.
    pub san: String,
    /// How bad it was, by Lichess's measure of the winning chances lost: `inaccuracy`,
    /// `mistake`, `blunder`.
    pub judgement: String,
    /// The engine's evaluation before the move, from White's side, in centipawns (a mate
    /// counted as ±1,000).
    pub before_cp: i32,
    /// And after it.
    pub after_cp: i32,
}

impl CoachWarning {
    /// `Qxb7 is a blunder (-0.30 → -4.20)`.
    pub fn words(&self) -> String {
        let pawns = |cp: i32| format!("{:+.2}", f64::from(cp) / 100.0);
        format!(
            "{} is a {} ({} → {})",
            self.san,
            self.judgement,
            pawns(self.before_cp),
            pawns(self.after_cp)
        )
    }
}

/// A board's battery, as the board tells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BatteryLevel {
    /// The charge left, 0 to 100 %.
    pub percent: u8,
    /// Whether it is charging.
    pub charging: bool,
}

/// One line of the stream: what was decided, and when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StreamEvent {
    /// The log time at which it was decided.
    pub t: Millis,
    /// What was decided.
    #[serde(flatten)]
    pub kind: StreamKind,
}

/// The kinds the interpreter does not make, tagged as the contract has them.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum Other<'a> {
    Engine(&'a EngineMove),
    Hint(&'a EngineMove),
    Analysis(&'a Analysis),
    Execution(&'a Execution),
    Link { state: LinkState },
    Online(&'a OnlineNotice),
    Refused(&'a Refusal),
    Battery(&'a BatteryLevel),
    Notice(&'a Notice),
    Coach(&'a CoachWarning),
}

impl Serialize for StreamKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            StreamKind::Game(kind) => kind.serialize(s),
            StreamKind::Engine(choice) => Other::Engine(choice).serialize(s),
            StreamKind::Hint(hint) => Other::Hint(hint).serialize(s),
            StreamKind::Analysis(analysis) => Other::Analysis(analysis).serialize(s),
            StreamKind::Execution(execution) => Other::Execution(execution).serialize(s),
            StreamKind::Link(state) => Other::Link { state: *state }.serialize(s),
            StreamKind::Online(notice) => Other::Online(notice).serialize(s),
            StreamKind::Refused(refusal) => Other::Refused(refusal).serialize(s),
            StreamKind::Battery(level) => Other::Battery(level).serialize(s),
            StreamKind::Notice(notice) => Other::Notice(notice).serialize(s),
            StreamKind::Coach(warning) => Other::Coach(warning).serialize(s),
        }
    }
}

impl StreamEvent {
    /// Appends the event's line of the contract to `out`, without the line feed (see
    /// [`GameEvent::write_json`]).
    pub fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        write_line(self.t, &self.kind, out)
    }

    /// The interpreter's decision, if it is one.
    pub fn game(&self) -> Option<&EventKind> {
        match &self.kind {
            StreamKind::Game(kind) => Some(kind),
            _ => None,
        }
    }
}

impl From<GameEvent> for StreamEvent {
    fn from(event: GameEvent) -> StreamEvent {
        StreamEvent {
            t: event.t,
            kind: StreamKind::Game(event.kind),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    #[test]
    fn each_producer_s_line_is_the_contract_s() {
        let e5 = Chess::default()
            .legal_moves()
            .into_iter()
            .find(|m| m.to() == Square::E4)
            .unwrap_or_else(|| panic!("e4 is legal"));
        let lines = [
            StreamEvent {
                t: 5,
                kind: StreamKind::Engine(EngineMove {
                    color: Color::White,
                    san: "e4".to_owned(),
                    uci: "e2e4".to_owned(),
                    score_cp: Some(31),
                    mate: None,
                    book: false,
                    tablebase: None,
                    chess_move: e5,
                }),
            },
            StreamEvent {
                t: 5,
                kind: StreamKind::Engine(EngineMove {
                    color: Color::White,
                    san: "e4".to_owned(),
                    uci: "e2e4".to_owned(),
                    score_cp: None,
                    mate: None,
                    book: true,
                    tablebase: None,
                    chess_move: e5,
                }),
            },
            StreamEvent {
                t: 5,
                kind: StreamKind::Analysis(Analysis {
                    ply: 1,
                    depth: 12,
                    score_cp: Some(-20),
                    mate: None,
                    pv: vec!["c5".to_owned(), "Nf3".to_owned()],
                    tablebase: None,
                }),
            },
            StreamEvent {
                t: 6,
                kind: StreamKind::Execution(Execution {
                    expected: Some("e4".to_owned()),
                    played: None,
                    squares: vec![Square::E2, Square::E4],
                    message: "carry out e4".to_owned(),
                }),
            },
            StreamEvent {
                t: 7,
                kind: StreamKind::Link(LinkState::Lost),
            },
            GameEvent {
                t: 8,
                kind: EventKind::Resync,
            }
            .into(),
            StreamEvent {
                t: 9,
                kind: StreamKind::Online(OnlineNotice::Move {
                    color: Color::Black,
                    san: "e4".to_owned(),
                    uci: "e2e4".to_owned(),
                    chess_move: e5,
                }),
            },
            StreamEvent {
                t: 10,
                kind: StreamKind::Online(OnlineNotice::OpponentGone {
                    gone: true,
                    claim_in_s: Some(8),
                }),
            },
            StreamEvent {
                t: 11,
                kind: StreamKind::Refused(Refusal {
                    asked: "time-added black 120000".to_owned(),
                    why: "no".to_owned(),
                }),
            },
            StreamEvent {
                t: 12,
                kind: StreamKind::Battery(BatteryLevel {
                    percent: 88,
                    charging: true,
                }),
            },
            StreamEvent {
                t: 13,
                kind: StreamKind::Notice(Notice::new("a \"DGT\" board")),
            },
        ];
        let expected = [
            r#"{"t":5,"kind":"engine","color":"white","san":"e4","uci":"e2e4","score_cp":31}"#,
            r#"{"t":5,"kind":"engine","color":"white","san":"e4","uci":"e2e4","book":true}"#,
            r#"{"t":5,"kind":"analysis","ply":1,"depth":12,"score_cp":-20,"pv":["c5","Nf3"]}"#,
            r#"{"t":6,"kind":"execution","expected":"e4","played":null,"squares":["e2","e4"],"message":"carry out e4"}"#,
            r#"{"t":7,"kind":"link","state":"lost"}"#,
            r#"{"t":8,"kind":"resync"}"#,
            r#"{"t":9,"kind":"online","what":"move","color":"black","san":"e4","uci":"e2e4"}"#,
            r#"{"t":10,"kind":"online","what":"opponent-gone","gone":true,"claim_in_s":8}"#,
            r#"{"t":11,"kind":"refused","asked":"time-added black 120000","why":"no"}"#,
            r#"{"t":12,"kind":"battery","percent":88,"charging":true}"#,
            r#"{"t":13,"kind":"notice","text":"a \"DGT\" board"}"#,
        ];
        assert_eq!(lines.len(), expected.len());
        for (event, expected) in lines.iter().zip(expected) {
            assert_eq!(serde_json::to_string(event).ok().as_deref(), Some(expected));
            let mut fast = Vec::new();
            assert!(event.write_json(&mut fast).is_ok());
            assert_eq!(String::from_utf8_lossy(&fast), expected);
        }
    }
}
