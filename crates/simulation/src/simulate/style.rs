//! How the simulated hands play: which handling styles, noises and breaches are switched on.

use touchmove_core::sensor::Millis;

/// The longest time between two scans of a simulated scanning board, in ms.
pub(crate) const LONGEST_PERIOD_MS: Millis = 220;

/// The kind of board the simulated log comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardKind {
    /// A Hall-sensor board: lifts and places carry no piece; promotions need a `promote` event.
    Occupancy,
    /// A DGT-like board: every lift and place carries the piece letter.
    Identifying,
}

/// The switchable, combinable handling options of the simulated player.
///
/// A switched-on option is chosen per move at random (with the seed): switching on
/// `victim_first_captures`, for example, makes each capture pick own-piece-first or
/// victim-first. Options that cannot apply to a move are ignored for it.
#[derive(Debug, Clone, PartialEq)]
pub struct HandStyle {
    /// The board the log comes from.
    pub board: BoardKind,
    /// Think before each move for a random time in `thinking_ms` (else a fixed 400 ms pause).
    pub thinking: bool,
    /// The range of the thinking time, in ms; values below 300 are raised to 300 so the previous
    /// move is always decided before the next one starts.
    pub thinking_ms: (Millis, Millis),
    /// Press the clock after each completed move, 100–600 ms after its last event.
    pub clock: bool,
    /// Blitz presses: the clock is pressed 0–200 ms after the move's last event, and a
    /// scanning board reports the press at once, before the scan that reports the move (as a
    /// DGT board does); one reply in four starts 50–250 ms after the press, often in the scan
    /// that reports the move it answers. Replaying such a log needs the report horizon
    /// [`HandStyle::report_horizon_ms`] gives.
    pub blitz_presses: bool,
    /// Captures may remove the victim first (else the own piece is always lifted first).
    pub victim_first_captures: bool,
    /// Sliders, pawns and the castling king may slide across crossed squares with short dwells.
    pub sliding: bool,
    /// Castling may move the rook first (a FIDE 4.4.2 breach, listed in the expected rulings).
    pub rook_first_castling: bool,
    /// En passant may remove the victim after the capturing pawn is placed.
    pub en_passant_victim_after: bool,
    /// Promotions use every order FIDE 4.6 allows (else: pawn placed, then replaced).
    pub promotion_orders: bool,
    /// On an occupancy board, a queen promotion may omit its `promote` event (queen default).
    pub omit_queen_choice: bool,
    /// Occupied squares not involved in the move flicker (sensor bounce, 1–20 ms).
    pub bounces: bool,
    /// While the moving piece is in hand, a neighbouring piece may be knocked and put back.
    pub knocks: bool,
    /// DGT-style scans (identifying boards only): reports grouped into ~200 ms scans, arrivals
    /// possibly before departures, a capture victim's removal not reported.
    pub scans: bool,
    /// Breach: touch another own piece that can move and put it back first (FIDE 4.3.1).
    pub touch_put_back: bool,
    /// Breach: put the piece on an illegal square, then on its real destination (no ruling).
    pub corrected_placement: bool,
    /// Breach: put the piece on an illegal square and press the clock (illegal move), then put
    /// it back and make the real move with it. At most once per colour per game.
    pub illegal_move: bool,
}

impl HandStyle {
    /// Clean play on `board`: thinking time and clock presses, nothing else.
    pub fn clean(board: BoardKind) -> HandStyle {
        HandStyle {
            board,
            thinking: true,
            thinking_ms: (300, 20_000),
            clock: true,
            blitz_presses: false,
            victim_first_captures: false,
            sliding: false,
            rook_first_castling: false,
            en_passant_victim_after: false,
            promotion_orders: false,
            omit_queen_choice: false,
            bounces: false,
            knocks: false,
            scans: false,
            touch_put_back: false,
            corrected_placement: false,
            illegal_move: false,
        }
    }

    /// Every handling style and noise on `board`, but no breach except rook-first castling.
    pub fn messy(board: BoardKind) -> HandStyle {
        HandStyle {
            victim_first_captures: true,
            sliding: true,
            rook_first_castling: true,
            en_passant_victim_after: true,
            promotion_orders: true,
            omit_queen_choice: true,
            bounces: true,
            knocks: true,
            scans: board == BoardKind::Identifying,
            ..HandStyle::clean(board)
        }
    }

    /// Everything on, injected breaches included.
    pub fn everything(board: BoardKind) -> HandStyle {
        HandStyle {
            touch_put_back: true,
            corrected_placement: true,
            illegal_move: true,
            ..HandStyle::messy(board)
        }
    }

    /// Whether reports are grouped into DGT-style scans (only on identifying boards).
    pub fn scanning(&self) -> bool {
        self.scans && self.board == BoardKind::Identifying
    }

    /// The scan period a replay of the style's logs decides with: the simulated board's
    /// longest when it scans, else 0 (every change reported as it happens).
    pub fn scan_ms(&self) -> Millis {
        if self.scanning() {
            LONGEST_PERIOD_MS
        } else {
            0
        }
    }

    /// The report horizon a replay of the style's logs needs: a DGT board's when presses can
    /// come before the scan that reports their move, else none.
    pub fn report_horizon_ms(&self) -> Millis {
        if self.scanning() && self.blitz_presses && self.clock {
            touchmove_boards::dgt::wire::protocol::REPORT_HORIZON_MS
        } else {
            0
        }
    }
}
