//! The board: 52 squares of an 8x8 grid with three squares cut from each
//! corner, the stacks on them, and the precomputed move geometry.

use std::fmt;

use board_core::coords::{parse_square, square_name};
use board_core::{Cell, CellError, Player};

/// The squares that exist, as a bitboard over `rank * 8 + file`: every square
/// of the 8x8 grid except a1 b1 a2, g1 h1 h2, a7 a8 b8, g8 h8 h7.
pub(crate) const ON_BOARD: u64 = {
    let mut mask = 0u64;
    let mut rank = 0;
    while rank < 8 {
        let (first, last) = rank_files(rank);
        let mut file = first;
        while file <= last {
            mask |= 1 << (rank * 8 + file);
            file += 1;
        }
        rank += 1;
    }
    mask
};

/// The first and last file (zero-based) that exist on zero-based `rank`.
pub(crate) const fn rank_files(rank: u8) -> (u8, u8) {
    match rank {
        0 | 7 => (2, 5),
        1 | 6 => (1, 6),
        _ => (0, 7),
    }
}

/// One of the 52 squares of the board, named like `c5` (read in any case).
///
/// Its [`Cell::index`] is `rank * 8 + file` (zero-based, so `a1` would be 0
/// and `c1`, the first square that exists, is 2): the index on the 8x8 grid
/// around the board. [`Cell::INDEX_BOUND`] is 64 and the 12 cut-off corners
/// are holes, indexes that name no square.
///
/// ```
/// use focus::prelude::*;
///
/// let c5: Square = "c5".parse()?;
/// assert_eq!((c5.file(), c5.rank()), (2, 4));
/// assert_eq!(c5.index(), 4 * 8 + 2);
/// assert_eq!("C5".parse::<Square>()?, c5);
/// assert!("a1".parse::<Square>().is_err()); // a cut-off corner
/// assert_eq!(Square::from_index(0), None); // where a1 would be
/// assert_eq!(Square::all().count(), 52);
/// # Ok::<(), CellError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

/// The 52 squares in index order (rank 1 first, files left to right within a
/// rank), for loops that [`Cell::all`] would slow down.
pub(crate) const SQUARES: [Square; 52] = {
    let mut all = [Square(0); 52];
    let mut n = 0;
    let mut index = 0;
    while index < 64 {
        if ON_BOARD & (1 << index) != 0 {
            all[n] = Square(index);
            n += 1;
        }
        index += 1;
    }
    all
};

impl Square {
    /// The square at zero-based `file` and `rank`, if it exists on the board.
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 && ON_BOARD & (1 << (rank * 8 + file)) != 0 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// Zero-based file (`a` = 0).
    pub const fn file(self) -> u8 {
        self.0 % 8
    }

    /// Zero-based rank (`1` = 0).
    pub const fn rank(self) -> u8 {
        self.0 / 8
    }

    /// The square reflected through the centre of the board (`b2` ↔ `g7`).
    pub const fn mirrored(self) -> Square {
        Square(63 - self.0)
    }

    /// The square at an index (`rank * 8 + file`) known to be on the board.
    pub(crate) const fn from_board_index(index: u8) -> Square {
        Square(index)
    }
}

impl Cell for Square {
    const INDEX_BOUND: usize = 64;

    #[inline]
    fn index(self) -> usize {
        usize::from(self.0)
    }

    fn from_index(index: usize) -> Option<Self> {
        let index = u8::try_from(index).ok().filter(|&i| i < 64)?;
        (ON_BOARD & (1 << index) != 0).then_some(Square(index))
    }

    fn all() -> impl Iterator<Item = Self> {
        SQUARES.into_iter()
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        square_name(self.file(), self.rank()).fmt(f)
    }
}

impl std::str::FromStr for Square {
    type Err = CellError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match parse_square(text, 8, 8) {
            Some((file, rank)) => Square::new(file, rank)
                .ok_or_else(|| CellError::new(text, "a cut-off corner, not a square of the board")),
            None => Err(CellError::new(text, "not a square (a1..h8)")),
        }
    }
}

/// The tallest a stack may stand after a move.
pub const MAX_HEIGHT: usize = 5;

/// A stack of 1 to 5 pieces; it belongs to the colour of its top piece.
///
/// Stored in one byte: bit 0 is the colour of the top piece, bit 1 the one
/// below it, and so on (set = the second player, White); above the pieces sits
/// a marker bit, so `1` alone is the empty square and moving the top `k`
/// pieces away is a shift by `k`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stack(u8);

/// The code of an empty square (the marker bit alone).
pub(crate) const EMPTY: u8 = 1;

impl Stack {
    /// The stack made of `pieces` listed bottom to top, if there are 1 to 5.
    ///
    /// ```
    /// use board_core::Player::{First as Black, Second as White};
    /// let stack = focus::Stack::from_bottom_up(&[White, Black]).unwrap();
    /// assert_eq!((stack.height(), stack.owner()), (2, Black));
    /// assert_eq!(stack.to_string(), "wb");
    /// ```
    pub fn from_bottom_up(pieces: &[Player]) -> Option<Stack> {
        if pieces.is_empty() || pieces.len() > MAX_HEIGHT {
            return None;
        }
        let code = pieces.iter().fold(1u8, |code, p| (code << 1) | p.index() as u8);
        Some(Stack(code))
    }

    /// A stack from its code; `None` for the empty square.
    pub(crate) const fn from_code(code: u8) -> Option<Stack> {
        if code > EMPTY { Some(Stack(code)) } else { None }
    }

    pub(crate) const fn code(self) -> u8 {
        self.0
    }

    /// The number of pieces, 1 to 5.
    pub const fn height(self) -> usize {
        height(self.0)
    }

    /// The colour of the top piece: the stack's owner.
    pub const fn owner(self) -> Player {
        if self.0 & 1 == 0 { Player::First } else { Player::Second }
    }

    /// The pieces of `player`'s colour in the stack.
    pub const fn count(self, player: Player) -> usize {
        let colours = self.0 & ((1 << self.height()) - 1);
        let second = colours.count_ones() as usize;
        match player {
            Player::First => self.height() - second,
            Player::Second => second,
        }
    }

    /// The pieces, bottom to top.
    pub fn bottom_up(self) -> impl Iterator<Item = Player> {
        (0..self.height())
            .rev()
            .map(move |i| if self.0 >> i & 1 == 0 { Player::First } else { Player::Second })
    }
}

/// The height of the stack with `code` (0 for the empty square).
pub(crate) const fn height(code: u8) -> usize {
    7 - code.leading_zeros() as usize
}

/// The letter of a piece in position text: `b` for Black, `w` for White.
pub(crate) const fn piece_letter(player: Player) -> char {
    match player {
        Player::First => 'b',
        Player::Second => 'w',
    }
}

/// The pieces bottom to top as `b`/`w` letters (`wbb`).
impl fmt::Display for Stack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.bottom_up().try_for_each(|p| fmt::Write::write_char(f, piece_letter(p)))
    }
}

impl fmt::Debug for Stack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Stack({self})")
    }
}

/// The destinations of every stack move from one square for one stack height.
#[derive(Clone, Copy)]
pub(crate) struct Targets {
    squares: [Square; 20],
    len: u8,
}

impl Targets {
    pub(crate) fn as_slice(&self) -> &[Square] {
        &self.squares[..self.len as usize]
    }

    pub(crate) const fn len(&self) -> u32 {
        self.len as u32
    }
}

/// `TARGETS[square][height]`: where a stack of that height on that square can
/// send its top pieces (the top `k` go exactly `k` squares up, right, down or
/// left, for `k` = 1..=height), ordered by `k`, then up, right, down, left.
pub(crate) static TARGETS: [[Targets; MAX_HEIGHT + 1]; 64] = {
    let mut table = [[Targets { squares: [Square(0); 20], len: 0 }; MAX_HEIGHT + 1]; 64];
    let mut index = 0;
    while index < 64 {
        if ON_BOARD & (1 << index) != 0 {
            let (file, rank) = ((index % 8) as i8, (index / 8) as i8);
            let mut h = 1;
            while h <= MAX_HEIGHT {
                let mut targets = table[index][h - 1];
                let k = h as i8;
                let steps = [(0, k), (k, 0), (0, -k), (-k, 0)];
                let mut d = 0;
                while d < 4 {
                    let (f, r) = (file + steps[d].0, rank + steps[d].1);
                    if f >= 0
                        && r >= 0
                        && let Some(to) = Square::new(f as u8, r as u8)
                    {
                        targets.squares[targets.len as usize] = to;
                        targets.len += 1;
                    }
                    d += 1;
                }
                table[index][h] = targets;
                h += 1;
            }
        }
        index += 1;
    }
    table
};
