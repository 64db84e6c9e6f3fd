//! The error of reading a protocol line, and how errors quote what they read.

use std::borrow::Cow;
use std::error::Error;
use std::fmt;

/// The most characters of the input an error message quotes.
const QUOTE_CHARS: usize = 80;
/// The most characters of a whole error message, whatever a library quoted.
#[cfg(feature = "engine")]
const MESSAGE_CHARS: usize = 400;

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

/// `text` as an error message quotes it: whole if short, else its first
/// 80 characters and `…`, so a huge bad line is not echoed back in full.
pub(crate) fn quote(text: &str) -> Cow<'_, str> {
    cut(text, QUOTE_CHARS)
}

/// An error message cut to 400 characters: the last guard against a long
/// quote inside a library's message.
#[cfg(feature = "engine")]
pub(crate) fn capped(message: &str) -> Cow<'_, str> {
    cut(message, MESSAGE_CHARS)
}

fn cut(text: &str, chars: usize) -> Cow<'_, str> {
    match text.char_indices().nth(chars) {
        Some((end, _)) => Cow::Owned(format!("{}…", &text[..end])),
        None => Cow::Borrowed(text),
    }
}

/// `message` (from a library that quotes `input` in full) with every copy of
/// a long `input` cut as [`quote`] cuts it.
#[cfg(feature = "engine")]
pub(crate) fn quoting(message: &str, input: &str) -> String {
    match quote(input) {
        Cow::Owned(short) => message.replace(input, &short),
        Cow::Borrowed(_) => message.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_input_is_cut_short_input_kept() {
        assert_eq!(quote("c4"), "c4");
        let exact = "é".repeat(QUOTE_CHARS);
        assert_eq!(quote(&exact), exact);
        let long = "é".repeat(QUOTE_CHARS + 1);
        assert_eq!(quote(&long), format!("{exact}…"));
    }

    #[cfg(feature = "engine")]
    #[test]
    fn a_library_message_quotes_input_short() {
        let exact = "é".repeat(QUOTE_CHARS);
        let long = "é".repeat(QUOTE_CHARS + 1);
        assert_eq!(
            quoting(&format!("bad move '{long}': no"), &long),
            format!("bad move '{exact}…': no")
        );
        assert_eq!(quoting("bad move 'c4'", "c4"), "bad move 'c4'");
    }
}
