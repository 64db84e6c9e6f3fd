//! Search behind the dynamic layer: pick a game and a player by name at run
//! time, with moves as text.

use std::any::Any;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;

use board_core::{
    ByPlayer, Describe, DynGame, Evaluate, PositionError, Rng, UnknownVariant, Valuation,
};

use crate::{AlphaBeta, Info, Limits, Mcts, random_move};

/// The built-in players.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EngineKind {
    /// Alpha-beta with the game's evaluation.
    #[default]
    AlphaBeta,
    /// UCT with random playouts, cut off and judged by the evaluation.
    Mcts,
    /// A uniformly random legal move.
    Random,
}

impl EngineKind {
    /// Every kind, default first.
    pub const ALL: [EngineKind; 3] = [EngineKind::AlphaBeta, EngineKind::Mcts, EngineKind::Random];

    /// The name used on command lines and in the protocol.
    pub const fn name(self) -> &'static str {
        match self {
            EngineKind::AlphaBeta => "alphabeta",
            EngineKind::Mcts => "mcts",
            EngineKind::Random => "random",
        }
    }
}

impl fmt::Display for EngineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not an engine kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownEngine(pub String);

impl fmt::Display for UnknownEngine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown engine '{}' (engines: alphabeta, mcts, random)", self.0)
    }
}

impl std::error::Error for UnknownEngine {}

impl FromStr for EngineKind {
    type Err = UnknownEngine;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        EngineKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownEngine(s.to_owned()))
    }
}

/// How to think about one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Think {
    /// Which player.
    pub engine: EngineKind,
    /// Its limits.
    pub limits: Limits,
    /// Seed for the random players.
    pub seed: u64,
    /// Transposition table size for alpha-beta, in megabytes.
    pub hash_mb: usize,
}

impl Default for Think {
    fn default() -> Self {
        Think { engine: EngineKind::AlphaBeta, limits: Limits::default(), seed: 0, hash_mb: 16 }
    }
}

/// What a player keeps from one search to the next: alpha-beta's
/// transposition table, for whatever game it was searching. Starts empty; the
/// first alpha-beta search fills it, later ones of the same game and table
/// size reuse it, so a large table is allocated once, not per move.
#[derive(Default)]
pub struct Memory {
    table: Option<(usize, Box<dyn Table>)>,
}

/// Alpha-beta of some game, behind the dynamic layer.
trait Table: Send {
    fn new_game(&mut self);
    fn as_any_mut(&mut self) -> &mut dyn Any;
    fn is_for(&self, game: std::any::TypeId) -> bool;
}

impl<G: Evaluate> Table for AlphaBeta<G> {
    fn new_game(&mut self) {
        self.clear();
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
    fn is_for(&self, game: std::any::TypeId) -> bool {
        game == std::any::TypeId::of::<G>()
    }
}

impl Memory {
    /// Forgets what was learnt (a new game), keeping the table's memory so
    /// the next game needs no new allocation.
    pub fn clear(&mut self) {
        if let Some((_, table)) = &mut self.table {
            table.new_game();
        }
    }

    /// The alpha-beta searcher of game `G` with a `hash_mb` table, kept or new.
    fn alphabeta<G: Evaluate>(&mut self, hash_mb: usize) -> &mut AlphaBeta<G> {
        let fits = self
            .table
            .as_ref()
            .is_some_and(|(mb, table)| *mb == hash_mb && table.is_for(std::any::TypeId::of::<G>()));
        if !fits {
            self.table = Some((hash_mb, Box::new(AlphaBeta::<G>::new(hash_mb))));
        }
        match self.table.as_mut().and_then(|(_, table)| table.as_any_mut().downcast_mut()) {
            Some(searcher) => searcher,
            None => unreachable!("the table was just made for this game"),
        }
    }
}

impl fmt::Debug for Memory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Memory").field("hash_mb", &self.table.as_ref().map(|(mb, _)| mb)).finish()
    }
}

/// A position of some game that can also be searched.
pub trait SearchGame: DynGame {
    /// Searches for the best move; `None` only when the game is over.
    /// `memory` carries the transposition table between searches;
    /// `on_info` receives progress with the moves as text.
    fn think(
        &self,
        think: &Think,
        memory: &mut Memory,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info<String>),
    ) -> (Option<String>, Info<String>);

    /// Makes sure `memory` holds an alpha-beta table of `hash_mb` for this
    /// game, so that the next search spends no time allocating it (engines
    /// call this on `isready`).
    fn prepare(&self, memory: &mut Memory, hash_mb: usize);

    /// A boxed copy.
    fn clone_search(&self) -> Box<dyn SearchGame>;

    /// The evaluation's feature names and weights
    /// ([`Evaluate::FEATURE_NAMES`], [`Evaluate::WEIGHTS`]).
    fn evaluation_terms(&self) -> (&'static [&'static str], &'static [i32]);

    /// The position's features in `out` (resized to one per name) and how it
    /// is valued ([`Evaluate::features`]).
    fn eval_features(&self, out: &mut Vec<i32>) -> Valuation;
}

impl<G: Evaluate + Describe> SearchGame for G {
    fn think(
        &self,
        think: &Think,
        memory: &mut Memory,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info<String>),
    ) -> (Option<String>, Info<String>) {
        let mut forward = |info: &Info<G::Move>| on_info(&info.map_moves(ToString::to_string));
        let (best, info) = match think.engine {
            EngineKind::AlphaBeta => {
                memory.alphabeta::<G>(think.hash_mb).search(self, think.limits, stop, &mut forward)
            }
            EngineKind::Mcts => {
                Mcts::new(think.seed).search_with_evaluation(self, think.limits, stop, &mut forward)
            }
            EngineKind::Random => {
                let best = random_move(self, &mut Rng::new(think.seed));
                let info = Info {
                    depth: 1,
                    seldepth: 1,
                    score: crate::Score::Cp(0),
                    nodes: 1,
                    time: std::time::Duration::ZERO,
                    pv: best.into_iter().collect(),
                };
                forward(&info);
                (best, info)
            }
        };
        (best.map(|mv| mv.to_string()), info.map_moves(ToString::to_string))
    }

    fn prepare(&self, memory: &mut Memory, hash_mb: usize) {
        memory.alphabeta::<G>(hash_mb);
    }

    fn clone_search(&self) -> Box<dyn SearchGame> {
        Box::new(self.clone())
    }

    fn evaluation_terms(&self) -> (&'static [&'static str], &'static [i32]) {
        (G::FEATURE_NAMES, G::WEIGHTS)
    }

    fn eval_features(&self, out: &mut Vec<i32>) -> Valuation {
        out.clear();
        out.resize(G::FEATURE_NAMES.len(), 0);
        self.features(out)
    }
}

impl Clone for Box<dyn SearchGame> {
    fn clone(&self) -> Self {
        self.clone_search()
    }
}

/// One game of a registry: its names and how to make positions.
#[derive(Clone, Copy, Debug)]
pub struct GameEntry {
    /// The game's name.
    pub name: &'static str,
    /// Its variants, default first.
    pub variants: &'static [&'static str],
    /// Its colour names, first player first.
    pub player_names: ByPlayer<&'static str>,
    /// The ply cap tools use by default.
    pub default_max_plies: u32,
    start: fn(&str) -> Result<Box<dyn SearchGame>, UnknownVariant>,
    from_text: FromText,
}

type FromText = fn(&str, &str) -> Result<Box<dyn SearchGame>, PositionError>;

impl GameEntry {
    /// The entry of game `G`.
    pub const fn of<G: Evaluate + Describe>() -> Self {
        GameEntry {
            name: G::NAME,
            variants: G::VARIANTS,
            player_names: G::PLAYER_NAMES,
            default_max_plies: G::DEFAULT_MAX_PLIES,
            start: |variant| Ok(Box::new(G::start(variant)?)),
            from_text: |text, variant| Ok(Box::new(G::from_text(text, variant)?)),
        }
    }

    /// The default variant.
    pub fn default_variant(&self) -> &'static str {
        self.variants[0]
    }

    /// The start position of `variant`.
    ///
    /// # Errors
    /// [`UnknownVariant`].
    pub fn start(&self, variant: &str) -> Result<Box<dyn SearchGame>, UnknownVariant> {
        (self.start)(variant)
    }

    /// A position of `variant` from its text.
    ///
    /// # Errors
    /// [`PositionError`].
    pub fn from_text(
        &self,
        text: &str,
        variant: &str,
    ) -> Result<Box<dyn SearchGame>, PositionError> {
        (self.from_text)(text, variant)
    }
}

/// The entry named `name` (case-insensitive).
pub fn find_game<'a>(games: &'a [GameEntry], name: &str) -> Option<&'a GameEntry> {
    games.iter().find(|g| g.name.eq_ignore_ascii_case(name.trim()))
}
