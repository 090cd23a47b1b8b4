//! Several games on one board, one after another and round again: each played by the
//! simulated hands, and between two games the board cleared and set up again for the next, as
//! players do after a game that ended on the board (a mate, a stalemate, a dead position).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use shakmaty::{Board, Chess, Move, Piece, Position, Square};

use super::style::{BoardKind, HandStyle};
use super::{SimulateError, simulate};
use touchmove_core::sensor::{Millis, SensorEvent, SensorKind};

/// One game of a sequence: where it starts and its moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SequenceGame {
    /// The position it starts from.
    pub start: Chess,
    /// Its moves, each legal where it is played.
    pub moves: Vec<Move>,
}

/// The sensor events of games played one after another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimulatedSequence {
    /// The sensor events, in time order.
    pub events: Vec<SensorEvent>,
    /// When the board stood set up again for each game after the first (its last piece
    /// placed), in the log's time: when players also set their clock again. The last is the
    /// set-up for the first game again.
    pub set_up: Vec<Millis>,
    /// How long a round of the games lasts: the events start again this long after the first
    /// round started (the board then stands set up for the first game), and so on.
    pub lap: Millis,
}

/// How long the final position stands before the board is cleared (ms).
const FINAL_POSITION_MS: Millis = 5_000;
/// How long the set-up board stands before the next game's hands start (ms).
const SET_UP_MS: Millis = 2_000;
/// The range of the gap between two pieces lifted or placed while setting up (ms).
const SETUP_GAP_MS: (Millis, Millis) = (120, 260);

/// The sensor events of `games` played one after another by hands in `style` (game `i` with
/// dice from `seed + i`): each game's events, then the board cleared piece by piece and the
/// next game's start position set up piece by piece; after the last game, the first game's.
pub fn simulate_sequence(
    games: &[SequenceGame],
    style: &HandStyle,
    seed: u64,
) -> Result<SimulatedSequence, SimulateError> {
    let mut events: Vec<SensorEvent> = Vec::new();
    let mut set_up_at = Vec::new();
    let mut board: Option<Board> = None;
    let mut rng = SmallRng::seed_from_u64(seed);
    for (index, game) in games.iter().enumerate() {
        let mut offset = events.last().map_or(0, |last| last.t);
        if let Some(finished) = board.take() {
            let setup = set_up(&finished, game.start.board(), style, &mut rng, offset);
            let done = setup.last().map_or(offset, |last| last.t);
            set_up_at.push(done);
            offset = done.saturating_add(SET_UP_MS);
            events.extend(setup);
        }
        let game_seed = seed.wrapping_add(u64::try_from(index).unwrap_or(u64::MAX));
        let simulated = simulate(&game.start, &game.moves, style, game_seed)?;
        events.extend(simulated.events.into_iter().map(|mut event| {
            event.t = event.t.saturating_add(offset);
            event
        }));
        board = Some(final_board(game));
    }
    let mut lap = events.last().map_or(0, |last| last.t);
    if let (Some(finished), Some(first)) = (board, games.first()) {
        let setup = set_up(&finished, first.start.board(), style, &mut rng, lap);
        let done = setup.last().map_or(lap, |last| last.t);
        set_up_at.push(done);
        lap = done;
        events.extend(setup);
    }
    Ok(SimulatedSequence {
        events,
        set_up: set_up_at,
        lap: lap.saturating_add(SET_UP_MS),
    })
}

/// The pieces on the board after `game`.
fn final_board(game: &SequenceGame) -> Board {
    let mut position = game.start.clone();
    for &m in &game.moves {
        position.play_unchecked(m);
    }
    position.board().clone()
}

/// Every piece of `from` lifted, then every piece of `to` placed, one at a time, from
/// `after` plus the time the final position stands.
fn set_up(
    from: &Board,
    to: &Board,
    style: &HandStyle,
    rng: &mut SmallRng,
    after: Millis,
) -> Vec<SensorEvent> {
    let identifies = style.board == BoardKind::Identifying;
    let letter = |piece: Piece| identifies.then_some(piece);
    let mut t = after.saturating_add(FINAL_POSITION_MS);
    let mut events = Vec::new();
    let mut next = |rng: &mut SmallRng, kind: SensorKind| {
        t = t.saturating_add(rng.random_range(SETUP_GAP_MS.0..=SETUP_GAP_MS.1));
        events.push(SensorEvent::new(t, kind));
    };
    for (square, piece) in pieces(from) {
        let piece = letter(piece);
        next(rng, SensorKind::Lift { square, piece });
    }
    for (square, piece) in pieces(to) {
        let piece = letter(piece);
        next(rng, SensorKind::Place { square, piece });
    }
    events
}

/// The pieces of `board`, square by square from a1.
fn pieces(board: &Board) -> Vec<(Square, Piece)> {
    board
        .occupied()
        .into_iter()
        .filter_map(|square| board.piece_at(square).map(|piece| (square, piece)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::san::San;

    fn game(sans: &[&str]) -> SequenceGame {
        let mut position = Chess::default();
        let mut moves = Vec::new();
        for san in sans {
            let Ok(san) = san.parse::<San>() else {
                panic!("bad SAN {san}");
            };
            let Ok(m) = san.to_move(&position) else {
                panic!("illegal {san}");
            };
            position.play_unchecked(m);
            moves.push(m);
        }
        SequenceGame {
            start: Chess::default(),
            moves,
        }
    }

    #[test]
    fn the_board_is_cleared_and_set_up_between_games() {
        let mate = game(&["f3", "e5", "g4", "Qh4#"]);
        let style = HandStyle::clean(BoardKind::Identifying);
        let Ok(sequence) = simulate_sequence(&[mate.clone(), mate], &style, 7) else {
            panic!("the sequence could not be simulated");
        };
        let events = &sequence.events;
        // The board after every event: it passes through the empty board and the starting
        // position before the second game's first lift, and ends in the mate again.
        let mut board = Chess::default().board().clone();
        let mut emptied_at = None;
        let mut set_up_at = None;
        for (index, event) in events.iter().enumerate() {
            match &event.kind {
                SensorKind::Lift { square, .. } => {
                    board.discard_piece_at(*square);
                }
                SensorKind::Place { square, piece } => {
                    let Some(piece) = piece else {
                        panic!("an identifying board names its pieces");
                    };
                    board.set_piece_at(*square, *piece);
                }
                _ => {}
            }
            if board.occupied().is_empty() {
                emptied_at.get_or_insert(index);
            }
            if emptied_at.is_some() && board == *Chess::default().board() {
                set_up_at.get_or_insert(index);
            }
        }
        let (Some(emptied), Some(set_up)) = (emptied_at, set_up_at) else {
            panic!("the board was never cleared and set up again");
        };
        // 32 pieces placed after the board was emptied, the last one when the set-up is said
        // to be complete; the second game, then the board set up for the first again, the next
        // round starting after it.
        assert_eq!(set_up - emptied, 32);
        let last = events.last().map_or(0, |event| event.t);
        assert_eq!(sequence.set_up, vec![events[set_up].t, last]);
        assert_eq!(board, *Chess::default().board());
        assert!(sequence.lap > last);
        assert!(events.windows(2).all(|pair| pair[0].t <= pair[1].t));
    }
}
