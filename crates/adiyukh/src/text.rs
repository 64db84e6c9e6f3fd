//! The position text and the board picture.
//!
//! Position text: the side to move (`w` or `b`), then every column as
//! `<square>:<pieces>`, pieces bottom to top, `w` White man, `W` White king,
//! `b` Black man, `B` Black king, separated by spaces. Printed in the order
//! a1, c1, e1, g1, b2, ..., h8; read in any order.

use std::fmt;
use std::str::FromStr;

use board_core::{Cell, PositionError};

use crate::board::square_error;
use crate::{Color, Column, Piece, Position, Square};

/// A position as read from text, not yet checked: the side to move and the
/// columns (pieces bottom first). `Display` prints it as position text, the
/// columns in the order they are listed ([`Game::to_setup`](board_core::Game::to_setup)
/// lists them in square order, as the position prints).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The colour to move.
    pub turn: Color,
    /// The columns, each with its pieces bottom first.
    pub columns: Vec<(Square, Vec<Piece>)>,
}

impl Setup {
    /// Checks the setup: no square twice, no empty column, exactly 12 pieces
    /// of each colour (pieces never leave the board).
    pub(crate) fn validate(self) -> Result<Position, PositionError> {
        let mut cols = [Column::EMPTY; 32];
        let mut counts = [0usize; 2];
        for (sq, pieces) in &self.columns {
            if !cols[sq.slot()].is_empty() {
                return Err(PositionError::new(format!("{sq} is given twice")));
            }
            if pieces.is_empty() {
                return Err(PositionError::new(format!("the column on {sq} has no pieces")));
            }
            for p in pieces {
                counts[p.color as usize] += 1;
            }
            // More than 24 pieces in one column also breaks the counts below.
            cols[sq.slot()] = Column::from_pieces(pieces).ok_or_else(|| {
                PositionError::new(format!(
                    "the column on {sq} has {} pieces; there are only 24",
                    pieces.len()
                ))
            })?;
        }
        for color in [Color::White, Color::Black] {
            let n = counts[color as usize];
            if n != 12 {
                return Err(PositionError::new(format!(
                    "{} has {n} pieces, expected 12 (pieces never leave the board)",
                    color.name()
                )));
            }
        }
        Ok(Position::from_columns(cols, self.turn))
    }
}

impl FromStr for Setup {
    type Err = PositionError;

    fn from_str(text: &str) -> Result<Setup, PositionError> {
        let mut tokens = text.split_whitespace();
        let turn = match tokens.next() {
            Some("w") => Color::White,
            Some("b") => Color::Black,
            Some(other) => {
                return Err(PositionError::new(format!(
                    "the text must start with the side to move, 'w' or 'b', not '{other}'"
                )));
            }
            None => return Err(PositionError::new("empty position text")),
        };
        let mut columns = Vec::new();
        for token in tokens {
            let Some((square, letters)) = token.split_once(':') else {
                return Err(PositionError::new(format!(
                    "'{token}' is not a column: expected <square>:<pieces>, e.g. c3:wwB"
                )));
            };
            let sq: Square = square.parse().map_err(|e| PositionError::new(square_error(&e)))?;
            let pieces = letters
                .chars()
                .map(|c| {
                    Piece::from_letter(c).ok_or_else(|| {
                        PositionError::new(format!(
                            "'{c}' in the column on {sq} is not a piece (w, W, b, B)"
                        ))
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            columns.push((sq, pieces));
        }
        Ok(Setup { turn, columns })
    }
}

impl fmt::Display for Setup {
    /// The position text: the side to move, then `<square>:<pieces>` for
    /// every listed column.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(side_letter(self.turn))?;
        for (sq, pieces) in &self.columns {
            write!(f, " {sq}:")?;
            pieces.iter().try_for_each(|p| write!(f, "{p}"))?;
        }
        Ok(())
    }
}

/// The position text's letter for the side to move.
const fn side_letter(turn: Color) -> &'static str {
    match turn {
        Color::White => "w",
        Color::Black => "b",
    }
}

impl Position {
    /// The setup of this position: its columns in square order.
    pub(crate) fn setup(&self) -> Setup {
        let columns = Square::all()
            .map(|sq| (sq, self.column(sq)))
            .filter(|(_, col)| !col.is_empty())
            .map(|(sq, col)| (sq, col.pieces().collect()))
            .collect();
        Setup { turn: self.side, columns }
    }
}

impl fmt::Display for Position {
    /// The position text; with `{:#}` a board picture (each square shows its
    /// top piece and, for columns of several pieces, the height), the side
    /// to move, the score and every tall column bottom to top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            return self.draw(f);
        }
        f.write_str(side_letter(self.side))?;
        for sq in Square::all() {
            let col = self.column(sq);
            if !col.is_empty() {
                write!(f, " {sq}:{col}")?;
            }
        }
        Ok(())
    }
}

impl Position {
    fn draw(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8u8).rev() {
            write!(f, "{} |", rank + 1)?;
            for file in 0..8u8 {
                let cell = match Square::new(file, rank).map(|sq| self.column(sq)) {
                    None => String::new(),
                    Some(col) => match col.top() {
                        None => ".".to_owned(),
                        Some(top) if col.height() == 1 => top.to_string(),
                        Some(top) => format!("{top}{}", col.height()),
                    },
                };
                write!(f, " {cell:<3}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "   {}", ('a'..='h').map(|c| format!(" {c}  ")).collect::<String>())?;
        let score = self.score();
        write!(
            f,
            "{} to move; score White {} - Black {}",
            self.side.name(),
            score.first,
            score.second
        )?;
        let tall: Vec<String> = Square::all()
            .filter(|&sq| self.column(sq).height() > 1)
            .map(|sq| format!("{sq} {}", self.column(sq)))
            .collect();
        if !tall.is_empty() {
            write!(f, "\ncolumns, bottom to top: {}", tall.join(", "))?;
        }
        Ok(())
    }
}
