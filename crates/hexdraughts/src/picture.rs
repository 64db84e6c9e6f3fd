//! `Display` of a position: the position text, or with `{:#}` the board drawn
//! as a hexagon for people.
//!
//! Each field shows its number in the row and what stands on it (`w`/`W` a
//! White man/king, `b`/`B` a Black man/king, `.` empty); rows are offset by
//! half a field so that the lines of play run diagonally:
//!
//! ```text
//! A            1B  2.  3.  4.  5.            A
//! B          1.  2.  3.  4.  5.  6.          B
//! ```

use std::fmt;

use board_core::{Cell as _, Game};

use crate::board::{Field, ROWS, row_len};
use crate::position::{Position, player_name};
use crate::text::write_text;

/// Characters per field in the picture; half of it is the offset per row.
const PITCH: usize = 4;

fn draw(pos: &Position, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    for row in 0..ROWS {
        let letter = char::from(b'A' + row as u8);
        let indent = (10 - row_len(row)) * PITCH / 2;
        write!(f, "{letter}  {:indent$}", "")?;
        let fields = Field::all().filter(|field| field.row() == row);
        for (k, field) in fields.enumerate() {
            let symbol = pos.piece_at(field).map_or('.', |piece| piece.symbol());
            let gap = if k > 0 { " " } else { "" };
            write!(f, "{gap}{:>2}{symbol}", field.number())?;
        }
        writeln!(f, "{:indent$}  {letter}", "")?;
    }
    write!(
        f,
        "{} to move ({}); w/W White man/king, b/B Black man/king",
        player_name(pos.side_to_move()),
        pos.variant()
    )
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            draw(self, f)
        } else {
            let pieces: Vec<_> = self.occupied().collect();
            write_text(f, self.side_to_move(), &pieces)
        }
    }
}
