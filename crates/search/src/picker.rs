//! The move picker of an alpha-beta node (Stockfish's `MovePicker`): moves
//! handed out in stages, each generated only when the one before ran out,
//! each move's ordering key computed once.
//!
//! 1. The table move, decoded from its [code](board_core::Game::move_code) without
//!    generating anything when the game can ([`Game::move_from_code`](board_core::Game::move_from_code)).
//! 2. Tactical moves ([`Game::generate_tactical`](board_core::Game::generate_tactical)) by [`Evaluate::move_priority`].
//! 3. Quiet moves ([`Game::generate_quiet`](board_core::Game::generate_quiet)): the two killers, then the
//!    others by history plus priority.
//!
//! When the game cannot decode the table move, all moves are generated at
//! once to find it, and the rest are handed out by the same keys.

use board_core::Evaluate;

/// Ordering keys: the table move, then tactical moves (by the game's
/// priority), then the two killers, then quiet moves by history and priority.
pub(crate) const TABLE_KEY: i32 = i32::MAX;
pub(crate) const TACTICAL_KEY: i32 = 1 << 30;
pub(crate) const KILLER_KEY: i32 = 1 << 29;
/// Marks a move already tried (or the table move met again).
pub(crate) const DONE_KEY: i32 = i32::MIN;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Table,
    Generate,
    Tactical,
    GenerateQuiet,
    /// The quiet moves (or, when all were generated at once, the untried ones).
    Rest,
}

/// The key of a quiet move generated with the tactical ones, before the
/// quiet stage works it out.
const PENDING_KEY: i32 = DONE_KEY + 1;

/// What quiet moves are ordered by: the killers of this ply and the history
/// of the side to move (indexed by [`Game::move_index`](board_core::Game::move_index)).
pub(crate) struct QuietOrder<'a, M> {
    pub(crate) killers: [Option<M>; 2],
    pub(crate) history: &'a [i32],
}

/// The state of one node's move picking; the buffers are the ply's own.
pub(crate) struct Picker<M> {
    moves: Vec<M>,
    keys: Vec<i32>,
    stage: Stage,
    /// Moves before this index belong to an earlier stage.
    start: usize,
    /// Every move was generated at once (the quiet ones wait with
    /// [`PENDING_KEY`]).
    all_at_once: bool,
    table_code: Option<u32>,
    table_move: Option<M>,
}

impl<M: Copy + Eq> Picker<M> {
    /// A picker over the ply's buffers, starting with the move of
    /// `table_code` if there is one.
    pub(crate) fn new(mut moves: Vec<M>, mut keys: Vec<i32>, table_code: Option<u32>) -> Self {
        moves.clear();
        keys.clear();
        Picker {
            moves,
            keys,
            stage: Stage::Table,
            start: 0,
            all_at_once: false,
            table_code,
            table_move: None,
        }
    }

    /// The buffers back, for the ply to keep.
    pub(crate) fn into_buffers(self) -> (Vec<M>, Vec<i32>) {
        (self.moves, self.keys)
    }

    /// The next move and its ordering key (telling its kind: at least
    /// [`TACTICAL_KEY`] for the table move and tactical moves, at least
    /// [`KILLER_KEY`] for killers), or `None` when all were handed out.
    pub(crate) fn next<G: Evaluate<Move = M>>(
        &mut self,
        pos: &G,
        order: &QuietOrder<'_, M>,
    ) -> Option<(M, i32)> {
        loop {
            match self.stage {
                Stage::Table => {
                    self.stage = Stage::Generate;
                    let Some(code) = self.table_code else { continue };
                    if let Some(mv) = pos.move_from_code(code) {
                        self.table_move = Some(mv);
                        return Some((mv, TABLE_KEY));
                    }
                    // Found only among all the moves.
                    self.generate_all(pos);
                    self.table_move =
                        self.moves.iter().copied().find(|&m| pos.move_code(m) == code);
                    if let Some(mv) = self.table_move {
                        let at = self.moves.iter().position(|&m| m == mv).unwrap_or(0);
                        self.keys[at] = DONE_KEY;
                        return Some((mv, TABLE_KEY));
                    }
                }
                Stage::Generate => {
                    self.stage = Stage::Tactical;
                    if !G::TACTICAL_GENERATOR {
                        self.generate_all(pos);
                        continue;
                    }
                    pos.generate_tactical(&mut self.moves);
                    let table_move = self.table_move.as_ref();
                    self.keys.extend(self.moves.iter().map(|mv| {
                        if table_move == Some(mv) { DONE_KEY } else { tactical_key(pos, *mv) }
                    }));
                }
                Stage::Tactical => {
                    if let Some(pick) = self.pick(TACTICAL_KEY) {
                        return Some(pick);
                    }
                    self.stage = Stage::GenerateQuiet;
                }
                Stage::GenerateQuiet => {
                    self.stage = Stage::Rest;
                    if self.all_at_once {
                        for (key, mv) in self.keys.iter_mut().zip(&self.moves) {
                            if *key == PENDING_KEY {
                                *key = quiet_key(pos, mv, order);
                            }
                        }
                        continue;
                    }
                    self.start = self.moves.len();
                    pos.generate_quiet(&mut self.moves);
                    let table_move = self.table_move.as_ref();
                    let new = &self.moves[self.start..];
                    self.keys.extend(new.iter().map(|mv| {
                        if table_move == Some(mv) { DONE_KEY } else { quiet_key(pos, mv, order) }
                    }));
                }
                Stage::Rest => return self.pick(DONE_KEY + 1),
            }
        }
    }

    /// Every legal move at once: the tactical ones keyed, the quiet ones
    /// pending; straight to the tactical stage.
    fn generate_all<G: Evaluate<Move = M>>(&mut self, pos: &G) {
        pos.generate_moves(&mut self.moves);
        let table_move = self.table_move.as_ref();
        self.keys.extend(self.moves.iter().map(|mv| {
            if table_move == Some(mv) {
                DONE_KEY
            } else if pos.is_tactical(*mv) {
                tactical_key(pos, *mv)
            } else {
                PENDING_KEY
            }
        }));
        self.all_at_once = true;
        self.stage = Stage::Tactical;
    }

    /// The untried move of this stage with the highest key, if that is at
    /// least `least` (the first of equals), marked tried.
    fn pick(&mut self, least: i32) -> Option<(M, i32)> {
        let keys = &mut self.keys[self.start..];
        let (i, key) = highest(keys)?;
        if key < least {
            return None;
        }
        keys[i] = DONE_KEY;
        Some((self.moves[self.start + i], key))
    }
}

fn tactical_key<G: Evaluate>(pos: &G, mv: G::Move) -> i32 {
    TACTICAL_KEY.saturating_add(pos.move_priority(mv).max(0))
}

/// Compares the moves where they lie: `Some(mv) == killer` would build an
/// `Option` of the move on the stack and read it back across the stores
/// that built it (a store-forwarding stall: a seventh of hexdraughts'
/// search time, whose moves are 24 bytes).
fn quiet_key<G: Evaluate>(pos: &G, mv: &G::Move, order: &QuietOrder<'_, G::Move>) -> i32 {
    let [first, second] = &order.killers;
    if first.as_ref() == Some(mv) {
        KILLER_KEY + 1
    } else if second.as_ref() == Some(mv) {
        KILLER_KEY
    } else {
        let history = order.history.get(pos.move_index(*mv)).copied().unwrap_or(0);
        history.saturating_add(pos.move_priority(*mv)).clamp(-KILLER_KEY + 1, KILLER_KEY - 1)
    }
}

/// The index and key of the untried move with the highest key (the first
/// of equals), marked tried.
pub(crate) fn next_move(keys: &mut [i32]) -> Option<(usize, i32)> {
    let (pick, key) = highest(keys)?;
    if key == DONE_KEY {
        return None;
    }
    keys[pick] = DONE_KEY;
    Some((pick, key))
}

/// The index and value of the highest key, the first of equals: one
/// comparison a key (`max_by_key` over (key, reversed index) pairs made
/// two, and branched on both).
fn highest(keys: &[i32]) -> Option<(usize, i32)> {
    let (&first, rest) = keys.split_first()?;
    let mut best = (0, first);
    for (i, &key) in rest.iter().enumerate() {
        if key > best.1 {
            best = (i + 1, key);
        }
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_come_by_key_then_in_order_and_once() {
        let mut keys = vec![5, 9, 5, DONE_KEY, -3];
        let picked: Vec<usize> = std::iter::from_fn(|| next_move(&mut keys).map(|p| p.0)).collect();
        assert_eq!(picked, vec![1, 0, 2, 4]);
        assert_eq!(highest(&[]), None);
        assert_eq!(highest(&[3, 7, 7, -1, 7]), Some((1, 7)), "the first of equals");
        assert_eq!(highest(&[DONE_KEY, DONE_KEY]), Some((0, DONE_KEY)));
    }
}
