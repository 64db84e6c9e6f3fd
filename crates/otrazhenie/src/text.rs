//! Position text (`B6B/8/8/8/8/8/8/W6W w`) and the board picture.

use std::fmt;
use std::str::FromStr;

use board_core::coords::{parse_placement, placement};
use board_core::{Game, Player, PositionError};

use crate::{Position, Square};

/// A position as read from text, not yet validated: what stands on each
/// square and who moves. [`Game::from_setup`] checks it into a [`Position`].
///
/// Text: the ranks from 8 down to 1 separated by `/`, each listing its squares
/// from the a-file to the h-file with `W` for a White checker, `B` for a Black
/// one and a digit 1-8 for that many empty squares (each rank adds up to 8);
/// then a space and the side to move, `w` or `b`.
///
/// ```
/// use otrazhenie::prelude::*;
/// let setup: Setup = "B6B/8/8/8/8/8/8/W6W w".parse()?;
/// assert_eq!(setup.to_string(), "B6B/8/8/8/8/8/8/W6W w");
/// assert!("B6B/8/8/8/8/8/8/W6W x".parse::<Setup>().is_err());
/// # Ok::<(), board_core::PositionError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The owner of the checker on each square, indexed by
    /// [`Cell::index`](board_core::Cell::index)
    /// (a1 = 0, b1 = 1, ..., h8 = 63).
    pub board: [Option<Player>; 64],
    /// The player to move.
    pub side_to_move: Player,
}

impl FromStr for Setup {
    type Err = PositionError;

    fn from_str(text: &str) -> Result<Setup, PositionError> {
        let mut tokens = text.split_whitespace();
        let (Some(placement), Some(side)) = (tokens.next(), tokens.next()) else {
            return Err(PositionError::new(
                "expected the 8 ranks and the side to move, as in B6B/8/8/8/8/8/8/W6W w",
            ));
        };
        if let Some(extra) = tokens.next() {
            return Err(PositionError::new(format!(
                "unexpected text '{extra}' after the side to move"
            )));
        }
        let side_to_move = match side {
            "w" | "W" => Player::First,
            "b" | "B" => Player::Second,
            _ => {
                return Err(PositionError::new(format!(
                    "the side to move must be 'w' or 'b', not '{side}'"
                )));
            }
        };
        let mut board = [None; 64];
        parse_placement(placement, 8, 8, &mut board)?;
        Ok(Setup { board, side_to_move })
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let owner = |file, rank| Square::new(file, rank).and_then(|sq| self.board[sq.bit_index()]);
        write!(f, "{}", placement(8, 8, owner))?;
        f.write_str(if self.side_to_move == Player::First { " w" } else { " b" })
    }
}

const fn piece_letter(player: Player) -> &'static str {
    match player {
        Player::First => "W",
        Player::Second => "B",
    }
}

/// The position text; `{:#}` draws the board with coordinates instead.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !f.alternate() {
            return self.to_setup().fmt(f);
        }
        for rank in (0..8).rev() {
            write!(f, "{} ", rank + 1)?;
            for file in 0..8 {
                let owner = Square::new(file, rank).and_then(|sq| self.piece_at(sq));
                write!(f, " {}", owner.map_or(".", piece_letter))?;
            }
            writeln!(f)?;
        }
        writeln!(f, "   a b c d e f g h")?;
        let names = Position::PLAYER_NAMES;
        match self.outcome() {
            None => write!(f, "{} to move", names[self.side_to_move()]),
            Some(end) => write!(f, "game over: {} ({})", end.result_text(), end.reason),
        }
    }
}
