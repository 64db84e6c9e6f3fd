//! The static evaluation for alpha-beta: material, pawns in the town and on
//! the wall, and threats on the four lines into the bazaar, by the rules of
//! the variant (under the playable rules a threat is a pawn on a gate, and
//! the side to move must capture it or lose).

use board_core::{Cell, Evaluate, Game, Player, Valuation, weighted_evaluation, write_difference};

use crate::board::{ALL, GATES, STEPS, TOWN, WALL, slides, squares_of};
use crate::{Move, Position, Rules, Square};

/// The features, side to move's view:
/// - `pawns`, `on_wall`, `in_town`, `on_line`: own pawns minus the opponent's,
///   all of them, those on the wall (one step from the town), those in the
///   town (they can reach a line into the bazaar), and those of the town on
///   one of the four lines into the bazaar;
/// - `facing_threat`: 1 when the side to move faces one threat on the bazaar
///   and must answer it.
const FEATURE_NAMES: [&str; 5] = ["pawns", "on_wall", "in_town", "on_line", "facing_threat"];

/// The weight of each feature of [`FEATURE_NAMES`] (hand-set: a fit to
/// self-play games lost in the arena, see the README).
pub const WEIGHTS: [i32; 5] = [100, 20, 45, 25, -150];

/// A result that is certain within three plies (but not yet played out).
const DECIDED: i32 = 10_000;

/// Whether a pawn of the set `attackers` can land on `square` (off the
/// wall) in one move, to capture there, while the squares of `occupied` hold
/// pawns: the first pawn met along a slide ray from `square`, or a pawn on an
/// adjacent wall square (climbing down).
fn attacked(square: Square, attackers: u128, occupied: u128) -> bool {
    let i = square.index();
    (STEPS[i] | slides(i, occupied)) & attackers != 0
}

/// The four arms into the bazaar (rank 5 and file e inside the town), each
/// nearest to e5 first: the nearest pawn on an arm threatens to enter.
const ARMS: [[Square; 2]; 4] = [
    [Square::at(4, 5), Square::at(4, 6)],
    [Square::at(5, 4), Square::at(6, 4)],
    [Square::at(4, 3), Square::at(4, 2)],
    [Square::at(3, 4), Square::at(2, 4)],
];

/// The squares of the arms as a bit set.
const LINES: u128 = {
    let mut out = 0;
    let mut i = 0;
    while i < ARMS.len() {
        out |= ARMS[i][0].bit() | ARMS[i][1].bit();
        i += 1;
    }
    out
};

impl Position {
    /// How many arms into the bazaar `player` threatens: arms whose pawn
    /// could enter e5 on `player`'s next move. Under the literal rules that
    /// is an arm whose pawn nearest to e5 is `player`'s (it slides in);
    /// under the playable rules, a gate (d5, f5, e4, e6) holding `player`'s
    /// pawn (it steps in).
    pub fn bazaar_threats(&self, player: Player) -> u32 {
        let own = self.pawns_of(player);
        match self.variant().rules() {
            Rules::Playable => (own & GATES).count_ones(),
            Rules::Literal => {
                let occupied = self.pawns.first | self.pawns.second;
                ARMS.iter()
                    .filter(|arm| {
                        arm.iter()
                            .find(|sq| occupied & sq.bit() != 0)
                            .is_some_and(|sq| own & sq.bit() != 0)
                    })
                    .count() as u32
            }
        }
    }

    /// Under the playable rules, whether the side to move faces a threat it
    /// cannot answer: two pawns on gates, or one that none of its pawns can
    /// capture. Under the literal rules, two threats (one move parries one).
    fn faces_unstoppable_threat(&self) -> bool {
        let us = self.side_to_move();
        let threats = self.bazaar_threats(us.other());
        match self.variant().rules() {
            Rules::Literal => threats >= 2,
            Rules::Playable => {
                let own = self.pawns_of(us);
                let occupied = self.pawns.first | self.pawns.second;
                let gates = self.pawns_of(us.other()) & GATES;
                threats >= 2
                    || (threats == 1
                        && !squares_of(gates).any(|gate| attacked(gate, own, occupied)))
            }
        }
    }

    /// Under the playable rules, whether the side to move has a legal move
    /// onto a gate after which the opponent has no pawn on a gate and none
    /// that can capture on that one: it steps into the bazaar next move
    /// whatever the reply (the reply may not block: the step is one square).
    fn has_safe_gate_move(&self) -> bool {
        let us = self.side_to_move();
        let enemy = self.pawns_of(us.other());
        let occupied = self.pawns.first | self.pawns.second;
        let reach = self.reach();
        let tactical = self.tactical_squares();
        let legal = if reach.all & tactical != 0 { tactical } else { ALL };
        reach.all & GATES & legal != 0
            && reach.pawns().iter().any(|&(from, targets)| {
                squares_of(targets & GATES & legal).any(|gate| {
                    let enemy = enemy & !gate.bit();
                    let occupied = (occupied & !from.bit()) | gate.bit();
                    enemy & GATES == 0 && !attacked(gate, enemy, occupied)
                })
            })
    }

    /// `player`'s pawns: all, on the wall, in the town, on the lines.
    fn placement(&self, player: Player) -> [i32; 4] {
        let own = self.pawns_of(player);
        [own, own & WALL, own & TOWN, own & LINES].map(|set| set.count_ones() as i32)
    }
}

impl Evaluate for Position {
    /// Capture lines transpose (slides in any order): see issue 23's measurements.
    const QUIESCENCE_TABLE: bool = true;

    const FEATURE_NAMES: &'static [&'static str] = &FEATURE_NAMES;
    const WEIGHTS: &'static [i32] = &WEIGHTS;

    const PATTERNS: usize = crate::patterns::PATTERNS;
    const PATTERN_BOUND: usize = crate::patterns::INDEX_BOUND;
    const PATTERN_LAYOUT: &'static str = crate::patterns::LAYOUT;
    /// Trained on `16c` (docs/tuning.md, "City: the whole loop"); the
    /// default stays the classic evaluation.
    const LEARNED_WEIGHTS: &'static [u8] = include_bytes!("../data/learned.weights");
    /// Rounded to half a pawn: unrounded, the learned values' trees grow
    /// 12-fold to depth 6 from the start (docs/tuning.md, "City: the whole
    /// loop").
    const LEARNED_GRAIN: i32 = 50;

    fn pattern_indices(&self, out: &mut [u32]) {
        crate::patterns::indices(self, out);
    }

    fn evaluate(&self) -> i32 {
        weighted_evaluation(self)
    }

    /// From the side to move: a threat of its own wins next move, and enemy
    /// threats it cannot answer lose (fixed values: two threats; under the
    /// playable rules also one on a gate none of its pawns can capture), and
    /// under the playable rules a safe step onto a gate wins in three plies;
    /// otherwise material and placement, and whether it has to answer one
    /// threat.
    fn features(&self, out: &mut [i32]) -> Valuation {
        let us = self.side_to_move();
        let them = us.other();
        if let Some(outcome) = self.outcome() {
            return Valuation::Fixed(if outcome.winner == Some(us) { DECIDED } else { -DECIDED });
        }
        if self.bazaar_threats(us) > 0 {
            return Valuation::Fixed(DECIDED);
        }
        if self.faces_unstoppable_threat() {
            return Valuation::Fixed(-DECIDED);
        }
        if self.variant().rules() == Rules::Playable && self.has_safe_gate_move() {
            return Valuation::Fixed(DECIDED);
        }
        let threats = self.bazaar_threats(them);
        write_difference(out, self.placement(us), self.placement(them));
        if let Some(slot) = out.get_mut(4) {
            *slot = threats as i32;
        }
        Valuation::Weighted
    }

    /// Entering the bazaar first, then captures (under the playable rules
    /// of a pawn on a gate first: the others lose), of town pawns before
    /// others; then moves onto a gate (playable rules: a threat), onto a
    /// line into the bazaar, into the town, onto the wall.
    fn move_priority(&self, mv: Move) -> i32 {
        if mv.to == Square::BAZAAR {
            return 10_000;
        }
        let to = mv.to.bit();
        let playable = self.variant().rules() == Rules::Playable;
        let mut priority = 0;
        if self.pawns_of(self.side_to_move().other()) & to != 0 {
            priority += 1_000 + if TOWN & to != 0 { 500 } else { 0 };
            if playable && GATES & to != 0 {
                priority += 2_000;
            }
        }
        if playable && GATES & to != 0 {
            priority += 400;
        }
        if LINES & to != 0 {
            priority += 300;
        }
        if TOWN & to != 0 && TOWN & mv.from.bit() == 0 {
            priority += 200;
        } else if WALL & to != 0 {
            priority += 100;
        }
        priority
    }
}
