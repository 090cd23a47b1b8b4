//! What the host knew and no sensor reports, in the sensor log, written as comment lines: the
//! choices of the engine of a game against it (`touchmove play`), a result declared at the
//! host (a resignation, a draw agreed, a claim upheld, a default, the arbiter's decision), and
//! what the server of an online game said (`touchmove online`).
//!
//! Version 1 of the format has no record for them, but a replay needs them to decide what the
//! live session decided (the engine's move stands only as the engine chose it; a resigned game
//! is over). touchmove writes each as a comment of a fixed form, so the file stays a valid
//! version-1 log that every other reader reads unchanged:
//!
//! ```text
//! #engine-move <t> <uci> [cp <centipawns> | mate <moves> | book]
//! #engine-gone <t>
//! #coach <t> <ply> <white|black> <san> <inaccuracy|mistake|blunder> <before-cp> <after-cp>
//! #hint <t> <uci> [cp <centipawns> | mate <moves>] [tb <white|black> <wdl> <dtz> <san|->]
//! #analysis <t> <ply> <depth> <cp <centipawns> | mate <moves>> [tb <white|black> <wdl> <dtz> <san|->] [<san>...]
//! #resign <t> <white|black>
//! #time-added <t> <white|black> <ms>
//! #clock-set <t> <white-ms> <black-ms>
//! #note <t> <text>
//! #tag <t> <Event|Site|Round|Board|White|Black> [<value>]
//! #reinstate <t> <ply>
//! #result <t> draw-agreed | claim <threefold|fifty-moves> | default <white|black>
//!             | penalty <white|black> | adjudicated <1-0|0-1|1/2-1/2>
//! #server-line <t> <line>
//! #server-answer <t> <request> <answer>
//! ```
//!
//! `<uci>` is the move the engine chose (castling as the king's move, `e1g1`), at `<t>` (ms of
//! the log); the score is the engine's last before it moved, from its own side; `book` says the
//! move came from the opening book (`play --book`), the engine not asked.
//! `#hint` says the engine's best move for the player, asked for as a hint, was shown then (its
//! score from the player's side; or the Syzygy tables' move, `play --syzygy`, with their result
//! as `#analysis` writes it); it changes nothing in the game.
//! `#analysis` is an engine's analysis of the position after `<ply>` plies (`--analyse`): the
//! depth it reached, its evaluation from White's side, what the Syzygy tables say of it when
//! they hold it (`--syzygy`: the side to move, `win`, `cursed-win`, `maybe-win`, `draw`,
//! `maybe-loss`, `blessed-loss` or `loss` for it, the distance to zeroing, the tables' move),
//! its best line in SAN; it changes nothing in the game.
//! `#engine-gone` says the engine could no longer play: the game went on between two players.
//! The side the engine plays is the header's `@engine white|black`. `#resign` says that side
//! resigned. `#result` says the game ended by what the host was told: the players agreed a
//! draw (5.2.3), the arbiter upheld a claim (9.2, 9.3), that side lost by default (6.7.1) or by
//! the arbiter's penalty (12.9.6), or the arbiter decided that result. `#time-added` says the
//! arbiter gave that side `<ms>` more on its clock; `#note` is a note the arbiter made, one line.
//! `#clock-set` says the arbiter set both players' times (a clock set wrongly corrected,
//! time taken from a player).
//! `#tag` says the arbiter named that tag of the game `<value>` (the rest of the line; none
//! unnames it), for this game and the board's next. `#reinstate` says the arbiter reinstated
//! the position after ply `<ply>` (the plies after it taken back; the board to be put back).
//! `#server-line` is a line of an online game's stream as the server sent it (one
//! JSON object, which has no line break), taken at `<t>`; `#server-answer` what the server
//! answered, at `<t>`, to `<request>` (one word: the request's path after the game's, as
//! `move/e2e4`): `taken`, `unknown` (no answer came) or `refused` and the server's reason.
//! A comment that starts with one of these words but does not have this form stays an
//! ordinary comment.

use shakmaty::Color;
use shakmaty::uci::UciMove;

use crate::event::{ClockTimes, TagName, color_name};
use crate::rules::Declared;
use crate::sensor::Millis;
use crate::stream::{Analysis, CoachWarning, TableResult, TableWdl};

/// The word that starts an engine's move.
const ENGINE_MOVE: &str = "#engine-move";

/// The word that starts a hint.
const HINT: &str = "#hint";

/// The word that starts the coach's word on the player's move.
const COACH: &str = "#coach";

/// The word that starts the tables' result in an analysis.
const TABLE: &str = "tb";

/// The word that starts an engine's analysis.
const ANALYSIS: &str = "#analysis";

/// The word that starts the engine's end.
const ENGINE_GONE: &str = "#engine-gone";

/// The word that starts a resignation.
const RESIGN: &str = "#resign";

/// The word that starts time the arbiter gave a player.
const TIME_ADDED: &str = "#time-added";

/// The word that starts times the arbiter set.
const CLOCK_SET: &str = "#clock-set";

/// The word that starts a note the arbiter made.
const NOTE: &str = "#note";

/// The word that starts a tag the arbiter named.
const TAG: &str = "#tag";

/// The word that starts a position the arbiter reinstated.
const REINSTATE: &str = "#reinstate";

/// The word that starts any other declared result.
const RESULT: &str = "#result";

/// The word that starts a line of an online game's server.
const SERVER_LINE: &str = "#server-line";

/// The word that starts the server's answer to a request.
const SERVER_ANSWER: &str = "#server-answer";

/// What the host knew at a time, as the sensor log keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostNote {
    /// The engine chose a move.
    EngineMove {
        /// The move, in UCI (read in the game as it stood).
        uci: UciMove,
        /// Its last score in centipawns, from its own side, if it gave one.
        score_cp: Option<i32>,
        /// Or mate in this many moves (negative: it is mated), if it gave one.
        mate: Option<i32>,
        /// The move came from the opening book (no score then).
        book: bool,
    },
    /// The engine's best move for the player was shown, asked for as a hint.
    Hint {
        /// The move, in UCI (read in the game as it stood).
        uci: UciMove,
        /// Its score in centipawns, from the player's side, if the engine gave one.
        score_cp: Option<i32>,
        /// Or mate in this many moves, if it gave one.
        mate: Option<i32>,
        /// What the Syzygy tables say of the position, when the hint is theirs (`play
        /// --syzygy`).
        tablebase: Option<TableResult>,
    },
    /// An engine's analysis of a position of the game.
    Analysis(Analysis),
    /// The coach's word on the player's move, before the engine replied (`play --coach`).
    Coach(CoachWarning),
    /// The engine could no longer play.
    EngineGone,
    /// A result was declared at the host (a resignation is written `#resign`).
    Declared(Declared),
    /// A note the arbiter made, one line.
    Note(String),
    /// The arbiter gave this side more time.
    TimeAdded {
        /// The side given the time.
        color: Color,
        /// How much, in ms.
        ms: Millis,
    },
    /// The arbiter set both players' times.
    ClockSet(ClockTimes),
    /// The arbiter named a tag of the game (a player, the event, the round).
    Tag {
        /// The tag.
        tag: TagName,
        /// Its value, one line (empty: unnamed).
        value: String,
    },
    /// The arbiter reinstated the position after this ply.
    Reinstate {
        /// The plies that stand.
        ply: u32,
    },
    /// A line of an online game's stream, as the server sent it.
    ServerLine(String),
    /// The server's answer to a request of an online game.
    ServerAnswer {
        /// The request, one word (`move/e2e4`, `draw/yes`, `resign`...).
        request: String,
        /// `taken`, `unknown`, or `refused` and the server's reason.
        answer: String,
    },
}

/// The comment line (without its line ending) for `note`, made at `t`.
pub fn format_host_note(t: Millis, note: &HostNote) -> String {
    match note {
        HostNote::EngineMove {
            uci,
            score_cp,
            mate,
            book,
        } => {
            let score = if *book {
                " book".to_owned()
            } else {
                score_words(*score_cp, *mate)
            };
            format!("{ENGINE_MOVE} {t} {uci}{score}")
        }
        HostNote::Hint {
            uci,
            score_cp,
            mate,
            tablebase,
        } => format!(
            "{HINT} {t} {uci}{}{}",
            score_words(*score_cp, *mate),
            tablebase.as_ref().map(table_words).unwrap_or_default()
        ),
        HostNote::Coach(warning) => format!(
            "{COACH} {t} {} {} {} {} {} {}",
            warning.ply,
            color_name(warning.color),
            warning.san,
            warning.judgement,
            warning.before_cp,
            warning.after_cp
        ),
        HostNote::Analysis(analysis) => {
            let mut line = format!(
                "{ANALYSIS} {t} {} {}{}",
                analysis.ply,
                analysis.depth,
                score_words(analysis.score_cp, analysis.mate)
            );
            if let Some(table) = &analysis.tablebase {
                line.push_str(&table_words(table));
            }
            for san in &analysis.pv {
                line.push(' ');
                line.push_str(san);
            }
            line
        }
        HostNote::EngineGone => format!("{ENGINE_GONE} {t}"),
        HostNote::Declared(Declared::Resigned(color)) => {
            format!("{RESIGN} {t} {}", color_name(*color))
        }
        HostNote::Declared(declared) => format!("{RESULT} {t} {}", declared.words()),
        HostNote::Note(text) => format!("{NOTE} {t} {}", unbroken(text)),
        HostNote::TimeAdded { color, ms } => {
            format!("{TIME_ADDED} {t} {} {ms}", color_name(*color))
        }
        HostNote::Tag { tag, value } => format!("{TAG} {t} {tag} {}", unbroken(value))
            .trim_end()
            .to_owned(),
        HostNote::Reinstate { ply } => format!("{REINSTATE} {t} {ply}"),
        HostNote::ClockSet(times) => format!("{CLOCK_SET} {t} {} {}", times.white, times.black),
        HostNote::ServerLine(line) => format!("{SERVER_LINE} {t} {}", unbroken(line)),
        HostNote::ServerAnswer { request, answer } => {
            format!("{SERVER_ANSWER} {t} {request} {}", unbroken(answer))
        }
    }
}

/// ` cp <n>` or ` mate <n>` (nothing without a score).
/// ` tb <white|black> <wdl> <dtz> <best|->`: what the tables say of an analysed position, the
/// side to move first.
fn table_words(table: &TableResult) -> String {
    format!(
        " {TABLE} {} {} {} {}",
        color_name(table.turn),
        table.wdl.as_str(),
        table.dtz,
        table.best.as_deref().unwrap_or("-")
    )
}

/// The tables' result read back from its words (after ` tb`).
fn parse_table<'a>(fields: &mut impl Iterator<Item = &'a str>) -> Option<TableResult> {
    let turn = match fields.next()? {
        "white" => shakmaty::Color::White,
        "black" => shakmaty::Color::Black,
        _ => return None,
    };
    let wdl = TableWdl::parse(fields.next()?)?;
    let dtz = fields.next()?.parse().ok()?;
    let best = Some(fields.next()?)
        .filter(|best| *best != "-")
        .map(str::to_owned);
    Some(TableResult {
        wdl,
        dtz,
        best,
        turn,
    })
}

fn score_words(score_cp: Option<i32>, mate: Option<i32>) -> String {
    match (mate, score_cp) {
        (Some(mate), _) => format!(" mate {mate}"),
        (None, Some(cp)) => format!(" cp {cp}"),
        (None, None) => String::new(),
    }
}

/// `text` on one line: any line break becomes a space (a server's JSON line has none; a
/// reason might).
fn unbroken(text: &str) -> String {
    text.replace(['\n', '\r'], " ")
}

/// The time and the note of a host's comment line; `None` for any other line.
pub fn parse_host_note(line: &str) -> Option<(Millis, HostNote)> {
    let mut fields = line.split(' ').filter(|field| !field.is_empty());
    let keyword = fields.next()?;
    let t: Millis = fields
        .next()?
        .parse()
        .ok()
        .filter(|t| *t <= super::fields::MAX_TIME_MS)?;
    let note = match keyword {
        SERVER_LINE => HostNote::ServerLine(rest_after(line, 2)?.to_owned()),
        NOTE => HostNote::Note(rest_after(line, 2)?.to_owned()),
        TAG => {
            let tag = fields.next()?.parse().ok()?;
            let value = rest_after(line, 3).unwrap_or_default().to_owned();
            return Some((t, HostNote::Tag { tag, value }));
        }
        CLOCK_SET => HostNote::ClockSet(ClockTimes {
            white: fields.next()?.parse().ok()?,
            black: fields.next()?.parse().ok()?,
        }),
        REINSTATE => HostNote::Reinstate {
            ply: fields.next()?.parse().ok()?,
        },
        SERVER_ANSWER => {
            let request = fields.next()?;
            let answer = rest_after(line, 3)?;
            return Some((
                t,
                HostNote::ServerAnswer {
                    request: request.to_owned(),
                    answer: answer.to_owned(),
                },
            ));
        }
        ENGINE_GONE => HostNote::EngineGone,
        ANALYSIS => {
            let ply = fields.next()?.parse().ok()?;
            let depth = fields.next()?.parse().ok()?;
            let (score_cp, mate) = match (fields.next()?, fields.next()?.parse().ok()?) {
                ("cp", cp) => (Some(cp), None),
                ("mate", mate) => (None, Some(mate)),
                _ => return None,
            };
            let mut rest = fields.by_ref().peekable();
            let tablebase = match rest.next_if_eq(&TABLE) {
                Some(_) => Some(parse_table(&mut rest)?),
                None => None,
            };
            let pv = rest.map(str::to_owned).collect();
            HostNote::Analysis(Analysis {
                ply,
                depth,
                score_cp,
                mate,
                pv,
                tablebase,
            })
        }
        COACH => HostNote::Coach(CoachWarning {
            ply: fields.next()?.parse().ok()?,
            color: fields.next()?.parse().ok()?,
            san: fields.next()?.to_owned(),
            judgement: Some(fields.next()?)
                .filter(|word| ["inaccuracy", "mistake", "blunder"].contains(word))?
                .to_owned(),
            before_cp: fields.next()?.parse().ok()?,
            after_cp: fields.next()?.parse().ok()?,
        }),
        HINT => {
            let uci = fields.next()?.parse::<UciMove>().ok()?;
            let mut rest = fields.by_ref().peekable();
            let (score_cp, mate) = match rest.next_if(|word| *word == "cp" || *word == "mate") {
                None => (None, None),
                Some("cp") => (Some(rest.next()?.parse().ok()?), None),
                Some(_) => (None, Some(rest.next()?.parse().ok()?)),
            };
            let tablebase = match rest.next_if_eq(&TABLE) {
                Some(_) => Some(parse_table(&mut rest)?),
                None => None,
            };
            // Nothing may follow (the line's end is checked below on what the peek left).
            if rest.next().is_some() {
                return None;
            }
            HostNote::Hint {
                uci,
                score_cp,
                mate,
                tablebase,
            }
        }
        TIME_ADDED => HostNote::TimeAdded {
            color: fields.next()?.parse().ok()?,
            ms: fields.next()?.parse().ok()?,
        },
        RESIGN => HostNote::Declared(Declared::Resigned(fields.next()?.parse().ok()?)),
        RESULT => {
            return Declared::from_words(fields).map(|declared| (t, HostNote::Declared(declared)));
        }
        ENGINE_MOVE => {
            let uci = fields.next()?.parse::<UciMove>().ok()?;
            let mut book = false;
            let (score_cp, mate) = match (fields.next(), fields.next()) {
                (None, _) => (None, None),
                (Some("book"), None) => {
                    book = true;
                    (None, None)
                }
                (Some("cp"), Some(cp)) => (Some(cp.parse().ok()?), None),
                (Some("mate"), Some(mate)) => (None, Some(mate.parse().ok()?)),
                _ => return None,
            };
            HostNote::EngineMove {
                uci,
                score_cp,
                mate,
                book,
            }
        }
        _ => return None,
    };
    let whole =
        matches!(note, HostNote::ServerLine(_) | HostNote::Note(_)) || fields.next().is_none();
    whole.then_some((t, note))
}

/// What follows the first `words` words of `line` (separated by single spaces), if it is not
/// empty.
fn rest_after(line: &str, words: usize) -> Option<&str> {
    let mut rest = line;
    for _ in 0..words {
        rest = rest.trim_start_matches(' ');
        let end = rest.find(' ')?;
        rest = rest.get(end..)?;
    }
    let rest = rest.trim_start_matches(' ');
    (!rest.is_empty()).then_some(rest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::ClaimReason;

    fn chose(uci: &str, score_cp: Option<i32>, mate: Option<i32>) -> HostNote {
        HostNote::EngineMove {
            uci: uci.parse().expect("a UCI move"),
            score_cp,
            mate,
            book: false,
        }
    }

    #[test]
    fn notes_are_written_in_their_fixed_form_and_read_back() {
        let cases = [
            (
                chose("e7e5", Some(-31), None),
                "#engine-move 4200 e7e5 cp -31",
            ),
            (
                chose("e1g1", None, Some(3)),
                "#engine-move 4200 e1g1 mate 3",
            ),
            (chose("a7a8n", None, None), "#engine-move 4200 a7a8n"),
            (
                HostNote::EngineMove {
                    uci: "g8f6".parse().expect("a UCI move"),
                    score_cp: None,
                    mate: None,
                    book: true,
                },
                "#engine-move 4200 g8f6 book",
            ),
            (HostNote::EngineGone, "#engine-gone 4200"),
            (
                HostNote::Analysis(Analysis {
                    ply: 3,
                    depth: 18,
                    score_cp: Some(31),
                    mate: None,
                    pv: vec!["Nc6".to_owned(), "Bb5".to_owned(), "a6".to_owned()],
                    tablebase: None,
                }),
                "#analysis 4200 3 18 cp 31 Nc6 Bb5 a6",
            ),
            (
                HostNote::Analysis(Analysis {
                    ply: 40,
                    depth: 9,
                    score_cp: None,
                    mate: Some(-2),
                    pv: Vec::new(),
                    tablebase: None,
                }),
                "#analysis 4200 40 9 mate -2",
            ),
            (
                HostNote::Analysis(Analysis {
                    ply: 61,
                    depth: 20,
                    score_cp: None,
                    mate: Some(1),
                    pv: vec!["Ra8#".to_owned()],
                    tablebase: Some(TableResult {
                        wdl: TableWdl::Win,
                        dtz: 1,
                        best: Some("Ra8#".to_owned()),
                        turn: Color::White,
                    }),
                }),
                "#analysis 4200 61 20 mate 1 tb white win 1 Ra8# Ra8#",
            ),
            (
                HostNote::Analysis(Analysis {
                    ply: 62,
                    depth: 0,
                    score_cp: Some(0),
                    mate: None,
                    pv: Vec::new(),
                    tablebase: Some(TableResult {
                        wdl: TableWdl::BlessedLoss,
                        dtz: -101,
                        best: None,
                        turn: Color::Black,
                    }),
                }),
                "#analysis 4200 62 0 cp 0 tb black blessed-loss -101 -",
            ),
            (
                HostNote::Hint {
                    uci: "g1f3".parse().expect("a UCI move"),
                    score_cp: Some(25),
                    mate: None,
                    tablebase: None,
                },
                "#hint 4200 g1f3 cp 25",
            ),
            (
                HostNote::Hint {
                    uci: "a1a8".parse().expect("a UCI move"),
                    score_cp: None,
                    mate: None,
                    tablebase: Some(TableResult {
                        wdl: TableWdl::Win,
                        dtz: 1,
                        best: Some("Ra8#".to_owned()),
                        turn: Color::White,
                    }),
                },
                "#hint 4200 a1a8 tb white win 1 Ra8#",
            ),
            (
                HostNote::Hint {
                    uci: "d1h5".parse().expect("a UCI move"),
                    score_cp: None,
                    mate: Some(2),
                    tablebase: None,
                },
                "#hint 4200 d1h5 mate 2",
            ),
            (
                HostNote::Coach(CoachWarning {
                    ply: 23,
                    color: Color::White,
                    san: "Qxb7".to_owned(),
                    judgement: "blunder".to_owned(),
                    before_cp: -30,
                    after_cp: -420,
                }),
                "#coach 4200 23 white Qxb7 blunder -30 -420",
            ),
            (
                HostNote::Note("Black claims a draw: refused, 2 minutes to White".to_owned()),
                "#note 4200 Black claims a draw: refused, 2 minutes to White",
            ),
            (
                HostNote::Declared(Declared::Resigned(Color::White)),
                "#resign 4200 white",
            ),
            (
                HostNote::Tag {
                    tag: TagName::White,
                    value: "Carlsen, Magnus".to_owned(),
                },
                "#tag 4200 White Carlsen, Magnus",
            ),
            (
                HostNote::Tag {
                    tag: TagName::Round,
                    value: String::new(),
                },
                "#tag 4200 Round",
            ),
            (HostNote::Reinstate { ply: 17 }, "#reinstate 4200 17"),
            (
                HostNote::ClockSet(ClockTimes {
                    white: 5_400_000,
                    black: 3_599_500,
                }),
                "#clock-set 4200 5400000 3599500",
            ),
            (
                HostNote::Declared(Declared::DrawAgreed),
                "#result 4200 draw-agreed",
            ),
            (
                HostNote::TimeAdded {
                    color: Color::Black,
                    ms: 120_000,
                },
                "#time-added 4200 black 120000",
            ),
            (
                HostNote::Declared(Declared::ClaimUpheld(ClaimReason::Threefold)),
                "#result 4200 claim threefold",
            ),
            (
                HostNote::Declared(Declared::ClaimUpheld(ClaimReason::FiftyMoves)),
                "#result 4200 claim fifty-moves",
            ),
            (
                HostNote::Declared(Declared::Default(Color::Black)),
                "#result 4200 default black",
            ),
            (
                HostNote::Declared(Declared::Penalty(Color::White)),
                "#result 4200 penalty white",
            ),
            (
                HostNote::Declared(Declared::Adjudicated(Some(Color::Black))),
                "#result 4200 adjudicated 0-1",
            ),
            (
                HostNote::Declared(Declared::Adjudicated(None)),
                "#result 4200 adjudicated 1/2-1/2",
            ),
            (
                HostNote::ServerLine(
                    r#"{"type":"chatLine","username":"a b","text":"gg"}"#.to_owned(),
                ),
                r#"#server-line 4200 {"type":"chatLine","username":"a b","text":"gg"}"#,
            ),
            (
                HostNote::ServerAnswer {
                    request: "move/e2e4".to_owned(),
                    answer: "refused Not your turn".to_owned(),
                },
                "#server-answer 4200 move/e2e4 refused Not your turn",
            ),
            (
                HostNote::ServerAnswer {
                    request: "resign".to_owned(),
                    answer: "taken".to_owned(),
                },
                "#server-answer 4200 resign taken",
            ),
        ];
        for (note, line) in cases {
            assert_eq!(format_host_note(4200, &note), line);
            assert_eq!(parse_host_note(line), Some((4200, note)));
        }
    }

    #[test]
    fn other_comments_are_no_notes() {
        for line in [
            "# engine-move 1 e2e4",
            "#engine-move",
            "#engine-move x e2e4",
            "#engine-move 1 e9e4",
            "#engine-move 1 e2e4 cp",
            "#engine-move 1 e2e4 cp 1 2",
            "#engine-move 1 e2e4 depth 3",
            "#engine-move 1 e2e4 book 3",
            "#hint 1 e2e4 book",
            "#analysis 1 3 18 depth 31 Nc6",
            "#analysis 1 3 18",
            "#analysis 1 x 18 cp 3",
            "#hint 1",
            "#hinted 1 e2e4",
            "#engine-move 1 e2e4 cp 3 book",
            "#engine-gone 1 now",
            "#engine-moved 1 e2e4",
            "#resign 1",
            "#resign 1 grey",
            "#resign 1 white now",
            "#note 1",
            "#note 1 ",
            "#time-added 1 white",
            "#time-added 1 white -5",
            "#time-added 1 grey 5",
            "#time-added 1 white 5 s",
            "#result 1",
            "#result 1 draw",
            "#result 1 draw-agreed now",
            "#result 1 claim",
            "#result 1 claim repetition",
            "#result 1 default",
            "#result 1 penalty grey",
            "#result 1 adjudicated 2-0",
            "#result 1 adjudicated *",
            "#server-line 1",
            "#server-line 1 ",
            "#server-answer 1 move/e2e4",
            "#server-lines 1 {}",
        ] {
            assert_eq!(parse_host_note(line), None, "{line}");
        }
    }
}
