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

/// Reads a game record. Tags (`[Name "value"]`), comments (`{...}` and `;` to
/// the end of the line), NAGs (`$1`), move numbers (`12.`, `12...`, or glued
/// as in `1.ba5`), annotation tokens made of `!` and `?`, and the annotation
/// words `Д.` and `Пр.` are dropped; trailing `!` and `?` are cut from moves;
/// `1-0`, `0-1`, `1/2-1/2` or `*` ends the record. Every other token is a
/// move, so a misspelt one (say in full-width or Cyrillic letters) reaches the
/// game's move parser and is refused there, never silently skipped.
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
    let mut rest = text;
    let mut number = 0;
    loop {
        rest = rest.trim_start();
        let Some(first) = rest.chars().next() else { return Ok(record) };
        match first {
            '{' => {
                let end = rest.find('}').ok_or(MovetextError::Unclosed { what: "comment" })?;
                rest = &rest[end + 1..];
            }
            ';' => rest = rest.find('\n').map_or("", |end| &rest[end..]),
            '[' => {
                let end = rest.find(']').ok_or(MovetextError::Unclosed { what: "tag" })?;
                record.tags.push(tag(&rest[1..end])?);
                rest = &rest[end + 1..];
            }
            _ => {
                let end = rest.find(|c: char| c.is_whitespace() || c == '{').unwrap_or(rest.len());
                let (token, after) = rest.split_at(end);
                rest = after;
                number += 1;
                if record.result.is_some() {
                    return Err(MovetextError::AfterResult { number, token: token.to_owned() });
                }
                if RESULTS.contains(&token) {
                    record.result = Some(token);
                } else if let Some(mv) = move_of(token) {
                    record.moves.push(mv);
                }
            }
        }
    }
}

/// `Name "value"` (the inside of a tag), the value unescaped.
fn tag(inside: &str) -> Result<(&str, String), MovetextError> {
    let bad = || MovetextError::BadTag(format!("[{inside}]"));
    let (name, value) = inside.trim().split_once(char::is_whitespace).ok_or_else(bad)?;
    let value = value.trim().strip_prefix('"').and_then(|v| v.strip_suffix('"')).ok_or_else(bad)?;
    let mut unescaped = String::with_capacity(value.len());
    let mut chars = value.chars();
    while let Some(c) = chars.next() {
        unescaped.push(if c == '\\' { chars.next().ok_or_else(bad)? } else { c });
    }
    Ok((name, unescaped))
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
    use super::{MovetextError, read_movetext};

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
