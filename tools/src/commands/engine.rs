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
    /// Set an option before the first command, as `setoption` would (same
    /// names and checks; repeatable): `--option MaxPlies=300`.
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = name_value)]
    options: Vec<(String, String)>,
}

/// `NAME=VALUE`, split at the first `=`.
fn name_value(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_owned(), value.trim().to_owned()))
        }
        _ => Err(format!("expected NAME=VALUE, got '{text}'")),
    }
}

pub fn run(args: &EngineArgs) -> anyhow::Result<()> {
    let settings = EngineSettings {
        game: args.game.clone().unwrap_or_default(),
        variant: args.variant.clone(),
        name: format!("igroteka {}", env!("CARGO_PKG_VERSION")),
        author: "the Igroteka developers".to_owned(),
        options: args.options.clone(),
    };
    run_engine(GAMES, settings, BufReader::new(std::io::stdin()), std::io::stdout())?;
    Ok(())
}
