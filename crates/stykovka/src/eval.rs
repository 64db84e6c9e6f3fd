//! Static evaluation for alpha-beta: connectivity, spread and crash danger.

use board_core::Evaluate;

use crate::board::{INTERIOR, enclosed, flood, orthogonal_neighbours};
use crate::rules::docked;
use crate::{Move, Position, Square};

/// Penalty per orthogonal group beyond the first.
const GROUP: i32 = 60;
/// Penalty per square of total Manhattan distance to the group's centre of mass.
const SPREAD: i32 = 6;
/// Bonus per enemy checker one enemy neighbour away from a crash (we move next).
const CRASH_THREAT: i32 = 150;
/// Penalty per own checker one enemy neighbour away from a crash.
const CRASH_DANGER: i32 = 70;
/// Bonus for moving.
const TEMPO: i32 = 10;
/// The priority of a move that crashes an enemy checker, which wins.
const CRASHES: i32 = 10_000;
/// The priority of a move that docks, which wins.
const DOCKS: i32 = 9_000;

/// The number of orthogonally connected groups of `bits`.
fn groups(mut bits: u64) -> i32 {
    let mut count = 0;
    while bits != 0 {
        bits &= !flood(bits & bits.wrapping_neg(), bits);
        count += 1;
    }
    count
}

/// Sum of Manhattan distances from each checker of `bits` to their centre of
/// mass, times the number of checkers (kept in integers).
fn spread(bits: u64) -> i32 {
    let n = bits.count_ones() as i32;
    let (mut files, mut ranks) = (0, 0);
    let mut rest = bits;
    while rest != 0 {
        let sq = Square::lowest(rest);
        files += i32::from(sq.file());
        ranks += i32::from(sq.rank());
        rest &= rest - 1;
    }
    let mut total = 0;
    let mut rest = bits;
    while rest != 0 {
        let sq = Square::lowest(rest);
        total +=
            (i32::from(sq.file()) * n - files).abs() + (i32::from(sq.rank()) * n - ranks).abs();
        rest &= rest - 1;
    }
    total
}

/// Checkers of `bits` not on the edge with exactly three enemy orthogonal
/// neighbours and an empty fourth one: one enemy move from a crash.
fn near_crashes(bits: u64, enemy: u64) -> i32 {
    let empty = !(bits | enemy);
    let mut count = 0;
    let mut rest = bits & INTERIOR;
    while rest != 0 {
        let one = rest & rest.wrapping_neg();
        let around = orthogonal_neighbours(one);
        if (around & enemy).count_ones() == 3 && around & empty != 0 {
            count += 1;
        }
        rest &= rest - 1;
    }
    count
}

/// How well placed the checkers `own` are, ignoring crash danger.
fn shape(own: u64) -> i32 {
    let n = own.count_ones().max(1) as i32;
    -GROUP * (groups(own) - 1) - SPREAD * spread(own) / n
}

impl Evaluate for Position {
    /// Side to move's view: fewer groups and a tighter spread than the
    /// opponent, plus threats to crash enemy checkers and minus own checkers
    /// close to a crash. Stays within a few thousand.
    fn evaluate(&self) -> i32 {
        let (own, enemy) = self.own_and_enemy();
        let value = shape(own) - shape(enemy) + CRASH_THREAT * near_crashes(enemy, own)
            - CRASH_DANGER * near_crashes(own, enemy)
            + TEMPO;
        value.clamp(-20_000, 20_000)
    }

    /// Winning moves (a crash or own docking) first, then displacements, then
    /// moves that join more own checkers than they leave.
    fn move_priority(&self, mv: Move) -> i32 {
        let (own, enemy) = self.own_and_enemy();
        let (from, to, after_enemy) = match mv {
            Move::Slide { from, to } => (from, to, enemy),
            Move::Dock { from, to, retreat } => (from, to, enemy ^ to.bit() ^ retreat.bit()),
            Move::Pass => return 0,
        };
        let after_own = own ^ from.bit() ^ to.bit();
        // End check 1 comes before check 2: crashing an enemy checker wins even
        // when the move also crashes an own one.
        if enclosed(after_enemy, after_own) != 0 {
            return CRASHES;
        }
        if docked(after_own) && enclosed(after_own, after_enemy) == 0 {
            return DOCKS;
        }
        let joined = (orthogonal_neighbours(to.bit()) & after_own).count_ones() as i32;
        let left = (orthogonal_neighbours(from.bit()) & own).count_ones() as i32;
        let displacement = if matches!(mv, Move::Dock { .. }) { 50 } else { 0 };
        displacement + 20 * (joined - left)
    }

    /// Moves that win at once: a crash of an enemy checker, or docking
    /// (nothing is ever captured in this game).
    fn is_tactical(&self, mv: Move) -> bool {
        self.move_priority(mv) >= DOCKS
    }

    /// Slides and docks by their from and to squares; the pass last.
    const MOVE_INDEX_BOUND: usize = 64 * 64 + 1;

    fn move_index(&self, mv: Move) -> usize {
        match (mv.from(), mv.to()) {
            (Some(from), Some(to)) => usize::from(from.index()) * 64 + usize::from(to.index()),
            _ => 64 * 64,
        }
    }
}
