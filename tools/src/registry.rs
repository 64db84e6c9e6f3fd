//! Every game the binary knows. Adding a game is one line here.

use search::GameEntry;

/// The registered games; the first is the default.
pub static GAMES: &[GameEntry] = &[
    GameEntry::of::<otrazhenie::Position>(),
    GameEntry::of::<adiyukh::Position>(),
    GameEntry::of::<focus::Position>(),
    GameEntry::of::<hexdraughts::Position>(),
    GameEntry::of::<stykovka::Position>(),
    GameEntry::of::<city::City>(),
];

/// The entry for `name`, or an error listing the known games.
pub fn game(name: &str) -> anyhow::Result<&'static GameEntry> {
    search::find_game(GAMES, name).ok_or_else(|| {
        let known: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
        anyhow::anyhow!("unknown game '{name}' (games: {})", known.join(", "))
    })
}
