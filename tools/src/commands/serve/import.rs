//! Reading a pasted game record (the page's copied record, `arena --pgnout`
//! or a Cute Games PGN) into a game the page can load: the rules of the
//! game itself check every move, so the page, which knows no game, gets
//! either a game that plays or a one-line error naming what was wrong.

use board_core::{GameRecord, RecordError};
use search::SearchGame;
use serde::Serialize;

use crate::position::base_position;

/// The most moves an imported record may hold.
pub const MAX_IMPORT_MOVES: usize = 10_000;

/// A record read and checked: what a `new` request needs to load it.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct Imported {
    /// The game, as the engines' `Game` option names it.
    pub game: String,
    /// The variant.
    pub variant: String,
    /// The position text it starts from, when not the start position.
    pub fen: Option<String>,
    /// The moves, as the game writes them.
    pub moves: Vec<String>,
    /// The ply cap of the record's `MaxPlies` tag (0: none).
    pub max_plies: u32,
    /// The record's `White` and `Black` tags, if any.
    pub white: Option<String>,
    /// See `white`.
    pub black: Option<String>,
}

/// Reads `text`, a record of one game; its `[Game]` tag names the game, else
/// `default_game` does (a Cute Games PGN has none).
///
/// # Errors
/// A one-line message: the record cannot be read, names no known game or
/// variant, has a bad position text or ply cap, or a move is refused (with
/// its number).
pub fn read_record(text: &str, default_game: Option<&str>) -> Result<Imported, String> {
    let record = arena::read_movetext(text).map_err(|e| format!("the record: {e}"))?;
    if record.moves.len() > MAX_IMPORT_MOVES {
        return Err(format!(
            "the record has {} moves: at most {MAX_IMPORT_MOVES} are read",
            record.moves.len()
        ));
    }
    let name = record.tag("Game").or(default_game).map(str::trim).unwrap_or_default();
    if name.is_empty() {
        return Err("the record has no [Game \"...\"] tag and no game is chosen".to_owned());
    }
    let entry = games::find(name).map_err(|e| format!("[Game \"{name}\"]: {e}"))?;
    let variant = match record.tag("Variant").map(str::trim).filter(|v| !v.is_empty()) {
        Some(v) => {
            entry.variants.iter().find(|known| known.eq_ignore_ascii_case(v)).ok_or_else(|| {
                format!(
                    "[Variant \"{v}\"]: {} has the variants {}",
                    entry.name,
                    entry.variants.join(", ")
                )
            })?
        }
        None => entry.default_variant(),
    };
    // Cute Games writes `[FEN "startpos"]` for games from the start.
    let fen = (record.tag("FEN").map(str::trim))
        .filter(|fen| !fen.is_empty() && !fen.eq_ignore_ascii_case("startpos"));
    let max_plies = match record.tag("MaxPlies").map(str::trim) {
        Some(tag) => tag
            .parse()
            .map_err(|_| format!("[MaxPlies \"{tag}\"]: not a number of plies (0: no cap)"))?,
        None => 0,
    };
    let start = base_position(entry, Some(variant), fen)
        .map_err(|e| format!("{}: {e:#}", if fen.is_some() { "[FEN]" } else { "the start" }))?;
    let mut game: GameRecord<dyn SearchGame> = GameRecord::new(start, max_plies);
    for mv in &record.moves {
        game.play(mv).map_err(|e| match e {
            RecordError::Move { ply, error } => format!("move {ply} ({mv}) refused: {error}"),
            ended @ RecordError::Ended { .. } => ended.to_string(),
        })?;
    }
    Ok(Imported {
        game: entry.name.to_owned(),
        variant: variant.to_owned(),
        fen: fen.map(str::to_owned),
        moves: game.moves().to_vec(),
        max_plies,
        white: record.tag("White").map(str::to_owned),
        black: record.tag("Black").map(str::to_owned),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_copied_record_and_names_a_refused_move() {
        let text = "[Game \"otrazhenie\"]\n[Result \"*\"]\n[MaxPlies \"80\"]\n\n1. a1-a5 {a comment} h8-h4?! 2. a5-a1 *";
        let game = read_record(text, None).unwrap();
        assert_eq!(game.moves, ["a1-a5", "h8-h4", "a5-a1"]);
        assert_eq!(
            (game.game.as_str(), game.variant.as_str(), game.max_plies),
            ("otrazhenie", "standard", 80)
        );
        assert_eq!(game.fen, None);
        // A Cute Games PGN: no [Game] tag, `[FEN "startpos"]`.
        let cute =
            read_record("[FEN \"startpos\"]\n1. a1-a5 h8-h4 1/2-1/2", Some("otrazhenie")).unwrap();
        assert_eq!(cute.moves.len(), 2);
        let bad = read_record("[Game \"otrazhenie\"]\n1. a1-a5 zz9", None).unwrap_err();
        assert!(bad.starts_with("move 2 (zz9) refused"), "{bad}");
        let unknown = read_record("[Game \"nosuchgame\"] 1. a1", None).unwrap_err();
        assert!(unknown.starts_with("[Game \"nosuchgame\"]"), "{unknown}");
        let none = read_record("1. a1", None).unwrap_err();
        assert!(none.contains("no [Game"), "{none}");
        let variant = read_record("[Game \"otrazhenie\"][Variant \"huge\"]", None).unwrap_err();
        assert!(variant.starts_with("[Variant \"huge\"]"), "{variant}");
        let cap = read_record("[Game \"otrazhenie\"][MaxPlies \"x\"]", None).unwrap_err();
        assert!(cap.starts_with("[MaxPlies \"x\"]"), "{cap}");
        let unclosed = read_record("[Game \"otrazhenie\"] {", None).unwrap_err();
        assert_eq!(unclosed, "the record: a comment is not closed");
    }
}
