//! Texts that travel inside a protocol line, checked when they are made so
//! that a message holding them always reads back as the same message.
//!
//! A line is split into words at every Unicode space (what `str::split_whitespace`
//! does), so a move written with a space in it (`"d2-d3 d7-d6"`, or with
//! U+00A0, U+2028, U+3000) would be read back as two moves: the GUI would
//! have played both plies. [`MoveToken`] is one word; [`PositionText`] is the
//! words of a position text with single spaces, never the keyword `moves`.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;
use std::str::FromStr;

use crate::ParseError;
use crate::error::quote;

/// One move as the protocol carries it (in `position ... moves`, `go
/// searchmoves`, `query islegal`, `bestmove`, an `info` line's `pv`): a
/// single word of printable characters, other than `(none)`, which
/// `bestmove` uses for "no move". Whether it is a legal move, or a move at
/// all, is the game's business.
///
/// ```
/// use protocol::MoveToken;
/// let mv = MoveToken::new("d2-d3").unwrap();
/// assert_eq!(mv, "d2-d3");
/// assert_eq!(
///     MoveToken::new("d2-d3 d7-d6").unwrap_err().to_string(),
///     "a move is one word: 'd2-d3 d7-d6' has a space (U+0020) at character 6"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MoveToken(String);

impl MoveToken {
    /// `text` as a move token.
    ///
    /// # Errors
    /// A [`ParseError`] saying what is wrong and where: empty text, a space
    /// or control character (naming it and its position), or `(none)`.
    pub fn new(text: impl Into<String>) -> Result<Self, ParseError> {
        let text = text.into();
        if text.is_empty() {
            return Err(ParseError::new("a move is one word: the move is empty"));
        }
        if let Some((at, c)) =
            text.chars().enumerate().find(|(_, c)| c.is_whitespace() || c.is_control())
        {
            let kind = if c.is_whitespace() { "space" } else { "control character" };
            return Err(ParseError::new(format!(
                "a move is one word: '{}' has a {kind} ({}) at character {}",
                quote(&text).escape_debug(),
                code_point(c),
                at + 1
            )));
        }
        if text == NO_MOVE {
            return Err(ParseError::new("'(none)' is the protocol's word for no move"));
        }
        Ok(MoveToken(text))
    }

    /// The move's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The move's text, owned.
    pub fn into_string(self) -> String {
        self.0
    }
}

/// What `bestmove` says when there is no move.
pub(crate) const NO_MOVE: &str = "(none)";

fn code_point(c: char) -> String {
    format!("U+{:04X}", u32::from(c))
}

/// The words of a position text (`position fen <text>`, `query fen`'s
/// answer), joined by single spaces: runs of spaces of any kind become one
/// space when it is made, so it prints as it reads back. It never holds the
/// word `moves` (in any case), which would end the text on the wire, nor a
/// control character.
///
/// ```
/// use protocol::PositionText;
/// let text = PositionText::new("x..o.....  x").unwrap();
/// assert_eq!(text, "x..o..... x");
/// assert!(PositionText::new("x..o..... x moves c2").is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PositionText(String);

impl PositionText {
    /// `text` as a position text, its spaces made single.
    ///
    /// # Errors
    /// A [`ParseError`] saying what is wrong: no text, the word `moves`, or
    /// a control character (naming it and where).
    pub fn new(text: &str) -> Result<Self, ParseError> {
        let mut words = Vec::new();
        for (n, word) in text.split_whitespace().enumerate() {
            if word.eq_ignore_ascii_case("moves") {
                return Err(ParseError::new(format!(
                    "a position text cannot hold the word 'moves' (word {}), which ends it in \
                     'position fen <text> moves ...'",
                    n + 1
                )));
            }
            if let Some(c) = word.chars().find(|c| c.is_control()) {
                return Err(ParseError::new(format!(
                    "a position text cannot hold a control character: word {} '{}' has {}",
                    n + 1,
                    quote(word).escape_debug(),
                    code_point(c)
                )));
            }
            words.push(word);
        }
        if words.is_empty() {
            return Err(ParseError::new("the position text is empty"));
        }
        Ok(PositionText(words.join(" ")))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

macro_rules! text_type {
    ($name:ident) => {
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl Deref for $name {
            type Target = str;
            fn deref(&self) -> &str {
                &self.0
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl Borrow<str> for $name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }

        impl FromStr for $name {
            type Err = ParseError;
            fn from_str(text: &str) -> Result<Self, ParseError> {
                $name::new(text)
            }
        }

        impl TryFrom<&str> for $name {
            type Error = ParseError;
            fn try_from(text: &str) -> Result<Self, ParseError> {
                $name::new(text)
            }
        }

        impl TryFrom<String> for $name {
            type Error = ParseError;
            fn try_from(text: String) -> Result<Self, ParseError> {
                $name::new(&*text)
            }
        }

        impl From<$name> for String {
            fn from(value: $name) -> String {
                value.0
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<String> for $name {
            fn eq(&self, other: &String) -> bool {
                self.0 == *other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }
    };
}

text_type!(MoveToken);
text_type!(PositionText);

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    #[test]
    fn a_move_is_one_printable_word() {
        for good in ["c4", "d2-d3", "a1-a5xh8", "пас", "16c", "e5:c3:a5"] {
            assert_eq!(MoveToken::new(good).map(String::from), Ok(good.to_owned()));
        }
        let error = |text: &str| MoveToken::new(text).unwrap_err().to_string();
        assert_eq!(error(""), "a move is one word: the move is empty");
        assert_eq!(error("(none)"), "'(none)' is the protocol's word for no move");
        assert_eq!(
            error("d2-d3\u{a0}d7-d6"),
            "a move is one word: 'd2-d3\\u{a0}d7-d6' has a space (U+00A0) at character 6"
        );
        assert_eq!(
            error("d2-d3\u{2028}d7-d6"),
            "a move is one word: 'd2-d3\\u{2028}d7-d6' has a space (U+2028) at character 6"
        );
        assert_eq!(
            error("\u{3000}c4"),
            "a move is one word: '\\u{3000}c4' has a space (U+3000) at character 1"
        );
        assert_eq!(
            error("c4\n"),
            "a move is one word: 'c4\\n' has a space (U+000A) at character 3"
        );
        assert_eq!(
            error("c\u{7}4"),
            "a move is one word: 'c\\u{7}4' has a control character (U+0007) at character 2"
        );
    }

    #[test]
    fn a_position_text_has_single_spaces_and_no_moves_word() {
        assert_eq!(
            PositionText::new(" a\u{a0}b\u{3000}\tc ").map(String::from),
            Ok("a b c".into())
        );
        let error = |text: &str| PositionText::new(text).unwrap_err().to_string();
        assert_eq!(error(" \u{2028} "), "the position text is empty");
        assert_eq!(
            error("8/8 w MOVES a1-a5"),
            "a position text cannot hold the word 'moves' (word 3), which ends it in \
             'position fen <text> moves ...'"
        );
        assert_eq!(
            error("8/8 w\u{0}"),
            "a position text cannot hold a control character: word 2 'w\\0' has U+0000"
        );
    }
}
