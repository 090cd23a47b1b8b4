//! A game on the board against an opponent on a server (`touchmove online`), sans-IO: between
//! the interpreter's decisions (what the board shows) and the server's game (what stands).
//!
//! The server's game is the game. The player's move, once the interpreter decides it, stands
//! and is sent, once; a move the server refuses is taken back and said, and the board must show
//! the server's position again before anything more is sent. A move the server has and the
//! board does not (the opponent's, or one of the player's made elsewhere) is shown for the
//! player to carry out, and stands once the board shows it; another move is reported, as
//! `touchmove play` reports a wrong execution of an engine's move. Moves the server takes back
//! (a takeback both sides agreed to) are taken back. The result is the server's; the
//! interpreter's rulings are reported for the record and bind no one.
//!
//! Fed the interpreter's decisions ([`OnlineGame::handle_decision`]), the server's states
//! ([`OnlineGame::handle_state`]) and what became of each request
//! ([`OnlineGame::handle_answer`]); what comes out ([`OnlineGame::poll_event`]) is the record,
//! the requests to send, what to show on the board and the server's clock.

use std::collections::VecDeque;

use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{ByColor, CastlingMode, Chess, Color, KnownOutcome, Move, Position};

use crate::lichess::request::Request;
use crate::lichess::wire::{CHESS960, GameMessage, GameState};
use touchmove_boards::live::{Feedback, carry_out, move_squares};
use touchmove_core::clock::ClockReading;
use touchmove_core::event::{ClockTimes, EventKind, GameEvent, GameResult, Termination};
use touchmove_core::sensor::Millis;
use touchmove_core::stream::{Execution, OnlineNotice, StreamEvent, StreamKind};

/// What the online game has to say or do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OnlineEvent {
    /// A line of the game's record (moves that stand, takebacks, the server's moves and
    /// notices, wrong executions, the result).
    Decision(StreamEvent),
    /// Send this request to the server.
    Send(Request),
    /// Show this on the board (the server's move to carry out).
    Show(Feedback),
    /// The server's clock as of this time: for the interpreter (the moves' times) and the
    /// board's clock.
    Clock(Millis, ClockReading),
}

/// What became of a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// The server took it.
    Taken,
    /// The server refused it, saying why.
    Refused(String),
    /// Nobody knows: the connection failed before the answer (the server may have taken it).
    Unknown,
}

impl Answer {
    /// The answer in the words of a recording's `#server-answer`: `taken`, `unknown`,
    /// `refused <reason>`.
    pub fn words(&self) -> String {
        match self {
            Answer::Taken => "taken".to_owned(),
            Answer::Unknown => "unknown".to_owned(),
            Answer::Refused(reason) => format!("refused {reason}"),
        }
    }

    /// The answer [`Answer::words`] says, if it says one.
    pub fn from_words(words: &str) -> Option<Answer> {
        match words.split_once(' ').unwrap_or((words, "")) {
            ("taken", "") => Some(Answer::Taken),
            ("unknown", "") => Some(Answer::Unknown),
            ("refused", reason) => Some(Answer::Refused(reason.to_owned())),
            _ => None,
        }
    }
}

/// The player's move as sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Sent {
    m: Move,
    /// Whether the answer was lost: the server's next state says whether it was taken.
    unknown: bool,
}

/// A game played on the board against the server's opponent.
///
/// ```
/// use shakmaty::{Chess, Color, Square};
/// use touchmove_boards::live::Feedback;
/// use touchmove_core::{Config, Interpreter, SensorEvent, SensorKind};
/// use touchmove_online::OnlineEvent;
/// use touchmove_online::game::OnlineGame;
/// use touchmove_online::lichess::request::Request;
/// use touchmove_online::lichess::wire::GameMessage;
///
/// let mut game = OnlineGame::new(Chess::default(), Color::White);
/// // The player's 1. e4, as the interpreter decides it from the board: sent to the server.
/// let mut board = Interpreter::new(Chess::default(), Config::default());
/// let lift = SensorKind::Lift { square: Square::E2, piece: None };
/// let place = SensorKind::Place { square: Square::E4, piece: None };
/// board.handle_event(&SensorEvent::new(0, lift));
/// board.handle_event(&SensorEvent::new(400, place));
/// board.finish();
/// while let Some(decided) = board.poll_event() {
///     game.handle_decision(&decided);
/// }
/// let out: Vec<OnlineEvent> = std::iter::from_fn(|| game.poll_event()).collect();
/// let sent = |e: &OnlineEvent| matches!(e, OnlineEvent::Send(Request::Move(m)) if m.to_string() == "e2e4");
/// assert!(out.iter().any(sent));
/// // The server's state with the opponent's 1... e5: shown on the board to be carried out.
/// let line = r#"{"type":"gameState","moves":"e2e4 e7e5","wtime":299000,"btime":298000,"#
///     .to_owned()
///     + r#""winc":0,"binc":0,"status":"started"}"#;
/// let message: GameMessage = serde_json::from_str(&line)?;
/// game.handle_message(2000, &message);
/// let out: Vec<OnlineEvent> = std::iter::from_fn(|| game.poll_event()).collect();
/// assert!(out.iter().any(|e| matches!(e,
///     OnlineEvent::Show(Feedback::Show { from: Square::E7, to: Square::E5, .. }))));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct OnlineGame {
    /// The account's side.
    me: Color,
    /// The position the board's game (the interpreter's) starts from.
    start: Chess,
    /// The server's moves from `start`, as it last stated them.
    server: Vec<Move>,
    /// The moves that stand: the server's as far as the board has caught up with them, then
    /// the player's move sent and not yet the server's.
    record: Vec<Move>,
    /// The position after `record`.
    position: Chess,
    /// The interpreter's moves, each with its event.
    seen: Vec<GameEvent>,
    /// The player's move sent and not yet in the server's game.
    sent: Option<Sent>,
    /// Resumed, and the new stream's first line not yet taken: the server's game is known as
    /// the recording left it, and a move the player makes meanwhile (the move a killed session
    /// may have sent already) waits for it, to be sent only if the server lacks it.
    stale: bool,
    /// A move the server refused, while the board still shows it.
    refused: Option<Move>,
    /// The moves the server took back, while the board may still show them.
    dropped: Vec<Move>,
    /// What was last reported of the board (said once until the board changes).
    reported: Option<Vec<Move>>,
    /// The server's move last shown.
    shown: Option<Move>,
    /// The ply of the player's move the board shows pending (made, not yet decided).
    pending_mine: Option<u32>,
    /// The draw offers and takeback proposals last stated, each side's.
    offers: ByColor<(bool, bool)>,
    /// The opponent has left the game (the server said so, and not yet that they came back).
    opponent_gone: bool,
    /// The server ended the game.
    over: bool,
    /// How the server writes castling in UCI: the king taking its rook in Chess960 (even from
    /// the standard start, which the board's record writes as standard chess), else the king's
    /// two squares. Known from the start, and from the whole game's variant.
    uci_mode: CastlingMode,
    out: VecDeque<OnlineEvent>,
}

impl OnlineGame {
    /// A game in which the account plays `me`, the board's game starting from `start`.
    pub fn new(start: Chess, me: Color) -> OnlineGame {
        OnlineGame {
            me,
            uci_mode: start.castles().mode(),
            position: start.clone(),
            start,
            server: Vec::new(),
            stale: false,
            record: Vec::new(),
            seen: Vec::new(),
            sent: None,
            refused: None,
            dropped: Vec::new(),
            reported: None,
            shown: None,
            pending_mine: None,
            offers: ByColor::new_with(|_| (false, false)),
            opponent_gone: false,
            over: false,
            out: VecDeque::new(),
        }
    }

    /// The account's side.
    pub fn me(&self) -> Color {
        self.me
    }

    /// The moves that stand.
    pub fn moves(&self) -> &[Move] {
        &self.record
    }

    /// The server's moves, as it last stated them.
    pub fn server_moves(&self) -> &[Move] {
        &self.server
    }

    /// The position after the moves that stand.
    pub fn position(&self) -> &Chess {
        &self.position
    }

    /// Whether the server has ended the game.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The side whose draw offer stands, as the server last stated it.
    pub fn draw_offered_by(&self) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|&color| self.offers.get(color).0)
    }

    /// The side whose takeback proposal stands, as the server last stated it.
    pub fn takeback_proposed_by(&self) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|&color| self.offers.get(color).1)
    }

    /// Whether the opponent has left the game (the server said so, and not yet that they came
    /// back): the player may claim the win once the server allows it.
    pub fn opponent_gone(&self) -> bool {
        self.opponent_gone && !self.over
    }

    /// The next thing to do or say.
    pub fn poll_event(&mut self) -> Option<OnlineEvent> {
        self.out.pop_front()
    }

    /// A decision of the interpreter, at the board.
    pub fn handle_decision(&mut self, event: &GameEvent) {
        match &event.kind {
            EventKind::Move(played) => {
                self.pending_mine = None;
                self.seen.truncate(before(played.ply));
                self.seen.push(event.clone());
                self.reconcile(event.t);
            }
            EventKind::Takeback { ply } => {
                self.pending_mine = None;
                self.seen.truncate(before(*ply));
                self.reconcile(event.t);
            }
            EventKind::Result(result) => self.board_result(result),
            // The player's move, shown while it waits to be decided; the server's is shown
            // already.
            EventKind::Pending(pending) if pending.color == self.me && !self.over => {
                self.pending_mine = pending.san.is_some().then_some(pending.ply);
                let text = pending.san.clone();
                self.out
                    .push_back(OnlineEvent::Show(Feedback::Pending { text }));
                self.pass(event.clone());
            }
            // A new game set up on the board is not the server's: the server says when games
            // begin.
            EventKind::Game { .. } | EventKind::Setup { .. } => {}
            _ => self.pass(event.clone()),
        }
    }

    /// A line of the game's stream, taken at `t`: the whole game and its states go to
    /// [`OnlineGame::handle_state`]; a chat line and the opponent's leaving are said.
    pub fn handle_message(&mut self, t: Millis, message: &GameMessage) {
        match message {
            GameMessage::GameFull(full) => {
                if full.variant.key == CHESS960 {
                    self.uci_mode = CastlingMode::Chess960;
                }
                self.handle_state(t, &full.state);
            }
            GameMessage::GameState(state) => self.handle_state(t, state),
            GameMessage::ChatLine(line) => self.notice(
                t,
                OnlineNotice::Chat {
                    user: line.username.clone(),
                    text: line.text.clone(),
                },
            ),
            GameMessage::OpponentGone(gone) => {
                self.opponent_gone = gone.gone;
                let claim_in_s = gone
                    .claim_win_in_seconds
                    .filter(|s| s.is_finite() && *s >= 0.0)
                    .map(|s| s.ceil().min(f64::from(u32::MAX)) as u32);
                self.notice(
                    t,
                    OnlineNotice::OpponentGone {
                        gone: gone.gone,
                        claim_in_s,
                    },
                );
            }
            GameMessage::Other => {}
        }
    }

    /// The server's state of the game at `t` (the first line of its stream, and each after a
    /// move, an offer or the end).
    pub fn handle_state(&mut self, t: Millis, state: &GameState) {
        let Some(server) = self.read_moves(state) else {
            self.notice(
                t,
                OnlineNotice::Failed {
                    request: "state".to_owned(),
                    message: format!("the server's moves `{}` are not a game", state.moves),
                },
            );
            return;
        };
        self.server = server;
        self.stale = false;
        let running = state.is_going_on().then(|| self.server_position().turn());
        let times = ClockTimes {
            white: state.wtime,
            black: state.btime,
        };
        self.out
            .push_back(OnlineEvent::Clock(t, ClockReading::new(times, running)));
        self.settle_sent();
        self.offers_changed(t, state);
        self.reconcile(t);
        if !state.is_going_on() && !self.over {
            self.over = true;
            self.ended(t, state);
        }
    }

    /// What became of `request`, sent earlier, at `t`.
    pub fn handle_answer(&mut self, t: Millis, request: &Request, answer: Answer) {
        match (request, answer) {
            (Request::Move(_), Answer::Taken) => {}
            (Request::Move(uci), Answer::Refused(message)) => {
                let Some(sent) = self.sent.take() else {
                    return;
                };
                self.refused = Some(sent.m);
                self.notice(
                    t,
                    OnlineNotice::Refused {
                        uci: uci.to_string(),
                        message,
                    },
                );
                self.reconcile(t);
            }
            (Request::Move(_), Answer::Unknown) => {
                if let Some(sent) = self.sent.as_mut() {
                    sent.unknown = true;
                }
            }
            (_, Answer::Taken) => {}
            (other, Answer::Refused(message)) => self.notice(
                t,
                OnlineNotice::Failed {
                    request: other.name(),
                    message,
                },
            ),
            (other, Answer::Unknown) => self.notice(
                t,
                OnlineNotice::Failed {
                    request: other.name(),
                    message: "no answer from the server".to_owned(),
                },
            ),
        }
    }

    /// The game, rebuilt from its recording, goes on with a new connection: a move sent and
    /// not yet seen in the server's game may or may not have been taken (the server's next
    /// state says, and it is sent again only if not), and the server's next move, if the board
    /// has not carried it out, is shown again.
    pub fn resumed(&mut self) {
        if let Some(sent) = self.sent.as_mut() {
            sent.unknown = true;
        }
        self.stale = true;
        self.shown = None;
        self.reported = None;
    }

    /// The player asks for `request` (a key, the page's button, the result gesture).
    pub fn request(&mut self, request: Request) {
        if !self.over {
            self.out.push_back(OnlineEvent::Send(request));
        }
    }

    /// The server's moves, read from `start` (`None`: one is not legal where it stands).
    fn read_moves(&self, state: &GameState) -> Option<Vec<Move>> {
        let mut position = self.start.clone();
        let mut moves = Vec::new();
        for text in state.uci_moves() {
            let m = UciMove::from_ascii(text.as_bytes())
                .ok()?
                .to_move(&position)
                .ok()?;
            position.play_unchecked(m);
            moves.push(m);
        }
        Some(moves)
    }

    /// The position after the server's moves.
    fn server_position(&self) -> Chess {
        let mut position = self.start.clone();
        for &m in &self.server {
            position.play_unchecked(m);
        }
        position
    }

    /// The move sent is in the server's game now, or (its answer lost) it is not and the
    /// server waits for it: then it is sent again.
    fn settle_sent(&mut self) {
        let Some(sent) = self.sent else {
            return;
        };
        let index = self.record.len().saturating_sub(1);
        if self.server.len() > index && self.server.get(index) == Some(&sent.m) {
            self.sent = None;
        } else if sent.unknown && self.server.len() == index {
            self.sent = Some(Sent {
                m: sent.m,
                unknown: false,
            });
            self.out
                .push_back(OnlineEvent::Send(Request::Move(UciMove::from_move(
                    sent.m,
                    self.uci_mode,
                ))));
        }
    }

    /// Relates the record to the server's game, then the board to the record.
    fn reconcile(&mut self, t: Millis) {
        self.follow_server(t);
        let board: Vec<Move> = self.seen.iter().filter_map(chess_move).collect();
        let n = self.record.len();
        if board == self.record {
            self.reported = None;
            self.refused = None;
            self.dropped.clear();
            self.show_next(t);
        } else if board.len() == n + 1 && board.starts_with(&self.record) {
            let Some(event) = self.seen.last().cloned() else {
                return;
            };
            let Some(shown) = chess_move(&event) else {
                return;
            };
            self.board_moved(t, shown, event, board);
        } else {
            self.report(t, board);
        }
    }

    /// Takes back the moves of the record the server no longer has (but the player's move
    /// sent, while the server has not stated it yet).
    fn follow_server(&mut self, t: Millis) {
        let common = self
            .record
            .iter()
            .zip(&self.server)
            .take_while(|(a, b)| a == b)
            .count();
        let awaiting_sent = self.sent.is_some_and(|sent| {
            common == self.server.len()
                && self.record.len() == common + 1
                && self.record.last() == Some(&sent.m)
        });
        if common == self.record.len() || awaiting_sent {
            return;
        }
        let refused = self.refused.is_some() && self.record.len() == common + 1;
        if !refused {
            self.notice(
                t,
                OnlineNotice::TakenBack {
                    plies: ply_number(common),
                },
            );
            self.dropped = self.record.get(common..).unwrap_or_default().to_vec();
        }
        self.take_back(t, common);
    }

    /// The board shows the record and one move more: `shown`, decided as `event`.
    fn board_moved(&mut self, t: Millis, shown: Move, event: GameEvent, board: Vec<Move>) {
        let n = self.record.len();
        match self.server.get(n) {
            Some(&expected) if expected == shown => self.accept(t, shown, event),
            Some(_) => self.report(t, board),
            None => {
                let mine = self.position.turn() == self.me;
                if mine && self.sent.is_none() && !self.over && self.refused != Some(shown) {
                    self.accept(t, shown, event);
                    // Resumed before the server's state came: whether it has the move is not
                    // known yet (the state settles it).
                    self.sent = Some(Sent {
                        m: shown,
                        unknown: self.stale,
                    });
                    if !self.stale {
                        self.out
                            .push_back(OnlineEvent::Send(Request::Move(UciMove::from_move(
                                shown,
                                self.uci_mode,
                            ))));
                    }
                } else {
                    self.report(t, board);
                }
            }
        }
    }

    /// `shown`, decided as `event`, stands.
    fn accept(&mut self, t: Millis, shown: Move, event: GameEvent) {
        self.record.push(shown);
        self.position.play_unchecked(shown);
        self.reported = None;
        self.refused = None;
        self.pass(event);
        self.show_next(t);
    }

    /// The server's next move, once, when the board shows the record and the server has more.
    fn show_next(&mut self, t: Millis) {
        let Some(&next) = self.server.get(self.record.len()) else {
            return;
        };
        if self.shown == Some(next) {
            return;
        }
        // The player's own move, which the server has and the board is deciding (a session
        // killed once it had sent it, resumed before deciding it again): the board's decision
        // follows; there is nothing to carry out.
        let deciding = ply_number(self.record.len().saturating_add(1));
        if self.position.turn() == self.me && self.pending_mine == Some(deciding) {
            return;
        }
        self.shown = Some(next);
        let san = SanPlus::from_move(self.position.clone(), next).to_string();
        self.notice(
            t,
            OnlineNotice::Move {
                color: self.position.turn(),
                san: san.clone(),
                uci: UciMove::from_move(next, self.uci_mode).to_string(),
                chess_move: next,
            },
        );
        self.show_to_carry_out(next, san);
    }

    /// The server's move `m`, shown as `text`, is to be carried out on the board: its squares,
    /// and the position it leaves (which a robot board sets itself).
    fn show_to_carry_out(&mut self, m: Move, text: String) {
        for feedback in carry_out(&self.position, m, text) {
            self.out.push_back(OnlineEvent::Show(feedback));
        }
    }

    /// The moves after the `plies`th are taken back.
    fn take_back(&mut self, t: Millis, plies: usize) {
        for ply in (plies + 1..=self.record.len()).rev() {
            self.pass(GameEvent {
                t,
                kind: EventKind::Takeback {
                    ply: ply_number(ply),
                },
            });
        }
        self.record.truncate(plies);
        let mut position = self.start.clone();
        for &m in &self.record {
            position.play_unchecked(m);
        }
        self.position = position;
        self.shown = None;
        self.reported = None;
        if self.sent.is_some_and(|sent| !self.record.contains(&sent.m)) {
            self.sent = None;
        }
    }

    /// The board shows other moves than the record: said once, with what to do.
    fn report(&mut self, t: Millis, board: Vec<Move>) {
        if self.reported.as_ref() == Some(&board) {
            return;
        }
        let n = self.record.len();
        let common = board
            .iter()
            .zip(&self.record)
            .take_while(|(a, b)| a == b)
            .count();
        // The move to carry out: the record's next when the board is behind it, else the
        // server's next.
        let expected = if common < n {
            self.record.get(common).copied()
        } else {
            self.server.get(n).copied()
        };
        let at = if common < n {
            self.position_after(common)
        } else {
            self.position.clone()
        };
        let played = (common == n && board.len() == n + 1)
            .then(|| board.last().copied())
            .flatten();
        let san = |m: Move| SanPlus::from_move(at.clone(), m).to_string();
        let expected_san = expected.map(san);
        let played_san = played.map(san);
        let message = match (&expected_san, &played_san) {
            (Some(expected), Some(played)) => format!("carry out {expected}, not {played}"),
            (Some(expected), None) => format!("carry out {expected}"),
            (None, Some(text)) if self.refused.is_some() && self.refused == played => {
                format!("take {text} back: the server refused it")
            }
            (None, Some(text)) if self.dropped.first().copied() == played => {
                format!("take {text} back: the server took it back")
            }
            (None, Some(played)) if self.sent.is_some() || self.over => {
                format!("{played} is not taken: the server's game is as it was")
            }
            (None, Some(played)) => format!("wait for the opponent's move: {played} is not taken"),
            (None, None) => "set the board to the game".to_owned(),
        };
        let expected_squares = expected
            .map(|m| {
                let (from, to) = move_squares(m);
                vec![from, to]
            })
            .unwrap_or_default();
        self.reported = Some(board);
        self.out.push_back(OnlineEvent::Decision(StreamEvent {
            t,
            kind: StreamKind::Execution(Execution {
                expected: expected_san.clone(),
                played: played_san,
                squares: expected_squares,
                message,
            }),
        }));
        if let (Some(m), Some(text)) = (expected, expected_san) {
            self.show_to_carry_out(m, text);
        }
    }

    /// The position after the record's first `plies` moves.
    fn position_after(&self, plies: usize) -> Chess {
        let mut position = self.start.clone();
        for &m in self.record.iter().take(plies) {
            position.play_unchecked(m);
        }
        position
    }

    /// A result the interpreter decided at the board: the server's game decides results, so
    /// only the result gesture counts, as a request: a win for the player claims it (the
    /// opponent gone), a loss resigns, a draw offers one.
    fn board_result(&mut self, result: &GameResult) {
        if result.reason != "gesture" {
            return;
        }
        let request = match result.outcome {
            KnownOutcome::Draw => Request::Draw(true),
            KnownOutcome::Decisive { winner } if winner == self.me => Request::ClaimVictory,
            KnownOutcome::Decisive { .. } => Request::Resign,
        };
        self.request(request);
    }

    /// Says each offer the server states that it did not state before.
    fn offers_changed(&mut self, t: Millis, state: &GameState) {
        for color in Color::ALL {
            let now = (state.offers_draw(color), state.proposes_takeback(color));
            let before = std::mem::replace(self.offers.get_mut(color), now);
            if now.0 && !before.0 {
                self.notice(t, OnlineNotice::DrawOffer { color });
            }
            if now.1 && !before.1 {
                self.notice(t, OnlineNotice::TakebackProposal { color });
            }
        }
    }

    /// The server ended the game: its result, if it has one.
    fn ended(&mut self, t: Millis, state: &GameState) {
        let outcome = match state.winner_side() {
            Some(winner) => Some(KnownOutcome::Decisive { winner }),
            None if DRAWN.contains(&state.status.as_str()) => Some(KnownOutcome::Draw),
            None => None,
        };
        match outcome {
            Some(outcome) => self.pass(GameEvent {
                t,
                kind: EventKind::Result(GameResult {
                    result: outcome.as_str().to_owned(),
                    reason: reason(&state.status).to_owned(),
                    rule: None,
                    termination: termination(&state.status),
                    outcome,
                }),
            }),
            None => {
                let message = match state.status.as_str() {
                    "aborted" => "the server aborted the game: no result (a game nobody \
                                  started in time, or one a player aborted)"
                        .to_owned(),
                    other => format!("the server ended the game without a result ({other})"),
                };
                self.notice(
                    t,
                    OnlineNotice::Ended {
                        status: state.status.clone(),
                        message,
                    },
                );
            }
        }
    }

    fn notice(&mut self, t: Millis, notice: OnlineNotice) {
        self.out.push_back(OnlineEvent::Decision(StreamEvent {
            t,
            kind: StreamKind::Online(notice),
        }));
    }

    fn pass(&mut self, event: GameEvent) {
        self.out.push_back(OnlineEvent::Decision(event.into()));
    }
}

/// The statuses of a game the server ended drawn.
const DRAWN: [&str; 4] = ["draw", "stalemate", "insufficientMaterialClaim", "timeout"];

/// The reason of a result, in the words of the other results, from the server's status.
fn reason(status: &str) -> &str {
    match status {
        "mate" => "checkmate",
        "resign" => "resignation",
        "stalemate" => "stalemate",
        "outoftime" => "flag",
        "timeout" => "opponent left",
        "draw" => "draw agreed or claimed",
        "insufficientMaterialClaim" => "insufficient material",
        other => other,
    }
}

/// How the game ended, as PGN's `Termination` says it, for the server's status (`None` for one
/// that says nothing of it).
fn termination(status: &str) -> Option<Termination> {
    match status {
        "mate" | "resign" | "stalemate" | "draw" | "insufficientMaterialClaim" => {
            Some(Termination::Normal)
        }
        "outoftime" => Some(Termination::TimeForfeit),
        "timeout" => Some(Termination::Abandoned),
        "cheat" | "noStart" => Some(Termination::RulesInfraction),
        _ => None,
    }
}

/// The moves before ply `ply` (from 1).
fn before(ply: u32) -> usize {
    usize::try_from(ply.saturating_sub(1)).unwrap_or(usize::MAX)
}

/// Ply `index` + 1... as a ply number: the number of plies `index` counts.
fn ply_number(plies: usize) -> u32 {
    u32::try_from(plies).unwrap_or(u32::MAX)
}

/// The move of a move event.
fn chess_move(event: &GameEvent) -> Option<Move> {
    match &event.kind {
        EventKind::Move(played) => Some(played.chess_move),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
