//! `igroteka._native`: the Igroteka games and engines for Python.
//!
//! The Python package (`python/igroteka`) re-exports these classes and adds
//! the OpenSpiel and PettingZoo adapters. Games and variants come from
//! `games::GAMES`; each game's typed part is in `encode` and `kinds`.

mod encode;
mod interrupt;
mod kinds;
mod state;

use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use board_core::view::{Board, Pieces};
use board_core::{ByPlayer, Player, Rng, Score};
use pyo3::exceptions::{PyIndexError, PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList};
use search::{EngineKind, GameEntry, Info, Limits, Memory, Think};

use kinds::{DynBatch, DynState, Kind, StepOut, rewards};
use state::{PlayError, Playouts, Spec};

// Named as `igroteka` exports it, so that pickle finds it (a worker process
// of `multiprocessing` sends it to its parent).
pyo3::create_exception!(
    igroteka,
    IllegalActionError,
    PyValueError,
    "An action or move that is not legal in the state."
);

fn illegal(error: PlayError) -> PyErr {
    IllegalActionError::new_err(error.to_string())
}

/// The bounds the protocol puts on `Hash` (megabytes) and `Threads`.
const MAX_HASH_MB: usize = 1024;
const MAX_THREADS: usize = 256;
/// Deeper perft would never end; the bound keeps its buffers small.
const MAX_PERFT_DEPTH: u32 = 64;

/// `value` if it is within `1..=max`, else a `ValueError`.
fn bounded(name: &str, value: usize, max: usize) -> PyResult<usize> {
    if (1..=max).contains(&value) {
        Ok(value)
    } else {
        Err(PyValueError::new_err(format!("{name} is {value}: give 1 to {max}")))
    }
}

fn perft_depth(depth: u32) -> PyResult<u32> {
    if depth > MAX_PERFT_DEPTH {
        return Err(PyValueError::new_err(format!(
            "perft depth {depth} is more than {MAX_PERFT_DEPTH}"
        )));
    }
    Ok(depth)
}

/// `len` default values, or a `MemoryError` when they do not fit.
fn zeroed<T: Clone + Default>(len: usize) -> PyResult<Vec<T>> {
    let mut out = Vec::new();
    out.try_reserve_exact(len)
        .map_err(|_| PyMemoryError::new_err(format!("{len} values do not fit in memory")))?;
    out.resize(len, T::default());
    Ok(out)
}

/// A `MemoryError` unless `hash_mb` megabytes and room for `threads`
/// threads can be had now: the search crate allocates its table (or grows
/// its tree) up to that, and any allocation that fails later, however
/// small, aborts the process.
fn check_memory(hash_mb: usize, threads: usize) -> PyResult<()> {
    // Each thread takes a stack (2 MB), and glibc gives each of the first
    // 8 per core a heap of its own, which reserves 64 MB of address space.
    let helpers = threads.saturating_sub(1);
    let arenas = match helpers {
        0 => 0,
        // Reads the cgroup's files: some microseconds, not for every call.
        _ => helpers.min(8 * std::thread::available_parallelism().map_or(1, usize::from)),
    };
    let megabytes = hash_mb + 2 * helpers + 64 * arenas;
    Vec::<u8>::new().try_reserve_exact(megabytes << 20).map_err(|_| {
        PyMemoryError::new_err(format!(
            "hash_mb={hash_mb} and threads={threads}: that much memory cannot be had"
        ))
    })
}

/// The registered game `name` and its typed implementation.
fn game(name: &str) -> PyResult<(&'static GameEntry, &'static dyn Kind)> {
    let entry = ::games::find(name).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let kind = kinds::kind(entry).ok_or_else(|| {
        PyValueError::new_err(format!("game '{}' has no Python bindings yet", entry.name))
    })?;
    Ok((entry, kind))
}

/// The canonical name of `variant` (default: the game's default variant).
fn variant(entry: &GameEntry, variant: Option<&str>) -> PyResult<&'static str> {
    match variant {
        None => Ok(entry.default_variant()),
        Some(name) => entry.variant(name).map_err(|e| PyValueError::new_err(e.to_string())),
    }
}

static NUMPY: PyOnceLock<Py<PyModule>> = PyOnceLock::new();

fn numpy(py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
    Ok(NUMPY.get_or_try_init(py, || Ok::<_, PyErr>(py.import("numpy")?.unbind()))?.bind(py))
}

/// A numpy array of `shape` over `bytes` (a writable `bytearray`, no copy).
fn array<'py>(
    py: Python<'py>,
    bytes: &[u8],
    dtype: &str,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let buffer = PyByteArray::new(py, bytes);
    numpy(py)?
        .call_method1("frombuffer", (buffer, dtype))?
        .call_method1("reshape", (shape.to_vec(),))
}

fn float_bytes(floats: &[f32]) -> &[u8] {
    bytemuck::cast_slice(floats)
}

fn player(index: i64) -> PyResult<Player> {
    match index {
        0 => Ok(Player::First),
        1 => Ok(Player::Second),
        _ => Err(PyValueError::new_err(format!("player {index} is not 0 or 1"))),
    }
}

fn pair<T: Copy>(value: ByPlayer<T>) -> (T, T) {
    (value.first, value.second)
}

/// Every game of the registry (`games::GAMES`) as dicts.
#[pyfunction(name = "games")]
fn game_list(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for entry in ::games::GAMES {
        let info = PyDict::new(py);
        info.set_item("name", entry.name)?;
        info.set_item("variants", entry.variants.to_vec())?;
        info.set_item("default_variant", entry.default_variant())?;
        info.set_item("players", pair(entry.player_names))?;
        info.set_item("notation", entry.notation)?;
        info.set_item("default_max_plies", entry.default_max_plies)?;
        info.set_item("has_endgame_table", entry.has_endgame_table())?;
        info.set_item("bound", kinds::kind(entry).is_some())?;
        list.append(info)?;
    }
    Ok(list)
}

fn spec_dict<'py>(py: Python<'py>, spec: &Spec) -> PyResult<Bound<'py, PyDict>> {
    let info = PyDict::new(py);
    info.set_item("game", spec.game)?;
    info.set_item("variant", spec.variant)?;
    info.set_item("num_actions", spec.num_actions)?;
    info.set_item("cell_bound", spec.cells)?;
    info.set_item("reserve", spec.reserve)?;
    info.set_item("pass_action", spec.pass.then(|| spec.num_actions - 1))?;
    info.set_item("observation_shape", spec.shape.clone())?;
    info.set_item("planes", spec.planes.clone())?;
    info.set_item("cells", spec.cell_names.clone())?;
    info.set_item("actions_per_ply", spec.actions_per_ply)?;
    info.set_item("default_max_plies", spec.default_max_plies)?;
    Ok(info)
}

/// The fixed shape of a game's variant: action space and observation planes.
#[pyfunction]
#[pyo3(signature = (game, variant=None))]
fn spec<'py>(py: Python<'py>, game: &str, variant: Option<&str>) -> PyResult<Bound<'py, PyDict>> {
    let (entry, kind) = self::game(game)?;
    spec_dict(py, &kind.spec(self::variant(entry, variant)?))
}

fn board_dict<'py>(py: Python<'py>, board: &Board) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("width", board.width)?;
    out.set_item("height", board.height)?;
    let cells = PyList::empty(py);
    for cell in &board.cells {
        let c = PyDict::new(py);
        c.set_item("name", &cell.name)?;
        c.set_item("centre", cell.centre)?;
        c.set_item("polygon", cell.polygon.clone())?;
        c.set_item("class", cell.class)?;
        cells.append(c)?;
    }
    out.set_item("cells", cells)?;
    let labels: Vec<(String, (f64, f64))> =
        board.labels.iter().map(|l| (l.text.clone(), l.at)).collect();
    out.set_item("labels", labels)?;
    let classes = PyDict::new(py);
    for (name, colour) in &board.classes {
        classes.set_item(name, colour)?;
    }
    out.set_item("classes", classes)?;
    out.set_item("colours", pair(board.colours))?;
    out.set_item("reserves", board.reserves)?;
    Ok(out)
}

fn pieces_dict<'py>(py: Python<'py>, pieces: &Pieces) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    let stacks = PyDict::new(py);
    for (cell, stack) in &pieces.stacks {
        let stack: Vec<(usize, &str)> = stack.iter().map(|p| (p.owner.index(), p.kind)).collect();
        stacks.set_item(cell, stack)?;
    }
    out.set_item("stacks", stacks)?;
    out.set_item("reserves", pieces.reserves.map(pair))?;
    out.set_item("captured", pieces.captured.map(pair))?;
    out.set_item("score", pieces.score.map(pair))?;
    Ok(out)
}

fn playouts_dict<'py>(py: Python<'py>, playouts: Playouts) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("games", playouts.games)?;
    out.set_item("plies", playouts.plies)?;
    out.set_item("wins", (playouts.wins[0], playouts.wins[1]))?;
    out.set_item("draws", playouts.draws)?;
    Ok(out)
}

/// A game in progress: any game and variant, from its start or a position
/// text, stopped at a ply cap (`max_plies`, default the game's; 0: none).
#[pyclass(module = "igroteka._native")]
struct State {
    inner: Box<dyn DynState>,
}

impl State {
    fn make(
        game: &str,
        variant: Option<&str>,
        position: Option<&str>,
        max_plies: Option<u32>,
    ) -> PyResult<State> {
        let (entry, kind) = self::game(game)?;
        let variant = self::variant(entry, variant)?;
        let max_plies = max_plies.unwrap_or(entry.default_max_plies);
        let inner = kind.new_state(variant, position, max_plies).map_err(PyValueError::new_err)?;
        Ok(State { inner })
    }
}

#[pymethods]
impl State {
    #[new]
    #[pyo3(signature = (game, variant=None, position=None, max_plies=None))]
    fn new(
        game: &str,
        variant: Option<&str>,
        position: Option<&str>,
        max_plies: Option<u32>,
    ) -> PyResult<Self> {
        State::make(game, variant, position, max_plies)
    }

    /// A state replayed from a start text and its actions (for pickle).
    #[staticmethod]
    fn from_actions(
        game: &str,
        variant: &str,
        start: &str,
        max_plies: u32,
        actions: Vec<u32>,
    ) -> PyResult<Self> {
        let mut state = State::make(game, Some(variant), Some(start), Some(max_plies))?;
        for action in actions {
            state.inner.apply(action).map_err(illegal)?;
        }
        Ok(state)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let this = slf.borrow();
        let spec = this.inner.spec();
        let args = (
            spec.game,
            spec.variant,
            this.inner.start_text(),
            this.inner.max_plies(),
            this.inner.actions(),
        );
        let py = slf.py();
        Ok((slf.get_type().getattr("from_actions")?, args.into_pyobject(py)?.into_any()))
    }

    /// The game's name.
    #[getter]
    fn game(&self) -> &'static str {
        self.inner.spec().game
    }

    /// The variant's name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.inner.spec().variant
    }

    /// The action space and observation planes ([`spec`]).
    #[getter]
    fn spec<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        spec_dict(py, self.inner.spec())
    }

    #[getter]
    fn num_actions(&self) -> usize {
        self.inner.spec().num_actions
    }

    #[getter]
    fn observation_shape(&self) -> Vec<usize> {
        self.inner.spec().shape.clone()
    }

    /// The player to act (0 or 1), or `None` at the end.
    #[getter]
    fn current_player(&self) -> Option<usize> {
        self.inner.current_player().map(Player::index)
    }

    /// The side to move in the position (0 or 1), also at the end.
    #[getter]
    fn side_to_move(&self) -> usize {
        self.inner.side_to_move().index()
    }

    fn is_terminal(&self) -> bool {
        self.inner.current_player().is_none()
    }

    /// How the game ended: `None` while it goes on, else a dict with
    /// `winner` (0, 1 or None), `result` ("1-0", "0-1", "1/2-1/2"), `score`
    /// (the game's score, first player first, or None), `reason` and
    /// `at_cap` (stopped at the ply cap and adjudicated).
    #[getter]
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(outcome) = self.inner.outcome() else { return Ok(None) };
        let out = PyDict::new(py);
        out.set_item("winner", outcome.winner.map(Player::index))?;
        out.set_item("result", outcome.result_text())?;
        out.set_item("score", outcome.score.map(pair))?;
        out.set_item("reason", outcome.reason)?;
        out.set_item("at_cap", self.inner.ended_at_cap())?;
        Ok(Some(out))
    }

    /// +1 for the winner, -1 for the loser, 0 each for a draw or a game
    /// still going on.
    fn returns(&self) -> (f32, f32) {
        let [first, second] = rewards(self.inner.outcome());
        (first, second)
    }

    /// The legal actions, sorted.
    fn legal_actions(&self) -> Vec<u32> {
        self.inner.legal_actions()
    }

    /// 1 at each legal action, 0 elsewhere (int8, `num_actions` long).
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut mask = vec![0; self.inner.spec().num_actions];
        self.inner.write_mask(&mut mask);
        array(py, &mask, "int8", &[mask.len()])
    }

    /// The legal moves in the game's notation (whole moves, also while a
    /// route is being picked).
    fn legal_moves(&self) -> Vec<String> {
        self.inner.legal_move_texts()
    }

    /// The text of an action: for a legal one the move's notation (or the
    /// route picked so far), else its cells.
    fn action_to_string(&self, action: u32) -> String {
        self.inner.action_text(action).unwrap_or_else(|| self.inner.spec().describe(action))
    }

    /// The actions that play a move given in notation from here (usually
    /// one; while a route is being picked, the picks left).
    fn move_to_actions(&self, text: &str) -> PyResult<Vec<u32>> {
        self.inner.move_actions(text).map_err(illegal)
    }

    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        let action = u32::try_from(action).map_err(|_| illegal(PlayError::Action(action)))?;
        self.inner.apply(action).map_err(illegal)
    }

    /// Plays a move given in notation (also the rest of a route being
    /// picked); returns its actions.
    fn apply_move(&mut self, text: &str) -> PyResult<Vec<u32>> {
        self.inner.apply_text(text).map_err(illegal)
    }

    /// Takes back the last action; `False` at the start.
    fn undo(&mut self) -> bool {
        self.inner.undo()
    }

    fn clone(&self) -> State {
        State { inner: self.inner.clone_box() }
    }

    fn __copy__(&self) -> State {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.clone()
    }

    /// Moves played (whole moves).
    #[getter]
    fn plies(&self) -> usize {
        self.inner.plies()
    }

    #[getter]
    fn max_plies(&self) -> u32 {
        self.inner.max_plies()
    }

    /// Every action played from the start.
    #[getter]
    fn history(&self) -> Vec<u32> {
        self.inner.actions()
    }

    /// Every move played from the start, in notation.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.inner.move_texts()
    }

    /// The position text (`igroteka show --fen` reads it).
    #[getter]
    fn position(&self) -> String {
        self.inner.position_text()
    }

    /// The position text of the start.
    #[getter]
    fn start_position(&self) -> String {
        self.inner.start_text()
    }

    /// The board drawn for people.
    fn board_text(&self) -> String {
        self.inner.board_text()
    }

    fn __str__(&self) -> String {
        self.inner.board_text()
    }

    fn __repr__(&self) -> String {
        let spec = self.inner.spec();
        format!(
            "State({:?}, variant={:?}, position={:?})",
            spec.game,
            spec.variant,
            self.inner.position_text()
        )
    }

    /// The board as a GUI draws it (`Describe::board`).
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        board_dict(py, &self.inner.board())
    }

    /// What stands where (`Describe::pieces`): stacks bottom to top as
    /// (owner, kind).
    fn pieces<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        pieces_dict(py, &self.inner.pieces())
    }

    /// Each legal move with the cells a person clicks to make it.
    fn move_paths(&self) -> Vec<(String, Vec<String>)> {
        self.inner.move_paths()
    }

    /// While a capture's route is being picked: the cells fixed so far and
    /// the end cell; else `None`.
    #[getter]
    fn route(&self) -> Option<(Vec<String>, String)> {
        self.inner.route()
    }

    /// The moves the route being picked can still become.
    fn route_moves(&self) -> Vec<String> {
        self.inner.route_moves()
    }

    /// The observation tensor of `player` (default: the player to act, or
    /// the side to move at the end), float32 of `observation_shape`.
    #[pyo3(signature = (player=None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        player: Option<i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let observer = match player {
            Some(p) => self::player(p)?,
            None => self.inner.side_to_move(),
        };
        let spec = self.inner.spec();
        let mut out = vec![0.0; spec.observation_len()];
        self.inner.observe(observer, &mut out);
        array(py, float_bytes(&out), "float32", &spec.shape)
    }

    /// The number of leaf positions `depth` moves ahead (the cap ignored;
    /// `depth` at most 64). Ctrl-C stops it.
    fn perft(slf: PyRef<'_, Self>, depth: u32) -> PyResult<u64> {
        let depth = perft_depth(depth)?;
        let (py, state) = (slf.py(), slf.inner.clone_box());
        drop(slf);
        interrupt::sliced(py, |stop| Ok(state.perft(depth, stop).unwrap_or_default()))
    }

    /// Perft below each legal move.
    fn perft_divide(slf: PyRef<'_, Self>, depth: u32) -> PyResult<Vec<(String, u64)>> {
        let depth = perft_depth(depth)?;
        let (py, state) = (slf.py(), slf.inner.clone_box());
        drop(slf);
        interrupt::sliced(py, |stop| Ok(state.perft_divide(depth, stop).unwrap_or_default()))
    }

    /// `n` uniformly random games from here to their end or the cap, in
    /// Rust on `threads` threads (1 to 256; seeded: the same seed, the same
    /// games): a dict of games, plies, wins (first, second) and draws.
    /// Ctrl-C stops them.
    #[pyo3(signature = (n, seed=0, threads=1))]
    fn random_playouts(
        slf: PyRef<'_, Self>,
        n: u64,
        seed: u64,
        threads: usize,
    ) -> PyResult<Bound<'_, PyDict>> {
        let threads = bounded("threads", threads, MAX_THREADS)? as u64;
        let (py, state) = (slf.py(), slf.inner.clone_box());
        drop(slf);
        let threads = threads.min(n.max(1));
        check_memory(0, threads as usize)?;
        let share = |t: u64| n / threads + u64::from(t < n % threads);
        // The calling thread plays the first share: one thread starts none.
        let total = interrupt::sliced(py, |stop| {
            std::thread::scope(|scope| {
                let state = &state;
                let mut helpers = Vec::new();
                for t in 1..threads {
                    let helper = stop.spawn(scope, move |stop| {
                        state.playouts(share(t), seed.wrapping_add(t), stop)
                    });
                    match helper {
                        Ok(helper) => helpers.push(helper),
                        Err(error) => {
                            stop.raise();
                            return Err(error);
                        }
                    }
                }
                let mut total = state.playouts(share(0), seed, stop);
                for helper in helpers {
                    total.add(stop.join(helper)?);
                }
                Ok(total)
            })
        })?;
        playouts_dict(py, total)
    }

    /// A uniformly random legal action (seeded), `None` at the end.
    #[pyo3(signature = (seed=0))]
    fn random_action(&self, seed: u64) -> Option<u32> {
        self.inner.random_action(&mut Rng::new(seed))
    }

    /// The game's static evaluation for the side to move (hundredths of a
    /// piece, roughly).
    fn evaluate(&self) -> i32 {
        self.inner.evaluate()
    }

    /// The position's 64-bit hash.
    #[getter]
    fn zobrist(&self) -> u64 {
        self.inner.zobrist()
    }

    /// The best move by one of the engines; see `igroteka.best_move`.
    #[pyo3(signature = (engine="alphabeta", nodes=None, depth=None, movetime=None, seed=0, threads=1, hash_mb=16, use_table=true))]
    #[allow(clippy::too_many_arguments)]
    fn best_move(
        slf: PyRef<'_, Self>,
        engine: &str,
        nodes: Option<u64>,
        depth: Option<u32>,
        movetime: Option<f64>,
        seed: u64,
        threads: usize,
        hash_mb: usize,
        use_table: bool,
    ) -> PyResult<SearchResult> {
        let think = think(engine, nodes, depth, movetime, seed, threads, hash_mb, use_table)?;
        let (py, state) = (slf.py(), slf.inner.clone_box());
        drop(slf);
        check_memory(think.hash_mb, think.threads)?;
        search_state(py, state, &think, &mut Memory::default())
    }
}

#[allow(clippy::too_many_arguments)]
fn think(
    engine: &str,
    nodes: Option<u64>,
    depth: Option<u32>,
    movetime: Option<f64>,
    seed: u64,
    threads: usize,
    hash_mb: usize,
    use_table: bool,
) -> PyResult<Think> {
    let engine: EngineKind =
        engine.parse().map_err(|e: search::UnknownEngine| PyValueError::new_err(e.to_string()))?;
    let time = match movetime {
        Some(seconds) => Some(Duration::try_from_secs_f64(seconds).map_err(|_| {
            PyValueError::new_err(format!("movetime {seconds} is not a time in seconds"))
        })?),
        None => None,
    };
    if nodes.is_none() && depth.is_none() && time.is_none() && engine != EngineKind::Random {
        return Err(PyValueError::new_err("give a limit: nodes, depth or movetime (seconds)"));
    }
    Ok(Think {
        engine,
        limits: Limits { depth, nodes, time, plies_left: None },
        seed,
        hash_mb: bounded("hash_mb", hash_mb, MAX_HASH_MB)?,
        threads: bounded("threads", threads, MAX_THREADS)?,
        use_table,
        ..Think::default()
    })
}

/// A search limited to this many nodes (or fewer) is short enough to run
/// on the calling thread, where Ctrl-C waits for its end: a thread of its
/// own, which lets Ctrl-C stop a search at once, costs tens of microseconds.
const INLINE_NODES: u64 = 20_000;

/// Searches `state` without the GIL: on a thread of its own, so that Ctrl-C
/// stops the search and raises `KeyboardInterrupt`, unless it is short.
fn search_state(
    py: Python<'_>,
    state: Box<dyn DynState>,
    think: &Think,
    memory: &mut Memory,
) -> PyResult<SearchResult> {
    if state.current_player().is_none() {
        return Err(PyValueError::new_err("the game is over"));
    }
    if state.route().is_some() {
        return Err(PyValueError::new_err(
            "a capture's route is being picked: play its actions (or undo) before searching",
        ));
    }
    let spec = state.spec();
    let entry = ::games::find(spec.game).map_err(|e| PyValueError::new_err(e.to_string()))?;
    if think.use_table && memory.endgame_table().is_none() {
        memory.set_endgame_table(kinds::endgame_table(py, entry));
    }
    // The evaluation the game's engines use by default (learned where it
    // won), read again when an `Engine` moves on to another game.
    if memory.learned().is_none_or(|learned| learned.game() != entry.name) {
        memory.set_learned(entry.default_learned());
    }
    let position = &state;
    let (best, info) = if think.limits.nodes.is_some_and(|nodes| nodes <= INLINE_NODES) {
        py.detach(|| position.think(think, memory, &AtomicBool::new(false)))
    } else {
        interrupt::beside(py, |stop| position.think(think, memory, stop))?
    };
    let actions = match &best {
        Some(text) => state.move_actions(text).map_err(illegal)?,
        None => Vec::new(),
    };
    Ok(SearchResult::new(best, actions, &info))
}

/// What a search found.
#[pyclass(module = "igroteka._native", get_all, frozen)]
struct SearchResult {
    /// The best move in notation (`None` only at the end).
    #[pyo3(name = "move")]
    best: Option<String>,
    /// The actions that play it.
    actions: Vec<u32>,
    /// `"cp"` (hundredths of a piece, for the side to move), `"win"` or
    /// `"loss"` (in that many plies).
    score_kind: &'static str,
    score: i64,
    /// The principal variation, best move first.
    pv: Vec<String>,
    depth: u32,
    seldepth: u32,
    nodes: u64,
    /// Seconds.
    time: f64,
    nps: u64,
}

impl SearchResult {
    fn new(best: Option<String>, actions: Vec<u32>, info: &Info<String>) -> Self {
        let (score_kind, score) = match info.score {
            Score::Cp(cp) => ("cp", i64::from(cp)),
            Score::Win(plies) => ("win", i64::from(plies)),
            Score::Loss(plies) => ("loss", i64::from(plies)),
        };
        SearchResult {
            best,
            actions,
            score_kind,
            score,
            pv: info.pv.clone(),
            depth: info.depth,
            seldepth: info.seldepth,
            nodes: info.nodes,
            time: info.time.as_secs_f64(),
            nps: info.nps(),
        }
    }
}

#[pymethods]
impl SearchResult {
    fn __repr__(&self) -> String {
        format!(
            "SearchResult(move={}, score={} {}, depth={}, nodes={}, pv={:?})",
            self.best.as_ref().map_or_else(|| "None".to_owned(), |m| format!("{m:?}")),
            self.score_kind,
            self.score,
            self.depth,
            self.nodes,
            self.pv
        )
    }
}

/// An engine that keeps its memory (transposition table, MCTS tree,
/// endgame table) from one search to the next, as in a game. Used from
/// several threads, its searches take turns.
#[pyclass(module = "igroteka._native")]
struct Engine {
    engine: String,
    seed: u64,
    threads: usize,
    hash_mb: usize,
    use_table: bool,
    /// Locked only with the GIL held and never for long, so a thread that
    /// waits for it never blocks one that holds the GIL, and a process forked
    /// (which holds the GIL) never finds it locked.
    slot: Mutex<Slot>,
}

/// The engine's memory while no search uses it.
#[derive(Default)]
struct Slot {
    /// `None` while a search uses it.
    memory: Option<Memory>,
    /// The process whose search took the memory: a forked child whose parent
    /// was searching starts afresh instead of waiting for it.
    taken_by: Option<u32>,
    /// Whether room for the table (`hash_mb`) was checked.
    checked: bool,
}

impl Engine {
    /// The engine's memory, once no other search of this process uses it
    /// (waiting without the GIL; Ctrl-C stops the wait).
    fn take_memory(&self, py: Python<'_>) -> PyResult<Taken<'_>> {
        loop {
            {
                let mut slot = self.slot.lock().unwrap_or_else(PoisonError::into_inner);
                let pid = std::process::id();
                if slot.taken_by.is_some_and(|by| by != pid) {
                    *slot = Slot::default();
                }
                if slot.taken_by.is_none() {
                    slot.taken_by = Some(pid);
                    let memory = slot.memory.take().unwrap_or_default();
                    return Ok(Taken { engine: self, memory, checked: slot.checked });
                }
            }
            py.detach(|| std::thread::sleep(Duration::from_millis(1)));
            py.check_signals()?;
        }
    }
}

/// An engine's memory in use; given back when dropped, whatever happens.
struct Taken<'a> {
    engine: &'a Engine,
    memory: Memory,
    checked: bool,
}

impl Drop for Taken<'_> {
    fn drop(&mut self) {
        let memory = std::mem::take(&mut self.memory);
        let mut slot = self.engine.slot.lock().unwrap_or_else(PoisonError::into_inner);
        *slot = Slot { memory: Some(memory), taken_by: None, checked: self.checked };
    }
}

#[pymethods]
impl Engine {
    /// `threads` 1 to 256, `hash_mb` 1 to 1024 (as the protocol's `Threads`
    /// and `Hash`).
    #[new]
    #[pyo3(signature = (engine="alphabeta", seed=0, threads=1, hash_mb=16, use_table=true))]
    fn new(
        engine: &str,
        seed: u64,
        threads: usize,
        hash_mb: usize,
        use_table: bool,
    ) -> PyResult<Self> {
        engine.parse::<EngineKind>().map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Engine {
            engine: engine.to_owned(),
            seed,
            threads: bounded("threads", threads, MAX_THREADS)?,
            hash_mb: bounded("hash_mb", hash_mb, MAX_HASH_MB)?,
            use_table,
            slot: Mutex::default(),
        })
    }

    /// The best move in `state` within the limits given.
    #[pyo3(signature = (state, nodes=None, depth=None, movetime=None))]
    fn best_move(
        &self,
        py: Python<'_>,
        state: &Bound<'_, State>,
        nodes: Option<u64>,
        depth: Option<u32>,
        movetime: Option<f64>,
    ) -> PyResult<SearchResult> {
        let think = think(
            &self.engine,
            nodes,
            depth,
            movetime,
            self.seed,
            self.threads,
            self.hash_mb,
            self.use_table,
        )?;
        let state = state.borrow().inner.clone_box();
        let mut taken = self.take_memory(py)?;
        // The table once (it is kept), the threads' room every time.
        check_memory(if taken.checked { 0 } else { think.hash_mb }, think.threads)?;
        taken.checked = true;
        search_state(py, state, &think, &mut taken.memory)
    }

    /// Forgets what was learnt (a new game).
    fn new_game(&self, py: Python<'_>) -> PyResult<()> {
        self.take_memory(py)?.memory.clear();
        Ok(())
    }
}

/// `n` games of one variant side by side, stepped together in Rust: the
/// throughput path for self-play and vectorised RL. A game that ends is
/// restarted at once by `step`.
#[pyclass(module = "igroteka._native")]
struct Batch {
    inner: Box<dyn DynBatch>,
}

#[pymethods]
impl Batch {
    #[new]
    #[pyo3(signature = (game, n, variant=None, position=None, max_plies=None))]
    fn new(
        py: Python<'_>,
        game: &str,
        n: usize,
        variant: Option<&str>,
        position: Option<&str>,
        max_plies: Option<u32>,
    ) -> PyResult<Self> {
        if n == 0 {
            return Err(PyValueError::new_err("a batch needs at least one game"));
        }
        let (entry, kind) = self::game(game)?;
        let variant = self::variant(entry, variant)?;
        let max_plies = max_plies.unwrap_or(entry.default_max_plies);
        let one = kind.new_state(variant, position, max_plies).map_err(PyValueError::new_err)?;
        let inner = interrupt::sliced(py, |stop| one.repeat(n, stop))?;
        Ok(Batch { inner })
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    #[getter]
    fn spec<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        spec_dict(py, self.inner.spec())
    }

    /// A copy of game `i` as a `State`.
    fn state(&self, i: usize) -> PyResult<State> {
        let inner = self.inner.state(i).ok_or_else(|| PyIndexError::new_err(i))?;
        Ok(State { inner })
    }

    /// Every game's observation by its player to act: float32
    /// `(n, *observation_shape)`.
    fn observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let spec = self.inner.spec();
        let mut shape = vec![self.inner.len()];
        shape.extend(&spec.shape);
        let mut floats = zeroed(self.inner.len().saturating_mul(spec.observation_len()))?;
        let inner = &self.inner;
        py.detach(|| inner.observe(&mut floats));
        array(py, float_bytes(&floats), "float32", &shape)
    }

    /// Every game's legal-action mask: int8 `(n, num_actions)`.
    fn action_masks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let (n, actions) = (self.inner.len(), self.inner.spec().num_actions);
        let mut mask = zeroed(n.saturating_mul(actions))?;
        let inner = &self.inner;
        py.detach(|| inner.masks(&mut mask));
        array(py, &mask, "int8", &[n, actions])
    }

    /// Every game's player to act: int8 `(n,)`.
    fn current_players<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut players: Vec<i8> = zeroed(self.inner.len())?;
        self.inner.players(&mut players);
        let bytes: Vec<u8> = players.iter().map(|&p| p as u8).collect();
        array(py, &bytes, "int8", &[players.len()])
    }

    /// Plays one action in each game (any integer sequence of length n), or
    /// none at all when one is illegal (`IllegalActionError`). Returns `(rewards, terminated, truncated)`: float32 `(n, 2)` (first
    /// player's, second player's), bool `(n,)` ended by the rules, bool
    /// `(n,)` stopped at the ply cap. Ended games restart at once.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let n = self.inner.len();
        let array_ = numpy(py)?.call_method1("ascontiguousarray", (actions, "int64"))?;
        let bytes = array_.call_method0("tobytes")?;
        let bytes = bytes.cast::<PyBytes>()?.as_bytes();
        if bytes.len() != 8 * n {
            return Err(PyValueError::new_err(format!("step needs {n} actions")));
        }
        let actions: Vec<i64> = bytes
            .chunks_exact(8)
            .map(|c| i64::from_ne_bytes(c.try_into().expect("8 bytes")))
            .collect();
        let mut rewards = zeroed(2 * n)?;
        let mut terminated = zeroed(n)?;
        let mut truncated = zeroed(n)?;
        let inner = &mut self.inner;
        let result = py.detach(|| {
            let mut out = StepOut {
                rewards: &mut rewards,
                terminated: &mut terminated,
                truncated: &mut truncated,
            };
            inner.step(&actions, &mut out)
        });
        result.map_err(|(i, e)| IllegalActionError::new_err(format!("game {i}: {e}")))?;
        let rewards = array(py, float_bytes(&rewards), "float32", &[n, 2])?;
        let terminated = array(py, &terminated, "bool", &[n])?;
        let truncated = array(py, &truncated, "bool", &[n])?;
        Ok((rewards, terminated, truncated).into_pyobject(py)?.into_any())
    }

    /// A uniformly random legal action per game (seeded): int64 `(n,)`.
    #[pyo3(signature = (seed=0))]
    fn random_actions<'py>(&self, py: Python<'py>, seed: u64) -> PyResult<Bound<'py, PyAny>> {
        let mut actions: Vec<i64> = zeroed(self.inner.len())?;
        self.inner.random_actions(&mut Rng::new(seed), &mut actions);
        array(py, bytemuck::cast_slice(&actions), "int64", &[actions.len()])
    }

    /// `steps` rounds of one random action in every game, all in Rust,
    /// restarting ended games: returns (games ended, actions played).
    /// Ctrl-C stops it (the games keep what they played).
    #[pyo3(signature = (steps, seed=0))]
    fn step_random(&mut self, py: Python<'_>, steps: u64, seed: u64) -> PyResult<(u64, u64)> {
        let inner = &mut self.inner;
        interrupt::sliced(py, |stop| Ok(inner.step_random(steps, seed, stop)))
    }

    /// Restarts every game.
    fn reset(&mut self) {
        self.inner.restart();
    }
}

/// The best move in `state` by an engine ("alphabeta", "mcts" or
/// "random"), within `nodes`, `depth` (alpha-beta) or `movetime` seconds;
/// the GIL is released while it searches, and Ctrl-C stops it.
#[pyfunction]
#[pyo3(signature = (state, engine="alphabeta", nodes=None, depth=None, movetime=None, seed=0, threads=1, hash_mb=16, use_table=true))]
#[allow(clippy::too_many_arguments)]
fn best_move(
    state: PyRef<'_, State>,
    engine: &str,
    nodes: Option<u64>,
    depth: Option<u32>,
    movetime: Option<f64>,
    seed: u64,
    threads: usize,
    hash_mb: usize,
    use_table: bool,
) -> PyResult<SearchResult> {
    State::best_move(state, engine, nodes, depth, movetime, seed, threads, hash_mb, use_table)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<State>()?;
    m.add_class::<Batch>()?;
    m.add_class::<Engine>()?;
    m.add_class::<SearchResult>()?;
    m.add_function(wrap_pyfunction!(game_list, m)?)?;
    m.add_function(wrap_pyfunction!(spec, m)?)?;
    m.add_function(wrap_pyfunction!(best_move, m)?)?;
    m.add("IllegalActionError", m.py().get_type::<IllegalActionError>())?;
    Ok(())
}
