//! Pattern features for the learned evaluation (docs/tuning.md, "Learned
//! evaluations").
//!
//! The 9×9 board is read as its 49 overlapping 3×3 windows. Each cell is
//! empty (digit 0), a pawn of the side to move (1) or of the opponent (2):
//! `3⁹` = 19 683 contents a window, the window's cells the digits. Whether a
//! cell is outside, on the wall, in the town or the bazaar needs no digit:
//! a window's place fixes its cells' zones, and the class (below) names the
//! place.
//!
//! The rules know no direction and no colour (pawns move like rooks, both
//! sides race to e5, the zones are the square's rings), so a position, its
//! eight mirror images and its colour-swapped twin (the other side to move)
//! are worth the same: the windows share weights under the eight symmetries
//! of the square. Their centres fall into ten classes (by their centre's
//! distance from the edges: b2, b3, b4, b5, c3, c4, c5, d4, d5 and e5, the
//! window around the bazaar); each window is read in the orientation that
//! carries it onto its class's representative, and a window that more than
//! one symmetry carries there (on a diagonal or a middle line: two; the
//! bazaar's: eight) in the smallest of those readings. So the colours need
//! no turning: own and opponent are all that matter. 10 × 19 683 = 196 830
//! weights, 49 summed a position.
//!
//! The same layout serves every variant (the board is the same); the
//! shipped weights were trained on `16c`.
//!
//! ```
//! use city::Position;
//! use city::board_core::Evaluate;
//!
//! let mut indices = [0; Position::PATTERNS];
//! Position::default().pattern_indices(&mut indices);
//! assert!(indices.iter().all(|&i| (i as usize) < Position::PATTERN_BOUND));
//! ```

use board_core::Game;

use crate::Position;

/// The contents of one window: `3⁹`.
pub(crate) const CONTENTS: usize = 19_683;
/// The windows, and so the pattern indices of a position.
pub(crate) const PATTERNS: usize = 49;
/// The classes of windows that share weights.
pub(crate) const CLASSES: usize = 10;
/// Every index is below this.
pub(crate) const INDEX_BOUND: usize = CLASSES * CONTENTS;
/// The layout in words (its hash goes into weight files).
pub(crate) const LAYOUT: &str = "city patterns v1: 49 windows of 3x3, digits empty/own/enemy \
    base 3 (the representative's cells rank by rank from its lowest file and rank), 10 classes \
    under the 8 symmetries of the square by centre (b2 b3 b4 b5 c3 c4 c5 d4 d5 e5), a window \
    with several symmetries onto its representative read in the smallest reading";

/// The image of `(f, r)` on a board of side `n + 1` under symmetry `g`:
/// bit 0 swaps file and rank, then bit 1 turns the file over, bit 2 the rank.
const fn image(g: usize, f: usize, r: usize, n: usize) -> (usize, usize) {
    let (mut a, mut b) = if g & 1 != 0 { (r, f) } else { (f, r) };
    if g & 2 != 0 {
        a = n - a;
    }
    if g & 4 != 0 {
        b = n - b;
    }
    (a, b)
}

/// The class of the window centred on `(u, v)` if that is a representative
/// centre (`1 <= u <= v <= 4`): 0 for b2 up to 9 for e5, file by file.
const fn class_of(u: usize, v: usize) -> Option<usize> {
    if u < 1 || u > v || v > 4 {
        return None;
    }
    // Representatives before file u: files 1..u hold 4, 3, 2 of them.
    let before = match u {
        1 => 0,
        2 => 4,
        3 => 7,
        _ => 9,
    };
    Some(before + v - u)
}

/// One window: its lowest cell's bit, its class and the symmetries that
/// carry it onto its class's representative (the first `readings`).
#[derive(Clone, Copy)]
struct Window {
    shift: u32,
    class: u32,
    readings: usize,
    syms: [u8; 8],
}

/// The 49 windows, lowest rank first, by file within a rank.
static WINDOWS: [Window; PATTERNS] = {
    let mut out = [Window { shift: 0, class: 0, readings: 0, syms: [0; 8] }; PATTERNS];
    let mut w = 0;
    while w < PATTERNS {
        let (x, y) = (w % 7, w / 7);
        let mut window = Window { shift: (y * 9 + x) as u32, class: 0, readings: 0, syms: [0; 8] };
        let mut g = 0;
        while g < 8 {
            let (u, v) = image(g, x + 1, y + 1, 8);
            if let Some(class) = class_of(u, v) {
                window.class = class as u32;
                window.syms[window.readings] = g as u8;
                window.readings += 1;
            }
            g += 1;
        }
        assert!(window.readings > 0, "every window has a representative");
        out[w] = window;
        w += 1;
    }
    out
};

/// For each symmetry, a window's nine-bit mask (bit `3 j + i` for the cell
/// `i` files and `j` ranks from its lowest) read in base 3 in the
/// symmetry's orientation: each bit a digit 1 at the place its cell takes.
static BASE3: [[u16; 512]; 8] = {
    let mut out = [[0; 512]; 8];
    let mut g = 0;
    while g < 8 {
        let mut mask = 0;
        while mask < 512 {
            let mut value = 0;
            let mut k = 0;
            while k < 9 {
                if mask & (1 << k) != 0 {
                    let (i, j) = image(g, k % 3, k / 3, 2);
                    value += 3u16.pow((3 * j + i) as u32);
                }
                k += 1;
            }
            out[g][mask] = value;
            mask += 1;
        }
        g += 1;
    }
    out
};

/// The nine-bit mask of the window whose lowest cell is bit `shift`.
#[inline]
fn mask(bits: u128, shift: u32) -> usize {
    let t = bits >> shift;
    ((t & 7) | ((t >> 6) & 0o70) | ((t >> 12) & 0o700)) as usize
}

/// Writes the 49 pattern indices of `pos` into `out` (as many as fit).
pub(crate) fn indices(pos: &Position, out: &mut [u32]) {
    let us = pos.side_to_move();
    let (own, enemy) = (pos.pawns_of(us), pos.pawns_of(us.other()));
    for (slot, window) in out.iter_mut().zip(WINDOWS.iter()) {
        let (own, enemy) = (mask(own, window.shift), mask(enemy, window.shift));
        let mut value = u16::MAX;
        for &g in &window.syms[..window.readings] {
            let table = &BASE3[g as usize];
            value = value.min(table[own] + 2 * table[enemy]);
        }
        *slot = window.class * CONTENTS as u32 + u32::from(value);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use board_core::learned::Learned;
    use board_core::{Cell, Evaluate, Player};

    use super::*;
    use crate::{Setup, Square};

    /// Positions of random `16c` games, at every ply, with their indices.
    fn positions(games: u64) -> Vec<(Position, Vec<u32>)> {
        let all = board_core::testkit::random_positions(games, 100);
        all.into_iter().map(|pos| (pos, indices_of(&pos))).collect()
    }

    fn indices_of(pos: &Position) -> Vec<u32> {
        let mut out = [0; PATTERNS];
        pos.pattern_indices(&mut out);
        out.to_vec()
    }

    /// `pos` under symmetry `g`, the colours swapped (and the side to move)
    /// if `swap`.
    fn transformed(pos: &Position, g: usize, swap: bool) -> Position {
        let setup = pos.to_setup();
        let turn = |p: Player| if swap { p.other() } else { p };
        let mut out = Setup::empty(turn(setup.side_to_move));
        for sq in Square::all() {
            let (f, r) = image(g, sq.file() as usize, sq.rank() as usize, 8);
            out.board[r * 9 + f] = setup.board[sq.index()].map(turn);
        }
        Position::from_setup(out, pos.variant()).unwrap_or_else(|e| panic!("{pos}: {e}"))
    }

    /// The squares of window `w`, by digit of its own (unturned) mask.
    fn window_squares(w: usize) -> Vec<Square> {
        let (x, y) = (w % 7, w / 7);
        (0..9).filter_map(|k| Square::new((x + k % 3) as u8, (y + k / 3) as u8)).collect()
    }

    #[test]
    fn the_windows_cover_the_board_and_fall_into_ten_classes() {
        let mut covered = 0u128;
        let mut per_class = [0; CLASSES];
        for (w, window) in WINDOWS.iter().enumerate() {
            let squares = window_squares(w);
            assert_eq!(squares.len(), 9);
            assert_eq!(window.shift as usize, squares[0].index());
            covered |= squares.iter().fold(0, |m, s| m | 1 << s.index());
            per_class[window.class as usize] += 1;
            // As many readings as symmetries keep the representative.
            let readings = match window.class {
                9 => 8,
                0 | 4 | 7 | 3 | 6 | 8 => 2,
                _ => 1,
            };
            assert_eq!(window.readings, readings, "window {w}");
        }
        assert_eq!(covered, (1 << 81) - 1, "every square is in a window");
        // Corner, edges and inner diagonal: 4 each; the others 8; e5's 1.
        assert_eq!(per_class, [4, 8, 8, 4, 4, 8, 4, 4, 4, 1]);
    }

    #[test]
    fn the_base3_tables_are_the_symmetries_of_a_window() {
        for (g, table) in BASE3.iter().enumerate() {
            let seen: BTreeSet<u16> = table.iter().copied().collect();
            assert_eq!(seen.len(), 512, "symmetry {g} is a permutation of the cells");
            let digits: BTreeSet<u16> = (0..9).map(|k| table[1 << k]).collect();
            assert_eq!(digits, (0..9).map(|k| 3u16.pow(k)).collect(), "symmetry {g}");
            assert_eq!(table[511], (3u16.pow(9) - 1) / 2);
            assert_eq!(table[0o020], 3u16.pow(4), "the centre stays");
        }
        // The swap of file and rank moves b1 (bit 1) onto a2 (digit 3).
        assert_eq!(BASE3[1][0b10], 3u16.pow(3));
        assert_eq!(BASE3[0][0b10], 3);
    }

    #[test]
    fn indices_are_in_their_classes_range_and_every_class_varies() {
        let mut seen = vec![BTreeSet::new(); CLASSES];
        for (_, indices) in positions(20) {
            for (w, &i) in indices.iter().enumerate() {
                let class = WINDOWS[w].class as usize;
                assert!((class * CONTENTS..(class + 1) * CONTENTS).contains(&(i as usize)));
                seen[class].insert(i);
            }
        }
        for (class, values) in seen.iter().enumerate() {
            assert!(values.len() > 10, "class {class} takes {} values", values.len());
        }
    }

    #[test]
    fn mirror_images_and_colour_swapped_twins_have_the_same_indices() {
        let mut differ = 0;
        for (pos, mut expected) in positions(10) {
            expected.sort_unstable();
            for g in 0..8 {
                for swap in [false, true] {
                    let image = transformed(&pos, g, swap);
                    differ += usize::from(image != pos);
                    let mut got = indices_of(&image);
                    got.sort_unstable();
                    assert_eq!(got, expected, "{pos}: symmetry {g}, swap {swap}");
                    assert_eq!(image.evaluate(), pos.evaluate(), "{pos}: symmetry {g}");
                }
            }
        }
        assert!(differ > 1000, "the images differ from the positions");
    }

    /// The shipped weights load, value a position, its mirror images and its
    /// colour-swapped twins alike (the features are symmetric too), and in
    /// multiples of the grain.
    #[test]
    fn the_shipped_weights_load_and_value_images_alike() {
        let learned = Learned::<Position>::shipped().expect("the shipped weights load");
        let (mut differ, mut count) = (0, 0);
        for (pos, _) in positions(6) {
            count += 1;
            let value = learned.evaluate(&pos);
            // Rounded to the grain, unless the rules value it outright.
            let fixed = matches!(pos.features(&mut [0; 5]), board_core::Valuation::Fixed(_));
            assert!(fixed || value % Position::LEARNED_GRAIN == 0, "{pos}: {value}");
            for g in 0..8 {
                for swap in [false, true] {
                    let image = transformed(&pos, g, swap);
                    assert_eq!(learned.evaluate(&image), value, "{pos}: symmetry {g}");
                }
            }
            differ += usize::from(value != pos.evaluate());
        }
        assert!(differ * 3 > count, "the learned values are the classic ones ({differ} differ)");
    }

    /// A lone pawn of each side on `sq` (with an enemy pawn on a1 or i9 that
    /// lies in no window with it) shows as its digit in exactly the windows
    /// that hold it.
    #[test]
    fn a_lone_pawn_shows_in_the_windows_that_hold_it() {
        let mut checked = 0;
        for (name, other) in [("c4", "i9"), ("e5", "a1"), ("h2", "a9"), ("e8", "e1")] {
            let sq: Square = name.parse().unwrap_or_else(|e| panic!("{e}"));
            let far: Square = other.parse().unwrap_or_else(|e| panic!("{e}"));
            for (side, digit) in [(Player::Second, 2), (Player::First, 1)] {
                // The pawn on `sq` is White's; e5 only when White has just won.
                let mut setup = Setup::empty(side);
                setup.board[sq.index()] = Some(Player::First);
                setup.board[far.index()] = Some(Player::Second);
                let Ok(pos) = Position::from_setup(setup, Default::default()) else {
                    continue;
                };
                let mut holding = 0;
                for (w, &i) in indices_of(&pos).iter().enumerate() {
                    let squares = window_squares(w);
                    let contents = i as usize % CONTENTS;
                    if squares.contains(&sq) {
                        holding += 1;
                        let digit_at = |k: u32| digit * 3usize.pow(k);
                        assert!((0..9).map(digit_at).any(|d| d == contents), "{pos}: window {w}");
                    } else if !squares.contains(&far) {
                        assert_eq!(contents, 0, "{pos}: window {w}");
                    }
                }
                let windows_per_line = |x: u8| match x {
                    0 | 8 => 1,
                    1 | 7 => 2,
                    _ => 3,
                };
                let expected = windows_per_line(sq.file()) * windows_per_line(sq.rank());
                assert_eq!(holding, expected, "{pos}");
                checked += 1;
            }
        }
        assert_eq!(checked, 7, "e5 with White to move is no position");
    }
}
