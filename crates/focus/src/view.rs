//! How the game looks to a GUI: the 8x8 board without its cut corners,
//! stacks, the reserves and captures, and the clicks of a move (a drop
//! starts at the reserve).

use board_core::view::{Board, Piece, Pieces, RESERVE};
use board_core::{ByPlayer, Cell, Describe, Game, Player};

use crate::{Move, Position, Square};

impl Describe for Position {
    /// The 52 squares, rank 1 at the bottom; Black (the first player) is dark.
    fn board(&self) -> Board {
        let mut board = Board::chequered(8, 8);
        board.cells.retain(|cell| cell.name.parse::<Square>().is_ok());
        board.colours = ByPlayer::new(Board::WHITE_BLACK.second, Board::WHITE_BLACK.first);
        board.reserves = true;
        board
    }

    fn pieces(&self) -> Pieces {
        let by_player = |f: fn(&Position, Player) -> u8| {
            Some(ByPlayer::new(f(self, Player::First), f(self, Player::Second)).map(u32::from))
        };
        Pieces {
            stacks: Square::all()
                .filter_map(|sq| {
                    let stack = self.piece_at(sq)?;
                    let pieces = stack.bottom_up().map(|owner| Piece { owner, kind: "piece" });
                    Some((sq.to_string(), pieces.collect()))
                })
                .collect(),
            reserves: by_player(Position::reserve),
            captured: by_player(Position::captured),
            score: None,
        }
    }

    /// `[from, to]`; a drop `["reserve", to]`.
    fn move_path(&self, mv: Move) -> Vec<String> {
        let from = match mv {
            Move::Stack { from, .. } => from.to_string(),
            Move::Drop { .. } => RESERVE.to_owned(),
        };
        vec![from, mv.to().to_string()]
    }
}
