//! Move generation: quiet moves, and captures with compulsory continuation,
//! flying kings, Turkish-strike removal and promotion during a capture.

use crate::board::{ALL_FIELDS, Bits, Direction, NONE, bit, bits_of, first_on_ray, next};
use crate::moves::{MAX_PATH, Move};

/// The pieces as seen by the side to move, and its direction of play.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sides {
    /// The mover's men.
    pub men: Bits,
    /// The mover's kings.
    pub kings: Bits,
    /// The opponent's pieces.
    pub opp: Bits,
    /// The mover's two forward directions.
    pub forward: [Direction; 2],
    /// The row where the mover's men become kings.
    pub promotion: Bits,
}

impl Sides {
    fn occupied(&self) -> Bits {
        self.men | self.kings | self.opp
    }

    fn empty(&self) -> Bits {
        ALL_FIELDS & !self.occupied()
    }

    /// The men that can jump an adjacent enemy piece onto an empty field.
    fn capturing_men(&self) -> Bits {
        let empty = self.empty();
        let mut men = 0;
        for dir in Direction::ALL {
            let back = dir.opposite();
            men |= back.shift(self.opp & back.shift(empty));
        }
        men & self.men
    }

    /// The kings that can take a first enemy piece: a bitboard test, so that
    /// the search of king captures runs only for them (in most positions with
    /// kings none can capture).
    fn capturing_kings(&self) -> Bits {
        if self.kings == 0 {
            return 0;
        }
        let empty = self.empty();
        let occupied = ALL_FIELDS & !empty;
        let mut kings = 0;
        for dir in Direction::ALL {
            // Enemy pieces with an empty field beyond them this way: a king
            // can take one when it is the first piece on the king's line.
            let back = dir.opposite();
            let victims = self.opp & back.shift(empty);
            if victims == 0 {
                continue;
            }
            // Only a king whose neighbour that way is empty or such a victim.
            for king in bits_of(self.kings & !kings & back.shift(empty | victims)) {
                if first_on_ray(king, dir, occupied).is_some_and(|first| victims & bit(first) != 0)
                {
                    kings |= bit(king);
                }
            }
        }
        kings
    }

    /// The board as seen by a capturing piece that started on `start`.
    fn capture_board(&self, start: u8) -> CaptureBoard {
        CaptureBoard {
            opp: self.opp,
            occupied: self.occupied() & !bit(start),
            promotion: self.promotion,
        }
    }

    /// Appends every legal move: the captures if there are any, else the
    /// quiet moves.
    pub fn generate(&self, moves: &mut Vec<Move>) {
        let before = moves.len();
        self.generate_captures(moves);
        if moves.len() == before {
            self.generate_quiet(moves);
        }
    }

    /// The number of legal moves: what [`generate`](Sides::generate) would
    /// append, with the quiet moves counted rather than listed. `scratch`
    /// receives the captures.
    pub fn count(&self, scratch: &mut Vec<Move>) -> u64 {
        scratch.clear();
        self.generate_captures(scratch);
        if !scratch.is_empty() {
            return scratch.len() as u64;
        }
        let empty = self.empty();
        let mut count = 0;
        for dir in self.forward {
            count += (dir.shift(self.men) & empty).count_ones();
        }
        // Rays of different kings along one direction never meet: each stops
        // at the first occupied field.
        for dir in Direction::ALL {
            let mut reach = dir.shift(self.kings) & empty;
            while reach != 0 {
                count += reach.count_ones();
                reach = dir.shift(reach) & empty;
            }
        }
        u64::from(count)
    }

    /// Whether the mover has any legal move.
    pub fn has_move(&self) -> bool {
        let empty = self.empty();
        self.forward.iter().any(|dir| dir.shift(self.men) & empty != 0)
            || Direction::ALL.iter().any(|dir| dir.shift(self.kings) & empty != 0)
            || self.capturing_men() != 0
            || self.capturing_kings() != 0
    }

    fn generate_captures(&self, moves: &mut Vec<Move>) {
        for (pieces, king) in [(self.capturing_men(), false), (self.capturing_kings(), true)] {
            for start in bits_of(pieces) {
                let mut path = [0; MAX_PATH];
                path[0] = start;
                let mut search =
                    CaptureSearch { board: self.capture_board(start), path, len: 1, moves };
                search.extend(start, king, 0);
            }
        }
    }

    /// Appends the tactical moves in generation order: the captures if there
    /// are any, else the quiet moves of men onto their promotion row.
    pub fn generate_tactical(&self, moves: &mut Vec<Move>) {
        let before = moves.len();
        self.generate_captures(moves);
        if moves.len() == before {
            let empty = self.empty();
            for dir in self.forward {
                let back = dir.opposite();
                for to in bits_of(dir.shift(self.men) & empty & self.promotion) {
                    moves.push(Move::quiet(next(to, back), to));
                }
            }
        }
    }

    fn generate_quiet(&self, moves: &mut Vec<Move>) {
        let empty = self.empty();
        for dir in self.forward {
            let back = dir.opposite();
            for to in bits_of(dir.shift(self.men) & empty) {
                moves.push(Move::quiet(next(to, back), to));
            }
        }
        for king in bits_of(self.kings) {
            for dir in Direction::ALL {
                let mut to = next(king, dir);
                while to != NONE && empty & bit(to) != 0 {
                    moves.push(Move::quiet(king, to));
                    to = next(to, dir);
                }
            }
        }
    }
}

/// The board during a capture: the capturing piece's start field counts as
/// empty, and taken pieces stay on it (they block) until the move ends.
#[derive(Clone, Copy, Debug)]
struct CaptureBoard {
    opp: Bits,
    occupied: Bits,
    promotion: Bits,
}

impl CaptureBoard {
    fn is_empty(&self, field: u8) -> bool {
        field != NONE && self.occupied & bit(field) == 0
    }

    /// The enemy piece a man on `at` can jump towards `dir` and its landing
    /// field.
    fn man_jump(&self, at: u8, dir: Direction, taken: Bits) -> Option<(u8, u8)> {
        let victim = next(at, dir);
        if victim == NONE || (self.opp & !taken) & bit(victim) == 0 {
            return None;
        }
        let landing = next(victim, dir);
        self.is_empty(landing).then_some((victim, landing))
    }

    /// The enemy piece a king on `at` can jump towards `dir` and the first
    /// landing field beyond it.
    fn king_jump(&self, at: u8, dir: Direction, taken: Bits) -> Option<(u8, u8)> {
        let victim = first_on_ray(at, dir, self.occupied)?;
        if (self.opp & !taken) & bit(victim) == 0 {
            return None;
        }
        let landing = next(victim, dir);
        self.is_empty(landing).then_some((victim, landing))
    }

    fn jump(&self, at: u8, king: bool, dir: Direction, taken: Bits) -> Option<(u8, u8)> {
        if king { self.king_jump(at, dir, taken) } else { self.man_jump(at, dir, taken) }
    }

    /// Whether a piece on `at` can capture (another piece than those `taken`).
    fn can_capture(&self, at: u8, king: bool, taken: Bits) -> bool {
        Direction::ALL.iter().any(|&dir| self.jump(at, king, dir, taken).is_some())
    }
}

/// A depth-first search of the capture sequences of one piece.
struct CaptureSearch<'a> {
    board: CaptureBoard,
    /// Start and landing fields so far.
    path: [u8; MAX_PATH],
    len: usize,
    moves: &'a mut Vec<Move>,
}

impl CaptureSearch<'_> {
    /// Continues the capture from `at`; records the move when it cannot.
    fn extend(&mut self, at: u8, king: bool, taken: Bits) {
        let mut continued = false;
        for dir in Direction::ALL {
            let Some((victim, first)) = self.board.jump(at, king, dir, taken) else {
                continue;
            };
            continued = true;
            let taken = taken | bit(victim);
            if !king {
                let promoted = self.board.promotion & bit(first) != 0;
                self.descend(first, promoted, taken);
                continue;
            }
            // A flying king may land on any empty field beyond the victim,
            // but must pick one from which it can go on capturing, if any.
            let mut landings = [NONE; 10];
            let mut count = 0;
            let mut continuing = 0u16;
            let mut landing = first;
            while self.board.is_empty(landing) {
                if self.board.can_capture(landing, true, taken) {
                    continuing |= 1 << count;
                }
                landings[count] = landing;
                count += 1;
                landing = next(landing, dir);
            }
            for (k, &landing) in landings[..count].iter().enumerate() {
                if continuing == 0 || continuing & (1 << k) != 0 {
                    self.descend(landing, true, taken);
                }
            }
        }
        if !continued && self.len > 1 {
            self.moves.push(Move::capture(&self.path[..self.len]));
        }
    }

    fn descend(&mut self, landing: u8, king: bool, taken: Bits) {
        // At most one landing per enemy piece, and a side has at most 21.
        self.path[self.len] = landing;
        self.len += 1;
        self.extend(landing, king, taken);
        self.len -= 1;
    }
}
