//! The vocabulary and the contract shared by the Igroteka board games.
//!
//! - [`Player`], [`ByPlayer`] and [`Outcome`]: who moves, per-player data, how a
//!   game ended (winner or draw, optional score, a reason).
//! - [`Game`]: the trait every game implements — a small required core
//!   (start positions, move generation, `play_unchecked`, the end, the
//!   Zobrist key `zobrist`, two-stage text parsing) and provided methods
//!   (`play`, `parse_move`, `from_text`, `perft`, ...), with its
//!   [`Variant`]s and [`Cell`]s. [`Evaluate`] adds a static evaluation for
//!   search; an [`EndgameTable`] gives [`Proven`] values.
//! - [`GameRecord`]: a game as played (start, moves, ply cap, outcome): where
//!   every tool decides when a game ends.
//! - [`perft`]: move-path counting with divide.
//! - [`DynGame`]: any game behind one object-safe trait, text at the boundary.
//! - [`Rng`] and [`zobrist_keys`]: seeded randomness without dependencies.
//! - [`Score`]: a searched value (`cp`, `win`, `loss`), as engines report it.
//! - [`coords`]: square names on rectangular boards.
//! - [`view`]: how a game looks ([`Describe`]), for GUIs that know no rules.
//! - `testkit` (feature `testkit`): the conformance suite every game runs, and
//!   `tictactoe`, a tiny complete game for testing generic code.
//!
//! Player [`Player::First`] is always the side that moves first from the
//! game's normal start; results are written from its side (`1-0`: it won).
//!
//! # Example
//!
//! Code written once for every game: a random game to its end under a ply
//! cap, with the record deciding the end as every tool does.
//!
//! ```
//! use board_core::{Game, Outcome, Rng};
//!
//! fn random_game<G: Game>(seed: u64, max_plies: u32) -> (Vec<G::Move>, Outcome) {
//!     let mut rng = Rng::new(seed);
//!     let mut pos = G::default();
//!     let mut moves = Vec::new();
//!     loop {
//!         if let Some(end) = pos.outcome() {
//!             return (moves, end);
//!         }
//!         if moves.len() == max_plies as usize {
//!             return (moves, pos.adjudicate());
//!         }
//!         let mv = *rng.choose(&pos.legal_moves()).expect("a game that goes on has moves");
//!         pos.play_unchecked(mv);
//!         moves.push(mv);
//!     }
//! }
//! ```
//!
//! # The shape of a game crate
//!
//! Every game crate has the same public shape, so a user of one knows them
//! all. [`Game`]'s supertraits and associated types enforce most of it at
//! compile time and the conformance suite (`testkit`, feature `testkit`)
//! checks the rest; a new game must tick every line:
//!
//! 1. `Position` implements [`Game`], [`Evaluate`] and [`Describe`]; an old
//!    name stays as a `#[deprecated]` alias (`city::City`).
//! 2. `Position: Default + FromStr + Display`: the default variant's start,
//!    reading and printing the position text of the default variant
//!    (`{:#}` draws the board for people). [`Game::from_text`] takes a typed
//!    variant for the others.
//! 3. `Move` (small, `Copy`, `Display` is its notation), `MoveText` (a move
//!    read but not yet checked), `Setup` (a position read but not yet
//!    validated, `FromStr + Display`).
//! 4. `Variant`: an enum made by [`variants!`] (`Copy + FromStr + Display`,
//!    `Default` is the default variant), even for one variant (`Standard`).
//! 5. A cell type (`Square`, `Field`) implementing [`Cell`]: `FromStr` (any
//!    case) `+ Display + Copy + Eq + Hash`, `index() -> usize` below
//!    `INDEX_BOUND` (`rank * files + file` on a grid), [`Game::piece_at`] to
//!    read one.
//! 6. Rules in [`Game`], heuristics in [`Evaluate`]: move classification
//!    ([`Game::is_tactical`], [`Game::generate_tactical`]) and the move index
//!    are rules; an endgame table is a value implementing [`EndgameTable`].
//! 7. `use <game>::prelude::*` alone reaches everything a GUI or a search
//!    needs: the game's types and [`prelude`]'s; the crate re-exports
//!    `board_core` for the rest ([`DynGame`], [`GameRecord`]).
//! 8. No inherent method is named like a method of [`Game`], [`Evaluate`],
//!    [`Describe`], [`Cell`] or [`Variant`] (the workspace's `tests/shape.rs`
//!    checks it).
//! 9. The README opens with the same example in every crate (list moves,
//!    play one, read a cell, print and parse the position, draw it), run as
//!    a doctest; [`Game::NOTATION`] says in one line how to write a move.

mod cell;
mod dynamic;
mod error;
mod game;
mod outcome;
mod player;
mod record;
mod rng;
mod score;
mod variant;

pub mod coords;
pub mod learned;
pub mod perft;
#[cfg(feature = "testkit")]
pub mod testkit;
#[cfg(feature = "testkit")]
pub mod tictactoe;
pub mod view;

/// The vocabulary a user of one game needs besides the game's own types:
/// the traits (with their methods in scope), the shared value types, the
/// errors, perft and the view. Every game crate's prelude re-exports it, so
/// `cargo add focus` alone is enough: `use focus::prelude::*;`.
///
/// The [`Variant`] trait comes in unnamed (`as _`): its
/// methods are in scope, while the name `Variant` stays free for the game's
/// own variant enum. [`DynGame`] (with [`GameRecord`]) is not
/// in it: its blanket implementation for every game has methods named like
/// [`Game`]'s, so with both in scope `pos.perft(3)` would be ambiguous. Game
/// crates re-export `board_core` itself for it: `focus::board_core::DynGame`.
pub mod prelude {
    pub use crate::Variant as _;
    pub use crate::perft::{perft, perft_divide};
    pub use crate::view::{Board, Describe, Pieces};
    pub use crate::{
        ByPlayer, Cell, CellError, EndgameTable, Evaluate, Game, IllegalMoveError, MoveError,
        MoveSyntaxError, Outcome, Player, PositionError, Proven, Score, UnknownVariant,
    };
}

pub use cell::Cell;
pub use dynamic::DynGame;
pub use error::{
    CellError, IllegalMoveError, MoveError, MoveSyntaxError, PositionError, UnknownGame,
    UnknownVariant,
};
pub use game::{
    EndgameTable, Evaluate, Game, MAX_FEATURES, Proven, Valuation, dot, weighted_evaluation,
    write_difference,
};
pub use outcome::Outcome;
pub use player::{ByPlayer, Player};
pub use record::{GameRecord, RecordError};
pub use rng::{Rng, zobrist_keys};
pub use score::Score;
pub use variant::{Variant, parse_variant};
pub use view::Describe;
