//! Position text: reading it into a [`Setup`] and writing a [`Position`].
//!
//! Format: the ranks from 8 down to 1 separated by `/`, each giving files a..h
//! with `W` for a White checker, `B` for a Black one and a digit 1-8 for that
//! many empty squares (`.` is read as one empty square, and runs of digits add
//! up), then a space and the
//! side to move, `w` or `b`. The start: `2WWWW2/8/B6B/B6B/B6B/B6B/8/2WWWW2 w`.

use std::fmt::{self, Write};
use std::str::FromStr;

use board_core::coords::{parse_placement, placement};
use board_core::{Game, Player, PositionError};

use crate::{Position, Square};

/// A position as read from text: where the checkers stand and who moves.
/// Not validated; [`Game::from_setup`] checks it into a [`Position`], and
/// [`Game::to_setup`] gives a position's. `Display` prints the position text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The owner of the checker on each square, by the square's
    /// [`Cell::index`](board_core::Cell::index) (`a1` = 0, `h8` = 63).
    pub board: [Option<Player>; 64],
    /// The side to move.
    pub side_to_move: Player,
}

const fn piece_char(player: Player) -> char {
    match player {
        Player::First => 'W',
        Player::Second => 'B',
    }
}

const fn side_char(player: Player) -> char {
    match player {
        Player::First => 'w',
        Player::Second => 'b',
    }
}

impl FromStr for Setup {
    type Err = PositionError;

    fn from_str(text: &str) -> Result<Setup, PositionError> {
        let mut fields = text.split_whitespace();
        let (Some(board_text), Some(side_text), None) =
            (fields.next(), fields.next(), fields.next())
        else {
            return Err(PositionError::new(
                "expected two fields: the board (8 ranks separated by '/') and the side to move",
            ));
        };
        let side_to_move = match side_text {
            "w" => Player::First,
            "b" => Player::Second,
            other => {
                return Err(PositionError::new(format!(
                    "the side to move must be 'w' or 'b', not '{other}'"
                )));
            }
        };
        let mut board = [None; 64];
        parse_placement(board_text, 8, 8, &mut board)?;
        Ok(Setup { board, side_to_move })
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let owner = |file, rank| self.board[usize::from(rank) * 8 + usize::from(file)];
        write!(f, "{}", placement(8, 8, owner))?;
        write!(f, " {}", side_char(self.side_to_move))
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
                let c = Square::new(file, rank)
                    .and_then(|sq| self.piece_at(sq))
                    .map_or('.', piece_char);
                write!(f, " {c}")?;
            }
            f.write_char('\n')?;
        }
        f.write_str("   a b c d e f g h\n")?;
        match self.outcome() {
            Some(outcome) => write!(f, "game over: {outcome}"),
            None => write!(f, "{} to move", Position::PLAYER_NAMES[self.side_to_move()]),
        }
    }
}
