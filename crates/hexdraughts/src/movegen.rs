//! Move generation: quiet moves, and captures with compulsory continuation,
//! flying kings, Turkish-strike removal and promotion during a capture.

use crate::board::{
    ALL_FIELDS, Bits, Direction, bit, bits_of, first_on_ray, for_each_bit, next, ray,
};
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
    /// The mover's two forward directions: up-left and up-right, or
    /// down-left and down-right.
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
    fn capturing_men(&self, empty: Bits) -> Bits {
        // An enemy piece one step away with an empty field one step beyond.
        let jumping = |dir: Direction| {
            let back = dir.opposite();
            back.step(self.opp & back.step(empty))
        };
        (jumping(Direction::UpLeft)
            | jumping(Direction::UpRight)
            | jumping(Direction::DownLeft)
            | jumping(Direction::DownRight))
            & self.men
    }

    /// Towards each direction, the enemy pieces with an empty field beyond.
    fn victims(&self, empty: Bits) -> [Bits; 4] {
        Direction::ALL.map(|dir| self.opp & dir.opposite().step(empty))
    }

    /// The kings that can take a first enemy piece: for each king and
    /// direction, the first piece on its line (one lookup and one bit scan)
    /// is a victim if it is an enemy piece with an empty field beyond. So
    /// the search of king captures runs only for these (in most positions
    /// with kings none can capture).
    fn capturing_kings(&self, empty: Bits) -> Bits {
        if self.kings == 0 {
            return 0;
        }
        let occupied = ALL_FIELDS & !empty;
        let victims = self.victims(empty);
        let mut found = 0;
        for king in bits_of(self.kings) {
            for dir in Direction::ALL {
                // No victim on the line at all: no bit scan.
                let victims = victims[dir as usize];
                if ray(king, dir) & victims != 0
                    && first_on_ray(king, dir, occupied).is_some_and(|p| bit(p) & victims != 0)
                {
                    found |= bit(king);
                    break;
                }
            }
        }
        found
    }

    /// The board as seen by a capturing piece that started on `start`.
    fn capture_board(&self, start: u8) -> CaptureBoard {
        CaptureBoard { opp: self.opp, empty: self.empty() | bit(start), promotion: self.promotion }
    }

    /// Appends every legal move: the captures if there are any, else the
    /// quiet moves.
    #[inline]
    pub fn generate(&self, moves: &mut Vec<Move>) {
        let empty = self.empty();
        let men = self.capturing_men(empty);
        if men == 0 {
            // The quiet moves, with the king pre-test on the way: a king's
            // slide along a line ends at the first piece on it, which it can
            // take if that is an enemy piece with an empty field beyond.
            let before = moves.len();
            let kings = self.generate_quiet_unless_kings_capture(moves, empty);
            if kings == 0 {
                return;
            }
            moves.truncate(before);
            self.generate_captures_of(0, kings, moves);
            return;
        }
        self.generate_captures_of(men, self.capturing_kings(empty), moves);
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
            || self.capturing_men(empty) != 0
            || self.capturing_kings(empty) != 0
    }

    fn generate_captures(&self, moves: &mut Vec<Move>) {
        let empty = self.empty();
        self.generate_captures_of(self.capturing_men(empty), self.capturing_kings(empty), moves);
    }

    /// The captures of the men `men` and the kings `kings`, men first.
    fn generate_captures_of(&self, men: Bits, kings: Bits, moves: &mut Vec<Move>) {
        for (pieces, king) in [(men, false), (kings, true)] {
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

    /// Appends the quiet moves when no man can capture, unless a king can
    /// capture: then it returns the kings that can (and what it appended is
    /// to be dropped), as [`capturing_kings`](Sides::capturing_kings) would.
    fn generate_quiet_unless_kings_capture(&self, moves: &mut Vec<Move>, empty: Bits) -> Bits {
        let mut steps = |dir: Direction| {
            let delta = dir.delta();
            for_each_bit(dir.step(self.men) & empty, |to| {
                moves.push(Move::quiet((i32::from(to) - delta) as u8, to));
            });
        };
        // The two forward directions as constants (one shift each).
        if self.forward[0] == Direction::UpLeft {
            steps(Direction::UpLeft);
            steps(Direction::UpRight);
        } else {
            steps(Direction::DownLeft);
            steps(Direction::DownRight);
        }
        if self.kings == 0 {
            return 0;
        }
        let victims = self.victims(empty);
        let mut capturing = 0;
        // One call site for the kings (a side has few), so that the slides
        // are inlined here rather than called once a king.
        for king in bits_of(self.kings) {
            let from = bit(king);
            // The slides towards `dir`, then whether the first piece on the
            // way can be taken.
            let mut slides = |moves: &mut Vec<Move>, dir: Direction| {
                let mut to = i32::from(king);
                let mut at = from;
                loop {
                    let next = dir.step(at);
                    if next & empty == 0 {
                        if next & victims[dir as usize] != 0 {
                            capturing |= from;
                        }
                        break;
                    }
                    to += dir.delta();
                    moves.push(Move::quiet(king, to as u8));
                    at = next;
                }
            };
            slides(moves, Direction::UpLeft);
            slides(moves, Direction::UpRight);
            slides(moves, Direction::DownLeft);
            slides(moves, Direction::DownRight);
        }
        capturing
    }
}

/// The board during a capture: the capturing piece's start field counts as
/// empty, and taken pieces stay on it (they block) until the move ends.
#[derive(Clone, Copy, Debug)]
struct CaptureBoard {
    opp: Bits,
    /// The empty fields (the start field among them, taken pieces not).
    empty: Bits,
    promotion: Bits,
}

/// A depth-first search of the capture sequences of one piece.
struct CaptureSearch<'a> {
    board: CaptureBoard,
    /// Start and landing fields so far, then zeros.
    path: [u8; MAX_PATH],
    len: usize,
    moves: &'a mut Vec<Move>,
}

impl CaptureSearch<'_> {
    /// Continues the capture from `at`; records the move when it cannot.
    fn extend(&mut self, at: u8, king: bool, taken: Bits) {
        let continued = if king { self.extend_king(at, taken) } else { self.extend_man(at, taken) };
        if !continued && self.len > 1 {
            self.moves.push(Move::capture(self.path, self.len));
        }
    }

    /// The captures of a king on `at`, towards each direction in turn: the
    /// first piece on its line, if an enemy piece not yet taken with an
    /// empty field beyond, is the victim; the king may land on any empty
    /// field of the run beyond it, but must pick one from which it can go on
    /// capturing, if any. Whether it captured.
    #[inline(never)]
    fn extend_king(&mut self, at: u8, taken: Bits) -> bool {
        use Direction::{DownLeft, DownRight, UpLeft, UpRight};
        // Each direction with the two across it (back towards the victim the
        // first piece is the victim, taken).
        self.king_along(at, taken, UpLeft, [UpRight, DownLeft])
            | self.king_along(at, taken, UpRight, [UpLeft, DownRight])
            | self.king_along(at, taken, DownLeft, [UpLeft, DownRight])
            | self.king_along(at, taken, DownRight, [UpRight, DownLeft])
    }

    /// [`extend_king`](CaptureSearch::extend_king) towards `dir`; `across`
    /// are the directions across it. From each landing field the king can go
    /// on capturing across, or along `dir` (the same piece for every landing
    /// field).
    #[inline(always)]
    fn king_along(&mut self, at: u8, taken: Bits, dir: Direction, across: [Direction; 2]) -> bool {
        let empty = self.board.empty;
        let occupied = ALL_FIELDS & !empty;
        let live = self.board.opp & !taken;
        let Some(index) = first_on_ray(at, dir, occupied) else {
            return false;
        };
        let victim = bit(index);
        let mut reach = dir.step(victim & live) & empty;
        if reach == 0 {
            return false;
        }
        let live = live & !victim;
        let takes = |at: u8, side: Direction| {
            first_on_ray(at, side, occupied)
                .is_some_and(|p| live & bit(p) != 0 && side.step(bit(p)) & empty != 0)
        };
        let mut landings = [0; 10];
        let mut count = 0;
        let mut continuing = 0u16;
        let mut landing = i32::from(index);
        while reach != 0 {
            landing += dir.delta();
            let field = landing as u8;
            if takes(field, across[0]) || takes(field, across[1]) {
                continuing |= 1 << count;
            }
            landings[count] = field;
            count += 1;
            reach = dir.step(reach) & empty;
        }
        // Along `dir`: the piece after the run.
        let last = dir.step(bit(landings[count - 1]));
        if last & live != 0 && dir.step(last) & empty != 0 {
            continuing = u16::MAX;
        }
        if continuing == 0 {
            // No landing field leads on (back towards the victim the first
            // piece is the victim, taken): each ends the move.
            for &landing in &landings[..count] {
                self.path[self.len] = landing;
                self.moves.push(Move::capture(self.path, self.len + 1));
            }
            self.path[self.len] = 0;
            return true;
        }
        let taken = taken | victim;
        for (k, &landing) in landings[..count].iter().enumerate() {
            if continuing & (1 << k) != 0 {
                self.descend(landing, true, taken);
            }
        }
        true
    }

    /// The captures of a man on `at`: each jump found by two shifts of its
    /// bit, the landing field by arithmetic. Whether it captured.
    fn extend_man(&mut self, at: u8, taken: Bits) -> bool {
        let from = bit(at);
        let live = self.board.opp & !taken;
        let empty = self.board.empty;
        let mut continued = false;
        let mut jump = |search: &mut Self, dir: Direction| {
            let victim = dir.step(from) & live;
            let landing = dir.step(victim) & empty;
            if landing != 0 {
                continued = true;
                let promoted = search.board.promotion & landing != 0;
                let to = (i32::from(at) + 2 * dir.delta()) as u8;
                search.descend(to, promoted, taken | victim);
            }
        };
        jump(self, Direction::UpLeft);
        jump(self, Direction::UpRight);
        jump(self, Direction::DownLeft);
        jump(self, Direction::DownRight);
        continued
    }

    fn descend(&mut self, landing: u8, king: bool, taken: Bits) {
        // At most one landing per enemy piece, and a side has at most 21.
        self.path[self.len] = landing;
        self.len += 1;
        self.extend(landing, king, taken);
        self.len -= 1;
        self.path[self.len] = 0;
    }
}
