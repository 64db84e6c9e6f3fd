//! Every game the binary knows. Adding a game is one line here.

use search::GameEntry;

use crate::commands::solve::engine_table;

/// The registered games; the first is the default.
pub static GAMES: &[GameEntry] = &[
    GameEntry::of::<otrazhenie::Position>().with_endgame_table(engine_table),
    GameEntry::of::<adiyukh::Position>(),
    GameEntry::of::<focus::Position>(),
    GameEntry::of::<hexdraughts::Position>(),
    GameEntry::of::<stykovka::Position>(),
    GameEntry::of::<city::Position>(),
];

/// The entry for `name`, or an error listing the known games.
pub fn game(name: &str) -> anyhow::Result<&'static GameEntry> {
    Ok(search::find_game(GAMES, name)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_its_notation_help() {
        for entry in GAMES {
            assert!(entry.notation.len() > 20, "{} has no notation help", entry.name);
        }
    }

    #[test]
    fn an_unknown_game_is_named_with_the_games_there_are() {
        let error = game("chess").unwrap_err().to_string();
        assert!(error.starts_with("unknown game 'chess' (games: otrazhenie, adiyukh"), "{error}");
    }
}
