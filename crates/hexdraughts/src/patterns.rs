//! Pattern features for the learned evaluation (docs/tuning.md, "Learned
//! evaluations").
//!
//! The board is read as its 44 rhombic windows of 3×3 fields along the two
//! lines of play that go down (each window three fields by three, the rows
//! of the window along one line, the columns along the other: a field and
//! its neighbours down-right, down-left and beyond). Only men are read (as
//! in Scan; kings count in the hand features): each field of a window is
//! empty or a king (digit 0), a man of the side to move (1) or of the
//! opponent (2); a window's nine digits, base 3, are its contents (3⁹ =
//! 19 683 values).
//!
//! The board is seen from the side to move: when Black moves, it is turned
//! half a circle first, so own men always move towards row A. Windows
//! share weights under the left-right mirror: the 44 windows fall into 24
//! classes (20 pairs and the 4 windows on the mirror axis), each read in the
//! orientation of its class's first window (a window on the axis in the
//! smaller of its two readings). So a position and its mirror image have the
//! same indices, and a position and its colour-swapped, half-turned twin
//! too.
//!
//! ```
//! use hexdraughts::Position;
//! use hexdraughts::board_core::Evaluate;
//!
//! let mut indices = [0; Position::PATTERNS];
//! Position::default().pattern_indices(&mut indices);
//! assert!(indices.iter().all(|&i| (i as usize) < Position::PATTERN_BOUND));
//! ```

use board_core::Game;

use crate::board::{ALL_FIELDS, Bits};
use crate::position::Position;

/// The padded grid's width: a step down-left adds it to the bit index.
const WIDTH: usize = 11;
/// The contents of one window: `3⁹`.
pub(crate) const CONTENTS: usize = 19_683;
/// The windows, and so the pattern indices of a position.
pub(crate) const PATTERNS: usize = 44;
/// The classes of windows under the mirror.
pub(crate) const CLASSES: usize = 24;
/// Every index is below this.
pub(crate) const INDEX_BOUND: usize = CLASSES * CONTENTS;
/// The layout in words (its hash goes into weight files).
pub(crate) const LAYOUT: &str = "hexdraughts patterns v1: 44 windows of 3x3 fields along the \
    down-right (low digit) and down-left lines, men only, digits empty/own/enemy base 3, \
    seen from the side to move (board turned for Black), 24 classes under the mirror, \
    windows on the axis read in the smaller orientation";

/// A window: its top field's padded bit, its class, and how it is read.
#[derive(Clone, Copy, Debug)]
struct Window {
    /// The padded bit of the window's top field (its digit 0), and the
    /// window's class: [`indices`] reads `slice`, `shift` and `offset`,
    /// made from them; the tests read them.
    #[cfg_attr(not(test), allow(dead_code))]
    base: u8,
    #[cfg_attr(not(test), allow(dead_code))]
    class: u16,
    /// `class * CONTENTS`: the first index of its class.
    offset: u32,
    /// Which 64-bit slice of the board holds the window ([`slices`]), and
    /// the window's top field's bit in it.
    slice: u8,
    shift: u8,
    /// Read transposed (the mirror of its class's first window).
    transpose: bool,
    /// On the mirror axis: the smaller of the two readings.
    axis: bool,
}

/// Whether the window with top field at padded bit `base` lies on the board.
const fn on_board(base: usize) -> bool {
    if base % WIDTH > WIDTH - 3 {
        return false;
    }
    let mut c = 0;
    while c < 3 {
        let mut a = 0;
        while a < 3 {
            let bit = base + c * WIDTH + a;
            if bit >= 128 || ALL_FIELDS & (1 << bit) == 0 {
                return false;
            }
            a += 1;
        }
        c += 1;
    }
    true
}

/// The mirror of the window at `base`: `(p, q)` becomes `(q, p)`.
const fn mirror(base: usize) -> usize {
    (base % WIDTH) * WIDTH + base / WIDTH
}

const fn windows() -> [Window; PATTERNS] {
    let mut out = [Window {
        base: 0,
        class: 0,
        offset: 0,
        slice: 0,
        shift: 0,
        transpose: false,
        axis: false,
    }; PATTERNS];
    let mut class_of = [u16::MAX; 128];
    let (mut n, mut classes) = (0, 0);
    let mut base = 0;
    while base < 128 {
        if on_board(base) {
            let m = mirror(base);
            let first = if m < base { m } else { base };
            if class_of[first] == u16::MAX {
                class_of[first] = classes;
                classes += 1;
            }
            out[n] = Window {
                base: base as u8,
                class: class_of[first],
                offset: class_of[first] as u32 * CONTENTS as u32,
                slice: (base / SLICE) as u8,
                shift: (base % SLICE) as u8,
                transpose: m < base,
                axis: m == base,
            };
            n += 1;
        }
        base += 1;
    }
    assert!(n == PATTERNS && classes as usize == CLASSES);
    out
}

static WINDOWS: [Window; PATTERNS] = windows();

/// Tables over a window's nine cells as a 9-bit mask (bit `3 c + a` for
/// the field `a` steps down-right and `c` down-left of the top).
struct Tables {
    /// The mask's value in base 3, each bit a digit 1.
    base3: [u16; 512],
    /// The transposed mask's (`a` and `c` swapped: the mirror) value in
    /// base 3.
    base3_transposed: [u16; 512],
    /// The mask transposed.
    transpose: [u16; 512],
}

const fn tables() -> Tables {
    let mut t = Tables { base3: [0; 512], base3_transposed: [0; 512], transpose: [0; 512] };
    let mut mask = 0;
    while mask < 512 {
        let (mut value, mut power, mut k) = (0, 1, 0);
        while k < 9 {
            if mask & (1 << k) != 0 {
                value += power;
                let (a, c) = (k % 3, k / 3);
                t.transpose[mask] |= 1 << (3 * a + c);
            }
            power *= 3;
            k += 1;
        }
        t.base3[mask] = value as u16;
        mask += 1;
    }
    mask = 0;
    while mask < 512 {
        t.base3_transposed[mask] = t.base3[t.transpose[mask] as usize];
        mask += 1;
    }
    t
}

static TABLES: Tables = tables();

/// The bits between one 64-bit slice of the board and the next (40). A
/// window spans 2 `WIDTH` + 3 = 25 bits (its top field's bit and the 24
/// above), so the slice starting at bit `k · SLICE` holds every window
/// whose top field's bit is `k · SLICE` to `k · SLICE + 39`; three slices
/// hold the board's 109 bits.
const SLICE: usize = 64 - (2 * WIDTH + 3) + 1;

/// `bits` as three 64-bit slices (bits 0, [`SLICE`] and 2 [`SLICE`]
/// onwards) and a fourth of 0: a window is read with one 64-bit shift,
/// where a `u128` shift takes several instructions.
#[inline]
fn slices(bits: Bits) -> [u64; 4] {
    [bits as u64, (bits >> SLICE) as u64, (bits >> (2 * SLICE)) as u64, 0]
}

/// The nine cells of the window whose top field is bit `shift` of `slice`,
/// as a mask: the three 3-bit row slices at `shift`, `shift + WIDTH` and
/// `shift + 2 WIDTH`, packed. One multiplication gathers them: the rows
/// (bits 0, 11 and 22 on) shifted by 16, 8 and 0 land side by side at bits
/// 16 to 24, and the six other products at bits that neither overlap those
/// nor each other (so nothing carries).
#[inline]
fn mask(slice: u64, shift: u8) -> usize {
    const ROWS: u64 = 0b111 | 0b111 << WIDTH | 0b111 << (2 * WIDTH);
    const GATHER: u64 = 1 << 16 | 1 << (16 - (WIDTH - 3)) | 1 << (16 - (2 * WIDTH - 6));
    ((((slice >> shift) & ROWS) * GATHER) >> 16 & 0o777) as usize
}

/// Writes the 44 pattern indices of `pos` into `out` (as many as fit).
pub(crate) fn indices(pos: &Position, out: &mut [u32]) {
    let side = pos.side_to_move();
    let men = !pos.king_bits();
    // Seen from the side to move: for Black the board turned, bit `b` to
    // `108 - b` (reversed, `127 - b`, then shifted down 19).
    let view = |bits: Bits| {
        if side == board_core::Player::Second { bits.reverse_bits() >> 19 } else { bits }
    };
    let own = slices(view(pos.bits(side) & men));
    let enemy = slices(view(pos.bits(side.other()) & men));
    let t = &TABLES;
    for (slot, w) in out.iter_mut().zip(&WINDOWS) {
        let slice = usize::from(w.slice & 3);
        let (o, e) = (mask(own[slice], w.shift), mask(enemy[slice], w.shift));
        // Most windows are read one way: two look-ups in the table of their
        // orientation. The four on the axis take the smaller of both.
        let value = if w.axis {
            let straight = t.base3[o] + 2 * t.base3[e];
            straight.min(t.base3_transposed[o] + 2 * t.base3_transposed[e])
        } else {
            let table = if w.transpose { &t.base3_transposed } else { &t.base3 };
            table[o] + 2 * table[e]
        };
        *slot = w.offset + u32::from(value);
    }
}

#[cfg(test)]
mod tests {
    use board_core::learned::Learned;
    use board_core::{Evaluate, Game};

    use super::*;
    use crate::Field;
    use crate::position::rotate;

    /// The indices as first written: each window's masks transposed by the
    /// table, then read in base 3.
    fn reference(pos: &Position) -> [u32; PATTERNS] {
        let side = pos.side_to_move();
        let men = !pos.king_bits();
        let view = |bits: Bits| {
            if side == board_core::Player::Second { bits.reverse_bits() >> 19 } else { bits }
        };
        let (own, enemy) = (view(pos.bits(side) & men), view(pos.bits(side.other()) & men));
        let cells = |bits: Bits, base: usize| {
            (0..9)
                .filter(|k| bits >> (base + k / 3 * WIDTH + k % 3) & 1 == 1)
                .fold(0, |m, k| m | 1 << k)
        };
        let t = &TABLES;
        let mut out = [0; PATTERNS];
        for (slot, w) in out.iter_mut().zip(&WINDOWS) {
            let (mut o, mut e) = (cells(own, w.base.into()), cells(enemy, w.base.into()));
            if w.transpose {
                (o, e) = (usize::from(t.transpose[o]), usize::from(t.transpose[e]));
            }
            let mut value = t.base3[o] + 2 * t.base3[e];
            if w.axis {
                let (to, te) = (usize::from(t.transpose[o]), usize::from(t.transpose[e]));
                value = value.min(t.base3[to] + 2 * t.base3[te]);
            }
            *slot = u32::from(w.class) * CONTENTS as u32 + u32::from(value);
        }
        out
    }

    #[test]
    fn the_indices_are_the_reference_readings() {
        for pos in positions(6) {
            let mut out = [0; PATTERNS];
            indices(&pos, &mut out);
            assert_eq!(out, reference(&pos), "{pos}");
        }
    }

    fn sorted(pos: &Position) -> Vec<u32> {
        board_core::testkit::sorted_pattern_indices(pos)
    }

    /// Positions of random games, at every ply.
    fn positions(games: u64) -> Vec<Position> {
        board_core::testkit::random_positions(games, 120)
    }

    /// `pos` with every piece moved to the field `map` gives it.
    fn mapped(pos: &Position, map: impl Fn(Field) -> Field, swap: bool) -> Position {
        let mut text = String::new();
        let side = |p: board_core::Player| if swap { p.other() } else { p };
        let to_move = side(pos.side_to_move());
        text.push(if to_move == board_core::Player::First { 'W' } else { 'B' });
        for player in [board_core::Player::First, board_core::Player::Second] {
            text.push(':');
            text.push(if player == board_core::Player::First { 'W' } else { 'B' });
            let fields: Vec<String> = pos
                .occupied()
                .filter(|(_, piece)| side(piece.owner) == player)
                .map(|(f, piece)| {
                    let king = if piece.kind == crate::Kind::King { "K" } else { "" };
                    format!("{king}{}", map(f))
                })
                .collect();
            text.push_str(&fields.join(","));
        }
        Position::from_text(&text, pos.variant()).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn mirror_field(f: Field) -> Field {
        let number = crate::board::row_len(f.row()) as u8 + 1 - f.number();
        Field::new(f.row(), number).unwrap_or(f)
    }

    #[test]
    fn windows_cover_the_board_and_every_class() {
        let mut covered: Bits = 0;
        let mut per_class = [0; CLASSES];
        for w in &WINDOWS {
            for c in 0..3 {
                covered |= 7 << (w.base as usize + c * WIDTH);
            }
            per_class[w.class as usize] += 1;
            // The half turn (`b` to `108 - b`) carries it onto a window.
            assert!(on_board(108 - (usize::from(w.base) + 2 * WIDTH + 2)), "window {}", w.base);
        }
        assert_eq!(covered, ALL_FIELDS);
        assert_eq!(per_class.iter().filter(|&&n| n == 2).count(), 20);
        assert_eq!(per_class.iter().filter(|&&n| n == 1).count(), 4);
        for pos in positions(3) {
            assert!(sorted(&pos).iter().all(|&i| (i as usize) < INDEX_BOUND));
        }
    }

    #[test]
    fn the_half_turn_is_the_games_rotation() {
        for f in crate::board::FIELDS {
            assert_eq!(usize::from(rotate(f).bit_index()), 108 - usize::from(f.bit_index()));
            let m = mirror_field(f).bit_index() as usize;
            let b = f.bit_index() as usize;
            assert_eq!(m, (b % WIDTH) * WIDTH + b / WIDTH, "{f}");
        }
    }

    #[test]
    fn mirror_images_and_colour_swaps_have_the_same_indices() {
        for pos in positions(4) {
            let expected = sorted(&pos);
            assert_eq!(sorted(&mapped(&pos, mirror_field, false)), expected, "{pos}");
            // Colours swapped and the board turned: the same position for
            // the other side.
            assert_eq!(sorted(&mapped(&pos, rotate, true)), expected, "{pos}");
        }
    }

    /// The shipped weights load, and value a position, its mirror image and
    /// its colour-swapped twin alike (the features are symmetric too).
    #[test]
    fn the_shipped_weights_load_and_value_symmetric_positions_alike() {
        let learned = Learned::<Position>::shipped().expect("the shipped weights load");
        let mut differ = 0;
        for pos in positions(4) {
            let value = learned.evaluate(&pos);
            assert_eq!(learned.evaluate(&mapped(&pos, mirror_field, false)), value, "{pos}");
            assert_eq!(learned.evaluate(&mapped(&pos, rotate, true)), value, "{pos}");
            differ += usize::from(value != pos.evaluate());
        }
        assert!(differ > 100, "the learned values are the classic ones ({differ} differ)");
    }

    #[test]
    fn a_lone_man_shows_in_the_windows_that_hold_it() {
        let pos = Position::from_text("W:WE5:BA1", crate::Variant::Standard).unwrap();
        let mut out = [0; PATTERNS];
        pos.pattern_indices(&mut out);
        let bit = |row, number| Field::new(row, number).unwrap().bit_index() as usize;
        let (e5, a1) = (bit(4, 5), bit(0, 1));
        let has =
            |w: &Window, b| (0..3).any(|c| (0..3).any(|a| w.base as usize + c * WIDTH + a == b));
        let mut seen = 0;
        for (w, &i) in WINDOWS.iter().zip(&out) {
            if has(w, a1) {
                continue;
            }
            let holds = has(w, e5);
            seen += usize::from(holds);
            let contents = i as usize % CONTENTS;
            assert_eq!(contents != 0, holds, "window {}", w.base);
            if holds {
                // One digit 1 (own man), no digit 2.
                assert!((0..9).any(|k| contents == 3usize.pow(k)), "{contents}");
            }
        }
        assert_eq!(seen, 9, "a field inside the board is in nine windows");
    }
}
