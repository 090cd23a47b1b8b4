//! The hand style the `simulate` options describe.

use touchmove_simulation::simulate::{BoardKind, HandStyle};

use super::args::{BoardArg, StyleArgs, StylePreset};

impl StyleArgs {
    /// The preset on the chosen board, with every switch given turned on (or off, for the
    /// `--no-…` switches).
    pub fn hand_style(&self) -> HandStyle {
        let board = match self.board {
            BoardArg::Occupancy => BoardKind::Occupancy,
            BoardArg::Identifying => BoardKind::Identifying,
        };
        let mut style = match self.style {
            StylePreset::Clean => HandStyle::clean(board),
            StylePreset::Messy => HandStyle::messy(board),
            StylePreset::Everything => HandStyle::everything(board),
        };
        style.thinking &= !self.no_thinking;
        style.clock &= !self.no_clock;
        style.blitz_presses |= self.blitz_presses;
        style.victim_first_captures |= self.victim_first;
        style.sliding |= self.slides;
        style.rook_first_castling |= self.rook_first;
        style.en_passant_victim_after |= self.ep_after;
        style.promotion_orders |= self.promotion_orders;
        style.omit_queen_choice |= self.omit_queen;
        style.bounces |= self.bounces;
        style.knocks |= self.knocks;
        style.scans |= self.scans;
        style.touch_put_back |= self.touch_put_back;
        style.corrected_placement |= self.illegal_placement;
        style.illegal_move |= self.illegal_move;
        style
    }
}
