//! Where each simulated move ends, so that the benchmark can measure decision latency.

use shakmaty::{Chess, Move};

use touchmove_core::sensor::Millis;

/// The end of one simulated move, in the log's time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveEnd {
    /// The time of the move's last sensor event as the log reports it (on a scanning board:
    /// the scan that reports it).
    pub t: Millis,
    /// The time of the clock press that completes the move, when the mover presses one: a move
    /// decided only then was waiting on it.
    pub clock: Option<Millis>,
    /// Whether the move could physically have gone on: a quiet move whose piece could have
    /// gone further along the same line, or a rook move that could become castling. Such a
    /// move waits for the slide window; any other move can be decided at its last event.
    pub extendable: bool,
}

/// Whether `m` (legal in `pos`) could still be extended by the same piece going further (the
/// simulator's own reading, apart from the interpreter's: the benchmark checks what the
/// interpreter waits for against it).
pub(super) fn extendable(pos: &Chess, m: Move) -> bool {
    super::footprint::could_go_further(pos, m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;
    use shakmaty::{CastlingMode, Chess};

    fn position(fen: &str) -> Chess {
        Fen::from_ascii(fen.as_bytes())
            .expect("valid FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal position")
    }

    fn can_extend(pos: &Chess, uci: &str) -> bool {
        let m = UciMove::from_ascii(uci.as_bytes())
            .expect("valid UCI")
            .to_move(pos)
            .expect("legal move");
        extendable(pos, m)
    }

    #[test]
    fn sliders_and_pawn_single_steps_can_be_extended() {
        let start = Chess::default();
        assert!(can_extend(&start, "e2e3"));
        assert!(!can_extend(&start, "e2e4"));
        assert!(!can_extend(&start, "g1f3"));
        let open = position("4k3/8/8/8/8/8/8/R3K2R w K - 0 1");
        assert!(can_extend(&open, "a1a4"));
        assert!(!can_extend(&open, "a1a8"));
    }

    #[test]
    fn a_rook_move_on_the_castling_path_can_become_castling() {
        let pos = position("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        assert!(can_extend(&pos, "h1f1"));
        let no_rights = position("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
        assert!(!can_extend(&no_rights, "h1f1"));
    }

    #[test]
    fn captures_and_promotions_cannot_be_extended() {
        let pos = position("3rk3/P7/8/8/8/8/8/R3K3 w - - 0 1");
        assert!(!can_extend(&pos, "a7a8q"));
        let capture = position("4k3/8/8/8/r7/8/8/R3K3 w - - 0 1");
        assert!(!can_extend(&capture, "a1a4"));
    }
}
