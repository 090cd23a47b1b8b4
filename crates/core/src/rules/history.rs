//! The positions before the current one, shared between copies of a game: a copy (the result
//! gesture keeps one of the whole interpreter while a king is in hand) costs one reference
//! count, not one position per ply.

use std::sync::Arc;

use shakmaty::Chess;

/// A stack of positions, the latest on top, whose copies share what they have in common.
#[derive(Debug, Clone, Default)]
pub struct History {
    top: Option<Arc<Node>>,
}

#[derive(Debug)]
struct Node {
    position: Chess,
    below: Option<Arc<Node>>,
}

impl History {
    /// Puts `position` on top.
    pub fn push(&mut self, position: Chess) {
        let below = self.top.take();
        self.top = Some(Arc::new(Node { position, below }));
    }

    /// Takes the position on top off (copied when another copy of the history still holds it).
    pub fn pop(&mut self) -> Option<Chess> {
        let top = self.top.take()?;
        match Arc::try_unwrap(top) {
            Ok(node) => {
                self.top = node.below;
                Some(node.position)
            }
            Err(shared) => {
                self.top = shared.below.clone();
                Some(shared.position.clone())
            }
        }
    }

    /// The position `back` below the top (0: the top), if there is one.
    pub fn get(&self, back: usize) -> Option<&Chess> {
        let mut node = self.top.as_deref()?;
        for _ in 0..back {
            node = node.below.as_deref()?;
        }
        Some(&node.position)
    }
}

impl Drop for History {
    /// One node at a time, so that a long game's history is not dropped by recursion.
    fn drop(&mut self) {
        let mut next = self.top.take();
        while let Some(node) = next {
            next = match Arc::try_unwrap(node) {
                Ok(mut node) => node.below.take(),
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
    fn a_long_history_is_dropped_without_recursion() {
        let mut history = History::default();
        for _ in 0..1_000_000 {
            history.push(Chess::default());
        }
        assert!(history.get(999_999).is_some() && history.get(1_000_000).is_none());
        drop(history);
    }
}
