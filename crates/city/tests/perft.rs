//! Checks every entry of `tests/data/perft.txt` (see its header for the
//! node budget of the default run).

use board_core::Game;
use board_core::testkit::{self, PerftEntry};
use city::Position;

const TABLE: &str = include_str!("data/perft.txt");
const DEFAULT_MAX_NODES: u64 = 10_000_000;

fn entries() -> Vec<PerftEntry<Position>> {
    testkit::perft_table(TABLE)
}

#[test]
fn perft_table() {
    let max_nodes = std::env::var("CITY_PERFT_MAX_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_MAX_NODES);
    let table = entries();
    assert!(table.len() >= 9, "the table lost entries");
    let mut checked = 0;
    for entry in &table {
        for &(depth, expected) in &entry.counts {
            if expected > max_nodes {
                continue;
            }
            assert_eq!(
                entry.position.perft(depth),
                expected,
                "line {}: perft({depth}) of {}",
                entry.line,
                entry.position
            );
            checked += 1;
        }
    }
    assert!(checked >= 31, "only {checked} counts checked");
}
