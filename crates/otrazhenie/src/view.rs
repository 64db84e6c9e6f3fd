//! How the game looks to a GUI: a plain chessboard, checkers, and the squares
//! of a move (a capture's edge square is clicked on the way to its target).

use board_core::view::{Board, Pieces};
use board_core::{Cell, Describe, Game};

use crate::{Move, Position, Square};

impl Describe for Position {
    /// The 8x8 board, a1 dark, White at the bottom.
    fn board(&self) -> Board {
        Board::chequered(8, 8)
    }

    fn pieces(&self) -> Pieces {
        Pieces::singles(Square::all().map(|sq| (sq, self.piece_at(sq))), "checker")
    }

    /// `[from, to]`; a capture `[from, edge, target]`.
    fn move_path(&self, mv: Move) -> Vec<String> {
        match mv {
            Move::Quiet { from, to } => vec![from.to_string(), to.to_string()],
            Move::Capture { from, edge, target } => {
                vec![from.to_string(), edge.to_string(), target.to_string()]
            }
        }
    }
}
