//! The error of reading a protocol line.

use std::error::Error;
use std::fmt;

/// A line that is not a valid message, with a message saying why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    message: String,
}

impl ParseError {
    /// An error saying what is wrong (e.g. `"go: bad value 'x' for depth"`).
    pub fn new(message: impl Into<String>) -> Self {
        ParseError { message: message.into() }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl Error for ParseError {}
