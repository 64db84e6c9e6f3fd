//! A static evaluation for alpha-beta that aims at the scoring goal.
//!
//! Material never changes in Adiyukh, so the evaluation weighs what decides
//! the final count, from White's side then turned to the side to move:
//! - the score as it stands (pieces on the far halves), 100 per point;
//! - control: every piece in a column belongs to the column's owner while it
//!   is buried, 12 per piece (tall columns weigh more);
//! - advance: a column still on its owner's own half can carry its pieces
//!   over, worth more the closer it stands to the middle;
//! - a king on top (capturing power), 25;
//! - mobility: quiet steps available, 4 each.

use board_core::Evaluate;

use crate::board::{DARK, LOWER_HALF, shift};
use crate::{Color, Move, Position, Square};

const POINT: i32 = 100;
const CONTROL: i32 = 12;
const ADVANCE: i32 = 3;
const KING: i32 = 25;
const MOBILITY: i32 = 4;

impl Position {
    /// The evaluation from White's side.
    fn white_view(&self) -> i32 {
        let score = self.score();
        let mut value = POINT * (score.first as i32 - 12);
        for sq in Square::all() {
            let col = self.column(sq);
            let Some(top) = col.top() else { continue };
            let height = col.height() as i32;
            // Ranks counted from the owner's side: 0 on its back row.
            let (sign, own_rank) = match top.color {
                Color::White => (1, i32::from(sq.rank())),
                Color::Black => (-1, 7 - i32::from(sq.rank())),
            };
            let mut own = CONTROL * height;
            if own_rank < 4 {
                own += ADVANCE * height * (own_rank + 1);
            }
            if top.king {
                own += KING;
            }
            value += sign * own;
        }
        let empty = DARK & !(self.white | self.black);
        let white_men = self.white & !self.kings;
        let black_men = self.black & !self.kings;
        let steps = |men: u64, dirs: [usize; 2]| -> i32 {
            dirs.iter().map(|&d| (shift(men, d) & empty).count_ones() as i32).sum()
        };
        value += MOBILITY * (steps(white_men, [0, 1]) - steps(black_men, [2, 3]));
        value
    }
}

impl Evaluate for Position {
    fn evaluate(&self) -> i32 {
        let value = match self.side {
            Color::White => self.white_view(),
            Color::Black => -self.white_view(),
        };
        value.clamp(-20_000, 20_000)
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

    /// Captures (compulsory when there is one) and steps onto the promotion
    /// row (only men step).
    fn is_tactical(&self, mv: Move) -> bool {
        mv.is_capture() || mv.to().bit() & self.side.promotion_row() != 0
    }

    const MOVE_INDEX_BOUND: usize = 32 * 32;

    /// From and to squares (a capture by its first and last).
    fn move_index(&self, mv: Move) -> usize {
        mv.from().slot() * 32 + mv.to().slot()
    }
}
