//! `igroteka show`: draw a position.

use std::io::Write;

use clap::Args;

use crate::position::PositionArgs;

/// Draw the board of a position.
#[derive(Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    position: PositionArgs,
}

pub fn run(args: &ShowArgs) -> anyhow::Result<()> {
    let (entry, pos) = args.position.position()?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", pos.board_text())?;
    writeln!(out, "position {}", pos.position_text())?;
    match pos.outcome() {
        Some(outcome) => writeln!(out, "result {outcome}")?,
        None => writeln!(
            out,
            "to move: {} ({} legal moves)",
            entry.player_names[pos.side_to_move()],
            pos.legal_move_texts().len()
        )?,
    }
    Ok(())
}
