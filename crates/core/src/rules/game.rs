//! One game's record: positions, moves, repetition keys and illegal-move counts.

use shakmaty::fen::Fen;
use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{ByColor, Chess, Color, EnPassantMode, Move, MoveList, Position, Role};

use super::history::History;

use super::ending::{Ending, ending_after_move};
use crate::event::{ClaimReason, ClockTimes, MoveEvent};

/// A game in progress: every position since the start, so that any earlier one can be matched
/// and returned to.
#[derive(Debug, Clone)]
pub struct Game {
    /// The current position.
    current: Chess,
    /// The positions before it, the latest on top (shared with copies of the game).
    earlier: History,
    moves: Vec<Move>,
    keys: Vec<Zobrist64>,
    /// The legal moves of the current position.
    legal: Vec<Move>,
    illegal: ByColor<u32>,
    ended: Option<Ending>,
}

/// A move as it was recorded, with the notations the outputs need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayedMove {
    /// The ply number in this game, from 1.
    pub ply: u32,
    /// The side that moved.
    pub color: Color,
    /// Standard Algebraic Notation with check or mate suffix.
    pub san: SanPlus,
    /// UCI notation (castling as the king's two-square move).
    pub uci: UciMove,
    /// The position after the move (formatted as FEN only when output).
    pub fen: Fen,
    /// The move itself.
    pub chess_move: Move,
}

impl PlayedMove {
    /// The move's event, with how its promotion was chosen and the clock after it.
    pub fn into_event(self, promotion_default: bool, clock: Option<ClockTimes>) -> MoveEvent {
        MoveEvent {
            ply: self.ply,
            color: self.color,
            san: self.san,
            uci: self.uci,
            fen: self.fen,
            promotion_default,
            clock,
            reconstructed: false,
            chess_move: self.chess_move,
        }
    }
}

impl Game {
    /// A new game from `start` (over at once when the side to move there is already mated or
    /// stalemated; a position set up with too little material to mate is played until a move
    /// makes it dead, as the acceptance cases ask).
    pub fn new(start: Chess) -> Game {
        let key = start.zobrist_hash(EnPassantMode::Legal);
        let legal = start.legal_moves();
        let ended = legal
            .is_empty()
            .then(|| ending_after_move(&start, &legal, 1))
            .flatten();
        Game {
            current: start,
            earlier: History::default(),
            moves: Vec::new(),
            keys: vec![key],
            legal: legal.to_vec(),
            illegal: ByColor::new_with(|_| 0),
            ended,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Chess {
        &self.current
    }

    /// The position `plies_back` plies before the current one, if the game is that long.
    pub fn earlier(&self, plies_back: usize) -> Option<&Chess> {
        match plies_back.checked_sub(1) {
            None => Some(&self.current),
            Some(back) => self.earlier.get(back),
        }
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.moves.last().copied()
    }

    /// The last move played in SAN, with its check or mate suffix, if any.
    pub fn last_san(&self) -> Option<SanPlus> {
        let m = self.last_move()?;
        let before = self.earlier(1)?;
        Some(SanPlus::from_move(before.clone(), m))
    }

    /// The number of plies played.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// The legal moves in the current position.
    pub fn legal_moves(&self) -> &[Move] {
        &self.legal
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.position().turn()
    }

    /// How the game ended, once it has.
    pub fn ending(&self) -> Option<&Ending> {
        self.ended.as_ref()
    }

    /// Plays a legal move and returns its record. The caller has checked legality (the move
    /// comes from the position's legal move list).
    pub fn play(&mut self, m: Move) -> PlayedMove {
        let before = self.position().clone();
        let color = before.turn();
        // Castling in UCI as the game's castling mode writes it: the king to its square in
        // standard chess (e1g1), the king to its rook's in Chess960 (b1a1: a king move b1c1
        // may be legal there too).
        let uci = UciMove::from_move(m, before.castles().mode());
        let san = self.san_before(m);
        let mut after = before;
        after.play_unchecked(m);
        // The suffix from the legal moves computed once here (shakmaty's own suffix would
        // generate them a second time).
        self.legal.clear();
        self.legal.extend_from_slice(&after.legal_moves());
        let suffix = match (after.is_check(), self.legal.is_empty()) {
            (true, true) => Some(Suffix::Checkmate),
            (true, false) => Some(Suffix::Check),
            (false, _) => None,
        };
        let san = SanPlus { san, suffix };
        let key = after.zobrist_hash(EnPassantMode::Legal);
        let fen = Fen::from_position(&after, EnPassantMode::Legal);
        self.earlier
            .push(std::mem::replace(&mut self.current, after));
        self.moves.push(m);
        self.keys.push(key);
        self.ended = ending_after_move(self.position(), &self.legal, self.repetitions());
        PlayedMove {
            chess_move: m,
            ply: u32::try_from(self.moves.len()).unwrap_or(u32::MAX),
            color,
            san,
            uci,
            fen,
        }
    }

    /// The SAN of `m` in the current position with its check or mate suffix, as
    /// [`Game::play`] would record it, without playing it. For a legal move, shakmaty's
    /// `SanPlus::from_move` would generate the legal moves before the move again, and those
    /// after it even when no king is in check; any other is left to it.
    pub fn san_plus(&self, m: Move) -> SanPlus {
        if !self.legal.contains(&m) {
            return SanPlus::from_move(self.position().clone(), m);
        }
        let san = self.san_before(m);
        let mut after = self.position().clone();
        after.play_unchecked(m);
        let suffix = after.is_check().then(|| {
            if after.legal_moves().is_empty() {
                Suffix::Checkmate
            } else {
                Suffix::Check
            }
        });
        SanPlus { san, suffix }
    }

    /// The SAN of `m` in the current position, disambiguated against its legal moves (already
    /// known: `San::from_move` would generate them again).
    fn san_before(&self, m: Move) -> San {
        let mut candidates = MoveList::new();
        if let Move::Normal { role, to, .. } = m
            && role != Role::Pawn
        {
            candidates.extend(self.legal.iter().copied().filter(
                |c| matches!(*c, Move::Normal { role: r, to: t, .. } if r == role && t == to),
            ));
        }
        San::disambiguate(m, &candidates)
    }

    /// Retracts the last move; returns its ply number, or `None` at the start of the game.
    pub fn take_back(&mut self) -> Option<u32> {
        let ply = u32::try_from(self.moves.len()).unwrap_or(u32::MAX);
        self.moves.pop()?;
        if let Some(before) = self.earlier.pop() {
            self.current = before;
        }
        self.keys.pop();
        self.legal.clear();
        self.legal.extend_from_slice(&self.current.legal_moves());
        self.ended = None;
        Some(ply)
    }

    /// How many times the current position has occurred (same placement, side to move,
    /// castling rights and en passant), counting this one.
    pub fn repetitions(&self) -> usize {
        let Some(current) = self.keys.last() else {
            return 0;
        };
        // A capture or pawn move cannot be undone: only positions since the last one can repeat.
        let reversible = usize::try_from(self.position().halfmoves())
            .unwrap_or(usize::MAX)
            .saturating_add(1);
        self.keys
            .iter()
            .rev()
            .take(reversible)
            .filter(|key| *key == current)
            .count()
    }

    /// The draws the side to move may claim because of the move just played: the position
    /// stands for the third time or more (each repetition is a new claim), or the fiftieth move
    /// of each side without capture or pawn move has just been made.
    pub fn new_claims(&self) -> impl Iterator<Item = ClaimReason> {
        let open = self.ended.is_none();
        let threefold = open && self.repetitions() >= 3;
        let fifty = open && self.position().halfmoves() == 100;
        [
            threefold.then_some(ClaimReason::Threefold),
            fifty.then_some(ClaimReason::FiftyMoves),
        ]
        .into_iter()
        .flatten()
    }

    /// `color`'s completed illegal moves so far.
    pub fn illegal_count(&self, color: Color) -> u32 {
        *self.illegal.get(color)
    }

    /// Counts a completed illegal move by `color` and returns that side's count so far.
    pub fn count_illegal(&mut self, color: Color) -> u32 {
        let count = self.illegal.get_mut(color);
        *count += 1;
        *count
    }

    /// Ends the game for a reason the position alone does not show (illegal moves, a flag).
    pub fn end(&mut self, ending: Ending) {
        self.ended = Some(ending);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::uci::UciMove;

    fn play_uci(game: &mut Game, uci: &str) -> PlayedMove {
        let m = UciMove::from_ascii(uci.as_bytes())
            .expect("uci")
            .to_move(game.position())
            .expect("legal");
        game.play(m)
    }

    #[test]
    fn records_san_uci_and_fen() {
        let mut game = Game::new(Chess::default());
        let e4 = play_uci(&mut game, "e2e4");
        assert_eq!(e4.san.to_string(), "e4");
        assert_eq!(e4.uci.to_string(), "e2e4");
        assert_eq!(e4.ply, 1);
        assert_eq!(e4.color, Color::White);
        assert_eq!(
            e4.fen.to_string(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        assert_eq!(game.turn(), Color::Black);
    }

    #[test]
    fn san_plus_says_checks_and_mates_without_playing() {
        // Fool's mate: 1. f3 e5 2. g4, and Black's queen mates on h4; Qe7 only develops, and
        // in the position after 1. e4 f6 2. d4 g5 the same queen move mates the other way.
        let mut game = Game::new(Chess::default());
        for uci in ["f2f3", "e7e5", "g2g4"] {
            play_uci(&mut game, uci);
        }
        let said = |game: &Game, uci: &str| {
            let m = UciMove::from_ascii(uci.as_bytes())
                .expect("uci")
                .to_move(game.position())
                .expect("legal");
            game.san_plus(m).to_string()
        };
        assert_eq!(said(&game, "d8h4"), "Qh4#");
        assert_eq!(said(&game, "d8e7"), "Qe7");
        assert_eq!(game.plies(), 3, "nothing was played");
        let mut game = Game::new(Chess::default());
        for uci in ["e2e4", "f7f6", "d2d4", "g7g5"] {
            play_uci(&mut game, uci);
        }
        assert_eq!(said(&game, "d1h5"), "Qh5#");
        assert_eq!(said(&game, "f1b5"), "Bb5");
    }

    #[test]
    fn san_plus_is_what_playing_the_move_records() {
        // Every legal move of positions with checks, captures, castling, en passant and
        // knights that need a file or rank to tell them apart.
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
            "N3k2N/8/8/8/8/8/8/N3K2N w - - 0 1",
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        ];
        for fen in fens {
            let position: Chess = Fen::from_ascii(fen.as_bytes())
                .expect("a FEN")
                .into_position(shakmaty::CastlingMode::Standard)
                .expect("a legal position");
            let game = Game::new(position);
            for &m in game.legal_moves() {
                let said = game.san_plus(m);
                let mut played = game.clone();
                assert_eq!(said, played.play(m).san, "{m} in {fen}");
            }
        }
    }

    #[test]
    fn take_back_restores_the_position() {
        let mut game = Game::new(Chess::default());
        play_uci(&mut game, "g1f3");
        assert_eq!(game.take_back(), Some(1));
        assert_eq!(game.position(), &Chess::default());
        assert_eq!(game.take_back(), None);
    }

    #[test]
    fn threefold_is_claimable_after_knights_dance() {
        let mut game = Game::new(Chess::default());
        for uci in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
            play_uci(&mut game, uci);
            assert_eq!(game.new_claims().next(), None, "after {uci}");
        }
        play_uci(&mut game, "f6g8");
        assert_eq!(game.repetitions(), 3);
        assert_eq!(
            game.new_claims().collect::<Vec<_>>(),
            [ClaimReason::Threefold]
        );
    }
}
