//! The static evaluation for alpha-beta: material, pawns in the town and on
//! the wall, and threats on the four lines into the bazaar.

use board_core::{Evaluate, Game, Player, Valuation, weighted_evaluation, write_difference};

use crate::board::{TOWN, WALL};
use crate::{Move, Position, Square};

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

/// A result that is certain within two plies (but not yet played out).
const DECIDED: i32 = 10_000;

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
    /// nearest to e5 is `player`'s, so that it could slide in next move.
    pub fn bazaar_threats(&self, player: Player) -> u32 {
        let own = self.pawns_of(player);
        let occupied = self.pawns.first | self.pawns.second;
        ARMS.iter()
            .filter(|arm| {
                arm.iter().find(|sq| occupied & sq.bit() != 0).is_some_and(|sq| own & sq.bit() != 0)
            })
            .count() as u32
    }

    /// `player`'s pawns: all, on the wall, in the town, on the lines.
    fn placement(&self, player: Player) -> [i32; 4] {
        let own = self.pawns_of(player);
        [own, own & WALL, own & TOWN, own & LINES].map(|set| set.count_ones() as i32)
    }
}

impl Evaluate for Position {
    const FEATURE_NAMES: &'static [&'static str] = &FEATURE_NAMES;
    const WEIGHTS: &'static [i32] = &WEIGHTS;

    fn evaluate(&self) -> i32 {
        weighted_evaluation(self)
    }

    /// From the side to move: a threat of its own wins next move and two
    /// enemy threats cannot both be parried (fixed values); otherwise
    /// material and placement, and whether it has to answer one threat.
    fn features(&self, out: &mut [i32]) -> Valuation {
        let us = self.side_to_move();
        let them = us.other();
        if let Some(outcome) = self.outcome() {
            return Valuation::Fixed(if outcome.winner == Some(us) { DECIDED } else { -DECIDED });
        }
        if self.bazaar_threats(us) > 0 {
            return Valuation::Fixed(DECIDED);
        }
        let threats = self.bazaar_threats(them);
        if threats >= 2 {
            return Valuation::Fixed(-DECIDED);
        }
        write_difference(out, self.placement(us), self.placement(them));
        if let Some(slot) = out.get_mut(4) {
            *slot = threats as i32;
        }
        Valuation::Weighted
    }

    /// Entering the bazaar first, then captures (of town pawns before others),
    /// then moves onto a line into the bazaar, into the town, onto the wall.
    fn move_priority(&self, mv: Move) -> i32 {
        if mv.to == Square::BAZAAR {
            return 10_000;
        }
        let to = mv.to.bit();
        let mut priority = 0;
        if self.pawns_of(self.side_to_move().other()) & to != 0 {
            priority += 1_000 + if TOWN & to != 0 { 500 } else { 0 };
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
