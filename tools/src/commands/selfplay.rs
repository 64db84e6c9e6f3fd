//! `igroteka match`: one game between two built-in engines, shown move by move.

use std::io::Write;

use board_core::{ByPlayer, GameRecord};
use clap::Args;
use search::{EngineKind, Memory};

use super::engine_args::{LimitArgs, best_move};

/// One engine-vs-engine game, board after every move.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The game.
    #[arg(long, short, default_value = "otrazhenie")]
    game: String,
    /// The variant (default: the game's first).
    #[arg(long)]
    variant: Option<String>,
    /// The first player's engine.
    #[arg(long, default_value = "alphabeta")]
    p1: EngineKind,
    /// The second player's engine.
    #[arg(long, default_value = "mcts")]
    p2: EngineKind,
    /// Stop and adjudicate after this many plies (default: the game's cap; 0: none).
    #[arg(long)]
    max_plies: Option<u32>,
    /// Print only the moves and the result, no boards.
    #[arg(long)]
    quiet: bool,
    #[command(flatten)]
    limits: LimitArgs,
}

pub fn run(args: &MatchArgs) -> anyhow::Result<()> {
    let entry = games::find(&args.game)?;
    if args.max_plies == Some(0) {
        eprintln!("warning: {}", arena::no_cap_warning(entry));
    }
    let start = crate::position::base_position(entry, args.variant.as_deref(), None)?;
    let names = entry.player_names;
    let mut record = GameRecord::new(start, args.max_plies.unwrap_or(entry.default_max_plies));
    let pos = record.start();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{} ({}): {} {} vs {} {}",
        entry.name,
        pos.variant(),
        names.first,
        args.p1,
        names.second,
        args.p2
    )?;
    if !args.quiet {
        writeln!(out, "{}", pos.board_text())?;
    }
    let mut memories = ByPlayer::<Memory>::default();
    let table = entry.endgame_table();
    for memory in [&mut memories.first, &mut memories.second] {
        memory.set_endgame_table(table.clone());
    }
    let outcome = loop {
        if let Some(outcome) = record.outcome() {
            break outcome;
        }
        let pos = record.position();
        let ply = record.moves().len() + 1;
        let side = pos.side_to_move();
        let engine = if side == board_core::Player::First { args.p1 } else { args.p2 };
        let mut think = args.limits.think(engine, (ply - 1) as u64);
        think.limits.plies_left = record.plies_left();
        let Some((mv, info)) = best_move(pos, &think, &mut memories[side]) else {
            anyhow::bail!("{engine} found no move in an unfinished game");
        };
        record.play(&mv)?;
        writeln!(
            out,
            "{ply:>3}. {:<6} {mv:<12} {}  depth {}  nodes {}",
            names[side], info.score, info.depth, info.nodes
        )?;
        if !args.quiet {
            writeln!(out, "{}", record.position().board_text())?;
        }
    };
    writeln!(out, "result {outcome}")?;
    Ok(())
}
