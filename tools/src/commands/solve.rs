//! `igroteka solve`: a position's value at perfect play, and every move's,
//! from a game's endgame table (Otrazhenie: every position).

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::bail;
use board_core::{Game, Proven};
use clap::Args;
use otrazhenie::{CacheUse, Tablebase};
use search::DynTable;

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

/// The table file's name in the cache directory.
const TABLE_FILE: &str = "otrazhenie-table.bin";

/// The table file every command uses unless told otherwise: in
/// `$IGROTEKA_CACHE`, else `$XDG_CACHE_HOME/igroteka`, else
/// `$HOME/.cache/igroteka`; `None` when none of them is set.
pub fn default_table_file() -> Option<PathBuf> {
    let set = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty());
    let dir = set("IGROTEKA_CACHE")
        .map(PathBuf::from)
        .or_else(|| set("XDG_CACHE_HOME").map(|dir| PathBuf::from(dir).join("igroteka")))
        .or_else(|| set("HOME").map(|home| PathBuf::from(home).join(".cache").join("igroteka")))?;
    Some(dir.join(TABLE_FILE))
}

/// Otrazhenie's table for the engines ([`crate::registry::GAMES`]): read
/// from the default table file when it is there and sound (`igroteka solve`
/// writes it), else built in memory (about a second). Engines never write it.
pub fn engine_table() -> DynTable {
    let loaded = default_table_file().and_then(|file| Tablebase::load(&file).ok());
    DynTable::new(loaded.unwrap_or_else(Tablebase::build))
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
    let table = load_table(args.tablebase.clone().or_else(default_table_file));
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
