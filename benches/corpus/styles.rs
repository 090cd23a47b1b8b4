//! The hand styles the benchmark replays the corpus under.

use touchmove_simulation::simulate::{BoardKind, HandStyle};

/// A named hand style.
pub struct NamedStyle {
    /// The row label.
    pub name: &'static str,
    /// The style.
    pub style: HandStyle,
    /// Clean play: any ruling made is a false one.
    pub clean: bool,
}

/// Clean play on both boards, each handling style alone on the occupancy board, DGT scans on
/// the identifying board (with presses held behind the scan, and blitz presses before it), the
/// messy preset and everything (injected breaches included; on the identifying board also with
/// blitz presses).
pub fn all() -> Vec<NamedStyle> {
    use BoardKind::{Identifying, Occupancy};
    type Switch = fn(&mut HandStyle);
    let alone: [(&'static str, Switch); 9] = [
        ("victim-first", |s| s.victim_first_captures = true),
        ("slides", |s| s.sliding = true),
        ("rook-first (4.4.2)", |s| s.rook_first_castling = true),
        ("ep-after", |s| s.en_passant_victim_after = true),
        ("promotion-orders", |s| {
            s.promotion_orders = true;
            s.omit_queen_choice = true;
        }),
        ("bounces", |s| s.bounces = true),
        ("knocks", |s| s.knocks = true),
        ("no-clock", |s| s.clock = false),
        ("breaches only", |s| {
            s.touch_put_back = true;
            s.corrected_placement = true;
            s.illegal_move = true;
        }),
    ];
    let mut styles = vec![
        named("clean occ", HandStyle::clean(Occupancy), true),
        named("clean id", HandStyle::clean(Identifying), true),
    ];
    for (name, switch) in alone {
        let mut style = HandStyle::clean(Occupancy);
        switch(&mut style);
        let clean = !style.rook_first_castling && !style.touch_put_back && !style.illegal_move;
        styles.push(named(name, style, clean));
    }
    let mut scans = HandStyle::clean(Identifying);
    scans.scans = true;
    styles.push(named("DGT scans id", scans.clone(), true));
    // Blitz presses 0-200 ms after the move, reported before the scan that reports it; the
    // logs state the report horizon (300 ms) their replay needs.
    styles.push(named(
        "blitz presses id",
        HandStyle {
            blitz_presses: true,
            ..scans
        },
        true,
    ));
    styles.push(named("messy occ", HandStyle::messy(Occupancy), false));
    styles.push(named("messy id", HandStyle::messy(Identifying), false));
    styles.push(named(
        "everything occ",
        HandStyle::everything(Occupancy),
        false,
    ));
    styles.push(named(
        "everything id",
        HandStyle::everything(Identifying),
        false,
    ));
    styles.push(named(
        "everything id blitz",
        HandStyle {
            blitz_presses: true,
            ..HandStyle::everything(Identifying)
        },
        false,
    ));
    styles
}

fn named(name: &'static str, style: HandStyle, clean: bool) -> NamedStyle {
    NamedStyle { name, style, clean }
}
