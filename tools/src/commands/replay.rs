//! `igroteka replay`: play a game record and report the result.

use std::io::{IsTerminal, Write};

use anyhow::{Context, bail};
use clap::Args;
use protocol::Lines;

use crate::position::{PositionArgs, play_all};

/// Play moves and print the final position and result.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// The moves; read from stdin when none are given. A PGN-style record (as
    /// `arena --pgnout` writes) is read: tags, `{comments}`, move numbers
    /// (`12.`), annotations (`!`, `?`) and the result token are skipped.
    #[arg(allow_hyphen_values = true)]
    record: Vec<String>,
}

/// Prints `position <text>` and `result <r>[ score <a>-<b>][ reason <words>]`
/// (`*` while the game goes on). The first illegal move is reported with its
/// number on stderr and the command exits with status 1, after printing the
/// position and result reached before it. The record's `Variant` and `FEN`
/// tags stand in for `--variant` and `--fen` when those are not given.
pub fn run(args: &ReplayArgs) -> anyhow::Result<bool> {
    let text = if args.record.is_empty() {
        if std::io::stdin().is_terminal() {
            eprintln!("reading moves from stdin; end with Ctrl-D");
        }
        let lines: Result<Vec<String>, _> = Lines::new(std::io::stdin().lock()).collect();
        lines.context("reading the record from stdin")?.join("\n")
    } else {
        args.record.join(" ")
    };
    let record = arena::read_movetext(&text).context("reading the record")?;
    let mut position = args.position.clone();
    if let Some(game) = record.tag("game")
        && !game.eq_ignore_ascii_case(&position.game)
    {
        bail!("the record is a game of {game}, not {}", position.game);
    }
    position.variant = position.variant.or_else(|| record.tag("variant").map(str::to_owned));
    position.fen = position.fen.or_else(|| record.tag("fen").map(str::to_owned));
    let (_, mut pos) = position.position()?;
    let refused = play_all(pos.as_mut(), &record.moves).err();
    let mut out = std::io::stdout().lock();
    writeln!(out, "position {}", pos.position_text())?;
    match pos.outcome() {
        Some(outcome) => writeln!(out, "result {outcome}")?,
        None => writeln!(out, "result *")?,
    }
    if let Some(message) = &refused {
        eprintln!("error: {message:#}");
    }
    Ok(refused.is_none())
}
