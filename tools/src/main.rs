//! `igroteka`: perft, replay, show, solve, play, match, the engine and the
//! arena, for every Igroteka game.

mod commands;
mod position;

use std::io::{ErrorKind, Write};
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};
use protocol::client::Terminated;

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
    /// The value of a position at perfect play and of each move (`value ...`,
    /// then `move <m> <value>` lines, best first); Otrazhenie only.
    Solve(commands::solve::SolveArgs),
    /// Play against a built-in engine in the terminal.
    Play(commands::play::PlayArgs),
    /// Watch one game between two built-in engines.
    Match(commands::selfplay::MatchArgs),
    /// Run the UGI-compatible engine on stdin/stdout (docs/protocol.md).
    Engine(commands::engine::EngineArgs),
    /// Run a refereed engine tournament (docs/arena.md); `arena merge F...`
    /// combines sharded results.
    Arena(Box<arena::ArenaArgs>),
    /// Check that an engine follows the protocol: `check-engine --game G --
    /// CMD ARGS...` prints each check `ok` or `FAIL` and why (docs/arena.md).
    CheckEngine(arena::CheckArgs),
    /// Play and watch games in the browser (HTTP + WebSocket).
    Serve(commands::serve::ServeArgs),
    /// Fit the evaluation's weights to game results (docs/tuning.md):
    /// `tune datagen`, then `tune fit`.
    Tune(commands::tune::TuneArgs),
    /// Print the man page or a shell completion script (`generate man`,
    /// `generate bash`, ...), or write them into a directory.
    Generate(commands::generate::GenerateArgs),
}

fn main() -> ExitCode {
    // Built for x86-64-v2 (.cargo/config.toml): say so on an older processor
    // rather than die on the first POPCNT.
    #[cfg(all(target_arch = "x86_64", target_feature = "popcnt"))]
    if !std::arch::is_x86_feature_detected!("popcnt") {
        eprintln!(
            "error: this build needs an x86-64-v2 processor (POPCNT); rebuild with \
             RUSTFLAGS=\"-C target-cpu=x86-64\" (see the README, \"Building\")"
        );
        return ExitCode::FAILURE;
    }
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Games => list_games().map(|()| true),
        Command::Perft(args) => commands::perft::run(args).map(|()| true),
        Command::Replay(args) => commands::replay::run(args),
        Command::Show(args) => commands::show::run(args).map(|()| true),
        Command::Solve(args) => commands::solve::run(args).map(|()| true),
        Command::Play(args) => commands::play::run(args).map(|()| true),
        Command::Match(args) => commands::selfplay::run(args).map(|()| true),
        Command::Engine(args) => commands::engine::run(args).map(|()| true),
        Command::Serve(args) => commands::serve::run(args).map(|()| true),
        Command::CheckEngine(args) => {
            arena::check_engine(games::GAMES, args, &mut std::io::stdout().lock())
        }
        Command::Tune(args) => commands::tune::run(args).map(|()| true),
        Command::Generate(args) => commands::generate::run(args, Cli::command()).map(|()| true),
        Command::Arena(args) => commands::serve::live::run_arena(args).map(|()| true),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        // The reader of our output is gone (`igroteka ... | head`): stop
        // quietly with the status a shell gives a process killed by SIGPIPE.
        Err(e) if is_broken_pipe(&e) => ExitCode::from(141),
        // A terminating signal (its engines are ended): the status a shell
        // gives a process the signal killed.
        Err(e) if let Some(&stopped) = e.chain().find_map(|c| c.downcast_ref::<Terminated>()) => {
            eprintln!("{e:#}");
            ExitCode::from(stopped.exit_code())
        }
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Whether `error` comes from writing to a pipe whose reader has closed.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == ErrorKind::BrokenPipe)
    })
}

fn list_games() -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    for game in games::GAMES {
        writeln!(
            out,
            "{:<12} variants: {:<22} first: {:<6} second: {:<6} max plies: {}",
            game.name,
            game.variants.join(", "),
            game.player_names.first,
            game.player_names.second,
            game.default_max_plies
        )?;
    }
    Ok(())
}
