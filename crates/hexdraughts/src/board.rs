//! The board: 80 fields in rows A..K, their names, and the four lines of play.
//!
//! Internally each field is a bit of a `u128` in a padded layout that turns the
//! hexagon into a 10x10 grid with two corners cut: a field in row `r` at
//! horizontal position `x` (in half units) sits at `p = (r + x) / 2 + 2` and
//! `q = (r - x) / 2 + 2`, bit `11 q + p`. A step down-right adds 1 to `p`, a step
//! down-left adds 1 to `q`, so every line of play is a constant shift (1 or 11)
//! and the unused column `p = 10` stops the shift by 1 from wrapping.

use std::fmt;
use std::str::FromStr;

use board_core::CellError;

/// Rows A..K.
pub const ROWS: usize = 11;
/// Fields on the board.
pub const FIELD_COUNT: usize = 80;

/// The number of fields of each row, A first.
const ROW_LEN: [u8; ROWS] = [5, 6, 7, 8, 9, 10, 9, 8, 7, 6, 5];
/// The row letters, A first.
const ROW_LETTERS: &[u8; ROWS] = b"ABCDEFGHIJK";
/// Width of the padded grid.
const WIDTH: u8 = 11;
/// Bits of the padded layout.
const BITS: usize = 128;
/// No field (end of a line).
pub(crate) const NONE: u8 = u8::MAX;

/// A set of fields, one bit per field in the padded layout.
pub(crate) type Bits = u128;

/// A field of the board, like `G8` (row G, eighth field from the left).
///
/// Read with `"g8".parse::<Field>()` (either case), printed upper case. As a
/// [`Cell`](board_core::Cell) its index is a dense numbering in row order:
/// A1 = 0, ..., A5 = 4, B1 = 5, ..., F1 = 35, ..., K5 = 79, below
/// [`INDEX_BOUND`](board_core::Cell::INDEX_BOUND) = [`FIELD_COUNT`] = 80
/// (the board is no rectangle, so there is no grid with holes);
/// [`Cell::all`](board_core::Cell::all) lists the fields in that order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Field(u8);

/// One of the four directions pieces move along.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Towards row A, to the left.
    UpLeft,
    /// Towards row A, to the right.
    UpRight,
    /// Towards row K, to the left.
    DownLeft,
    /// Towards row K, to the right.
    DownRight,
}

impl Direction {
    /// All four directions.
    pub const ALL: [Direction; 4] =
        [Direction::UpLeft, Direction::UpRight, Direction::DownLeft, Direction::DownRight];

    /// The direction back.
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::UpLeft => Direction::DownRight,
            Direction::UpRight => Direction::DownLeft,
            Direction::DownLeft => Direction::UpRight,
            Direction::DownRight => Direction::UpLeft,
        }
    }

    /// The change of the bit index for one step.
    pub(crate) const fn delta(self) -> i32 {
        match self {
            Direction::UpLeft => -1,
            Direction::UpRight => -(WIDTH as i32),
            Direction::DownLeft => WIDTH as i32,
            Direction::DownRight => 1,
        }
    }

    /// Shifts every field of `bits` one step this way (fields that leave the
    /// board drop out).
    #[inline]
    pub(crate) const fn shift(self, bits: Bits) -> Bits {
        let moved = match self {
            Direction::UpLeft => bits >> 1,
            Direction::UpRight => bits >> WIDTH,
            Direction::DownLeft => bits << WIDTH,
            Direction::DownRight => bits << 1,
        };
        moved & ALL_FIELDS
    }

    /// [`shift`](Direction::shift) without dropping the fields that leave
    /// the board: a bit may land on the unused column or the padding, so
    /// the result is only for intersecting with a set of fields (which
    /// drops them).
    #[inline]
    pub(crate) const fn step(self, bits: Bits) -> Bits {
        match self {
            Direction::UpLeft => bits >> 1,
            Direction::UpRight => bits >> WIDTH,
            Direction::DownLeft => bits << WIDTH,
            Direction::DownRight => bits << 1,
        }
    }
}

/// The padded bit of the field in row `row` (0 = A) numbered `number` (1-based).
const fn bit_of(row: usize, number: u8) -> u8 {
    let n = ROW_LEN[row] as i32;
    let x2 = 2 * number as i32 - n - 1;
    let r = row as i32;
    let p = (r + x2) / 2 + 2;
    let q = (r - x2) / 2 + 2;
    (q * WIDTH as i32 + p) as u8
}

/// Every field in row order (A1..A5, B1..B6, ..., K1..K5), as padded bits.
const ALL_BITS: [u8; FIELD_COUNT] = {
    let mut all = [0; FIELD_COUNT];
    let mut k = 0;
    let mut row = 0;
    while row < ROWS {
        let mut number = 1;
        while number <= ROW_LEN[row] {
            all[k] = bit_of(row, number);
            k += 1;
            number += 1;
        }
        row += 1;
    }
    all
};

/// The set of all 80 fields.
pub(crate) const ALL_FIELDS: Bits = {
    let mut bits = 0;
    let mut k = 0;
    while k < FIELD_COUNT {
        bits |= 1 << ALL_BITS[k];
        k += 1;
    }
    bits
};

/// Row (0 = A) and number (1-based) of each padded bit; `NONE` off the board.
const ROW_AND_NUMBER: [(u8, u8); BITS] = {
    let mut table = [(NONE, NONE); BITS];
    let mut row = 0;
    while row < ROWS {
        let mut number = 1;
        while number <= ROW_LEN[row] {
            table[bit_of(row, number) as usize] = (row as u8, number);
            number += 1;
        }
        row += 1;
    }
    table
};

/// The next field along each direction from each padded bit, or `NONE`.
const NEXT: [[u8; BITS]; 4] = {
    let mut table = [[NONE; BITS]; 4];
    let mut d = 0;
    while d < 4 {
        let delta = Direction::ALL[d].delta();
        let mut k = 0;
        while k < FIELD_COUNT {
            let from = ALL_BITS[k] as i32;
            let to = from + delta;
            if to >= 0 && to < BITS as i32 && ALL_FIELDS & (1 << to) != 0 {
                table[d][from as usize] = to as u8;
            }
            k += 1;
        }
        d += 1;
    }
    table
};

/// The fields beyond each padded bit along each direction (empty for bits off
/// the board), so that the first piece on a line is one bit scan away.
const RAYS: [[Bits; BITS]; 4] = {
    let mut table = [[0; BITS]; 4];
    let mut d = 0;
    while d < 4 {
        let mut k = 0;
        while k < FIELD_COUNT {
            let from = ALL_BITS[k] as usize;
            let mut to = NEXT[d][from];
            while to != NONE {
                table[d][from] |= 1 << to;
                to = NEXT[d][to as usize];
            }
            k += 1;
        }
        d += 1;
    }
    table
};

/// The fields beyond `bit` towards `dir`, to the edge of the board.
#[inline]
pub(crate) const fn ray(bit: u8, dir: Direction) -> Bits {
    RAYS[dir as usize][bit as usize]
}

/// The number of fields beyond each padded bit along each direction.
const RAY_LEN: [[u8; BITS]; 4] = {
    let mut table = [[0; BITS]; 4];
    let mut d = 0;
    while d < 4 {
        let mut k = 0;
        while k < BITS {
            table[d][k] = RAYS[d][k].count_ones() as u8;
            k += 1;
        }
        d += 1;
    }
    table
};

/// The number of fields beyond `bit` towards `dir`, to the edge of the board.
#[inline]
pub(crate) const fn ray_len(bit: u8, dir: Direction) -> u32 {
    RAY_LEN[dir as usize][bit as usize] as u32
}

/// The first field of `pieces` beyond `bit` towards `dir`, or `None`.
#[inline]
pub(crate) const fn first_on_ray(bit: u8, dir: Direction, pieces: Bits) -> Option<u8> {
    let hits = RAYS[dir as usize][bit as usize] & pieces;
    if hits == 0 {
        None
    } else if dir.delta() > 0 {
        Some(lowest(hits))
    } else {
        Some(highest(hits))
    }
}

/// The lowest padded bit of a non-empty set (one 64-bit scan).
#[inline(always)]
const fn lowest(set: Bits) -> u8 {
    let low = set as u64;
    if low != 0 {
        low.trailing_zeros() as u8
    } else {
        64 + ((set >> 64) as u64).trailing_zeros() as u8
    }
}

/// The highest padded bit of a non-empty set.
#[inline(always)]
const fn highest(set: Bits) -> u8 {
    (BITS as u32 - 1 - set.leading_zeros()) as u8
}

/// The fields of one row (0 = A).
pub(crate) const fn row_bits(row: usize) -> Bits {
    let mut bits = 0;
    let mut number = 1;
    while number <= ROW_LEN[row] {
        bits |= 1 << bit_of(row, number);
        number += 1;
    }
    bits
}

/// The next padded bit from `bit` towards `dir`, or `NONE`.
#[inline]
pub(crate) const fn next(bit: u8, dir: Direction) -> u8 {
    NEXT[dir as usize][bit as usize]
}

/// The single-field sets of the padded bits: a load is cheaper than a
/// variable shift of a `u128` (about seven instructions). One entry per
/// `u8`, so that no index needs a bounds check (those past the layout are
/// empty).
const SINGLE: [Bits; 256] = {
    let mut table = [0; 256];
    let mut k = 0;
    while k < BITS {
        table[k] = 1 << k;
        k += 1;
    }
    table
};

/// The single-field set of a padded bit.
#[inline]
pub(crate) const fn bit(index: u8) -> Bits {
    SINGLE[index as usize]
}

/// Iterates over the padded bits of a set, lowest first (one 64-bit half
/// after the other: a scan of a `u128` costs several instructions).
#[inline]
pub(crate) fn bits_of(set: Bits) -> impl Iterator<Item = u8> {
    let (mut low, mut high) = (set as u64, (set >> 64) as u64);
    std::iter::from_fn(move || {
        if low != 0 {
            let index = low.trailing_zeros() as u8;
            low &= low - 1;
            Some(index)
        } else if high != 0 {
            let index = high.trailing_zeros() as u8;
            high &= high - 1;
            Some(64 + index)
        } else {
            None
        }
    })
}

/// The direction from `from` to `to` along a line of play, if they lie on
/// one (and differ).
#[inline]
pub(crate) fn line_direction(from: u8, to: u8) -> Option<Direction> {
    let diff = i32::from(to) - i32::from(from);
    let dir = match (diff % WIDTH as i32 == 0, diff > 0) {
        (true, true) => Direction::DownLeft,
        (true, false) => Direction::UpRight,
        (false, true) => Direction::DownRight,
        (false, false) => Direction::UpLeft,
    };
    (ray(from, dir) & bit(to) != 0).then_some(dir)
}

/// Every field in row order (A1..A5, B1..B6, ..., K1..K5): the order of
/// the dense index, and of [`Cell::all`](board_core::Cell::all).
pub(crate) const FIELDS: [Field; FIELD_COUNT] = {
    let mut all = [Field(0); FIELD_COUNT];
    let mut k = 0;
    while k < FIELD_COUNT {
        all[k] = Field(ALL_BITS[k]);
        k += 1;
    }
    all
};

/// The dense index (position in [`FIELDS`]) of each padded bit; `NONE` off
/// the board.
const DENSE: [u8; BITS] = {
    let mut table = [NONE; BITS];
    let mut k = 0;
    while k < FIELD_COUNT {
        table[ALL_BITS[k] as usize] = k as u8;
        k += 1;
    }
    table
};

impl Field {
    /// The field numbered `number` (1-based, from the left) in row `row`
    /// (0 = A .. 10 = K), if there is one.
    pub const fn new(row: usize, number: u8) -> Option<Field> {
        if row < ROWS && number >= 1 && number <= ROW_LEN[row] {
            Some(Field(bit_of(row, number)))
        } else {
            None
        }
    }

    /// The row, 0 for A to 10 for K.
    pub const fn row(self) -> usize {
        ROW_AND_NUMBER[self.0 as usize].0 as usize
    }

    /// The row letter, `'A'` to `'K'`.
    pub const fn row_letter(self) -> char {
        ROW_LETTERS[self.row()] as char
    }

    /// The number within the row, from 1 at the left.
    pub const fn number(self) -> u8 {
        ROW_AND_NUMBER[self.0 as usize].1
    }

    /// The adjacent field towards `dir`, if there is one.
    pub const fn neighbour(self, dir: Direction) -> Option<Field> {
        match next(self.0, dir) {
            NONE => None,
            index => Some(Field(index)),
        }
    }

    /// The padded bit.
    pub(crate) const fn bit_index(self) -> u8 {
        self.0
    }

    /// The field of a padded bit the caller knows to be on the board.
    pub(crate) const fn from_bit_index(index: u8) -> Field {
        Field(index)
    }
}

/// The number of fields in row `row` (0 = A).
pub(crate) const fn row_len(row: usize) -> usize {
    ROW_LEN[row] as usize
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.row_letter(), self.number())
    }
}

/// Reads a name like `G8` or `g8`: a row letter A..K in either case, then
/// the field's number in that row (1 at the left).
impl FromStr for Field {
    type Err = CellError;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        let bytes = name.as_bytes();
        let Some((&letter, digits)) = bytes.split_first() else {
            return Err(CellError::new(name, "expected a row letter A..K and a number, like G8"));
        };
        let Some(row) = ROW_LETTERS.iter().position(|&l| l == letter.to_ascii_uppercase()) else {
            return Err(CellError::new(name, "the rows are A..K"));
        };
        if digits.is_empty() || digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
            return Err(CellError::new(name, "expected the field's number after the row letter"));
        }
        let number = digits.iter().fold(0u8, |n, d| n * 10 + (d - b'0'));
        Field::new(row, number).ok_or_else(|| CellError::new(name, "no such field in that row"))
    }
}

/// The dense numbering of the 80 fields in row order: A1 = 0, A2 = 1, ...,
/// A5 = 4, B1 = 5, ..., F1 = 35, ..., K5 = 79 (the board is no rectangle, so
/// there is no grid with holes).
impl board_core::Cell for Field {
    const INDEX_BOUND: usize = FIELD_COUNT;

    fn index(self) -> usize {
        usize::from(DENSE[self.0 as usize])
    }

    fn from_index(index: usize) -> Option<Self> {
        FIELDS.get(index).copied()
    }
}
