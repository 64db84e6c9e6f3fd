//! Move generation: quiet moves, and captures with compulsory continuation,
//! flying kings, Turkish-strike removal and promotion during a capture.

use crate::board::{
    ALL_FIELDS, Bits, Direction, bit, bits_of, first_on_ray, next, ray, ray_len, row_bits,
};
use crate::moves::Move;

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

    /// Appends every legal move: the captures if there are any, else the
    /// quiet moves.
    // Always inlined into `Position::generate_moves` (left to itself the
    // compiler stopped inlining it once quiet moves were appended by
    // `extend`): random play 971 -> 957 instructions a ply.
    #[inline(always)]
    pub fn generate(&self, moves: &mut Vec<Move>) {
        let empty = self.empty();
        let men = self.capturing_men(empty);
        if men == 0 {
            // The quiet moves, with the king pre-test on the way: a king's
            // slide along a line ends at the first piece on it, which it can
            // take if that is an enemy piece with an empty field beyond.
            let before = moves.len();
            let kings = self.generate_quiet_unless_kings_capture::<true>(moves, empty);
            if kings == 0 {
                return;
            }
            moves.truncate(before);
            self.generate_captures_of(0, kings, moves);
            return;
        }
        self.generate_captures_of(men, self.capturing_kings(empty), moves);
    }

    /// Appends the quiet moves that are not tactical (no man steps onto its
    /// promotion row) in generation order, when there is no capture.
    pub fn generate_quiet(&self, moves: &mut Vec<Move>) {
        let empty = self.empty();
        if self.capturing_men(empty) != 0 {
            return;
        }
        let before = moves.len();
        if self.generate_quiet_unless_kings_capture::<false>(moves, empty) != 0 {
            moves.truncate(before);
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
        self.has_step(empty, ALL_FIELDS)
            || self.capturing_men(empty) != 0
            || self.capturing_kings(empty) != 0
    }

    /// Whether a man can step onto an empty field of `targets`, or a king
    /// onto any empty field.
    fn has_step(&self, empty: Bits, targets: Bits) -> bool {
        self.forward.iter().any(|dir| dir.shift(self.men) & empty & targets != 0)
            || Direction::ALL.iter().any(|dir| dir.shift(self.kings) & empty != 0)
    }

    /// Whether the mover can capture.
    pub fn can_capture(&self) -> bool {
        let empty = self.empty();
        self.capturing_men(empty) != 0 || self.capturing_kings(empty) != 0
    }

    fn generate_captures(&self, moves: &mut Vec<Move>) {
        let empty = self.empty();
        self.generate_captures_of(self.capturing_men(empty), self.capturing_kings(empty), moves);
    }

    /// The captures of the men `men` and the kings `kings`, men first.
    fn generate_captures_of(&self, men: Bits, kings: Bits, moves: &mut Vec<Move>) {
        let empty = self.empty();
        let mut search = CaptureSearch {
            board: CaptureBoard { opp: self.opp, empty, promotion: self.promotion },
            from: 0,
            man: true,
            steps: 0,
            count: 0,
            moves,
        };
        // One search for every piece: only the start changes (a search
        // leaves its steps and count as it found them).
        for (pieces, king) in [(men, false), (kings, true)] {
            for start in bits_of(pieces) {
                search.board.empty = empty | bit(start);
                search.from = start;
                search.man = !king;
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
            self.generate_promotions(moves);
        }
    }

    /// The quiet moves of men onto their promotion row.
    fn generate_promotions(&self, moves: &mut Vec<Move>) {
        let empty = self.empty();
        for dir in self.forward {
            let back = dir.opposite();
            for to in bits_of(dir.shift(self.men) & empty & self.promotion) {
                moves.push(Move::quiet(next(to, back), to, true));
            }
        }
    }

    /// Appends the tactical moves as [`generate_tactical`](Sides::generate_tactical)
    /// does and says whether they are all the legal moves (and at least one).
    pub fn generate_tactical_forced(&self, moves: &mut Vec<Move>) -> bool {
        let before = moves.len();
        self.generate_captures(moves);
        if moves.len() > before {
            return true;
        }
        self.generate_promotions(moves);
        moves.len() > before && !self.has_step(self.empty(), !self.promotion)
    }

    /// Appends the quiet moves when no man can capture (all of them, or
    /// with `PROMOTING` false those that are not a man's step onto its
    /// promotion row), unless a king can capture: then it returns the kings
    /// that can (and what it appended is to be dropped), as
    /// [`capturing_kings`](Sides::capturing_kings) would.
    ///
    /// Each direction's run of men's steps is appended by one `extend` of a
    /// counted iterator (one capacity check a run, the length kept in a
    /// register), each step read from a table; a king's slides along a
    /// line are counted from the first piece on it (one lookup and one bit
    /// scan) and a table of line lengths, and appended the same way. A line
    /// facing off the board, and a half or a line without a move, costs no
    /// `extend`. (Random play 899 -> 804 instructions a ply with these.)
    #[inline]
    fn generate_quiet_unless_kings_capture<const PROMOTING: bool>(
        &self,
        moves: &mut Vec<Move>,
        empty: Bits,
    ) -> Bits {
        let targets = if PROMOTING { empty } else { empty & !self.promotion };
        let steps = |moves: &mut Vec<Move>, dir: Direction| {
            extend_steps(moves, dir.step(self.men) & targets, dir);
        };
        // The two forward directions as constants (one shift each).
        if self.forward[0] == Direction::UpLeft {
            steps(moves, Direction::UpLeft);
            steps(moves, Direction::UpRight);
        } else {
            steps(moves, Direction::DownLeft);
            steps(moves, Direction::DownRight);
        }
        if self.kings == 0 {
            return 0;
        }
        let occupied = ALL_FIELDS & !empty;
        let mut capturing = 0;
        for king in bits_of(self.kings) {
            // The fields beyond the first enemy piece on each line.
            let mut beyond: Bits = 0;
            let mut slides = |moves: &mut Vec<Move>, dir: Direction| {
                // On the edge of the board facing out: nothing to do.
                let length = ray_len(king, dir);
                if length == 0 {
                    return;
                }
                // The slides: every field to the edge, or the fields before
                // the first piece (the line's length less that piece's
                // line beyond it, less the piece).
                let (count, blocker) = match first_on_ray(king, dir, occupied) {
                    None => (length, 0),
                    Some(index) => (length - ray_len(index, dir) - 1, bit(index)),
                };
                // An enemy piece first on the line with an empty field
                // beyond can be taken (tested once for the four lines).
                beyond |= dir.step(blocker & self.opp);
                // The slides differ by their end field alone: each adds the
                // step to the move's bits. No `extend` at all for none (its
                // set-up costs more than the test).
                let first = Move::quiet(king, (i32::from(king) + dir.delta()) as u8, false).low();
                let step = (dir.delta() << 7) as u32;
                if count > 0 {
                    moves.extend(
                        (0..count)
                            .map(|j| Move::from_low(first.wrapping_add(j.wrapping_mul(step)))),
                    );
                }
            };
            slides(moves, Direction::UpLeft);
            slides(moves, Direction::UpRight);
            slides(moves, Direction::DownLeft);
            slides(moves, Direction::DownRight);
            if beyond & empty != 0 {
                capturing |= bit(king);
            }
        }
        capturing
    }
}

/// The number of steps towards `dir` from `from` to `to` (on its line).
#[inline(always)]
fn distance(from: u8, to: u8, dir: Direction) -> u32 {
    ((i32::from(to) - i32::from(from)) / dir.delta()) as u32
}

/// Appends a man's step towards `dir` onto each field of `targets`, in
/// field order: one counted `extend` for each half of the board's bits,
/// each move read from a table.
#[inline(always)]
fn extend_steps(moves: &mut Vec<Move>, targets: Bits, dir: Direction) {
    let table = &STEPS[dir as usize];
    for (half, offset) in [(targets as u64, 0), ((targets >> 64) as u64, 64)] {
        // No `extend` for no steps (random play 809 -> 805 a ply).
        if half == 0 {
            continue;
        }
        let mut rest = half;
        moves.extend((0..half.count_ones()).map(|_| {
            let index = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            Move::from_low(table[(offset + index) & 127])
        }));
    }
}

/// For each direction and padded bit, the man's step onto that field from
/// the field one step back (with the promotion bit when the field is on
/// the promotion row of the side moving that way), as
/// [`Move::from_low`] takes it.
const STEPS: [[u32; 128]; 4] = {
    let mut table = [[0; 128]; 4];
    let mut d = 0;
    while d < 4 {
        let dir = Direction::ALL[d];
        // White moves up, to row A; Black down, to row K.
        let row = if dir.delta() < 0 { row_bits(0) } else { row_bits(10) };
        let mut to = 0;
        while to < 128 {
            let from = to as i32 - dir.delta();
            if ALL_FIELDS >> to & 1 != 0 && from >= 0 && from < 128 {
                let promotes = row >> to & 1 != 0;
                table[d][to] = Move::quiet(from as u8, to as u8, promotes).low();
            }
            to += 1;
        }
        d += 1;
    }
    table
};

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
    /// The padded bit of the start field.
    from: u8,
    /// Whether the piece started as a man (so that ending as a king is a
    /// promotion).
    man: bool,
    /// The capture steps so far ([`Move::capture_step`]).
    steps: u128,
    /// How many pieces are taken so far.
    count: usize,
    moves: &'a mut Vec<Move>,
}

impl CaptureSearch<'_> {
    /// Continues the capture from `at`; records the move when it cannot.
    fn extend(&mut self, at: u8, king: bool, taken: Bits) {
        let continued = if king { self.extend_king(at, taken) } else { self.extend_man(at, taken) };
        if !continued && self.count > 0 {
            let promotes = self.man && king;
            self.moves.push(Move::capture(self.from, at, self.count, promotes, self.steps));
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
        // Across each way, the pieces that could be taken (live, with an
        // empty field beyond): a landing whose line holds none of them
        // needs no bit scan.
        let victims = across.map(|side| live & side.opposite().step(empty));
        let takes = |at: u8, side: usize| {
            ray(at, across[side]) & victims[side] != 0
                && first_on_ray(at, across[side], occupied)
                    .is_some_and(|p| victims[side] & bit(p) != 0)
        };
        let mut landings = [0; 10];
        let mut count = 0;
        let mut continuing = 0u16;
        let mut landing = i32::from(index);
        while reach != 0 {
            landing += dir.delta();
            let field = landing as u8;
            if takes(field, 0) || takes(field, 1) {
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
        // The landing fields lie one after another from the one beyond the
        // victim.
        let beyond = distance(at, index, dir) + 1;
        if continuing == 0 {
            // No landing field leads on (back towards the victim the first
            // piece is the victim, taken): each ends the move (a king's
            // capture promotes when the piece started as a man).
            let taken_count = self.count + 1;
            for (k, &landing) in landings[..count].iter().enumerate() {
                let step = Move::capture_step(self.count, dir, beyond + k as u32);
                let steps = self.steps | step;
                self.moves.push(Move::capture(self.from, landing, taken_count, self.man, steps));
            }
            return true;
        }
        let taken = taken | victim;
        for (k, &landing) in landings[..count].iter().enumerate() {
            if continuing & (1 << k) != 0 {
                let step = Move::capture_step(self.count, dir, beyond + k as u32);
                self.descend(landing, true, taken, step);
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
                let step = Move::capture_step(search.count, dir, 2);
                search.descend(to, promoted, taken | victim, step);
            }
        };
        jump(self, Direction::UpLeft);
        jump(self, Direction::UpRight);
        jump(self, Direction::DownLeft);
        jump(self, Direction::DownRight);
        continued
    }

    /// Takes one more piece by `step`, landing on `landing`, and goes on.
    fn descend(&mut self, landing: u8, king: bool, taken: Bits, step: u128) {
        // At most one step per enemy piece, and a side has at most 21.
        let steps = self.steps;
        self.steps |= step;
        self.count += 1;
        self.extend(landing, king, taken);
        self.count -= 1;
        self.steps = steps;
    }
}
