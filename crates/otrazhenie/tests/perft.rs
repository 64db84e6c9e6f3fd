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
use otrazhenie::Position;

const TABLE: &str = include_str!("data/perft.txt");

/// Counts at most this large are counted move path by move path.
const PLAIN_LIMIT: u64 = if cfg!(debug_assertions) { 2_000_000 } else { u64::MAX };
/// ... and at most this large also by the generic perft.
const GENERIC_LIMIT: u64 = if cfg!(debug_assertions) { 200_000 } else { 20_000_000 };

struct Entry {
    line: usize,
    position: Position,
    counts: Vec<(u32, u64)>,
}

fn entries() -> Vec<Entry> {
    let mut entries = Vec::new();
    let mut moves: Option<Vec<&str>> = None;
    for (index, raw) in TABLE.lines().enumerate() {
        let line = index + 1;
        let text = raw.trim();
        if let Some(list) = text.strip_prefix("# moves:") {
            moves = Some(list.split_whitespace().collect());
            continue;
        }
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = text.split('|').map(str::trim).collect();
        let [fen, variant, counts] = fields[..] else {
            panic!("line {line}: expected three fields separated by '|'");
        };
        let position = if fen == "startpos" {
            Position::start(variant).expect("known variant")
        } else {
            Position::from_text(fen, variant).unwrap_or_else(|e| panic!("line {line}: {e}"))
        };
        if let Some(list) = moves.take() {
            let mut replayed = Position::start(variant).expect("known variant");
            for mv in list {
                replayed.play_text(mv).unwrap_or_else(|e| panic!("line {line}: {e}"));
            }
            assert_eq!(replayed, position, "line {line}: the moves reach {replayed}");
        }
        let counts = counts
            .split_whitespace()
            .map(|pair| {
                let (depth, nodes) = pair.split_once(':').expect("depth:nodes");
                (depth.parse().expect("depth"), nodes.parse().expect("nodes"))
            })
            .collect();
        entries.push(Entry { line, position, counts });
    }
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
    assert_eq!(start.position, Position::default_start());
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
