//! Pattern features for the learned evaluation (docs/tuning.md, "Learned
//! evaluations").
//!
//! Only the top of each column is read (it owns the column and gives it its
//! rank; the heights count in the hand features, which the model keeps):
//! each dark square is empty (digit 0), topped by a man of the side to move
//! (1) or of the opponent (2), or by a king of the side to move (3) or of
//! the opponent (4).
//!
//! The board is read as 18 overlapping blocks of three ranks by four files,
//! the files a-d, c-f or e-h (two dark squares a rank) and the ranks 1-3 up
//! to 6-8: six dark squares a block, `5⁶` = 15 625 contents, a block's
//! lowest square the lowest digit. Every capture's three squares (from, the
//! jumped column, the landing of a man's jump) lie in some block. The board
//! is seen from the side to move: when Black moves it is turned half a
//! circle (the only symmetry of the game: the mirror images of a dark square
//! are light), so both colours share weights and a position and its
//! colour-swapped, turned twin have the same indices. Each block has weights
//! of its own (the rank matters: promotion and the scoring halves): 18 ×
//! 15 625 = 281 250 weights, 18 summed a position.
//!
//! ```
//! use adiyukh::Position;
//! use adiyukh::board_core::Evaluate;
//!
//! let mut indices = [0; Position::PATTERNS];
//! Position::default().pattern_indices(&mut indices);
//! assert!(indices.iter().all(|&i| (i as usize) < Position::PATTERN_BOUND));
//! ```

use crate::{Color, Position};

/// The contents of one block: `5⁶`.
pub(crate) const CONTENTS: usize = 15_625;
/// The blocks, and so the pattern indices of a position.
pub(crate) const PATTERNS: usize = 18;
/// Every index is below this.
pub(crate) const INDEX_BOUND: usize = PATTERNS * CONTENTS;
/// The layout in words (its hash goes into weight files).
pub(crate) const LAYOUT: &str = "adiyukh patterns v1: 18 blocks of 3 ranks x 4 files (files a-d, \
    c-f, e-h; ranks 1-3 to 6-8), column tops only, digits empty/own man/enemy man/own king/\
    enemy king base 5 (a block's lowest dark square lowest), seen from the side to move \
    (board turned for Black), one weight table a block";

/// The dark squares of the even ranks (1, 3, 5, 7) and of the odd ones.
const DARK_EVEN_RANKS: u64 = 0x0055_0055_0055_0055;
const DARK_ODD_RANKS: u64 = 0xAA00_AA00_AA00_AA00;

/// The 32 dark squares of a 64-square bitboard packed by slot (bit
/// `4 rank + file / 2`, [`Square::slot`](crate::Square)).
#[inline]
fn slots(bits: u64) -> u32 {
    // Every dark square on an even bit of its rank's byte, then the even
    // bits gathered: pairs, nibbles, bytes, halves.
    let mut x = (bits & DARK_EVEN_RANKS) | ((bits & DARK_ODD_RANKS) >> 1);
    x = (x | (x >> 1)) & 0x3333_3333_3333_3333;
    x = (x | (x >> 2)) & 0x0f0f_0f0f_0f0f_0f0f;
    x = (x | (x >> 4)) & 0x00ff_00ff_00ff_00ff;
    x = (x | (x >> 8)) & 0x0000_ffff_0000_ffff;
    ((x | (x >> 16)) & 0xffff_ffff) as u32
}

/// The six cells of the block whose lowest slot is `base`, as a mask (bit
/// `2 i + j` for the slot `base + 4 i + j`).
#[inline]
fn block(slots: u32, base: u32) -> usize {
    let t = slots >> base;
    ((t & 3) | ((t >> 2) & 0xc) | ((t >> 4) & 0x30)) as usize
}

/// A six-bit mask's value in base 5, each bit a digit 1.
static BASE5: [u16; 64] = {
    let mut t = [0; 64];
    let mut mask = 0;
    while mask < 64 {
        let (mut value, mut power, mut k) = (0, 1, 0);
        while k < 6 {
            if mask & (1 << k) != 0 {
                value += power;
            }
            power *= 5;
            k += 1;
        }
        t[mask] = value;
        mask += 1;
    }
    t
};

/// The lowest slot of block `w` (ranks `w / 3` up, files from `2 (w % 3)`).
const fn base(w: usize) -> u32 {
    (4 * (w / 3) + w % 3) as u32
}

/// Writes the 18 pattern indices of `pos` into `out` (as many as fit).
pub(crate) fn indices(pos: &Position, out: &mut [u32]) {
    let (own, enemy) = match pos.side {
        Color::White => (pos.white, pos.black),
        Color::Black => (pos.black, pos.white),
    };
    // Seen from the side to move: for Black the board turned, slot `s` to
    // `31 - s`.
    let view = |bits: u64| {
        let s = slots(bits);
        if pos.side == Color::Black { s.reverse_bits() } else { s }
    };
    let (own, enemy, kings) = (view(own), view(enemy), view(pos.kings));
    for (w, slot) in out.iter_mut().enumerate().take(PATTERNS) {
        let b = base(w);
        let value = BASE5[block(own, b)] + 2 * (BASE5[block(enemy, b)] + BASE5[block(kings, b)]);
        *slot = (w * CONTENTS) as u32 + u32::from(value);
    }
}

#[cfg(test)]
mod tests {
    use board_core::learned::Learned;
    use board_core::{Cell, Evaluate};

    use super::*;
    use crate::{Piece, Square};

    fn indices_of(pos: &Position) -> Vec<u32> {
        let mut out = vec![0; PATTERNS];
        pos.pattern_indices(&mut out);
        out
    }

    /// Positions of random games, at every ply.
    fn positions(games: u64) -> Vec<Position> {
        board_core::testkit::random_positions(games, 150)
    }

    /// The square turned half a circle.
    fn turned(sq: Square) -> Square {
        Square::new(7 - sq.file(), 7 - sq.rank()).unwrap_or(sq)
    }

    /// `pos` turned half a circle with the colours (and the side to move)
    /// swapped: the same position for the other side.
    fn twin(pos: &Position) -> Position {
        let swap = |p: Piece| Piece { color: p.color.other(), king: p.king };
        let mut text = String::from(if pos.turn() == Color::White { "b" } else { "w" });
        for sq in Square::all() {
            let col = pos.column(sq);
            if !col.is_empty() {
                text.push_str(&format!(" {}:", turned(sq)));
                col.pieces().for_each(|p| text.push(swap(p).letter()));
            }
        }
        text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    /// The squares of block `w`, by slot.
    fn block_squares(w: usize) -> Vec<Square> {
        (0..3)
            .flat_map(|i| (0..2).map(move |j| base(w) as u8 + 4 * i + j))
            .map(Square::from_slot)
            .collect()
    }

    #[test]
    fn slots_are_the_squares_dense_numbers() {
        for sq in Square::all() {
            assert_eq!(slots(1 << sq.index()), 1 << sq.slot(), "{sq}");
            assert_eq!(slots(1 << turned(sq).index()), (1u32 << sq.slot()).reverse_bits());
        }
        assert_eq!(slots(!crate::board::DARK), 0, "light squares are dropped");
    }

    #[test]
    fn blocks_are_three_ranks_of_four_files_and_hold_every_capture() {
        let mut covered = 0u32;
        for w in 0..PATTERNS {
            let squares = block_squares(w);
            let files = squares.iter().map(|s| s.file());
            let ranks = squares.iter().map(|s| s.rank());
            let (f0, r0) = (files.clone().min().unwrap_or(0), ranks.clone().min().unwrap_or(0));
            assert_eq!(f0 % 2, 0, "block {w}: {squares:?}");
            assert!(files.clone().all(|f| f < f0 + 4) && ranks.clone().all(|r| r < r0 + 3));
            assert_eq!(squares.len(), 6);
            covered |= squares.iter().fold(0, |m, s| m | 1 << s.slot());
        }
        assert_eq!(covered, u32::MAX, "every square is in a block");
        // Every jump of a man (from, over, to) lies in one block.
        for from in Square::all() {
            for (df, dr) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
                let at = |k: i8| {
                    let (f, r) = (from.file() as i8 + k * df, from.rank() as i8 + k * dr);
                    Square::new(u8::try_from(f).ok()?, u8::try_from(r).ok()?)
                };
                let (Some(over), Some(to)) = (at(1), at(2)) else { continue };
                let holds = |w| [from, over, to].iter().all(|s| block_squares(w).contains(s));
                assert!((0..PATTERNS).any(holds), "{from} over {over} to {to}");
            }
        }
    }

    #[test]
    fn indices_are_in_their_blocks_range_and_every_block_varies() {
        let mut seen = vec![std::collections::BTreeSet::new(); PATTERNS];
        for pos in positions(20) {
            for (w, &i) in indices_of(&pos).iter().enumerate() {
                assert!((w * CONTENTS..(w + 1) * CONTENTS).contains(&(i as usize)), "{pos}");
                seen[w].insert(i);
            }
        }
        for (w, values) in seen.iter().enumerate() {
            assert!(values.len() > 20, "block {w} takes {} values", values.len());
        }
        assert!(seen.iter().any(|v| v.iter().any(|&i| {
            let mut c = i as usize % CONTENTS;
            (0..6).any(|_| {
                let king = c % 5 >= 3;
                c /= 5;
                king
            })
        })));
    }

    #[test]
    fn colour_swapped_twins_have_the_same_indices() {
        for pos in positions(8) {
            let twin = twin(&pos);
            assert_eq!(twin.evaluate(), pos.evaluate(), "{pos}");
            assert_eq!(indices_of(&twin), indices_of(&pos), "{pos}");
        }
    }

    /// The shipped weights load, and value a position and its
    /// colour-swapped twin alike (the features are symmetric too).
    #[test]
    fn the_shipped_weights_load_and_value_twins_alike() {
        let learned = Learned::<Position>::shipped().expect("the shipped weights load");
        let mut differ = 0;
        for pos in positions(8) {
            let value = learned.evaluate(&pos);
            assert_eq!(learned.evaluate(&twin(&pos)), value, "{pos}");
            differ += usize::from(value != pos.evaluate());
        }
        assert!(differ > 100, "the learned values are the classic ones ({differ} differ)");
    }

    /// All 24 pieces in one column on `sq`, topped by `top`: its square shows
    /// as the top's digit in exactly the blocks that hold it.
    #[test]
    fn a_lone_column_shows_in_the_blocks_that_hold_it() {
        let pieces = |top: char| format!("{}{}{top}", "w".repeat(12), "b".repeat(11));
        for (text, digit) in [
            (format!("w e5:{}", pieces('b')), 2),
            (format!("w e5:{}", pieces('B')), 4),
            (format!("b e5:{}", pieces('B')), 3),
            (format!("b e5:{}", pieces('b')), 1),
        ] {
            let pos: Position = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            let e5: Square = "e5".parse().unwrap_or_else(|e| panic!("{e}"));
            // Black to move sees the board turned.
            let seen = if pos.turn() == Color::Black { turned(e5) } else { e5 };
            let mut holding = 0;
            for (w, &i) in indices_of(&pos).iter().enumerate() {
                let contents = i as usize % CONTENTS;
                match block_squares(w).iter().position(|&s| s == seen) {
                    Some(cell) => {
                        holding += 1;
                        assert_eq!(contents, digit * 5usize.pow(cell as u32), "{text} block {w}");
                    }
                    None => assert_eq!(contents, 0, "{text} block {w}"),
                }
            }
            assert_eq!(holding, 6, "{text}: e5 (and d4) lie in six blocks");
        }
    }
}
