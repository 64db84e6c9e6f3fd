//! Checks every entry of `tests/data/perft.txt`.
//!
//! Small counts are checked with the crate's `Game::perft` and the generic
//! `board_core::perft::perft`; every count, up to 176 million from the start
//! at depth 6, is also checked by a counting that merges transpositions, which
//! keeps the default (debug) run to a few seconds. The plain count at full
//! depth runs in the benchmark and in `cargo test --release`.

use std::collections::HashMap;

use board_core::Game;
use board_core::perft::perft;
use board_core::testkit::{PerftEntry, perft_table};
use otrazhenie::Position;

const TABLE: &str = include_str!("data/perft.txt");

/// Counts at most this large are counted move path by move path.
const PLAIN_LIMIT: u64 = if cfg!(debug_assertions) { 2_000_000 } else { u64::MAX };
/// ... and at most this large also by the generic perft.
const GENERIC_LIMIT: u64 = if cfg!(debug_assertions) { 200_000 } else { 20_000_000 };

/// The table's entries; a `# moves: ...` comment right above an entry gives
/// the moves from the start that reach it, checked here.
fn entries() -> Vec<PerftEntry<Position>> {
    let lines: Vec<&str> = TABLE.lines().collect();
    let entries = perft_table::<Position>(TABLE);
    let mut replayed_entries = 0;
    for entry in &entries {
        let above = entry.line.checked_sub(2).and_then(|i| lines.get(i)).map(|l| l.trim());
        if let Some(list) = above.and_then(|l| l.strip_prefix("# moves:")) {
            let mut replayed = Position::start(entry.position.variant());
            for mv in list.split_whitespace() {
                replayed.play_text(mv).unwrap_or_else(|e| panic!("line {}: {e}", entry.line));
            }
            assert_eq!(replayed, entry.position, "line {}: the moves reach {replayed}", entry.line);
            replayed_entries += 1;
        }
    }
    assert_eq!(replayed_entries, 4, "entries with their move lists");
    entries
}

/// Perft with transpositions merged: positions are counted once per depth.
fn merged_perft(pos: &Position, depth: u32, seen: &mut HashMap<(Position, u32), u64>) -> u64 {
    if depth <= 1 {
        return pos.perft(depth);
    }
    if let Some(&nodes) = seen.get(&(*pos, depth)) {
        return nodes;
    }
    let mut nodes = 0;
    for mv in pos.legal_moves() {
        let mut child = *pos;
        child.play_unchecked(mv);
        nodes += merged_perft(&child, depth - 1, seen);
    }
    seen.insert((*pos, depth), nodes);
    nodes
}

#[test]
fn table_has_the_start_to_depth_six_and_midgame_positions() {
    let entries = entries();
    let start = &entries[0];
    assert_eq!(start.position, Position::default());
    assert_eq!(start.counts.iter().map(|&(d, _)| d).collect::<Vec<_>>(), [1, 2, 3, 4, 5, 6]);
    assert!(entries.len() >= 6);
}

#[test]
fn every_count_with_transpositions_merged() {
    for entry in entries() {
        let mut seen = HashMap::new();
        for &(depth, nodes) in &entry.counts {
            let got = merged_perft(&entry.position, depth, &mut seen);
            assert_eq!(got, nodes, "line {}: perft({depth}) of {}", entry.line, entry.position);
        }
    }
}

#[test]
fn small_counts_path_by_path() {
    for entry in entries() {
        for &(depth, nodes) in entry.counts.iter().filter(|&&(_, n)| n <= PLAIN_LIMIT) {
            let pos = &entry.position;
            assert_eq!(pos.perft(depth), nodes, "line {}: perft({depth}) of {pos}", entry.line);
            if nodes <= GENERIC_LIMIT {
                assert_eq!(perft(pos, depth), nodes, "line {}: generic perft({depth})", entry.line);
            }
        }
    }
}
