//! `igroteka solve`: a position's value at perfect play, and every move's,
//! from a game's endgame table (Otrazhenie: every position).

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::bail;
use board_core::{Game, Proven};
use clap::Args;
use otrazhenie::{CacheUse, Tablebase};

use crate::position::PositionArgs;

/// Print the value of a position at perfect play and the value of each move.
#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// The table file (default: `otrazhenie-table.bin` in the cache
    /// directory, `$IGROTEKA_CACHE`, else `$XDG_CACHE_HOME/igroteka`, else
    /// `~/.cache/igroteka`). Missing, damaged or stale: rebuilt and rewritten.
    #[arg(long, value_name = "PATH")]
    tablebase: Option<PathBuf>,
}

/// Prints `value <v>`, then `move <m> <v>` for every legal move, best first
/// (values for the side to move: `win N`, `loss N` in plies, or `draw`).
/// How the table was obtained goes to stderr.
pub fn run(args: &SolveArgs) -> anyhow::Result<()> {
    let (entry, pos) = args.position.position()?;
    let Some(&pos) = pos.as_any().downcast_ref::<otrazhenie::Position>() else {
        bail!(
            "solve: {} has no perfect-play table (only {} has one)",
            entry.name,
            otrazhenie::Position::NAME
        );
    };
    let table = load_table(args.tablebase.clone().or_else(games::default_table_file));
    let mut moves: Vec<(String, Proven)> = pos
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let mut child = pos;
            child.play_unchecked(mv);
            (mv.to_string(), table.value(&child).one_ply_back())
        })
        .collect();
    moves.sort_by_key(|(_, value)| std::cmp::Reverse(*value));
    let width = moves.iter().map(|(mv, _)| mv.len()).max().unwrap_or(0);
    let mut out = std::io::stdout().lock();
    writeln!(out, "value {}", value_text(table.value(&pos)))?;
    for (mv, value) in moves {
        writeln!(out, "move {mv:<width$} {}", value_text(value))?;
    }
    Ok(())
}

/// The table from `file` (or built, when there is no file or it is
/// unusable), with a note on stderr of what happened and how long it took.
fn load_table(file: Option<PathBuf>) -> Tablebase {
    let start = Instant::now();
    let Some(file) = file else {
        let table = Tablebase::build();
        eprintln!("tablebase: built in {} ms (no cache directory)", start.elapsed().as_millis());
        return table;
    };
    let (table, how) = Tablebase::load_or_build(&file);
    let ms = start.elapsed().as_millis();
    match how {
        CacheUse::Loaded => eprintln!("tablebase: read {} in {ms} ms", file.display()),
        CacheUse::Built { reason, saved } => {
            eprintln!("tablebase: built in {ms} ms ({reason})");
            match saved {
                Ok(()) => eprintln!("tablebase: saved {}", file.display()),
                Err(e) => eprintln!("tablebase: not saved: {e}"),
            }
        }
    }
    table
}

/// `win N`, `loss N` or `draw`.
fn value_text(value: Proven) -> String {
    match value {
        Proven::Win(n) => format!("win {n}"),
        Proven::Loss(n) => format!("loss {n}"),
        Proven::Draw => "draw".to_owned(),
    }
}
