//! Pattern features for a learned evaluation (docs/tuning.md, "Training").
//!
//! The board is read as its 49 overlapping 2×2 windows (first cells `a1`
//! to `g7`). Each cell of a window is empty (digit 0), the side to move's
//! checker (1) or the opponent's (2); a window's four digits, base 3, are
//! its contents (`3⁴` = 81 values). Windows share weights under the eight
//! symmetries of the square: the 49 windows fall in ten classes (by their
//! distance to the edges), and a window's contents are read in the
//! orientation that carries it onto its class's representative — for the
//! windows that more than one symmetry carries there (those on a diagonal
//! or a middle line, two; the centre window `d4`–`e5`, all eight), the
//! smallest of those readings. So a position and its mirror images have
//! the same indices (as a multiset), and an evaluation that sums one weight
//! per index values them alike.
//!
//! ```
//! use stykovka::Position;
//! use stykovka::patterns::{self, PATTERNS, INDEX_BOUND};
//!
//! let mut indices = [0; PATTERNS];
//! patterns::indices(&Position::default(), &mut indices);
//! assert!(indices.iter().all(|&i| (i as usize) < INDEX_BOUND));
//! ```

use crate::Position;

/// The side of a window, in squares.
const SIDE: usize = 2;
/// The windows along a file or a rank (8 − 2 + 1).
const SPAN: usize = 8 - SIDE + 1;
/// The cells of a window.
const CELLS: usize = SIDE * SIDE;
/// The contents of one window: `3⁴`.
pub const CONTENTS: usize = 81;
/// The windows of a position, and so the indices [`indices`] writes.
pub const PATTERNS: usize = SPAN * SPAN;
/// The classes of windows under the board's symmetries.
pub const CLASSES: usize = 10;
/// Every index [`indices`] writes is below this: `CLASSES * CONTENTS`.
pub const INDEX_BOUND: usize = CLASSES * CONTENTS;
/// The layout in words; its hash ([`layout_hash`]) tells weight files of
/// another layout apart.
pub const LAYOUT: &str = "stykovka patterns v2: 2x2 windows a1..g7, digits empty/own/enemy \
                          base 3 (a window's first cell lowest), 10 classes under the 8 \
                          symmetries, a window that several symmetries carry onto its \
                          class's representative read in the smallest of those orientations";

/// A 64-bit FNV-1a hash of [`LAYOUT`]
/// ([`board_core::learned::layout_hash`]).
pub const fn layout_hash() -> u64 {
    board_core::learned::layout_hash(LAYOUT)
}

/// Symmetry `g` (0..8: bit 0 mirrors files, bit 1 mirrors ranks, bit 2
/// transposes first) of the point `(x, y)` of an `n`×`n` grid.
const fn map(g: usize, x: usize, y: usize, n: usize) -> (usize, usize) {
    let (mut x, mut y) = if g & 4 != 0 { (y, x) } else { (x, y) };
    if g & 1 != 0 {
        x = n - 1 - x;
    }
    if g & 2 != 0 {
        y = n - 1 - y;
    }
    (x, y)
}

/// How each window is read: its class, the square of its first cell (the
/// corner nearest `a1`), and the symmetries that carry it onto its class's
/// representative (bit `g` for symmetry `g`: one bit for most windows, two
/// on a diagonal or a middle line, all eight for the centre window).
#[derive(Clone, Copy)]
struct Window {
    class: u32,
    base: u8,
    symmetries: u8,
}

const fn windows() -> [Window; PATTERNS] {
    // The representative of each window's orbit: the smallest `y * SPAN + x`.
    let mut rep = [0usize; PATTERNS];
    let mut w = 0;
    while w < PATTERNS {
        let (x, y) = (w % SPAN, w / SPAN);
        let mut best = usize::MAX;
        let mut g = 0;
        while g < 8 {
            let (mx, my) = map(g, x, y, SPAN);
            if my * SPAN + mx < best {
                best = my * SPAN + mx;
            }
            g += 1;
        }
        rep[w] = best;
        w += 1;
    }
    // Classes numbered by their representatives in order.
    let mut class_of_rep = [u32::MAX; PATTERNS];
    let mut classes = 0;
    let mut r = 0;
    while r < PATTERNS {
        let mut w = 0;
        while w < PATTERNS {
            if rep[w] == r && class_of_rep[r] == u32::MAX {
                class_of_rep[r] = classes;
                classes += 1;
            }
            w += 1;
        }
        r += 1;
    }
    assert!(classes as usize == CLASSES);
    let mut out = [Window { class: 0, base: 0, symmetries: 0 }; PATTERNS];
    let mut w = 0;
    while w < PATTERNS {
        let (x, y) = (w % SPAN, w / SPAN);
        out[w].class = class_of_rep[rep[w]];
        out[w].base = (y * 8 + x) as u8;
        let mut g = 0;
        while g < 8 {
            let (mx, my) = map(g, x, y, SPAN);
            if my * SPAN + mx == rep[w] {
                out[w].symmetries |= 1 << g;
            }
            g += 1;
        }
        w += 1;
    }
    out
}

const WINDOWS: [Window; PATTERNS] = windows();

/// The cells of a window as four bits: bit `j * 2 + i` is the cell `i`
/// files and `j` ranks from the window's first cell.
const MASKS: usize = 1 << CELLS;

/// `DIGITS[g][m]`: the base-3 value of the window whose cells in the mask
/// `m` hold a 1, read under symmetry `g` (cell `(i, j)` is the digit
/// `map(g, i, j)`, digit `k` worth `3^k`). A window's contents are
/// `DIGITS[g][own] + 2 · DIGITS[g][enemy]`.
const fn digits() -> [[u8; MASKS]; 8] {
    let mut out = [[0; MASKS]; 8];
    let mut g = 0;
    while g < 8 {
        let mut m = 0;
        while m < MASKS {
            let mut value = 0;
            let mut cell = 0;
            while cell < CELLS {
                if m >> cell & 1 != 0 {
                    let (di, dj) = map(g, cell % SIDE, cell / SIDE, SIDE);
                    value += 3u8.pow((dj * SIDE + di) as u32);
                }
                cell += 1;
            }
            out[g][m] = value;
            m += 1;
        }
        g += 1;
    }
    out
}

const DIGITS: [[u8; MASKS]; 8] = digits();

/// The four cells of `bits` in the window whose first cell is `base`.
#[inline]
fn cells(bits: u64, base: u8) -> usize {
    let rows = bits >> base;
    (rows & 3 | (rows >> 6) & 0b1100) as usize
}

/// The keys of a window's cells: a byte, the side to move's four cells in
/// bits 0 to 3 and the opponent's in bits 4 to 7.
const KEYS: usize = MASKS * MASKS;

/// `INDEX[w][own | enemy << 4]`: the index of window `w` whose cells hold
/// those checkers (`class * CONTENTS + contents`, the contents read under
/// each symmetry that carries the window onto its class's representative,
/// the smallest kept). Built at compile time from [`DIGITS`]; one look-up
/// a window at run time (49 × 256 × 2 bytes). Keys with a cell in both
/// masks are never read and hold 0.
const fn index_table() -> [[u16; KEYS]; PATTERNS] {
    let mut out = [[0; KEYS]; PATTERNS];
    let mut w = 0;
    while w < PATTERNS {
        let window = WINDOWS[w];
        let mut key = 0;
        while key < KEYS {
            let (mine, theirs) = (key % MASKS, key / MASKS);
            if mine & theirs == 0 {
                let mut best = u16::MAX;
                let mut g = 0;
                while g < 8 {
                    if window.symmetries >> g & 1 != 0 {
                        let read = DIGITS[g][mine] as u16 + 2 * DIGITS[g][theirs] as u16;
                        if read < best {
                            best = read;
                        }
                    }
                    g += 1;
                }
                out[w][key] = window.class as u16 * CONTENTS as u16 + best;
            }
            key += 1;
        }
        w += 1;
    }
    out
}

static INDEX: [[u16; KEYS]; PATTERNS] = index_table();

/// Writes the pattern index of each of the position's 49 windows, side to
/// move's view (each below [`INDEX_BOUND`]: `class * CONTENTS + contents`),
/// in window order (`a1`'s window first, then along the rank). No
/// allocation: two 4-bit masks and one table look-up a window.
pub fn indices(pos: &Position, out: &mut [u32]) {
    let (own, enemy) = pos.own_and_enemy();
    for ((slot, window), table) in out.iter_mut().zip(&WINDOWS).zip(&INDEX) {
        let key = cells(own, window.base) | cells(enemy, window.base) << CELLS;
        *slot = u32::from(table[key]);
    }
}

/// The class and the four cells (0 empty, 1 own, 2 the opponent's; digit
/// `k` first) of an index of [`indices`], or `None` at or past
/// [`INDEX_BOUND`].
pub fn decode(index: u32) -> Option<(usize, [u8; CELLS])> {
    let index = index as usize;
    if index >= INDEX_BOUND {
        return None;
    }
    let (class, mut contents) = (index / CONTENTS, index % CONTENTS);
    let mut cells = [0; CELLS];
    for cell in &mut cells {
        *cell = (contents % 3) as u8;
        contents /= 3;
    }
    Some((class, cells))
}

#[cfg(test)]
mod tests {
    use super::*;
    use board_core::learned::Learned;
    use board_core::{Evaluate, Game, Player, Rng};

    /// `bits` under symmetry `g` of the 8×8 board.
    fn mirror(bits: u64, g: usize) -> u64 {
        (0..64).filter(|sq| bits >> sq & 1 != 0).fold(0, |out, sq| {
            let (x, y) = map(g, sq % 8, sq / 8, 8);
            out | 1 << (y * 8 + x)
        })
    }

    /// Positions along random games, and random scatterings of checkers.
    fn positions() -> Vec<Position> {
        let mut rng = Rng::new(5);
        let mut out = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..20 {
            let mut pos = Position::default();
            for _ in 0..40 {
                out.push(pos);
                moves.clear();
                pos.generate_moves(&mut moves);
                let Some(&mv) = rng.choose(&moves) else { break };
                pos.play_unchecked(mv);
            }
        }
        for _ in 0..200 {
            let (mut a, mut b) = (0u64, 0u64);
            for sq in 0..64 {
                match rng.below(3) {
                    1 => a |= 1 << sq,
                    2 => b |= 1 << sq,
                    _ => {}
                }
            }
            out.push(Position::with_pieces([a, b], Player::First));
        }
        out
    }

    fn sorted(pos: &Position) -> Vec<u32> {
        let mut out = [0; PATTERNS];
        indices(pos, &mut out);
        let mut out = out.to_vec();
        out.sort_unstable();
        out
    }

    #[test]
    fn indices_are_in_range_and_every_class_is_used() {
        let mut seen = [0usize; CLASSES];
        let mut contents = vec![std::collections::BTreeSet::new(); CLASSES];
        for pos in positions() {
            let mut out = [0; PATTERNS];
            indices(&pos, &mut out);
            for i in out {
                assert!((i as usize) < INDEX_BOUND, "{i} at {pos}");
                seen[i as usize / CONTENTS] += 1;
                contents[i as usize / CONTENTS].insert(i as usize % CONTENTS);
            }
        }
        // By representative: the corner 4, the edge one and two from a
        // corner 8 and 8, the edge middle 4, the diagonal one from the
        // corner 4, then 8, the middle line one from the edge 4, the
        // diagonal two from the corner 4, the middle line two from the edge
        // 4, the centre 1: each window once per position.
        let per = [4, 8, 8, 4, 4, 8, 4, 4, 4, 1];
        let n = positions().len();
        assert_eq!(seen, per.map(|c| c * n));
        // Every class takes many contents (the centre's, read in the
        // smallest of eight orientations, at most 21).
        for (class, contents) in contents.iter().enumerate() {
            assert!(contents.len() >= 15, "class {class}: {} contents", contents.len());
        }
    }

    /// A window keeps every symmetry that carries it onto its class's
    /// representative: as many as 8 divided by the size of its class.
    #[test]
    fn every_window_keeps_all_its_symmetries() {
        let mut size = [0u32; CLASSES];
        for window in &WINDOWS {
            size[window.class as usize] += 1;
        }
        for (w, window) in WINDOWS.iter().enumerate() {
            assert_eq!(window.symmetries.count_ones() * size[window.class as usize], 8, "{w}");
        }
        assert_eq!(WINDOWS[3 * SPAN + 3].symmetries, 0xff, "the centre window");
    }

    #[test]
    fn mirror_images_have_the_same_indices() {
        for pos in positions() {
            let side = pos.side_to_move();
            let expected = sorted(&pos);
            for g in 0..8 {
                let pieces = [
                    mirror(pos.checkers(Player::First), g),
                    mirror(pos.checkers(Player::Second), g),
                ];
                let image = Position::with_pieces(pieces, side);
                assert_eq!(sorted(&image), expected, "symmetry {g} of {pos}");
            }
        }
    }

    #[test]
    fn colours_swapped_with_the_side_to_move_keep_the_indices() {
        for pos in positions().into_iter().take(100) {
            let swapped = Position::with_pieces(
                [pos.checkers(Player::Second), pos.checkers(Player::First)],
                pos.side_to_move().other(),
            );
            assert_eq!(sorted(&swapped), sorted(&pos), "{pos}");
        }
    }

    #[test]
    fn one_checker_shows_in_the_windows_that_hold_it() {
        for sq in 0..64u32 {
            let (file, rank) = ((sq % 8) as usize, (sq / 8) as usize);
            let holding = |p: usize| p.saturating_sub(SIDE - 1)..=p.min(SPAN - 1);
            let expected = holding(file).count() * holding(rank).count();
            for (own, enemy, digit) in [(1u64 << sq, 0, 1), (0, 1u64 << sq, 2)] {
                let pos = Position::with_pieces([own, enemy], Player::First);
                let mut out = [0; PATTERNS];
                indices(&pos, &mut out);
                let mut marked = 0;
                for (w, &i) in out.iter().enumerate() {
                    let (class, cells) = decode(i).expect("in range");
                    assert_eq!(class, WINDOWS[w].class as usize);
                    let nonzero: Vec<u8> = cells.iter().copied().filter(|&c| c != 0).collect();
                    let (x, y) = (w % SPAN, w / SPAN);
                    let inside = (x..x + SIDE).contains(&file) && (y..y + SIDE).contains(&rank);
                    assert_eq!(
                        nonzero,
                        if inside { vec![digit] } else { vec![] },
                        "{sq} window {w}"
                    );
                    marked += usize::from(inside);
                }
                assert_eq!(marked, expected, "square {sq}");
            }
        }
    }

    /// The tables read a window as its definition does, cell by cell: the
    /// cell `(i, j)` is the digit `map(g, i, j)`, and a window with several
    /// symmetries takes the smallest reading.
    #[test]
    fn the_tables_read_every_cell_as_defined() {
        for pos in positions() {
            let (own, enemy) = pos.own_and_enemy();
            let mut out = [0; PATTERNS];
            indices(&pos, &mut out);
            for (w, (window, &index)) in WINDOWS.iter().zip(&out).enumerate() {
                let (x, y) = (w % SPAN, w / SPAN);
                let reading = |g: u8| {
                    let mut value = 0;
                    for (i, j) in (0..SIDE).flat_map(|j| (0..SIDE).map(move |i| (i, j))) {
                        let sq = (y + j) * 8 + x + i;
                        let digit = (own >> sq & 1) + 2 * (enemy >> sq & 1);
                        let (di, dj) = map(usize::from(g), i, j, SIDE);
                        value += digit as u32 * 3u32.pow((dj * SIDE + di) as u32);
                    }
                    value
                };
                let smallest = (0..8u8)
                    .filter(|g| window.symmetries >> g & 1 != 0)
                    .map(reading)
                    .min()
                    .expect("a symmetry");
                let expected = window.class * CONTENTS as u32 + smallest;
                assert_eq!(index, expected, "window {w} of {pos}");
            }
        }
    }

    /// The shipped weights load, and value a position, its mirror images and
    /// its colour-swapped twin alike (the hand features are symmetric too).
    #[test]
    fn the_shipped_weights_load_and_value_symmetric_positions_alike() {
        let learned = Learned::<Position>::shipped().expect("the shipped weights load");
        let mut differ = 0;
        for pos in positions() {
            let value = learned.evaluate(&pos);
            let side = pos.side_to_move();
            for g in 0..8 {
                let pieces = [
                    mirror(pos.checkers(Player::First), g),
                    mirror(pos.checkers(Player::Second), g),
                ];
                let image = Position::with_pieces(pieces, side);
                assert_eq!(learned.evaluate(&image), value, "symmetry {g} of {pos}");
            }
            let swapped = Position::with_pieces(
                [pos.checkers(Player::Second), pos.checkers(Player::First)],
                side.other(),
            );
            assert_eq!(learned.evaluate(&swapped), value, "colours swapped in {pos}");
            differ += usize::from(value != pos.evaluate());
        }
        assert!(differ > 500, "the learned values are the classic ones ({differ} differ)");
    }

    #[test]
    fn decode_inverts_the_encoding() {
        for index in (0..INDEX_BOUND as u32).step_by(7).chain([INDEX_BOUND as u32 - 1]) {
            let (class, cells) = decode(index).expect("in range");
            let back = cells.iter().rev().fold(0, |i, &c| i * 3 + u32::from(c));
            assert_eq!(class as u32 * CONTENTS as u32 + back, index);
        }
        assert_eq!(decode(INDEX_BOUND as u32), None);
    }
}
