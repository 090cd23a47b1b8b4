//! The positions before the current one, shared between copies of a game: a copy (the result
//! gesture keeps one of the whole interpreter while a king is in hand) costs one reference
//! count, not one position per ply. The positions are kept in chunks, so that a ply costs no
//! allocation of its own.

use std::sync::Arc;

use shakmaty::Chess;

/// The most positions one chunk holds.
const CHUNK: usize = 16;

/// A stack of positions, the latest on top, whose copies share what they have in common.
#[derive(Debug, Clone, Default)]
pub struct History {
    /// The chunk on top, and how many of its positions (from its bottom) this history holds: a
    /// copy that has popped shares the chunk with one that has not.
    top: Option<Held>,
}

/// A chunk and how many of its positions a history holds.
type Held = (Arc<Chunk>, usize);

/// Up to [`CHUNK`] positions, the latest last, above the chunk of those before them.
#[derive(Debug)]
struct Chunk {
    positions: Vec<Chess>,
    below: Option<Held>,
}

impl History {
    /// Puts `position` on top.
    pub fn push(&mut self, position: Chess) {
        if let Some((chunk, held)) = self.top.as_mut()
            && *held < CHUNK
            && let Some(own) = Arc::get_mut(chunk)
        {
            own.positions.truncate(*held);
            own.positions.push(position);
            *held = own.positions.len();
            return;
        }
        let below = self.top.take();
        self.top = Some((
            Arc::new(Chunk {
                positions: vec![position],
                below,
            }),
            1,
        ));
    }

    /// Takes the position on top off (copied when another copy of the history still holds it).
    pub fn pop(&mut self) -> Option<Chess> {
        let (mut chunk, held) = self.top.take()?;
        let left = held.saturating_sub(1);
        let position = match Arc::get_mut(&mut chunk) {
            Some(own) => {
                own.positions.truncate(held);
                own.positions.pop()
            }
            None => chunk.positions.get(left).cloned(),
        };
        self.top = if left > 0 {
            Some((chunk, left))
        } else {
            match Arc::try_unwrap(chunk) {
                Ok(mut own) => own.below.take(),
                Err(shared) => shared.below.clone(),
            }
        };
        position
    }

    /// The position `back` below the top (0: the top), if there is one.
    pub fn get(&self, back: usize) -> Option<&Chess> {
        let (mut chunk, mut held) = self.top.as_ref().map(|(chunk, held)| (chunk, *held))?;
        let mut back = back;
        while back >= held {
            back -= held;
            let (below, below_held) = chunk.below.as_ref()?;
            chunk = below;
            held = *below_held;
        }
        chunk.positions.get(held.checked_sub(back)?.checked_sub(1)?)
    }
}

impl Drop for History {
    /// One chunk at a time, so that a long game's history is not dropped by recursion.
    fn drop(&mut self) {
        let mut next = self.top.take();
        while let Some((chunk, _)) = next {
            next = match Arc::try_unwrap(chunk) {
                Ok(mut chunk) => chunk.below.take(),
                Err(_) => None,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Position, Square};

    fn after(position: &Chess, uci: &str) -> Chess {
        let mut next = position.clone();
        next.play_unchecked(crate::testutil::uci_move(position, uci));
        next
    }

    #[test]
    fn a_copy_keeps_its_positions_whatever_the_original_does() {
        let start = Chess::default();
        let e4 = after(&start, "e2e4");
        let mut history = History::default();
        history.push(start.clone());
        history.push(e4.clone());
        let copy = history.clone();
        assert_eq!(history.pop(), Some(e4.clone()));
        history.push(after(&start, "d2d4"));
        assert_eq!(copy.get(0), Some(&e4));
        assert_eq!(copy.get(1), Some(&start));
        assert_eq!(copy.get(2), None);
        assert!(
            history
                .get(0)
                .is_some_and(|p| p.board().piece_at(Square::D4).is_some())
        );
        assert_eq!(history.get(1), Some(&start));
    }

    #[test]
    fn copies_popping_and_pushing_across_chunks_keep_their_own_positions() {
        // Positions told apart by the halfmove clock: position i has clock i.
        let numbered = |i: usize| -> Chess {
            let fen = format!("4k3/8/8/8/8/8/8/4K3 w - - {i} 1");
            crate::testutil::position(&fen)
        };
        let clock = |p: Option<&Chess>| p.map(|p| p.halfmoves() as usize);
        let mut history = History::default();
        for i in 0..(CHUNK * 2 + 5) {
            history.push(numbered(i));
        }
        let top = CHUNK * 2 + 4;
        let mut copy = history.clone();
        // The copy goes back below a chunk's edge, then on along another line.
        for _ in 0..10 {
            copy.pop();
        }
        copy.push(numbered(1000));
        assert_eq!(clock(copy.get(0)), Some(1000));
        assert_eq!(clock(copy.get(1)), Some(top - 10));
        // The original still holds every position it had, in order.
        for back in 0..=top {
            assert_eq!(clock(history.get(back)), Some(top - back), "back {back}");
        }
        assert_eq!(history.get(top + 1), None);
        // Popped to the bottom, both end empty and keep their own positions on the way.
        for expected in (0..=top).rev() {
            assert_eq!(
                history.pop().map(|p| p.halfmoves() as usize),
                Some(expected)
            );
        }
        assert_eq!(history.pop(), None);
        assert_eq!(clock(copy.get(top - 9)), Some(0));
        assert_eq!(copy.get(top - 8), None);
    }

    #[test]
    fn a_long_history_is_dropped_without_recursion() {
        let mut history = History::default();
        for _ in 0..1_000_000 {
            history.push(Chess::default());
        }
        assert!(history.get(999_999).is_some() && history.get(1_000_000).is_none());
        drop(history);
    }
}
