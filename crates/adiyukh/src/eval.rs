//! A static evaluation for alpha-beta that aims at the scoring goal.
//!
//! Material never changes in Adiyukh, so the evaluation weighs what decides
//! the final count, from White's side then turned to the side to move:
//! - the score as it stands (pieces on the far halves);
//! - control: every piece in a column belongs to the column's owner while it
//!   is buried (tall columns weigh more);
//! - advance: a column still on its owner's own half can carry its pieces
//!   over, worth more the closer it stands to the middle;
//! - a king on top (capturing power);
//! - mobility: quiet steps available.

use board_core::{Evaluate, Valuation, weighted_evaluation};

use crate::board::{DARK, LOWER_HALF, shift};
use crate::{Color, Column, Move, Position, Square};

/// The features, from the side to move's view (its own minus the
/// opponent's, as in the list above):
/// - `points`: the side's score as it stands, less the even 12;
/// - `control`: pieces in the columns the side owns;
/// - `advance`: per column still on its owner's half, height × (rank from
///   the owner's back row + 1);
/// - `kings`: columns with a king on top;
/// - `mobility`: quiet steps of the men.
const FEATURE_NAMES: [&str; 5] = ["points", "control", "advance", "kings", "mobility"];

/// The weight of each feature of [`FEATURE_NAMES`], fitted to games (hand-set
/// before: `[100, 12, 3, 25, 4]`); the command and the arena runs that
/// adopted them are in the README's "Evaluation".
pub const WEIGHTS: [i32; 5] = [91, 48, 11, -52, -60];

/// What a column on `sq` adds to the features that depend on columns' heights,
/// from White's side: `[points, control, advance]` (points before the even 12
/// are taken off). [`Position`] keeps their sum as its columns change, so the
/// evaluation visits no square.
pub(crate) fn column_terms(sq: Square, col: Column) -> [i32; 3] {
    let Some(top) = col.top() else { return [0; 3] };
    let height = col.height() as i32;
    let points = if sq.bit() & LOWER_HALF == 0 { height } else { 0 };
    // Ranks counted from the owner's side: 0 on its back row.
    let (sign, own_rank) = match top.color {
        Color::White => (1, i32::from(sq.rank())),
        Color::Black => (-1, 7 - i32::from(sq.rank())),
    };
    let advance = if own_rank < 4 { sign * height * (own_rank + 1) } else { 0 };
    [points, sign * height, advance]
}

impl Position {
    /// The features from White's side.
    fn white_features(&self) -> [i32; 5] {
        let [points, control, advance] = self.terms;
        let kings = (self.white & self.kings).count_ones() as i32
            - (self.black & self.kings).count_ones() as i32;
        let empty = DARK & !(self.white | self.black);
        let white_men = self.white & !self.kings;
        let black_men = self.black & !self.kings;
        let steps = |men: u64, dirs: [usize; 2]| -> i32 {
            dirs.iter().map(|&d| (shift(men, d) & empty).count_ones() as i32).sum()
        };
        let mobility = steps(white_men, [0, 1]) - steps(black_men, [2, 3]);
        [points - 12, control, advance, kings, mobility]
    }
}

impl Evaluate for Position {
    const FEATURE_NAMES: &'static [&'static str] = &FEATURE_NAMES;
    const WEIGHTS: &'static [i32] = &WEIGHTS;

    fn evaluate(&self) -> i32 {
        weighted_evaluation(self)
    }

    fn features(&self, out: &mut [i32]) -> Valuation {
        let sign = match self.side {
            Color::White => 1,
            Color::Black => -1,
        };
        out.copy_from_slice(&self.white_features().map(|value| sign * value));
        Valuation::Weighted
    }

    const PATTERNS: usize = crate::patterns::PATTERNS;
    const PATTERN_BOUND: usize = crate::patterns::INDEX_BOUND;
    const PATTERN_LAYOUT: &'static str = crate::patterns::LAYOUT;
    const LEARNED_WEIGHTS: &'static [u8] = include_bytes!("../data/learned.weights");
    /// The learned evaluation beat the classic one at equal time (README,
    /// "Evaluation").
    const LEARNED_BY_DEFAULT: bool = true;

    fn pattern_indices(&self, out: &mut [u32]) {
        crate::patterns::indices(self, out);
    }

    /// Long captures first, then steps that promote or cross the middle.
    fn move_priority(&self, mv: Move) -> i32 {
        if mv.is_capture() {
            return 1000 + 100 * mv.len() as i32;
        }
        let to = mv.to().bit();
        if to & self.side.promotion_row() != 0 {
            300
        } else if (to & LOWER_HALF == 0) == (self.side == Color::White)
            && (mv.from().bit() & LOWER_HALF == 0) != (self.side == Color::White)
        {
            50
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use board_core::{Cell, Game, Rng};

    use super::*;

    /// The terms added up square by square.
    fn terms_from_scratch(pos: &Position) -> [i32; 3] {
        Square::all().fold([0; 3], |sum, sq| {
            let terms = column_terms(sq, pos.column(sq));
            [sum[0] + terms[0], sum[1] + terms[1], sum[2] + terms[2]]
        })
    }

    #[test]
    fn the_kept_terms_are_the_columns_terms_after_every_move() {
        let mut rng = Rng::new(34);
        let mut moves = Vec::new();
        let mut captures = 0;
        for _ in 0..200 {
            let mut pos = Position::default();
            assert_eq!(pos.terms, [12, 0, 0], "the start");
            loop {
                assert_eq!(pos.terms, terms_from_scratch(&pos), "{pos}");
                // Points are every piece on the far half: White's own count.
                assert_eq!(pos.terms[0], pos.score().first as i32, "{pos}");
                moves.clear();
                pos.generate_moves(&mut moves);
                let Some(&mv) = rng.choose(&moves) else { break };
                captures += usize::from(mv.is_capture());
                pos.play_unchecked(mv);
            }
        }
        assert!(captures > 1000, "captures (which stack columns) were played: {captures}");
    }
}
