//! `igroteka engine`: the UGI-compatible engine on stdin/stdout.

use std::io::BufReader;

use clap::Args;
use protocol::{EngineSettings, run_engine};

use games::GAMES;

/// Speak the engine protocol (docs/protocol.md) on stdin/stdout.
#[derive(Args, Debug)]
pub struct EngineArgs {
    /// The game to start with (the `Game` option changes it).
    #[arg(long, short)]
    game: Option<String>,
    /// The variant to start with (the `Variant` option changes it).
    #[arg(long)]
    variant: Option<String>,
}

pub fn run(args: &EngineArgs) -> anyhow::Result<()> {
    let settings = EngineSettings {
        game: args.game.clone().unwrap_or_default(),
        variant: args.variant.clone(),
        name: format!("igroteka {}", env!("CARGO_PKG_VERSION")),
        author: "the Igroteka developers".to_owned(),
    };
    run_engine(GAMES, settings, BufReader::new(std::io::stdin()), std::io::stdout())?;
    Ok(())
}
