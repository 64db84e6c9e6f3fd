//! `igroteka arena` over a registry of tic-tac-toe only, with the fake engine
//! standing in for `igroteka engine`: for the arena's process-level tests
//! (kill and resume) and for trying the arena without the real games.

use std::path::PathBuf;

use board_core::tictactoe::TicTacToe;
use clap::Parser;
use search::GameEntry;

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    arena: arena::ArenaArgs,
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let games: &'static [GameEntry] = Box::leak(Box::new([GameEntry::of::<TicTacToe>()]));
    let exe = std::env::current_exe()?;
    let fake: PathBuf = exe.with_file_name(format!("fake-engine{}", std::env::consts::EXE_SUFFIX));
    arena::run(games, fake, cli.arena)
}
