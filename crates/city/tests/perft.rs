//! Checks every entry of `tests/data/perft.txt` (see its header for the
//! node budget of the default run).

use board_core::Game;
use city::City;

const TABLE: &str = include_str!("data/perft.txt");
const DEFAULT_MAX_NODES: u64 = 10_000_000;

struct Entry {
    line: usize,
    position: City,
    counts: Vec<(u32, u64)>,
}

fn entries() -> Vec<Entry> {
    let mut out = Vec::new();
    for (i, raw) in TABLE.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let [text, variant, counts] = fields[..] else {
            panic!("line {}: expected three fields separated by '|'", i + 1);
        };
        let position = if text == "startpos" {
            City::start(variant).unwrap_or_else(|e| panic!("line {}: {e}", i + 1))
        } else {
            City::from_text(text, variant).unwrap_or_else(|e| panic!("line {}: {e}", i + 1))
        };
        let counts = counts
            .split_whitespace()
            .map(|pair| {
                let (depth, count) =
                    pair.split_once(':').unwrap_or_else(|| panic!("line {}: {pair}", i + 1));
                match (depth.parse(), count.parse()) {
                    (Ok(d), Ok(n)) => (d, n),
                    _ => panic!("line {}: cannot read {pair}", i + 1),
                }
            })
            .collect();
        out.push(Entry { line: i + 1, position, counts });
    }
    out
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
