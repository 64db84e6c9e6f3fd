//! The position flags shared by several commands.

use anyhow::{Context, bail};
use clap::Args;
use search::{GameEntry, SearchGame};

/// `--game G [--variant V] [--fen TEXT] [--moves "M1 M2 ..."]`.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// The game (see `igroteka games`).
    #[arg(long, short)]
    pub game: String,
    /// The variant (default: the game's first).
    #[arg(long)]
    pub variant: Option<String>,
    /// Start from this position text instead of the start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves to play first, separated by spaces.
    #[arg(long, allow_hyphen_values = true)]
    pub moves: Option<String>,
}

impl PositionArgs {
    /// The game entry and the position after `--moves`.
    pub fn position(&self) -> anyhow::Result<(&'static GameEntry, Box<dyn SearchGame>)> {
        let entry = games::find(&self.game)?;
        let mut pos = base_position(entry, self.variant.as_deref(), self.fen.as_deref())?;
        let moves = arena::read_movetext(self.moves.as_deref().unwrap_or_default())
            .context("--moves")?
            .moves;
        play_all(pos.as_mut(), &moves).context("--moves")?;
        Ok((entry, pos))
    }
}

/// The start position or `fen` of `variant` (default variant when `None`).
pub fn base_position(
    entry: &GameEntry,
    variant: Option<&str>,
    fen: Option<&str>,
) -> anyhow::Result<Box<dyn SearchGame>> {
    let variant = variant.unwrap_or(entry.default_variant());
    Ok(match fen {
        Some(text) => entry.from_text(text, variant)?,
        None => entry.start(variant)?,
    })
}

/// Plays `moves` in order; the error names the first refused move and its number.
pub fn play_all(pos: &mut dyn SearchGame, moves: &[&str]) -> anyhow::Result<()> {
    for (i, text) in moves.iter().enumerate() {
        if let Err(e) = pos.play_move_text(text) {
            bail!("move {} ({text}) refused: {e}", i + 1);
        }
    }
    Ok(())
}
