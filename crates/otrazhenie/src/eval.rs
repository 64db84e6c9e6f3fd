//! The static evaluation alpha-beta search uses.

use board_core::{Evaluate, Proven};

use crate::rules::Tally;
use crate::square::orthogonal_neighbours;
use crate::{Move, Position, Tablebase};

/// The value of a lost position (no checker or no move left) for the side to move.
const LOST: i32 = -10_000;
/// One checker; the game is about taking both of the opponent's.
const CHECKER: i32 = 1_000;
/// Being to move with a capture at hand: nearly a checker won.
const CAPTURE_AT_HAND: i32 = 600;
/// Being to move with the opponent's last checker capturable: the game is won.
const WIN_AT_HAND: i32 = 8_000;
/// Each of our checkers the opponent could capture if it were its turn.
const THREATENED: i32 = 150;
/// Per quiet move more than the opponent has.
const MOBILITY: i32 = 3;
/// Per blocked side of a lone checker: a hemmed-in last checker can be left
/// without a move, which loses.
const HEMMED: i32 = 60;

impl Evaluate for Position {
    /// From the side to move's view: material (1000 a checker) dominates; then
    /// capture options (ours now, the opponent's next), mobility, and the
    /// safety of a lone checker near the edges, where it can be trapped.
    /// Finished positions score -10 000 for the side to move.
    fn evaluate(&self) -> i32 {
        let (own, enemy) = self.sides();
        let mine = Tally::of(own, enemy);
        if own == 0 || mine.moves() == 0 {
            return LOST;
        }
        let theirs = Tally::of(enemy, own);
        let (own_count, enemy_count) = (own.count_ones() as i32, enemy.count_ones() as i32);
        let mut score = CHECKER * (own_count - enemy_count);
        if mine.targets != 0 {
            score += if enemy_count == 1 { WIN_AT_HAND } else { CAPTURE_AT_HAND };
        } else {
            score -= THREATENED * theirs.targets.count_ones() as i32;
        }
        score += MOBILITY * (mine.quiet as i32 - theirs.quiet as i32);
        score -= HEMMED * hemmed_sides(own, enemy);
        score += HEMMED * hemmed_sides(enemy, own);
        score
    }

    /// Captures first, a capture of the last enemy checker before all.
    fn move_priority(&self, mv: Move) -> i32 {
        match mv {
            Move::Quiet { .. } => 0,
            Move::Capture { .. } => {
                let (_, enemy) = self.sides();
                if enemy.count_ones() == 1 { 2 } else { 1 }
            }
        }
    }

    /// Captures.
    fn is_tactical(&self, mv: Move) -> bool {
        mv.is_capture()
    }

    const MOVE_INDEX_BOUND: usize = 64 * 64;

    /// From and to squares.
    fn move_index(&self, mv: Move) -> usize {
        mv.from().index() * 64 + mv.to().index()
    }

    /// Every position is in the table: [`Tablebase::global`], built (or read
    /// from its cache file) on the first probe.
    fn probe(&self) -> Option<Proven> {
        Some(Tablebase::global().probe(self))
    }
}

/// For a lone checker of `own`: how many of its four sides are closed by the
/// board edge or another checker (0 for two checkers).
fn hemmed_sides(own: u64, enemy: u64) -> i32 {
    if own.count_ones() != 1 {
        return 0;
    }
    4 - (orthogonal_neighbours(own) & !enemy).count_ones() as i32
}
