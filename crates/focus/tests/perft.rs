//! Checks every line of `tests/data/perft.txt`.

use board_core::Game;
use board_core::perft::perft;
use board_core::testkit;
use focus::{Position, Variant};

const TABLE: &str = include_str!("data/perft.txt");

/// One line of the table.
struct Entry {
    pos: Position,
    variant: Variant,
    /// `(depth, leaves)` pairs.
    counts: Vec<(u32, u64)>,
}

fn entries() -> Vec<Entry> {
    testkit::perft_table::<Position>(TABLE)
        .into_iter()
        .map(|e| Entry { variant: e.position.variant(), pos: e.position, counts: e.counts })
        .collect()
}

#[test]
fn perft_table() {
    let entries = entries();
    assert!(entries.len() >= 6, "the table lost lines");
    for Entry { pos, variant, counts } in entries {
        for (depth, leaves) in counts {
            assert_eq!(pos.perft(depth), leaves, "perft({depth}) of {pos} ({variant})");
        }
    }
}

/// The specialised perft (last ply counted from tables) agrees with the
/// generic one of board-core, which generates every last-ply move.
#[test]
fn specialised_perft_equals_generic() {
    for Entry { pos, counts, .. } in entries() {
        for (depth, _) in counts.into_iter().filter(|&(d, _)| d <= 3) {
            assert_eq!(pos.perft(depth), perft(&pos, depth), "perft({depth}) of {pos}");
        }
    }
}

/// The mid-game lines of the table are the positions their comments say:
/// replaying the recorded move lists from the start (every move checked)
/// reaches exactly those texts.
#[test]
fn mid_game_lines_are_reached_by_their_recorded_moves() {
    let games = [
        "e4-e5 d5-c5 f3-e3 d3-c3 e6-e7 b2-b3",
        "c5-c4 b4-c4 c3-c4 g6-f6 c4-g4 f4-g4 g3-g4 @g4 g5-g4 f6-d6 g4-b4 c6-d6 b4-g4 d6-d2 \
         e2-d2 d3-d2 @d2 c2-d2 g4-b4 @b4 b5-b4 d2-d7 c7-d7",
        "c5-c4 b4-c4 c3-c4 g6-f6 c4-g4 f4-g4 g3-g4 @g4 g5-g4 f6-d6 g4-b4 c6-d6 b4-g4 d6-d2 \
         e2-d2 d3-d2 @d2 c2-d2 g4-b4 @b4 b5-b4 d2-d7 c7-d7 e7-d7",
        "f5-f6 g6-f6 e6-f6 e5-e4 f6-f2 g2-f2 f3-f2 @f2 e2-f2 e4-g4 f2-b2 c2-b2 b3-b2 @b2 \
         g3-g4 b2-b7 c7-b7 b6-b7 g4-c4 b7-g7 f7-g7 b4-c4 c5-c4 @g7 c3-c4 g7-g2 d4-c4 g2-b2 \
         @b2 d5-d6 c4-h4 d7-d6 b2-f2 d6-d3 f2-f7 e7-f7 h4-c4 f7-f2 d2-d3 f2-f7",
    ];
    let table: Vec<String> = entries().iter().map(|entry| entry.pos.to_string()).collect();
    for (line, game) in games.iter().enumerate() {
        let mut pos = Position::default();
        for mv in game.split_whitespace() {
            pos.play_text(mv).unwrap_or_else(|e| panic!("{mv} in {pos}: {e}"));
        }
        assert_eq!(pos.to_string(), table[line + 1], "replay of table line {}", line + 2);
    }
}
