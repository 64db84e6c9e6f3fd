//! The games behind object-safe traits, so the Python classes hold any of
//! them. The list of games and variants comes from `games::GAMES`; here each
//! registered game only gets its typed implementation.

use std::marker::PhantomData;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, PoisonError};

use board_core::view::{Board, Pieces};
use board_core::{Evaluate, Game, Outcome, Player, Rng, Variant};
use search::{DynTable, GameEntry, Info, Memory, SearchGame, Think};

use pyo3::exceptions::PyMemoryError;
use pyo3::prelude::*;

use crate::encode::Encode;
use crate::interrupt::Stop;
use crate::state::{Native, PlayError, Playouts, Spec};

/// The typed implementation of each game of `games::GAMES`, found by name.
static KINDS: [&dyn Kind; 6] = [
    &Typed::<otrazhenie::Position>(PhantomData),
    &Typed::<adiyukh::Position>(PhantomData),
    &Typed::<focus::Position>(PhantomData),
    &Typed::<hexdraughts::Position>(PhantomData),
    &Typed::<stykovka::Position>(PhantomData),
    &Typed::<city::Position>(PhantomData),
];

/// The typed implementation of a registered game, if the bindings have one.
pub fn kind(entry: &GameEntry) -> Option<&'static dyn Kind> {
    KINDS.iter().copied().find(|kind| kind.name() == entry.name)
}

/// One game: specs and new states.
pub trait Kind: Send + Sync {
    fn name(&self) -> &'static str;
    /// The spec of `variant` (a canonical name of the game's variants).
    fn spec(&self, variant: &'static str) -> Arc<Spec>;
    /// A state of `variant` from its start or a position text.
    ///
    /// # Errors
    /// The text's error.
    fn new_state(
        &self,
        variant: &'static str,
        text: Option<&str>,
        max_plies: u32,
    ) -> Result<Box<dyn DynState>, String>;
}

struct Typed<G>(PhantomData<fn() -> G>);

impl<G: Encode> Typed<G> {
    fn native(
        &self,
        variant: &'static str,
        text: Option<&str>,
        max_plies: u32,
    ) -> Result<Native<G>, String> {
        let parsed: G::Variant = variant.parse().map_err(|e| format!("{e}"))?;
        let start = match text {
            None => G::start(parsed),
            Some(text) => G::from_text(text, parsed).map_err(|e| format!("{e}"))?,
        };
        Ok(Native::new(self.spec(variant), start, max_plies))
    }
}

impl<G: Encode> Kind for Typed<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn spec(&self, variant: &'static str) -> Arc<Spec> {
        static SPECS: Mutex<Vec<Arc<Spec>>> = Mutex::new(Vec::new());
        let mut specs = SPECS.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(spec) = specs.iter().find(|s| s.game == G::NAME && s.variant == variant) {
            return Arc::clone(spec);
        }
        let parsed =
            G::Variant::ALL.iter().copied().find(|v| v.name() == variant).unwrap_or_default();
        let spec = Arc::new(Spec::of::<G>(parsed));
        specs.push(Arc::clone(&spec));
        spec
    }

    fn new_state(
        &self,
        variant: &'static str,
        text: Option<&str>,
        max_plies: u32,
    ) -> Result<Box<dyn DynState>, String> {
        Ok(Box::new(self.native(variant, text, max_plies)?))
    }
}

/// The endgame table of `entry`'s game, built or loaded once per process
/// (by the first search that needs it). The lock is held only with the GIL
/// and never while building, so that a process forked meanwhile never finds
/// it held.
pub fn endgame_table(py: Python<'_>, entry: &GameEntry) -> Option<DynTable> {
    static TABLES: Mutex<Vec<DynTable>> = Mutex::new(Vec::new());
    let known = || {
        let tables = TABLES.lock().unwrap_or_else(PoisonError::into_inner);
        tables.iter().find(|t| t.game() == entry.name).cloned()
    };
    if let Some(table) = known() {
        return Some(table);
    }
    let table = py.detach(|| entry.endgame_table())?;
    if let Some(table) = known() {
        return Some(table);
    }
    TABLES.lock().unwrap_or_else(PoisonError::into_inner).push(table.clone());
    Some(table)
}

/// A state of any game.
pub trait DynState: Send + Sync {
    fn spec(&self) -> &Arc<Spec>;
    fn clone_box(&self) -> Box<dyn DynState>;
    fn current_player(&self) -> Option<Player>;
    fn side_to_move(&self) -> Player;
    fn legal_actions(&self) -> Vec<u32>;
    fn write_mask(&self, mask: &mut [u8]);
    fn legal_move_texts(&self) -> Vec<String>;
    fn action_text(&self, action: u32) -> Option<String>;
    fn apply(&mut self, action: u32) -> Result<(), PlayError>;
    fn apply_text(&mut self, text: &str) -> Result<Vec<u32>, PlayError>;
    fn move_actions(&self, text: &str) -> Result<Vec<u32>, PlayError>;
    fn undo(&mut self) -> bool;
    fn outcome(&self) -> Option<Outcome>;
    fn ended_at_cap(&self) -> bool;
    fn plies(&self) -> usize;
    fn max_plies(&self) -> u32;
    fn actions(&self) -> Vec<u32>;
    fn move_texts(&self) -> Vec<String>;
    fn position_text(&self) -> String;
    fn start_text(&self) -> String;
    fn board_text(&self) -> String;
    fn board(&self) -> Board;
    fn pieces(&self) -> Pieces;
    fn move_paths(&self) -> Vec<(String, Vec<String>)>;
    fn route(&self) -> Option<(Vec<String>, String)>;
    fn route_moves(&self) -> Vec<String>;
    fn observe(&self, observer: Player, out: &mut [f32]);
    /// Perft, `None` when `stop` said so.
    fn perft(&self, depth: u32, stop: &mut Stop<'_>) -> Option<u64>;
    /// Perft below each move, `None` when `stop` said so.
    fn perft_divide(&self, depth: u32, stop: &mut Stop<'_>) -> Option<Vec<(String, u64)>>;
    /// Random games from here, fewer when `stop` says so.
    fn playouts(&self, n: u64, seed: u64, stop: &mut Stop<'_>) -> Playouts;
    fn random_action(&self, rng: &mut Rng) -> Option<u32>;
    fn evaluate(&self) -> i32;
    fn zobrist(&self) -> u64;
    /// `n` games from this one's start, side by side (its moves dropped).
    ///
    /// # Errors
    /// `MemoryError` when they do not fit; `stop`'s exception.
    fn repeat(&self, n: usize, stop: &mut Stop<'_>) -> PyResult<Box<dyn DynBatch>>;
    /// Searches the position (the caller makes sure no route is being picked).
    fn think(
        &self,
        think: &Think,
        memory: &mut Memory,
        stop: &AtomicBool,
    ) -> (Option<String>, Info<String>);
}

impl<G: Encode> DynState for Native<G> {
    fn spec(&self) -> &Arc<Spec> {
        Native::spec(self)
    }
    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(self.clone())
    }
    fn current_player(&self) -> Option<Player> {
        Native::current_player(self)
    }
    fn side_to_move(&self) -> Player {
        self.position().side_to_move()
    }
    fn legal_actions(&self) -> Vec<u32> {
        Native::legal_actions(self)
    }
    fn write_mask(&self, mask: &mut [u8]) {
        Native::write_mask(self, mask);
    }
    fn legal_move_texts(&self) -> Vec<String> {
        self.legal_moves().iter().map(ToString::to_string).collect()
    }
    fn action_text(&self, action: u32) -> Option<String> {
        Native::action_text(self, action)
    }
    fn apply(&mut self, action: u32) -> Result<(), PlayError> {
        Native::apply(self, action)
    }
    fn apply_text(&mut self, text: &str) -> Result<Vec<u32>, PlayError> {
        Native::apply_text(self, text)
    }
    fn move_actions(&self, text: &str) -> Result<Vec<u32>, PlayError> {
        Native::move_actions(self, text)
    }
    fn undo(&mut self) -> bool {
        Native::undo(self)
    }
    fn outcome(&self) -> Option<Outcome> {
        Native::outcome(self)
    }
    fn ended_at_cap(&self) -> bool {
        Native::ended_at_cap(self)
    }
    fn plies(&self) -> usize {
        self.moves().len()
    }
    fn max_plies(&self) -> u32 {
        Native::max_plies(self)
    }
    fn actions(&self) -> Vec<u32> {
        Native::actions(self).to_vec()
    }
    fn move_texts(&self) -> Vec<String> {
        self.moves().iter().map(ToString::to_string).collect()
    }
    fn position_text(&self) -> String {
        self.position().to_string()
    }
    fn start_text(&self) -> String {
        self.start().to_string()
    }
    fn board_text(&self) -> String {
        format!("{:#}", self.position())
    }
    fn board(&self) -> Board {
        Native::board(self)
    }
    fn pieces(&self) -> Pieces {
        Native::pieces(self)
    }
    fn move_paths(&self) -> Vec<(String, Vec<String>)> {
        Native::move_paths(self)
    }
    fn route(&self) -> Option<(Vec<String>, String)> {
        Native::route(self)
    }
    fn route_moves(&self) -> Vec<String> {
        Native::route_moves(self).iter().map(ToString::to_string).collect()
    }
    fn observe(&self, observer: Player, out: &mut [f32]) {
        Native::observe(self, observer, out);
    }
    fn perft(&self, depth: u32, stop: &mut Stop<'_>) -> Option<u64> {
        crate::state::perft(self.position(), depth, stop)
    }
    fn perft_divide(&self, depth: u32, stop: &mut Stop<'_>) -> Option<Vec<(String, u64)>> {
        let counts = crate::state::perft_divide(self.position(), depth, stop)?;
        Some(counts.into_iter().map(|(mv, n)| (mv.to_string(), n)).collect())
    }
    fn playouts(&self, n: u64, seed: u64, stop: &mut Stop<'_>) -> Playouts {
        Native::playouts(self, n, seed, stop)
    }
    fn random_action(&self, rng: &mut Rng) -> Option<u32> {
        Native::random_action(self, rng)
    }
    fn evaluate(&self) -> i32 {
        Evaluate::evaluate(self.position())
    }
    fn zobrist(&self) -> u64 {
        Game::zobrist(self.position())
    }
    fn repeat(&self, n: usize, stop: &mut Stop<'_>) -> PyResult<Box<dyn DynBatch>> {
        let mut one = self.clone();
        one.restart();
        let too_many = || PyMemoryError::new_err(format!("{n} games do not fit in memory"));
        let mut states = Vec::new();
        states.try_reserve_exact(n).map_err(|_| too_many())?;
        // The states' own buffers: refused now rather than an abort later.
        let heap = one.footprint().saturating_sub(std::mem::size_of::<Native<G>>());
        Vec::<u8>::new().try_reserve_exact(heap.saturating_mul(n)).map_err(|_| too_many())?;
        for _ in 0..n {
            if stop.now() {
                break;
            }
            states.push(one.clone());
        }
        Ok(Box::new(Batch { states }))
    }
    fn think(
        &self,
        think: &Think,
        memory: &mut Memory,
        stop: &AtomicBool,
    ) -> (Option<String>, Info<String>) {
        let mut think = think.clone();
        think.limits.plies_left = self.plies_left();
        SearchGame::think(self.position(), &think, memory, stop, &mut |_| {})
    }
}

/// Many games of one kind, stepped together.
pub trait DynBatch: Send + Sync {
    fn spec(&self) -> &Arc<Spec>;
    fn len(&self) -> usize;
    fn state(&self, i: usize) -> Option<Box<dyn DynState>>;
    /// Each game's observation by its player to act, one after the other.
    fn observe(&self, out: &mut [f32]);
    /// Each game's legal-action mask, one after the other (zeroed by the caller).
    fn masks(&self, out: &mut [u8]);
    /// Each game's player to act (0 or 1).
    fn players(&self, out: &mut [i8]);
    /// Plays one action in each game; a game that ends writes its rewards
    /// (first player's, second player's) and whether it ended by the rules
    /// or at the cap, and starts again.
    ///
    /// # Errors
    /// The first game whose action is not legal, and why; no game has
    /// moved then.
    fn step(&mut self, actions: &[i64], out: &mut StepOut<'_>) -> Result<(), (usize, PlayError)>;
    /// A uniformly random legal action per game.
    fn random_actions(&self, rng: &mut Rng, out: &mut [i64]);
    /// `steps` random actions in every game, restarting ended games; returns
    /// (games ended, actions played). Stops when `stop` says so.
    fn step_random(&mut self, steps: u64, seed: u64, stop: &mut Stop<'_>) -> (u64, u64);
    fn restart(&mut self);
}

/// Where [`DynBatch::step`] writes.
pub struct StepOut<'a> {
    pub rewards: &'a mut [f32],
    pub terminated: &'a mut [u8],
    pub truncated: &'a mut [u8],
}

struct Batch<G: Encode> {
    states: Vec<Native<G>>,
}

/// The rewards of an outcome, first player's then second's.
pub fn rewards(outcome: Option<Outcome>) -> [f32; 2] {
    match outcome.and_then(|o| o.winner) {
        Some(Player::First) => [1.0, -1.0],
        Some(Player::Second) => [-1.0, 1.0],
        None => [0.0, 0.0],
    }
}

impl<G: Encode> DynBatch for Batch<G> {
    fn spec(&self) -> &Arc<Spec> {
        self.states[0].spec()
    }
    fn len(&self) -> usize {
        self.states.len()
    }
    fn state(&self, i: usize) -> Option<Box<dyn DynState>> {
        self.states.get(i).map(|s| Box::new(s.clone()) as Box<dyn DynState>)
    }
    fn observe(&self, out: &mut [f32]) {
        let len = self.spec().observation_len();
        for (state, out) in self.states.iter().zip(out.chunks_exact_mut(len)) {
            state.observe(state.position().side_to_move(), out);
        }
    }
    fn masks(&self, out: &mut [u8]) {
        let len = self.spec().num_actions;
        for (state, out) in self.states.iter().zip(out.chunks_exact_mut(len)) {
            state.write_mask(out);
        }
    }
    fn players(&self, out: &mut [i8]) {
        for (state, out) in self.states.iter().zip(out) {
            *out = state.position().side_to_move().index() as i8;
        }
    }
    fn step(&mut self, actions: &[i64], out: &mut StepOut<'_>) -> Result<(), (usize, PlayError)> {
        let as_u32 = |i: usize, action: i64| {
            u32::try_from(action).map_err(|_| (i, PlayError::Action(action)))
        };
        for (i, (state, &action)) in self.states.iter().zip(actions).enumerate() {
            state.check(as_u32(i, action)?).map_err(|e| (i, e))?;
        }
        for (i, (state, &action)) in self.states.iter_mut().zip(actions).enumerate() {
            state.apply(as_u32(i, action)?).map_err(|e| (i, e))?;
            let [first, second] = rewards(state.outcome());
            out.rewards[2 * i] = first;
            out.rewards[2 * i + 1] = second;
            out.terminated[i] = 0;
            out.truncated[i] = 0;
            if state.current_player().is_none() {
                out.terminated[i] = u8::from(!state.ended_at_cap());
                out.truncated[i] = u8::from(state.ended_at_cap());
                state.restart();
            }
        }
        Ok(())
    }
    fn random_actions(&self, rng: &mut Rng, out: &mut [i64]) {
        for (state, out) in self.states.iter().zip(out) {
            *out = state.random_action(rng).map_or(-1, i64::from);
        }
    }
    fn step_random(&mut self, steps: u64, seed: u64, stop: &mut Stop<'_>) -> (u64, u64) {
        let mut rng = Rng::new(seed);
        let (mut ended, mut played) = (0, 0);
        for _ in 0..steps {
            for state in &mut self.states {
                if stop.now() {
                    return (ended, played);
                }
                let Some(action) = state.random_action(&mut rng) else { continue };
                if state.apply(action).is_ok() {
                    played += 1;
                }
                if state.current_player().is_none() {
                    ended += 1;
                    state.restart();
                }
            }
        }
        (ended, played)
    }
    fn restart(&mut self) {
        for state in &mut self.states {
            state.restart();
        }
    }
}
