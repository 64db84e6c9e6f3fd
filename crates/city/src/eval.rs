//! The static evaluation for alpha-beta: material, pawns in the town and on
//! the wall, and threats on the four lines into the bazaar.

use board_core::{Evaluate, Game, Player};

use crate::board::{SQUARES, TOWN, WALL};
use crate::{City, Move, Square};

/// A pawn.
const PAWN: i32 = 100;
/// Extra for a pawn on the wall: one step from the town.
const ON_WALL: i32 = 20;
/// Extra for a pawn in the town: it can reach a line into the bazaar.
const IN_TOWN: i32 = 45;
/// Extra for a town pawn on one of the four lines into the bazaar.
const ON_LINE: i32 = 25;
/// The side to move faces one threat on the bazaar: it must answer it.
const FACING_THREAT: i32 = 150;
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

impl City {
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

    /// Material and placement of `player`'s pawns.
    fn placement(&self, player: Player) -> i32 {
        let own = self.pawns_of(player);
        PAWN * own.count_ones() as i32
            + ON_WALL * (own & WALL).count_ones() as i32
            + IN_TOWN * (own & TOWN).count_ones() as i32
            + ON_LINE * (own & LINES).count_ones() as i32
    }
}

impl Evaluate for City {
    /// From the side to move: a threat of its own wins next move; two enemy
    /// threats cannot both be parried; otherwise material and placement, less
    /// a tempo penalty for having to answer one threat.
    fn evaluate(&self) -> i32 {
        let us = self.side_to_move();
        let them = us.other();
        if let Some(outcome) = self.outcome() {
            return if outcome.winner == Some(us) { DECIDED } else { -DECIDED };
        }
        if self.bazaar_threats(us) > 0 {
            return DECIDED;
        }
        let threats = self.bazaar_threats(them);
        if threats >= 2 {
            return -DECIDED;
        }
        self.placement(us) - self.placement(them) - FACING_THREAT * threats as i32
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

    /// Captures and entering the bazaar.
    fn is_tactical(&self, mv: Move) -> bool {
        mv.to == Square::BAZAAR || self.pawns_of(self.side_to_move().other()) & mv.to.bit() != 0
    }

    const MOVE_INDEX_BOUND: usize = SQUARES * SQUARES;

    /// From and to squares.
    fn move_index(&self, mv: Move) -> usize {
        mv.from.index() * SQUARES + mv.to.index()
    }
}
