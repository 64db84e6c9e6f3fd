//! How the game looks to a GUI: a draughts board, columns of men and kings,
//! the running score, and the start and every landing of a move.

use board_core::view::{Board, Piece, Pieces};
use board_core::{Cell, Describe};

use crate::{Move, Position, Square};

impl Describe for Position {
    /// The 8x8 board, play on the dark squares (a1 dark), White at the
    /// bottom; the light squares are drawn too, though no [`Square`] names
    /// them.
    fn board(&self) -> Board {
        Board::chequered(8, 8)
    }

    /// Columns bottom to top, and the score the position would end with.
    fn pieces(&self) -> Pieces {
        let stacks = Square::all()
            .filter_map(|sq| {
                let column = self.column(sq);
                let pieces = column.pieces().map(|piece| Piece {
                    owner: piece.color.player(),
                    kind: if piece.king { "king" } else { "man" },
                });
                (!column.is_empty()).then(|| (sq.to_string(), pieces.collect()))
            })
            .collect();
        Pieces { stacks, score: Some(self.score()), ..Pieces::default() }
    }

    /// The start square and every landing square.
    fn move_path(&self, mv: Move) -> Vec<String> {
        std::iter::once(mv.from()).chain(mv.landings()).map(|sq| sq.to_string()).collect()
    }
}
