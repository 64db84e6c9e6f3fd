//! `igroteka show`: draw a position.

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
    println!("{}", pos.board_text());
    println!("position {}", pos.position_text());
    match pos.outcome() {
        Some(outcome) => println!("result {outcome}"),
        None => println!(
            "to move: {} ({} legal moves)",
            entry.player_names[pos.side_to_move()],
            pos.legal_move_texts().len()
        ),
    }
    Ok(())
}
