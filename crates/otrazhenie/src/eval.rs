//! The static evaluation alpha-beta search uses.

use board_core::{Evaluate, Valuation, weighted_evaluation};

use crate::rules::Tally;
use crate::square::orthogonal_neighbours;
use crate::{Move, Position};

/// The value of a lost position (no checker or no move left) for the side to move.
const LOST: i32 = -10_000;

/// The features, side to move's view:
/// - `checkers`: own checkers minus the opponent's (the game is about taking
///   both of the opponent's);
/// - `capture_at_hand`: 1 when the side to move can capture (not the last
///   enemy checker): nearly a checker won;
/// - `win_at_hand`: 1 when it can capture the opponent's last checker;
/// - `threatened`: when it cannot capture, its checkers the opponent could
///   capture if it were its turn;
/// - `mobility`: own quiet moves minus the opponent's;
/// - `hemmed`: blocked sides (board edge or a checker) of a lone own checker
///   minus those of a lone enemy one: a hemmed-in last checker can be left
///   without a move, which loses.
const FEATURE_NAMES: [&str; 6] =
    ["checkers", "capture_at_hand", "win_at_hand", "threatened", "mobility", "hemmed"];

/// The weight of each feature of [`FEATURE_NAMES`] (hand-set).
pub const WEIGHTS: [i32; 6] = [1_000, 600, 8_000, -150, 3, -60];

impl Evaluate for Position {
    const FEATURE_NAMES: &'static [&'static str] = &FEATURE_NAMES;
    const WEIGHTS: &'static [i32] = &WEIGHTS;

    fn evaluate(&self) -> i32 {
        weighted_evaluation(self)
    }

    /// Material dominates; then capture options (ours now, the opponent's
    /// next), mobility, and the safety of a lone checker near the edges.
    /// Finished positions are fixed at -10 000 for the side to move.
    fn features(&self, out: &mut [i32]) -> Valuation {
        let (own, enemy) = self.sides();
        let mine = Tally::of(own, enemy);
        if own == 0 || mine.moves() == 0 {
            return Valuation::Fixed(LOST);
        }
        let theirs = Tally::of(enemy, own);
        let enemy_count = enemy.count_ones() as i32;
        let can_capture = mine.targets != 0;
        let values = [
            own.count_ones() as i32 - enemy_count,
            i32::from(can_capture && enemy_count != 1),
            i32::from(can_capture && enemy_count == 1),
            if can_capture { 0 } else { theirs.targets.count_ones() as i32 },
            mine.quiet as i32 - theirs.quiet as i32,
            hemmed_sides(own, enemy) - hemmed_sides(enemy, own),
        ];
        out.copy_from_slice(&values);
        Valuation::Weighted
    }

    /// Captures first, a capture of the last enemy checker before all.
    fn move_priority(&self, mv: Move) -> i32 {
        match mv {
            Move::Quiet { .. } => 0,
            Move::Capture { .. } => {
                let (_, enemy) = self.sides();
                if enemy.count_ones() == 1 { 2 } else { 1 }
            }
        }
    }
}

/// For a lone checker of `own`: how many of its four sides are closed by the
/// board edge or another checker (0 for two checkers).
fn hemmed_sides(own: u64, enemy: u64) -> i32 {
    if own.count_ones() != 1 {
        return 0;
    }
    4 - (orthogonal_neighbours(own) & !enemy).count_ones() as i32
}
