//! Hands that play one side of a game from a script and carry out the other side's moves as the
//! host shows them (an engine's, `touchmove play`): the DGT clock's text, or the squares a board
//! lights. The script's moves are read again, as SAN, in the game as it is actually played.
//!
//! Sans-IO: the emulator tells the follower what its display or its lights now show and gets
//! back the hands' next sensor events, timed from 0, to play from now on.

use std::collections::VecDeque;

use shakmaty::san::{San, SanPlus};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Move, Position, Role, Square};

use super::board::Notice;
use super::script_error::ScriptError;
use crate::simulate::{HandStyle, simulate};
use touchmove_core::sensor::{SensorEvent, SensorKind};

/// What the host shows the board's player now.
#[derive(Clone, Copy)]
pub(crate) enum Shown<'a> {
    /// A display's text (a DGT clock's).
    Text(&'a str),
    /// Lights: whether the board's steadily lit squares are those of a move from the first
    /// square to the second (a castling king's squares).
    Lights(&'a dyn Fn(Square, Square) -> bool),
}

/// Where the follower stands in the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// The script's move was handed out; on a board with lights, the host has not yet lit its
    /// squares (the lights still show an earlier move, which must not be taken for a new one).
    Played {
        /// The move's squares.
        from: Square,
        /// Where it went.
        to: Square,
    },
    /// Waiting for the host to show the followed side's move.
    Waiting,
    /// The script is over, or cannot go on.
    Finished,
}

/// The hands' events for one or two moves: timed from 0, from the position `start`.
#[derive(Debug, Clone)]
pub(crate) struct Segment {
    /// The position the board stands in when they begin.
    pub(crate) start: Chess,
    /// What the hands do, as the board's sensors would report it.
    pub(crate) events: Vec<SensorEvent>,
}

/// Hands that follow what the host shows for one side and play the script's moves for the other.
#[derive(Debug, Clone)]
pub(crate) struct Follower {
    position: Chess,
    follows: Color,
    scripted: VecDeque<San>,
    style: HandStyle,
    seed: u64,
    plies: u64,
    stage: Stage,
    notices: VecDeque<Notice>,
    /// Whether the hands press the clock after the moves they carry out for the host too.
    presses_followed: bool,
    /// Whether the board's lights show only moves to carry out (put out once a move is made,
    /// never showing the last move): then lights that name a move are a new one, unless they
    /// are still those of the move last carried out ([`Follower::stale`]).
    lights_only_guide: bool,
    /// On such a board, the squares of the move the hands last carried out for the host, until
    /// the lights show anything else: the host may light them again before it has seen that
    /// move made (after a drop), and they must not be carried out twice.
    stale: Option<(Square, Square)>,
}

impl Follower {
    /// Hands that carry out `follows`'s moves as shown and play the other side's moves of the
    /// game `moves` from `start` (as SAN: the game actually played may differ), in `style`,
    /// dice from `seed`.
    pub(crate) fn new(
        start: &Chess,
        moves: &[Move],
        follows: Color,
        style: HandStyle,
        seed: u64,
    ) -> Follower {
        let mut position = start.clone();
        let mut scripted = VecDeque::new();
        for &m in moves {
            if position.turn() != follows {
                scripted.push_back(San::from_move(&position, m));
            }
            position.play_unchecked(m);
        }
        Follower {
            position: start.clone(),
            follows,
            scripted,
            style,
            seed,
            plies: 0,
            stage: Stage::Waiting,
            notices: VecDeque::new(),
            presses_followed: true,
            lights_only_guide: false,
            stale: None,
        }
    }

    /// Hands on a board whose lights show only the moves to carry out (a Chessnut's, a
    /// Pegasus's: the host puts them out once the move is made): lights that name a move of
    /// the followed side are carried out whenever they come.
    pub(crate) fn with_guiding_lights(mut self) -> Follower {
        self.lights_only_guide = true;
        self
    }

    /// Whether the hands press the clock after the moves they carry out for the host (as
    /// after their own, when their style presses at all); by default they do.
    pub(crate) fn pressing_for_the_host(mut self, presses: bool) -> Follower {
        self.presses_followed = presses;
        self
    }

    /// The hands' first events: the script's first move when its side moves first (none when
    /// the followed side does).
    pub(crate) fn opening(&mut self) -> Result<Segment, ScriptError> {
        if self.position.turn() == self.follows {
            return Ok(Segment {
                start: self.position.clone(),
                events: Vec::new(),
            });
        }
        let position = self.position.clone();
        let moves: Vec<Move> = self.next_scripted(&position).into_iter().collect();
        self.play(&moves)
    }

    /// The host now shows `shown`: the hands' events that carry out the followed side's move
    /// it names (and then the script's next move), timed from 0; `None` when it names none.
    pub(crate) fn shown(&mut self, shown: Shown<'_>) -> Option<Segment> {
        if let (true, Shown::Lights(lit)) = (self.lights_only_guide, shown) {
            match self.stale {
                Some((from, to)) if lit(from, to) => return None,
                _ => self.stale = None,
            }
        }
        if self.position.turn() != self.follows {
            return None;
        }
        let chosen = match (self.stage, shown) {
            (Stage::Finished, _) => return None,
            (Stage::Played { .. }, Shown::Lights(lit)) if self.lights_only_guide => {
                self.read_lights(lit)?
            }
            (Stage::Played { from, to }, Shown::Lights(lit)) => {
                if lit(from, to) {
                    self.stage = Stage::Waiting;
                }
                return None;
            }
            (_, Shown::Text(text)) => self.read_text(text)?,
            (Stage::Waiting, Shown::Lights(lit)) => self.read_lights(lit)?,
        };
        if self.lights_only_guide {
            self.stale = Some(squares(chosen));
        }
        self.carry_out(chosen, true)
    }

    /// A robot under the board set the pieces to `board` (a Chessnut Move's): the followed
    /// side's move that leads there is made without the hands, which then play the script's
    /// next move (their events, timed from 0 from the robot's end); `None` when no one move
    /// of the followed side leads there.
    pub(crate) fn set_by_robot(&mut self, board: &shakmaty::Board) -> Option<Segment> {
        if self.position.turn() != self.follows || self.stage == Stage::Finished {
            return None;
        }
        let mut leading = self.position.legal_moves().into_iter().filter(|&m| {
            let mut after = self.position.clone();
            after.play_unchecked(m);
            after.board() == board
        });
        let chosen = leading.next()?;
        if leading.next().is_some() {
            return None;
        }
        self.carry_out(chosen, false)
    }

    /// The followed side's `chosen` move is carried out (by the hands when `by_hand`, else
    /// the board stands after it already), then the script's next move is played: the hands'
    /// events.
    fn carry_out(&mut self, chosen: Move, by_hand: bool) -> Option<Segment> {
        let san = SanPlus::from_move(self.position.clone(), chosen).to_string();
        self.notices.push_back(if by_hand {
            Notice::Followed(san)
        } else {
            Notice::SetByRobot(san)
        });
        let mut moves = vec![chosen];
        let mut after = self.position.clone();
        after.play_unchecked(chosen);
        if after.is_game_over() {
            self.stage = Stage::Finished;
        } else {
            moves.extend(self.next_scripted(&after));
        }
        if !by_hand {
            self.position = after;
            moves.remove(0);
            self.plies = self.plies.wrapping_add(1);
            if moves.is_empty() {
                return Some(Segment {
                    start: self.position.clone(),
                    events: Vec::new(),
                });
            }
        }
        match self.play(&moves) {
            Ok(events) => Some(events),
            Err(error) => {
                self.stop(format!("the hands cannot play on: {error}"));
                None
            }
        }
    }

    /// Whether the hands have nothing more to do: the script is over or cannot go on.
    pub(crate) fn done(&self) -> bool {
        self.stage == Stage::Finished
    }

    /// Moves what is worth telling onto an emulator's `notices`.
    pub(crate) fn take_notices(&mut self, notices: &mut VecDeque<Notice>) {
        notices.extend(self.notices.drain(..));
    }

    /// The followed side's move a display's text names, if any (SAN, as a host shows it).
    fn read_text(&self, text: &str) -> Option<Move> {
        let san = SanPlus::from_ascii(text.trim().as_bytes()).ok()?;
        san.san.to_move(&self.position).ok()
    }

    /// The followed side's move whose squares are lit, if exactly one is (a promotion's piece
    /// cannot be lit: a queen).
    fn read_lights(&self, lit: &dyn Fn(Square, Square) -> bool) -> Option<Move> {
        let mut found = self.position.legal_moves().into_iter().filter(|&m| {
            let (from, to) = squares(m);
            lit(from, to) && m.promotion().is_none_or(|role| role == Role::Queen)
        });
        let chosen = found.next()?;
        found.next().is_none().then_some(chosen)
    }

    /// The script's next move in `position`, if it has one and it is legal there (otherwise
    /// the hands stop, saying why).
    fn next_scripted(&mut self, position: &Chess) -> Option<Move> {
        let Some(san) = self.scripted.pop_front() else {
            self.stage = Stage::Finished;
            return None;
        };
        match san.to_move(position) {
            Ok(m) => {
                let (from, to) = squares(m);
                self.stage = Stage::Played { from, to };
                Some(m)
            }
            Err(_) => {
                let after = self.notices.back().cloned();
                self.stop(format!(
                    "the script's {san} is not legal in the game as played{}: the hands stop",
                    match after {
                        Some(Notice::Followed(shown)) => format!(" (after {shown})"),
                        _ => String::new(),
                    }
                ));
                None
            }
        }
    }

    /// The hands playing `moves` from the position, which then stands after them.
    fn play(&mut self, moves: &[Move]) -> Result<Segment, ScriptError> {
        let seed = self.seed.wrapping_add(self.plies);
        let mut game = simulate(&self.position, moves, &self.style, seed)?;
        if !self.presses_followed {
            let followed = SensorKind::Clock(self.follows);
            game.events.retain(|event| event.kind != followed);
        }
        let start = self.position.clone();
        for &m in moves {
            self.position.play_unchecked(m);
        }
        self.plies = self.plies.wrapping_add(moves.len() as u64);
        Ok(Segment {
            start,
            events: game.events,
        })
    }

    fn stop(&mut self, why: String) {
        self.stage = Stage::Finished;
        self.notices.push_back(Notice::HandsStopped(why));
    }
}

/// What the host shows, to the hands that follow it if there are any: their next events (see
/// [`Follower::shown`]), what they say put on `notices`.
pub(crate) fn follow(
    follower: Option<&mut Follower>,
    shown: Shown<'_>,
    notices: &mut VecDeque<Notice>,
) -> Option<Segment> {
    let follower = follower?;
    let segment = follower.shown(shown);
    follower.take_notices(notices);
    segment
}

/// A move's squares as a host shows them: a castling king's from and to.
fn squares(m: Move) -> (Square, Square) {
    match m.to_uci(CastlingMode::Standard) {
        UciMove::Normal { from, to, .. } => (from, to),
        UciMove::Put { to, .. } => (to, to),
        UciMove::Null => (Square::A1, Square::A1),
    }
}

#[cfg(test)]
mod tests {
    use shakmaty::{Bitboard, Board};

    use super::*;
    use crate::simulate::BoardKind;
    use touchmove_core::sensor::SensorKind;

    /// The game of `sans` from the start.
    fn game(sans: &[&str]) -> Vec<Move> {
        let mut position = Chess::default();
        sans.iter()
            .map(|san| {
                let m = san
                    .parse::<San>()
                    .ok()
                    .and_then(|san| san.to_move(&position).ok())
                    .unwrap_or_else(|| panic!("{san}"));
                position.play_unchecked(m);
                m
            })
            .collect()
    }

    /// The board after `sans` from the start.
    fn board_after(sans: &[&str]) -> Board {
        let mut position = Chess::default();
        for m in game(sans) {
            position.play_unchecked(m);
        }
        position.board().clone()
    }

    /// `board` after the hands' `segment`.
    fn played(mut board: Board, segment: &Segment) -> Board {
        for event in &segment.events {
            match event.kind {
                SensorKind::Lift { square, .. } => board.discard_piece_at(square),
                SensorKind::Place {
                    square,
                    piece: Some(piece),
                } => board.set_piece_at(square, piece),
                _ => {}
            }
        }
        board
    }

    fn follower(sans: &[&str], follows: Color) -> Follower {
        let style = HandStyle::clean(BoardKind::Identifying);
        Follower::new(&Chess::default(), &game(sans), follows, style, 5)
    }

    fn notices(follower: &mut Follower) -> Vec<Notice> {
        let mut notices = VecDeque::new();
        follower.take_notices(&mut notices);
        notices.into()
    }

    #[test]
    fn the_shown_move_is_carried_out_and_the_script_read_again_in_the_game_played() {
        let mut hands = follower(&["e4", "e5", "Nf3", "Nc6", "Bc4"], Color::Black);
        let opening = hands.opening().expect("the hands play e4");
        let board = played(Chess::default().board().clone(), &opening);
        assert_eq!(board, board_after(&["e4"]));
        // The host shows c5, not the script's e5: the hands play it, then Nf3 (legal here too).
        let segment = hands.shown(Shown::Text("c5")).expect("c5 carried out");
        let board = played(board, &segment);
        assert_eq!(board, board_after(&["e4", "c5", "Nf3"]));
        assert_eq!(notices(&mut hands), [Notice::Followed("c5".to_owned())]);
        // A text that names no move of Black's, or a move of White's, is no move.
        assert!(hands.shown(Shown::Text("1-0")).is_none());
        assert!(hands.shown(Shown::Text("Bc4")).is_none());
        let segment = hands.shown(Shown::Text("Nc6")).expect("Nc6");
        let board = played(board, &segment);
        assert_eq!(board, board_after(&["e4", "c5", "Nf3", "Nc6", "Bc4"]));
        assert!(!hands.done());
        // The script has no move after Black's next: the hands are done once it is played.
        let segment = hands.shown(Shown::Text("Nf6")).expect("Nf6");
        let board = played(board, &segment);
        assert_eq!(
            board,
            board_after(&["e4", "c5", "Nf3", "Nc6", "Bc4", "Nf6"])
        );
        assert!(hands.done());
        assert!(hands.shown(Shown::Text("e6")).is_none());
    }

    /// The presses among `segment`'s events.
    fn presses(segment: &Segment) -> Vec<Color> {
        segment
            .events
            .iter()
            .filter_map(|event| match event.kind {
                SensorKind::Clock(color) => Some(color),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn hands_that_press_for_their_own_moves_only_leave_the_clock_alone_for_the_host_s() {
        let sans = ["e4", "e5", "Nf3"];
        let mut every = follower(&sans, Color::Black);
        let mut own = follower(&sans, Color::Black).pressing_for_the_host(false);
        assert_eq!(presses(&every.opening().expect("e4")), [Color::White]);
        assert_eq!(presses(&own.opening().expect("e4")), [Color::White]);
        // e5 carried out for the host, then Nf3: a press after each, or after Nf3 only.
        let shown = Shown::Text("e5");
        let both = every.shown(shown).expect("e5 and Nf3");
        assert_eq!(presses(&both), [Color::Black, Color::White]);
        let white_only = own.shown(shown).expect("e5 and Nf3");
        assert_eq!(presses(&white_only), [Color::White]);
        // The moves are the same: only the presses differ.
        let board = board_after(&["e4"]);
        assert_eq!(played(board.clone(), &both), played(board, &white_only));
    }

    #[test]
    fn lights_count_once_the_host_has_lit_the_script_s_own_move() {
        let mut hands = follower(&["e4", "e5", "Nf3"], Color::Black);
        let _ = hands.opening().expect("e4");
        let lit = |squares: [Square; 2]| {
            let set = Bitboard::from_iter(squares);
            move |from: Square, to: Square| Bitboard::from_iter([from, to]) == set
        };
        // Black's e5 lit before White's e4 was: still the last move's lights, not a new one.
        let e5 = lit([Square::E7, Square::E5]);
        assert!(hands.shown(Shown::Lights(&e5)).is_none());
        let e4 = lit([Square::E2, Square::E4]);
        assert!(hands.shown(Shown::Lights(&e4)).is_none());
        let segment = hands.shown(Shown::Lights(&e5)).expect("e5 now");
        let board = played(board_after(&["e4"]), &segment);
        assert_eq!(board, board_after(&["e4", "e5", "Nf3"]));
        // Black's reply to the script's last move is still to be carried out.
        assert!(!hands.done());
    }

    #[test]
    fn on_a_board_whose_lights_only_guide_a_move_lit_is_carried_out_at_once_and_only_once() {
        // A Chessnut or a Pegasus never lights the move just made: the hands do not wait for
        // e4's squares before taking Nf6's.
        let mut hands =
            follower(&["e4", "Nf6", "Nc3", "Ng8", "Nb1"], Color::Black).with_guiding_lights();
        let _ = hands.opening().expect("e4");
        let lit = |squares: [Square; 2]| {
            let set = Bitboard::from_iter(squares);
            move |from: Square, to: Square| Bitboard::from_iter([from, to]) == set
        };
        let nf6 = lit([Square::G8, Square::F6]);
        let segment = hands.shown(Shown::Lights(&nf6)).expect("Nf6 at once");
        let board = played(board_after(&["e4"]), &segment);
        assert_eq!(board, board_after(&["e4", "Nf6", "Nc3"]));
        // The host lights Nf6's squares again before it has seen the move made (after a drop):
        // they name Ng8 now, which is not carried out.
        assert!(hands.shown(Shown::Lights(&nf6)).is_none());
        // The lights put out (the host saw Nf6), then the same squares: a new move, Ng8.
        let dark = |_: Square, _: Square| false;
        assert!(hands.shown(Shown::Lights(&dark)).is_none());
        let segment = hands.shown(Shown::Lights(&nf6)).expect("Ng8");
        let board = played(board, &segment);
        assert_eq!(board, board_after(&["e4", "Nf6", "Nc3", "Ng8", "Nb1"]));
    }

    #[test]
    fn the_hands_stop_when_the_script_s_next_move_is_not_legal_in_the_game_played() {
        let mut hands = follower(&["e4", "d5", "exd5", "Qxd5"], Color::Black);
        let _ = hands.opening().expect("e4");
        let segment = hands.shown(Shown::Text("e5")).expect("e5 is carried out");
        assert_eq!(
            played(board_after(&["e4"]), &segment),
            board_after(&["e4", "e5"])
        );
        assert!(hands.done());
        assert_eq!(
            notices(&mut hands),
            [
                Notice::Followed("e5".to_owned()),
                Notice::HandsStopped(
                    "the script's exd5 is not legal in the game as played (after e5): the hands \
                     stop"
                        .to_owned()
                )
            ]
        );
    }

    #[test]
    fn following_white_waits_for_the_first_move_and_lit_promotions_are_queens() {
        let mut hands = follower(&["e4", "e5"], Color::White);
        assert!(hands.opening().expect("nothing").events.is_empty());
        let segment = hands.shown(Shown::Text("d4")).expect("d4");
        assert_eq!(
            played(Chess::default().board().clone(), &segment),
            board_after(&["d4", "e5"])
        );
        // A pawn on g7 that can promote: the lit g7-g8 is a queen.
        let position: Chess = "8/6P1/8/8/8/8/k7/4K3 w - - 0 1"
            .parse::<shakmaty::fen::Fen>()
            .ok()
            .and_then(|fen| fen.into_position(CastlingMode::Standard).ok())
            .expect("a position");
        let style = HandStyle::clean(BoardKind::Identifying);
        let mut hands = Follower::new(&position, &[], Color::White, style, 0);
        let g8 = |from: Square, to: Square| (from, to) == (Square::G7, Square::G8);
        let segment = hands.shown(Shown::Lights(&g8)).expect("g8=Q");
        let board = played(position.board().clone(), &segment);
        assert_eq!(board.piece_at(Square::G8), Some(Color::White.queen()));
        assert_eq!(notices(&mut hands), [Notice::Followed("g8=Q+".to_owned())]);
    }
}
