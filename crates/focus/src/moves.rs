//! Moves and their notation: `c5-c1` (a stack move; the distance is the
//! number of pieces moved) and `@e5` (a drop from the reserve).

use std::fmt;
use std::str::FromStr;

use board_core::MoveSyntaxError;

use crate::board::{MAX_HEIGHT, Square};

/// A move. Every move read from text (or generated) is geometrically sound:
/// a stack move goes 1 to 5 squares in a straight orthogonal line between two
/// squares of the board; [`Game::resolve_move`](board_core::Game::resolve_move)
/// refuses a stack move built in code that is not.
///
/// ```
/// use focus::prelude::*;
///
/// let mv: Move = "c5-c1".parse()?;
/// assert_eq!(mv.piece_count(), 4);
/// assert_eq!(mv.to(), "c1".parse()?);
/// assert_eq!("@e5".parse::<Move>()?.to_string(), "@e5");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Move the top `distance(from, to)` pieces of the stack on `from` onto `to`.
    Stack {
        /// Where the stack stands.
        from: Square,
        /// Where the moved pieces land.
        to: Square,
    },
    /// Put one piece from the mover's reserve on `to`.
    Drop {
        /// Where the piece lands.
        to: Square,
    },
}

impl Move {
    /// The square the pieces land on.
    pub const fn to(self) -> Square {
        match self {
            Move::Stack { to, .. } | Move::Drop { to } => to,
        }
    }

    /// How many pieces the move puts on its destination (1 for a drop).
    pub const fn piece_count(self) -> usize {
        match self {
            Move::Stack { from, to } => distance(from, to),
            Move::Drop { .. } => 1,
        }
    }

    /// The same move reflected through the centre of the board.
    #[must_use]
    pub const fn mirrored(self) -> Move {
        match self {
            Move::Stack { from, to } => Move::Stack { from: from.mirrored(), to: to.mirrored() },
            Move::Drop { to } => Move::Drop { to: to.mirrored() },
        }
    }
}

/// A move as read from text: a [`Move`] itself, since the notation gives
/// every move in full; reading checks the squares and the geometry (one file
/// or rank, 1 to 5 squares apart), and
/// [`Game::resolve_move`](board_core::Game::resolve_move) the position
/// (own stack, tall enough, a piece in reserve).
pub type MoveText = Move;

/// The number of squares between two squares on one file or rank.
pub(crate) const fn distance(from: Square, to: Square) -> usize {
    (from.file().abs_diff(to.file()) + from.rank().abs_diff(to.rank())) as usize
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Stack { from, to } => write!(f, "{from}-{to}"),
            Move::Drop { to } => write!(f, "@{to}"),
        }
    }
}

/// Reads the notation (first stage: the squares and the geometry; whether the
/// move is legal is checked by [`Game::resolve_move`](board_core::Game::resolve_move)).
impl FromStr for Move {
    type Err = MoveSyntaxError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let square = |name: &str| {
            name.parse::<Square>().map_err(|e| MoveSyntaxError::new(text, e.to_string()))
        };
        // The source writes a drop with a Cyrillic Р ("резерв"); read it too.
        if let Some(to) = text.strip_prefix('@').or_else(|| text.strip_prefix(['Р', 'р'])) {
            return Ok(Move::Drop { to: square(to)? });
        }
        let Some((from, to)) = text.split_once('-') else {
            return Err(MoveSyntaxError::new(
                text,
                "expected a stack move like c5-c1 or a drop like @e5",
            ));
        };
        let (from, to) = (square(from)?, square(to)?);
        if from.file() != to.file() && from.rank() != to.rank() {
            return Err(MoveSyntaxError::new(
                text,
                format!("{from} and {to} are not on one file or rank"),
            ));
        }
        match distance(from, to) {
            0 => Err(MoveSyntaxError::new(text, "a stack move must leave its square")),
            d if d > MAX_HEIGHT => Err(MoveSyntaxError::new(
                text,
                format!("moving {d} squares needs {d} pieces, but stacks hold at most 5"),
            )),
            _ => Ok(Move::Stack { from, to }),
        }
    }
}
