//! The uniform random player.

use board_core::{Game, Rng};

/// A uniformly random legal move, or `None` when the game is over.
///
/// Deterministic for a given generator state.
pub fn random_move<G: Game>(pos: &G, rng: &mut Rng) -> Option<G::Move> {
    rng.choose(&pos.legal_moves()).copied()
}
