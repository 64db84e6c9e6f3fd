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

/// How to type a move in each game (from its crate's docs), for `play`'s
/// `help`. Every registered game has a line (a test checks it).
pub static NOTATION: &[(&str, &str)] = &[
    (
        "otrazhenie",
        "quiet move from-to: a1-a5; capture from-edge square x captured square: a1-h1xd5",
    ),
    (
        "adiyukh",
        "quiet move c3-d4 (or the short fe5: the f-file column to e5); capture: start and \
         every landing square joined by ':', c5:e3:c1 (or short d:f6: from the d-file to f6)",
    ),
    (
        "focus",
        "move the top pieces of a stack as many squares as pieces: c5-c1 (4 pieces), e4-e5 \
         (1 piece); drop a reserve piece: @e5",
    ),
    (
        "hexdraughts",
        "fields A1..K5 (rows A-K, numbered from the left); quiet move H8-G9; capture: start and \
         every landing field joined by ':', I3:G3:E4 (or I3:E4 when only one capture fits)",
    ),
    (
        "stykovka",
        "from-to: d1-d3; landing on an enemy checker, add where it retreats: c1-e3/a7; pass \
         only when no other move exists: pass",
    ),
    (
        "city",
        "from-to, captures too: d1-d2 (onto the wall), c2-h5 (along the wall), a1-a9 (a \
         slide that captures on a9); reach the bazaar e5 to win",
    ),
];

/// How to type a move in `game`, if the table has it.
pub fn notation(game: &str) -> Option<&'static str> {
    NOTATION.iter().find(|(name, _)| *name == game).map(|(_, text)| *text)
}

/// The entry for `name`, or an error listing the known games.
pub fn game(name: &str) -> anyhow::Result<&'static GameEntry> {
    search::find_game(GAMES, name).ok_or_else(|| {
        let known: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
        anyhow::anyhow!("unknown game '{name}' (games: {})", known.join(", "))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_its_notation_help() {
        for entry in GAMES {
            assert!(notation(entry.name).is_some(), "{} has no notation help", entry.name);
        }
        assert_eq!(NOTATION.len(), GAMES.len());
    }
}
