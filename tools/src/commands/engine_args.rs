//! The flags that configure a built-in player.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::Args;
use search::{EngineKind, Info, Limits, Memory, SearchGame, Think};

/// `--depth`, `--nodes`, `--movetime`, `--seed`, `--hash`.
#[derive(Args, Debug, Clone)]
pub struct LimitArgs {
    /// Alpha-beta search depth in plies (default 4 when no limit is given).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Node limit (MCTS: iterations; default 3000 when no limit is given).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Time per move in milliseconds.
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Seed of the random players.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
}

impl LimitArgs {
    /// How `engine` thinks under these flags; `ply` varies the seed per move.
    pub fn think(&self, engine: EngineKind, ply: u64) -> Think {
        let mut limits = Limits {
            depth: self.depth,
            nodes: self.nodes,
            time: self.movetime.map(Duration::from_millis),
            plies_left: None,
        };
        if limits == Limits::default() {
            limits = match engine {
                EngineKind::Mcts => Limits::nodes(3000),
                _ => Limits::depth(4),
            };
        }
        Think {
            engine,
            limits,
            seed: self.seed.wrapping_add(ply),
            hash_mb: self.hash,
            ..Think::default()
        }
    }
}

/// Searches `pos` and returns the move and the final info.
pub fn best_move(
    pos: &dyn SearchGame,
    think: &Think,
    memory: &mut Memory,
) -> Option<(String, Info<String>)> {
    let (best, info) = pos.think(think, memory, &AtomicBool::new(false), &mut |_| {});
    best.map(|mv| (mv, info))
}
