//! Board geometry: the 32 dark squares of the 8x8 board, the four diagonal
//! directions, and bitboards over the 64 squares (a1 = bit 0, b1 = bit 1, ...,
//! h8 = bit 63; only the dark bits are ever set).

use std::fmt;
use std::str::FromStr;

use board_core::coords::{parse_square, square_name};
use board_core::{Cell, CellError};

/// The dark squares (a1, c1, ..., b2, ...): those whose file and rank have the
/// same parity.
pub(crate) const DARK: u64 = 0xAA55_AA55_AA55_AA55;
const NOT_FILE_A: u64 = !0x0101_0101_0101_0101;
const NOT_FILE_H: u64 = !0x8080_8080_8080_8080;
/// White's half (ranks 1-4), where Black scores.
pub(crate) const LOWER_HALF: u64 = 0x0000_0000_FFFF_FFFF;
/// Rank 8, White's promotion row.
pub(crate) const RANK_8: u64 = 0xFF00_0000_0000_0000;
/// Rank 1, Black's promotion row.
pub(crate) const RANK_1: u64 = 0x0000_0000_0000_00FF;

/// A dark square of the board.
///
/// Squares are named as usual (`a1` bottom left from White's side, a dark
/// square); only the 32 dark squares exist for this game. Names are read in
/// any case (`"C3".parse::<Square>()` is c3).
///
/// Its [`Cell::index`] is the grid index `rank * 8 + file` (zero-based: a1 = 0,
/// c1 = 2, b2 = 9, h8 = 63), below [`Cell::INDEX_BOUND`] = 64; the 32 light
/// squares are holes that no `Square` has. [`Cell::all`] gives the dark squares
/// in index order a1, c1, e1, g1, b2, ..., h8, the order of the position text.
///
/// ```
/// use adiyukh::prelude::*;
/// let c3: Square = "C3".parse()?;
/// assert_eq!((c3.to_string(), c3.index()), ("c3".to_owned(), 18));
/// assert_eq!(Square::from_index(18), Some(c3));
/// assert_eq!(Square::from_index(1), None); // b1 is light
/// assert!("b1".parse::<Square>().is_err());
/// assert_eq!(Square::all().count(), 32);
/// # Ok::<(), CellError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square on zero-based `file` (a = 0) and `rank` (1 = 0), if it is a
    /// dark square of the board.
    ///
    /// ```
    /// use adiyukh::Square;
    /// assert_eq!(Square::new(0, 0).map(|s| s.to_string()), Some("a1".to_owned()));
    /// assert_eq!(Square::new(1, 0), None); // b1 is light
    /// ```
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 && (file + rank).is_multiple_of(2) {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// Zero-based file (a = 0).
    pub const fn file(self) -> u8 {
        self.0 % 8
    }

    /// Zero-based rank (rank 1 = 0).
    pub const fn rank(self) -> u8 {
        self.0 / 8
    }

    /// The square of bit `bit` (0..64, the grid index); the caller
    /// guarantees it is dark.
    pub(crate) const fn from_bit(bit: u32) -> Square {
        Square(bit as u8)
    }

    /// The square of slot `slot` (0..32), the dense numbering of dark squares.
    pub(crate) const fn from_slot(slot: u8) -> Square {
        let rank = slot / 4;
        let file = (slot % 4) * 2 + rank % 2;
        Square(rank * 8 + file)
    }

    /// The dense number 0..32 of this dark square (`index / 2`).
    pub(crate) const fn slot(self) -> usize {
        (self.0 >> 1) as usize
    }

    /// This square as a bitboard.
    pub(crate) const fn bit(self) -> u64 {
        1 << self.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        square_name(self.file(), self.rank()).fmt(f)
    }
}

/// Why a text is no square.
const NOT_A_SQUARE: &str = "not a square of the 8x8 board";
/// Why a light square's name is no square.
const LIGHT_SQUARE: &str = "a light square (only the 32 dark squares are used)";

impl FromStr for Square {
    type Err = CellError;

    /// Reads a dark square's name such as `c3`, in any case.
    fn from_str(text: &str) -> Result<Square, CellError> {
        match parse_square(text, 8, 8) {
            None => Err(CellError::new(text, NOT_A_SQUARE)),
            Some((file, rank)) => {
                Square::new(file, rank).ok_or_else(|| CellError::new(text, LIGHT_SQUARE))
            }
        }
    }
}

/// What the move and position texts say when `text` is no square: `'z9' is
/// not a square` or `b1 is a light square (only dark squares are used)`.
pub(crate) fn square_error(error: &CellError) -> String {
    let text = error.text();
    if parse_square(text, 8, 8).is_some() {
        format!("{text} is a light square (only dark squares are used)")
    } else {
        format!("'{text}' is not a square")
    }
}

impl Cell for Square {
    /// The 64 squares of the grid; the light ones are holes.
    const INDEX_BOUND: usize = 64;

    /// The grid index `rank * 8 + file` (a1 = 0, h8 = 63); the bit of the
    /// square in the crate's bitboards.
    fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The dark square with grid index `index`; `None` for a light square or
    /// an index of 64 or more.
    fn from_index(index: usize) -> Option<Square> {
        let index = u8::try_from(index).ok().filter(|&i| i < 64)?;
        Square::new(index % 8, index / 8)
    }

    /// The 32 dark squares in index order (a1, c1, e1, g1, b2, ..., h8),
    /// without testing the 32 light ones.
    fn all() -> impl Iterator<Item = Square> {
        (0..32u8).map(Square::from_slot)
    }
}

/// A diagonal direction, as a number 0..4: NE, NW, SE, SW. Opposite
/// directions add up to 3.
pub(crate) type Dir = usize;

/// No direction yet (the first jump of a capture may go anywhere).
pub(crate) const NO_DIR: Dir = 4;

/// The direction straight back along the same diagonal.
pub(crate) const fn opposite(dir: Dir) -> Dir {
    3 - dir
}

/// `bb` moved one step in `dir`, dropping what falls off the board.
#[inline(always)]
pub(crate) const fn shift(bb: u64, dir: Dir) -> u64 {
    match dir {
        0 => (bb & NOT_FILE_H) << 9,
        1 => (bb & NOT_FILE_A) << 7,
        2 => (bb & NOT_FILE_H) >> 7,
        _ => (bb & NOT_FILE_A) >> 9,
    }
}

/// The direction from `from` to `to` if they share a diagonal.
pub(crate) fn direction(from: Square, to: Square) -> Option<Dir> {
    let df = i32::from(to.file()) - i32::from(from.file());
    let dr = i32::from(to.rank()) - i32::from(from.rank());
    if df == 0 || df.abs() != dr.abs() {
        return None;
    }
    Some(match (df > 0, dr > 0) {
        (true, true) => 0,
        (false, true) => 1,
        (true, false) => 2,
        (false, false) => 3,
    })
}

/// The squares of `bb`, lowest first.
pub(crate) fn squares(mut bb: u64) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        (bb != 0).then(|| {
            let sq = Square::from_bit(bb.trailing_zeros());
            bb &= bb - 1;
            sq
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_and_squares_agree() {
        for (slot, sq) in Square::all().enumerate() {
            assert_eq!(sq.slot(), slot);
            assert_ne!(sq.bit() & DARK, 0, "{sq}");
        }
        assert_eq!(Square::all().map(|s| s.bit()).fold(0, |a, b| a | b), DARK);
    }

    #[test]
    fn shifts_stay_on_dark_squares_and_do_not_wrap() {
        for dir in 0..4 {
            assert_eq!(shift(DARK, dir) & !DARK, 0);
        }
        let h2: Square = "h2".parse().unwrap_or(Square(0));
        assert_eq!(shift(h2.bit(), 0), 0);
        assert_eq!(direction(h2, Square::from_slot(0)), None);
    }

    #[test]
    fn all_is_the_provided_order_and_indexes_are_bits() {
        let provided: Vec<Square> =
            (0..Square::INDEX_BOUND).filter_map(Square::from_index).collect();
        assert_eq!(Square::all().collect::<Vec<_>>(), provided);
        for sq in Square::all() {
            assert_eq!(1u64 << sq.index(), sq.bit());
            assert_eq!(Square::from_bit(sq.index() as u32), sq);
        }
        assert_eq!(Square::from_index(64), None);
        assert_eq!(Square::from_index(usize::MAX), None);
    }

    #[test]
    fn square_errors_say_why() {
        let light = "B1".parse::<Square>().unwrap_err();
        assert_eq!(square_error(&light), "B1 is a light square (only dark squares are used)");
        let none = "z9".parse::<Square>().unwrap_err();
        assert_eq!(square_error(&none), "'z9' is not a square");
        assert!(none.to_string().contains("not a square of the 8x8 board"));
    }
}
