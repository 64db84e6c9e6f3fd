//! The position, making moves, the end of the game and the score.

use std::fmt;

use board_core::{
    ByPlayer, Cell, Game, IllegalMoveError, Outcome, Player, PositionError, zobrist_keys,
};

use crate::board::{LOWER_HALF, RANK_1, RANK_8, direction, shift};
use crate::eval::column_terms;
use crate::notation::MoveText;
use crate::text::Setup;
use crate::{Color, Column, MAX_HEIGHT, Move, Piece, Square};

/// Zobrist keys: one per (square, level in the column, piece), then the side.
static KEYS: [u64; 32 * MAX_HEIGHT * 4 + 1] = zobrist_keys(0xAD10_0013);
const SIDE_KEY: usize = 32 * MAX_HEIGHT * 4;

#[inline]
fn key(slot: usize, level: usize, code: u64) -> u64 {
    KEYS[(slot * MAX_HEIGHT + level) * 4 + code as usize]
}

/// The hash contribution of `col` standing on `slot`.
fn column_hash(slot: usize, col: Column) -> u64 {
    (0..col.height()).fold(0, |h, level| h ^ key(slot, level, col.code_at(level)))
}

impl Color {
    /// The row where this colour's men become kings (rank 8 for White, rank 1
    /// for Black), as a bitboard.
    pub(crate) const fn promotion_row(self) -> u64 {
        match self {
            Color::White => RANK_8,
            Color::Black => RANK_1,
        }
    }
}

board_core::variants! {
    /// Adiyukh's variants: there is one.
    pub enum Variant for "adiyukh" {
        /// The game of the rules text: 8x8 board, 12 men a side.
        Standard = "standard",
    }
}

/// An Adiyukh position: the 32 columns and the side to move.
///
/// `Copy` (about 300 bytes). Build it with [`Position::default`] (the start),
/// [`Game::start`], `text.parse()`, [`Game::from_text`] or
/// [`Position::from_setup`](Game::from_setup); every value is a legal
/// position (12 pieces of each colour).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub(crate) cols: [Column; 32],
    /// Squares of White-topped columns.
    pub(crate) white: u64,
    /// Squares of Black-topped columns.
    pub(crate) black: u64,
    /// Squares of king-topped columns.
    pub(crate) kings: u64,
    pub(crate) side: Color,
    hash: u64,
    /// The sum of every column's [`column_terms`] (White's points, control
    /// and advance), kept as columns change: the evaluation's features.
    pub(crate) terms: [i32; 3],
}

impl Position {
    /// The position with these columns (12 pieces of each colour; the caller
    /// has checked that).
    pub(crate) fn from_columns(cols: [Column; 32], side: Color) -> Position {
        let mut pos = Position {
            cols: [Column::EMPTY; 32],
            white: 0,
            black: 0,
            kings: 0,
            side,
            hash: 0,
            terms: [0; 3],
        };
        for (sq, col) in Square::all().zip(cols) {
            pos.put(sq, col);
        }
        if side == Color::Black {
            pos.hash ^= KEYS[SIDE_KEY];
        }
        pos
    }

    /// The column on `sq`, [`Column::EMPTY`] on an empty square: the same
    /// as [`piece_at`](Game::piece_at) without the `Option` (and usable in
    /// `const` code).
    ///
    /// ```
    /// use adiyukh::prelude::*;
    /// let pos = Position::default();
    /// let (c3, d4): (Square, Square) = ("c3".parse()?, "d4".parse()?);
    /// assert_eq!(pos.column(c3).top(), Some(Piece::man(Color::White)));
    /// assert_eq!(pos.piece_at(c3), Some(pos.column(c3)));
    /// assert_eq!((pos.column(d4), pos.piece_at(d4)), (Column::EMPTY, None));
    /// # Ok::<(), CellError>(())
    /// ```
    pub const fn column(&self, sq: Square) -> Column {
        self.cols[sq.slot()]
    }

    /// The colour to move.
    pub const fn turn(&self) -> Color {
        self.side
    }

    /// The points each side has now: White one for every piece on ranks 5-8,
    /// Black one for every piece on ranks 1-4 (they add up to 24).
    ///
    /// ```
    /// use adiyukh::prelude::*;
    /// assert_eq!(Position::default().score(), ByPlayer::new(12, 12));
    /// ```
    pub fn score(&self) -> ByPlayer<u32> {
        let mut score = ByPlayer::new(0, 0);
        for (sq, col) in Square::all().zip(self.cols) {
            let half = if sq.bit() & LOWER_HALF == 0 { Player::First } else { Player::Second };
            score[half] += col.height() as u32;
        }
        score
    }

    /// The result of the game if it ended now: 13 points or more win, 12:12
    /// is a draw; the score is attached.
    fn scored(&self, reason: &'static str) -> Outcome {
        let score = self.score();
        let end = match score.first.cmp(&score.second) {
            std::cmp::Ordering::Greater => Outcome::win(Player::First, reason),
            std::cmp::Ordering::Less => Outcome::win(Player::Second, reason),
            std::cmp::Ordering::Equal => Outcome::draw(reason),
        };
        end.with_score(score)
    }

    /// Puts `col` on the empty square `sq`.
    fn put(&mut self, sq: Square, col: Column) {
        self.cols[sq.slot()] = col;
        self.hash ^= column_hash(sq.slot(), col);
        self.count(sq, col, 1);
        self.set_tops(sq, col);
    }

    /// Adds (`sign` 1) or takes away (-1) the evaluation terms of `col` on `sq`.
    fn count(&mut self, sq: Square, col: Column, sign: i32) {
        for (sum, term) in self.terms.iter_mut().zip(column_terms(sq, col)) {
            *sum += sign * term;
        }
    }

    /// Lifts the column off `sq` and returns it.
    fn lift(&mut self, sq: Square) -> Column {
        let col = self.cols[sq.slot()];
        self.cols[sq.slot()] = Column::EMPTY;
        self.hash ^= column_hash(sq.slot(), col);
        self.count(sq, col, -1);
        self.set_tops(sq, Column::EMPTY);
        col
    }

    /// Takes the top piece off the column on `sq` (which must have one).
    fn take_top(&mut self, sq: Square) -> Option<Piece> {
        let col = self.cols[sq.slot()];
        let top = col.top()?;
        let rest = col.without_top();
        self.cols[sq.slot()] = rest;
        self.hash ^= key(sq.slot(), rest.height(), top.code());
        self.count(sq, col, -1);
        self.count(sq, rest, 1);
        self.set_tops(sq, rest);
        Some(top)
    }

    fn set_tops(&mut self, sq: Square, col: Column) {
        let bit = sq.bit();
        self.white &= !bit;
        self.black &= !bit;
        self.kings &= !bit;
        if let Some(top) = col.top() {
            match top.color {
                Color::White => self.white |= bit,
                Color::Black => self.black |= bit,
            }
            if top.king {
                self.kings |= bit;
            }
        }
    }

    /// Makes `mv`, trusted to be legal. An illegal move leaves some position
    /// (never a panic).
    fn make(&mut self, mv: Move) {
        let promotion_row = self.side.promotion_row();
        let mut col = self.lift(mv.from());
        let mut at = mv.from();
        if mv.is_capture() {
            for to in mv.landings() {
                if let Some(dir) = direction(at, to) {
                    // The jumped column is the first occupied square on the way.
                    let occupied = self.white | self.black;
                    let mut step = shift(at.bit(), dir);
                    while step != 0 && step & occupied == 0 && step != to.bit() {
                        step = shift(step, dir);
                    }
                    if step & occupied != 0 {
                        let over = Square::from_bit(step.trailing_zeros());
                        if let Some(piece) = self.take_top(over) {
                            col = col.with_bottom(piece);
                        }
                    }
                }
                if to.bit() & promotion_row != 0 {
                    col = col.with_top_king(true);
                }
                at = to;
            }
            // A king's capture ends: it becomes a man again off its promotion row.
            if at.bit() & promotion_row == 0 {
                col = col.with_top_king(false);
            }
        } else {
            at = mv.to();
            if at.bit() & promotion_row != 0 {
                col = col.with_top_king(true);
            }
        }
        self.put(at, col);
        self.side = self.side.other();
        self.hash ^= KEYS[SIDE_KEY];
    }
}

impl Game for Position {
    type Move = Move;
    type MoveText = MoveText;
    type Setup = Setup;
    type Variant = Variant;
    type Cell = Square;
    /// The column on the square (never empty: an empty square has `None`).
    type Piece = Column;

    const NAME: &'static str = "adiyukh";
    const PLAYER_NAMES: ByPlayer<&'static str> = ByPlayer::new("White", "Black");
    /// 300 plies: random games from the start end by themselves well before
    /// that (longest 176 in 400 seeded games); at the cap
    /// [`adjudicate`](Game::adjudicate) scores the position as it stands.
    const DEFAULT_MAX_PLIES: u32 = 300;
    const RULES: &'static str = include_str!("../RULES.md");
    const NOTATION: &'static str = "quiet move c3-d4 (or the short fe5: the f-file column to e5); \
        capture: start and every landing square joined by ':', c5:e3:c1 \
        (or short d:f6: from the d-file to f6)";

    fn start(_variant: Variant) -> Self {
        let mut cols = [Column::EMPTY; 32];
        for (slot, col) in cols.iter_mut().enumerate() {
            *col = match slot {
                0..12 => Column::single(Piece::man(Color::White)),
                20..32 => Column::single(Piece::man(Color::Black)),
                _ => Column::EMPTY,
            };
        }
        Position::from_columns(cols, Color::White)
    }

    fn from_setup(setup: Setup, _variant: Variant) -> Result<Self, PositionError> {
        setup.validate()
    }

    fn to_setup(&self) -> Setup {
        self.setup()
    }

    fn variant(&self) -> Variant {
        Variant::Standard
    }

    fn side_to_move(&self) -> Player {
        self.side.player()
    }

    /// The column on `sq`; `None` for an empty square (see also
    /// [`Position::column`]).
    fn piece_at(&self, sq: Square) -> Option<Column> {
        let col = self.column(sq);
        (!col.is_empty()).then_some(col)
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        self.generate_into(moves);
    }

    fn play_unchecked(&mut self, mv: Move) {
        self.make(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        (!self.has_moves()).then(|| self.scored("no legal move"))
    }

    fn zobrist(&self) -> u64 {
        self.hash
    }

    fn zobrist_from_scratch(&self) -> u64 {
        let side = if self.side == Color::Black { KEYS[SIDE_KEY] } else { 0 };
        (0..32).fold(side, |h, slot| h ^ column_hash(slot, self.cols[slot]))
    }

    fn resolve_move(&self, text: &MoveText) -> Result<Move, IllegalMoveError> {
        text.resolve(self)
    }

    /// Captures (compulsory when there is one) and steps onto the promotion
    /// row (only men step).
    fn is_tactical(&self, mv: Move) -> bool {
        mv.is_capture() || mv.to().bit() & self.side.promotion_row() != 0
    }

    fn generate_tactical(&self, moves: &mut Vec<Move>) {
        self.generate_tactical_into(moves);
    }

    /// Captures are compulsory (under the rules).
    const COMPULSORY_TACTICAL: bool = true;

    const MOVE_INDEX_BOUND: usize = 32 * 32;

    /// From and to squares (a capture by its first and last), each by its
    /// dense number 0..32 among the dark squares.
    fn move_index(&self, mv: Move) -> usize {
        mv.from().slot() * 32 + mv.to().slot()
    }

    /// The score as it stands, as at the natural end.
    fn adjudicate(&self) -> Outcome {
        self.scored("ply limit")
    }

    /// Perft that counts the last ply without storing its moves.
    fn perft(&self, depth: u32) -> u64 {
        fn count(pos: &Position, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
            if depth <= 1 {
                return if depth == 0 { 1 } else { pos.count_moves() };
            }
            let Some((moves, deeper)) = buffers.split_first_mut() else {
                return 1;
            };
            moves.clear();
            pos.generate_into(moves);
            let mut nodes = 0;
            for &mv in moves.iter() {
                let mut child = *pos;
                child.make(mv);
                nodes += count(&child, depth - 1, deeper);
            }
            nodes
        }
        let mut buffers = vec![Vec::with_capacity(64); depth as usize];
        count(self, depth, &mut buffers)
    }
}

board_core::default_variant!(Position);

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}
