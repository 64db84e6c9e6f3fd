//! How the game looks to a GUI: the 9x9 board coloured by zone (outside,
//! wall, town, bazaar), pawns, and the two squares of a move.

use board_core::view::{Board, Pieces};
use board_core::{Cell, Describe, Game};

use crate::{Move, Position, Square, Zone};

impl Describe for Position {
    /// The same 9x9 board in every variant, White at the bottom.
    fn board(&self) -> Board {
        let classes = [
            (Zone::Outside.name(), "#c8d6a0"),
            (Zone::Wall.name(), "#8d7f6e"),
            (Zone::Town.name(), "#eadcc0"),
            (Zone::Bazaar.name(), "#e0a030"),
        ];
        Board::squares(9, 9, &classes, |file, rank| {
            Square::new(file, rank).map(|sq| sq.zone().name())
        })
    }

    fn pieces(&self) -> Pieces {
        Pieces::singles(Square::all().map(|sq| (sq, self.piece_at(sq))), "pawn")
    }

    /// `[from, to]`.
    fn move_path(&self, mv: Move) -> Vec<String> {
        vec![mv.from.to_string(), mv.to.to_string()]
    }
}
