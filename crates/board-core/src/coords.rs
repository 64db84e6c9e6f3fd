//! Square names and two-colour piece placements on rectangular boards: files
//! `a`.., ranks `1`...
//!
//! Shared by the games on square grids (8x8, 9x9); each game keeps its own
//! square type and uses these to read and write names.

use std::fmt;

use crate::{Player, PositionError};

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

/// Reads the piece placement of a FEN-like position text, for games whose
/// pieces are single checkers of two colours (otrazhenie, stykovka, city):
/// the ranks from the top down, separated by `/`, each from the a-file, with
/// `W` for a first player's piece, `B` for a second player's, a digit 1-9 for
/// that many empty squares (runs of digits add up) and `.` for one empty
/// square. Fills `board`, indexed `rank * files + file` (zero-based).
///
/// ```
/// use board_core::{Player, coords::{parse_placement, placement}};
/// let mut board = [None; 9];
/// parse_placement("W1B/3/.W.", 3, 3, &mut board)?;
/// assert_eq!(board[6], Some(Player::First)); // a3
/// assert_eq!(board[1], Some(Player::First)); // b1
/// assert_eq!(placement(3, 3, |file, rank| board[usize::from(rank * 3 + file)]).to_string(), "W1B/3/1W1");
/// # Ok::<(), board_core::PositionError>(())
/// ```
///
/// # Errors
/// [`PositionError`] naming the rank and what is wrong with it.
///
/// # Panics
/// If `board` has fewer than `files * ranks` squares (a caller's mistake,
/// not the text's).
pub fn parse_placement(
    text: &str,
    files: u8,
    ranks: u8,
    board: &mut [Option<Player>],
) -> Result<(), PositionError> {
    assert!(board.len() >= usize::from(files) * usize::from(ranks), "board too small");
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != usize::from(ranks) {
        return Err(PositionError::new(format!(
            "expected {ranks} ranks separated by '/', found {}",
            rows.len()
        )));
    }
    for (rank, row) in (0..ranks).rev().zip(rows) {
        let mut file = 0u32;
        for c in row.chars() {
            let (owner, run) = match c {
                'W' => (Some(Player::First), 1),
                'B' => (Some(Player::Second), 1),
                '.' => (None, 1),
                '1'..='9' => (None, c.to_digit(10).unwrap_or(1)),
                _ => {
                    return Err(PositionError::new(format!(
                        "unexpected '{}' in rank {} (use W, B, '.' and digits 1-9)",
                        c.escape_debug(),
                        rank + 1
                    )));
                }
            };
            if file + run > u32::from(files) {
                return Err(PositionError::new(format!(
                    "rank {} has more than {files} squares",
                    rank + 1
                )));
            }
            for f in file..file + run {
                board[usize::from(rank) * usize::from(files) + f as usize] = owner;
            }
            file += run;
        }
        if file != u32::from(files) {
            return Err(PositionError::new(format!(
                "rank {} has {file} squares, expected {files}",
                rank + 1
            )));
        }
    }
    Ok(())
}

/// Writes a placement as [`parse_placement`] reads it, runs of empty squares
/// as numbers; `owner(file, rank)` (zero-based) says what stands where.
pub fn placement(
    files: u8,
    ranks: u8,
    owner: impl Fn(u8, u8) -> Option<Player>,
) -> impl fmt::Display {
    Placement { files, ranks, owner }
}

struct Placement<F> {
    files: u8,
    ranks: u8,
    owner: F,
}

impl<F: Fn(u8, u8) -> Option<Player>> fmt::Display for Placement<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..self.ranks).rev() {
            let mut empty = 0;
            for file in 0..self.files {
                match (self.owner)(file, rank) {
                    None => empty += 1,
                    Some(player) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        f.write_str(if player == Player::First { "W" } else { "B" })?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        Ok(())
    }
}
