//! The 9x9 board: squares, zones, the wall ring, and the move geometry
//! (slide rays, one-step climbs) computed once at compile time.

use std::fmt;
use std::str::FromStr;

use board_core::{Cell, CellError, coords};

/// Files and ranks of the board.
pub const SIZE: u8 = 9;
/// Squares on the board.
pub const SQUARES: usize = 81;

/// A square of the 9x9 board, named `a1`..`i9` (read in any case:
/// `"E5".parse::<Square>()` is e5).
///
/// Its [`Cell::index`] is `rank * 9 + file`, both from zero: `a1` = 0,
/// `b1` = 1, ..., `i9` = 80, and [`Cell::INDEX_BOUND`] = 81 (every square of
/// the grid is a cell; no holes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The bazaar square e5 in the centre.
    pub const BAZAAR: Square = Square(4 * 9 + 4);

    /// The square on zero-based `file` (a = 0) and `rank` (rank 1 = 0), if on the board.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < SIZE && rank < SIZE { Some(Square(rank * SIZE + file)) } else { None }
    }

    /// The square on `file` and `rank` (zero-based), which must be on the
    /// board: for constant tables.
    pub(crate) const fn at(file: u8, rank: u8) -> Square {
        assert!(file < SIZE && rank < SIZE, "off the board");
        Square(rank * SIZE + file)
    }

    /// The index `rank * 9 + file` ([`Cell::index`]), for constant tables.
    pub(crate) const fn idx(self) -> usize {
        self.0 as usize
    }

    /// The zero-based file (a = 0).
    pub const fn file(self) -> u8 {
        self.0 % SIZE
    }

    /// The zero-based rank (rank 1 = 0).
    pub const fn rank(self) -> u8 {
        self.0 / SIZE
    }

    /// The zone this square belongs to.
    pub const fn zone(self) -> Zone {
        zone_of(self.file(), self.rank())
    }

    pub(crate) const fn bit(self) -> u128 {
        1 << self.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        coords::square_name(self.file(), self.rank()).fmt(f)
    }
}

impl FromStr for Square {
    type Err = CellError;

    /// Reads a name like `e5`, in any case.
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        coords::parse_square(name, SIZE, SIZE)
            .and_then(|(file, rank)| Square::new(file, rank))
            .ok_or_else(|| CellError::new(name, "no such square (files a-i, ranks 1-9)"))
    }
}

impl Cell for Square {
    const INDEX_BOUND: usize = SQUARES;

    /// `rank * 9 + file`, both from zero: `a1` = 0, `i9` = 80.
    #[inline]
    fn index(self) -> usize {
        self.idx()
    }

    fn from_index(index: usize) -> Option<Self> {
        (index < SQUARES).then_some(Square(index as u8))
    }

    /// Every square, `a1` first, rank by rank.
    fn all() -> impl Iterator<Item = Self> {
        (0..SQUARES as u8).map(Square)
    }
}

/// The four zones of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Zone {
    /// The edge of the board (32 squares): a1..a9, i1..i9, b1..h1, b9..h9.
    Outside,
    /// The wall ring (24 squares) between the outside and the town.
    Wall,
    /// Inside the walls (24 squares): c3..g7 without e5.
    Town,
    /// The bazaar square e5: entering it wins.
    Bazaar,
}

impl Zone {
    /// The zone's name in lower case.
    pub const fn name(self) -> &'static str {
        match self {
            Zone::Outside => "outside",
            Zone::Wall => "wall",
            Zone::Town => "town",
            Zone::Bazaar => "bazaar",
        }
    }
}

impl fmt::Display for Zone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How far `x` lies from the nearer edge of its line (0 on the edge).
const fn from_edge(x: u8) -> u8 {
    if x < 4 { x } else { 8 - x }
}

const fn zone_of(file: u8, rank: u8) -> Zone {
    let (f, r) = (from_edge(file), from_edge(rank));
    let depth = if f < r { f } else { r };
    match depth {
        0 => Zone::Outside,
        1 => Zone::Wall,
        _ if file == 4 && rank == 4 => Zone::Bazaar,
        _ => Zone::Town,
    }
}

/// Squares of the wall ring.
pub const RING_LEN: usize = 24;

/// The wall in ring order: b2 c2 .. h2, h3 .. h8, g8 .. b8, b7 .. b3.
pub const RING: [Square; RING_LEN] = ring();

const fn ring() -> [Square; RING_LEN] {
    let mut out = [Square(0); RING_LEN];
    let mut i = 0;
    while i < RING_LEN {
        let k = i as u8;
        let (file, rank) = match i {
            0..=6 => (1 + k, 1),
            7..=12 => (7, k - 5),
            13..=18 => (7 - (k - 12), 7),
            _ => (1, 7 - (k - 18)),
        };
        out[i] = Square(rank * SIZE + file);
        i += 1;
    }
    out
}

/// Marks a square as not on the wall in [`RING_INDEX`].
pub(crate) const OFF_RING: u8 = u8::MAX;

/// The position of each square in [`RING`], or [`OFF_RING`].
pub(crate) const RING_INDEX: [u8; SQUARES] = {
    let mut out = [OFF_RING; SQUARES];
    let mut i = 0;
    while i < RING_LEN {
        out[RING[i].idx()] = i as u8;
        i += 1;
    }
    out
};

/// Every square of the board as a bit set.
pub(crate) const ALL: u128 = (1 << SQUARES) - 1;
const FILE_A: u128 = {
    let mut out = 0;
    let mut rank = 0;
    while rank < SIZE {
        out |= 1 << (rank * SIZE);
        rank += 1;
    }
    out
};
const FILE_I: u128 = FILE_A << 8;

/// The squares orthogonally adjacent to any square of `set`.
pub(crate) const fn neighbours(set: u128) -> u128 {
    ((set << 9) & ALL) | (set >> 9) | ((set << 1) & !FILE_A & ALL) | ((set >> 1) & !FILE_I)
}

/// The squares of one zone as a bit set.
pub(crate) const fn zone_set(zone: Zone) -> u128 {
    let mut out = 0;
    let mut i = 0;
    while i < SQUARES {
        let sq = Square(i as u8);
        if sq.zone() as u8 == zone as u8 {
            out |= sq.bit();
        }
        i += 1;
    }
    out
}

/// The wall squares as a bit set.
pub(crate) const WALL: u128 = zone_set(Zone::Wall);
/// The town squares as a bit set.
pub(crate) const TOWN: u128 = zone_set(Zone::Town);

/// The gates: the four squares next to the bazaar (d5, f5, e4, e6), from
/// which the playable rules let a pawn step into it.
pub(crate) const GATES: u128 = neighbours(Square::BAZAAR.bit());

/// The one-step targets of each square: for a square off the wall, the adjacent
/// wall squares (climb onto the wall); for a wall square, the adjacent squares
/// off the wall (climb down).
pub(crate) const STEPS: [u128; SQUARES] = {
    let mut out = [0; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let around = neighbours(1 << i);
        out[i] = if WALL & (1 << i) != 0 { around & !WALL } else { around & WALL };
        i += 1;
    }
    out
};

/// The four directions: north (up the ranks), east, south, west.
const DIRECTIONS: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// The squares a slide may pass over from each square in each direction of
/// [`DIRECTIONS`], as bit sets: a ray stops before the wall and the board's
/// edge and includes the bazaar as its last square. Empty for wall squares.
/// Along a ray the squares beyond one of its squares are that square's own
/// ray the same way, which is what [`slides`] relies on.
pub(crate) const RAYS: [[u128; 4]; SQUARES] = {
    let mut out = [[0; 4]; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        let from = Square(i as u8);
        if !matches!(from.zone(), Zone::Wall) {
            let mut d = 0;
            while d < 4 {
                let (df, dr) = DIRECTIONS[d];
                let mut file = from.file() as i8 + df;
                let mut rank = from.rank() as i8 + dr;
                while file >= 0 && file < SIZE as i8 && rank >= 0 && rank < SIZE as i8 {
                    let zone = zone_of(file as u8, rank as u8);
                    if matches!(zone, Zone::Wall) {
                        break;
                    }
                    out[i][d] |= 1 << (rank * SIZE as i8 + file);
                    if matches!(zone, Zone::Bazaar) {
                        break;
                    }
                    file += df;
                    rank += dr;
                }
                d += 1;
            }
        }
        i += 1;
    }
    out
};

/// Every square a pawn on each square could reach in one move on some
/// board (its steps and its rays; the whole wall from the wall): a pawn
/// whose hull misses a set of squares cannot move onto any of them.
pub(crate) const HULLS: [u128; SQUARES] = {
    let mut out = [0; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        out[i] = STEPS[i] | RAYS[i][0] | RAYS[i][1] | RAYS[i][2] | RAYS[i][3];
        if WALL & (1 << i) != 0 {
            out[i] |= WALL & !(1 << i);
        }
        i += 1;
    }
    out
};

/// The squares a pawn off the wall on square `index` reaches by sliding
/// while the squares of `occupied` hold pawns: along each ray up to and
/// including the first occupied square (remove the own pawns afterwards).
#[inline]
pub(crate) fn slides(index: usize, occupied: u128) -> u128 {
    let mut reach = 0;
    for (d, &ray) in RAYS[index].iter().enumerate() {
        let blockers = ray & occupied;
        reach |= if blockers == 0 {
            ray
        } else {
            // North and east (the first two directions) run up the bits.
            let first =
                if d < 2 { blockers.trailing_zeros() } else { 127 - blockers.leading_zeros() };
            ray & !RAYS[first as usize][d]
        };
    }
    reach
}

/// The squares of a bit set, lowest index first.
pub(crate) fn squares_of(mut set: u128) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if set == 0 {
            return None;
        }
        let index = set.trailing_zeros() as u8;
        set &= set - 1;
        Some(Square(index))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zone_sizes_match_the_spec() {
        let count = |zone| Square::all().filter(|s| s.zone() == zone).count();
        assert_eq!(count(Zone::Outside), 32);
        assert_eq!(count(Zone::Wall), 24);
        assert_eq!(count(Zone::Town), 24);
        assert_eq!(count(Zone::Bazaar), 1);
        assert_eq!(Square::BAZAAR.to_string(), "e5");
    }

    #[test]
    fn ring_order_is_the_spec_order() {
        let names: Vec<String> = RING.iter().map(ToString::to_string).collect();
        assert_eq!(
            names.join(" "),
            "b2 c2 d2 e2 f2 g2 h2 h3 h4 h5 h6 h7 h8 g8 f8 e8 d8 c8 b8 b7 b6 b5 b4 b3"
        );
        for (i, sq) in RING.iter().enumerate() {
            let next = RING[(i + 1) % RING_LEN];
            assert_eq!(neighbours(sq.bit()) & next.bit(), next.bit(), "{sq} and {next}");
        }
    }
}
