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

use board_core::{Cell, Evaluate, Valuation, weighted_evaluation};

use crate::board::{DARK, LOWER_HALF, shift};
use crate::{Color, Move, Position, Square};

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

impl Position {
    /// The features from White's side.
    fn white_features(&self) -> [i32; 5] {
        let mut control = 0;
        let mut advance = 0;
        let mut kings = 0;
        for sq in Square::all() {
            let col = self.column(sq);
            let Some(top) = col.top() else { continue };
            let height = col.height() as i32;
            // Ranks counted from the owner's side: 0 on its back row.
            let (sign, own_rank) = match top.color {
                Color::White => (1, i32::from(sq.rank())),
                Color::Black => (-1, 7 - i32::from(sq.rank())),
            };
            control += sign * height;
            if own_rank < 4 {
                advance += sign * height * (own_rank + 1);
            }
            if top.king {
                kings += sign;
            }
        }
        let empty = DARK & !(self.white | self.black);
        let white_men = self.white & !self.kings;
        let black_men = self.black & !self.kings;
        let steps = |men: u64, dirs: [usize; 2]| -> i32 {
            dirs.iter().map(|&d| (shift(men, d) & empty).count_ones() as i32).sum()
        };
        let points = self.score().first as i32 - 12;
        let mobility = steps(white_men, [0, 1]) - steps(black_men, [2, 3]);
        [points, control, advance, kings, mobility]
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
