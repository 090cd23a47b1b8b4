//! An engine's analysis of a game between two people (`--analyse`: `watch`, `serve`,
//! `online`), sans-IO: the game's decisions in, what to ask the engine and the analyses to say
//! out. Each position of the game, as it stands, is searched; the engine's lines for it become
//! [`Analysis`]es (its evaluation from White's side, its best line in SAN), said when the search
//! goes deeper, at most one a second, and its deepest when it ends. Nothing is shown on the
//! board and nothing in the game changes.

use std::collections::VecDeque;

use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Move, Position};

use crate::{EngineEvent, Score};
use touchmove_core::event::{EventKind, GameEvent};
use touchmove_core::sensor::Millis;
use touchmove_core::stream::Analysis;

/// How long after an analysis of a position the next, deeper one may be said (the final one
/// is said whenever the search ends).
pub const SAY_EVERY_MS: Millis = 1000;

/// What the analyst has to say or ask.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnalystEvent {
    /// Search the game after `moves` from `start` (the search under way no longer applies).
    Analyse {
        /// Where the game started.
        start: Chess,
        /// Its moves as they stand.
        moves: Vec<Move>,
    },
    /// A new game begins: the engine is told before its next search.
    NewGame,
    /// Nothing to search (the game is over): the search under way no longer applies.
    Cancel,
    /// An analysis to say now.
    Said(Analysis),
}

/// The analysis of the game on one board.
///
/// ```
/// use shakmaty::Chess;
/// use touchmove_engine::analysis::{Analyst, AnalystEvent};
/// use touchmove_engine::{EngineEvent, Score};
///
/// let mut analyst = Analyst::new(Chess::default());
/// analyst.started();
/// assert!(matches!(analyst.poll_event(), Some(AnalystEvent::Analyse { .. })));
/// // The engine's line for the start: White's view, in SAN.
/// analyst.handle_engine(100, &EngineEvent::Info {
///     position: Box::new(Chess::default()),
///     depth: Some(10),
///     score: Some(Score::Centipawns(30)),
///     pv: vec!["e2e4".to_owned(), "e7e5".to_owned()],
/// });
/// let Some(AnalystEvent::Said(said)) = analyst.poll_event() else { panic!("said") };
/// assert_eq!((said.ply, said.depth, said.score_cp), (0, 10, Some(30)));
/// assert_eq!(said.pv, ["e4", "e5"]);
/// ```
#[derive(Debug, Clone)]
pub struct Analyst {
    start: Chess,
    moves: Vec<Move>,
    position: Chess,
    /// The game is over: nothing is searched.
    over: bool,
    /// The deepest line of the position's search not yet said.
    held: Option<Analysis>,
    /// The depth last said for the position, and when.
    said: Option<(u32, Millis)>,
    out: VecDeque<AnalystEvent>,
}

impl Analyst {
    /// The analysis of a game from `start`.
    pub fn new(start: Chess) -> Analyst {
        Analyst {
            position: start.clone(),
            start,
            moves: Vec::new(),
            over: false,
            held: None,
            said: None,
            out: VecDeque::new(),
        }
    }

    /// The next thing to do or say.
    pub fn poll_event(&mut self) -> Option<AnalystEvent> {
        self.out.pop_front()
    }

    /// The game is on (the board showed its start): its position is searched.
    pub fn started(&mut self) {
        self.ask();
    }

    /// A decision of the game's interpreter.
    pub fn handle_decision(&mut self, event: &GameEvent) {
        match &event.kind {
            EventKind::Move(played) => {
                self.moves.truncate(before(played.ply));
                self.moves.push(played.chess_move);
                self.replay_moves();
                self.ask();
            }
            EventKind::Takeback { ply } => {
                self.moves.truncate(before(*ply));
                self.replay_moves();
                self.over = false;
                self.ask();
            }
            EventKind::Game { .. } => self.new_game(Chess::default()),
            EventKind::Setup { fen, .. } => {
                let start = fen
                    .clone()
                    .into_position(shakmaty::CastlingMode::Chess960)
                    .unwrap_or_default();
                self.new_game(start);
            }
            EventKind::Result(_) => {
                self.over = true;
                self.held = None;
                self.out.push_back(AnalystEvent::Cancel);
            }
            _ => {}
        }
    }

    /// What the engine said at `t`: a line of the position's search is held and said (deeper
    /// than the last said, a second after it), the deepest when the search ends; a line of
    /// another position's search is not taken.
    pub fn handle_engine(&mut self, t: Millis, event: &EngineEvent) {
        match event {
            EngineEvent::Info {
                position,
                depth,
                score: Some(score),
                pv,
            } if **position == self.position && !self.over => {
                let analysis = self.analysis(u32::from(depth.unwrap_or(0)), *score, pv);
                self.held = Some(analysis);
                let due = match self.said {
                    None => true,
                    Some((said_depth, at)) => {
                        self.held.as_ref().is_some_and(|a| a.depth > said_depth)
                            && t.saturating_sub(at) >= SAY_EVERY_MS
                    }
                };
                if due {
                    self.say(t);
                }
            }
            EngineEvent::BestMove { .. } | EngineEvent::NoMove => self.say(t),
            _ => {}
        }
    }

    /// The analysis `depth`, `score` (from the side to move) and `pv` (UCI, as far as it is
    /// legal) say of the position.
    fn analysis(&self, depth: u32, score: Score, pv: &[String]) -> Analysis {
        let white = if self.position.turn() == Color::White {
            1
        } else {
            -1
        };
        let (score_cp, mate) = match score {
            Score::Centipawns(cp) => (Some(cp.saturating_mul(white)), None),
            Score::Mate(moves) => (None, Some(moves.saturating_mul(white))),
        };
        let mut position = self.position.clone();
        let mut line = Vec::new();
        for uci in pv {
            let Some(chess_move) = uci
                .parse::<UciMove>()
                .ok()
                .and_then(|uci| uci.to_move(&position).ok())
            else {
                break;
            };
            line.push(SanPlus::from_move_and_play_unchecked(&mut position, chess_move).to_string());
        }
        Analysis {
            ply: u32::try_from(self.moves.len()).unwrap_or(u32::MAX),
            depth,
            score_cp,
            mate,
            pv: line,
            tablebase: None,
        }
    }

    /// The position searched: the game as it stands.
    pub fn position(&self) -> &Chess {
        &self.position
    }

    /// Says the line held, if deeper than the last said.
    fn say(&mut self, t: Millis) {
        let Some(analysis) = self.held.take() else {
            return;
        };
        if self.said.is_some_and(|(depth, _)| depth >= analysis.depth) {
            return;
        }
        self.said = Some((analysis.depth, t));
        self.out.push_back(AnalystEvent::Said(analysis));
    }

    fn new_game(&mut self, start: Chess) {
        *self = Analyst {
            out: std::mem::take(&mut self.out),
            ..Analyst::new(start)
        };
        self.out.push_back(AnalystEvent::NewGame);
        self.ask();
    }

    /// The position after the moves.
    fn replay_moves(&mut self) {
        let mut position = self.start.clone();
        for &m in &self.moves {
            position.play_unchecked(m);
        }
        self.position = position;
    }

    /// The position is to be searched (nothing if the game is over there).
    fn ask(&mut self) {
        self.held = None;
        self.said = None;
        if self.over || self.position.is_game_over() {
            self.out.push_back(AnalystEvent::Cancel);
            return;
        }
        self.out.push_back(AnalystEvent::Analyse {
            start: self.start.clone(),
            moves: self.moves.clone(),
        });
    }
}

/// The moves before ply `ply` (from 1).
fn before(ply: u32) -> usize {
    usize::try_from(ply.saturating_sub(1)).unwrap_or(usize::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square;
    use touchmove_core::Config;
    use touchmove_core::event::GameEvent;
    use touchmove_core::interpreter::Interpreter;
    use touchmove_core::sensor::{SensorEvent, SensorKind};

    fn said(analyst: &mut Analyst) -> Vec<AnalystEvent> {
        std::iter::from_fn(|| analyst.poll_event()).collect()
    }

    fn info(position: &Chess, depth: u8, score: Score, pv: &[&str]) -> EngineEvent {
        EngineEvent::Info {
            position: Box::new(position.clone()),
            depth: Some(depth),
            score: Some(score),
            pv: pv.iter().map(|m| (*m).to_owned()).collect(),
        }
    }

    /// 1. e4 as the interpreter decides it.
    fn e4() -> GameEvent {
        let mut interpreter = Interpreter::new(Chess::default(), Config::default());
        interpreter.handle_event(&SensorEvent::new(
            0,
            SensorKind::Lift {
                square: Square::E2,
                piece: None,
            },
        ));
        interpreter.handle_event(&SensorEvent::new(
            300,
            SensorKind::Place {
                square: Square::E4,
                piece: None,
            },
        ));
        interpreter.finish();
        std::iter::from_fn(|| interpreter.poll_event())
            .find(|e| matches!(e.kind, EventKind::Move(_)))
            .unwrap_or_else(|| panic!("e4 decided"))
    }

    #[test]
    fn each_position_is_searched_and_its_lines_said_deeper_and_at_most_each_second() {
        let mut analyst = Analyst::new(Chess::default());
        analyst.started();
        let _ = said(&mut analyst);
        let e4 = e4();
        analyst.handle_decision(&e4);
        let after = said(&mut analyst);
        let [AnalystEvent::Analyse { moves, .. }] = after.as_slice() else {
            panic!("{after:?}");
        };
        assert_eq!(moves.len(), 1);
        let mut position = Chess::default();
        position.play_unchecked(moves[0]);
        // A line of the start's search, late: not this position's.
        analyst.handle_engine(
            10,
            &info(&Chess::default(), 20, Score::Centipawns(30), &["d2d4"]),
        );
        assert!(said(&mut analyst).is_empty());
        // Black to move: the score is turned to White's side; the line is written in SAN.
        analyst.handle_engine(
            100,
            &info(&position, 8, Score::Centipawns(-25), &["c7c5", "g1f3"]),
        );
        let first = said(&mut analyst);
        assert_eq!(
            first,
            [AnalystEvent::Said(Analysis {
                ply: 1,
                depth: 8,
                score_cp: Some(25),
                mate: None,
                pv: vec!["c5".to_owned(), "Nf3".to_owned()],
                tablebase: None,
            })]
        );
        // Deeper within the second: held; then said at the search's end.
        analyst.handle_engine(600, &info(&position, 12, Score::Mate(-3), &["e7e5", "zz"]));
        assert!(said(&mut analyst).is_empty());
        analyst.handle_engine(
            900,
            &EngineEvent::BestMove {
                chess_move: Move::Normal {
                    role: shakmaty::Role::Pawn,
                    from: Square::E7,
                    capture: None,
                    to: Square::E5,
                    promotion: None,
                },
                uci: "e7e5".to_owned(),
            },
        );
        assert_eq!(
            said(&mut analyst),
            [AnalystEvent::Said(Analysis {
                ply: 1,
                depth: 12,
                score_cp: None,
                mate: Some(3),
                pv: vec!["e5".to_owned()],
                tablebase: None,
            })]
        );
        // A takeback: the start again.
        analyst.handle_decision(&GameEvent {
            t: 2000,
            kind: EventKind::Takeback { ply: 1 },
        });
        assert!(matches!(
            said(&mut analyst).as_slice(),
            [AnalystEvent::Analyse { moves, .. }] if moves.is_empty()
        ));
    }
}
