//! Move generation in stages for search: quiet moves apart from tactical
//! ones, whether the tactical ones are forced, and moves named by a number
//! (the transposition table's move codes).

use board_core::{Cell, Game};

use crate::board::{ALL, SQUARES, squares_of};
use crate::{Move, Position, Rules, Square};

impl Position {
    /// Appends the legal moves that are not tactical: under the playable
    /// rules none while a capture or a step into the bazaar exists.
    pub(crate) fn generate_quiet_moves(&self, moves: &mut Vec<Move>) {
        if self.is_decided() {
            return;
        }
        let reach = self.reach();
        let tactical = self.tactical_squares();
        if self.variant().rules() == Rules::Playable && reach.all & tactical != 0 {
            return;
        }
        for &(from, targets) in reach.pawns() {
            for to in squares_of(targets & ALL & !tactical) {
                moves.push(Move::new(from, to));
            }
        }
    }

    /// Appends the tactical moves; says whether there are some and no
    /// others (always so under the playable rules, where they are compulsory).
    pub(crate) fn generate_tactical_moves_forced(&self, moves: &mut Vec<Move>) -> bool {
        if self.is_decided() {
            return false;
        }
        let reach = self.reach();
        let tactical = self.tactical_squares();
        let first = moves.len();
        for &(from, targets) in reach.pawns() {
            for to in squares_of(targets & tactical) {
                moves.push(Move::new(from, to));
            }
        }
        moves.len() > first
            && (self.variant().rules() == Rules::Playable || reach.all & !tactical == 0)
    }

    /// The move's from and to squares as one number.
    pub(crate) fn code_of(mv: Move) -> u32 {
        (mv.from.index() * SQUARES + mv.to.index()) as u32
    }

    /// The legal move of `code` when one pawn's reach tells: always under
    /// the literal rules; under the playable rules for captures and steps
    /// into the bazaar (a quiet move is legal only if no pawn can capture,
    /// which takes every pawn's reach: `None`).
    pub(crate) fn move_of_code(&self, code: u32) -> Option<Move> {
        let code = code as usize;
        let from = Square::from_index(code / SQUARES)?;
        let to = Square::from_index(code % SQUARES)?;
        if self.is_decided() || self.pawns_of(self.side_to_move()) & from.bit() == 0 {
            return None;
        }
        let tactical = self.tactical_squares() & to.bit() != 0;
        if !tactical && self.variant().rules() == Rules::Playable {
            return None;
        }
        (self.targets_of(from) & to.bit() != 0).then_some(Move::new(from, to))
    }
}
