//! Every game the `igroteka` binary and the language bindings know, in one
//! list. Adding a game is one line in [`GAMES`].
//!
//! ```
//! let focus = games::find("Focus")?;
//! assert_eq!((focus.name, focus.default_variant()), ("focus", "standard"));
//! assert!(games::find("chess").is_err());
//! # Ok::<(), board_core::UnknownGame>(())
//! ```

use std::path::PathBuf;

use board_core::UnknownGame;
use otrazhenie::Tablebase;
use search::{DynTable, GameEntry};

/// The registered games; the first is the default.
pub static GAMES: &[GameEntry] = &[
    GameEntry::of::<otrazhenie::Position>().with_endgame_table(otrazhenie_table),
    GameEntry::of::<adiyukh::Position>(),
    GameEntry::of::<focus::Position>(),
    GameEntry::of::<hexdraughts::Position>(),
    GameEntry::of::<stykovka::Position>(),
    GameEntry::of::<city::Position>(),
];

/// The entry for `name` (trimmed, any case).
///
/// # Errors
/// [`UnknownGame`] listing the games there are.
pub fn find(name: &str) -> Result<&'static GameEntry, UnknownGame> {
    search::find_game(GAMES, name)
}

/// The table file's name in the cache directory.
const TABLE_FILE: &str = "otrazhenie-table.bin";

/// The file Otrazhenie's solved table is kept in unless told otherwise: in
/// `$IGROTEKA_CACHE`, else `$XDG_CACHE_HOME/igroteka`, else
/// `$HOME/.cache/igroteka`; `None` when none of them is set.
pub fn default_table_file() -> Option<PathBuf> {
    let set = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty());
    let dir = set("IGROTEKA_CACHE")
        .map(PathBuf::from)
        .or_else(|| set("XDG_CACHE_HOME").map(|dir| PathBuf::from(dir).join("igroteka")))
        .or_else(|| set("HOME").map(|home| PathBuf::from(home).join(".cache").join("igroteka")))?;
    Some(dir.join(TABLE_FILE))
}

/// Otrazhenie's table for the engines: read from [`default_table_file`] when
/// it is there and sound (`igroteka solve` writes it), else built in memory
/// (about a second). Nothing is written.
pub fn otrazhenie_table() -> DynTable {
    let loaded = default_table_file().and_then(|file| Tablebase::load(&file).ok());
    DynTable::new(loaded.unwrap_or_else(Tablebase::build))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_its_notation_help_and_a_unique_name() {
        let mut names: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
        for entry in GAMES {
            assert!(entry.notation.len() > 20, "{} has no notation help", entry.name);
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), GAMES.len());
    }

    #[test]
    fn an_unknown_game_is_named_with_the_games_there_are() {
        let error = find("chess").unwrap_err().to_string();
        assert!(error.starts_with("unknown game 'chess' (games: otrazhenie, adiyukh"), "{error}");
    }
}
