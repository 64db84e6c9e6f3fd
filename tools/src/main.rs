//! `igroteka`: perft, replay, show, play, match, the engine and the arena,
//! for every Igroteka game.

mod commands;
mod position;
mod registry;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(name = "igroteka", version, about = "Engines and tools for six abstract board games")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the games, their variants and colours.
    Games,
    /// Count move paths (`depth <d> nodes <count> ...` per depth).
    Perft(commands::perft::PerftArgs),
    /// Play a game record; print `position ...` and `result ...`.
    Replay(commands::replay::ReplayArgs),
    /// Draw a position.
    Show(commands::show::ShowArgs),
    /// Play against a built-in engine in the terminal.
    Play(commands::play::PlayArgs),
    /// Watch one game between two built-in engines.
    Match(commands::selfplay::MatchArgs),
    /// Run the UGI-compatible engine on stdin/stdout (docs/protocol.md).
    Engine(commands::engine::EngineArgs),
    /// Run a refereed engine tournament (docs/arena.md); `arena merge F...`
    /// combines sharded results.
    Arena(arena::ArenaArgs),
    /// Fit the evaluation's weights to game results (docs/tuning.md):
    /// `tune datagen`, then `tune fit`.
    Tune(commands::tune::TuneArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Games => {
            list_games();
            Ok(true)
        }
        Command::Perft(args) => commands::perft::run(args).map(|()| true),
        Command::Replay(args) => commands::replay::run(args),
        Command::Show(args) => commands::show::run(args).map(|()| true),
        Command::Play(args) => commands::play::run(args).map(|()| true),
        Command::Match(args) => commands::selfplay::run(args).map(|()| true),
        Command::Engine(args) => commands::engine::run(args).map(|()| true),
        Command::Tune(args) => commands::tune::run(args).map(|()| true),
        Command::Arena(args) => std::env::current_exe()
            .map_err(anyhow::Error::from)
            .and_then(|exe| arena::run(registry::GAMES, exe, args.clone()))
            .map(|()| true),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn list_games() {
    for game in registry::GAMES {
        println!(
            "{:<12} variants: {:<22} first: {:<6} second: {:<6} max plies: {}",
            game.name,
            game.variants.join(", "),
            game.player_names.first,
            game.player_names.second,
            game.default_max_plies
        );
    }
}
