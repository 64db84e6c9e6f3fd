//! Moves and their notation: `a1-a5` (quiet) and `a1-h1xd5` (capture).

use std::fmt;
use std::str::FromStr;

use board_core::MoveSyntaxError;

use crate::Square;

/// A move: a quiet rook move, or a capture by reflection off the board edge.
///
/// `Display` gives the notation, `FromStr` reads it back (syntax only: whether
/// the move is legal is decided against a position by
/// [`Game::resolve_move`](board_core::Game::resolve_move)).
///
/// ```
/// use otrazhenie::prelude::*;
/// let mv: Move = "a1-h1xd5".parse()?;
/// assert_eq!(mv.from(), "a1".parse::<Square>()?);
/// assert_eq!(mv.to(), "d5".parse::<Square>()?);
/// assert!(mv.is_capture());
/// assert_eq!(mv.to_string(), "a1-h1xd5");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A rook move through empty squares onto an empty square, written `a1-a5`.
    Quiet {
        /// Where the checker starts.
        from: Square,
        /// Where it stops.
        to: Square,
    },
    /// A slide to the edge, a reflection onto a diagonal, and the capture of the
    /// first checker met there, written `a1-h1xd5`.
    Capture {
        /// Where the checker starts.
        from: Square,
        /// The last square before the boundary, where it is reflected.
        edge: Square,
        /// The captured enemy checker's square, where the checker stops.
        target: Square,
    },
}

/// A move as read from text ([`Game::MoveText`](board_core::Game::MoveText)):
/// the move itself, since its notation names every square of it. Whether it
/// is legal is decided by [`Game::resolve_move`](board_core::Game::resolve_move).
pub type MoveText = Move;

impl Move {
    /// The square the checker leaves.
    pub const fn from(self) -> Square {
        match self {
            Move::Quiet { from, .. } | Move::Capture { from, .. } => from,
        }
    }

    /// The square the checker stops on (the captured square for a capture).
    pub const fn to(self) -> Square {
        match self {
            Move::Quiet { to, .. } => to,
            Move::Capture { target, .. } => target,
        }
    }

    /// Whether the move captures.
    pub const fn is_capture(self) -> bool {
        matches!(self, Move::Capture { .. })
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Quiet { from, to } => write!(f, "{from}-{to}"),
            Move::Capture { from, edge, target } => write!(f, "{from}-{edge}x{target}"),
        }
    }
}

impl FromStr for Move {
    type Err = MoveSyntaxError;

    /// Reads `a1-a5` or `a1-h1xd5` (letters in either case).
    fn from_str(text: &str) -> Result<Move, MoveSyntaxError> {
        let error = |reason: String| MoveSyntaxError::new(text, reason);
        let square = |name: &str| {
            name.parse::<Square>().map_err(|_| {
                if name.is_empty() {
                    error("a square name is missing (expected a1-a5 or a1-h1xd5)".to_owned())
                } else {
                    error(format!("{name} is not a square (files a-h, ranks 1-8)"))
                }
            })
        };
        let Some((from, rest)) = text.split_once('-') else {
            return Err(error("expected '-' after the first square, as in a1-a5".to_owned()));
        };
        let from = square(from)?;
        match rest.split_once(['x', 'X']) {
            None => Ok(Move::Quiet { from, to: square(rest)? }),
            Some((edge, target)) => {
                Ok(Move::Capture { from, edge: square(edge)?, target: square(target)? })
            }
        }
    }
}
