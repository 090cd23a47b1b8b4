//! The ruling when a flag falls (FIDE 6.9).

use shakmaty::{Chess, Color};

use crate::event::Rule;
use crate::rules::Ending;

/// The ending when `loser`'s flag has fallen in `position`: a loss, or a draw when the opponent
/// cannot checkmate by any series of legal moves (FIDE 6.9).
pub fn flag_result(position: &Chess, loser: Color) -> Ending {
    Ending::loss_unless_opponent_cannot_mate(position, loser, "flag fall", Rule::FlagFall)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::position;

    #[test]
    fn a_flag_fall_in_the_opening_loses() {
        let start = Chess::default();
        let white = flag_result(&start, Color::White);
        assert_eq!(white.result_str(), "0-1");
        assert_eq!(white.rule, Some(Rule::FlagFall));
        assert_eq!(white.reason, "flag fall");
        assert_eq!(flag_result(&start, Color::Black).result_str(), "1-0");
    }

    #[test]
    fn it_is_a_draw_when_the_opponent_has_a_lone_king() {
        let pos = position("8/8/4k3/8/8/3K4/8/7Q b - - 0 60");
        assert_eq!(flag_result(&pos, Color::White).result_str(), "1/2-1/2");
        assert_eq!(flag_result(&pos, Color::Black).result_str(), "1-0");
    }

    #[test]
    fn a_lone_knight_can_still_mate_so_the_flag_loses() {
        // K+N against K+P: a helpmate exists, so the side with the knight wins on time.
        let pos = position("8/8/4k3/4p3/8/3K4/8/6N1 w - - 0 60");
        assert_eq!(flag_result(&pos, Color::Black).result_str(), "1-0");
    }

    #[test]
    fn a_lone_knight_against_a_lone_king_cannot_mate_so_it_is_a_draw() {
        let pos = position("8/8/4k3/8/8/3K4/8/6N1 w - - 0 60");
        assert_eq!(flag_result(&pos, Color::Black).result_str(), "1/2-1/2");
    }
}
