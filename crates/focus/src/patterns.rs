//! Pattern features for the learned evaluation (docs/tuning.md, "Learned
//! evaluations").
//!
//! Stacks move along ranks and files only, so the board is read as lines:
//! every run of five squares along a rank or a file of the 8×8 grid around
//! the board (four a line, 8 ranks and 8 files: 64 windows; squares of the
//! cut-off corners read as empty). Each square is a digit, seen from the
//! side to move: empty (0), a stack the side to move owns (its top piece is
//! theirs) of height 1 or 2 (1) or of 3 to 5 (2), an opponent's stack of
//! height 1 or 2 (3) or 3 to 5 (4); a window's five digits, base 5, are its
//! contents (5⁵ = 3 125 values). What lies under a stack's top is not read:
//! the hand features (pieces controlled, reserve, captured) keep the counts.
//!
//! Windows share weights under the eight symmetries of the board (its cut
//! corners are symmetric too) and the colours are relative to the side to
//! move, so both colours share them. A window's class is its line's
//! distance to the nearer edge (0 to 3) and whether it starts at the
//! line's end or one square in: 8 classes of 8 windows each (no window is
//! carried onto itself by a symmetry other than the identity), each window
//! read from the end of its line nearer its start. So a position, its
//! mirror images and its colour-swapped twin have the same indices.
//! 8 × 3 125 = 25 000 weights, 64 summed a position.
//!
//! ```
//! use focus::Position;
//! use focus::board_core::Evaluate;
//!
//! let mut indices = [0; Position::PATTERNS];
//! Position::default().pattern_indices(&mut indices);
//! assert!(indices.iter().all(|&i| (i as usize) < Position::PATTERN_BOUND));
//! ```

use board_core::{Game, Player};

use crate::board::height;
use crate::position::Position;

/// The squares of a window.
const CELLS: usize = 5;
/// The windows along one line: `8 - 5 + 1`.
const SPAN: usize = 8 - CELLS + 1;
/// The values of one square.
const DIGITS: u32 = 5;
/// The contents of one window: `5⁵`.
pub(crate) const CONTENTS: usize = 3_125;
/// The windows, and so the pattern indices of a position.
pub(crate) const PATTERNS: usize = 2 * 8 * SPAN;
/// The classes of windows under the board's symmetries.
pub(crate) const CLASSES: usize = 8;
/// Every index is below this.
pub(crate) const INDEX_BOUND: usize = CLASSES * CONTENTS;
/// Stacks this tall or taller are "tall" (digits 2 and 4).
pub(crate) const TALL: usize = 3;
/// The layout in words (its hash goes into weight files).
pub(crate) const LAYOUT: &str = "focus patterns v1: 64 windows of 5 squares along ranks and \
    files (cut corners empty), digits empty/own 1-2/own 3-5/enemy 1-2/enemy 3-5 by the top \
    piece's owner (side to move's view) and the height, base 5 from the end of the line \
    nearer the window, 8 classes (distance of the line to the edge, start at the end or one in) \
    under the 8 symmetries";

/// A window: its class's first index and its squares in reading order
/// (digit `k`, weight `5^k`, on `squares[k]`).
#[derive(Clone, Copy, Debug)]
struct Window {
    offset: u32,
    squares: [u8; CELLS],
}

const fn windows() -> [Window; PATTERNS] {
    let mut out = [Window { offset: 0, squares: [0; CELLS] }; PATTERNS];
    let mut n = 0;
    let mut transposed = 0;
    while transposed < 2 {
        let mut line = 0;
        while line < 8 {
            let mut start = 0;
            while start < SPAN {
                let edge = if line < 4 { line } else { 7 - line };
                let reversed = start >= SPAN / 2;
                let end = if reversed { SPAN - 1 - start } else { start };
                let class = edge * 2 + end;
                let mut k = 0;
                while k < CELLS {
                    let along = if reversed { start + CELLS - 1 - k } else { start + k };
                    let (file, rank) = if transposed == 1 { (line, along) } else { (along, line) };
                    out[n].squares[k] = (rank * 8 + file) as u8;
                    k += 1;
                }
                out[n].offset = (class * CONTENTS) as u32;
                n += 1;
                start += 1;
            }
            line += 1;
        }
        transposed += 1;
    }
    out
}

static WINDOWS: [Window; PATTERNS] = windows();

/// `DIGIT[side][code]`: the digit of the stack with `code` when `side` is
/// to move.
static DIGIT: [[u8; 64]; 2] = {
    let mut table = [[0; 64]; 2];
    // Codes 0 and 1 are the empty square.
    let mut code = 2;
    while code < 64 {
        let tall = if height(code as u8) >= TALL { 1 } else { 0 };
        // Bit 0 of the code is the top piece's colour (set: the second player).
        let first_owns = code & 1 == 0;
        table[0][code] = if first_owns { 1 + tall } else { 3 + tall };
        table[1][code] = if first_owns { 3 + tall } else { 1 + tall };
        code += 1;
    }
    table
};

/// Writes the 64 pattern indices of `pos` into `out` (as many as fit): the
/// ranks' windows first (rank 1, windows from the a-file on), then the
/// files'.
pub(crate) fn indices(pos: &Position, out: &mut [u32]) {
    let table = &DIGIT[usize::from(pos.side_to_move() == Player::Second)];
    let mut digits = [0u8; 64];
    for (digit, &code) in digits.iter_mut().zip(pos.stack_codes()) {
        *digit = table[usize::from(code) & 63];
    }
    let digit = |sq: u8| u32::from(digits[usize::from(sq) & 63]);
    for (slot, w) in out.iter_mut().zip(&WINDOWS) {
        let contents = w.squares.iter().rev().fold(0, |acc, &sq| acc * DIGITS + digit(sq));
        *slot = w.offset + contents;
    }
}

#[cfg(test)]
mod tests {
    use board_core::learned::Learned;
    use board_core::{ByPlayer, Cell, Evaluate};

    use super::*;
    use crate::{PIECES_PER_PLAYER, Setup, Square, Stack, Variant};

    fn sorted(pos: &Position) -> Vec<u32> {
        board_core::testkit::sorted_pattern_indices(pos)
    }

    /// Positions of random games, at every ply (tall stacks, reserves and
    /// captures come soon).
    fn positions(games: u64) -> Vec<Position> {
        board_core::testkit::random_positions(games, 150)
    }

    /// Symmetry `g` (bit 0 mirrors files, bit 1 ranks, bit 2 transposes
    /// first) of a square.
    fn map(g: usize, sq: Square) -> Square {
        let (mut file, mut rank) = (sq.file(), sq.rank());
        if g & 4 != 0 {
            (file, rank) = (rank, file);
        }
        if g & 1 != 0 {
            file = 7 - file;
        }
        if g & 2 != 0 {
            rank = 7 - rank;
        }
        Square::new(file, rank).expect("the symmetries keep the board")
    }

    /// `pos` with its stacks moved by `g`, and its colours swapped (pieces,
    /// reserves, captures and the side to move) if `swap`.
    fn image(pos: &Position, g: usize, swap: bool) -> Position {
        let setup = pos.to_setup();
        let colour = |p: Player| if swap { p.other() } else { p };
        let stacks = setup
            .stacks
            .iter()
            .map(|&(sq, stack)| {
                let pieces: Vec<Player> = stack.bottom_up().map(colour).collect();
                (map(g, sq), Stack::from_bottom_up(&pieces).expect("same height"))
            })
            .collect();
        let flip = |b: ByPlayer<u8>| {
            if swap { ByPlayer::new(b[Player::Second], b[Player::First]) } else { b }
        };
        let setup = Setup {
            stacks,
            side_to_move: colour(setup.side_to_move),
            reserve: flip(setup.reserve),
            captured: flip(setup.captured),
        };
        Position::from_setup(setup, Variant::Standard).unwrap_or_else(|e| panic!("{pos}: {e}"))
    }

    #[test]
    fn indices_are_in_range_and_every_class_has_eight_windows() {
        let mut per_class = [0; CLASSES];
        for w in &WINDOWS {
            per_class[w.offset as usize / CONTENTS] += 1;
            assert!(w.squares.iter().any(|&sq| Square::from_index(sq.into()).is_some()));
        }
        assert_eq!(per_class, [8; CLASSES]);
        let mut tall = false;
        for pos in positions(3) {
            let mut out = [0; PATTERNS];
            pos.pattern_indices(&mut out);
            for (w, &i) in WINDOWS.iter().zip(&out) {
                assert!((i as usize) < INDEX_BOUND, "{i} at {pos}");
                assert_eq!(i as usize / CONTENTS, w.offset as usize / CONTENTS);
                let mut contents = i as usize % CONTENTS;
                for _ in 0..CELLS {
                    tall |= contents % 5 == 2 || contents % 5 == 4;
                    contents /= 5;
                }
            }
        }
        assert!(tall, "the random games made no tall stack");
    }

    #[test]
    fn mirror_images_and_colour_swaps_have_the_same_indices() {
        for pos in positions(3).into_iter().step_by(3) {
            let expected = sorted(&pos);
            for g in 0..8 {
                for swap in [false, true] {
                    let twin = image(&pos, g, swap);
                    assert_eq!(sorted(&twin), expected, "symmetry {g} swap {swap} of {pos}");
                }
            }
        }
    }

    #[test]
    fn the_colours_are_the_side_to_moves() {
        // The start seen by Black and, after a move, by White: the same
        // stacks of height 1 give only digits 1 and 3.
        let pos = Position::default();
        let mut out = [0; PATTERNS];
        pos.pattern_indices(&mut out);
        let digits: Vec<usize> = out
            .iter()
            .flat_map(|&i| {
                (0..CELLS).map(move |k| (i as usize % CONTENTS) / 5usize.pow(k as u32) % 5)
            })
            .collect();
        assert!(digits.iter().all(|&d| d <= 1 || d == 3), "{digits:?}");
        assert!(digits.contains(&1) && digits.contains(&3));
    }

    /// One stack of each height and owner, alone on each square (the rest of
    /// the pieces in reserve), shows as one digit (the opponent's, low or
    /// tall) in exactly the windows that hold its square.
    #[test]
    fn a_lone_stack_shows_in_the_windows_that_hold_it() {
        for sq in Square::all() {
            for h in 1..=5usize {
                for owner in [Player::First, Player::Second] {
                    // Its owner has just moved (a move leaves the mover on
                    // top): the stack is the opponent's, under it the side
                    // to move's pieces.
                    let mut pieces = vec![owner.other(); h - 1];
                    pieces.push(owner);
                    let stack = Stack::from_bottom_up(&pieces).expect("1 to 5");
                    let black = stack.count(Player::First) as u8;
                    let white = stack.count(Player::Second) as u8;
                    let setup = Setup {
                        stacks: vec![(sq, stack)],
                        side_to_move: owner.other(),
                        reserve: ByPlayer::new(
                            PIECES_PER_PLAYER - black,
                            PIECES_PER_PLAYER - white,
                        ),
                        captured: ByPlayer::new(0, 0),
                    };
                    let pos = Position::from_setup(setup, Variant::Standard).expect("valid");
                    let expected = 3 + usize::from(h >= 3);
                    let mut out = [0; PATTERNS];
                    pos.pattern_indices(&mut out);
                    let mut seen = 0;
                    for (w, &i) in WINDOWS.iter().zip(&out) {
                        let contents = i as usize % CONTENTS;
                        match w.squares.iter().position(|&s| usize::from(s) == sq.index()) {
                            Some(k) => {
                                assert_eq!(contents, expected * 5usize.pow(k as u32), "{sq} {h}");
                                seen += 1;
                            }
                            None => assert_eq!(contents, 0, "{sq} {h}"),
                        }
                    }
                    let along =
                        |x: u8| (0..SPAN).filter(|&s| (s..s + CELLS).contains(&x.into())).count();
                    assert_eq!(seen, along(sq.file()) + along(sq.rank()), "{sq}");
                }
            }
        }
    }

    /// The shipped weights load, and value a position, its mirror images and
    /// its colour-swapped twin alike (the hand features are symmetric too).
    #[test]
    fn the_shipped_weights_load_and_value_symmetric_positions_alike() {
        let learned = Learned::<Position>::shipped().expect("the shipped weights load");
        let mut differ = 0;
        for pos in positions(3).into_iter().step_by(2) {
            let value = learned.evaluate(&pos);
            for g in 0..8 {
                for swap in [false, true] {
                    let twin = image(&pos, g, swap);
                    assert_eq!(learned.evaluate(&twin), value, "symmetry {g} swap {swap} of {pos}");
                }
            }
            differ += usize::from(value != pos.evaluate());
        }
        assert!(differ > 100, "the learned values are the classic ones ({differ} differ)");
    }

    /// The learned value sums 64 table entries without allocating: here it
    /// only needs to read a weights file of this layout.
    #[test]
    fn weights_of_this_layout_load() {
        let file = board_core::learned::WeightsFile {
            game: Position::NAME.to_string(),
            layout: board_core::learned::layout_hash(LAYOUT),
            k: 300.0,
            patterns: vec![0.0; INDEX_BOUND],
            features: crate::eval::WEIGHTS.iter().map(|&w| w as f32).collect(),
        };
        let learned = Learned::<Position>::from_bytes(&file.to_bytes()).expect("loads");
        for pos in positions(1) {
            assert_eq!(learned.evaluate(&pos), pos.evaluate(), "{pos}");
        }
    }
}
