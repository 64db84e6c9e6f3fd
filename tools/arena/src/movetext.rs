//! Reading a game record as people and the arena write it: PGN-style tags,
//! `{comments}`, move numbers, annotations and a result token around the moves.

use std::error::Error;
use std::fmt;

/// Tokens that annotate a move in the Russian sources and are not moves.
const ANNOTATION_WORDS: [&str; 2] = ["Д.", "Пр."];
/// Result tokens; one ends the record.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// The parts of a game record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Movetext<'a> {
    /// `[Name "value"]` tags, in order, values unescaped.
    pub tags: Vec<(&'a str, String)>,
    /// The move tokens, cleaned of move numbers and trailing `!`/`?`; not
    /// checked against any game.
    pub moves: Vec<&'a str>,
    /// The result token, if the record has one.
    pub result: Option<&'a str>,
}

impl Movetext<'_> {
    /// The value of tag `name` (case-insensitive), if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// Why a game record could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MovetextError {
    /// A `{` comment or `[` tag with no end.
    Unclosed {
        /// `comment` or `tag`.
        what: &'static str,
    },
    /// A tag that is not `[Name "value"]`.
    BadTag(String),
    /// A token after the result token (token number from 1, counting every
    /// token of the movetext).
    AfterResult {
        /// Its number.
        number: usize,
        /// The token.
        token: String,
    },
}

impl fmt::Display for MovetextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MovetextError::Unclosed { what } => write!(f, "a {what} is not closed"),
            MovetextError::BadTag(tag) => write!(f, "'{tag}' is not a [Name \"value\"] tag"),
            MovetextError::AfterResult { number, token } => {
                write!(f, "token {number} ('{token}') comes after the result: one game per record")
            }
        }
    }
}

impl Error for MovetextError {}

/// One token of a game record, as [`MovetextScanner`] finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token<'a> {
    /// A `[Name "value"]` tag, the value unescaped.
    Tag(&'a str, String),
    /// A move, cleaned of its move number and trailing `!`/`?`; not checked
    /// against any game.
    Move(&'a str),
    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `*`), which ends the record.
    Result(&'a str),
}

/// Reads a game record piece by piece — a line at a time as it arrives, or
/// all of it at once — so a long record is checked as it is read, never
/// held whole. It keeps what spans pieces: a `{comment}` still open, whether
/// the result has come, how many tokens there were. A byte-order mark at the
/// very start is dropped; a tag must end in the piece it starts in.
///
/// ```
/// use arena::{MovetextScanner, Token};
/// let mut scanner = MovetextScanner::default();
/// let mut moves = Vec::new();
/// for line in ["\u{feff}[Game \"focus\"]", "1. a1-a5 {a comment", "over two lines} h8-h6 *"] {
///     for token in scanner.tokens(line) {
///         if let Token::Move(mv) = token.unwrap() {
///             moves.push(mv.to_owned());
///         }
///     }
/// }
/// scanner.finish().unwrap();
/// assert_eq!(moves, ["a1-a5", "h8-h6"]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct MovetextScanner {
    started: bool,
    in_comment: bool,
    ended: bool,
    number: usize,
}

impl MovetextScanner {
    /// The tokens of the next piece of the record, in order. Tags
    /// (`[Name "value"]`), comments (`{...}`, across pieces, and `;` to the
    /// end of the line), NAGs (`$1`), move numbers (`12.`, `12...`, or glued
    /// as in `1.ba5`), annotation tokens made of `!` and `?`, and the
    /// annotation words `Д.` and `Пр.` are no moves; trailing `!` and `?` are
    /// cut from moves; `1-0`, `0-1`, `1/2-1/2` or `*` ends the record. Every
    /// other token is a move, so a misspelt one (say in full-width or
    /// Cyrillic letters) reaches the game's move parser and is refused there,
    /// never silently skipped. After an error the piece yields nothing more.
    pub fn tokens<'s, 'a>(&'s mut self, piece: &'a str) -> Tokens<'s, 'a> {
        let piece =
            if self.started { piece } else { piece.strip_prefix('\u{feff}').unwrap_or(piece) };
        self.started = true;
        Tokens { scanner: self, rest: piece }
    }

    /// Checks the end of the record.
    ///
    /// # Errors
    /// A `{` comment that was never closed.
    pub fn finish(&self) -> Result<(), MovetextError> {
        if self.in_comment {
            return Err(MovetextError::Unclosed { what: "comment" });
        }
        Ok(())
    }
}

/// The tokens of one piece of a record: see [`MovetextScanner::tokens`].
#[derive(Debug)]
pub struct Tokens<'s, 'a> {
    scanner: &'s mut MovetextScanner,
    rest: &'a str,
}

impl<'a> Iterator for Tokens<'_, 'a> {
    type Item = Result<Token<'a>, MovetextError>;

    fn next(&mut self) -> Option<Self::Item> {
        let result = self.step();
        if matches!(result, Some(Err(_))) {
            self.rest = "";
        }
        result
    }
}

impl<'a> Tokens<'_, 'a> {
    fn step(&mut self) -> Option<Result<Token<'a>, MovetextError>> {
        loop {
            if self.scanner.in_comment {
                let Some(end) = self.rest.find('}') else {
                    self.rest = "";
                    return None;
                };
                self.rest = &self.rest[end + 1..];
                self.scanner.in_comment = false;
            }
            self.rest = self.rest.trim_start();
            let rest = self.rest;
            match rest.chars().next()? {
                '{' => {
                    self.rest = &rest[1..];
                    self.scanner.in_comment = true;
                }
                ';' => self.rest = rest.find('\n').map_or("", |end| &rest[end..]),
                '[' => {
                    let (name, value, len) = match tag(rest) {
                        Ok(tag) => tag,
                        Err(e) => return Some(Err(e)),
                    };
                    self.rest = &rest[len..];
                    return Some(Ok(Token::Tag(name, value)));
                }
                _ => {
                    let end =
                        rest.find(|c: char| c.is_whitespace() || c == '{').unwrap_or(rest.len());
                    let (token, after) = rest.split_at(end);
                    self.rest = after;
                    self.scanner.number += 1;
                    if self.scanner.ended {
                        let number = self.scanner.number;
                        return Some(Err(MovetextError::AfterResult {
                            number,
                            token: token.to_owned(),
                        }));
                    }
                    if RESULTS.contains(&token) {
                        self.scanner.ended = true;
                        return Some(Ok(Token::Result(token)));
                    }
                    if let Some(mv) = move_of(token) {
                        return Some(Ok(Token::Move(mv)));
                    }
                }
            }
        }
    }
}

/// Reads a whole game record at once (see [`MovetextScanner::tokens`] for
/// what is a move).
///
/// # Errors
/// An unclosed comment or tag, a bad tag, a token after the result.
///
/// ```
/// let text = "[Game \"focus\"]\n1. a1-a5 {book} h8-h6!? 2... Д. b2-b3 1/2-1/2";
/// let record = arena::read_movetext(text).unwrap();
/// assert_eq!(record.moves, ["a1-a5", "h8-h6", "b2-b3"]);
/// assert_eq!(record.tag("game"), Some("focus"));
/// assert_eq!(record.result, Some("1/2-1/2"));
/// ```
pub fn read_movetext(text: &str) -> Result<Movetext<'_>, MovetextError> {
    let mut record = Movetext::default();
    let mut scanner = MovetextScanner::default();
    for token in scanner.tokens(text) {
        match token? {
            Token::Tag(name, value) => record.tags.push((name, value)),
            Token::Move(mv) => record.moves.push(mv),
            Token::Result(result) => record.result = Some(result),
        }
    }
    scanner.finish()?;
    Ok(record)
}

/// The tag at the start of `text` (which starts with `[`): its name, its
/// value unescaped, and the bytes it takes. A `]` or `"` inside the quoted
/// value (escaped as `\"`) is part of it.
fn tag(text: &str) -> Result<(&str, String, usize), MovetextError> {
    let bad = || {
        let end = text.find(']').map_or(text.len(), |i| i + 1);
        MovetextError::BadTag(text[..end].to_owned())
    };
    if !text.contains(']') {
        return Err(MovetextError::Unclosed { what: "tag" });
    }
    let inside = text[1..].trim_start();
    let name_len =
        inside.find(|c: char| c.is_whitespace() || c == '"' || c == ']').ok_or_else(bad)?;
    let (name, after) = inside.split_at(name_len);
    let quoted =
        after.trim_start().strip_prefix('"').filter(|_| !name.is_empty()).ok_or_else(bad)?;
    let mut value = String::new();
    let mut chars = quoted.char_indices();
    let close = loop {
        match chars.next().ok_or_else(bad)? {
            (i, '"') => break i,
            (_, '\\') => value.push(chars.next().ok_or_else(bad)?.1),
            (_, c) => value.push(c),
        }
    };
    let tail = &quoted[close + 1..];
    let end = tail.trim_start().strip_prefix(']').ok_or_else(bad)?;
    Ok((name, value, text.len() - end.len()))
}

/// The move in `token`, or `None` for a move number, a NAG or an annotation.
fn move_of(token: &str) -> Option<&str> {
    let digits = token.trim_start_matches(|c: char| c.is_ascii_digit());
    let numbered = digits.len() < token.len() && digits.starts_with('.');
    let token = if numbered { digits.trim_start_matches('.') } else { token };
    let nag = token.strip_prefix('$').is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()));
    let mv = token.trim_end_matches(['!', '?']);
    (!mv.is_empty() && !nag && !ANNOTATION_WORDS.contains(&mv)).then_some(mv)
}

#[cfg(test)]
mod tests {
    use super::{MovetextError, MovetextScanner, Token, read_movetext};

    #[test]
    fn numbers_annotations_and_comments_are_dropped() {
        let record =
            read_movetext("1.ba5 bc5 2. cb4! cd4?! 3... d:b2 Д. Пр. $3 4.c1-c3 {x} ;y\n@e5")
                .unwrap();
        assert_eq!(record.moves, ["ba5", "bc5", "cb4", "cd4", "d:b2", "c1-c3", "@e5"]);
        assert_eq!(record.result, None);
    }

    #[test]
    fn a_token_that_is_no_annotation_is_kept_for_the_game_to_judge() {
        // Full-width and Cyrillic letters: not moves of any notation here, but
        // only the game can say so; they must not vanish.
        let record = read_movetext("ａ1-ａ5 а1-а5 !? 12.").unwrap();
        assert_eq!(record.moves, ["ａ1-ａ5", "а1-а5"]);
    }

    #[test]
    fn the_arena_pgn_reads_back() {
        let text = "[Event \"igroteka arena\"]\n[FEN \"a \\\"b\\\"\"]\n\n1... h8-h6 2. a1-a5 \
                    {max plies: ply limit} 1/2-1/2\n";
        let record = read_movetext(text).unwrap();
        assert_eq!(record.tag("fen"), Some("a \"b\""));
        assert_eq!(record.moves, ["h8-h6", "a1-a5"]);
        assert_eq!(record.result, Some("1/2-1/2"));
    }

    /// The tokens of `pieces` read one after another, or the first error.
    fn scan(pieces: &[&'static str]) -> Result<Vec<Token<'static>>, MovetextError> {
        let mut scanner = MovetextScanner::default();
        let mut tokens = Vec::new();
        for piece in pieces {
            for token in scanner.tokens(piece) {
                tokens.push(token?);
            }
        }
        scanner.finish()?;
        Ok(tokens)
    }

    #[test]
    fn a_record_read_line_by_line_keeps_comments_and_the_result_across_lines() {
        let tokens = scan(&["\u{feff}[Event \"a ] b\"] a1", "{ open", "still } b2 1-0"]).unwrap();
        assert_eq!(
            tokens,
            [
                Token::Tag("Event", "a ] b".to_owned()),
                Token::Move("a1"),
                Token::Move("b2"),
                Token::Result("1-0")
            ]
        );
        // Only the very first byte-order mark is none of the record.
        assert_eq!(scan(&["a1", "\u{feff}b2"]).unwrap()[1], Token::Move("\u{feff}b2"));
        assert_eq!(
            scan(&["a1 1-0", "b2"]).map_err(|e| e.to_string()),
            Err("token 3 ('b2') comes after the result: one game per record".into())
        );
        assert_eq!(scan(&["a1 {", "x"]), Err(MovetextError::Unclosed { what: "comment" }));
        assert_eq!(scan(&["[Event \"x", "\"]"]), Err(MovetextError::Unclosed { what: "tag" }));
    }

    #[test]
    fn broken_records_are_refused() {
        assert_eq!(read_movetext("a1 {x"), Err(MovetextError::Unclosed { what: "comment" }));
        assert_eq!(read_movetext("[Event x]"), Err(MovetextError::BadTag("[Event x]".into())));
        assert_eq!(
            read_movetext("a1 1-0 b2").map_err(|e| e.to_string()),
            Err("token 3 ('b2') comes after the result: one game per record".into())
        );
    }
}
