//! Monte Carlo tree search: UCT with progressive bias, MCTS-Solver, a tree
//! kept between moves and bounded in memory.

mod tree;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use board_core::learned::Learned;
use board_core::{Evaluate, Game, Player, Rng};

use crate::AlphaBeta;
use crate::limits::{Clock, Info, Limits, Score};
use tree::{Node, Proof, Tree};

/// The UCT exploration constant (rewards run from 0 to 1).
const EXPLORATION: f64 = 1.0;
/// Weight of progressive bias: a child's normalised move priority (0 to 1)
/// adds `PROGRESSIVE_BIAS × bias / (visits + 1)` to its UCT value.
const PROGRESSIVE_BIAS: f64 = 1.0;
/// The scale of the evaluation in a win probability: a playout cut off with
/// evaluation `e` (hundredths of a piece, for the side to move) is worth
/// `1 / (1 + exp(-e / EVAL_SCALE))` to that side, so a piece up is worth
/// about 0.62, three pieces 0.82. Reported scores map back the same way.
pub const EVAL_SCALE: f64 = 200.0;
/// The default playout cap of [`Mcts::search_with_evaluation`]: one random
/// move, then the evaluation. Arena runs at 100 ms a move against caps 0, 2
/// and 4 favoured 1 in every game tried (City: cap 4 +63, cap 0 +155, cap 2
/// +173, cap 1 +363 Elo against the MCTS of `373fb5c`).
pub const EVALUATED_PLAYOUT_CAP: u32 = 1;
/// Iterations per ply of a depth limit (MCTS has no depth of its own).
pub const ITERATIONS_PER_DEPTH: u64 = 1000;
/// The tree's memory when no other is given, in megabytes.
pub const DEFAULT_TREE_MB: usize = 16;
/// The visits a leaf needs before it is expanded when the tree is full. Until
/// half the budget is used every leaf reached is expanded; from there the
/// need rises in proportion to the budget used, up to this, so a small `Hash`
/// is spent on the leaves searched most instead of filling up in the first
/// milliseconds (a City position has some 50 moves).
const FULL_TREE_VISITS: usize = 64;

/// The most plies an evaluated playout goes on past its cap while every
/// move is tactical (a compulsory capture).
const FORCED_PLIES: u32 = 8;

/// How many plies below the old root a new search looks for its position
/// to keep that subtree (the engine's move and the reply).
const REUSE_PLIES: u32 = 2;

/// The move MCTS would play is checked by alpha-beta to this depth (from
/// the position after it) before it is played: MCTS's playouts do not see
/// a forced loss a few moves deep, alpha-beta does (City `8`: `a1-a9` looks
/// good to any number of playouts and is lost in 7).
const VERIFY_DEPTH: u32 = 8;
/// Alpha-beta nodes for the checks of one search, per MCTS iteration (an
/// iteration expands a node: it costs several alpha-beta nodes' time).
const VERIFY_NODES_PER_ITERATION: u64 = 30;
/// Searches of fewer iterations are not checked: quick looks (weak levels,
/// tests) where the check would cost more than the search.
const VERIFY_MIN_ITERATIONS: u64 = 1000;
/// A timed search keeps this fraction of its time (1/n) for the checks. A
/// third cost focus's MCTS −93 ± 79 Elo against the MCTS before the checks
/// (80 games, 60 ms a move); an eighth 0 ± 69 (100 games); none +14 ± 69.
/// Proving City `8`'s `a1-a9` lost takes about 60 ms: at 1 s and 2 s a move
/// (seeds 1 and 7) the engine plays won moves there, at 0.5 s it still plays
/// `a1-a9` or `i1-i9`. Searches limited by iterations (`nodes`, or a depth)
/// are not checked: their limit counts MCTS iterations alone (issue 34; the
/// check of a 20 000-iteration stykovka search cost ten times the search).
const VERIFY_TIME_SHARE: u32 = 8;
/// Timed searches shorter than this are not checked: a check that short
/// proves little (City `8` needs about 60 ms, a 0.5 s search keeps 62 ms)
/// and its share of the time cost adiyukh's MCTS −52 ± 45 Elo at 60 ms a
/// move (200 games against f57f5c5).
const VERIFY_MIN_TIME: Duration = Duration::from_millis(500);
/// At most this many moves are checked in one search (each found lost
/// makes the next best the candidate).
const VERIFY_MOVES: usize = 6;
/// The checking alpha-beta's table, in megabytes.
const VERIFY_TABLE_MB: usize = 2;

/// An MCTS searcher for game `G`, deterministic for a given seed, sequence of
/// searches and iteration limits.
///
/// Playouts score a finished game 1, ½ or 0; a playout cut off at its cap is
/// scored by [`Game::adjudicate`] ([`search`](Mcts::search)) or by the
/// evaluation as a win probability ([`search_with_evaluation`](Mcts::search_with_evaluation)).
/// Proven wins and losses propagate up the tree (MCTS-Solver): a proven
/// position is never searched again, a move proven lost is never chosen, a
/// proven win at the root ends the search at once. The tree stays between
/// searches: a search of a position a few plies below the last one keeps
/// that subtree. It never grows past its node budget
/// ([`with_tree_mb`](Mcts::with_tree_mb)): the fuller it is, the more
/// visits a leaf needs before it grows children; when full, searches go on
/// with playouts from its leaves.
///
/// ```
/// # use board_core::Game;
/// # use search::{Limits, Mcts};
/// # use std::sync::atomic::AtomicBool;
/// fn best<G: Game>(pos: &G) -> Option<G::Move> {
///     Mcts::new(42).search(pos, Limits::nodes(500), &AtomicBool::new(false), &mut |_| {}).0
/// }
/// ```
pub struct Mcts<G: Game> {
    seed: u64,
    rng: Rng,
    /// Plies a playout may last before it is judged.
    playout_cap: Option<u32>,
    tree: Tree<G::Move>,
    /// Plies played by the last playout.
    playout_plies: u32,
    /// The position of the tree's root.
    root: Option<G>,
    moves: Vec<G::Move>,
    priorities: Vec<i32>,
    path: Vec<usize>,
    /// Plies from the root to the game's ply cap ([`Limits::plies_left`]);
    /// `u32::MAX` without a cap.
    game_cap: u32,
    /// The alpha-beta that checks the move to play (made on first use).
    verifier: Option<AlphaBeta<G>>,
    /// Whether the move to play is checked.
    verification: bool,
    /// The learned evaluation that judges evaluated playouts and the check
    /// of the move to play, if any.
    learned: Option<Arc<Learned<G>>>,
    /// The scale of the last search's reported scores (see [`EVAL_SCALE`]).
    scale: f64,
}

/// Generates the tactical moves, says whether they are forced.
type Forced<G> = fn(&G, &mut Vec<<G as Game>::Move>) -> bool;

/// Checks the move to play: (searcher, root, stop flag, time left, iterations).
type Verify<G> = fn(&mut Mcts<G>, &G, &AtomicBool, Option<Duration>, u64);

/// How playouts end and how moves are ranked: by the rules alone or with
/// the game's evaluation.
struct Knowledge<G: Game> {
    cap: u32,
    /// Past the cap a playout goes on while the side to move must play a
    /// tactical move (a compulsory capture), so the evaluation judges a
    /// quiet position: this generates the tactical moves and says whether
    /// they are forced ([`Game::generate_tactical_forced`]). `None` for games
    /// whose rules never force one ([`Game::COMPULSORY_TACTICAL`]).
    forced: Option<Forced<G>>,
    /// Checks the move to play before the search answers (alpha-beta).
    verify: Option<Verify<G>>,
    /// The value of an unfinished position for its side to move, 0 to 1
    /// (by the learned evaluation given, if the judge uses one).
    judge: fn(&G, Option<&Learned<G>>) -> f64,
    /// The learned evaluation the judge is given.
    learned: Option<Arc<Learned<G>>>,
    /// The scale of reported scores: a win probability `p` is reported as
    /// `scale × ln(p / (1 − p))` centipawns.
    scale: f64,
    priority: fn(&G, G::Move) -> i32,
}

impl<G: Game> Mcts<G> {
    /// A searcher seeded with `seed`, with a tree of [`DEFAULT_TREE_MB`].
    pub fn new(seed: u64) -> Self {
        Mcts {
            seed,
            rng: Rng::new(seed),
            playout_cap: None,
            tree: Tree::new(Tree::<G::Move>::budget_of(DEFAULT_TREE_MB)),
            playout_plies: 0,
            root: None,
            moves: Vec::new(),
            priorities: Vec::new(),
            path: Vec::new(),
            game_cap: u32::MAX,
            verifier: None,
            verification: true,
            learned: None,
            scale: EVAL_SCALE,
        }
    }

    /// Caps playouts at `plies` (default: the game's `DEFAULT_MAX_PLIES`,
    /// or [`EVALUATED_PLAYOUT_CAP`] with the evaluation).
    #[must_use]
    pub fn with_playout_cap(mut self, plies: u32) -> Self {
        self.playout_cap = Some(plies);
        self
    }

    /// Plays the move the search prefers without checking it with
    /// alpha-beta first ([`search_with_evaluation`](Mcts::search_with_evaluation)
    /// checks it by default in timed searches): MCTS alone, for studying it.
    #[must_use]
    pub fn without_verification(mut self) -> Self {
        self.verification = false;
        self
    }

    /// Bounds the tree by `megabytes` (see [`set_tree_mb`](Mcts::set_tree_mb)).
    #[must_use]
    pub fn with_tree_mb(mut self, megabytes: usize) -> Self {
        self.set_tree_mb(megabytes);
        self
    }

    /// Bounds the tree by `megabytes` (the engine's `Hash`): the node budget
    /// is what fits, counting a node and the index re-rooting needs for it.
    /// A tree already larger than the new budget is forgotten.
    pub fn set_tree_mb(&mut self, megabytes: usize) {
        self.tree.set_budget(Tree::<G::Move>::budget_of(megabytes));
    }

    /// The seed it was made with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The most nodes the tree may hold.
    pub fn node_budget(&self) -> usize {
        self.tree.budget()
    }

    /// The nodes the tree holds now.
    pub fn tree_nodes(&self) -> usize {
        self.tree.nodes.len()
    }

    /// Forgets the tree (a new game), keeping its memory, and starts the
    /// random numbers again from the seed.
    pub fn clear(&mut self) {
        self.rng = Rng::new(self.seed);
        self.tree.clear();
        self.root = None;
    }

    /// Runs iterations until a limit (nodes = iterations, time), `stop`, or
    /// a proven result at the root; without limits it runs until `stop`.
    /// MCTS has no search depth: a depth limit `d` caps the iterations at
    /// `d` × [`ITERATIONS_PER_DEPTH`], so a caller that only gives a depth
    /// still gets an answer. Reports about once a second.
    pub fn search(
        &mut self,
        pos: &G,
        limits: Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) -> (Option<G::Move>, Info<G::Move>) {
        let knowledge = Knowledge {
            cap: self.playout_cap.unwrap_or(G::DEFAULT_MAX_PLIES),
            judge: |pos: &G, _| result(pos.adjudicate().winner, pos.side_to_move()),
            learned: None,
            scale: EVAL_SCALE,
            priority: |_, _| 0,
            forced: None,
            verify: None,
        };
        self.run(pos, limits, stop, on_info, &knowledge)
    }

    fn run(
        &mut self,
        pos: &G,
        limits: Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info<G::Move>),
        knowledge: &Knowledge<G>,
    ) -> (Option<G::Move>, Info<G::Move>) {
        // An iteration is a whole playout: look at the clock after each one.
        let limits = match limits.depth {
            Some(depth) => {
                let cap = u64::from(depth.max(1)) * ITERATIONS_PER_DEPTH;
                Limits { nodes: Some(limits.nodes.map_or(cap, |n| n.min(cap))), ..limits }
            }
            None => limits,
        };
        // Searches of at least VERIFY_MIN_TIME keep an eighth of their time for
        // checking the move to play; a search limited by iterations is MCTS
        // alone, so that its limit measures MCTS.
        let verify = match (limits.nodes, limits.time) {
            (Some(_), _) => None,
            (None, Some(time)) if time < VERIFY_MIN_TIME => None,
            (None, _) => knowledge.verify,
        };
        let search_limits = match (verify, limits.time) {
            (Some(_), Some(time)) => {
                Limits { time: Some(time - time / VERIFY_TIME_SHARE), ..limits }
            }
            _ => limits,
        };
        let mut clock = Clock::new(search_limits, stop, 1);
        self.scale = knowledge.scale;
        self.game_cap = limits.plies_left.unwrap_or(u32::MAX);
        self.adopt(pos);
        let mut iterations = 0u64;
        let mut seldepth = 0;
        let mut next_report = Duration::from_secs(1);
        // Run at least one iteration so a best move exists.
        while !self.tree.nodes[0].proof.is_known()
            && (iterations == 0 || !clock.must_stop(iterations))
        {
            iterations += 1;
            seldepth = seldepth.max(self.iterate(pos, knowledge));
            if clock.elapsed() >= next_report {
                next_report += Duration::from_secs(1);
                on_info(&self.info(iterations, seldepth, &clock));
            }
        }
        if let Some(verify) = verify {
            let left = limits.time.map(|time| time.saturating_sub(clock.elapsed()));
            verify(self, pos, stop, left, iterations);
        }
        let info = self.info(iterations, seldepth, &clock);
        on_info(&info);
        // A tree too small for the root's children still answers.
        let best = info.pv.first().copied().or_else(|| {
            self.moves.clear();
            pos.generate_moves(&mut self.moves);
            self.moves.first().copied()
        });
        (best, info)
    }

    /// Makes `pos` the root: the subtree of the old tree that reaches it
    /// within [`REUSE_PLIES`], or a fresh root.
    fn adopt(&mut self, pos: &G) {
        let found = match &self.root {
            Some(root) if !self.tree.nodes.is_empty() => {
                find(&self.tree, 0, root, pos, REUSE_PLIES)
            }
            _ => None,
        };
        match found {
            Some(node) => self.tree.reroot(node),
            None => {
                self.tree.clear();
                let mover = pos.side_to_move().other();
                let proof =
                    pos.outcome().map_or(Proof::Unknown, |o| Proof::of_end(o.winner, mover));
                // The budget is at least two nodes, so the root always fits.
                self.tree.make_room(1);
                self.tree.nodes.push(Node::new(None, mover, proof, 0.0));
            }
        }
        self.root = Some(pos.clone());
    }

    /// One iteration: selection, expansion, playout (or the proven result),
    /// backpropagation with proofs. Returns the depth reached in the tree.
    fn iterate(&mut self, pos: &G, knowledge: &Knowledge<G>) -> u32 {
        let mut state = pos.clone();
        self.path.clear();
        self.path.push(0);
        let mut node = 0;
        let mut depth = 0;
        // Down to a leaf; a leaf that fits and has been visited enough is
        // expanded and one child of it played. Nothing grows past the game's
        // ply cap.
        let budget = self.tree.budget();
        let ripe = (2 * self.tree.nodes.len()).saturating_sub(budget) * FULL_TREE_VISITS / budget;
        while !self.tree.nodes[node].proof.is_known() && depth < self.game_cap {
            let leaf = !self.tree.nodes[node].is_expanded();
            if leaf
                && ((self.tree.nodes[node].visits as usize) < ripe
                    || !self.expand(node, &state, knowledge)
                    || self.tree.nodes[node].proof.is_known())
            {
                break;
            }
            node = self.select(node);
            if let Some(mv) = self.tree.nodes[node].mv {
                state.play_unchecked(mv);
            }
            self.path.push(node);
            depth += 1;
            if leaf {
                break;
            }
        }
        let leaf = &self.tree.nodes[node];
        let first_wins = if leaf.proof.is_known() {
            let value = leaf.value();
            if leaf.mover == Player::First { value } else { 1.0 - value }
        } else if depth >= self.game_cap {
            result(state.outcome().unwrap_or_else(|| state.adjudicate()).winner, Player::First)
        } else {
            self.playout(&mut state, knowledge, self.game_cap - depth)
        };
        let mut child_proven = false;
        for (i, &n) in self.path.iter().enumerate().rev() {
            let node = &mut self.tree.nodes[n];
            node.add(if node.mover == Player::First { first_wins } else { 1.0 - first_wins });
            if child_proven && !node.proof.is_known() && i + 1 < self.path.len() {
                self.tree.update_proof(n);
            }
            child_proven = self.tree.nodes[n].proof.is_known();
        }
        self.path.len() as u32 - 1
    }

    /// Adds the children of `node` (at `state`) if they fit in the budget,
    /// proving those that end the game and the node if they decide it.
    fn expand(&mut self, node: usize, state: &G, knowledge: &Knowledge<G>) -> bool {
        self.moves.clear();
        state.generate_moves(&mut self.moves);
        if self.moves.is_empty() || !self.tree.make_room(self.moves.len()) {
            return false;
        }
        self.priorities.clear();
        self.priorities.extend(self.moves.iter().map(|&mv| (knowledge.priority)(state, mv)));
        let low = f64::from(self.priorities.iter().copied().min().unwrap_or(0));
        let high = f64::from(self.priorities.iter().copied().max().unwrap_or(0));
        let spread = (high - low).max(1.0);
        let mover = state.side_to_move();
        let first = self.tree.nodes.len();
        for (&mv, &priority) in self.moves.iter().zip(&self.priorities) {
            let mut next = state.clone();
            next.play_unchecked(mv);
            let proof = next.outcome().map_or(Proof::Unknown, |o| Proof::of_end(o.winner, mover));
            let bias = ((f64::from(priority) - low) / spread) as f32;
            self.tree.nodes.push(Node::new(Some(mv), mover, proof, bias));
        }
        let parent = &mut self.tree.nodes[node];
        parent.first_child = u32::try_from(first).unwrap_or(u32::MAX);
        parent.child_count = u32::try_from(self.moves.len()).unwrap_or(u32::MAX);
        self.tree.update_proof(node);
        true
    }

    /// The child of an unproven, expanded `node` to search: UCT with
    /// progressive bias, unvisited children first (highest bias first),
    /// never a child proven lost for its mover.
    fn select(&self, node: usize) -> usize {
        let log_parent = f64::from(self.tree.nodes[node].visits.max(1)).ln();
        let mut best = self.tree.nodes[node].first_child as usize;
        let mut best_value = f64::NEG_INFINITY;
        for child in self.tree.children(node) {
            let c = &self.tree.nodes[child];
            let n = f64::from(c.visits);
            let bias = f64::from(c.bias);
            let value = match c.proof {
                Proof::Loss(_) => continue,
                Proof::Win(_) => return child,
                _ if c.visits == 0 => 1e9 + bias,
                _ => {
                    c.value()
                        + EXPLORATION * (log_parent / n).sqrt()
                        + PROGRESSIVE_BIAS * bias / (n + 1.0)
                }
            };
            if value > best_value {
                best_value = value;
                best = child;
            }
        }
        best
    }

    /// Random moves from `state` up to the cap, and past it while every move
    /// is tactical (at most [`FORCED_PLIES`] more), never past the game's
    /// ply cap `remaining` plies ahead (where the game's adjudication
    /// decides); the value for the first player.
    fn playout(&mut self, state: &mut G, knowledge: &Knowledge<G>, remaining: u32) -> f64 {
        let mut plies = 0;
        loop {
            if plies >= remaining {
                break;
            }
            self.moves.clear();
            if plies >= knowledge.cap {
                // Past the cap only through forced tactical moves.
                let forced = match knowledge.forced {
                    Some(forced) if plies < knowledge.cap + FORCED_PLIES => forced,
                    _ => break,
                };
                if !forced(state, &mut self.moves) {
                    break;
                }
            } else {
                state.generate_moves(&mut self.moves);
            }
            let Some(&mv) = self.rng.choose(&self.moves) else { break };
            state.play_unchecked(mv);
            plies += 1;
        }
        self.playout_plies = plies;
        match state.outcome() {
            Some(outcome) => result(outcome.winner, Player::First),
            None if plies >= remaining => result(state.adjudicate().winner, Player::First),
            None => {
                let value = (knowledge.judge)(state, knowledge.learned.as_deref());
                if state.side_to_move() == Player::First { value } else { 1.0 - value }
            }
        }
    }

    /// Among `moves`, the root move the last search visited most (the first
    /// of `moves` if it visited none): the move to play when only these may
    /// be played.
    pub fn most_visited_among(&self, moves: &[G::Move]) -> Option<G::Move> {
        let nodes = &self.tree.nodes;
        let visited = (!nodes.is_empty())
            .then(|| self.tree.children(0))
            .into_iter()
            .flatten()
            .filter(|&c| nodes[c].mv.is_some_and(|mv| moves.contains(&mv)))
            .max_by_key(|&c| nodes[c].visits)
            .and_then(|c| nodes[c].mv);
        visited.or_else(|| moves.first().copied())
    }

    /// The move to play from `node`: the fastest proven win, else the most
    /// visited move not proven lost (a proven draw counts, visited or not),
    /// else the slowest loss.
    fn best_child(&self, node: usize) -> Option<usize> {
        let children = self.tree.children(node);
        let nodes = &self.tree.nodes;
        let fastest_win = children
            .clone()
            .filter_map(|c| match nodes[c].proof {
                Proof::Win(d) => Some((d, c)),
                _ => None,
            })
            .min();
        if let Some((_, c)) = fastest_win {
            return Some(c);
        }
        let most_visited = children
            .clone()
            .filter(|&c| match nodes[c].proof {
                Proof::Loss(_) => false,
                Proof::Unknown => nodes[c].visits > 0,
                _ => true,
            })
            .max_by(|&a, &b| {
                (nodes[a].visits, nodes[a].value())
                    .partial_cmp(&(nodes[b].visits, nodes[b].value()))
                    .unwrap_or(std::cmp::Ordering::Equal)
            });
        most_visited.or_else(|| {
            children
                .filter_map(|c| match nodes[c].proof {
                    Proof::Loss(d) => Some((d, c)),
                    _ => None,
                })
                .max()
                .map(|(_, c)| c)
        })
    }

    fn info(&self, iterations: u64, seldepth: u32, clock: &Clock<'_>) -> Info<G::Move> {
        let mut pv = Vec::new();
        let mut node = 0;
        while let Some(child) = self.best_child(node) {
            pv.extend(self.tree.nodes[child].mv);
            node = child;
        }
        let score = match self.best_child(0).map(|c| &self.tree.nodes[c]) {
            Some(best) => match best.proof {
                Proof::Win(d) => Score::Win(u32::from(d) + 1),
                Proof::Loss(d) => Score::Loss(u32::from(d) + 1),
                Proof::Draw => Score::Cp(0),
                Proof::Unknown => Score::Cp(centipawns(best.value(), self.scale)),
            },
            None => Score::Cp(0),
        };
        Info {
            depth: pv.len() as u32,
            seldepth,
            score,
            nodes: iterations,
            time: clock.elapsed(),
            pv,
            multipv: None,
        }
    }
}

impl<G: Evaluate> Mcts<G> {
    /// Judges evaluated playouts ([`search_with_evaluation`](Mcts::search_with_evaluation))
    /// and checks the move to play by `learned` weights from now on, or by
    /// the game's own evaluation ([`Evaluate::evaluate`]) with `None` (the
    /// default). A learned value `v` is worth `1 / (1 + exp(-v / K))`, `K`
    /// being the scale the weights were trained with ([`Learned::k`]), and
    /// scores are reported on that scale. A change of evaluation forgets
    /// the tree, whose values were the other evaluation's.
    pub fn set_learned(&mut self, learned: Option<Arc<Learned<G>>>) {
        if !crate::alphabeta::same_weights(self.learned.as_ref(), learned.as_ref()) {
            self.tree.clear();
            self.root = None;
        }
        self.learned = learned;
    }

    /// The value of `pos` for its side to move, 0 to 1, that an evaluated
    /// playout ending there is worth: the learned evaluation's, if one is
    /// set ([`set_learned`](Mcts::set_learned)), else the game's own
    /// (see [`EVAL_SCALE`]).
    pub fn judge(&self, pos: &G) -> f64 {
        judge_by_evaluation(pos, self.learned.as_deref())
    }

    /// As [`search`](Mcts::search), but a playout that reaches its cap
    /// (default: [`EVALUATED_PLAYOUT_CAP`] plies, or the game's cap if
    /// smaller; past it the playout goes on while every move is
    /// [tactical](board_core::Game::is_tactical), up to 8 plies more) is scored by
    /// the game's evaluation as a win probability (see [`EVAL_SCALE`]; the
    /// learned one on its own scale after [`set_learned`](Mcts::set_learned)), and
    /// moves with a higher
    /// [`Evaluate::move_priority`] get a progressive bias.
    ///
    /// A timed search of at least half a second keeps an eighth of its time
    /// for checking the move to play with alpha-beta (to depth 8 from the
    /// position after it; a move proven lost gives way to the next best). A
    /// search limited by iterations (`nodes`, or a depth, which caps the
    /// iterations) is not checked: its limit counts MCTS iterations alone,
    /// so equal `nodes` compare MCTS with MCTS.
    pub fn search_with_evaluation(
        &mut self,
        pos: &G,
        limits: Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) -> (Option<G::Move>, Info<G::Move>) {
        let knowledge = Knowledge {
            cap: self.playout_cap.unwrap_or(G::DEFAULT_MAX_PLIES.min(EVALUATED_PLAYOUT_CAP)),
            judge: judge_by_evaluation::<G>,
            learned: self.learned.clone(),
            scale: self.learned.as_deref().map_or(EVAL_SCALE, learned_scale),
            priority: G::move_priority,
            forced: G::COMPULSORY_TACTICAL.then_some(G::generate_tactical_forced),
            verify: self.verification.then_some(Self::verify_best),
        };
        self.run(pos, limits, stop, on_info, &knowledge)
    }

    /// Checks the move to play with alpha-beta (to [`VERIFY_DEPTH`] from the
    /// position after it): a move alpha-beta proves lost (or won) gets that
    /// proof in the tree, so the move to play becomes the next best one not
    /// proven lost, which is checked in turn. Spends at most
    /// [`VERIFY_NODES_PER_ITERATION`] per iteration (none below
    /// [`VERIFY_MIN_ITERATIONS`]), and no more than `time` (the share of a
    /// timed search kept for it, [`VERIFY_TIME_SHARE`]; timed searches
    /// shorter than [`VERIFY_MIN_TIME`] and searches limited by iterations
    /// are not checked).
    fn verify_best(&mut self, pos: &G, stop: &AtomicBool, time: Option<Duration>, iterations: u64) {
        if iterations < VERIFY_MIN_ITERATIONS {
            return;
        }
        let mut budget = iterations.saturating_mul(VERIFY_NODES_PER_ITERATION);
        let start = std::time::Instant::now();
        let mut verifier = self.verifier.take().unwrap_or_else(|| AlphaBeta::new(VERIFY_TABLE_MB));
        verifier.set_learned(self.learned.clone());
        for _ in 0..VERIFY_MOVES {
            let Some(child) = self.best_child(0) else { break };
            let node = &self.tree.nodes[child];
            let (Some(mv), Proof::Unknown) = (node.mv, node.proof) else { break };
            let mut next = pos.clone();
            next.play_unchecked(mv);
            let limits = Limits {
                depth: Some(VERIFY_DEPTH),
                nodes: Some(budget),
                time: time.map(|t| t.saturating_sub(start.elapsed())),
                plies_left: self.game_cap.checked_sub(1),
            };
            let (_, info) = verifier.search(&next, limits, stop, &mut |_| {});
            budget = budget.saturating_sub(info.nodes);
            // The value is for the side to move after `mv`.
            let proof = match info.score {
                Score::Win(n) => Proof::Loss(u16::try_from(n).unwrap_or(u16::MAX)),
                Score::Loss(n) => Proof::Win(u16::try_from(n).unwrap_or(u16::MAX)),
                Score::Cp(_) => break,
            };
            self.tree.nodes[child].proof = proof;
            self.tree.update_proof(0);
            if budget == 0 || matches!(proof, Proof::Win(_)) {
                break;
            }
        }
        self.verifier = Some(verifier);
    }
}

/// A finished game's reward for `player`: 1, ½ or 0.
fn result(winner: Option<Player>, player: Player) -> f64 {
    match winner {
        None => 0.5,
        Some(w) if w == player => 1.0,
        Some(_) => 0.0,
    }
}

/// The value of `pos` for its side to move by the learned evaluation on its
/// scale ([`learned_scale`]), or by the game's own on [`EVAL_SCALE`].
fn judge_by_evaluation<G: Evaluate>(pos: &G, learned: Option<&Learned<G>>) -> f64 {
    match learned {
        Some(learned) => win_probability(learned.evaluate(pos), learned_scale(learned)),
        None => win_probability(pos.evaluate(), EVAL_SCALE),
    }
}

/// The scale of learned values in a win probability: the `K` they were
/// trained with, or [`EVAL_SCALE`] if the file's `K` is not a positive number.
fn learned_scale<G: Evaluate>(learned: &Learned<G>) -> f64 {
    let k = f64::from(learned.k());
    if k.is_finite() && k > 0.0 { k } else { EVAL_SCALE }
}

/// The win probability of an evaluation on `scale` (see [`EVAL_SCALE`]).
fn win_probability(eval: i32, scale: f64) -> f64 {
    1.0 / (1.0 + (-f64::from(eval) / scale).exp())
}

/// The evaluation of a win probability on `scale`: the inverse of
/// [`win_probability`], kept within ±20 000.
fn centipawns(probability: f64, scale: f64) -> i32 {
    let p = probability.clamp(1e-9, 1.0 - 1e-9);
    (scale * (p / (1.0 - p)).ln()).round().clamp(-20_000.0, 20_000.0) as i32
}

/// The node below `node` (whose position is `pos`) whose position is
/// `target`, at most `plies` deep, through expanded nodes: matched by
/// zobrist key first, then by the whole position.
fn find<G: Game>(
    tree: &Tree<G::Move>,
    node: usize,
    pos: &G,
    target: &G,
    plies: u32,
) -> Option<usize> {
    if pos.zobrist() == target.zobrist() && pos == target {
        return Some(node);
    }
    if plies == 0 || !tree.nodes[node].is_expanded() {
        return None;
    }
    tree.children(node).find_map(|child| {
        let mut next = pos.clone();
        next.play_unchecked(tree.nodes[child].mv?);
        find(tree, child, &next, target, plies - 1)
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    use board_core::learned::Learned;
    use board_core::{Evaluate, Game, Rng};

    use super::{EVAL_SCALE, FORCED_PLIES, Mcts, win_probability};
    use crate::{AlphaBeta, Limits, Score};

    /// Whether alpha-beta to depth 8 proves `mv` lost for the side playing it.
    fn proven_lost(pos: &city::Position, mv: city::Move) -> bool {
        let mut after = *pos;
        after.play_unchecked(mv);
        let stop = AtomicBool::new(false);
        let (_, info) = AlphaBeta::new(4).search(&after, Limits::depth(8), &stop, &mut |_| {});
        matches!(info.score, Score::Win(_))
    }

    /// City `8`: MCTS alone (10 000 iterations) prefers `a1-a9` or `i1-i9`,
    /// each lost in 7; the alpha-beta check with the budget of such a search
    /// proves it lost and leaves a move it does not prove lost.
    #[test]
    fn the_check_gives_up_a_move_alpha_beta_proves_lost_in_city_8() {
        let start = city::Position::start("8".parse().expect("variant 8"));
        let stop = AtomicBool::new(false);
        let mut searcher = Mcts::new(1);
        let (alone, _) =
            searcher.search_with_evaluation(&start, Limits::nodes(10_000), &stop, &mut |_| {});
        let alone = alone.expect("a move");
        assert!(proven_lost(&start, alone), "{alone}: the test needs MCTS to prefer a lost move");
        searcher.verify_best(&start, &stop, None, 10_000);
        let checked = searcher.best_child(0).and_then(|c| searcher.tree.nodes[c].mv);
        let checked = checked.expect("a move");
        assert_ne!(checked, alone);
        assert!(!proven_lost(&start, checked), "{checked} is proven lost too");
    }

    /// Stykovka positions of random games, 4 to 25 plies from the start.
    fn stykovka_positions() -> Vec<stykovka::Position> {
        let all = board_core::testkit::random_positions::<stykovka::Position>(2, 25);
        all.into_iter().skip(3).step_by(3).filter(|pos| !pos.is_over()).collect()
    }

    /// With learned weights set, an evaluated playout's judge is the learned
    /// value on the weights' scale `K`, not the classic one on 200; with
    /// `None` again it is the classic one.
    #[test]
    fn the_judge_is_the_learned_evaluation_on_its_scale_when_set() {
        let learned = Arc::new(Learned::<stykovka::Position>::shipped().expect("weights"));
        let k = f64::from(learned.k());
        assert!(k > 0.0 && (k - EVAL_SCALE).abs() > 1.0, "K {k}: the test needs another scale");
        let mut searcher = Mcts::<stykovka::Position>::new(1);
        let positions = stykovka_positions();
        assert!(positions.len() >= 6);
        let mut differ = 0;
        for pos in &positions {
            let classic = win_probability(pos.evaluate(), EVAL_SCALE);
            searcher.set_learned(None);
            assert_eq!(searcher.judge(pos), classic);
            searcher.set_learned(Some(Arc::clone(&learned)));
            let value = learned.evaluate(pos);
            assert_eq!(searcher.judge(pos), 1.0 / (1.0 + (-f64::from(value) / k).exp()));
            if (searcher.judge(pos) - classic).abs() > 1e-6 {
                differ += 1;
            }
        }
        assert!(differ * 2 > positions.len(), "{differ} of {} differ", positions.len());
    }

    /// A search with learned weights reports its score on their scale, a
    /// change of evaluation forgets the tree (the same weights again keep
    /// it), and the alpha-beta check of the move to play gets the weights.
    #[test]
    fn learned_weights_reach_the_score_the_tree_and_the_check() {
        let learned = Arc::new(Learned::<stykovka::Position>::shipped().expect("weights"));
        let pos = stykovka_positions().pop().expect("a position");
        let stop = AtomicBool::new(false);
        let mut searcher = Mcts::<stykovka::Position>::new(5);
        let (_, classic) =
            searcher.search_with_evaluation(&pos, Limits::nodes(2000), &stop, &mut |_| {});
        assert!(searcher.tree_nodes() > 1);
        searcher.set_learned(Some(Arc::clone(&learned)));
        assert_eq!(searcher.tree_nodes(), 0, "the classic tree was kept");
        let (_, info) =
            searcher.search_with_evaluation(&pos, Limits::nodes(2000), &stop, &mut |_| {});
        assert_ne!(info.score, classic.score);
        let best = searcher.best_child(0).expect("a move");
        let value = searcher.tree.nodes[best].value();
        let scale = f64::from(learned.k());
        assert_eq!(info.score, Score::Cp(super::centipawns(value, scale)));
        assert_ne!(super::centipawns(value, scale), super::centipawns(value, EVAL_SCALE));
        let nodes = searcher.tree_nodes();
        searcher.set_learned(Some(Arc::clone(&learned)));
        assert_eq!(searcher.tree_nodes(), nodes, "the same weights forgot the tree");
        searcher.verify_best(&pos, &stop, None, 2000);
        let checked = searcher.verifier.as_ref().and_then(AlphaBeta::learned);
        assert!(checked.is_some_and(|w| Arc::ptr_eq(w, &learned)), "the check searched classic");
        searcher.set_learned(None);
        searcher.clear();
        let (_, again) =
            searcher.search_with_evaluation(&pos, Limits::nodes(2000), &stop, &mut |_| {});
        assert_eq!(again.score, classic.score, "not the classic search again");
        searcher.verify_best(&pos, &stop, None, 2000);
        assert!(searcher.verifier.as_ref().is_some_and(|v| v.learned().is_none()));
    }

    fn random_move(pos: &mut hexdraughts::Position, rng: &mut Rng) -> bool {
        let Some(&mv) = rng.choose(&pos.legal_moves()) else { return false };
        pos.play_unchecked(mv);
        true
    }

    /// An evaluated playout of one ply goes on while every move is a
    /// compulsory capture, so the evaluation sees a quiet position.
    #[test]
    fn evaluated_playouts_go_on_through_compulsory_captures() {
        let mut searcher = Mcts::<hexdraughts::Position>::new(1);
        let knowledge = super::Knowledge {
            cap: 1,
            judge: |_: &hexdraughts::Position, _| 0.5,
            learned: None,
            scale: super::EVAL_SCALE,
            priority: |_, _| 0,
            forced: Some(hexdraughts::Position::generate_tactical_forced),
            verify: None,
        };
        let all_tactical = |pos: &hexdraughts::Position| {
            let moves = pos.legal_moves();
            !moves.is_empty() && moves.iter().all(|&mv| pos.is_tactical(mv))
        };
        let (mut extended, mut quiet_ends) = (0, 0);
        let mut rng = Rng::new(7);
        for game in 0..40 {
            let mut pos = hexdraughts::Position::default();
            for _ in 0..(game % 20) * 3 {
                if !random_move(&mut pos, &mut rng) {
                    break;
                }
            }
            for _ in 0..20 {
                let mut state = pos;
                searcher.playout(&mut state, &knowledge, u32::MAX);
                let plies = searcher.playout_plies;
                assert!((1..=1 + FORCED_PLIES).contains(&plies) || state.is_over());
                if plies > 1 {
                    extended += 1;
                }
                // It stops at the first quiet position, the end, or the limit.
                if !state.is_over() && plies < 1 + FORCED_PLIES {
                    assert!(!all_tactical(&state), "{plies} plies");
                    quiet_ends += 1;
                }
                if !random_move(&mut pos, &mut rng) {
                    break;
                }
            }
        }
        assert!(extended > 10, "{extended} playouts went past the cap");
        assert!(quiet_ends > 100);
    }
}
