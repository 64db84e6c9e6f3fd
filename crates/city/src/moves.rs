//! Moves and their notation `from-to` (`d1-d2`, `a1-a9`).

use std::fmt;
use std::str::FromStr;

use board_core::MoveSyntaxError;

use crate::Square;

/// A move: the pawn on `from` goes to `to`, capturing an enemy pawn there if
/// there is one. Every kind of move (slide, climb, along the wall, climb down)
/// is named by its two squares alone; `Display` gives `from-to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the pawn starts.
    pub from: Square,
    /// Where it ends.
    pub to: Square,
}

impl Move {
    /// The move from `from` to `to` (not checked against any position).
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// A move read from text (`d1-d2`): two squares, not yet checked against a
/// position. Square names are read case-insensitively.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveText {
    /// The square the pawn starts from.
    pub from: Square,
    /// The square it ends on.
    pub to: Square,
}

impl From<Move> for MoveText {
    fn from(mv: Move) -> Self {
        MoveText { from: mv.from, to: mv.to }
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

impl FromStr for MoveText {
    type Err = MoveSyntaxError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let Some((from, to)) = text.split_once('-') else {
            return Err(MoveSyntaxError::new(text, "expected two squares like d1-d2"));
        };
        let square = |name: &str| {
            name.parse::<Square>().map_err(|_| {
                let reason = if name.is_empty() {
                    "a square is missing (expected two squares like d1-d2)".to_owned()
                } else {
                    format!("'{name}' is not a square (files a-i, ranks 1-9)")
                };
                MoveSyntaxError::new(text, reason)
            })
        };
        let (from, to) = (square(from)?, square(to)?);
        if from == to {
            return Err(MoveSyntaxError::new(text, format!("the move starts and ends on {from}")));
        }
        Ok(MoveText { from, to })
    }
}
