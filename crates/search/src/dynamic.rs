//! Search behind the dynamic layer: pick a game and a player by name at run
//! time, with moves as text.
//!
//! When the engine holds an endgame table of the game ([`DynTable`], given
//! to [`Memory::set_endgame_table`]) that knows the position and all its
//! children, alpha-beta and MCTS play from it instead of searching: the
//! fastest win, any drawing move, or the slowest loss, reported as
//! `score win N`, `score cp 0` or `score loss N` with the exact distance in
//! plies and the table's line as the principal variation.

use std::any::Any;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use board_core::learned::{Learned, WeightsError};
use board_core::{
    ByPlayer, Describe, DynGame, EndgameTable, Evaluate, Game, PositionError, Proven, Rng,
    UnknownGame, UnknownVariant, Valuation, Variant,
};

use crate::{AlphaBeta, Info, Limits, Mcts, Score, ThreadShortfall};

/// The built-in players.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EngineKind {
    /// Alpha-beta with the game's evaluation.
    #[default]
    AlphaBeta,
    /// MCTS with random playouts, cut off and scored by the evaluation.
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Think {
    /// Which player.
    pub engine: EngineKind,
    /// Its limits.
    pub limits: Limits,
    /// Seed for the random players.
    pub seed: u64,
    /// Memory for alpha-beta's transposition table or MCTS's tree, in megabytes.
    pub hash_mb: usize,
    /// Threads for alpha-beta (Lazy SMP); 0 counts as 1.
    pub threads: usize,
    /// Whether a position the endgame table knows (if [`Memory`] holds one)
    /// is played from the table instead of searched (off for `bench`, which
    /// measures the search).
    pub use_table: bool,
    /// Only these moves (text) are searched at the root, if any is legal
    /// (UCI's `go searchmoves`); empty: all. Alpha-beta and random honour
    /// it; MCTS searches every move and then plays the best of these.
    pub searchmoves: Vec<String>,
    /// Root moves reported with their own exact scores and lines, best
    /// first (UCI's `MultiPV`; 0 counts as 1): alpha-beta only
    /// ([`AlphaBeta::set_multi_pv`]); MCTS, random and a position played
    /// from the endgame table report one line.
    pub multi_pv: usize,
}

impl Default for Think {
    fn default() -> Self {
        Think {
            engine: EngineKind::AlphaBeta,
            limits: Limits::default(),
            seed: 0,
            hash_mb: 16,
            threads: 1,
            use_table: true,
            searchmoves: Vec::new(),
            multi_pv: 1,
        }
    }
}

/// What a player keeps from one search to the next: alpha-beta's
/// transposition table, for whatever game it was searching. Starts empty; the
/// first alpha-beta search fills it, later ones of the same game and table
/// size reuse it, so a large table is allocated once, not per move. Likewise
/// MCTS's tree, which the next search re-roots at its position.
#[derive(Default)]
pub struct Memory {
    table: Option<(usize, Box<dyn Table>)>,
    tree: Option<Box<dyn Table>>,
    endgame: Option<DynTable>,
    learned: Option<DynLearned>,
    shortfall: Option<ThreadShortfall>,
}

/// A learned evaluation of some game ([`Learned`]) behind the dynamic layer:
/// weights an engine reads once ([`SearchGame::learned`]) and puts into its
/// [`Memory`]. Cheap to clone (shared).
#[derive(Clone)]
pub struct DynLearned {
    game: &'static str,
    /// An `Arc<Learned<G>>` of the game `G` named `game`.
    learned: Arc<dyn Any + Send + Sync>,
}

impl DynLearned {
    /// Wraps `learned`, weights of game `G`.
    pub fn new<G: Evaluate>(learned: Learned<G>) -> Self {
        DynLearned { game: G::NAME, learned: Arc::new(Arc::new(learned)) }
    }

    /// The name of the weights' game.
    pub fn game(&self) -> &'static str {
        self.game
    }

    /// The weights, if they are game `G`'s.
    pub fn get<G: Evaluate>(&self) -> Option<Arc<Learned<G>>> {
        self.learned.downcast_ref::<Arc<Learned<G>>>().cloned()
    }
}

impl fmt::Debug for DynLearned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DynLearned").field("game", &self.game).finish_non_exhaustive()
    }
}

/// An endgame table of some game ([`EndgameTable`]) behind the dynamic
/// layer: a value an engine owns (builds or loads, when and where it likes)
/// and puts into its [`Memory`]. Cheap to clone (shared).
#[derive(Clone)]
pub struct DynTable {
    game: &'static str,
    /// A `Box<dyn EndgameTable<G>>` of the game `G` named `game`.
    table: Arc<dyn Any + Send + Sync>,
}

impl DynTable {
    /// Wraps `table`, a table of game `G`.
    pub fn new<G: Game>(table: impl EndgameTable<G> + 'static) -> Self {
        let boxed: Box<dyn EndgameTable<G>> = Box::new(table);
        DynTable { game: G::NAME, table: Arc::new(boxed) }
    }

    /// The name of the table's game.
    pub fn game(&self) -> &'static str {
        self.game
    }

    /// The table, if it is one of game `G`.
    pub fn get<G: Game>(&self) -> Option<&dyn EndgameTable<G>> {
        self.table.downcast_ref::<Box<dyn EndgameTable<G>>>().map(AsRef::as_ref)
    }
}

impl fmt::Debug for DynTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DynTable").field("game", &self.game).finish_non_exhaustive()
    }
}

/// Alpha-beta's table or MCTS's tree of some game, behind the dynamic layer.
trait Table: Send {
    fn new_game(&mut self);
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

/// A searcher's memory that a new game clears.
trait Forget: Any + Send {
    fn forget(&mut self);
}

impl<G: Evaluate> Forget for AlphaBeta<G> {
    fn forget(&mut self) {
        self.clear();
    }
}

impl<G: Game> Forget for Mcts<G> {
    fn forget(&mut self) {
        self.clear();
    }
}

impl<T: Forget> Table for T {
    fn new_game(&mut self) {
        self.forget();
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

impl Memory {
    /// Gives the searches an endgame table (or takes it away with `None`).
    /// A table of another game than the one searched is not used.
    pub fn set_endgame_table(&mut self, table: Option<DynTable>) {
        self.endgame = table;
    }

    /// Makes alpha-beta and MCTS value positions by `learned` weights (or
    /// by the game's own evaluation with `None`, the default). Weights of
    /// another game than the one searched are not used.
    pub fn set_learned(&mut self, learned: Option<DynLearned>) {
        self.learned = learned;
    }

    /// The learned evaluation the searches use, if any.
    pub fn learned(&self) -> Option<&DynLearned> {
        self.learned.as_ref()
    }

    /// The threads the last search could not start, if any (it searched with
    /// those that started).
    pub fn thread_shortfall(&self) -> Option<&ThreadShortfall> {
        self.shortfall.as_ref()
    }

    /// The endgame table the searches use, if any.
    pub fn endgame_table(&self) -> Option<&DynTable> {
        self.endgame.as_ref()
    }

    /// Forgets what was learnt (a new game), keeping the table's memory so
    /// the next game needs no new allocation.
    pub fn clear(&mut self) {
        if let Some((_, table)) = &mut self.table {
            table.new_game();
        }
        if let Some(tree) = &mut self.tree {
            tree.new_game();
        }
    }

    /// The MCTS searcher of game `G` and `seed`, kept (with its tree bounded
    /// anew by `hash_mb`) or new. The alpha-beta table is dropped, so
    /// `Hash` bounds the one structure in use.
    fn mcts<G: Evaluate>(&mut self, seed: u64, hash_mb: usize) -> &mut Mcts<G> {
        self.table = None;
        let kept = |tree: &mut Box<dyn Table>| {
            tree.as_any_mut().downcast_mut::<Mcts<G>>().is_some_and(|m| m.seed() == seed)
        };
        if !self.tree.as_mut().is_some_and(kept) {
            self.tree = Some(Box::new(Mcts::<G>::new(seed)));
        }
        match self.tree.as_mut().and_then(|tree| tree.as_any_mut().downcast_mut::<Mcts<G>>()) {
            Some(searcher) => {
                searcher.set_tree_mb(hash_mb);
                searcher
            }
            None => unreachable!("the tree was just made for this game"),
        }
    }

    /// The alpha-beta searcher of game `G` with a `hash_mb` table, kept or new.
    /// The MCTS tree is dropped, so `Hash` bounds the one structure in use.
    fn alphabeta<G: Evaluate>(&mut self, hash_mb: usize) -> &mut AlphaBeta<G> {
        self.tree = None;
        let fits = self
            .table
            .as_mut()
            .is_some_and(|(mb, table)| *mb == hash_mb && table.as_any_mut().is::<AlphaBeta<G>>());
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
        f.debug_struct("Memory")
            .field("hash_mb", &self.table.as_ref().map(|(mb, _)| mb))
            .field("endgame", &self.endgame)
            .field("learned", &self.learned)
            .finish()
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
    /// game, so that the next search spends no time making it (engines call
    /// this on `isready`).
    fn prepare(&self, memory: &mut Memory, hash_mb: usize);

    /// A boxed copy.
    fn clone_search(&self) -> Box<dyn SearchGame>;

    /// The evaluation's feature names and weights
    /// ([`Evaluate::FEATURE_NAMES`], [`Evaluate::WEIGHTS`]).
    fn evaluation_terms(&self) -> (&'static [&'static str], &'static [i32]);

    /// The side to move's bonus that alpha-beta adds to the static value
    /// ([`Evaluate::TEMPO`]).
    fn tempo(&self) -> i32;

    /// The position's features in `out` (resized to one per name) and how it
    /// is valued ([`Evaluate::features`]).
    fn eval_features(&self, out: &mut Vec<i32>) -> Valuation;

    /// The value of this position for the side to move in `table` (an
    /// exact table, [`GameEntry::endgame_table`]), or `None` when `table` is
    /// another game's or does not hold the position. What a referee asks to
    /// adjudicate a game by the table, whatever the game.
    fn probe_table(&self, table: &DynTable) -> Option<Proven>;

    /// The game's pattern layout ([`Evaluate::PATTERNS`],
    /// [`Evaluate::PATTERN_BOUND`], [`Evaluate::PATTERN_LAYOUT`]): 0
    /// patterns when it has none.
    fn pattern_layout(&self) -> (usize, usize, &'static str);

    /// The position's pattern indices in `out` (resized to one per pattern).
    fn pattern_indices_into(&self, out: &mut Vec<u32>);

    /// The game's learned evaluation: the weights of the weights file
    /// `bytes`, or the ones the game ships with `None`.
    ///
    /// # Errors
    /// [`WeightsError`]: no weights for this game, or a file that is not
    /// one of its weights files.
    fn learned(&self, bytes: Option<&[u8]>) -> Result<DynLearned, WeightsError>;

    /// The position's value by `learned` (side to move's view), or `None`
    /// when they are another game's weights.
    fn learned_value(&self, learned: &DynLearned) -> Option<i32>;
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
        let endgame = memory.endgame.as_ref().and_then(DynTable::get::<G>);
        let from_table = match (think.engine, endgame) {
            (EngineKind::AlphaBeta | EngineKind::Mcts, Some(table)) if think.use_table => {
                play_from_table(self, table, &mut forward)
            }
            _ => None,
        };
        // `searchmoves`: the legal ones of them, or all when none is legal.
        let mut allowed: Vec<G::Move> =
            think.searchmoves.iter().filter_map(|text| self.parse_move(text).ok()).collect();
        if allowed.is_empty() {
            allowed = self.legal_moves();
        }
        let restricted = allowed.len() < self.legal_moves().len();
        let from_table = from_table.filter(|(best, _)| allowed.contains(best));
        memory.shortfall = None;
        let (best, info) = match (from_table, think.engine) {
            (Some((best, info)), _) => (Some(best), info),
            (None, EngineKind::AlphaBeta) => {
                let learned = memory.learned.as_ref().and_then(DynLearned::get::<G>);
                let searcher = memory.alphabeta::<G>(think.hash_mb);
                searcher.set_learned(learned);
                searcher.set_threads(think.threads);
                searcher.set_multi_pv(think.multi_pv);
                let found = searcher.search_among(self, allowed, think.limits, stop, &mut forward);
                memory.shortfall = searcher.shortfall().cloned();
                found
            }
            (None, EngineKind::Mcts) => {
                let learned = memory.learned.as_ref().and_then(DynLearned::get::<G>);
                let searcher = memory.mcts::<G>(think.seed, think.hash_mb);
                searcher.set_learned(learned);
                let (best, mut info) =
                    searcher.search_with_evaluation(self, think.limits, stop, &mut forward);
                match best {
                    Some(best) if restricted && !allowed.contains(&best) => {
                        let best = searcher.most_visited_among(&allowed);
                        info.pv = best.into_iter().collect();
                        (best, info)
                    }
                    _ => (best, info),
                }
            }
            (None, EngineKind::Random) => {
                let best = Rng::new(think.seed).choose(&allowed).copied();
                let info = Info {
                    depth: 1,
                    seldepth: 1,
                    score: Score::Cp(0),
                    nodes: 1,
                    time: std::time::Duration::ZERO,
                    pv: best.into_iter().collect(),
                    multipv: None,
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

    fn tempo(&self) -> i32 {
        G::TEMPO
    }

    fn eval_features(&self, out: &mut Vec<i32>) -> Valuation {
        out.clear();
        out.resize(G::FEATURE_NAMES.len(), 0);
        self.features(out)
    }

    fn probe_table(&self, table: &DynTable) -> Option<Proven> {
        table.get::<G>()?.probe(self)
    }

    fn pattern_layout(&self) -> (usize, usize, &'static str) {
        (G::PATTERNS, G::PATTERN_BOUND, G::PATTERN_LAYOUT)
    }

    fn pattern_indices_into(&self, out: &mut Vec<u32>) {
        out.clear();
        out.resize(G::PATTERNS, 0);
        self.pattern_indices(out);
    }

    fn learned(&self, bytes: Option<&[u8]>) -> Result<DynLearned, WeightsError> {
        let learned = match bytes {
            Some(bytes) => Learned::<G>::from_bytes(bytes)?,
            None => Learned::<G>::shipped()?,
        };
        Ok(DynLearned::new(learned))
    }

    fn learned_value(&self, learned: &DynLearned) -> Option<i32> {
        Some(learned.get::<G>()?.evaluate(self))
    }
}

/// The move the game's table rates best and the value it keeps, if the table
/// knows every child (`None` too when there is no move); `probes` counts the
/// positions looked up. Among moves of the same value the evaluation decides,
/// so a drawn position is played for the opponent's mistakes (keeping
/// material) rather than by the first drawing move.
fn table_move<G: Evaluate>(
    pos: &G,
    table: &dyn EndgameTable<G>,
    probes: &mut u64,
) -> Option<(G::Move, Proven)> {
    let mut best: Option<(G::Move, Proven, i32)> = None;
    for mv in pos.legal_moves() {
        let mut child = pos.clone();
        child.play_unchecked(mv);
        *probes += 1;
        let value = table.probe(&child)?.one_ply_back();
        let mine = -child.evaluate();
        if best.is_none_or(|(_, kept, theirs)| (value, mine) > (kept, theirs)) {
            best = Some((mv, value, mine));
        }
    }
    best.map(|(mv, value, _)| (mv, value))
}

/// Plays from the game's table when it knows the position: the best move,
/// with the table's line to the end of the game (one move for a draw) as
/// the principal variation and its length as the depth.
fn play_from_table<G: Evaluate>(
    pos: &G,
    table: &dyn EndgameTable<G>,
    on_info: &mut dyn FnMut(&Info<G::Move>),
) -> Option<(G::Move, Info<G::Move>)> {
    let start = Instant::now();
    let mut probes = 1;
    table.probe(pos)?;
    let (first, value) = table_move(pos, table, &mut probes)?;
    let (score, plies) = match value {
        Proven::Win(n) => (Score::Win(n), n),
        Proven::Loss(n) => (Score::Loss(n), n),
        Proven::Draw => (Score::Cp(0), 1),
    };
    let mut pv = vec![first];
    let mut line = pos.clone();
    line.play_unchecked(first);
    while pv.len() < plies as usize {
        let Some((mv, _)) = table_move(&line, table, &mut probes) else { break };
        line.play_unchecked(mv);
        pv.push(mv);
    }
    let depth = u32::try_from(pv.len()).unwrap_or(u32::MAX);
    let time = start.elapsed();
    let info = Info { depth, seldepth: depth, score, nodes: probes, time, pv, multipv: None };
    on_info(&info);
    Some((first, info))
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
    /// How to write a move ([`Game::NOTATION`]).
    pub notation: &'static str,
    /// Whether engines use the learned evaluation by default
    /// ([`Evaluate::LEARNED_BY_DEFAULT`]).
    pub learned_by_default: bool,
    start: fn(&str) -> Result<Box<dyn SearchGame>, UnknownVariant>,
    from_text: FromText,
    endgame_table: Option<fn() -> DynTable>,
    shipped_learned: fn() -> Result<DynLearned, WeightsError>,
}

type FromText = fn(&str, &str) -> Result<Box<dyn SearchGame>, PositionError>;

impl GameEntry {
    /// The entry of game `G`.
    pub const fn of<G: Evaluate + Describe>() -> Self {
        GameEntry {
            name: G::NAME,
            variants: <G::Variant as Variant>::NAMES,
            player_names: G::PLAYER_NAMES,
            default_max_plies: G::DEFAULT_MAX_PLIES,
            notation: G::NOTATION,
            learned_by_default: G::LEARNED_BY_DEFAULT && !G::LEARNED_WEIGHTS.is_empty(),
            start: |variant| Ok(Box::new(G::start(variant.parse()?))),
            from_text: |text, variant| {
                let variant = variant.parse()?;
                Ok(Box::new(G::from_text(text, variant)?))
            },
            endgame_table: None,
            shipped_learned: || Learned::<G>::shipped().map(DynLearned::new),
        }
    }

    /// The learned evaluation engines value positions by when not told
    /// otherwise: the game's shipped weights if
    /// [`learned_by_default`](GameEntry::learned_by_default), else `None`
    /// (the classic evaluation).
    pub fn default_learned(&self) -> Option<DynLearned> {
        if self.learned_by_default { (self.shipped_learned)().ok() } else { None }
    }

    /// The same entry with an endgame table that `make` builds or loads
    /// (engines call it once, when they first need the table).
    #[must_use]
    pub const fn with_endgame_table(mut self, make: fn() -> DynTable) -> Self {
        self.endgame_table = Some(make);
        self
    }

    /// Builds or loads the game's endgame table, if it has one.
    pub fn endgame_table(&self) -> Option<DynTable> {
        self.endgame_table.map(|make| make())
    }

    /// Whether the game has an endgame table.
    pub fn has_endgame_table(&self) -> bool {
        self.endgame_table.is_some()
    }

    /// The default variant.
    pub fn default_variant(&self) -> &'static str {
        self.variants[0]
    }

    /// The canonical name of variant `name` (trimmed, any case).
    ///
    /// # Errors
    /// [`UnknownVariant`] listing the game's variants.
    pub fn variant(&self, name: &str) -> Result<&'static str, UnknownVariant> {
        let wanted = name.trim();
        self.variants.iter().copied().find(|v| v.eq_ignore_ascii_case(wanted)).ok_or_else(|| {
            UnknownVariant { game: self.name, variant: wanted.to_owned(), known: self.variants }
        })
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

/// The entry named `name` (trimmed, any case) among `games`.
///
/// # Errors
/// [`UnknownGame`] listing the games there are.
pub fn find_game<'a>(games: &'a [GameEntry], name: &str) -> Result<&'a GameEntry, UnknownGame> {
    let wanted = name.trim();
    games.iter().find(|g| g.name.eq_ignore_ascii_case(wanted)).ok_or_else(|| UnknownGame {
        name: wanted.to_owned(),
        known: games.iter().map(|g| g.name).collect(),
    })
}
