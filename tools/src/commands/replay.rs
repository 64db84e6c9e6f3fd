//! `igroteka replay`: play a game record and report the result.

use std::io::{IsTerminal, Read, Write};

use clap::Args;

use crate::position::{PositionArgs, move_tokens};

/// Play moves and print the final position and result.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// The moves; read from stdin when none are given. Move numbers (`12.`)
    /// and annotations (`!`, `?`) are ignored.
    #[arg(allow_hyphen_values = true)]
    record: Vec<String>,
}

/// Prints `position <text>` and `result <r>[ score <a>-<b>][ reason <words>]`
/// (`*` while the game goes on). The first illegal move is reported with its
/// number on stderr and the command exits with status 1, after printing the
/// position and result reached before it.
pub fn run(args: &ReplayArgs) -> anyhow::Result<bool> {
    let (_, mut pos) = args.position.position()?;
    let record = if args.record.is_empty() {
        if std::io::stdin().is_terminal() {
            eprintln!("reading moves from stdin; end with Ctrl-D");
        }
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text)?;
        text
    } else {
        args.record.join(" ")
    };
    let mut refused = None;
    for (i, text) in move_tokens(&record).into_iter().enumerate() {
        if let Err(e) = pos.play_move_text(text) {
            refused = Some(format!("move {} ({text}) refused: {e}", i + 1));
            break;
        }
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "position {}", pos.position_text())?;
    match pos.outcome() {
        Some(outcome) => writeln!(out, "result {outcome}")?,
        None => writeln!(out, "result *")?,
    }
    if let Some(message) = &refused {
        eprintln!("error: {message}");
    }
    Ok(refused.is_none())
}
