//! An engine's judgement of a move: the evaluations before and after it, what it lost, its
//! accuracy, and the glyph it earns.
//!
//! The measures are Lichess's, so that a player reads them as on Lichess:
//! - a position's winning chances from White's side, `2 / (1 + e^(-0.00368208 cp)) - 1` (from
//!   -1, Black wins, to 1), the evaluation capped at ±1,000 centipawns, a mate counted as
//!   ±1,000;
//! - a move's judgement by the winning chances the mover lost: 0.1 an inaccuracy (`?!`), 0.2 a
//!   mistake (`?`), 0.3 a blunder (`??`);
//! - a move's accuracy from the mover's win percentage (`50 + 50 × chances`) before and after
//!   it: `103.1668 e^(-0.04354 (before - after)) - 3.1669`, between 0 and 100;
//! - a player's accuracy: the plain mean of their moves' accuracies (Lichess weighs its mean
//!   by how sharp the position was and blends it with a harmonic mean; touchmove does not).

use serde::Serialize;
use shakmaty::Color;

/// The cap on an evaluation (centipawns), and what a mate counts as.
const CAP_CP: i32 = 1_000;

/// An engine's evaluation of a position, from White's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Eval {
    /// Centipawns: positive, White is better.
    Cp(i32),
    /// A forced mate: `winner` mates in `moves` (0: the side to move is checkmated).
    Mate {
        /// The side that mates.
        #[serde(serialize_with = "crate::facts::ser_color")]
        winner: Color,
        /// In how many moves (0: it has mated).
        moves: u32,
    },
}

impl Eval {
    /// The evaluation an engine gives from the side to move's view (`cp`, or `mate` in moves:
    /// negative, the side to move is mated), turned to White's side.
    pub fn from_side_to_move(turn: Color, cp: Option<i32>, mate: Option<i32>) -> Option<Eval> {
        let sign = if turn == Color::White { 1 } else { -1 };
        match (mate, cp) {
            (Some(mate), _) => Some(Eval::Mate {
                winner: if mate > 0 { turn } else { !turn },
                moves: mate.unsigned_abs(),
            }),
            (None, Some(cp)) => Some(Eval::Cp(cp.saturating_mul(sign))),
            (None, None) => None,
        }
    }

    /// Whether the side to move is checkmated (a mate in 0).
    pub fn is_mated(self) -> bool {
        matches!(self, Eval::Mate { moves: 0, .. })
    }

    /// Centipawns from White's side, capped at ±1,000 (a mate counts as the cap).
    pub fn capped_cp(self) -> i32 {
        match self {
            Eval::Cp(cp) => cp.clamp(-CAP_CP, CAP_CP),
            Eval::Mate { winner, .. } => match winner {
                Color::White => CAP_CP,
                Color::Black => -CAP_CP,
            },
        }
    }

    /// The winning chances from `side`'s view, from -1 to 1.
    pub fn chances(self, side: Color) -> f64 {
        let cp = f64::from(self.capped_cp());
        let white = 2.0 / (1.0 + (-0.003_682_08 * cp).exp()) - 1.0;
        match side {
            Color::White => white,
            Color::Black => -white,
        }
    }

    /// The win percentage from `side`'s view, from 0 to 100.
    pub fn win_percent(self, side: Color) -> f64 {
        50.0 + 50.0 * self.chances(side)
    }

    /// As PGN's `[%eval]` writes it: pawns from White's side (`0.35`, `-1.20`), or `#3`,
    /// `#-2` for a mate (`#0`, `#-0` once mated).
    pub fn pgn(self) -> String {
        match self {
            Eval::Cp(cp) => {
                let sign = if cp < 0 { "-" } else { "" };
                let abs = cp.unsigned_abs();
                format!("{sign}{}.{:02}", abs / 100, abs % 100)
            }
            Eval::Mate { winner, moves } => match winner {
                Color::White => format!("#{moves}"),
                Color::Black => format!("#-{moves}"),
            },
        }
    }
}

/// How bad a move was, from the least (an inaccuracy) to the worst (a blunder).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Judgement {
    /// Lost 0.1 of the winning chances: `?!`.
    Inaccuracy,
    /// Lost 0.2: `?`.
    Mistake,
    /// Lost 0.3: `??`.
    Blunder,
}

impl Judgement {
    /// The judgement of a move that lost `lost` winning chances, if any.
    pub fn of_loss(lost: f64) -> Option<Judgement> {
        if lost >= 0.3 {
            Some(Judgement::Blunder)
        } else if lost >= 0.2 {
            Some(Judgement::Mistake)
        } else if lost >= 0.1 {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }

    /// Its NAG (PGN standard 10): 6, 2, 4.
    pub fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    /// Its glyph: `?!`, `?`, `??`.
    pub fn glyph(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    /// Its name: `inaccuracy`, `mistake`, `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }
}

/// A move judged.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoveJudgement {
    /// The evaluation before the move.
    pub before: Eval,
    /// The evaluation after it.
    pub after: Eval,
    /// The centipawns it lost, from the mover's view (capped evaluations; 0 if it gained).
    pub loss_cp: u32,
    /// Its accuracy, 0 to 100.
    pub accuracy: f64,
    /// Its judgement, if it earns one.
    pub judgement: Option<Judgement>,
}

impl MoveJudgement {
    /// The judgement of `mover`'s move from a position evaluated `before` to one evaluated
    /// `after`.
    pub fn of(mover: Color, before: Eval, after: Eval) -> MoveJudgement {
        let sign = if mover == Color::White { 1 } else { -1 };
        let loss = (before.capped_cp() - after.capped_cp()) * sign;
        let lost = before.chances(mover) - after.chances(mover);
        let drop = before.win_percent(mover) - after.win_percent(mover);
        MoveJudgement {
            before,
            after,
            loss_cp: u32::try_from(loss).unwrap_or(0),
            accuracy: move_accuracy(drop),
            judgement: Judgement::of_loss(lost),
        }
    }
}

/// A move's accuracy from the win percentage it lost.
fn move_accuracy(drop: f64) -> f64 {
    if drop <= 0.0 {
        return 100.0;
    }
    let accuracy =
        103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * drop).exp() - 3.166_924_740_191_411;
    accuracy.clamp(0.0, 100.0)
}

/// A player's accuracy: the mean of their moves' (`None` without a judged move).
pub fn player_accuracy<'a>(moves: impl IntoIterator<Item = &'a MoveJudgement>) -> Option<f64> {
    let (sum, count) = moves
        .into_iter()
        .fold((0.0, 0u32), |(sum, count), m| (sum + m.accuracy, count + 1));
    (count > 0).then(|| sum / f64::from(count))
}
