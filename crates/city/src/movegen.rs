//! The move rules: slides off the wall, climbs onto it, moves along it and
//! climbs down, each possibly capturing; and why a given move is illegal.

use board_core::{Cell, Game};

use crate::board::{OFF_RING, RAYS, RING, RING_INDEX, RING_LEN, STEPS, squares_of};
use crate::{Move, Position, Square, Zone};

impl Position {
    /// Appends the legal moves (nothing once the game is decided).
    pub(crate) fn generate(&self, moves: &mut Vec<Move>) {
        if self.is_decided() {
            return;
        }
        let own = self.pawns_of(self.side_to_move());
        let occupied = self.pawns.first | self.pawns.second;
        for from in squares_of(own) {
            for to in squares_of(self.targets(from, own, occupied)) {
                moves.push(Move::new(from, to));
            }
        }
    }

    /// The squares the pawn on `from` can reach, as a bit set.
    #[inline]
    fn targets(&self, from: Square, own: u128, occupied: u128) -> u128 {
        let i = from.index();
        // Climbing onto the wall or down from it: one step onto any adjacent
        // square of the other kind that holds no own pawn.
        let mut targets = STEPS[i] & !own;
        let ring_at = RING_INDEX[i];
        if ring_at == OFF_RING {
            for ray in &RAYS[i] {
                for &to in &ray.squares[..ray.len as usize] {
                    let bit = 1u128 << to;
                    if own & bit != 0 {
                        break;
                    }
                    targets |= bit;
                    if occupied & bit != 0 {
                        break;
                    }
                }
            }
        } else {
            // Along the ring both ways; a square reached both ways is one move.
            for step in [1, RING_LEN - 1] {
                let mut at = ring_at as usize;
                loop {
                    at = (at + step) % RING_LEN;
                    let bit = RING[at].bit();
                    if own & bit != 0 {
                        break;
                    }
                    targets |= bit;
                    if occupied & bit != 0 {
                        break;
                    }
                }
            }
        }
        targets
    }

    /// Why `mv` is not legal here, in a few words (`mv` must not be legal).
    pub(crate) fn why_illegal(&self, mv: Move) -> String {
        if self.is_decided() {
            return "the game is over".to_owned();
        }
        let side = self.side_to_move();
        let colour = Self::PLAYER_NAMES[side];
        let (from, to) = (mv.from, mv.to);
        match self.piece_at(from) {
            None => return format!("there is no pawn on {from}"),
            Some(owner) if owner != side => {
                return format!("the pawn on {from} is {}'s, and {colour} is to move", {
                    Self::PLAYER_NAMES[owner]
                });
            }
            Some(_) => {}
        }
        if self.piece_at(to) == Some(side) {
            return format!("{to} holds a {colour} pawn already");
        }
        let adjacent = from.file().abs_diff(to.file()) + from.rank().abs_diff(to.rank()) == 1;
        match (from.zone(), to.zone()) {
            (Zone::Wall, Zone::Wall) => {
                format!("the way along the wall from {from} to {to} is blocked")
            }
            (Zone::Wall, _) if !adjacent => {
                format!("a pawn climbs down from the wall only to an adjacent square, not {to}")
            }
            (_, Zone::Wall) if !adjacent => {
                format!("a pawn climbs onto the wall only from an adjacent square, not from {from}")
            }
            (Zone::Wall, _) | (_, Zone::Wall) => format!("{mv} is not a legal move here"),
            (a, b) if a != b && !(a == Zone::Town && b == Zone::Bazaar) => {
                format!("a slide cannot cross the wall ({from} is {a}, {to} is {b})")
            }
            _ => Self::why_slide_fails(from, to, self.pawns.first | self.pawns.second),
        }
    }

    /// Why a slide between two squares off the wall (same zone) fails.
    fn why_slide_fails(from: Square, to: Square, occupied: u128) -> String {
        if from.file() != to.file() && from.rank() != to.rank() {
            return format!("{from} and {to} are not on one rank or file");
        }
        let step = |a: u8, b: u8| i16::from(b > a) - i16::from(b < a);
        let (df, dr) = (step(from.file(), to.file()), step(from.rank(), to.rank()));
        let mut at = from;
        loop {
            let next =
                Square::new((i16::from(at.file()) + df) as u8, (i16::from(at.rank()) + dr) as u8);
            match next {
                Some(sq) if sq == to => return format!("{from}-{to} is not a legal move here"),
                Some(sq) if sq.zone() == Zone::Wall => {
                    return format!("a slide cannot cross the wall at {sq}");
                }
                Some(sq) if sq.zone() == Zone::Bazaar => {
                    return "a slide cannot pass over the bazaar e5".to_owned();
                }
                Some(sq) if occupied & sq.bit() != 0 => {
                    return format!("the slide from {from} to {to} is blocked on {sq}");
                }
                Some(sq) => at = sq,
                None => return format!("{from}-{to} is not a legal move here"),
            }
        }
    }
}
