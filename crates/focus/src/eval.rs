//! A static evaluation for alpha-beta search.

use board_core::{Evaluate, Game, Player};

use crate::board::{MAX_HEIGHT, Square};
use crate::moves::Move;
use crate::position::Position;

/// Each stack a player controls, before its height counts.
const STACK: i32 = 40;
/// Each piece under a player's control (in a stack they own).
const CONTROLLED_PIECE: i32 = 20;
/// Each piece in reserve: it can be dropped on any stack to take it over.
const RESERVE_PIECE: i32 = 100;
/// Each enemy piece captured: gone for good.
const CAPTURED_PIECE: i32 = 150;
/// Each stack move available.
const MOBILITY: i32 = 2;

impl Position {
    /// `player`'s side of the evaluation, from their point of view.
    fn material(&self, player: Player) -> i32 {
        let stacks: i32 = Square::ALL
            .iter()
            .filter_map(|&sq| self.stack(sq))
            .filter(|stack| stack.owner() == player)
            .map(|stack| STACK + CONTROLLED_PIECE * stack.height() as i32)
            .sum();
        stacks
            + RESERVE_PIECE * i32::from(self.reserve(player))
            + CAPTURED_PIECE * i32::from(self.captured(player))
            + MOBILITY * self.stack_mobility(player) as i32
    }
}

/// Stacks controlled and their heights, reserve pieces, captured pieces and
/// stack mobility, each side's sum, side to move minus opponent.
impl Evaluate for Position {
    fn evaluate(&self) -> i32 {
        let me = self.side_to_move();
        (self.material(me) - self.material(me.other())).clamp(-20_000, 20_000)
    }

    /// Captures first, then moves that send own pieces back to the reserve,
    /// then moves that take over tall enemy stacks; drops without a capture last.
    fn move_priority(&self, mv: Move) -> i32 {
        let me = self.side_to_move();
        let mut after = *self;
        after.play_unchecked(mv);
        let captures = i32::from(after.captured(me)) - i32::from(self.captured(me));
        let reserve_gain = i32::from(after.reserve(me)) - i32::from(self.reserve(me));
        let taken_over = match self.stack(mv.to()) {
            Some(stack) if stack.owner() != me => stack.height() as i32,
            _ => 0,
        };
        1000 * captures + 300 * reserve_gain + 50 * taken_over
    }

    /// Stack moves and drops that capture: the destination grows past
    /// [`MAX_HEIGHT`] and an enemy piece is among those pushed off its bottom.
    fn is_tactical(&self, mv: Move) -> bool {
        let Some(target) = self.stack(mv.to()) else { return false };
        let overflow = (target.height() + mv.pieces()).saturating_sub(MAX_HEIGHT);
        let me = self.side_to_move();
        target.bottom_up().take(overflow).any(|piece| piece != me)
    }

    /// Stack moves by their from and to squares, then drops by their square.
    const MOVE_INDEX_BOUND: usize = 65 * 64;

    fn move_index(&self, mv: Move) -> usize {
        match mv {
            Move::Stack { from, to } => from.index() * 64 + to.index(),
            Move::Drop { to } => 64 * 64 + to.index(),
        }
    }
}
