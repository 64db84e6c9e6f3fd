//! The move type.

use std::fmt;

use crate::Square;

/// A stykovka move: a slide to an empty square, a slide that docks on an enemy
/// checker and displaces it, or a pass.
///
/// `Display` gives the canonical notation: `c1-c4`, `c1-e3/a7`, `pass`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// The checker on `from` slides to the empty square `to`.
    Slide {
        /// Where the checker starts.
        from: Square,
        /// Where it lands.
        to: Square,
    },
    /// The checker on `from` lands on the enemy checker on `to`, which
    /// retreats 4 squares along a diagonal to `retreat`.
    Dock {
        /// Where the checker starts.
        from: Square,
        /// Where it lands (the enemy checker's square).
        to: Square,
        /// Where the displaced enemy checker goes.
        retreat: Square,
    },
    /// The side to move has no other move.
    Pass,
}

impl Move {
    /// The square the moving checker leaves (`None` for a pass).
    pub const fn from(self) -> Option<Square> {
        match self {
            Move::Slide { from, .. } | Move::Dock { from, .. } => Some(from),
            Move::Pass => None,
        }
    }

    /// The square the moving checker lands on (`None` for a pass).
    pub const fn to(self) -> Option<Square> {
        match self {
            Move::Slide { to, .. } | Move::Dock { to, .. } => Some(to),
            Move::Pass => None,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Slide { from, to } => write!(f, "{from}-{to}"),
            Move::Dock { from, to, retreat } => write!(f, "{from}-{to}/{retreat}"),
            Move::Pass => f.write_str("pass"),
        }
    }
}
