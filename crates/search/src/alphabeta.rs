//! Alpha-beta: negamax with iterative deepening, a transposition table and
//! move ordering, over any game with an [`Evaluate`] implementation.

use std::sync::atomic::AtomicBool;

use board_core::{Evaluate, Game, Outcome};

use crate::limits::{Clock, Info, Limits, Score};

/// Values at or beyond this are proven wins (minus the plies to reach them).
const WIN: i32 = 1_000_000;
const WIN_BOUND: i32 = WIN - 10_000;
const INFINITY: i32 = WIN + 1;
/// The deepest iteration when no depth limit is given.
pub const MAX_DEPTH: u32 = 100;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
struct Entry<M> {
    key: u64,
    /// The game the entry was stored in: entries of earlier games are ignored.
    game: u8,
    best: Option<M>,
    value: i32,
    depth: u8,
    bound: Bound,
}

/// An alpha-beta searcher; keeps its transposition table between searches.
///
/// ```
/// # use board_core::Evaluate;
/// # use search::{AlphaBeta, Limits};
/// # use std::sync::atomic::AtomicBool;
/// fn best<G: Evaluate>(pos: &G) -> Option<G::Move> {
///     let mut searcher = AlphaBeta::<G>::new(1);
///     searcher.search(pos, Limits::depth(4), &AtomicBool::new(false), &mut |_| {}).0
/// }
/// ```
pub struct AlphaBeta<G: Game> {
    table: Vec<Option<Entry<G::Move>>>,
    /// Moves and their ordering keys, one buffer per ply: no allocation per node.
    moves: Vec<Vec<G::Move>>,
    keys: Vec<Vec<i32>>,
    /// Two quiet moves per ply that refuted a sibling line ("killers").
    killers: Vec<[Option<G::Move>; 2]>,
    nodes: u64,
    seldepth: u32,
    /// Counts games, so that forgetting them costs nothing.
    game: u8,
}

impl<G: Evaluate> AlphaBeta<G> {
    /// A searcher with a transposition table of about `hash_mb` megabytes
    /// (at least one entry).
    pub fn new(hash_mb: usize) -> Self {
        let entry = std::mem::size_of::<Option<Entry<G::Move>>>();
        let len = (hash_mb.saturating_mul(1 << 20) / entry).max(1);
        AlphaBeta {
            table: vec![None; len],
            moves: Vec::new(),
            keys: Vec::new(),
            killers: Vec::new(),
            nodes: 0,
            seldepth: 0,
            game: 0,
        }
    }

    /// Forgets everything learnt (a new game), so that a game's searches do
    /// not depend on the games before it. Costs nothing but every 256th time.
    pub fn clear(&mut self) {
        self.game = self.game.wrapping_add(1);
        if self.game == 0 {
            self.table.fill(None);
        }
    }

    /// The table's entry for `key`, if it is from this game.
    fn probe(&self, key: u64) -> Option<Entry<G::Move>> {
        self.table[self.slot(key)].filter(|e| e.key == key && e.game == self.game)
    }

    /// Searches `pos` by iterative deepening within `limits` or until `stop`
    /// is raised; calls `on_info` after each completed depth. Returns the best
    /// move (`None` only when the game is over) and the final info.
    pub fn search(
        &mut self,
        pos: &G,
        limits: Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) -> (Option<G::Move>, Info<G::Move>) {
        let mut clock = Clock::new(limits, stop, 1024);
        self.nodes = 0;
        self.seldepth = 0;
        // Killers are by ply from this root: those of the last search are stale.
        self.killers.fill([None; 2]);
        let mut root_moves = pos.legal_moves();
        let mut info = Info {
            depth: 0,
            seldepth: 0,
            score: terminal_score(pos, 0).map_or(Score::Cp(0), to_score),
            nodes: 0,
            time: clock.elapsed(),
            pv: Vec::new(),
        };
        let Some(&first) = root_moves.first() else {
            return (None, info);
        };
        let mut best = first;
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        for depth in 1..=max_depth {
            let (value, iteration_best, complete) =
                self.root(pos, &mut root_moves, depth, &mut clock);
            if complete || iteration_best != best {
                // An aborted iteration still improves on the last one if it
                // proved its first (previous best) move worse than another.
                best = iteration_best;
            }
            if !complete {
                break;
            }
            info = Info {
                depth,
                seldepth: self.seldepth,
                score: to_score(value),
                nodes: self.nodes,
                time: clock.elapsed(),
                pv: self.principal_variation(pos, best, depth),
            };
            on_info(&info);
            let proven = value.abs() >= WIN_BOUND
                && u32::try_from(WIN - value.abs()).is_ok_and(|plies| plies <= depth);
            let half_time_gone = limits.time.is_some_and(|t| clock.elapsed() * 2 >= t);
            if proven || half_time_gone {
                break;
            }
        }
        info.nodes = self.nodes;
        info.time = clock.elapsed();
        if info.pv.first() != Some(&best) {
            info.pv = vec![best];
        }
        (Some(best), info)
    }

    /// One iteration at the root; the best move goes to the front of
    /// `root_moves` for the next iteration. Returns (value, best, complete).
    fn root(
        &mut self,
        pos: &G,
        root_moves: &mut [G::Move],
        depth: u32,
        clock: &mut Clock<'_>,
    ) -> (i32, G::Move, bool) {
        let mut alpha = -INFINITY;
        let mut best = 0;
        for i in 0..root_moves.len() {
            let mut child = pos.clone();
            child.play_unchecked(root_moves[i]);
            let value = -self.negamax(&child, depth - 1, 1, -INFINITY, -alpha, clock);
            if clock.stopped() {
                return (alpha, root_moves[best], false);
            }
            if value > alpha {
                alpha = value;
                best = i;
            }
        }
        root_moves[..=best].rotate_right(1);
        self.store(pos.zobrist(), Some(root_moves[0]), alpha, depth, Bound::Exact, 0);
        (alpha, root_moves[0], true)
    }

    fn negamax(
        &mut self,
        pos: &G,
        depth: u32,
        ply: u32,
        mut alpha: i32,
        beta: i32,
        clock: &mut Clock<'_>,
    ) -> i32 {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if clock.must_stop(self.nodes) {
            return 0;
        }
        let level = ply as usize;
        if self.moves.len() <= level {
            self.moves.resize_with(level + 1, Vec::new);
            self.keys.resize_with(level + 1, Vec::new);
            self.killers.resize(level + 1, [None; 2]);
        }
        let mut moves = std::mem::take(&mut self.moves[level]);
        moves.clear();
        pos.generate_moves(&mut moves);
        let value = if moves.is_empty() {
            terminal_score(pos, ply).unwrap_or(0)
        } else if depth == 0 {
            pos.evaluate().clamp(-WIN_BOUND + 1, WIN_BOUND - 1)
        } else {
            self.search_moves(pos, &mut moves, depth, ply, &mut alpha, beta, clock)
        };
        self.moves[level] = moves;
        value
    }

    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        pos: &G,
        moves: &mut [G::Move],
        depth: u32,
        ply: u32,
        alpha: &mut i32,
        beta: i32,
        clock: &mut Clock<'_>,
    ) -> i32 {
        let key = pos.zobrist();
        let mut hash_move = None;
        if let Some(entry) = self.probe(key) {
            hash_move = entry.best;
            if u32::from(entry.depth) >= depth {
                let value = from_table(entry.value, ply);
                let cutoff = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => value >= beta,
                    Bound::Upper => value <= *alpha,
                };
                if cutoff {
                    return value;
                }
            }
        }

        let level = ply as usize;
        let mut keys = std::mem::take(&mut self.keys[level]);
        keys.clear();
        // Order: the table's move, moves the game ranks above 0 (captures...),
        // the killers, then the rest by the game's ranking.
        let killers = self.killers[level];
        keys.extend(moves.iter().map(|&mv| {
            let priority = pos.move_priority(mv);
            if Some(mv) == hash_move {
                i32::MAX
            } else if priority > 0 {
                priority
            } else if Some(mv) == killers[0] {
                0
            } else if Some(mv) == killers[1] {
                -1
            } else {
                priority.saturating_sub(2)
            }
        }));

        let original_alpha = *alpha;
        let mut best_value = -INFINITY;
        let mut best_move = None;
        let mut done = 0;
        while done < moves.len() {
            // Selection sort step: the best remaining move comes next.
            let (pick, _) = keys
                .iter()
                .enumerate()
                .skip(done)
                .max_by_key(|&(i, &k)| (k, std::cmp::Reverse(i)))
                .unwrap_or((done, &0));
            keys.swap(done, pick);
            moves.swap(done, pick);
            let mv = moves[done];
            done += 1;
            let mut child = pos.clone();
            child.play_unchecked(mv);
            // Principal variation search: the first move with the full
            // window, the others with a null window, searched again only if
            // they turn out better than the best so far.
            let mut value = if done == 1 {
                -self.negamax(&child, depth - 1, ply + 1, -beta, -*alpha, clock)
            } else {
                -self.negamax(&child, depth - 1, ply + 1, -*alpha - 1, -*alpha, clock)
            };
            if done > 1 && value > *alpha && value < beta && !clock.stopped() {
                value = -self.negamax(&child, depth - 1, ply + 1, -beta, -*alpha, clock);
            }
            if clock.stopped() {
                self.keys[level] = keys;
                return 0;
            }
            if value > best_value {
                best_value = value;
                best_move = Some(mv);
            }
            if value > *alpha {
                *alpha = value;
            }
            if *alpha >= beta {
                if Some(mv) != hash_move && pos.move_priority(mv) <= 0 && killers[0] != Some(mv) {
                    self.killers[level] = [Some(mv), killers[0]];
                }
                break;
            }
        }
        self.keys[level] = keys;
        let bound = if best_value <= original_alpha {
            Bound::Upper
        } else if best_value >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.store(key, best_move, best_value, depth, bound, ply);
        best_value
    }

    fn slot(&self, key: u64) -> usize {
        ((u128::from(key) * self.table.len() as u128) >> 64) as usize
    }

    fn store(
        &mut self,
        key: u64,
        best: Option<G::Move>,
        value: i32,
        depth: u32,
        bound: Bound,
        ply: u32,
    ) {
        let slot = self.slot(key);
        let replace = self.table[slot].is_none_or(|e| {
            e.key != key
                || e.game != self.game
                || u32::from(e.depth) <= depth
                || bound == Bound::Exact
        });
        if replace {
            let depth = u8::try_from(depth).unwrap_or(u8::MAX);
            self.table[slot] = Some(Entry {
                key,
                game: self.game,
                best,
                value: to_table(value, ply),
                depth,
                bound,
            });
        }
    }

    /// The best move, then the table's best moves as far as they stay legal.
    fn principal_variation(&self, pos: &G, best: G::Move, depth: u32) -> Vec<G::Move> {
        let mut pv = vec![best];
        let mut pos = pos.clone();
        pos.play_unchecked(best);
        while pv.len() < depth as usize {
            let key = pos.zobrist();
            let Some(mv) = self.probe(key).and_then(|e| e.best) else {
                break;
            };
            if !pos.is_legal(mv) {
                break;
            }
            pos.play_unchecked(mv);
            pv.push(mv);
        }
        pv
    }
}

/// The value of a finished position for the side to move, found `ply` plies
/// from the root; `None` while the game goes on.
fn terminal_score<G: Game>(pos: &G, ply: u32) -> Option<i32> {
    let outcome: Outcome = pos.outcome()?;
    let distance = i32::try_from(ply).unwrap_or(i32::MAX);
    Some(match outcome.winner {
        None => 0,
        Some(w) if w == pos.side_to_move() => WIN - distance,
        Some(_) => -(WIN - distance),
    })
}

fn to_score(value: i32) -> Score {
    if value >= WIN_BOUND {
        Score::Win((WIN - value).unsigned_abs())
    } else if value <= -WIN_BOUND {
        Score::Loss((WIN + value).unsigned_abs())
    } else {
        Score::Cp(value)
    }
}

/// Proven values are stored relative to the node, not the root.
fn to_table(value: i32, ply: u32) -> i32 {
    let ply = i32::try_from(ply).unwrap_or(0);
    if value >= WIN_BOUND {
        value + ply
    } else if value <= -WIN_BOUND {
        value - ply
    } else {
        value
    }
}

fn from_table(value: i32, ply: u32) -> i32 {
    let ply = i32::try_from(ply).unwrap_or(0);
    if value >= WIN_BOUND {
        value - ply
    } else if value <= -WIN_BOUND {
        value + ply
    } else {
        value
    }
}
