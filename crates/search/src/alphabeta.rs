//! Alpha-beta: negamax with iterative deepening, aspiration windows,
//! principal variation search, a transposition table shared by Lazy-SMP
//! threads, move ordering (table move, tactical moves, killers, history),
//! late-move reductions and quiescence search, over any game with an
//! [`Evaluate`] implementation.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use board_core::learned::Learned;
use board_core::{Evaluate, Game, Outcome};

use crate::limits::{Clock, Info, Limits, Score};
use crate::picker::{DONE_KEY, KILLER_KEY, Picker, QuietOrder, TABLE_KEY, TACTICAL_KEY, next_move};
use crate::table::{Bound, Entry, Table};

/// Values at or beyond this are proven wins (minus the plies to reach them).
const WIN: i32 = 1_000_000;
const WIN_BOUND: i32 = WIN - 10_000;
const INFINITY: i32 = WIN + 1;
/// The deepest iteration when no depth limit is given.
pub const MAX_DEPTH: u32 = 100;
/// How many plies the engine's quiescence search may go past the horizon:
/// each more ply multiplies City's capture trees (dozens of captures at
/// once on its lines) several times; at 4, `bench 5` in City searches about
/// as many nodes as it did without quiescence, at 6 eight times as many.
pub const QUIESCENCE_PLIES: u32 = 4;

/// The first depth searched with an aspiration window around the last value.
const ASPIRATION_DEPTH: u32 = 4;
/// The aspiration window's first half width; it grows fourfold on each miss.
const ASPIRATION_WINDOW: i32 = 30;
/// Moves tried before late-move reductions start, and the least depth.
const LMR_MOVES: usize = 3;
const LMR_DEPTH: u32 = 3;
/// Threads look at the clock, and helpers add to the node count, once per
/// this many nodes.
const NODE_BATCH: u64 = 1024;
/// History values stay within ±this.
const HISTORY_MAX: i32 = 1 << 14;

/// The value-changing parts of the search. Everything else it does (the
/// table, move ordering, principal variation search, aspiration windows)
/// changes only its speed, never the value of a one-thread search to a fixed
/// depth: with both parts off that value is plain minimax's (the tests check
/// it), and with only quiescence on it is the minimax of the same tree
/// extended by the quiescence rule. More threads change values: helper
/// threads leave deeper results in the shared table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pruning {
    /// Quiescence search: at the horizon, go on searching tactical moves
    /// ([`Game::is_tactical`](board_core::Game::is_tactical)) for up to this many plies, after which the
    /// evaluation counts (0: no quiescence). The side to move may stand on
    /// the evaluation instead of playing one, unless every legal move is
    /// tactical (a compulsory capture): then it must play one of them.
    pub quiescence_plies: u32,
    /// Search late quiet moves (not the table move, a tactical move or a
    /// killer) one or two plies shallower first, and again at full depth if
    /// they turn out better than the best so far.
    pub late_move_reductions: bool,
}

impl Pruning {
    /// Both on: what the engine plays with.
    pub const ALL: Pruning =
        Pruning { quiescence_plies: QUIESCENCE_PLIES, late_move_reductions: true };
    /// Both off: fixed-depth minimax values.
    pub const NONE: Pruning = Pruning { quiescence_plies: 0, late_move_reductions: false };
}

impl Default for Pruning {
    fn default() -> Self {
        Pruning::ALL
    }
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
    table: Table,
    threads: usize,
    shortfall: Option<ThreadShortfall>,
    pruning: Pruning,
    lines: usize,
    learned: Option<Arc<Learned<G>>>,
    game: std::marker::PhantomData<fn() -> G>,
}

impl<G: Evaluate> AlphaBeta<G> {
    /// A one-thread searcher with every pruning and a transposition table of
    /// about `hash_mb` megabytes (at least one entry).
    pub fn new(hash_mb: usize) -> Self {
        AlphaBeta {
            table: Table::new(hash_mb),
            threads: 1,
            shortfall: None,
            pruning: Pruning::ALL,
            lines: 1,
            learned: None,
            game: std::marker::PhantomData,
        }
    }

    /// The same searcher with other prunings.
    #[must_use]
    pub fn with_pruning(mut self, pruning: Pruning) -> Self {
        self.pruning = pruning;
        self
    }

    /// Searches with `threads` threads (at least one) from now on: Lazy SMP,
    /// helpers sharing the table and searching at other depths in other
    /// orders; the calling thread's result counts. Helpers that cannot be
    /// started (a memory limit) are done without.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// Reports the best `lines` root moves (at least 1; UCI's `MultiPV`)
    /// from now on: each iteration searches the root again for each line
    /// with the moves of the lines before it left out, so every line's
    /// score is exact, and reports them best first (`Info::multipv` 1, 2,
    /// ...). The best move is line 1's. With 1 (the default) the search is
    /// the one-line search, node for node, and its infos carry no `multipv`.
    pub fn set_multi_pv(&mut self, lines: usize) {
        self.lines = lines.max(1);
    }

    /// Values positions by `learned` weights from now on, or by the game's
    /// own evaluation ([`Evaluate::evaluate`]) with `None` (the default). A
    /// change of evaluation empties the table, whose values were the other
    /// evaluation's.
    pub fn set_learned(&mut self, learned: Option<Arc<Learned<G>>>) {
        if !same_weights(self.learned.as_ref(), learned.as_ref()) {
            self.table.clear();
        }
        self.learned = learned;
    }

    /// The learned evaluation it values positions by, if any.
    #[cfg(test)]
    pub(crate) fn learned(&self) -> Option<&Arc<Learned<G>>> {
        self.learned.as_ref()
    }

    /// The threads the last search could not start (a thread or memory
    /// limit): it searched with those that started.
    pub fn shortfall(&self) -> Option<&ThreadShortfall> {
        self.shortfall.as_ref()
    }

    /// Forgets everything learnt (a new game), so that a game's searches do
    /// not depend on the games before it (empties the table: a memset).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Searches `pos` by iterative deepening within `limits` or until `stop`
    /// is raised; calls `on_info` after each completed depth. Returns the best
    /// move (`None` only when the game is over) and the final info; its node
    /// count includes the helper threads'.
    pub fn search(
        &mut self,
        pos: &G,
        limits: Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) -> (Option<G::Move>, Info<G::Move>) {
        self.search_among(pos, pos.legal_moves(), limits, stop, on_info)
    }

    /// As [`search`](AlphaBeta::search), with only `root_moves` (legal moves
    /// of `pos`) searched at the root: UCI's `go searchmoves`.
    pub fn search_among(
        &mut self,
        pos: &G,
        mut root_moves: Vec<G::Move>,
        limits: Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info<G::Move>),
    ) -> (Option<G::Move>, Info<G::Move>) {
        self.table.new_search();
        let helper_nodes = AtomicU64::new(0);
        let clock = Clock::new(limits, stop, NODE_BATCH);
        let mut main = Thread::new(
            &self.table,
            self.learned.as_deref(),
            self.pruning,
            clock,
            None,
            limits.plies_left,
        );
        let mut info = Info {
            depth: 0,
            seldepth: 0,
            score: terminal_score(pos, 0).map_or(Score::Cp(0), to_score),
            nodes: 0,
            time: main.clock.elapsed(),
            pv: Vec::new(),
            multipv: None,
        };
        if root_moves.is_empty() {
            return (None, info);
        }
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let helpers_stop = AtomicBool::new(false);
        let mut shortfall = None;
        let best = std::thread::scope(|scope| {
            for id in 1..self.threads {
                let (table, pruning, learned) =
                    (&self.table, self.pruning, self.learned.as_deref());
                let (helpers_stop, helper_nodes) = (&helpers_stop, &helper_nodes);
                let mut moves = root_moves.clone();
                moves.rotate_left(id % root_moves.len());
                // Made here, not in the helper: under a memory limit the
                // stacks of the helpers started take what is left, and a
                // helper could not allocate its buffers (an abort).
                let clock = Clock::new(Limits::default(), helpers_stop, NODE_BATCH);
                let mut helper = Thread::new(
                    table,
                    learned,
                    pruning,
                    clock,
                    Some(helper_nodes),
                    limits.plies_left,
                );
                let builder = std::thread::Builder::new().name("igroteka-helper".to_owned());
                let spawned = builder.spawn_scoped(scope, move || {
                    // Odd helpers run a ply ahead of the main thread.
                    let first = 1 + u32::try_from(id % 2).unwrap_or(0);
                    helper.deepen(pos, &mut moves, 1, first..=MAX_DEPTH, |_, _, _, _| true);
                    helper_nodes.fetch_add(helper.nodes % NODE_BATCH, Ordering::Relaxed);
                });
                // Under a thread or memory limit: search with those started.
                if let Err(e) = spawned {
                    let asked = self.threads;
                    shortfall = Some(ThreadShortfall { started: id, asked, error: e.to_string() });
                    break;
                }
            }
            let multi = self.lines > 1;
            let lines = self.lines;
            let report = |main: &mut Thread<'_, G>, depth, values: &[i32], moves: &[G::Move]| {
                for (line, (&value, &mv)) in values.iter().zip(moves).enumerate() {
                    let line_info = Info {
                        depth,
                        seldepth: main.seldepth,
                        score: to_score(value),
                        nodes: main.nodes + helper_nodes.load(Ordering::Relaxed),
                        time: main.clock.elapsed(),
                        pv: main.principal_variation(pos, mv, depth),
                        multipv: multi.then(|| u32::try_from(line + 1).unwrap_or(u32::MAX)),
                    };
                    on_info(&line_info);
                    if line == 0 {
                        // Line 1's: the search's result.
                        info = line_info;
                    }
                }
                // Deep enough when every line is a proven result.
                let proven = values.iter().all(|value| {
                    value.abs() >= WIN_BOUND
                        && u32::try_from(WIN - value.abs()).is_ok_and(|plies| plies <= depth)
                });
                !proven && !half_gone(limits.time, main.clock.elapsed())
            };
            let best = main.deepen(pos, &mut root_moves, lines, 1..=max_depth, report);
            helpers_stop.store(true, Ordering::Relaxed);
            best
        });
        self.shortfall = shortfall;
        info.nodes = main.nodes + helper_nodes.load(Ordering::Relaxed);
        info.time = main.clock.elapsed();
        if info.pv.first() != Some(&best) {
            info.pv = vec![best];
        }
        (Some(best), info)
    }
}

/// Threads a search was asked for and could not start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadShortfall {
    /// The threads that searched, the calling one included.
    pub started: usize,
    /// The threads asked for.
    pub asked: usize,
    /// Why the next one could not start.
    pub error: String,
}

impl fmt::Display for ThreadShortfall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ThreadShortfall { started, asked, error } = self;
        write!(f, "searched with {started} of {asked} threads: no more could start ({error})")
    }
}

/// Sorts `values` from best to worst, and `moves` (as many) along, keeping
/// the order of equal values (an insertion sort: a few lines).
fn sort_lines<M>(values: &mut [i32], moves: &mut [M]) {
    for i in 1..values.len() {
        let mut j = i;
        while j > 0 && values[j - 1] < values[j] {
            values.swap(j - 1, j);
            moves.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Whether half the time is gone: a next iteration would not finish.
fn half_gone(time: Option<Duration>, elapsed: Duration) -> bool {
    time.is_some_and(|t| elapsed * 2 >= t)
}

/// One ply's buffers: no allocation per node.
struct Ply<M> {
    moves: Vec<M>,
    keys: Vec<i32>,
    /// The quiet moves tried at this node, for the history.
    quiets: Vec<M>,
    /// Two quiet moves that refuted a sibling line.
    killers: [Option<M>; 2],
}

impl<M> Default for Ply<M> {
    fn default() -> Self {
        Ply { moves: Vec::new(), keys: Vec::new(), quiets: Vec::new(), killers: [None, None] }
    }
}

/// What one thread of a search owns.
struct Thread<'a, G: Game> {
    table: &'a Table,
    /// The learned evaluation, if the search uses one.
    learned: Option<&'a Learned<G>>,
    pruning: Pruning,
    clock: Clock<'a>,
    plies: Vec<Ply<G::Move>>,
    /// By side to move and [`Game::move_index`](board_core::Game::move_index): how good quiet moves were.
    history: Vec<i32>,
    nodes: u64,
    /// A helper's running count for the main thread's reports.
    tally: Option<&'a AtomicU64>,
    seldepth: u32,
    /// The ply (from the root) at which the game's ply cap ends the game.
    cap: u32,
}

impl<'a, G: Evaluate> Thread<'a, G> {
    fn new(
        table: &'a Table,
        learned: Option<&'a Learned<G>>,
        pruning: Pruning,
        clock: Clock<'a>,
        tally: Option<&'a AtomicU64>,
        cap: Option<u32>,
    ) -> Self {
        Thread {
            cap: cap.unwrap_or(u32::MAX),
            table,
            learned,
            pruning,
            clock,
            plies: Vec::new(),
            history: vec![0; 2 * G::MOVE_INDEX_BOUND],
            nodes: 0,
            tally,
            seldepth: 0,
        }
    }

    /// Counts a node at `ply`; says whether the search must stop.
    fn enter(&mut self, ply: u32) -> bool {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if let Some(tally) = self.tally
            && self.nodes.is_multiple_of(NODE_BATCH)
        {
            tally.fetch_add(NODE_BATCH, Ordering::Relaxed);
        }
        self.clock.must_stop(self.nodes)
    }

    /// Iterative deepening over `depths` reporting the best `lines` root
    /// moves (1: the best only); after each completed depth calls
    /// `done(self, depth, values, moves)` with the lines' exact values and
    /// first moves, best first, which says whether to go on. Returns the
    /// best move.
    fn deepen(
        &mut self,
        pos: &G,
        root_moves: &mut [G::Move],
        lines: usize,
        depths: std::ops::RangeInclusive<u32>,
        mut done: impl FnMut(&mut Self, u32, &[i32], &[G::Move]) -> bool,
    ) -> G::Move {
        let lines = lines.clamp(1, root_moves.len());
        let mut best = root_moves[0];
        // The last depth's value of each line, for its aspiration window.
        let mut last: Vec<Option<i32>> = vec![None; lines];
        let mut values = vec![0; lines];
        for depth in depths {
            let mut complete = true;
            for line in 0..lines {
                // Line `line` searches the root without the moves of the
                // lines before it, which stand at the front of `root_moves`.
                let (value, iteration_best, line_complete) =
                    self.aspiration(pos, &mut root_moves[line..], depth, last[line]);
                if line == 0 && (line_complete || iteration_best != best) {
                    // An aborted iteration still improves on the last one if it
                    // proved its first (previous best) move worse than another.
                    best = iteration_best;
                }
                if !line_complete {
                    complete = false;
                    break;
                }
                values[line] = value;
            }
            if lines > 1 && complete {
                // An unstable search (reductions, the table) may value a
                // later line above an earlier one: best first all the same.
                sort_lines(&mut values, &mut root_moves[..lines]);
                best = root_moves[0];
            }
            if !complete || !done(self, depth, &values, &root_moves[..lines]) {
                break;
            }
            for (last, &value) in last.iter_mut().zip(&values) {
                *last = Some(value);
            }
        }
        best
    }

    /// One iteration at the root, with a window around the `last` value
    /// that widens until the value falls inside. Returns (value, best, complete).
    fn aspiration(
        &mut self,
        pos: &G,
        root_moves: &mut [G::Move],
        depth: u32,
        last: Option<i32>,
    ) -> (i32, G::Move, bool) {
        let Some(guess) = last.filter(|v| depth >= ASPIRATION_DEPTH && v.abs() < WIN_BOUND) else {
            return self.root(pos, root_moves, depth, -INFINITY, INFINITY);
        };
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = (guess - delta, guess + delta);
        loop {
            let (value, best, complete) = self.root(pos, root_moves, depth, alpha, beta);
            if !complete || (alpha < value && value < beta) {
                return (value, best, complete);
            }
            delta = delta.saturating_mul(4);
            if value <= alpha {
                alpha = value.saturating_sub(delta).max(-INFINITY);
            } else {
                beta = value.saturating_add(delta).min(INFINITY);
            }
        }
    }

    /// One search of the root within (alpha, beta). When the best move beats
    /// alpha it goes to the front of `root_moves` for the next search.
    /// Returns (value, best, complete).
    fn root(
        &mut self,
        pos: &G,
        root_moves: &mut [G::Move],
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, G::Move, bool) {
        let original_alpha = alpha;
        let mut best_value = -INFINITY;
        let mut best = 0;
        for (i, &mv) in root_moves.iter().enumerate() {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let value = self.principal(&child, depth - 1, 1, alpha, beta, i == 0, 0);
            if self.clock.stopped() {
                return (best_value, root_moves[best], false);
            }
            if value > best_value {
                best_value = value;
                best = i;
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        if best_value > original_alpha {
            root_moves[..=best].rotate_right(1);
        }
        (best_value, root_moves[0], true)
    }

    /// The value of `child` (a move played from a node at `ply - 1`) for the
    /// parent, by principal variation search: the first move with the full
    /// window, others with a null window (reduced by `reduction` plies
    /// first), searched again only when they beat alpha.
    #[allow(clippy::too_many_arguments)]
    fn principal(
        &mut self,
        child: &G,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
        first: bool,
        reduction: u32,
    ) -> i32 {
        if first {
            return -self.negamax(child, depth, ply, -beta, -alpha);
        }
        let mut value = -self.negamax(child, depth - reduction, ply, -alpha - 1, -alpha);
        if reduction > 0 && value > alpha && !self.clock.stopped() {
            value = -self.negamax(child, depth, ply, -alpha - 1, -alpha);
        }
        if value > alpha && value < beta && !self.clock.stopped() {
            value = -self.negamax(child, depth, ply, -beta, -alpha);
        }
        value
    }

    /// This ply's buffers, made on first use.
    fn reach(&mut self, ply: u32) -> usize {
        let level = ply as usize;
        if self.plies.len() <= level {
            self.plies.resize_with(level + 1, Ply::default);
        }
        level
    }

    fn negamax(&mut self, pos: &G, depth: u32, ply: u32, mut alpha: i32, beta: i32) -> i32 {
        if depth == 0 {
            return self.quiesce(pos, ply, alpha, beta, 0);
        }
        if self.enter(ply) {
            return 0;
        }
        if ply >= self.cap {
            return capped_score(pos, ply);
        }
        // The table first: a cut-off costs no move generation.
        let key = pos.zobrist();
        let mut table_code = None;
        if let Some(entry) = self.table.probe(key) {
            table_code = Some(entry.code);
            if u32::from(entry.depth) >= depth
                && let Some(value) = cutoff(entry, ply, alpha, beta)
            {
                return value;
            }
        }

        let level = self.reach(ply);
        let killers = self.plies[level].killers;
        let side = pos.side_to_move().index() * G::MOVE_INDEX_BOUND;
        let ply_moves = std::mem::take(&mut self.plies[level].moves);
        let ply_keys = std::mem::take(&mut self.plies[level].keys);
        let mut picker = Picker::new(ply_moves, ply_keys, table_code);
        let mut quiets = std::mem::take(&mut self.plies[level].quiets);
        quiets.clear();

        let original_alpha = alpha;
        let mut best_value = -INFINITY;
        let mut best = None;
        let mut tried = 0;
        loop {
            let history = self.history.get(side..side + G::MOVE_INDEX_BOUND).unwrap_or(&[]);
            let Some((mv, key)) = picker.next(pos, &QuietOrder { killers, history }) else {
                break;
            };
            // Neither the table move, nor tactical, nor a killer.
            let quiet = key < KILLER_KEY;
            tried += 1;
            let reduction = if self.pruning.late_move_reductions
                && quiet
                && depth >= LMR_DEPTH
                && tried > LMR_MOVES
            {
                if depth >= 6 && tried > 3 * LMR_MOVES { 2 } else { 1 }
            } else {
                0
            };
            let mut child = pos.clone();
            child.play_unchecked(mv);
            let value =
                self.principal(&child, depth - 1, ply + 1, alpha, beta, tried == 1, reduction);
            if self.clock.stopped() {
                self.give_back(level, picker, quiets);
                return 0;
            }
            if value > best_value {
                best_value = value;
                best = Some(mv);
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                let tactical = key >= TACTICAL_KEY && (key != TABLE_KEY || pos.is_tactical(mv));
                if !tactical {
                    self.reward(pos, &quiets, mv, depth);
                    if killers[0].as_ref() != Some(&mv) {
                        self.plies[level].killers = [Some(mv), killers[0]];
                    }
                }
                break;
            }
            if quiet {
                quiets.push(mv);
            }
        }
        self.give_back(level, picker, quiets);
        let Some(best) = best else {
            return terminal_score(pos, ply).unwrap_or(0);
        };
        let bound = bound_of(best_value, original_alpha, beta);
        // A node that failed low knows no best move: keep the table's.
        let code = pos.move_code(best);
        let entry = Entry {
            code,
            value: to_table(best_value, ply),
            depth: u8::try_from(depth).unwrap_or(u8::MAX),
            bound,
        };
        self.table.store(key, entry);
        best_value
    }

    /// Puts a node's buffers back into its ply.
    fn give_back(&mut self, level: usize, picker: Picker<G::Move>, quiets: Vec<G::Move>) {
        let (moves, keys) = picker.into_buffers();
        let buffers = &mut self.plies[level];
        buffers.moves = moves;
        buffers.keys = keys;
        buffers.quiets = quiets;
    }

    /// The static evaluation (the learned one, if any) with the side to
    /// move's bonus ([`Evaluate::TEMPO`]), kept below proven values.
    fn evaluate(&self, pos: &G) -> i32 {
        let value = match self.learned {
            Some(learned) => learned.evaluate(pos),
            None => pos.evaluate(),
        };
        (value + G::TEMPO).clamp(-WIN_BOUND + 1, WIN_BOUND - 1)
    }

    /// Past the horizon: the evaluation, or better a tactical move. When
    /// every move is tactical (a compulsory capture) the side to move cannot
    /// stand on the evaluation and all are searched.
    fn quiesce(&mut self, pos: &G, ply: u32, mut alpha: i32, beta: i32, qply: u32) -> i32 {
        if self.enter(ply) {
            return 0;
        }
        if ply >= self.cap {
            return capped_score(pos, ply);
        }
        if qply >= self.pruning.quiescence_plies {
            return terminal_score(pos, ply).unwrap_or_else(|| self.evaluate(pos));
        }
        // The table (where the game asks for it), under a key of its own for
        // each number of quiescence plies left (each is another tree).
        let key = pos.zobrist() ^ quiescence_salt(self.pruning.quiescence_plies - qply);
        let mut table_code = None;
        if G::QUIESCENCE_TABLE
            && let Some(entry) = self.table.probe(key)
        {
            if let Some(value) = cutoff(entry, ply, alpha, beta) {
                return value;
            }
            table_code = Some(entry.code);
        }
        let level = self.reach(ply);
        let mut moves = std::mem::take(&mut self.plies[level].moves);
        moves.clear();
        let forced = pos.generate_tactical_forced(&mut moves);
        if moves.is_empty() {
            self.plies[level].moves = moves;
            return terminal_score(pos, ply).unwrap_or_else(|| self.evaluate(pos));
        }
        let mut keys = std::mem::take(&mut self.plies[level].keys);
        keys.clear();
        keys.extend(moves.iter().map(|&mv| match table_code {
            Some(code) if pos.move_code(mv) == code => TABLE_KEY,
            _ => pos.move_priority(mv).max(DONE_KEY + 1),
        }));
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        if !forced {
            best = self.evaluate(pos);
            alpha = alpha.max(best);
        }
        while alpha < beta {
            let Some((pick, _)) = next_move(&mut keys) else { break };
            let mut child = pos.clone();
            child.play_unchecked(moves[pick]);
            let value = -self.quiesce(&child, ply + 1, -beta, -alpha, qply + 1);
            if self.clock.stopped() {
                self.plies[level].keys = keys;
                self.plies[level].moves = moves;
                return 0;
            }
            if value > best {
                best = value;
                best_move = Some(moves[pick]);
            }
            alpha = alpha.max(value);
        }
        self.plies[level].keys = keys;
        self.plies[level].moves = moves;
        let bound = bound_of(best, original_alpha, beta);
        // Standing on the evaluation names no move: keep the table's, if any.
        let code = best_move.map(|mv| pos.move_code(mv)).or(table_code);
        if G::QUIESCENCE_TABLE
            && let Some(code) = code
        {
            self.table.store(key, Entry { code, value: to_table(best, ply), depth: 0, bound });
        }
        best
    }

    /// History: the quiet move `cut` refuted the line; the quiet moves tried
    /// before it (`quiets`) did not.
    fn reward(&mut self, pos: &G, quiets: &[G::Move], cut: G::Move, depth: u32) {
        let side = pos.side_to_move().index() * G::MOVE_INDEX_BOUND;
        let bonus = i32::try_from(depth * depth).unwrap_or(HISTORY_MAX).min(HISTORY_MAX);
        let changes = quiets.iter().map(|&mv| (mv, -bonus)).chain([(cut, bonus)]);
        for (mv, change) in changes {
            if let Some(h) = self.history.get_mut(side + pos.move_index(mv)) {
                // Gravity: the nearer the bound, the smaller the step.
                *h += change - *h * change.abs() / HISTORY_MAX;
            }
        }
    }

    /// The best move, then the table's best moves as far as they go.
    fn principal_variation(&self, pos: &G, best: G::Move, depth: u32) -> Vec<G::Move> {
        let mut pv = vec![best];
        let mut pos = pos.clone();
        pos.play_unchecked(best);
        let mut moves = Vec::new();
        while pv.len() < depth as usize {
            let Some(code) = self.table.probe(pos.zobrist()).map(|e| e.code) else {
                break;
            };
            let decoded = pos.move_from_code(code).or_else(|| {
                moves.clear();
                pos.generate_moves(&mut moves);
                moves.iter().copied().find(|&mv| pos.move_code(mv) == code)
            });
            let Some(mv) = decoded else {
                break;
            };
            pos.play_unchecked(mv);
            pv.push(mv);
        }
        pv
    }
}

/// The value of a table entry found `ply` plies from the root, when it
/// decides the node's value within (alpha, beta).
fn cutoff(entry: Entry, ply: u32, alpha: i32, beta: i32) -> Option<i32> {
    let value = from_table(entry.value, ply);
    let decides = match entry.bound {
        Bound::Exact => true,
        Bound::Lower => value >= beta,
        Bound::Upper => value <= alpha,
    };
    decides.then_some(value)
}

/// What a searched `value` says about the true value, searched within
/// (`alpha`, `beta`).
fn bound_of(value: i32, alpha: i32, beta: i32) -> Bound {
    if value <= alpha {
        Bound::Upper
    } else if value >= beta {
        Bound::Lower
    } else {
        Bound::Exact
    }
}

/// Xored into the key of a quiescence node with `plies_left` plies of
/// quiescence to go, so that its table entries meet only nodes with as many.
fn quiescence_salt(plies_left: u32) -> u64 {
    u64::from(plies_left + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The value of a finished position for the side to move, found `ply` plies
/// from the root; `None` while the game goes on.
fn terminal_score<G: Game>(pos: &G, ply: u32) -> Option<i32> {
    pos.outcome().map(|outcome| end_score(pos, outcome, ply))
}

/// The value of a position at the game's ply cap: its result by the rules,
/// or else the cap's adjudication, as final as a result by the rules.
fn capped_score<G: Game>(pos: &G, ply: u32) -> i32 {
    end_score(pos, pos.outcome().unwrap_or_else(|| pos.adjudicate()), ply)
}

fn end_score<G: Game>(pos: &G, outcome: Outcome, ply: u32) -> i32 {
    let distance = i32::try_from(ply).unwrap_or(i32::MAX);
    match outcome.winner {
        None => 0,
        Some(w) if w == pos.side_to_move() => WIN - distance,
        Some(_) => -(WIN - distance),
    }
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

/// Proven values are stored as plies from the node, not from the root.
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

/// Whether two learned evaluations are the same weights (or both none).
pub(crate) fn same_weights<G>(a: Option<&Arc<Learned<G>>>, b: Option<&Arc<Learned<G>>>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => Arc::ptr_eq(a, b),
        (None, None) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proven_values_are_stored_relative_to_the_node() {
        // A win found 9 plies from the root at a node 4 plies deep is a win in
        // 5 from that node; read back at ply 2 it is a win in 7.
        let at_root = WIN - 9;
        let stored = to_table(at_root, 4);
        assert_eq!(stored, WIN - 5);
        assert_eq!(from_table(stored, 2), WIN - 7);
        assert_eq!(from_table(to_table(-at_root, 4), 2), -(WIN - 7));
        assert_eq!(from_table(to_table(1234, 4), 2), 1234);
    }
}
