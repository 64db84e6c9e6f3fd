//! `igroteka perft`: move-path counts, the check of a move generator.

use std::io::{IsTerminal, Write};
use std::time::Instant;

use anyhow::Context;
use clap::Args;

use crate::position::PositionArgs;

/// The deepest depth `perft` accepts, as the engine's `perft` command: past
/// it even two moves a ply make a count that outgrows 64 bits (and long
/// before it a count takes years).
const MAX_DEPTH: u32 = 64;

/// Count move paths to each depth 1..N.
#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// The deepest depth (0 to 64).
    #[arg(long, short, value_parser = clap::value_parser!(u32).range(..=i64::from(MAX_DEPTH)))]
    depth: u32,
    /// List `<move> <count>` below each legal move at the last depth.
    #[arg(long)]
    divide: bool,
}

/// Prints `depth <d> nodes <count> time <ms> nps <n>` for each depth; the
/// last depth is counted move by move, with progress on a terminal's stderr.
pub fn run(args: &PerftArgs) -> anyhow::Result<()> {
    let (_, pos) = args.position.position()?;
    let mut out = std::io::stdout().lock();
    for depth in 1..args.depth {
        let start = Instant::now();
        let nodes = pos.perft(depth);
        writeln!(out, "{}", line(depth, nodes, start))?;
    }
    if args.depth == 0 {
        // The position itself is the one path of length 0.
        writeln!(out, "{}", line(0, 1, Instant::now()))?;
        return Ok(());
    }
    let start = Instant::now();
    let show_progress = std::io::stderr().is_terminal();
    let moves = pos.legal_move_texts();
    let mut total: u64 = 0;
    let mut divide = Vec::with_capacity(moves.len());
    for (i, mv) in moves.iter().enumerate() {
        if show_progress {
            eprint!("\r\x1b[K[{}/{}] {mv} ...", i + 1, moves.len());
        }
        let mut child = pos.clone();
        child.play_move_text(mv)?;
        let nodes = child.perft(args.depth - 1);
        total = total.checked_add(nodes).context("the count outgrows 64 bits")?;
        divide.push((mv, nodes));
    }
    if show_progress {
        eprint!("\r\x1b[K");
    }
    if args.divide {
        for (mv, nodes) in divide {
            writeln!(out, "{mv} {nodes}")?;
        }
    }
    writeln!(out, "{}", line(args.depth, total, start))?;
    Ok(())
}

fn line(depth: u32, nodes: u64, start: Instant) -> String {
    let micros = start.elapsed().as_micros().max(1);
    let nps = u128::from(nodes) * 1_000_000 / micros;
    format!("depth {depth} nodes {nodes} time {} nps {nps}", micros / 1000)
}
