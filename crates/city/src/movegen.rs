//! The move rules: slides off the wall, climbs onto it, moves along it and
//! climbs down, each possibly capturing; under the playable rules the duty
//! to capture and the step into the bazaar; and why a given move is illegal.

use board_core::{Cell, Game};

use crate::board::{
    ALL, GATES, HULLS, OFF_RING, RING, RING_INDEX, RING_LEN, STEPS, slides, squares_of,
};
use crate::{Move, Position, Rules, Square, Variant, Zone};

/// Where the pawns of the side to move can go by the move rules, the
/// capture duty aside: each pawn's square and target squares.
pub(crate) struct Reach {
    pawns: [(Square, u128); MAX_PAWNS],
    len: usize,
    /// Every target square of every pawn.
    pub(crate) all: u128,
}

/// The most pawns a side has.
const MAX_PAWNS: usize = Variant::TwentyFour.pawns_per_side();

impl Reach {
    /// Each pawn's square and its target squares.
    pub(crate) fn pawns(&self) -> &[(Square, u128)] {
        &self.pawns[..self.len]
    }

    /// Appends the moves that end on a square of `wanted`.
    fn push(&self, moves: &mut Vec<Move>, wanted: u128) {
        for &(from, targets) in self.pawns() {
            for to in squares_of(targets & wanted) {
                moves.push(Move::new(from, to));
            }
        }
    }
}

/// The wall squares in ring order twice over, as bits: the other squares
/// from ring index `i` onwards are `RING_TWICE[i + 1..i + RING_LEN]`, and
/// backwards the same slice reversed.
const RING_TWICE: [u128; 2 * RING_LEN] = {
    let mut out = [0; 2 * RING_LEN];
    let mut k = 0;
    while k < 2 * RING_LEN {
        out[k] = RING[k % RING_LEN].bit();
        k += 1;
    }
    out
};

/// The wall squares met along `ring` up to the first pawn, which counts when
/// it is not an own pawn.
#[inline]
fn ring_walk<'a>(ring: impl Iterator<Item = &'a u128>, own: u128, occupied: u128) -> u128 {
    let mut targets = 0;
    for &bit in ring {
        if own & bit != 0 {
            break;
        }
        targets |= bit;
        if occupied & bit != 0 {
            break;
        }
    }
    targets
}

impl Position {
    /// Appends the legal moves (nothing once the game is decided). Under the
    /// playable rules, when a capture or a move onto the bazaar exists, only
    /// those.
    pub(crate) fn generate(&self, moves: &mut Vec<Move>) {
        if self.is_decided() {
            return;
        }
        if self.variant().rules() == Rules::Playable {
            let before = moves.len();
            self.push_moves(moves, self.tactical_squares());
            if moves.len() > before {
                return;
            }
        }
        self.push_moves(moves, ALL);
    }

    /// Appends the legal captures and moves onto the bazaar (the tactical
    /// moves; under the playable rules they are all the legal moves when
    /// there is one).
    pub(crate) fn generate_tactical_moves(&self, moves: &mut Vec<Move>) {
        if !self.is_decided() {
            self.push_moves(moves, self.tactical_squares());
        }
    }

    /// Appends the moves by the move rules, the capture duty aside, that end
    /// on a square of `wanted`; pawns that cannot reach it are skipped.
    fn push_moves(&self, moves: &mut Vec<Move>, wanted: u128) {
        self.each_pawn(wanted, |from, targets| {
            for to in squares_of(targets & wanted) {
                moves.push(Move::new(from, to));
            }
        });
    }

    /// Where each pawn of the side to move can go, the capture duty aside.
    pub(crate) fn reach(&self) -> Reach {
        let mut reach = Reach { pawns: [(Square::BAZAAR, 0); MAX_PAWNS], len: 0, all: 0 };
        self.each_pawn(ALL, |from, targets| {
            if let Some(slot) = reach.pawns.get_mut(reach.len) {
                *slot = (from, targets);
                reach.len += 1;
                reach.all |= targets;
            }
        });
        reach
    }

    /// Calls `visit` with each pawn of the side to move that might reach a
    /// square of `wanted` and the squares it can reach by the move rules,
    /// the capture duty aside.
    #[inline]
    fn each_pawn(&self, wanted: u128, mut visit: impl FnMut(Square, u128)) {
        let own = self.pawns_of(self.side_to_move());
        let occupied = self.pawns.first | self.pawns.second;
        // Under the playable rules only a step from a gate enters the bazaar.
        let far_from_bazaar = match self.variant().rules() {
            Rules::Literal => ALL,
            Rules::Playable => ALL & !Square::BAZAAR.bit(),
        };
        for from in squares_of(own) {
            if HULLS[from.index()] & wanted == 0 {
                continue;
            }
            let allowed = if GATES & from.bit() == 0 { far_from_bazaar } else { ALL };
            visit(from, self.targets(from, own, occupied) & allowed);
        }
    }

    /// The squares the pawn of the side to move on `from` can reach by the
    /// move rules, the capture duty aside, as [`each_pawn`](Self::each_pawn)
    /// finds them.
    pub(crate) fn targets_of(&self, from: Square) -> u128 {
        let own = self.pawns_of(self.side_to_move());
        let occupied = self.pawns.first | self.pawns.second;
        let gate_only = self.variant().rules() == Rules::Playable && GATES & from.bit() == 0;
        let allowed = if gate_only { ALL & !Square::BAZAAR.bit() } else { ALL };
        self.targets(from, own, occupied) & allowed
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
            targets |= slides(i, occupied) & !own;
        } else {
            // Along the ring both ways; a square reached both ways is one move.
            let others = &RING_TWICE[ring_at as usize + 1..ring_at as usize + RING_LEN];
            targets |= ring_walk(others.iter(), own, occupied)
                | ring_walk(others.iter().rev(), own, occupied);
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
        if self.variant().rules() == Rules::Playable {
            if to == Square::BAZAAR && GATES & from.bit() == 0 {
                return "the bazaar e5 is entered only by one step, from d5, e4, f5 or e6"
                    .to_owned();
            }
            let mut moves = Vec::new();
            self.reach().push(&mut moves, ALL);
            if moves.contains(&mv) {
                let tactical = self.tactical_squares();
                let example = moves.iter().find(|m| m.to.bit() & tactical != 0);
                return match example {
                    Some(example) => format!(
                        "a capture or a move onto the bazaar is compulsory here (e.g. {example})"
                    ),
                    None => format!("{mv} is not a legal move here"),
                };
            }
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
