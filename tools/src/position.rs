//! The position flags shared by several commands.

use anyhow::{Context, bail};
use clap::Args;
use search::{GameEntry, SearchGame};

use crate::registry;

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
        let entry = registry::game(&self.game)?;
        let mut pos = base_position(entry, self.variant.as_deref(), self.fen.as_deref())?;
        let moves: Vec<&str> = self.moves.as_deref().map(move_tokens).unwrap_or_default();
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
            bail!("move {} ({text}): {e}", i + 1);
        }
    }
    Ok(())
}

/// The move tokens of a game record: move numbers (`12.`, `12...`, or glued
/// as in `1.ba5`) are dropped, trailing `!` and `?` stripped, and tokens with
/// no ASCII letter or digit (annotations such as `!?`, `Д.`, `Пр.`) skipped.
pub fn move_tokens(record: &str) -> Vec<&str> {
    record
        .split_whitespace()
        .map(|token| {
            let digits = token.trim_start_matches(|c: char| c.is_ascii_digit());
            let numbered = digits.len() < token.len() && digits.starts_with('.');
            let token = if numbered { digits.trim_start_matches('.') } else { token };
            token.trim_end_matches(['!', '?'])
        })
        .filter(|token| token.chars().any(|c| c.is_ascii_alphanumeric()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::move_tokens;

    #[test]
    fn record_tokens_drop_numbers_and_annotations() {
        assert_eq!(
            move_tokens("1.ba5 bc5 2. cb4! cd4?! 3... d:b2 Д. Пр. 4.c1-c3"),
            vec!["ba5", "bc5", "cb4", "cd4", "d:b2", "c1-c3"]
        );
        assert_eq!(move_tokens("a1-a5 pass @e5 12."), vec!["a1-a5", "pass", "@e5"]);
    }
}
