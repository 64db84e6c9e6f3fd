//! Pieces and columns: every piece keeps its colour and rank inside a column.

use std::fmt;

use board_core::Player;

/// The colour of a piece; White moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player; its men move towards rank 8.
    White,
    /// The second player; its men move towards rank 1.
    Black,
}

impl Color {
    /// The other colour.
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The board-core player of this colour (White is the first player).
    pub const fn player(self) -> Player {
        match self {
            Color::White => Player::First,
            Color::Black => Player::Second,
        }
    }

    /// The colour of a board-core player.
    pub const fn of(player: Player) -> Color {
        match player {
            Player::First => Color::White,
            Player::Second => Color::Black,
        }
    }

    /// `"White"` or `"Black"`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

/// One piece: a colour and a rank (man or king).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its colour, kept for life.
    pub color: Color,
    /// Whether it is a king (it stays one while buried).
    pub king: bool,
}

impl Piece {
    /// A man of `color`.
    pub const fn man(color: Color) -> Piece {
        Piece { color, king: false }
    }

    /// A king of `color`.
    pub const fn king(color: Color) -> Piece {
        Piece { color, king: true }
    }

    /// The letter of the position text: `w` White man, `W` White king,
    /// `b` Black man, `B` Black king.
    pub const fn letter(self) -> char {
        match (self.color, self.king) {
            (Color::White, false) => 'w',
            (Color::White, true) => 'W',
            (Color::Black, false) => 'b',
            (Color::Black, true) => 'B',
        }
    }

    /// The piece of a position-text letter.
    pub const fn from_letter(letter: char) -> Option<Piece> {
        match letter {
            'w' => Some(Piece::man(Color::White)),
            'W' => Some(Piece::king(Color::White)),
            'b' => Some(Piece::man(Color::Black)),
            'B' => Some(Piece::king(Color::Black)),
            _ => None,
        }
    }

    /// Two bits: bit 0 the colour (1 = Black), bit 1 the rank (1 = king).
    pub(crate) const fn code(self) -> u64 {
        (self.color as u64) | ((self.king as u64) << 1)
    }

    pub(crate) const fn from_code(code: u64) -> Piece {
        Piece {
            color: if code & 1 == 0 { Color::White } else { Color::Black },
            king: code & 2 != 0,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// The most pieces a column can hold: all of them.
pub const MAX_HEIGHT: usize = 24;

const HEIGHT_SHIFT: u32 = 56;
const PIECE_BITS: u64 = (1 << (2 * MAX_HEIGHT)) - 1;

/// A column (tower) of 0..=24 pieces, bottom to top, packed in one word: two
/// bits per piece from the bottom up, the height in the top byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Column(u64);

impl Column {
    /// No pieces: an empty square.
    pub const EMPTY: Column = Column(0);

    /// A column of one piece.
    pub const fn single(piece: Piece) -> Column {
        Column(piece.code() | (1 << HEIGHT_SHIFT))
    }

    /// A column of `pieces`, bottom first; `None` if there are more than 24.
    pub fn from_pieces(pieces: &[Piece]) -> Option<Column> {
        if pieces.len() > MAX_HEIGHT {
            return None;
        }
        let bits = pieces.iter().rev().fold(0, |acc, p| (acc << 2) | p.code());
        Some(Column(bits | ((pieces.len() as u64) << HEIGHT_SHIFT)))
    }

    /// How many pieces it holds.
    pub const fn height(self) -> usize {
        (self.0 >> HEIGHT_SHIFT) as usize
    }

    /// Whether the square is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The piece `level` from the bottom (0 = bottom), if there is one.
    pub const fn get(self, level: usize) -> Option<Piece> {
        if level < self.height() { Some(Piece::from_code(self.code_at(level))) } else { None }
    }

    /// The top piece, which owns the column and gives it its rank.
    pub const fn top(self) -> Option<Piece> {
        match self.height() {
            0 => None,
            h => Some(Piece::from_code(self.code_at(h - 1))),
        }
    }

    /// The pieces, bottom first.
    pub fn pieces(self) -> impl Iterator<Item = Piece> {
        (0..self.height()).map(move |level| Piece::from_code(self.code_at(level)))
    }

    /// How many pieces of `color` it holds.
    pub fn count(self, color: Color) -> usize {
        self.pieces().filter(|p| p.color == color).count()
    }

    /// The packed word: two bits a piece from the bottom up ([`Piece`]'s
    /// code), the height from bit 56.
    pub(crate) const fn bits(self) -> u64 {
        self.0
    }

    pub(crate) const fn code_at(self, level: usize) -> u64 {
        (self.0 >> (2 * level)) & 3
    }

    /// Takes the top piece off (the column must not be empty).
    pub(crate) const fn without_top(self) -> Column {
        let h = self.height() - 1;
        Column((self.0 & PIECE_BITS & !(3 << (2 * h))) | ((h as u64) << HEIGHT_SHIFT))
    }

    /// Puts `piece` under the bottom.
    pub(crate) const fn with_bottom(self, piece: Piece) -> Column {
        let h = self.height() + 1;
        Column((((self.0 & PIECE_BITS) << 2) | piece.code()) | ((h as u64) << HEIGHT_SHIFT))
    }

    /// The same column with its top piece made a king (`true`) or a man.
    pub(crate) const fn with_top_king(self, king: bool) -> Column {
        if self.is_empty() {
            return self;
        }
        let bit = 2 << (2 * (self.height() - 1));
        Column(if king { self.0 | bit } else { self.0 & !bit })
    }
}

impl fmt::Display for Column {
    /// The letters of the pieces, bottom first (`wwB`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.pieces().try_for_each(|p| write!(f, "{p}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_operations() {
        let w = Piece::man(Color::White);
        let bk = Piece::king(Color::Black);
        let col = Column::from_pieces(&[w, w, bk]).unwrap();
        assert_eq!(col.to_string(), "wwB");
        assert_eq!(col.top(), Some(bk));
        assert_eq!(col.without_top().to_string(), "ww");
        assert_eq!(col.with_bottom(bk).to_string(), "BwwB");
        assert_eq!(col.with_top_king(false).to_string(), "wwb");
        assert_eq!(Column::single(w).without_top(), Column::EMPTY);
        let tall = Column::from_pieces(&[bk; 24]).unwrap();
        assert_eq!(tall.height(), 24);
        assert_eq!(tall.without_top().with_bottom(w).get(0), Some(w));
        assert!(Column::from_pieces(&[w; 25]).is_none());
    }
}
