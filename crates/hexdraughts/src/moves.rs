//! Moves and their notation: `G8-F8` for a quiet move, `I3:G3:E4` for a capture
//! (the landing fields, joined by `:`).

use std::fmt;
use std::str::FromStr;

use board_core::MoveSyntaxError;

use crate::board::Field;

/// The most fields a move visits: the start and one landing per captured
/// piece (a side has at most 21 pieces).
pub const MAX_PATH: usize = 22;

/// A move: the start field and the landing fields, and whether it captures.
///
/// Small and `Copy`. Two captures with different landing fields are different
/// moves even when they take the same pieces and end on the same field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    len: u8,
    capture: bool,
    /// Padded bits of the start and landing fields; unused entries are 0.
    path: [u8; MAX_PATH],
}

impl Move {
    /// A quiet move between two padded bits.
    pub(crate) const fn quiet(from: u8, to: u8) -> Move {
        let mut path = [0; MAX_PATH];
        path[0] = from;
        path[1] = to;
        Move { len: 2, capture: false, path }
    }

    /// A capture along the first `len` padded bits of `path` (start, then
    /// landings); the entries from `len` on must be 0.
    pub(crate) const fn capture(path: [u8; MAX_PATH], len: usize) -> Move {
        Move { len: len as u8, capture: true, path }
    }

    /// The padded bits of the start and landing fields.
    pub(crate) fn path_bits(&self) -> &[u8] {
        &self.path[..usize::from(self.len)]
    }

    /// The field the piece starts from.
    pub fn from(&self) -> Field {
        Field::from_bit_index(self.path[0])
    }

    /// The field the piece ends on.
    pub fn to(&self) -> Field {
        Field::from_bit_index(self.path[usize::from(self.len) - 1])
    }

    /// The start field followed by every landing field.
    pub fn fields(&self) -> impl Iterator<Item = Field> + '_ {
        self.path_bits().iter().map(|&b| Field::from_bit_index(b))
    }

    /// Whether the move captures.
    pub const fn is_capture(&self) -> bool {
        self.capture
    }

    /// How many pieces the move captures.
    pub const fn capture_count(&self) -> usize {
        if self.capture { self.len as usize - 1 } else { 0 }
    }
}

fn write_path(
    f: &mut fmt::Formatter<'_>,
    fields: impl Iterator<Item = Field>,
    capture: bool,
) -> fmt::Result {
    let separator = if capture { ":" } else { "-" };
    for (k, field) in fields.enumerate() {
        if k > 0 {
            f.write_str(separator)?;
        }
        write!(f, "{field}")?;
    }
    Ok(())
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_path(f, self.fields(), self.capture)
    }
}

/// A move as read from text, not yet checked against a position.
///
/// `G8-F8` (quiet: exactly two fields) or `I3:G3:E4` (capture: the start and
/// every landing field). A capture may be shortened to its start and end,
/// `I3:E4`, when only one legal capture fits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    fields: Vec<Field>,
    capture: bool,
}

impl MoveText {
    /// The fields as written.
    pub fn fields(&self) -> &[Field] {
        &self.fields
    }

    /// Whether it was written as a capture (with `:`).
    pub const fn is_capture(&self) -> bool {
        self.capture
    }
}

impl FromStr for MoveText {
    type Err = MoveSyntaxError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let error = |reason: String| MoveSyntaxError::new(text, reason);
        let trimmed = text.trim();
        let capture = match (trimmed.contains(':'), trimmed.contains('-')) {
            (true, true) => return Err(error("mixes '-' and ':'".into())),
            (true, false) => true,
            (false, true) => false,
            (false, false) => {
                return Err(error(
                    "expected fields joined by '-' (quiet move) or ':' (capture)".into(),
                ));
            }
        };
        let separator = if capture { ':' } else { '-' };
        let mut fields = Vec::new();
        for name in trimmed.split(separator) {
            if fields.len() == MAX_PATH {
                return Err(error(format!("more than {MAX_PATH} fields")));
            }
            let name = name.trim();
            if name.is_empty() {
                return Err(error(format!("a field is missing around '{separator}'")));
            }
            let field: Field =
                name.parse().map_err(|_| error(format!("'{name}' is not a field")))?;
            fields.push(field);
        }
        if !capture && fields.len() != 2 {
            return Err(error("a quiet move has exactly two fields, like G8-F8".into()));
        }
        if fields.len() < 2 {
            return Err(error("a capture needs a start and a landing field".into()));
        }
        Ok(MoveText { fields, capture })
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_path(f, self.fields.iter().copied(), self.capture)
    }
}
