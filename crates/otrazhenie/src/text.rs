//! Position text (`B6B/8/8/8/8/8/8/W6W w`) and the board picture.

use std::fmt;
use std::str::FromStr;

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
/// use otrazhenie::Setup;
/// let setup: Setup = "B6B/8/8/8/8/8/8/W6W w".parse()?;
/// assert_eq!(setup.to_string(), "B6B/8/8/8/8/8/8/W6W w");
/// assert!("B6B/8/8/8/8/8/8/W6W x".parse::<Setup>().is_err());
/// # Ok::<(), board_core::PositionError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The owner of the checker on each square, indexed by [`Square::index`]
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
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 8 {
            return Err(PositionError::new(format!(
                "expected 8 ranks separated by '/', found {}",
                ranks.len()
            )));
        }
        let mut board = [None; 64];
        for (row, rank_text) in ranks.iter().enumerate() {
            let rank = 7 - row as u8;
            let mut file: u32 = 0;
            for ch in rank_text.chars() {
                let owner = match ch {
                    'W' => Some(Player::First),
                    'B' => Some(Player::Second),
                    '1'..='8' => None,
                    _ => {
                        return Err(PositionError::new(format!(
                            "unexpected '{ch}' in rank {} (use W, B and digits 1-8)",
                            rank + 1
                        )));
                    }
                };
                let width = ch.to_digit(10).unwrap_or(1);
                if file + width > 8 {
                    return Err(PositionError::new(format!(
                        "rank {} has more than 8 squares",
                        rank + 1
                    )));
                }
                if let Some(sq) = Square::new(file as u8, rank) {
                    board[sq.index()] = owner;
                }
                file += width;
            }
            if file != 8 {
                return Err(PositionError::new(format!(
                    "rank {} has {file} squares, expected 8",
                    rank + 1
                )));
            }
        }
        Ok(Setup { board, side_to_move })
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let owner = Square::new(file, rank).and_then(|sq| self.board[sq.index()]);
                match owner {
                    None => empty += 1,
                    Some(player) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        f.write_str(piece_letter(player))?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
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
            return self.setup().fmt(f);
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
