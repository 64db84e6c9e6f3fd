//! Static evaluation for alpha-beta: material (kings weighted), advancement
//! of men, mobility and the guard of the back rows.

use board_core::{Evaluate, Game, Player, Valuation, weighted_evaluation, write_difference};

use crate::board::{ALL_FIELDS, Bits, Direction, row_bits};
use crate::moves::Move;
use crate::position::{Position, promotion_row};

/// The features, each the side to move's count minus the opponent's:
/// - `men`, `kings`: material;
/// - `guard`: men still on one of their own two back rows;
/// - `advance`: rows the men have advanced from their own back row, summed;
/// - `mobility`: empty fields next to a piece that it could step to.
const FEATURE_NAMES: [&str; 5] = ["men", "kings", "guard", "advance", "mobility"];

/// The weight of each feature of [`FEATURE_NAMES`], fitted to self-play
/// games (docs/tuning.md; the hand-set weights were `[100, 300, 6, 3, 2]`):
// igroteka tune datagen --game hexdraughts --games 200 --depth 3 --seed 2 --out hex3.jsonl
// igroteka tune fit --game hexdraughts --data hex3.jsonl --start 100,300,6,3,2 --freeze advance,guard
pub const WEIGHTS: [i32; 5] = [132, 476, 6, 3, -28];

/// A man is worth 100.
pub const MAN_VALUE: i32 = WEIGHTS[0];
/// A flying king is worth three men.
pub const KING_VALUE: i32 = WEIGHTS[1];

/// `advance_planes(home)[k]`: the fields of the rows whose distance from
/// the row `home` has bit `k` set (distances 0 to 10), so that the rows a
/// set of men has advanced from `home`, summed, is
/// `Σ popcount(men & planes[k]) << k`.
const fn advance_planes(home: usize) -> [Bits; 4] {
    let mut planes = [0; 4];
    let mut row: usize = 0;
    while row < 11 {
        let distance = row.abs_diff(home);
        let mut k = 0;
        while k < 4 {
            if distance >> k & 1 != 0 {
                planes[k] |= row_bits(row);
            }
            k += 1;
        }
        row += 1;
    }
    planes
}

/// [`advance_planes`] of each player's home row (White's row 10, Black's 0).
static ADVANCE_PLANES: [[Bits; 4]; 2] = [
    advance_planes(10 - promotion_row(Player::First)),
    advance_planes(10 - promotion_row(Player::Second)),
];

/// The features of `player`'s pieces alone.
fn side_features(pos: &Position, player: Player) -> [i32; 5] {
    let own = pos.bits(player);
    let kings = own & pos.king_bits();
    let men = own & !kings;
    let home = 10 - promotion_row(player);
    let back_rows = row_bits(home) | row_bits(if home == 0 { 1 } else { 9 });
    let planes = &ADVANCE_PLANES[usize::from(player == Player::Second)];
    let advance: u32 =
        planes.iter().enumerate().map(|(k, &plane)| (men & plane).count_ones() << k).sum();
    let empty = ALL_FIELDS & !(pos.bits(Player::First) | pos.bits(Player::Second));
    let men_reach: u32 =
        pos.sides(player).forward.iter().map(|dir| (dir.shift(men) & empty).count_ones()).sum();
    let king_reach: u32 =
        Direction::ALL.iter().map(|dir| (dir.shift(kings) & empty).count_ones()).sum();
    [
        men.count_ones() as i32,
        kings.count_ones() as i32,
        (men & back_rows).count_ones() as i32,
        advance as i32,
        (men_reach + king_reach) as i32,
    ]
}

impl Evaluate for Position {
    const FEATURE_NAMES: &'static [&'static str] = &FEATURE_NAMES;
    const WEIGHTS: &'static [i32] = &WEIGHTS;

    /// The weighted features (at most about ±7 000).
    fn evaluate(&self) -> i32 {
        weighted_evaluation(self)
    }

    fn features(&self, out: &mut [i32]) -> Valuation {
        let us = self.side_to_move();
        let (own, theirs) = (side_features(self, us), side_features(self, us.other()));
        write_difference(out, own, theirs);
        Valuation::Weighted
    }

    const PATTERNS: usize = crate::patterns::PATTERNS;
    const PATTERN_BOUND: usize = crate::patterns::INDEX_BOUND;
    const PATTERN_LAYOUT: &'static str = crate::patterns::LAYOUT;
    const LEARNED_WEIGHTS: &'static [u8] = include_bytes!("../data/learned.weights");
    /// The learned evaluation beat the classic one at equal time (README,
    /// "Learned evaluations").
    const LEARNED_BY_DEFAULT: bool = true;

    fn pattern_indices(&self, out: &mut [u32]) {
        crate::patterns::indices(self, out);
    }

    /// Captures first (the more pieces the better), then moves that promote.
    fn move_priority(&self, mv: Move) -> i32 {
        100 * mv.capture_count() as i32 + if self.promotes(mv) { 50 } else { 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Field, bits_of};

    /// The bit planes count what the definition sums: each man's rows from
    /// its own home row.
    #[test]
    fn advance_is_each_mans_rows_from_home_summed() {
        let mut advanced = 0;
        for pos in board_core::testkit::random_positions::<Position>(8, 120) {
            for player in [Player::First, Player::Second] {
                let men = pos.bits(player) & !pos.king_bits();
                let home = 10 - promotion_row(player);
                let expected: usize =
                    bits_of(men).map(|man| Field::from_bit_index(man).row().abs_diff(home)).sum();
                assert_eq!(side_features(&pos, player)[3], expected as i32, "{player:?} in {pos}");
                advanced += usize::from(expected > 0);
            }
        }
        assert!(advanced > 100, "positions with advanced men: {advanced}");
    }
}
