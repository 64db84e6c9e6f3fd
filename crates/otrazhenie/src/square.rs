//! Board geometry: squares, directions and the ray tables the move generator
//! walks with bitboards (bit `8 * rank + file`, so a1 is bit 0 and h8 bit 63).

use std::fmt;
use std::str::FromStr;

use board_core::coords::{parse_square, square_name};
use board_core::{Cell, CellError};

/// One of the 64 squares, a1 to h8.
///
/// A [`Cell`]: names like `d5` print in lower case and read in either case
/// (`"D5".parse::<Square>()`); the [index](Cell::index) is the bitboard bit,
/// `8 * rank + file` (zero-based: a1 = 0, h1 = 7, a2 = 8, h8 = 63), below
/// [`INDEX_BOUND`](Cell::INDEX_BOUND) = 64, with no holes.
///
/// ```
/// use otrazhenie::prelude::*;
///
/// let c5: Square = "C5".parse()?;
/// assert_eq!((c5.file(), c5.rank(), c5.index()), (2, 4, 34));
/// assert_eq!(Square::from_index(34), Some(c5));
/// assert_eq!(c5.to_string(), "c5");
/// assert!("i1".parse::<Square>().is_err());
/// # Ok::<(), CellError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The square on zero-based `file` (a = 0) and `rank` (rank 1 = 0), if on the board.
    ///
    /// ```
    /// use otrazhenie::Square;
    /// assert_eq!(Square::new(7, 0).map(|s| s.to_string()), Some("h1".to_owned()));
    /// assert_eq!(Square::new(8, 0), None);
    /// ```
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 { Some(Square(rank * 8 + file)) } else { None }
    }

    /// The square with bit index `index` (`8 * rank + file`), if below 64:
    /// [`Cell::from_index`] for const code.
    pub(crate) const fn at_index(index: u8) -> Option<Square> {
        if index < 64 { Some(Square(index)) } else { None }
    }

    /// The bit index, `8 * rank + file`: [`Cell::index`] for const code.
    pub(crate) const fn bit_index(self) -> usize {
        self.0 as usize
    }

    /// Zero-based file (a = 0).
    pub const fn file(self) -> u8 {
        self.0 % 8
    }

    /// Zero-based rank (rank 1 = 0).
    pub const fn rank(self) -> u8 {
        self.0 / 8
    }

    /// The square's bit in a bitboard.
    pub(crate) const fn bit(self) -> u64 {
        1 << self.0
    }

    /// The next square in `dir`, if still on the board.
    pub(crate) const fn step(self, dir: Direction) -> Option<Square> {
        let (df, dr) = dir.delta();
        let file = self.file() as i8 + df;
        let rank = self.rank() as i8 + dr;
        if file < 0 || rank < 0 { None } else { Square::new(file as u8, rank as u8) }
    }

    /// The lowest square of a non-empty bitboard.
    pub(crate) const fn lowest(bits: u64) -> Square {
        Square(bits.trailing_zeros() as u8)
    }

    /// The highest square of a non-empty bitboard.
    pub(crate) const fn highest(bits: u64) -> Square {
        Square(63 - bits.leading_zeros() as u8)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        square_name(self.file(), self.rank()).fmt(f)
    }
}

impl FromStr for Square {
    type Err = CellError;

    /// Reads a name like `d5` (the file letter in either case).
    fn from_str(name: &str) -> Result<Square, CellError> {
        parse_square(name, 8, 8)
            .and_then(|(file, rank)| Square::new(file, rank))
            .ok_or_else(|| CellError::new(name, "not a square (files a-h, ranks 1-8)"))
    }
}

impl Cell for Square {
    const INDEX_BOUND: usize = 64;

    fn index(self) -> usize {
        self.bit_index()
    }

    fn from_index(index: usize) -> Option<Square> {
        u8::try_from(index).ok().and_then(Square::at_index)
    }
}

/// The squares of a bitboard, lowest first.
pub(crate) fn squares(mut bits: u64) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let sq = Square::lowest(bits);
            bits &= bits - 1;
            sq
        })
    })
}

/// Each rook direction with the two diagonals leading away from the boundary
/// a slide that way runs into: after sliding east a checker turns north-west
/// or south-west.
pub(crate) const SLIDES: [(Direction, [Direction; 2]); 4] = [
    (Direction::North, [Direction::SouthEast, Direction::SouthWest]),
    (Direction::East, [Direction::NorthWest, Direction::SouthWest]),
    (Direction::South, [Direction::NorthEast, Direction::NorthWest]),
    (Direction::West, [Direction::NorthEast, Direction::SouthEast]),
];

/// The eight directions: four orthogonal (slides) then four diagonal (reflections).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Direction {
    /// Towards rank 8.
    North,
    /// Towards the h-file.
    East,
    /// Towards rank 1.
    South,
    /// Towards the a-file.
    West,
    /// Towards h8.
    NorthEast,
    /// Towards a8.
    NorthWest,
    /// Towards h1.
    SouthEast,
    /// Towards a1.
    SouthWest,
}

impl Direction {
    /// All eight directions, in table order.
    const ALL: [Direction; 8] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
        Direction::NorthEast,
        Direction::NorthWest,
        Direction::SouthEast,
        Direction::SouthWest,
    ];

    /// `(file step, rank step)`.
    const fn delta(self) -> (i8, i8) {
        match self {
            Direction::North => (0, 1),
            Direction::East => (1, 0),
            Direction::South => (0, -1),
            Direction::West => (-1, 0),
            Direction::NorthEast => (1, 1),
            Direction::NorthWest => (-1, 1),
            Direction::SouthEast => (1, -1),
            Direction::SouthWest => (-1, -1),
        }
    }

    /// Whether this is a rook direction (along a rank or file).
    pub(crate) const fn is_orthogonal(self) -> bool {
        let (df, dr) = self.delta();
        df == 0 || dr == 0
    }

    /// Whether walking this way raises the bit index (so the nearest square of
    /// a ray is its lowest bit).
    pub(crate) const fn ascending(self) -> bool {
        let (df, dr) = self.delta();
        dr > 0 || (dr == 0 && df > 0)
    }

    /// The direction from `from` to `to` when they share a rank, file or
    /// diagonal (and differ).
    pub(crate) fn between(from: Square, to: Square) -> Option<Direction> {
        let df = i16::from(to.file()) - i16::from(from.file());
        let dr = i16::from(to.rank()) - i16::from(from.rank());
        if (df, dr) == (0, 0) || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
            return None;
        }
        let want = (df.signum() as i8, dr.signum() as i8);
        Direction::ALL.into_iter().find(|d| d.delta() == want)
    }
}

/// `RAYS[square][direction]`: the squares from `square` (exclusive) to the
/// board edge in `direction`.
static RAYS: [[u64; 8]; 64] = build_rays();

const fn build_rays() -> [[u64; 8]; 64] {
    let mut rays = [[0; 8]; 64];
    let mut index = 0;
    while index < 64 {
        let mut d = 0;
        while d < 8 {
            let dir = Direction::ALL[d];
            let mut bits = 0;
            let mut at = Square::at_index(index as u8);
            while let Some(sq) = at {
                at = sq.step(dir);
                if let Some(next) = at {
                    bits |= next.bit();
                }
            }
            rays[index][d] = bits;
            d += 1;
        }
        index += 1;
    }
    rays
}

/// The squares from `sq` (exclusive) to the edge in `dir`.
pub(crate) fn ray(sq: Square, dir: Direction) -> u64 {
    RAYS[sq.bit_index()][dir as usize]
}

/// The nearest square of the non-empty `bits` seen from the start of a ray in `dir`.
pub(crate) const fn nearest(bits: u64, dir: Direction) -> Square {
    if dir.ascending() { Square::lowest(bits) } else { Square::highest(bits) }
}

/// The farthest square of the non-empty `bits` seen from the start of a ray in `dir`.
pub(crate) const fn farthest(bits: u64, dir: Direction) -> Square {
    if dir.ascending() { Square::highest(bits) } else { Square::lowest(bits) }
}

/// The squares orthogonally next to the squares of `bits`.
pub(crate) const fn orthogonal_neighbours(bits: u64) -> u64 {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    (bits << 8) | (bits >> 8) | ((bits << 1) & NOT_A) | ((bits >> 1) & NOT_H)
}

/// The squares a rook move from `from` reaches: along each rank and file up
/// to the first square of `occupied`.
pub(crate) fn rook_reach(from: Square, occupied: u64) -> u64 {
    SLIDES.iter().fold(0, |reach, &(slide, _)| {
        let line = ray(from, slide);
        let blockers = line & occupied;
        if blockers == 0 {
            reach | line
        } else {
            let blocker = nearest(blockers, slide);
            reach | (line & !ray(blocker, slide) & !blocker.bit())
        }
    })
}
