//! Move generation: quiet steps of man-topped columns, and captures found by a
//! depth-first search that changes the jumped columns as it goes.

use crate::board::{DARK, Dir, NO_DIR, opposite, shift, squares};
use crate::{Color, Column, Move, Position, Square};

/// Where generated moves go: a move list, or a counter for perft's last ply.
pub(crate) trait Sink {
    fn push(&mut self, mv: Move);
}

impl Sink for Vec<Move> {
    #[inline]
    fn push(&mut self, mv: Move) {
        Vec::push(self, mv);
    }
}

/// Counts moves instead of storing them.
pub(crate) struct Counter(pub(crate) u64);

impl Sink for Counter {
    #[inline]
    fn push(&mut self, _mv: Move) {
        self.0 += 1;
    }
}

/// Whether `dir` goes straight back along the jump just made in `last`
/// (the 180-degree turn the rules forbid). `NO_DIR` forbids nothing.
#[inline(always)]
const fn reverses(dir: Dir, last: Dir) -> bool {
    dir + last == 3
}

/// The board as the side to move sees it during a capture: columns it owns
/// (the moving column excluded) and columns topped by the enemy.
#[derive(Clone, Copy)]
struct Tops {
    own: u64,
    enemy: u64,
}

impl Tops {
    #[inline(always)]
    const fn empty(self) -> u64 {
        DARK & !(self.own | self.enemy)
    }

    /// The enemy column a jump from `at` in `dir` would take, with the
    /// first square beyond it, if that square is empty; else 0.
    #[inline(always)]
    const fn jump(self, at: u64, king: bool, dir: Dir) -> (u64, u64) {
        let empty = self.empty();
        let mut over = shift(at, dir);
        if king {
            while over & empty != 0 {
                over = shift(over, dir);
            }
        }
        if over & self.enemy == 0 {
            return (0, 0);
        }
        let beyond = shift(over, dir);
        if beyond & empty == 0 { (0, 0) } else { (over, beyond) }
    }

    /// Whether a column standing on `at` could jump, after a jump in `last`.
    #[inline]
    const fn can_jump(self, at: u64, king: bool, last: Dir) -> bool {
        let mut dir = 0;
        while dir < 4 {
            if !reverses(dir, last) && self.jump(at, king, dir).0 != 0 {
                return true;
            }
            dir += 1;
        }
        false
    }

    /// Men (of `men`) that have a first jump: an enemy column next to them
    /// with an empty square beyond.
    #[inline]
    const fn men_that_jump(self, men: u64) -> u64 {
        let empty = self.empty();
        let mut found = 0;
        let mut dir = 0;
        while dir < 4 {
            let back = opposite(dir);
            found |= shift(self.enemy & shift(empty, back), back);
            dir += 1;
        }
        men & found
    }
}

/// The depth-first capture search of one position.
struct CaptureSearch<'a, S> {
    cols: &'a [Column; 32],
    /// How many top pieces the capture so far has taken from each column.
    taken: [u8; 32],
    tops: Tops,
    color: Color,
    promotion_row: u64,
    out: &'a mut S,
}

impl<S: Sink> CaptureSearch<'_, S> {
    /// Takes the top piece of the column on `over`; returns the tops to restore.
    #[inline]
    fn take_top(&mut self, over: u64) -> Tops {
        let slot = (over.trailing_zeros() >> 1) as usize;
        let saved = self.tops;
        self.taken[slot] += 1;
        let left = self.cols[slot].height() - usize::from(self.taken[slot]);
        self.tops.enemy &= !over;
        if left > 0 {
            if self.cols[slot].code_at(left - 1) & 1 == self.color as u64 {
                self.tops.own |= over;
            } else {
                self.tops.enemy |= over;
            }
        }
        saved
    }

    #[inline]
    fn restore(&mut self, over: u64, tops: Tops) {
        self.taken[(over.trailing_zeros() >> 1) as usize] -= 1;
        self.tops = tops;
    }

    /// Extends the capture `path` whose column stands on `at` (a king or a
    /// man) after a jump in `last`; emits every complete capture. Returns
    /// whether any jump was possible.
    fn extend(&mut self, at: u64, king: bool, last: Dir, path: Move) -> bool {
        let mut found = false;
        for dir in 0..4 {
            if reverses(dir, last) {
                continue;
            }
            let (over, mut landing) = self.tops.jump(at, king, dir);
            if over == 0 {
                continue;
            }
            found = true;
            let saved = self.take_top(over);
            if king {
                // Every empty square beyond; those where the capture goes on, if any.
                let empty = self.tops.empty();
                let mut landings = [0u64; 7];
                let mut count = 0;
                let mut continuing = 0u32;
                while landing & empty != 0 {
                    if self.tops.can_jump(landing, true, dir) {
                        continuing |= 1 << count;
                    }
                    landings[count] = landing;
                    count += 1;
                    landing = shift(landing, dir);
                }
                for (i, &to) in landings.iter().enumerate().take(count) {
                    let next = path.then(Square::from_bit(to.trailing_zeros()));
                    if continuing == 0 {
                        self.out.push(next);
                    } else if continuing & (1 << i) != 0 {
                        self.extend(to, true, dir, next);
                    }
                }
            } else {
                let next = path.then(Square::from_bit(landing.trailing_zeros()));
                self.extend(landing, landing & self.promotion_row != 0, dir, next);
            }
            self.restore(over, saved);
        }
        if !found && !path.is_empty() {
            self.out.push(path);
        }
        found
    }
}

impl Position {
    /// The tops of the side to move and of its opponent.
    #[inline]
    pub(crate) const fn tops(&self) -> (u64, u64) {
        match self.side {
            Color::White => (self.white, self.black),
            Color::Black => (self.black, self.white),
        }
    }

    /// The two forward directions of the side to move.
    const fn forward(&self) -> [Dir; 2] {
        match self.side {
            Color::White => [0, 1],
            Color::Black => [2, 3],
        }
    }

    /// Columns of the side to move that might capture: men with a first jump
    /// and every king.
    #[inline]
    fn capture_candidates(&self) -> u64 {
        let (own, enemy) = self.tops();
        let tops = Tops { own, enemy };
        tops.men_that_jump(own & !self.kings) | (own & self.kings)
    }

    /// Every legal move into `out`: the captures if there are any (capture is
    /// compulsory), else the quiet steps of man-topped columns.
    #[inline]
    pub(crate) fn generate_into<S: Sink>(&self, out: &mut S) {
        self.generate_onto(out, DARK);
    }

    /// The tactical moves into `out`: the captures if there are any, else
    /// the steps of men onto their promotion row.
    pub(crate) fn generate_tactical_into<S: Sink>(&self, out: &mut S) {
        self.generate_onto(out, self.side.promotion_row());
    }

    /// The captures if there are any, else the quiet steps onto `targets`.
    #[inline]
    fn generate_onto<S: Sink>(&self, out: &mut S, targets: u64) {
        let candidates = self.capture_candidates();
        if candidates != 0 && self.generate_captures(candidates, out) {
            return;
        }
        let (own, enemy) = self.tops();
        let men = own & !self.kings;
        let empty = DARK & !(own | enemy) & targets;
        for dir in self.forward() {
            for to in squares(shift(men, dir) & empty) {
                let from = Square::from_bit(shift(to.bit(), opposite(dir)).trailing_zeros());
                out.push(Move::quiet(from, to));
            }
        }
    }

    /// The captures of the columns on `candidates`; returns whether there were any.
    fn generate_captures<S: Sink>(&self, candidates: u64, out: &mut S) -> bool {
        let (own, enemy) = self.tops();
        let promotion_row = self.side.promotion_row();
        let mut search = CaptureSearch {
            cols: &self.cols,
            taken: [0; 32],
            tops: Tops { own, enemy },
            color: self.side,
            promotion_row,
            out,
        };
        let mut any = false;
        for from in squares(candidates) {
            // The start square counts as empty during the capture.
            search.tops.own = own & !from.bit();
            let king = self.kings & from.bit() != 0;
            any |= search.extend(from.bit(), king, NO_DIR, Move::capture_start(from));
        }
        any
    }

    /// Whether the side to move has any legal move.
    pub(crate) fn has_moves(&self) -> bool {
        let (own, enemy) = self.tops();
        let men = own & !self.kings;
        let empty = DARK & !(own | enemy);
        if self.forward().iter().any(|&dir| shift(men, dir) & empty != 0) {
            return true;
        }
        let tops = Tops { own, enemy };
        tops.men_that_jump(men) != 0
            || squares(own & self.kings).any(|sq| tops.can_jump(sq.bit(), true, NO_DIR))
    }

    /// The number of legal moves, without storing them.
    pub(crate) fn count_moves(&self) -> u64 {
        let mut counter = Counter(0);
        self.generate_into(&mut counter);
        counter.0
    }
}
