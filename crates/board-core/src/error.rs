//! One error type per operation, each with a message that says what was wrong.

use std::error::Error;
use std::fmt;

/// A position text that could not be read or does not describe a legal position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    message: String,
}

impl PositionError {
    /// An error with a message saying what is wrong and where
    /// (e.g. `"rank 3 has 9 squares, expected 8"`).
    pub fn new(message: impl Into<String>) -> Self {
        PositionError { message: message.into() }
    }

    /// What is wrong, without the `invalid position:` prefix.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid position: {}", self.message)
    }
}

impl Error for PositionError {}

/// A text that names no cell of the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellError {
    text: String,
    reason: &'static str,
}

impl CellError {
    /// `text` names no cell because of `reason` (e.g. `"no such square"`).
    pub fn new(text: &str, reason: &'static str) -> Self {
        CellError { text: text.to_owned(), reason }
    }

    /// The text that was read.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for CellError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot read cell '{}': {}", self.text, self.reason)
    }
}

impl Error for CellError {}

/// A move text whose syntax is wrong (first stage of move parsing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveSyntaxError {
    text: String,
    reason: String,
}

impl MoveSyntaxError {
    /// `text` could not be read as a move because of `reason`.
    pub fn new(text: &str, reason: impl Into<String>) -> Self {
        MoveSyntaxError { text: text.to_owned(), reason: reason.into() }
    }

    /// The text that was read.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for MoveSyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot read move '{}': {}", self.text, self.reason)
    }
}

impl Error for MoveSyntaxError {}

/// A move that is not legal in the position (second stage of move parsing, and
/// [`Game::play`](crate::Game::play)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMoveError {
    /// The game is over; no move is legal.
    GameOver {
        /// The move as given.
        text: String,
    },
    /// The move is not among the legal moves.
    NotLegal {
        /// The move as given.
        text: String,
        /// Why, e.g. `"no piece of the side to move on c3"`; may be generic.
        reason: String,
    },
    /// A short notation fits more than one legal move.
    Ambiguous {
        /// The move as given.
        text: String,
        /// The legal moves it could mean, in full notation.
        candidates: Vec<String>,
    },
}

impl IllegalMoveError {
    /// `text` is not legal here because of `reason`.
    pub fn not_legal(text: impl Into<String>, reason: impl Into<String>) -> Self {
        IllegalMoveError::NotLegal { text: text.into(), reason: reason.into() }
    }
}

impl fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMoveError::GameOver { text } => {
                write!(f, "illegal move '{text}': the game is over")
            }
            IllegalMoveError::NotLegal { text, reason } => {
                write!(f, "illegal move '{text}': {reason}")
            }
            IllegalMoveError::Ambiguous { text, candidates } => {
                write!(f, "ambiguous move '{text}': could be {}", candidates.join(", "))
            }
        }
    }
}

impl Error for IllegalMoveError {}

/// Either stage of reading a move from text failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move at all.
    Syntax(MoveSyntaxError),
    /// The text is a move, but not a legal one here.
    Illegal(IllegalMoveError),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(e) => e.fmt(f),
            MoveError::Illegal(e) => e.fmt(f),
        }
    }
}

impl Error for MoveError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            MoveError::Syntax(e) => Some(e),
            MoveError::Illegal(e) => Some(e),
        }
    }
}

impl From<MoveSyntaxError> for MoveError {
    fn from(e: MoveSyntaxError) -> Self {
        MoveError::Syntax(e)
    }
}

impl From<IllegalMoveError> for MoveError {
    fn from(e: IllegalMoveError) -> Self {
        MoveError::Illegal(e)
    }
}

/// A variant name the game does not have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant {
    /// The game's name.
    pub game: &'static str,
    /// The name that was asked for.
    pub variant: String,
    /// The game's variants, default first.
    pub known: &'static [&'static str],
}

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} has no variant '{}' (variants: {})",
            self.game,
            self.variant,
            self.known.join(", ")
        )
    }
}

impl Error for UnknownVariant {}

/// A game name no registry knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGame {
    /// The name that was asked for.
    pub name: String,
    /// The games there are.
    pub known: Vec<&'static str>,
}

impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown game '{}' (games: {})", self.name, self.known.join(", "))
    }
}

impl Error for UnknownGame {}

impl From<UnknownVariant> for PositionError {
    fn from(e: UnknownVariant) -> Self {
        PositionError::new(e.to_string())
    }
}
