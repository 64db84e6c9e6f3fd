//! The vocabulary and the contract shared by the Igroteka board games.
//!
//! - [`Player`], [`ByPlayer`] and [`Outcome`]: who moves, per-player data, how a
//!   game ended (winner or draw, optional score, a reason).
//! - [`Game`]: the trait every game implements — a small required core
//!   (start positions, move generation, `play_unchecked`, the end, the
//!   Zobrist key `zobrist`, two-stage text parsing) and provided methods
//!   (`play`, `parse_move`, `from_text`, `perft`, ...). [`Evaluate`] adds a
//!   static evaluation for alpha-beta, and [`Proven`] values for games with an
//!   endgame table.
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

mod dynamic;
mod error;
mod game;
mod outcome;
mod player;
mod rng;
mod score;

pub mod coords;
pub mod perft;
#[cfg(feature = "testkit")]
pub mod testkit;
#[cfg(feature = "testkit")]
pub mod tictactoe;
pub mod view;

/// The vocabulary a user of one game needs besides the game's own types.
/// Every game crate re-exports it, so `cargo add focus` alone is enough:
/// `use focus::{Game, Player, Position};`.
pub mod prelude {
    pub use crate::{
        ByPlayer, Evaluate, Game, IllegalMoveError, MoveError, MoveSyntaxError, Outcome, Player,
        PositionError, UnknownVariant,
    };
}

pub use dynamic::DynGame;
pub use error::{IllegalMoveError, MoveError, MoveSyntaxError, PositionError, UnknownVariant};
pub use game::{
    Evaluate, Game, MAX_FEATURES, Proven, Valuation, dot, weighted_evaluation, write_difference,
};
pub use outcome::Outcome;
pub use player::{ByPlayer, Player};
pub use rng::{Rng, zobrist_keys};
pub use score::Score;
pub use view::Describe;
