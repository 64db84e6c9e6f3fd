//! Monte Carlo tree search: UCT with uniformly random playouts.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use board_core::{Evaluate, Game, Outcome, Player, Rng};

use crate::limits::{Clock, Info, Limits, Score};

/// The UCT exploration constant.
const EXPLORATION: f64 = 1.4;
/// The default playout cap of [`Mcts::search_with_evaluation`].
pub const EVALUATED_PLAYOUT_CAP: u32 = 16;
/// Iterations per ply of a depth limit (MCTS has no depth of its own).
pub const ITERATIONS_PER_DEPTH: u64 = 1000;
/// The tree stops growing at this many nodes (about half a gigabyte for small
/// moves); searches go on with playouts from its leaves, so `go infinite` can
/// run for hours without exhausting memory.
const MAX_TREE_NODES: usize = 16 << 20;

struct Node<M> {
    /// The move that led here (`None` at the root).
    mv: Option<M>,
    /// The player who made that move: rewards are kept from their side.
    mover: Player,
    /// Children are `first_child..first_child + child_count` in the arena.
    first_child: u32,
    child_count: u32,
    expanded: bool,
    visits: u32,
    /// Sum of rewards for `mover` (win 1, draw 0.5, loss 0).
    reward: f64,
}

/// An MCTS searcher, deterministic for a given seed and iteration limit.
///
/// ```
/// # use board_core::Game;
/// # use search::{Limits, Mcts};
/// # use std::sync::atomic::AtomicBool;
/// fn best<G: Game>(pos: &G) -> Option<G::Move> {
///     Mcts::new(42).search(pos, Limits::nodes(500), &AtomicBool::new(false), &mut |_| {}).0
/// }
/// ```
pub struct Mcts {
    rng: Rng,
    /// Plies a playout may last before it is adjudicated.
    playout_cap: Option<u32>,
}

impl Mcts {
    /// A searcher seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Mcts { rng: Rng::new(seed), playout_cap: None }
    }

    /// Caps playouts at `plies` (default: the game's `DEFAULT_MAX_PLIES`); a
    /// capped playout is scored by [`Game::adjudicate`].
    #[must_use]
    pub fn with_playout_cap(mut self, plies: u32) -> Self {
        self.playout_cap = Some(plies);
        self
    }

    /// Runs iterations until a limit (nodes = iterations, time) or `stop`;
    /// without limits it runs until `stop`. MCTS has no search depth: a depth
    /// limit `d` caps the iterations at `d` × [`ITERATIONS_PER_DEPTH`], so a
    /// caller that only gives a depth still gets an answer. Reports about
    /// once a second.
    pub fn search<G: Game>(
        &mut self,
        pos: &G,
        limits: Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) -> (Option<G::Move>, Info<G::Move>) {
        let cap = self.playout_cap.unwrap_or(G::DEFAULT_MAX_PLIES);
        self.run(pos, limits, stop, on_info, cap, &G::adjudicate)
    }

    /// As [`search`](Mcts::search), but a playout that reaches its cap
    /// (default: [`EVALUATED_PLAYOUT_CAP`] plies, or the game's cap if
    /// smaller) is won by the side the game's evaluation favours. In games
    /// whose random playouts rarely end (focus) this gives the tree a signal
    /// where plain adjudication gives only draws.
    pub fn search_with_evaluation<G: Evaluate>(
        &mut self,
        pos: &G,
        limits: Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) -> (Option<G::Move>, Info<G::Move>) {
        let cap = self.playout_cap.unwrap_or(G::DEFAULT_MAX_PLIES.min(EVALUATED_PLAYOUT_CAP));
        self.run(pos, limits, stop, on_info, cap, &judge_by_evaluation)
    }

    fn run<G: Game>(
        &mut self,
        pos: &G,
        limits: Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info<G::Move>),
        cap: u32,
        judge: &dyn Fn(&G) -> Outcome,
    ) -> (Option<G::Move>, Info<G::Move>) {
        // An iteration is a whole playout: look at the clock after each one.
        let limits = match limits.depth {
            Some(depth) => {
                let cap = u64::from(depth.max(1)) * ITERATIONS_PER_DEPTH;
                Limits { nodes: Some(limits.nodes.map_or(cap, |n| n.min(cap))), ..limits }
            }
            None => limits,
        };
        let mut clock = Clock::new(limits, stop, 1);
        let mut tree = vec![Node {
            mv: None,
            mover: pos.side_to_move().other(),
            first_child: 0,
            child_count: 0,
            expanded: false,
            visits: 0,
            reward: 0.0,
        }];
        let mut moves = Vec::new();
        let mut path = Vec::new();
        let mut iterations = 0u64;
        let mut seldepth = 0;
        let mut next_report = Duration::from_secs(1);
        // Always run at least one iteration so a best move exists.
        while iterations == 0 || !clock.must_stop(iterations) {
            iterations += 1;
            let mut state = pos.clone();
            path.clear();
            path.push(0usize);
            let mut node = 0;
            // Selection.
            while tree[node].expanded && tree[node].child_count > 0 {
                node = select_child(&tree, node);
                if let Some(mv) = tree[node].mv {
                    state.play_unchecked(mv);
                }
                path.push(node);
            }
            // Expansion.
            if !tree[node].expanded && tree.len() < MAX_TREE_NODES {
                tree[node].expanded = true;
                moves.clear();
                state.generate_moves(&mut moves);
                if !moves.is_empty() {
                    let first = u32::try_from(tree.len()).unwrap_or(u32::MAX);
                    tree[node].first_child = first;
                    tree[node].child_count = u32::try_from(moves.len()).unwrap_or(u32::MAX);
                    let mover = state.side_to_move();
                    tree.extend(moves.iter().map(|&mv| Node {
                        mv: Some(mv),
                        mover,
                        first_child: 0,
                        child_count: 0,
                        expanded: false,
                        visits: 0,
                        reward: 0.0,
                    }));
                    node = first as usize + self.rng.below(moves.len());
                    if let Some(mv) = tree[node].mv {
                        state.play_unchecked(mv);
                    }
                    path.push(node);
                }
            }
            seldepth = seldepth.max(path.len() as u32 - 1);
            // Playout.
            let outcome = self.playout(&mut state, &mut moves, cap, judge);
            // Backpropagation.
            for &n in &path {
                let node = &mut tree[n];
                node.visits += 1;
                node.reward += reward(outcome, node.mover);
            }
            if clock.elapsed() >= next_report {
                next_report += Duration::from_secs(1);
                on_info(&self.info(&tree, iterations, seldepth, &clock));
            }
        }
        let info = self.info(&tree, iterations, seldepth, &clock);
        on_info(&info);
        (info.pv.first().copied(), info)
    }

    fn playout<G: Game>(
        &mut self,
        state: &mut G,
        moves: &mut Vec<G::Move>,
        cap: u32,
        judge: &dyn Fn(&G) -> Outcome,
    ) -> Outcome {
        for _ in 0..cap {
            moves.clear();
            state.generate_moves(moves);
            let Some(&mv) = self.rng.choose(moves) else {
                return state.outcome().unwrap_or(Outcome::draw("no legal move"));
            };
            state.play_unchecked(mv);
        }
        state.outcome().unwrap_or_else(|| judge(state))
    }

    fn info<M: Copy>(
        &self,
        tree: &[Node<M>],
        iterations: u64,
        seldepth: u32,
        clock: &Clock<'_>,
    ) -> Info<M> {
        let mut pv = Vec::new();
        let mut node = 0;
        while let Some(child) = most_visited(tree, node) {
            pv.extend(tree[child].mv);
            node = child;
        }
        let score = match most_visited(tree, 0) {
            Some(best) if tree[best].visits > 0 => {
                let q = tree[best].reward / f64::from(tree[best].visits);
                Score::Cp(((q - 0.5) * 2000.0).round() as i32)
            }
            _ => Score::Cp(0),
        };
        Info {
            depth: pv.len() as u32,
            seldepth,
            score,
            nodes: iterations,
            time: clock.elapsed(),
            pv,
        }
    }
}

/// The end of a capped playout by the evaluation: a win for the side it
/// favours, a draw when it is level.
fn judge_by_evaluation<G: Evaluate>(state: &G) -> Outcome {
    let mover = state.side_to_move();
    match state.evaluate().signum() {
        1 => Outcome::win(mover, "evaluation"),
        -1 => Outcome::win(mover.other(), "evaluation"),
        _ => Outcome::draw("evaluation"),
    }
}

fn reward(outcome: Outcome, player: Player) -> f64 {
    match outcome.winner {
        None => 0.5,
        Some(w) if w == player => 1.0,
        Some(_) => 0.0,
    }
}

fn children<M>(tree: &[Node<M>], node: usize) -> std::ops::Range<usize> {
    let first = tree[node].first_child as usize;
    first..first + tree[node].child_count as usize
}

fn select_child<M>(tree: &[Node<M>], node: usize) -> usize {
    let log_parent = f64::from(tree[node].visits.max(1)).ln();
    let mut best = tree[node].first_child as usize;
    let mut best_value = f64::NEG_INFINITY;
    for child in children(tree, node) {
        let c = &tree[child];
        let value = if c.visits == 0 {
            f64::INFINITY
        } else {
            let n = f64::from(c.visits);
            c.reward / n + EXPLORATION * (log_parent / n).sqrt()
        };
        if value > best_value {
            best_value = value;
            best = child;
        }
    }
    best
}

fn most_visited<M>(tree: &[Node<M>], node: usize) -> Option<usize> {
    children(tree, node).filter(|&c| tree[c].visits > 0).max_by_key(|&c| tree[c].visits)
}
