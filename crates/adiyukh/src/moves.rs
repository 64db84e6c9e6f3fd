//! The move: a start square and its landing squares, packed in one `u128`.

use std::fmt;

use crate::Square;

/// The most landing squares a move can record.
///
/// A capture never has more than 12 jumps (each jump puts one piece of the
/// enemy colour under the moving column, where it stays until the move ends,
/// and there are 12 of them); the packing has room for 23.
pub const MAX_LANDINGS: usize = 23;

const FROM_BITS: u32 = 0;
const COUNT_SHIFT: u32 = 5;
const CAPTURE_BIT: u32 = 10;
const PATH_SHIFT: u32 = 11;

/// A move: a quiet step `g3-h4` or a capture `c5:e3:c1` (every landing square
/// in order).
///
/// `Copy`, 16 bytes, no allocation: bits 0-4 hold the start square, bits 5-9
/// the number of landing squares, bit 10 whether it is a capture, and 5 bits
/// per landing square from bit 11 on. A `Move` is plain data: it may be
/// illegal in a given position (see [`Game::is_legal`](board_core::Game::is_legal)).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u128);

impl Move {
    /// The quiet move from `from` to `to`.
    pub const fn quiet(from: Square, to: Square) -> Move {
        Move((from.slot() as u128) << FROM_BITS | 1 << COUNT_SHIFT).with_landing_at(0, to)
    }

    /// The capture from `from` over the landing squares `landings`, in order;
    /// `None` for no landing square or more than [`MAX_LANDINGS`].
    pub fn capture(from: Square, landings: &[Square]) -> Option<Move> {
        if landings.is_empty() || landings.len() > MAX_LANDINGS {
            return None;
        }
        let mut mv = Move::capture_start(from);
        for &sq in landings {
            mv = mv.then(sq);
        }
        Some(mv)
    }

    /// A capture from `from` with no landing square yet (move generation
    /// extends it with [`then`](Move::then)).
    pub(crate) const fn capture_start(from: Square) -> Move {
        Move((from.slot() as u128) << FROM_BITS | 1 << CAPTURE_BIT)
    }

    /// The same capture with one more landing square (room is guaranteed by
    /// the 12-jump bound).
    #[inline]
    pub(crate) const fn then(self, to: Square) -> Move {
        let n = self.len();
        Move(self.0 + (1 << COUNT_SHIFT)).with_landing_at(n, to)
    }

    #[inline]
    const fn with_landing_at(self, i: usize, sq: Square) -> Move {
        Move(self.0 | (sq.slot() as u128) << (PATH_SHIFT + 5 * i as u32))
    }

    /// The square the moving column starts from.
    pub const fn from(self) -> Square {
        Square::from_slot((self.0 & 31) as u8)
    }

    /// The square it ends on.
    pub const fn to(self) -> Square {
        self.landing(self.len() - 1)
    }

    /// Whether it is a capture.
    pub const fn is_capture(self) -> bool {
        self.0 >> CAPTURE_BIT & 1 != 0
    }

    /// The number of landing squares: the number of jumps of a capture, 1 for a
    /// quiet move.
    pub const fn len(self) -> usize {
        (self.0 >> COUNT_SHIFT & 31) as usize
    }

    /// Whether it has no landing square (only a capture under construction).
    pub const fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The landing squares in order (for a quiet move, its target).
    pub fn landings(self) -> impl Iterator<Item = Square> {
        (0..self.len()).map(move |i| self.landing(i))
    }

    const fn landing(self, i: usize) -> Square {
        Square::from_slot((self.0 >> (PATH_SHIFT + 5 * i as u32) & 31) as u8)
    }
}

impl fmt::Display for Move {
    /// `g3-h4` for a quiet move, `c5:e3:c1` for a capture.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.from())?;
        let sep = if self.is_capture() { ':' } else { '-' };
        self.landings().try_for_each(|sq| write!(f, "{sep}{sq}"))
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn packing_round_trips() {
        let q = Move::quiet(sq("g3"), sq("h4"));
        assert_eq!(q.to_string(), "g3-h4");
        assert!(!q.is_capture());
        assert_eq!(q.to(), sq("h4"));
        let path: Vec<Square> = ["e3", "c1", "a3", "f8"].map(sq).to_vec();
        let c = Move::capture(sq("c5"), &path).unwrap();
        assert_eq!(c.to_string(), "c5:e3:c1:a3:f8");
        assert_eq!(c.len(), 4);
        assert_eq!(c.from(), sq("c5"));
        assert_eq!(c.to(), sq("f8"));
        let long = vec![sq("h8"); MAX_LANDINGS];
        assert_eq!(Move::capture(sq("a1"), &long).unwrap().to(), sq("h8"));
        assert!(Move::capture(sq("a1"), &[sq("h8"); MAX_LANDINGS + 1]).is_none());
        assert_eq!(std::mem::size_of::<Move>(), 16);
    }
}
