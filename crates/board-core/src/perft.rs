//! Counting move paths: the backbone of move-generation testing.

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
