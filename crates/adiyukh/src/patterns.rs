//! Pattern features for the learned evaluation (docs/tuning.md, "Learned
//! evaluations").
//!
//! A jump takes only the top piece of a column: what lies under the top
//! decides what a capture does (an enemy piece under it hands the column
//! over, an own one keeps it). So the patterns read the columns, not only
//! their tops. Two groups, seen from the side to move: when Black moves the
//! board is turned half a circle (the only symmetry of the game: the mirror
//! images of a dark square are light) and the colours read as own and
//! enemy, so both colours share weights and a position and its
//! colour-swapped, turned twin have the same indices.
//!
//! **X windows.** Each dark square off the board's edge (files b-g, ranks
//! 2-7: 18 squares) and its four diagonal neighbours form a window; every
//! jump (from, over, to) lies in the window centred on the jumped column. A
//! cell's digit: empty (0); a column of the side to move that is a single
//! piece (1), has an own piece under the top (2: a jump leaves it its
//! owner's) or an enemy one (3: a jump hands it over); the opponent's
//! likewise (4, 5, 6). `7⁵` = 16 807 contents a window (the centre the
//! lowest digit, then the neighbours by square), each window a table of its
//! own (the rank matters: promotion and the scoring halves): 18 × 16 807 =
//! 302 526 weights.
//!
//! **Columns.** Each dark square has a table of [`KINDS`] = 149 column
//! kinds: empty (0); one piece: its top (1-4); two pieces: the top and the
//! piece under it, colour and rank (5-20); three or more: the top, the
//! second piece (colour and rank), the third's colour and the height 3, 4,
//! 5-6 or 7 and more (21-148). 32 × 149 = 4 768 weights (the kings are
//! read here only).
//!
//! 50 indices a position, below 307 294; the columns are read once, through
//! two 512-entry tables keyed by a column's height and its top three
//! pieces.
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

/// The X windows.
pub(crate) const WINDOWS: usize = 18;
/// The contents of one window: `7⁵`.
pub(crate) const CONTENTS: usize = 16_807;
/// The windows' indices are below this; the columns' follow.
pub(crate) const WINDOW_BOUND: usize = WINDOWS * CONTENTS;
/// The kinds of column a square's table tells apart.
pub(crate) const KINDS: usize = 149;
/// The pattern indices of a position: the windows, then a column a square.
pub(crate) const PATTERNS: usize = WINDOWS + 32;
/// Every index is below this.
pub(crate) const INDEX_BOUND: usize = WINDOW_BOUND + 32 * KINDS;
/// The layout in words (its hash goes into weight files).
pub(crate) const LAYOUT: &str = "adiyukh patterns v2: 18 X windows (a dark square of files b-g, \
    ranks 2-7 and its four diagonal neighbours; centre lowest digit, then the neighbours by \
    square), digits empty/own single/own on own/own on enemy/enemy single/enemy on enemy/\
    enemy on own (the top and the piece under it) base 7, one weight table a window; then one \
    table of 149 column kinds a dark square (empty; top; top and second piece; top, second \
    piece, third's colour and height 3/4/5-6/7+); seen from the side to move (board turned \
    for Black)";

/// The kind (0..[`KINDS`]) of a column of height `height` (at most 7:
/// taller ones count as 7) whose top three pieces, seen from the side to
/// move, have the codes `top3` (the top in bits 4-5, the second piece in
/// bits 2-3, the third in bits 0-1; a code is bit 0 the colour, 1 = enemy,
/// and bit 1 the rank, 1 = king; the bits of missing pieces are ignored).
const fn kind(height: usize, top3: usize) -> usize {
    let (top, second, third) = (top3 >> 4, (top3 >> 2) & 3, top3 & 1);
    match height {
        0 => 0,
        1 => 1 + top,
        2 => 5 + 4 * top + second,
        _ => {
            let tall = match height {
                3 => 0,
                4 => 1,
                5 | 6 => 2,
                _ => 3,
            };
            21 + ((4 * top + second) * 2 + third) * 4 + tall
        }
    }
}

/// [`kind`] for every height up to 7 (bits 6-8) and top three codes.
static KIND: [u8; 512] = {
    let mut t = [0; 512];
    let mut i = 0;
    while i < 512 {
        t[i] = kind(i >> 6, i & 63) as u8;
        i += 1;
    }
    t
};

/// The key of [`KIND`] for a column's packed word `bits`, its colours
/// swapped by `flip` (`0b01_0101` when Black moves, else 0).
#[inline]
fn kind_key(bits: u64, flip: u64) -> usize {
    let height = (bits >> 56) as u32;
    // Piece `level` sits at bits `2 level`; shifted so that the top lands on
    // bits 4-5 (and an empty column gives 0).
    let top3 = ((bits << 6) >> (2 * height)) & 63;
    ((height.min(7) as usize) << 6) | (top3 ^ flip) as usize
}

/// The digit of a column in an X window, by its [`KIND`] key: empty (0);
/// the side to move's single piece (1), column with an own piece under the
/// top (2) or with an enemy one (3); the opponent's likewise (4, 5, 6).
static DIGIT: [u8; 512] = {
    let mut t = [0; 512];
    let mut i = 0;
    while i < 512 {
        let (height, enemy) = (i >> 6, (i >> 4) & 1);
        let state = match height {
            0 => 0,
            1 => 1,
            // The second piece's colour against the top's.
            _ => 2 + (((i >> 4) ^ (i >> 2)) & 1),
        };
        t[i] = if height == 0 { 0 } else { (state + 3 * enemy) as u8 };
        i += 1;
    }
    t
};

/// The slot of the dark square on `file`, `rank`.
const fn slot_at(file: usize, rank: usize) -> u8 {
    (rank * 4 + file / 2) as u8
}

/// The cells of each X window, by slot: the centre (a dark square of files
/// b-g, ranks 2-7, windows in the order of their centres), then its four
/// diagonal neighbours by slot.
static CELLS: [[u8; 5]; WINDOWS] = {
    let mut t = [[0; 5]; WINDOWS];
    let (mut w, mut slot) = (0, 0);
    while slot < 32 {
        let rank = slot / 4;
        let file = (slot % 4) * 2 + rank % 2;
        if rank >= 1 && rank <= 6 && file >= 1 && file <= 6 {
            t[w] = [
                slot as u8,
                slot_at(file - 1, rank - 1),
                slot_at(file + 1, rank - 1),
                slot_at(file - 1, rank + 1),
                slot_at(file + 1, rank + 1),
            ];
            w += 1;
        }
        slot += 1;
    }
    t
};

/// Writes the 50 pattern indices of `pos` into `out` (as many as fit).
pub(crate) fn indices(pos: &Position, out: &mut [u32]) {
    let black = pos.side == Color::Black;
    let (windows, columns) = out.split_at_mut(WINDOWS.min(out.len()));
    // Seen from the side to move: for Black the board turned (slot `s` to
    // `31 - s`) and the colours swapped.
    let flip = if black { 0b01_0101 } else { 0 };
    let mut digits = [0u32; 32];
    for (s, col) in pos.cols.iter().enumerate() {
        let v = if black { 31 - s } else { s };
        let key = kind_key(col.bits(), flip);
        digits[v] = u32::from(DIGIT[key]);
        if let Some(slot) = columns.get_mut(v) {
            *slot = (WINDOW_BOUND + v * KINDS + usize::from(KIND[key])) as u32;
        }
    }
    for ((w, slot), cells) in windows.iter_mut().enumerate().zip(&CELLS) {
        // A slot is below 32: the mask spares the bounds checks.
        let digit = |i: usize| digits[usize::from(cells[i]) & 31];
        let contents = digit(0) + 7 * (digit(1) + 7 * (digit(2) + 7 * (digit(3) + 7 * digit(4))));
        *slot = (w * CONTENTS) as u32 + contents;
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

    /// The squares of window `w`, centre first.
    fn window_squares(w: usize) -> Vec<Square> {
        CELLS[w].iter().map(|&s| Square::from_slot(s)).collect()
    }

    #[test]
    fn windows_are_a_square_and_its_diagonal_neighbours_and_hold_every_jump() {
        let mut centres = 0u32;
        for w in 0..WINDOWS {
            let squares = window_squares(w);
            let centre = squares[0];
            assert!((1..7).contains(&centre.file()) && (1..7).contains(&centre.rank()));
            for sq in &squares[1..] {
                assert_eq!(sq.file().abs_diff(centre.file()), 1, "window {w}: {squares:?}");
                assert_eq!(sq.rank().abs_diff(centre.rank()), 1, "window {w}: {squares:?}");
            }
            let neighbours: std::collections::BTreeSet<_> =
                squares[1..].iter().map(|s| s.slot()).collect();
            assert_eq!(neighbours.len(), 4, "window {w}: {squares:?}");
            centres |= 1 << centre.slot();
        }
        assert_eq!(centres.count_ones(), 18, "18 centres, each its own window");
        // Every jump of a man (from, over, to) lies in the window centred on
        // the jumped square.
        let mut jumps = 0;
        for from in Square::all() {
            for (df, dr) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
                let at = |k: i8| {
                    let (f, r) = (from.file() as i8 + k * df, from.rank() as i8 + k * dr);
                    Square::new(u8::try_from(f).ok()?, u8::try_from(r).ok()?)
                };
                let (Some(over), Some(to)) = (at(1), at(2)) else { continue };
                let w = (0..WINDOWS).find(|&w| window_squares(w)[0] == over);
                let squares = w.map(window_squares).unwrap_or_default();
                assert!(squares.contains(&from) && squares.contains(&to), "{from} {over} {to}");
                jumps += 1;
            }
        }
        assert_eq!(jumps, 72, "every jump was checked");
    }

    /// The range of pattern `w`'s indices: its window's contents or its
    /// square's column kinds.
    fn range(w: usize) -> std::ops::Range<usize> {
        match w.checked_sub(WINDOWS) {
            None => w * CONTENTS..(w + 1) * CONTENTS,
            Some(v) => WINDOW_BOUND + v * KINDS..WINDOW_BOUND + (v + 1) * KINDS,
        }
    }

    /// The five digits of a window's index, centre first.
    fn digits_of(w: usize, index: u32) -> [usize; 5] {
        let mut c = index as usize - range(w).start;
        [0; 5].map(|_| {
            let d = c % 7;
            c /= 7;
            d
        })
    }

    #[test]
    fn indices_are_in_their_patterns_range_and_every_pattern_varies() {
        assert_eq!(range(PATTERNS - 1).end, INDEX_BOUND);
        let mut seen = vec![std::collections::BTreeSet::new(); PATTERNS];
        let mut digits = std::collections::BTreeSet::new();
        for pos in positions(20) {
            for (w, &i) in indices_of(&pos).iter().enumerate() {
                assert!(range(w).contains(&(i as usize)), "{pos}: pattern {w} index {i}");
                seen[w].insert(i as usize - range(w).start);
                if w < WINDOWS {
                    digits.extend(digits_of(w, i));
                }
            }
        }
        for (w, values) in seen[..WINDOWS].iter().enumerate() {
            assert!(values.len() > 20, "window {w} takes {} values", values.len());
        }
        assert_eq!(digits.len(), 7, "every digit is seen: {digits:?}");
        // Every square sees empty, single and taller columns.
        for (v, kinds) in seen[WINDOWS..].iter().enumerate() {
            let (single, taller) = (kinds.range(1..5).count(), kinds.range(5..).count());
            assert!(kinds.contains(&0) && single > 0 && taller > 0, "square {v}: {kinds:?}");
        }
        let all: std::collections::BTreeSet<_> = seen[WINDOWS..].iter().flatten().collect();
        assert!(all.len() > 40, "{} of {KINDS} kinds seen", all.len());
    }

    /// A column's window digit the slow way, from the side to move's view.
    fn digit_of(col: crate::Column, side: Color) -> usize {
        let h = col.height();
        let (Some(top), under) = (col.top(), h.checked_sub(2).and_then(|l| col.get(l))) else {
            return 0;
        };
        let state = match under {
            None => 1,
            Some(p) if p.color == top.color => 2,
            Some(_) => 3,
        };
        state + if top.color == side { 0 } else { 3 }
    }

    #[test]
    fn window_indices_are_their_cells_digits_seen_from_the_side_to_move() {
        for pos in positions(8) {
            for (w, &index) in indices_of(&pos)[..WINDOWS].iter().enumerate() {
                let digits = window_squares(w).into_iter().map(|sq| {
                    let sq = if pos.turn() == Color::Black { turned(sq) } else { sq };
                    digit_of(pos.column(sq), pos.turn())
                });
                let expected: Vec<_> = digits.collect();
                assert_eq!(digits_of(w, index).to_vec(), expected, "{pos} window {w}");
            }
        }
    }

    /// A column's kind the slow way, from the side to move's view: what
    /// [`indices`] reads from the packed words.
    fn kind_of(col: crate::Column, side: Color) -> usize {
        let code = |p: Piece| usize::from(p.color != side) + 2 * usize::from(p.king);
        let h = col.height();
        let at = |depth: usize| col.get(h - depth).map_or(0, code);
        let top3 = match h {
            0 => 0,
            1 => at(1) << 4,
            2 => (at(1) << 4) | (at(2) << 2),
            _ => (at(1) << 4) | (at(2) << 2) | at(3),
        };
        kind(h.min(7), top3)
    }

    #[test]
    fn column_kinds_tell_apart_top_second_third_colour_and_height() {
        let pieces = [
            Piece::man(Color::White),
            Piece::man(Color::Black),
            Piece::king(Color::White),
            Piece::king(Color::Black),
        ];
        // The class of a column: height bucket, top, second, third's colour.
        let mut class_of_kind = std::collections::BTreeMap::new();
        for height in 0..=12usize {
            for top in 0..4 {
                for second in 0..4 {
                    for third in 0..4 {
                        for filler in 0..4 {
                            let mut col = vec![pieces[filler]; height.saturating_sub(3)];
                            col.extend([pieces[third], pieces[second], pieces[top]]);
                            let col = &col[col.len() - height..];
                            let column = crate::Column::from_pieces(col).unwrap_or_default();
                            for side in [Color::White, Color::Black] {
                                let flip = if side == Color::Black { 0b01_0101 } else { 0 };
                                let k = usize::from(KIND[kind_key(column.bits(), flip)]);
                                assert_eq!(k, kind_of(column, side), "{column}");
                                let relative = |p: usize| (pieces[p].color != side, pieces[p].king);
                                let bucket = [0, 1, 2, 3, 4, 5, 5, 6][height.min(7)];
                                let class = (
                                    bucket,
                                    (height >= 1).then(|| relative(top)),
                                    (height >= 2).then(|| relative(second)),
                                    (height >= 3).then(|| relative(third).0),
                                );
                                let known = *class_of_kind.entry(k).or_insert(class);
                                assert_eq!(known, class, "{column}: kind {k} is two classes");
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(class_of_kind.len(), KINDS, "every kind is used");
        assert_eq!(class_of_kind.keys().max(), Some(&(KINDS - 1)));
    }

    #[test]
    fn column_indices_are_each_squares_kind_seen_from_the_side_to_move() {
        for pos in positions(8) {
            let indices = indices_of(&pos);
            for sq in Square::all() {
                let v = if pos.turn() == Color::Black { turned(sq) } else { sq }.slot();
                let expected = WINDOW_BOUND + v * KINDS + kind_of(pos.column(sq), pos.turn());
                assert_eq!(indices[WINDOWS + v] as usize, expected, "{pos} {sq}");
            }
        }
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

    /// The window centred on (view) square `sq`.
    fn window_of(sq: Square) -> usize {
        (0..WINDOWS).find(|&w| window_squares(w)[0] == sq).unwrap_or(WINDOWS)
    }

    /// All 24 pieces in one column on e5: its square shows as its digit in
    /// exactly the windows that hold it, and as its column's kind in its
    /// square's table (every other square empty).
    #[test]
    fn a_lone_column_shows_in_the_windows_that_hold_it_and_on_its_square() {
        let pieces = |top: char| format!("{}{}{top}", "w".repeat(12), "b".repeat(11));
        let fragile = format!("{}{}wb", "w".repeat(11), "b".repeat(11));
        // Kinds: 21 + ((4 top + second) 2 + third) 4 + 3 (height 7 or
        // more); codes own man 0, enemy man 1, own king 2, enemy king 3.
        let tall =
            |top: usize, second: usize, third: usize| 24 + ((4 * top + second) * 2 + third) * 4;
        for (text, digit, kind) in [
            (format!("w e5:{}", pieces('b')), 5, tall(1, 1, 1)),
            (format!("w e5:{}", pieces('B')), 5, tall(3, 1, 1)),
            (format!("b e5:{}", pieces('B')), 2, tall(2, 0, 0)),
            (format!("b e5:{}", pieces('b')), 2, tall(0, 0, 0)),
            (format!("w e5:{fragile}"), 6, tall(1, 0, 1)),
            (format!("b e5:{fragile}"), 3, tall(0, 1, 0)),
        ] {
            let pos: Position = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            let e5: Square = "e5".parse().unwrap_or_else(|e| panic!("{e}"));
            // Black to move sees the board turned.
            let seen = if pos.turn() == Color::Black { turned(e5) } else { e5 };
            let indices = indices_of(&pos);
            let mut holding = 0;
            for (w, &i) in indices[..WINDOWS].iter().enumerate() {
                let contents = i as usize % CONTENTS;
                match window_squares(w).iter().position(|&s| s == seen) {
                    Some(cell) => {
                        holding += 1;
                        assert_eq!(contents, digit * 7usize.pow(cell as u32), "{text} window {w}");
                    }
                    None => assert_eq!(contents, 0, "{text} window {w}"),
                }
            }
            assert_eq!(holding, 5, "{text}: e5 (and d4) lie in five windows");
            for (v, &i) in indices[WINDOWS..].iter().enumerate() {
                let expected = if v == seen.slot() { kind } else { 0 };
                assert_eq!(i as usize, WINDOW_BOUND + v * KINDS + expected, "{text} square {v}");
            }
        }
    }

    /// Short columns: one piece, two, three; the digit and the kind of e5.
    #[test]
    fn short_columns_show_their_top_and_what_lies_under_it() {
        let rest = |w: usize, b: usize| {
            let whites = ["a1", "c1", "e1", "g1", "b2", "d2", "f2", "h2", "a3", "c3", "e3", "g3"];
            let blacks = ["b8", "d8", "f8", "h8", "a7", "c7", "e7", "g7", "b6", "d6", "f6", "h6"];
            let mut text = String::new();
            whites[..w].iter().for_each(|s| text.push_str(&format!(" {s}:w")));
            blacks[..b].iter().for_each(|s| text.push_str(&format!(" {s}:b")));
            text
        };
        // e5 holds the column; the other pieces stand alone elsewhere.
        for (text, digit, kind) in [
            (format!("w e5:w{}", rest(11, 12)), 1, 1),
            (format!("b e5:w{}", rest(11, 12)), 4, 2),
            (format!("w e5:W{}", rest(11, 12)), 1, 3),
            // Two pieces: kind 5 + 4 top + second.
            (format!("w e5:bw{}", rest(11, 11)), 3, 5 + 1),
            (format!("b e5:bw{}", rest(11, 11)), 6, 5 + 4),
            (format!("w e5:Bw{}", rest(11, 11)), 3, 5 + 3),
            // Three: kind 21 + ((4 top + second) 2 + third) 4, height 3.
            (format!("w e5:bww{}", rest(10, 11)), 2, 21 + 4),
            (format!("b e5:bww{}", rest(10, 11)), 5, 21 + ((4 + 1) * 2) * 4),
        ] {
            let pos: Position = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            let e5: Square = "e5".parse().unwrap_or_else(|e| panic!("{e}"));
            let seen = if pos.turn() == Color::Black { turned(e5) } else { e5 };
            let indices = indices_of(&pos);
            let (w, v) = (window_of(seen), seen.slot());
            assert_eq!(indices[w] as usize % 7, digit, "{text}: the centre of its window");
            assert_eq!(indices[WINDOWS + v] as usize, WINDOW_BOUND + v * KINDS + kind, "{text}");
        }
    }
}
