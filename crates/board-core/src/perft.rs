//! Counting move paths, the backbone of move-generation testing, and
//! random playouts, the cost of move generation in random play.

use crate::Rng;

use crate::Game;

/// The number of leaf positions `depth` plies from `pos` (the last ply is
/// bulk-counted: the moves of the positions one ply earlier are counted,
/// not played).
///
/// ```
/// # use board_core::{perft::perft, Game};
/// # fn count<G: Game>(pos: &G) { let _ = perft(pos, 3); }
/// ```
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    let mut buffers = vec![Vec::new(); depth as usize];
    count(pos, &mut buffers)
}

/// The perft count below each legal move at `depth` (`depth >= 1`), in move
/// generation order: what `perft --divide` prints.
pub fn perft_divide<G: Game>(pos: &G, depth: u32) -> Vec<(G::Move, u64)> {
    let mut buffers = vec![Vec::new(); depth.saturating_sub(1) as usize];
    pos.legal_moves()
        .into_iter()
        .map(|mv| {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            (mv, count(&child, &mut buffers))
        })
        .collect()
}

/// One buffer per remaining ply, so no allocation happens per node.
fn count<G: Game>(pos: &G, buffers: &mut [Vec<G::Move>]) -> u64 {
    let Some((moves, deeper)) = buffers.split_first_mut() else {
        return 1;
    };
    moves.clear();
    pos.generate_moves(moves);
    if deeper.is_empty() {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &mv in moves.iter() {
        let mut child = pos.clone();
        child.play_unchecked(mv);
        nodes += count(&child, deeper);
    }
    nodes
}

/// What [`random_playouts`] played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Playouts {
    /// Plies played, in all games.
    pub plies: u64,
    /// Moves generated, summed over every position a game met (an ended
    /// game's last position generates none).
    pub generated: u64,
}

/// Plays `games` random games from `start`, each move chosen uniformly
/// among the legal ones by one generator seeded with `seed`, each game until
/// it ends or has `max_plies` plies: the cost of generating and making moves
/// in random play (benches report it per generated move). The same
/// arguments play the same games.
///
/// ```
/// # #[cfg(feature = "testkit")] {
/// use board_core::perft::{Playouts, random_playouts};
/// use board_core::tictactoe::TicTacToe;
///
/// // One ply of each of 3 games: 9 moves generated at each start.
/// let played = random_playouts(&TicTacToe::default(), 1, 3, 1);
/// assert_eq!(played, Playouts { plies: 3, generated: 27 });
/// # }
/// ```
#[inline(never)]
pub fn random_playouts<G: Game>(start: &G, seed: u64, games: u32, max_plies: u32) -> Playouts {
    let mut rng = Rng::new(seed);
    let mut moves = Vec::new();
    let mut played = Playouts::default();
    for _ in 0..games {
        let mut pos = start.clone();
        for _ in 0..max_plies {
            moves.clear();
            pos.generate_moves(&mut moves);
            played.generated += moves.len() as u64;
            let Some(&mv) = rng.choose(&moves) else { break };
            pos.play_unchecked(mv);
            played.plies += 1;
        }
    }
    played
}
