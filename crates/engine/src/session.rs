//! The UCI conversation: the handshake, the options, a search at a time, and an engine that
//! stops answering.

use std::collections::{HashMap, VecDeque};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, EnPassantMode, Move, Position};
use shakmaty_uci::{UciMessage, UciOptionConfig};

use super::limits::SearchLimits;
use touchmove_core::sensor::Millis;

/// How long the engine may take to answer `uci` or `isready`.
const HANDSHAKE_MS: Millis = 10_000;

/// What the engine is set up with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EngineConfig {
    /// `setoption` name and value pairs, sent after the handshake (an option the engine does
    /// not declare is not sent, and said).
    pub options: Vec<(String, String)>,
    /// Play at this strength (`UCI_LimitStrength` and `UCI_Elo`, kept within the range the
    /// engine declares); an engine without `UCI_Elo` is [`EngineEvent::Lacks`] it.
    pub elo: Option<u32>,
    /// Play at this skill level (`Skill Level`, kept within the range the engine declares); an
    /// engine without it is [`EngineEvent::Lacks`] it.
    pub skill: Option<i64>,
    /// The games are Chess960 (`UCI_Chess960`; castling then written as the king taking its
    /// rook); an engine without the option is [`EngineEvent::Lacks`] it.
    pub chess960: bool,
}

/// The strength the engine was set to play at, as far as its options allow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strength {
    /// `UCI_LimitStrength` on, `UCI_Elo` this.
    Elo(i64),
    /// `Skill Level` this.
    Skill(i64),
}

impl std::fmt::Display for Strength {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Strength::Elo(elo) => write!(f, "Elo {elo}"),
            Strength::Skill(level) => write!(f, "skill level {level}"),
        }
    }
}

/// A score, from the side of the engine's move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// In hundredths of a pawn.
    Centipawns(i32),
    /// Mate in this many moves (negative: the engine is mated).
    Mate(i32),
}

/// A score as the event stream and the sensor log write it: `score_cp` or `mate`.
pub fn score_fields(score: Option<Score>) -> (Option<i32>, Option<i32>) {
    match score {
        Some(Score::Centipawns(cp)) => (Some(cp), None),
        Some(Score::Mate(moves)) => (None, Some(moves)),
        None => (None, None),
    }
}

/// The score `score_cp` and `mate` write (a mate when both are given).
pub fn score_from_fields(score_cp: Option<i32>, mate: Option<i32>) -> Option<Score> {
    match (mate, score_cp) {
        (Some(mate), _) => Some(Score::Mate(mate)),
        (None, Some(cp)) => Some(Score::Centipawns(cp)),
        (None, None) => None,
    }
}

/// What the engine said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineEvent {
    /// The handshake is done: the engine takes searches (said once).
    Ready {
        /// Its `id name`.
        name: Option<String>,
        /// The strength it was set to, when one was asked for and it has the option.
        strength: Option<Strength>,
    },
    /// The engine lacks an option it must have for what was asked (`UCI_Elo` for a strength,
    /// `Skill Level` for a skill level): it would play at another strength than asked. Said
    /// before [`EngineEvent::Ready`].
    Lacks {
        /// The option it lacks.
        option: &'static str,
        /// The options it declares, in the order it declared them.
        declared: Vec<String>,
    },
    /// Progress of the search: the deepest line so far.
    Info {
        /// The position searched (equal as the Laws count repetitions: the same pieces, side
        /// to move, castling and en passant rights), to tell a search's lines from another's.
        position: Box<Chess>,
        /// The depth reached.
        depth: Option<u8>,
        /// The score of the line.
        score: Option<Score>,
        /// The line, in UCI.
        pv: Vec<String>,
    },
    /// The engine's move, legal in the position searched.
    BestMove {
        /// The move.
        chess_move: Move,
        /// As the engine wrote it.
        uci: String,
    },
    /// `bestmove (none)` (or `0000`): the engine has no move.
    NoMove,
    /// A `bestmove` that is no legal move in the position searched.
    Illegal {
        /// What the engine wrote.
        said: String,
    },
    /// The engine did not answer in time: what was awaited, after how long. Nothing more is
    /// asked of it.
    Unresponsive {
        /// `uciok`, `readyok` or `bestmove`.
        waiting_for: &'static str,
        /// How long it was given (ms).
        after: Millis,
    },
    /// Something to tell the user (an option the engine does not have, ...).
    Notice(String),
}

/// Where the conversation stands.
#[derive(Debug, Clone)]
enum Phase {
    /// `uci` sent at `since`: waiting for `uciok`.
    Handshake { since: Millis },
    /// `isready` sent at `since`: waiting for `readyok`.
    Syncing { since: Millis },
    /// Ready, not searching.
    Idle,
    /// `go` sent for `position`: waiting for `bestmove` until `deadline`, `given` after the
    /// search began.
    Searching {
        position: Chess,
        deadline: Millis,
        given: Millis,
    },
    /// It did not answer in time.
    Gone,
}

/// A search asked for while the engine was busy: sent once it is idle.
#[derive(Debug, Clone)]
struct Pending {
    position_command: String,
    position: Chess,
    limits: SearchLimits,
}

/// A UCI engine, sans-IO.
///
/// Lines in with their time, lines out; what the engine said as [`EngineEvent`]s; a deadline
/// for an engine that stops answering.
///
/// ```
/// use shakmaty::{Chess, Square};
/// use touchmove_engine::{EngineConfig, EngineEvent, EngineSession, SearchLimits};
///
/// let mut engine = EngineSession::new(EngineConfig::default(), 0);
/// let said: Vec<String> = std::iter::from_fn(|| engine.poll_transmit()).collect();
/// assert_eq!(said, ["uci"]);
/// engine.handle_line(5, "id name Toy 1.0");
/// engine.handle_line(6, "uciok");
/// assert_eq!(engine.poll_transmit().as_deref(), Some("isready"));
/// engine.handle_line(8, "readyok");
/// let ready = engine.poll_event();
/// assert!(matches!(ready, Some(EngineEvent::Ready { name: Some(name), .. }) if name == "Toy 1.0"));
/// // A search from the start: a new game is said and the engine synced first (UCI's
/// // `ucinewgame` is followed by `isready`), then the position and the search go.
/// engine.go(10, &Chess::default(), &[], SearchLimits::MoveTime(100));
/// let asked: Vec<String> = std::iter::from_fn(|| engine.poll_transmit()).collect();
/// assert_eq!(asked, ["ucinewgame", "isready"]);
/// engine.handle_line(12, "readyok");
/// let asked: Vec<String> = std::iter::from_fn(|| engine.poll_transmit()).collect();
/// assert_eq!(asked, ["position startpos", "go movetime 100"]);
/// assert!(engine.poll_timeout().is_some(), "an engine that never answers is noticed");
/// engine.handle_line(120, "bestmove e2e4 ponder e7e5");
/// let best = std::iter::from_fn(|| engine.poll_event()).find_map(|event| match event {
///     EngineEvent::BestMove { chess_move, .. } => Some(chess_move),
///     _ => None,
/// });
/// assert_eq!(best.map(|m| (m.from(), m.to())), Some((Some(Square::E2), Square::E4)));
/// ```
#[derive(Debug, Clone)]
pub struct EngineSession {
    config: EngineConfig,
    phase: Phase,
    name: Option<String>,
    /// The options the engine declared, by name.
    declared: HashMap<String, UciOptionConfig>,
    /// Their names in the order declared.
    declared_order: Vec<String>,
    /// The strength set, once set.
    strength: Option<Strength>,
    ready_said: bool,
    /// `ucinewgame` is to be sent before the next search.
    new_game: bool,
    pending: Option<Pending>,
    /// The `bestmove` of a search that was stopped is not the answer to anything.
    discard_bestmove: bool,
    out: VecDeque<String>,
    events: VecDeque<EngineEvent>,
}

impl EngineSession {
    /// A session with an engine just started at `now`: `uci` is sent.
    pub fn new(config: EngineConfig, now: Millis) -> EngineSession {
        let mut session = EngineSession {
            config,
            phase: Phase::Handshake { since: now },
            name: None,
            declared: HashMap::new(),
            declared_order: Vec::new(),
            strength: None,
            ready_said: false,
            new_game: true,
            pending: None,
            discard_bestmove: false,
            out: VecDeque::new(),
            events: VecDeque::new(),
        };
        session.send(&UciMessage::Uci);
        session
    }

    /// The engine's `id name`, once it has said it.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Whether a search is under way.
    pub fn searching(&self) -> bool {
        matches!(self.phase, Phase::Searching { .. }) || self.pending.is_some()
    }

    /// The next line to send to the engine (without its line end).
    pub fn poll_transmit(&mut self) -> Option<String> {
        self.out.pop_front()
    }

    /// The next thing the engine said.
    pub fn poll_event(&mut self) -> Option<EngineEvent> {
        self.events.pop_front()
    }

    /// When [`EngineSession::handle_timeout`] must be called: the end of the wait for the
    /// engine's answer.
    pub fn poll_timeout(&self) -> Option<Millis> {
        match &self.phase {
            Phase::Handshake { since } | Phase::Syncing { since } => {
                Some(since.saturating_add(HANDSHAKE_MS))
            }
            Phase::Searching { deadline, .. } => Some(*deadline),
            Phase::Idle | Phase::Gone => None,
        }
    }

    /// The time is `now`: an engine that has not answered by its deadline is reported.
    pub fn handle_timeout(&mut self, now: Millis) {
        let Some(deadline) = self.poll_timeout() else {
            return;
        };
        if now < deadline {
            return;
        }
        let (waiting_for, after) = match &self.phase {
            Phase::Searching { given, .. } => ("bestmove", *given),
            Phase::Syncing { .. } => ("readyok", HANDSHAKE_MS),
            _ => ("uciok", HANDSHAKE_MS),
        };
        self.phase = Phase::Gone;
        self.pending = None;
        self.events
            .push_back(EngineEvent::Unresponsive { waiting_for, after });
    }

    /// A new game begins: `ucinewgame` goes before the next search.
    pub fn new_game(&mut self) {
        self.new_game = true;
    }

    /// Asks at `now` for the engine's move after `moves` from `start`, within `limits`. A
    /// search under way is stopped (its answer is not taken); a search asked for before the
    /// handshake ends is sent when it does. Moves that are not a game from `start` are refused
    /// with a notice.
    pub fn go(&mut self, now: Millis, start: &Chess, moves: &[Move], limits: SearchLimits) {
        let Some((position_command, position)) = position_command(start, moves) else {
            self.events.push_back(EngineEvent::Notice(
                "not asked: the moves given are no game from the start given".to_owned(),
            ));
            return;
        };
        self.pending = Some(Pending {
            position_command,
            position,
            limits,
        });
        match self.phase {
            Phase::Idle => self.start_pending(now),
            Phase::Searching { .. } => self.cancel(),
            Phase::Handshake { .. } | Phase::Syncing { .. } | Phase::Gone => {}
        }
    }

    /// Stops the search under way, if any; its `bestmove` is not taken.
    pub fn cancel(&mut self) {
        if matches!(self.phase, Phase::Searching { .. }) && !self.discard_bestmove {
            self.discard_bestmove = true;
            self.send(&UciMessage::Stop);
        }
    }

    /// Asks the engine to end (`quit`).
    pub fn quit(&mut self) {
        self.send(&UciMessage::Quit);
        self.phase = Phase::Gone;
    }

    /// Takes one line the engine printed at `now`.
    pub fn handle_line(&mut self, now: Millis, line: &str) {
        let line = line.trim();
        if line.is_empty() {
            return;
        }
        if let Some(rest) = line.strip_prefix("bestmove") {
            self.best_move(now, rest.split_whitespace().next().unwrap_or(""));
            return;
        }
        // Lines the protocol does not know are ignored, as UCI asks.
        let Ok(message) = line.parse::<UciMessage>() else {
            return;
        };
        match message {
            UciMessage::Id {
                name: Some(name), ..
            } => self.name = Some(name),
            UciMessage::Option(option) => {
                let name = option.get_name().to_owned();
                if !self.declared.contains_key(&name) {
                    self.declared_order.push(name.clone());
                }
                self.declared.insert(name, option);
            }
            UciMessage::UciOk => self.handshake_done(now),
            UciMessage::ReadyOk => self.ready(now),
            UciMessage::Info(info) if !self.discard_bestmove => {
                let Phase::Searching { position, .. } = &self.phase else {
                    return;
                };
                let position = Box::new(position.clone());
                if info.pv.is_empty() && info.score.is_none() {
                    return;
                }
                let score = info.score.and_then(|score| match (score.mate, score.cp) {
                    (Some(mate), _) => Some(Score::Mate(i32::from(mate))),
                    (None, Some(cp)) => Some(Score::Centipawns(cp)),
                    (None, None) => None,
                });
                self.events.push_back(EngineEvent::Info {
                    position,
                    depth: info.depth,
                    score,
                    pv: info.pv.iter().map(ToString::to_string).collect(),
                });
            }
            _ => {}
        }
    }

    /// `uciok`: the options are set, then `isready`.
    fn handshake_done(&mut self, now: Millis) {
        if !matches!(self.phase, Phase::Handshake { .. }) {
            return;
        }
        for (name, value) in self.config.options.clone() {
            self.set_option(&name, Some(value));
        }
        if let Some(elo) = self.config.elo {
            self.limit_strength(elo);
        }
        if let Some(level) = self.config.skill {
            self.set_skill(level);
        }
        if self.config.chess960 {
            if self.declared.contains_key("UCI_Chess960") {
                self.set_option("UCI_Chess960", Some("true".to_owned()));
            } else {
                self.events.push_back(EngineEvent::Lacks {
                    option: "UCI_Chess960",
                    declared: self.declared_order.clone(),
                });
            }
        }
        self.send(&UciMessage::IsReady);
        self.phase = Phase::Syncing { since: now };
    }

    /// `setoption`, if the engine declared the option (else a notice).
    fn set_option(&mut self, name: &str, value: Option<String>) {
        if !self.declared.contains_key(name) {
            self.events.push_back(EngineEvent::Notice(format!(
                "the engine has no option `{name}`: not set"
            )));
            return;
        }
        self.send(&UciMessage::SetOption {
            name: name.to_owned(),
            value,
        });
    }

    /// `UCI_LimitStrength` and `UCI_Elo`, the strength kept within the engine's range.
    fn limit_strength(&mut self, elo: u32) {
        let Some(kept) = self.spin_within("UCI_Elo", i64::from(elo)) else {
            return;
        };
        self.set_option("UCI_LimitStrength", Some("true".to_owned()));
        self.set_option("UCI_Elo", Some(kept.to_string()));
        self.strength = Some(Strength::Elo(kept));
    }

    /// `Skill Level`, kept within the engine's range.
    fn set_skill(&mut self, level: i64) {
        let Some(kept) = self.spin_within("Skill Level", level) else {
            return;
        };
        self.set_option("Skill Level", Some(kept.to_string()));
        self.strength = Some(Strength::Skill(kept));
    }

    /// `wanted`, kept within the range of the spin option `option` (said when it is not
    /// `wanted`); `None`, and [`EngineEvent::Lacks`] said, when the engine has no such option.
    fn spin_within(&mut self, option: &'static str, wanted: i64) -> Option<i64> {
        let Some(UciOptionConfig::Spin { min, max, .. }) = self.declared.get(option).cloned()
        else {
            self.events.push_back(EngineEvent::Lacks {
                option,
                declared: self.declared_order.clone(),
            });
            return None;
        };
        let low = min.unwrap_or(wanted);
        let kept = wanted.clamp(low, max.unwrap_or(wanted).max(low));
        if kept != wanted {
            self.events.push_back(EngineEvent::Notice(format!(
                "{option} {wanted} is out of the engine's range: it plays at {kept}, the \
                 nearest it can"
            )));
        }
        Some(kept)
    }

    /// `readyok`: the engine is idle; a search asked for meanwhile starts.
    fn ready(&mut self, now: Millis) {
        if !matches!(self.phase, Phase::Syncing { .. }) {
            return;
        }
        self.phase = Phase::Idle;
        if !self.ready_said {
            self.ready_said = true;
            self.events.push_back(EngineEvent::Ready {
                name: self.name.clone(),
                strength: self.strength,
            });
        }
        self.start_pending(now);
    }

    /// Sends the search asked for, if any (after `ucinewgame` and `isready` for a new game).
    fn start_pending(&mut self, now: Millis) {
        if self.new_game && self.pending.is_some() {
            self.new_game = false;
            self.send(&UciMessage::UciNewGame);
            self.send(&UciMessage::IsReady);
            self.phase = Phase::Syncing { since: now };
            return;
        }
        let Some(pending) = self.pending.take() else {
            return;
        };
        self.out.push_back(pending.position_command);
        self.send(&pending.limits.go());
        let given = pending.limits.bound(pending.position.turn());
        self.phase = Phase::Searching {
            position: pending.position,
            deadline: now.saturating_add(given),
            given,
        };
    }

    /// `bestmove MOVE`.
    fn best_move(&mut self, now: Millis, said: &str) {
        let Phase::Searching { position, .. } = std::mem::replace(&mut self.phase, Phase::Idle)
        else {
            return;
        };
        if std::mem::replace(&mut self.discard_bestmove, false) {
            self.start_pending(now);
            return;
        }
        let event = match said {
            "(none)" | "0000" => EngineEvent::NoMove,
            _ => match said
                .parse::<UciMove>()
                .ok()
                .and_then(|uci| uci.to_move(&position).ok())
            {
                Some(chess_move) => EngineEvent::BestMove {
                    chess_move,
                    uci: said.to_owned(),
                },
                None => EngineEvent::Illegal {
                    said: said.to_owned(),
                },
            },
        };
        self.events.push_back(event);
        self.start_pending(now);
    }

    fn send(&mut self, message: &UciMessage) {
        self.out.push_back(message.to_string());
    }
}

/// `position startpos|fen FEN moves ...` for `moves` from `start`, and the position after
/// them (`None` if a move is not legal where it is played).
fn position_command(start: &Chess, moves: &[Move]) -> Option<(String, Chess)> {
    let mut command = if *start == Chess::default() {
        "position startpos".to_owned()
    } else {
        format!(
            "position fen {}",
            Fen::from_position(start, EnPassantMode::Legal)
        )
    };
    let mut position = start.clone();
    if !moves.is_empty() {
        command.push_str(" moves");
    }
    for chess_move in moves {
        if !position.is_legal(*chess_move) {
            return None;
        }
        command.push(' ');
        command.push_str(&UciMove::from_move(*chess_move, position.castles().mode()).to_string());
        position.play_unchecked(*chess_move);
    }
    Some((command, position))
}
