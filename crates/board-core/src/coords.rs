//! Square names on rectangular boards: files `a`.., ranks `1`...
//!
//! Shared by the games on square grids (8x8, 9x9); each game keeps its own
//! square type and uses these to read and write names.

use std::fmt;

/// Reads a square name like `c5` (file letter, case-insensitive, then rank
/// number) on a board of `files` x `ranks`; returns zero-based `(file, rank)`.
///
/// ```
/// use board_core::coords::parse_square;
/// assert_eq!(parse_square("c5", 8, 8), Some((2, 4)));
/// assert_eq!(parse_square("i1", 8, 8), None);
/// assert_eq!(parse_square("a10", 8, 8), None);
/// ```
pub fn parse_square(text: &str, files: u8, ranks: u8) -> Option<(u8, u8)> {
    let mut chars = text.chars();
    let file_char = chars.next()?.to_ascii_lowercase();
    if !file_char.is_ascii_lowercase() {
        return None;
    }
    let file = file_char as u8 - b'a';
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let rank: u8 = digits.parse().ok()?;
    (file < files && (1..=ranks).contains(&rank)).then(|| (file, rank - 1))
}

/// Writes zero-based `(file, rank)` as a name like `c5`.
///
/// ```
/// assert_eq!(board_core::coords::square_name(2, 4).to_string(), "c5");
/// ```
pub fn square_name(file: u8, rank: u8) -> impl fmt::Display {
    SquareName(file, rank)
}

struct SquareName(u8, u8);

impl fmt::Display for SquareName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.0), u32::from(self.1) + 1)
    }
}
