//! Game-agnostic players over [`board_core::Game`]: uniform random, MCTS
//! (UCT with random playouts and MCTS-Solver; with
//! [`Mcts::search_with_evaluation`], playouts cut off after
//! [`EVALUATED_PLAYOUT_CAP`] plies, or later while every move is a
//! compulsory capture, and scored by the game's evaluation as a win
//! probability, and the move it would play checked by a short alpha-beta
//! search, which is what the engine uses) and alpha-beta (negamax,
//! iterative deepening with aspiration windows, quiescence over the game's
//! tactical moves, a lock-free transposition table shared by Lazy-SMP
//! threads that stores the best move as the game's move code and is probed
//! before any move is generated, staged move picking (table move, tactical
//! moves, quiet moves by killers and history), late-move reductions) using
//! the game's [`board_core::Evaluate`].
//!
//! All are deterministic for a given seed and node or depth limit (alpha-beta
//! with one thread); all stop promptly when their stop flag is raised.
//! [`SearchGame`] and [`GameEntry`] put them behind the dynamic layer for
//! binaries that choose the game at run time.

mod alphabeta;
mod dynamic;
mod limits;
mod mcts;
mod picker;
mod random;
mod table;

pub use alphabeta::{AlphaBeta, MAX_DEPTH, Pruning, QUIESCENCE_PLIES, ThreadShortfall};
pub use dynamic::{
    DynLearned, DynTable, EngineKind, GameEntry, Memory, SearchGame, Think, UnknownEngine,
    find_game,
};
pub use limits::{Info, Limits, Score};
pub use mcts::{DEFAULT_TREE_MB, EVAL_SCALE, EVALUATED_PLAYOUT_CAP, ITERATIONS_PER_DEPTH, Mcts};
pub use random::random_move;
