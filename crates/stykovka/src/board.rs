//! The 8x8 board: squares, bitboards and the precomputed line geometry.

use std::fmt;
use std::str::FromStr;

use board_core::coords::{parse_square, square_name};
use board_core::{Cell, CellError};

/// A square of the 8x8 board, named `a1` to `h8` (read in any case: `"C5"`
/// is `c5`).
///
/// Its [`Cell::index`] is `rank * 8 + file`, zero-based: `a1` = 0, `b1` = 1,
/// ..., `h8` = 63, the bit of the square in the position's bitboards;
/// [`Cell::INDEX_BOUND`] is 64 and every index below it is a square.
///
/// ```
/// use stykovka::prelude::*;
///
/// let c5: Square = "c5".parse()?;
/// assert_eq!((c5.file(), c5.rank(), c5.index()), (2, 4, 34));
/// assert_eq!(Square::from_index(34), Some(c5));
/// assert!("i1".parse::<Square>().is_err());
/// # Ok::<(), CellError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The square on zero-based `file` (a = 0) and `rank` (1 = 0), if on the board.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 { Some(Square(rank * 8 + file)) } else { None }
    }

    /// The zero-based file (a = 0).
    pub const fn file(self) -> u8 {
        self.0 % 8
    }

    /// The zero-based rank (rank 1 = 0).
    pub const fn rank(self) -> u8 {
        self.0 / 8
    }

    /// The one-bit bitboard of this square.
    pub(crate) const fn bit(self) -> u64 {
        1 << self.0
    }

    /// The square of a bitboard's lowest set bit (`bits` must not be zero).
    pub(crate) const fn lowest(bits: u64) -> Square {
        Square(bits.trailing_zeros() as u8)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        square_name(self.file(), self.rank()).fmt(f)
    }
}

/// Reads a name like `c5`; the file letter may be upper case.
impl FromStr for Square {
    type Err = CellError;

    fn from_str(name: &str) -> Result<Square, CellError> {
        parse_square(name, 8, 8)
            .and_then(|(file, rank)| Square::new(file, rank))
            .ok_or_else(|| CellError::new(name, "no such square (a1 to h8)"))
    }
}

/// `index = rank * 8 + file`: `a1` = 0 up to `h8` = 63, no holes.
impl Cell for Square {
    const INDEX_BOUND: usize = 64;

    #[inline]
    fn index(self) -> usize {
        usize::from(self.0)
    }

    #[inline]
    fn from_index(index: usize) -> Option<Square> {
        u8::try_from(index).ok().filter(|&i| i < 64).map(Square)
    }
}

/// The eight directions as `(file step, rank step)`: orthogonals then diagonals.
pub(crate) const DIRECTIONS: [(i8, i8); 8] =
    [(0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1)];

/// The index step of each direction in [`DIRECTIONS`].
const STEPS: [i8; 8] = {
    let mut steps = [0; 8];
    let mut d = 0;
    while d < 8 {
        steps[d] = DIRECTIONS[d].1 * 8 + DIRECTIONS[d].0;
        d += 1;
    }
    steps
};

/// The direction index and distance from `from` to `to` when they lie on one
/// line (orthogonal or diagonal) and differ.
pub(crate) fn line_between(from: Square, to: Square) -> Option<(usize, u8)> {
    let df = i16::from(to.file()) - i16::from(from.file());
    let dr = i16::from(to.rank()) - i16::from(from.rank());
    if (df, dr) == (0, 0) || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
        return None;
    }
    let unit = (df.signum() as i8, dr.signum() as i8);
    let d = DIRECTIONS.iter().position(|&dir| dir == unit)?;
    Some((d, df.abs().max(dr.abs()) as u8))
}

/// Precomputed geometry: rays and the docking retreat of every square.
pub(crate) struct Geometry {
    /// `ray[d][s]`: the squares from `s` (exclusive) to the edge in direction `d`.
    pub ray: [[u64; 64]; 8],
    /// `ray_len[d][s]`: how many squares `ray[d][s]` holds.
    pub ray_len: [[u8; 64]; 8],
    /// `retreat[s]`: where a checker displaced from `s` goes, 4 squares along
    /// the diagonal from `s` that is at least 4 squares long. On 8x8 every
    /// square has exactly one such diagonal (checked when the table is built),
    /// so the mover never has a choice to make.
    pub retreat: [Square; 64],
    /// `retreat_path[s]`: the 4 squares that must be empty for that retreat.
    pub retreat_path: [u64; 64],
}

/// How far a displaced checker retreats.
const RETREAT_DISTANCE: u8 = 4;

impl Geometry {
    /// The square `n` steps from `from` in direction `d` (which must be on the board).
    #[inline]
    pub(crate) const fn step(from: Square, d: usize, n: u8) -> Square {
        Square((from.0 as i16 + STEPS[d] as i16 * n as i16) as u8)
    }

    const fn build() -> Geometry {
        let mut g = Geometry {
            ray: [[0; 64]; 8],
            ray_len: [[0; 64]; 8],
            retreat: [Square(0); 64],
            retreat_path: [0; 64],
        };
        let mut s = 0;
        while s < 64 {
            let mut long_diagonals = 0;
            let mut d = 0;
            while d < 8 {
                let (mut f, mut r) = ((s % 8) as i8, (s / 8) as i8);
                let mut len = 0;
                loop {
                    f += DIRECTIONS[d].0;
                    r += DIRECTIONS[d].1;
                    if f < 0 || f > 7 || r < 0 || r > 7 {
                        break;
                    }
                    g.ray[d][s] |= 1 << (r * 8 + f);
                    len += 1;
                    if d >= 4 && len == RETREAT_DISTANCE {
                        long_diagonals += 1;
                        g.retreat[s] = Square((r * 8 + f) as u8);
                        g.retreat_path[s] = g.ray[d][s];
                    }
                }
                g.ray_len[d][s] = len;
                d += 1;
            }
            assert!(long_diagonals == 1, "every square must have exactly one long diagonal");
            s += 1;
        }
        g
    }
}

/// The geometry tables, built at compile time.
pub(crate) static GEOMETRY: Geometry = Geometry::build();

/// Every square except those on the edge: only these can crash.
pub(crate) const INTERIOR: u64 = 0x007E_7E7E_7E7E_7E00;
pub(crate) const NOT_FILE_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
pub(crate) const NOT_FILE_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;

/// The squares orthogonally next to any square of `bits`.
#[inline]
pub(crate) const fn orthogonal_neighbours(bits: u64) -> u64 {
    (bits << 8) | (bits >> 8) | ((bits << 1) & NOT_FILE_A) | ((bits >> 1) & NOT_FILE_H)
}

/// The squares of `bits` whose four orthogonal neighbours all exist and all lie in `by`.
#[inline]
pub(crate) const fn enclosed(bits: u64, by: u64) -> u64 {
    // A square's north neighbour is in `by` exactly when the square is in `by >> 8`.
    bits & INTERIOR & (by >> 8) & (by << 8) & ((by >> 1) & NOT_FILE_H) & ((by << 1) & NOT_FILE_A)
}

/// The orthogonally connected part of `bits` that contains the squares of `seed`.
#[inline]
pub(crate) const fn flood(seed: u64, bits: u64) -> u64 {
    let mut group = seed & bits;
    loop {
        let grown = (group | orthogonal_neighbours(group)) & bits;
        if grown == group {
            return group;
        }
        group = grown;
    }
}
