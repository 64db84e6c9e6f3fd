//! The rules on bitboards: move generation and the end checks.
//!
//! Everything here works on a pair of bitboards (the checkers of the side
//! whose moves are wanted, and the enemy's), so the same code serves the side
//! to move, the opponent (for the pass rule) and counting.

use board_core::Cell;

use crate::board::{
    GEOMETRY, Geometry, INTERIOR, NOT_FILE_A, NOT_FILE_H, enclosed, flood, orthogonal_neighbours,
};
use crate::{Move, Square};

/// Calls `sink` with every move (passes aside) of the player whose checkers are
/// `own` against the checkers `enemy`, until `sink` returns `false`. Returns
/// `false` exactly when `sink` stopped it.
#[inline(always)]
pub(crate) fn for_each_move(own: u64, enemy: u64, mut sink: impl FnMut(Move) -> bool) -> bool {
    let mut pieces = own;
    while pieces != 0 {
        let from = Square::lowest(pieces);
        pieces &= pieces - 1;
        if !for_each_move_from(from, own, enemy, &mut sink) {
            return false;
        }
    }
    true
}

/// [`for_each_move`] for the checker on `from` alone.
#[inline(always)]
pub(crate) fn for_each_move_from(
    from: Square,
    own: u64,
    enemy: u64,
    mut sink: impl FnMut(Move) -> bool,
) -> bool {
    let occupied = own | enemy;
    let s = from.index();
    for d in 0..8 {
        let ray = GEOMETRY.ray[d][s];
        // Rule 2: the checkers ahead on the line, plus the mover itself.
        let distance = 1 + (ray & occupied).count_ones() as u8;
        if distance > GEOMETRY.ray_len[d][s] {
            continue;
        }
        let to = Geometry::step(from, d, distance);
        let t = to.index();
        let landing = to.bit();
        let passed = ray & !GEOMETRY.ray[d][t] & !landing;
        // Rule 3 (no passing over an enemy checker), rule 4 (no landing on an own one).
        if passed & enemy != 0 || landing & own != 0 {
            continue;
        }
        let mv = if landing & enemy == 0 {
            Move::Slide { from, to }
        } else {
            // Rule 5: the enemy checker needs 4 empty squares on its diagonal,
            // the mover's origin counting as empty.
            if GEOMETRY.retreat_path[t] & occupied & !from.bit() != 0 {
                continue;
            }
            Move::Dock { from, to, retreat: GEOMETRY.retreat[t] }
        };
        if !sink(mv) {
            return false;
        }
    }
    true
}

/// Whether the player with checkers `own` has any move (passes aside).
#[inline]
pub(crate) fn has_move(own: u64, enemy: u64) -> bool {
    !for_each_move(own, enemy, |_| false)
}

/// How many moves (passes aside) the player with checkers `own` has.
#[inline]
pub(crate) fn count_moves(own: u64, enemy: u64) -> u64 {
    let mut count = 0;
    for_each_move(own, enemy, |_| {
        count += 1;
        true
    });
    count
}

/// Whether one of the checkers `own` is crashed: its four orthogonal
/// neighbours exist and all hold checkers of `enemy`.
#[inline]
pub(crate) const fn crashed(own: u64, enemy: u64) -> bool {
    enclosed(own, enemy) != 0
}

/// Whether the checkers `own` form one orthogonally connected group.
#[inline]
pub(crate) const fn docked(own: u64) -> bool {
    // A lone checker is docked; of two or more, one without an own neighbour
    // (the usual case) means not docked, without the flood fill.
    own != 0
        && (own & (own - 1) == 0
            || (own & !orthogonal_neighbours(own) == 0
                && flood(own & own.wrapping_neg(), own) == own))
}

/// Whether some move of the player with checkers `own` might win at once
/// against the checkers `enemy` (no end yet): `false` means none does, found
/// without trying the moves. A crash needs an enemy checker with three own
/// neighbours (the move brings the fourth) or a retreat onto a square whose
/// four neighbours are own checkers; docking needs at most five groups,
/// since a move joins at most four through its landing square and lifting
/// its checker never joins any.
#[inline]
pub(crate) fn could_win_at_once(own: u64, enemy: u64) -> bool {
    if enemy & INTERIOR & three_neighbours_in(own) != 0 || enclosed(!enemy, own) != 0 {
        return true;
    }
    let lone = own & !orthogonal_neighbours(own);
    if lone.count_ones() > 5 {
        return false;
    }
    // At most five groups: five floods take them all.
    let mut rest = own;
    for _ in 0..5 {
        rest &= !flood(rest & rest.wrapping_neg(), rest);
    }
    rest == 0
}

/// The squares with at least three orthogonal neighbours in `bits`.
#[inline]
const fn three_neighbours_in(bits: u64) -> u64 {
    let (north, south) = (bits >> 8, bits << 8);
    let (east, west) = ((bits >> 1) & NOT_FILE_H, (bits << 1) & NOT_FILE_A);
    (north & south & (east | west)) | (east & west & (north | south))
}

/// Where a move of the player with checkers `own` must land to crash an
/// enemy checker: next to an enemy checker that has three own neighbours
/// (the move brings the fourth); and, when some square off the enemy's is
/// walled in by own checkers (a displaced checker may retreat into it), on
/// any enemy checker. Lifting the mover only takes own neighbours away, and
/// a retreat square is never next to the landing, so no crashing move lands
/// elsewhere.
#[inline]
pub(crate) const fn crashing_landings(own: u64, enemy: u64) -> u64 {
    let beside = orthogonal_neighbours(enemy & INTERIOR & three_neighbours_in(own));
    if enclosed(!enemy, own) != 0 { beside | enemy } else { beside }
}

/// Where the checker on `from` of the player with checkers `own` must land
/// for them to end docked: next to every group the other checkers form (the
/// landing square is the only one that can join them).
#[inline]
pub(crate) const fn docking_landings(own: u64, from: Square) -> u64 {
    let rest = own & !from.bit();
    let mut landings = !rest;
    let mut left = rest;
    while left != 0 && landings != 0 {
        let group = flood(left & left.wrapping_neg(), rest);
        left &= !group;
        landings &= orthogonal_neighbours(group);
    }
    landings
}

/// Why a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum WinReason {
    /// A checker of the loser is crashed.
    Crash,
    /// The winner's checkers are docked.
    Docking,
}

impl WinReason {
    pub(crate) const fn text(self) -> &'static str {
        match self {
            WinReason::Crash => "crash",
            WinReason::Docking => "docking",
        }
    }
}

/// The end checks after a move by the player with checkers `mover`, in the
/// spec's order; `Some((true, _))` when the mover wins, `Some((false, _))`
/// when the opponent does. The opponent's docking is looked at only when
/// `opponent_moved` (a docking displaces one of its checkers): after any other
/// move it cannot have changed, and a docked opponent would have ended the
/// game before the move.
#[inline]
pub(crate) const fn end_after(
    mover: u64,
    opponent: u64,
    opponent_moved: bool,
) -> Option<(bool, WinReason)> {
    if crashed(opponent, mover) {
        Some((true, WinReason::Crash))
    } else if crashed(mover, opponent) {
        Some((false, WinReason::Crash))
    } else if docked(mover) {
        Some((true, WinReason::Docking))
    } else if opponent_moved && docked(opponent) {
        Some((false, WinReason::Docking))
    } else {
        None
    }
}

/// The checkers of the mover (`own`) and of the opponent (`enemy`) after
/// `mv`; `None` for a pass.
#[inline]
pub(crate) const fn after_move(own: u64, enemy: u64, mv: Move) -> Option<(u64, u64)> {
    match mv {
        Move::Slide { from, to } => Some((own ^ from.bit() ^ to.bit(), enemy)),
        Move::Dock { from, to, retreat } => {
            Some((own ^ from.bit() ^ to.bit(), enemy ^ to.bit() ^ retreat.bit()))
        }
        Move::Pass => None,
    }
}

/// Why `mv` of the player with checkers `own` wins at once, if it does: it
/// crashes an enemy checker (end check 1, which comes before check 2, so even
/// when it also crashes an own one), or it docks without crashing an own
/// checker.
#[inline]
pub(crate) const fn wins_at_once(own: u64, enemy: u64, mv: Move) -> Option<WinReason> {
    match after_move(own, enemy, mv) {
        // The opponent's docking only decides against the mover.
        Some((own, enemy)) => match end_after(own, enemy, false) {
            Some((true, reason)) => Some(reason),
            _ => None,
        },
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use board_core::{Game, Rng};

    use super::*;
    use crate::Position;

    /// Along random games: where the pre-test says no move wins at once, none
    /// does; and both kinds of position occur, so the check means something.
    #[test]
    fn could_win_at_once_never_misses_a_win() {
        let mut rng = Rng::new(23);
        let (mut skipped, mut winning) = (0, 0);
        let mut moves = Vec::new();
        for _ in 0..300 {
            let mut pos = Position::default();
            for _ in 0..200 {
                moves.clear();
                pos.generate_moves(&mut moves);
                let Some(&mv) = rng.choose(&moves) else { break };
                let (own, enemy) = pos.own_and_enemy();
                let wins = moves.iter().filter(|&&m| wins_at_once(own, enemy, m).is_some()).count();
                if could_win_at_once(own, enemy) {
                    winning += usize::from(wins > 0);
                } else {
                    assert_eq!(wins, 0, "a move wins at once in {pos}");
                    skipped += 1;
                }
                pos.play_unchecked(mv);
            }
        }
        assert!(skipped > 0 && winning > 0, "skipped {skipped}, winning {winning}");
    }
}
