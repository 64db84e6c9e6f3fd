//! How the game looks to a GUI: a plain chessboard, checkers, and the two
//! squares of a move (a docked checker's retreat follows from them).

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

    /// `[from, to]`, also for a docking move; a pass has none.
    fn move_path(&self, mv: Move) -> Vec<String> {
        match (mv.from(), mv.to()) {
            (Some(from), Some(to)) => vec![from.to_string(), to.to_string()],
            _ => Vec::new(),
        }
    }
}
