//! Static evaluation for alpha-beta: connectivity, spread and crash danger.

use board_core::{Evaluate, Valuation, weighted_evaluation};

use crate::board::{INTERIOR, flood, orthogonal_neighbours};
use crate::rules::{WinReason, after_move, wins_at_once};
use crate::{Move, Position, Square};

/// The features, side to move's view:
/// - `groups`: own orthogonally connected groups minus the opponent's;
/// - `spread`: total Manhattan distance of own checkers to their centre of
///   mass (whole squares, rounded down) minus the opponent's;
/// - `crash_threats`: enemy checkers one own move from a crash (we move next);
/// - `crash_dangers`: own checkers one enemy move from a crash;
/// - `tempo`: 1, for being the side to move.
const FEATURE_NAMES: [&str; 5] = ["groups", "spread", "crash_threats", "crash_dangers", "tempo"];

/// The weight of each feature of [`FEATURE_NAMES`], fitted to self-play
/// games (docs/tuning.md; the hand-set weights were `[-60, -6, 150, -70, 10]`):
// igroteka tune datagen --game stykovka --games 200 --depth 3 --seed 2 --out stykovka3.jsonl
// igroteka tune fit --game stykovka --data stykovka3.jsonl --start=-60,-6,150,-70,10 --freeze groups,tempo
pub const WEIGHTS: [i32; 5] = [-60, -27, 325, -132, 10];
/// The priority of a move that crashes an enemy checker, which wins.
const CRASHES: i32 = 10_000;
/// The priority of a move that docks, which wins.
const DOCKS: i32 = 9_000;

/// The number of orthogonally connected groups of `bits`.
fn groups(mut bits: u64) -> i32 {
    let mut count = 0;
    while bits != 0 {
        bits &= !flood(bits & bits.wrapping_neg(), bits);
        count += 1;
    }
    count
}

/// Sum of Manhattan distances from each checker of `bits` to their centre of
/// mass, times the number of checkers (kept in integers).
fn spread(bits: u64) -> i32 {
    let n = bits.count_ones() as i32;
    let (mut files, mut ranks) = (0, 0);
    let mut rest = bits;
    while rest != 0 {
        let sq = Square::lowest(rest);
        files += i32::from(sq.file());
        ranks += i32::from(sq.rank());
        rest &= rest - 1;
    }
    let mut total = 0;
    let mut rest = bits;
    while rest != 0 {
        let sq = Square::lowest(rest);
        total +=
            (i32::from(sq.file()) * n - files).abs() + (i32::from(sq.rank()) * n - ranks).abs();
        rest &= rest - 1;
    }
    total
}

/// Checkers of `bits` not on the edge with exactly three enemy orthogonal
/// neighbours and an empty fourth one: one enemy move from a crash.
fn near_crashes(bits: u64, enemy: u64) -> i32 {
    let empty = !(bits | enemy);
    let mut count = 0;
    let mut rest = bits & INTERIOR;
    while rest != 0 {
        let one = rest & rest.wrapping_neg();
        let around = orthogonal_neighbours(one);
        if (around & enemy).count_ones() == 3 && around & empty != 0 {
            count += 1;
        }
        rest &= rest - 1;
    }
    count
}

/// The total Manhattan distance of the checkers `own` to their centre of mass.
fn spread_squares(own: u64) -> i32 {
    spread(own) / own.count_ones().max(1) as i32
}

impl Evaluate for Position {
    const FEATURE_NAMES: &'static [&'static str] = &FEATURE_NAMES;
    const WEIGHTS: &'static [i32] = &WEIGHTS;
    const PATTERNS: usize = crate::patterns::PATTERNS;
    const PATTERN_BOUND: usize = crate::patterns::INDEX_BOUND;
    const PATTERN_LAYOUT: &'static str = crate::patterns::LAYOUT;
    // Trained by `tune train` on adjudicated self-play (docs/tuning.md,
    // "Stykovka: the whole loop").
    const LEARNED_WEIGHTS: &'static [u8] = include_bytes!("../data/learned.weights");
    /// The learned evaluation beat the classic one at equal time (README,
    /// "Evaluation").
    const LEARNED_BY_DEFAULT: bool = true;

    fn pattern_indices(&self, out: &mut [u32]) {
        crate::patterns::indices(self, out);
    }

    /// Stays within a few thousand.
    fn evaluate(&self) -> i32 {
        weighted_evaluation(self)
    }

    /// Fewer groups and a tighter spread than the opponent, threats to crash
    /// enemy checkers, own checkers close to a crash, the tempo.
    fn features(&self, out: &mut [i32]) -> Valuation {
        let (own, enemy) = self.own_and_enemy();
        out.copy_from_slice(&[
            groups(own) - groups(enemy),
            spread_squares(own) - spread_squares(enemy),
            near_crashes(enemy, own),
            near_crashes(own, enemy),
            1,
        ]);
        Valuation::Weighted
    }

    /// Winning moves (a crash or own docking) first, then displacements, then
    /// moves that join more own checkers than they leave.
    fn move_priority(&self, mv: Move) -> i32 {
        let (own, enemy) = self.own_and_enemy();
        let (Some(from), Some(to), Some((after_own, _))) =
            (mv.from(), mv.to(), after_move(own, enemy, mv))
        else {
            return 0;
        };
        // End check 1 comes before check 2: crashing an enemy checker wins even
        // when the move also crashes an own one.
        match if self.may_win() { wins_at_once(own, enemy, mv) } else { None } {
            Some(WinReason::Crash) => return CRASHES,
            Some(WinReason::Docking) => return DOCKS,
            None => {}
        }
        let joined = (orthogonal_neighbours(to.bit()) & after_own).count_ones() as i32;
        let left = (orthogonal_neighbours(from.bit()) & own).count_ones() as i32;
        let displacement = if matches!(mv, Move::Dock { .. }) { 50 } else { 0 };
        displacement + 20 * (joined - left)
    }
}
