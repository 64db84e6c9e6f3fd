//! Moves and their notation: `G8-F8` for a quiet move, `I3:G3:E4` for a capture
//! (the landing fields, joined by `:`).

use std::fmt;
use std::str::FromStr;

use board_core::MoveSyntaxError;

use crate::board::{Direction, Field};

/// The most fields a move visits: the start and one landing per captured
/// piece (a side has at most 21 pieces).
pub const MAX_PATH: usize = 22;

/// Where the parts of a move lie in its 128 bits.
const TO_SHIFT: u32 = 7;
const COUNT_SHIFT: u32 = 14;
const PROMOTES: u128 = 1 << 19;

const STEPS_SHIFT: u32 = 20;
/// Bits of one capture step: the direction (2 bits), then the distance to
/// the landing field less 2 (3 bits: a line has at most 10 fields).
const STEP_BITS: u32 = 5;
const FIELD_MASK: u128 = 0x7f;

/// A move: the start field and the landing fields, and whether it captures.
///
/// Small (16 bytes) and `Copy`. Two captures with different landing fields
/// are different moves even when they take the same pieces and end on the
/// same field.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// Padded bits of the start field (bits 0..7) and the end field (7..14),
    /// the number of captured pieces (14..19), whether a man reaches its
    /// promotion row on the way (19), then from bit 20 each capture step as
    /// a direction and a distance ([`STEP_BITS`] bits a step; unused bits
    /// are 0). The generator and the decoder of codes are the only makers,
    /// so the promotion bit is always the position's truth.
    bits: u128,
}

impl Move {
    /// A quiet move between two padded bits; `promotes` when a man steps
    /// onto its promotion row.
    #[inline(always)]
    pub(crate) const fn quiet(from: u8, to: u8, promotes: bool) -> Move {
        // Built in 64 bits: a shift of 128 bits costs several instructions.
        let low = from as u64 | (to as u64) << TO_SHIFT | (promotes as u64) << 19;
        Move { bits: low as u128 }
    }

    /// The quiet move whose [`low`](Move::low) bits are `low`.
    #[inline(always)]
    pub(crate) const fn from_low(low: u32) -> Move {
        Move { bits: low as u128 }
    }

    /// The start and end field and the promotion bit of a quiet move.
    pub(crate) const fn low(self) -> u32 {
        self.bits as u32
    }

    /// The step of a capture towards `dir` landing `distance` fields away
    /// (2..=9), placed as the capture's `index`-th step (from 0).
    #[inline(always)]
    pub(crate) const fn capture_step(index: usize, dir: Direction, distance: u32) -> u128 {
        let step = dir as u32 | (distance - 2) << 2;
        (step as u128) << (STEPS_SHIFT + STEP_BITS * index as u32)
    }

    /// A capture from `from` to `to` of `count` pieces, along `steps` (made
    /// of [`capture_step`](Move::capture_step)s).
    #[inline(always)]
    pub(crate) const fn capture(
        from: u8,
        to: u8,
        count: usize,
        promotes: bool,
        steps: u128,
    ) -> Move {
        let low = from as u64
            | (to as u64) << TO_SHIFT
            | (count as u64) << COUNT_SHIFT
            | (promotes as u64) << 19;
        Move { bits: low as u128 | steps }
    }

    /// The padded bit of the start field.
    #[inline(always)]
    pub(crate) const fn start_bit(self) -> u8 {
        (self.bits & FIELD_MASK) as u8
    }

    /// The padded bit of the end field.
    #[inline(always)]
    pub(crate) const fn end_bit(self) -> u8 {
        (self.bits >> TO_SHIFT & FIELD_MASK) as u8
    }

    /// Whether a man reaches its promotion row on the way (and ends a king).
    #[inline(always)]
    pub(crate) const fn promotes(self) -> bool {
        self.bits & PROMOTES != 0
    }

    /// The capture steps: for each captured piece in turn, the direction
    /// and the number of fields to the landing field.
    #[inline(always)]
    pub(crate) fn steps(self) -> impl Iterator<Item = (Direction, u32)> {
        let mut steps = self.bits >> STEPS_SHIFT;
        (0..self.capture_count()).map(move |_| {
            let step = steps as u32;
            steps >>= STEP_BITS;
            (Direction::ALL[(step & 3) as usize], (step >> 2 & 7) + 2)
        })
    }

    /// The move as a number below 2^128 (the same for equal moves only).
    pub(crate) const fn to_bits(self) -> u128 {
        self.bits
    }

    /// The field the piece starts from.
    pub fn from(&self) -> Field {
        Field::from_bit_index(self.start_bit())
    }

    /// The field the piece ends on.
    pub fn to(&self) -> Field {
        Field::from_bit_index(self.end_bit())
    }

    /// The start field followed by every landing field.
    pub fn fields(&self) -> impl Iterator<Item = Field> + '_ {
        let from = self.start_bit();
        let landings = self.steps().scan(i32::from(from), |at, (dir, distance)| {
            *at += dir.delta() * distance as i32;
            Some(Field::from_bit_index(*at as u8))
        });
        let quiet = (!self.is_capture()).then(|| self.to());
        std::iter::once(Field::from_bit_index(from)).chain(landings).chain(quiet)
    }

    /// Whether the move captures.
    pub const fn is_capture(&self) -> bool {
        self.capture_count() > 0
    }

    /// How many pieces the move captures.
    pub const fn capture_count(&self) -> usize {
        (self.bits >> COUNT_SHIFT & 0x1f) as usize
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
        write_path(f, self.fields(), self.is_capture())
    }
}

/// The move's notation (its bits say little).
impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
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
