//! A static evaluation for alpha-beta search.

use board_core::{Evaluate, Game, Player, Valuation, weighted_evaluation, write_difference};

use crate::moves::Move;
use crate::position::Position;

/// The features, each the side to move's count minus the opponent's:
/// - `stacks`: stacks the player controls, whatever their height;
/// - `controlled`: pieces in those stacks;
/// - `reserve`: pieces in reserve (each can be dropped to take a stack over);
/// - `captured`: enemy pieces captured, gone for good;
/// - `mobility`: stack moves available.
const FEATURE_NAMES: [&str; 5] = ["stacks", "controlled", "reserve", "captured", "mobility"];

/// The weight of each feature of [`FEATURE_NAMES`], fitted to self-play
/// games (docs/tuning.md; the hand-set weights were `[40, 20, 100, 150, 2]`):
// igroteka tune datagen --game focus --games 200 --depth 3 --seed 2 --out focus3.jsonl
// igroteka tune fit --game focus --data focus3.jsonl --start 40,20,100,150,2 --freeze reserve,captured
pub const WEIGHTS: [i32; 5] = [-62, 68, 100, 150, -2];

impl Position {
    /// `player`'s features alone.
    fn side_features(&self, player: Player) -> [i32; 5] {
        let stacks = self.owned(player).count_ones() as i32;
        let controlled = self.controlled(player) as i32;
        [
            stacks,
            controlled,
            i32::from(self.reserve(player)),
            i32::from(self.captured(player)),
            self.stack_mobility(player) as i32,
        ]
    }
}

impl Evaluate for Position {
    const FEATURE_NAMES: &'static [&'static str] = &FEATURE_NAMES;
    const WEIGHTS: &'static [i32] = &WEIGHTS;
    const PATTERNS: usize = crate::patterns::PATTERNS;
    const PATTERN_BOUND: usize = crate::patterns::INDEX_BOUND;
    const PATTERN_LAYOUT: &'static str = crate::patterns::LAYOUT;
    const LEARNED_WEIGHTS: &'static [u8] = include_bytes!("../data/learned.weights");
    /// The side to move's bonus in alpha-beta: a search that stops after a
    /// take-over values it as if it could not be answered. At equal time
    /// (100 ms a move, 200 games) the engine with it beat the one without
    /// by +59.6 ± 45.8 Elo (docs/tuning.md, "Focus: a bonus for the side
    /// to move"). Since take-overs of tall stacks are tactical (quiescence
    /// search answers them) it still helps: without it, −56.1 ± 67.5 over
    /// 100 games.
    const TEMPO: i32 = 80;

    fn pattern_indices(&self, out: &mut [u32]) {
        crate::patterns::indices(self, out);
    }

    fn evaluate(&self) -> i32 {
        weighted_evaluation(self)
    }

    fn features(&self, out: &mut [i32]) -> Valuation {
        let me = self.side_to_move();
        let (own, theirs) = (self.side_features(me), self.side_features(me.other()));
        write_difference(out, own, theirs);
        Valuation::Weighted
    }

    /// Captures first, then moves that send own pieces back to the reserve,
    /// then moves that take over tall enemy stacks; drops without a capture last.
    fn move_priority(&self, mv: Move) -> i32 {
        let me = self.side_to_move();
        let (own, enemy) = self.pushed_off(mv.to(), mv.piece_count());
        let captures = enemy as i32;
        // A drop takes one piece from the reserve.
        let reserve_gain = own as i32 - i32::from(matches!(mv, Move::Drop { .. }));
        let taken_over = match self.piece_at(mv.to()) {
            Some(stack) if stack.owner() != me => stack.height() as i32,
            _ => 0,
        };
        1000 * captures + 300 * reserve_gain + 50 * taken_over
    }
}
