//! Perfect play: the value of every position by retrograde analysis.
//!
//! Otrazhenie never has more than two checkers a side, so one table holds
//! every legal position. The rules treat both colours alike, so a position is
//! indexed by the checkers of the side to move and those of its opponent
//! (colour and side to move fold into that split), each set by its sorted
//! squares (a square, or a pair by the combinatorial number system): four
//! material classes, 1 v 1, 1 v 2, 2 v 1 and 2 v 2, about 4.3 million entries
//! of one byte. A side to move with no checker has lost (`Loss(0)`) and needs
//! no entry.
//!
//! Each entry is `0` for a draw or `d + 1` for a result `d` plies away: a win
//! when `d` is odd (the winner makes the last move), a loss when it is even.
//!
//! The classes are solved smallest first: a capture leads to a smaller class,
//! whose values are known; quiet moves stay within 1 v 1, within 2 v 2, or
//! between 1 v 2 and 2 v 1, which are solved together. Within a group the
//! positions are settled in order of distance: a position with a lost child
//! at distance `k` wins at `k + 1` (the first such child is the nearest); a
//! position whose last unsettled child turns out won at `k` loses at `k + 1`
//! (the last to settle is the farthest). Quiet moves are reversible, so the
//! parents of a settled position are found by moving one of the opponent's
//! checkers back like a rook. What never settles is a draw.

use board_core::{EndgameTable, Game, Proven};

use crate::rules::{MoveSink, walk_moves};
use crate::square::{rook_reach, squares};
use crate::{Position, Square};

/// Checker sets of 0, 1 and 2 checkers: how many there are.
const SET_COUNT: [usize; 3] = [1, 64, 2016];

/// The index of a set of one or two squares among the sets of its size.
fn set_index(bits: u64) -> usize {
    let low = bits.trailing_zeros() as usize;
    if bits.count_ones() == 1 {
        low
    } else {
        let high = 63 - bits.leading_zeros() as usize;
        high * (high - 1) / 2 + low
    }
}

/// Every set of `size` squares (1 or 2), in index order.
fn sets(size: u32) -> impl Iterator<Item = u64> {
    (0..SET_COUNT[size as usize]).map(move |index| nth_set(size, index))
}

/// Every position of `class`: the checkers to move, the opponent's, and the slot.
fn positions(class: usize) -> impl Iterator<Item = (u64, u64, Slot)> {
    let (m, n) = CLASSES[class];
    sets(m).flat_map(move |own| {
        sets(n)
            .filter(move |enemy| enemy & own == 0)
            .map(move |enemy| (own, enemy, Slot::of(own, enemy)))
    })
}

/// Where a position lives: its class (by checker counts) and its index there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Slot {
    class: usize,
    index: usize,
}

impl Slot {
    /// The slot of `own` (to move, 1 or 2 checkers) against `enemy` (1 or 2).
    fn of(own: u64, enemy: u64) -> Slot {
        let (m, n) = (own.count_ones() as usize, enemy.count_ones() as usize);
        Slot { class: class_of(m, n), index: set_index(own) * SET_COUNT[n] + set_index(enemy) }
    }

    /// The checker sets (to move, opponent) of the slot.
    fn sets(self) -> (u64, u64) {
        let (m, n) = CLASSES[self.class];
        let count = SET_COUNT[n as usize];
        (nth_set(m, self.index / count), nth_set(n, self.index % count))
    }
}

/// The set of `size` squares (1 or 2) with index `index`.
fn nth_set(size: u32, index: usize) -> u64 {
    if size == 1 { 1 << index } else { PAIRS[index] }
}

/// Every pair of squares, by index.
static PAIRS: [u64; 2016] = pairs();

const fn pairs() -> [u64; 2016] {
    let mut pairs = [0; 2016];
    let mut high = 1;
    while high < 64 {
        let mut low = 0;
        while low < high {
            pairs[high * (high - 1) / 2 + low] = (1 << high) | (1 << low);
            low += 1;
        }
        high += 1;
    }
    pairs
}

/// The class number of `m` checkers to move against `n`, both 1 or 2.
const fn class_of(m: usize, n: usize) -> usize {
    (m - 1) * 2 + (n - 1)
}

/// The checker counts (to move, opponent) of each class.
const CLASSES: [(u32, u32); 4] = [(1, 1), (1, 2), (2, 1), (2, 2)];

/// The classes solved together, in order: quiet moves stay inside a group,
/// captures lead to an earlier one.
const GROUPS: [&[usize]; 3] = [&[0], &[1, 2], &[3]];

/// The value of every Otrazhenie position at perfect play.
///
/// A plain value: whoever needs it builds it ([`Tablebase::build`]) or, with
/// the `cache` feature, reads it from a file, and owns it; an engine hands it
/// to search as its [`EndgameTable`], whose [`probe`](EndgameTable::probe)
/// answers `Some` for every position. [`value`](Tablebase::value) gives the
/// same without the `Option`.
///
/// ```
/// use otrazhenie::prelude::*;
///
/// let table = Tablebase::build(); // about a second in release
/// let pos: Position = "8/8/8/3B4/8/8/8/W7 w".parse()?;
/// assert_eq!(table.value(&pos), Proven::Win(1)); // a1-h1xd5 takes the last checker
/// assert_eq!(table.probe(&Position::default()), Some(Proven::Draw));
/// # Ok::<(), PositionError>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Tablebase {
    /// One byte per position of each class: 0 a draw, `d + 1` a result `d` plies away.
    classes: [Vec<u8>; 4],
}

impl std::fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sizes: Vec<usize> = self.classes.iter().map(Vec::len).collect();
        f.debug_struct("Tablebase").field("entries", &sizes).finish()
    }
}

impl Tablebase {
    /// Solves every position (about a second in a release build, about ten
    /// times that unoptimised).
    ///
    /// # Panics
    /// If some distance exceeded 254 plies, which does not happen: the
    /// longest is 21 (a test checks it).
    pub fn build() -> Tablebase {
        let mut table = Tablebase {
            classes: CLASSES.map(|(m, n)| vec![0; SET_COUNT[m as usize] * SET_COUNT[n as usize]]),
        };
        for group in GROUPS {
            table.solve_group(group);
        }
        table
    }

    /// The value of `pos` for the side to move (what
    /// [`EndgameTable::probe`] answers, without the `Option`: every position
    /// is in the table).
    pub fn value(&self, pos: &Position) -> Proven {
        let (own, enemy) = pos.sides();
        self.entry(own, enemy)
    }

    /// The longest win or loss in the table, in plies.
    pub fn longest(&self) -> u32 {
        let top = self.classes.iter().flatten().copied().max().unwrap_or(0);
        u32::from(top.saturating_sub(1))
    }

    /// How many legal positions (side to move with at least one checker) are
    /// won, drawn and lost for the side to move.
    pub fn census(&self) -> [u64; 3] {
        let mut counts = [0u64; 3];
        for (_, _, slot) in (0..CLASSES.len()).flat_map(positions) {
            let bucket = match decode(self.classes[slot.class][slot.index]) {
                Proven::Win(_) => 0,
                Proven::Draw => 1,
                Proven::Loss(_) => 2,
            };
            counts[bucket] += 1;
        }
        counts
    }

    /// Whether the value of `pos` is what its moves give: a finished position
    /// is lost now; otherwise a win one ply beyond the nearest lost child, or
    /// a draw if a child is drawn, or a loss one ply beyond the farthest won
    /// child. Used to spot-check a table read from a file, and by the tests.
    pub fn agrees_with_children(&self, pos: &Position) -> bool {
        let value = self.value(pos);
        if pos.is_over() {
            return value == Proven::Loss(0);
        }
        let mut best = None;
        pos.for_each_move(|mv| {
            let mut child = *pos;
            child.play_unchecked(mv);
            best = best.max(Some(self.value(&child).one_ply_back()));
        });
        best == Some(value)
    }

    /// Settles every position of the classes of `group`; earlier groups are done.
    fn solve_group(&mut self, group: &[usize]) {
        // Per position: how many of its moves are not yet known to lose it.
        let mut pending: [Vec<u8>; 4] = self.classes.each_ref().map(|class| vec![0; class.len()]);
        // `settled[d]`: positions of the group settled at distance d (all
        // wins for odd d, losses for even d); `captures[d]`: positions with a
        // capture into an earlier group whose result is d plies away.
        let mut settled: Vec<Vec<Slot>> = vec![Vec::new()];
        let mut captures: Vec<Vec<Slot>> = Vec::new();
        for (own, enemy, slot) in group.iter().copied().flat_map(positions) {
            let mut children =
                Children { table: self, parent: slot, moves: 0, captures: &mut captures };
            walk_moves(own, enemy, &mut children);
            let moves = children.moves;
            if moves == 0 {
                self.classes[slot.class][slot.index] = encode(0);
                settled[0].push(slot);
            }
            pending[slot.class][slot.index] = u8::try_from(moves).unwrap_or(u8::MAX);
        }
        let mut distance = 0;
        while distance < settled.len().max(captures.len()) {
            let mut next = Vec::new();
            for &parent in captures.get(distance).into_iter().flatten() {
                self.child_settled(parent, distance, &mut pending, &mut next);
            }
            for &slot in settled.get(distance).into_iter().flatten() {
                let (own, enemy) = slot.sets();
                // Quiet moves are reversible: the parents are the positions
                // where one of the opponent's checkers stood a rook move away.
                for from in squares(enemy) {
                    for to in squares(rook_reach(from, own | enemy)) {
                        let parent = Slot::of(enemy ^ from.bit() ^ to.bit(), own);
                        self.child_settled(parent, distance, &mut pending, &mut next);
                    }
                }
            }
            if !next.is_empty() {
                grow(&mut settled, distance + 1).append(&mut next);
            }
            distance += 1;
        }
    }

    /// A child of `parent` settled `distance` plies from its end: a lost child
    /// wins the parent at once (the first is the nearest); a won one leaves
    /// one move fewer to try, and when none is left the parent is lost (the
    /// last is the farthest).
    fn child_settled(
        &mut self,
        parent: Slot,
        distance: usize,
        pending: &mut [Vec<u8>; 4],
        next: &mut Vec<Slot>,
    ) {
        let value = &mut self.classes[parent.class][parent.index];
        if *value != 0 {
            return;
        }
        if distance % 2 == 1 {
            let left = &mut pending[parent.class][parent.index];
            *left -= 1;
            if *left != 0 {
                return;
            }
        }
        *value = encode(distance + 1);
        next.push(parent);
    }

    /// The tables of the four classes.
    #[cfg(feature = "cache")]
    pub(crate) const fn classes(&self) -> &[Vec<u8>; 4] {
        &self.classes
    }

    /// A table from stored classes, if they have the right sizes and every
    /// byte could be a value.
    #[cfg(feature = "cache")]
    pub(crate) fn from_classes(classes: Vec<Vec<u8>>) -> Result<Tablebase, String> {
        let classes: [Vec<u8>; 4] =
            classes.try_into().map_err(|c: Vec<_>| format!("{} classes, not 4", c.len()))?;
        for (class, &(m, n)) in classes.iter().zip(&CLASSES) {
            let want = SET_COUNT[m as usize] * SET_COUNT[n as usize];
            if class.len() != want {
                return Err(format!("{m} v {n} has {} entries, not {want}", class.len()));
            }
        }
        if classes.iter().flatten().any(|&byte| byte == u8::MAX) {
            return Err("a value out of range".to_owned());
        }
        Ok(Tablebase { classes })
    }

    /// The first of `count` positions spread over every class whose value
    /// disagrees with its children, if any.
    #[cfg(feature = "cache")]
    pub(crate) fn spot_check(&self, count: usize) -> Option<Position> {
        (0..count).find_map(|k| {
            let class = k % CLASSES.len();
            let index = k.wrapping_mul(0x9E37_79B9) % self.classes[class].len();
            let (own, enemy) = Slot { class, index }.sets();
            (own & enemy == 0)
                .then(|| Position::from_sides(own, enemy))
                .filter(|pos| !self.agrees_with_children(pos))
        })
    }

    /// The stored value of a position with at least one checker to move.
    fn entry(&self, own: u64, enemy: u64) -> Proven {
        if own == 0 {
            return Proven::Loss(0);
        }
        let slot = Slot::of(own, enemy);
        decode(self.classes[slot.class][slot.index])
    }
}

/// Every position is in the table: `probe` never answers `None`.
impl EndgameTable<Position> for Tablebase {
    fn probe(&self, pos: &Position) -> Option<Proven> {
        Some(self.value(pos))
    }
}

/// The walk of a position's moves while its group is solved: counts the moves
/// and files each capture (into an earlier, solved group) under the distance
/// of its result.
struct Children<'a> {
    table: &'a Tablebase,
    parent: Slot,
    moves: u32,
    captures: &'a mut Vec<Vec<Slot>>,
}

impl MoveSink for Children<'_> {
    fn quiet(&mut self, _from: Square, destinations: u64) {
        self.moves += destinations.count_ones();
    }

    fn capture(&mut self, from: Square, _edge: Square, target: Square) {
        self.moves += 1;
        let (own, enemy) = self.parent.sets();
        // After the capture the opponent moves: its checkers less the one taken.
        let distance = match self.table.entry(enemy ^ target.bit(), own ^ from.bit() ^ target.bit())
        {
            Proven::Win(d) | Proven::Loss(d) => d,
            Proven::Draw => return,
        };
        grow(self.captures, distance as usize).push(self.parent);
    }
}

/// The list at `index`, adding empty ones up to it.
fn grow(lists: &mut Vec<Vec<Slot>>, index: usize) -> &mut Vec<Slot> {
    if lists.len() <= index {
        lists.resize_with(index + 1, Vec::new);
    }
    &mut lists[index]
}

/// The stored byte of a result `distance` plies away.
fn encode(distance: usize) -> u8 {
    match u8::try_from(distance + 1) {
        Ok(byte) if byte < u8::MAX => byte,
        _ => panic!("a result {distance} plies away does not fit the table"),
    }
}

/// The value a stored byte means.
fn decode(byte: u8) -> Proven {
    match byte {
        0 => Proven::Draw,
        _ if byte.is_multiple_of(2) => Proven::Win(u32::from(byte - 1)),
        _ => Proven::Loss(u32::from(byte - 1)),
    }
}
