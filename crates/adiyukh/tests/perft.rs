//! Checks every entry of `tests/data/perft.txt` (see the comments there for
//! where the numbers come from), with this crate's perft and the generic one.

use adiyukh::Position;
use board_core::Game;

const DATA: &str = include_str!("data/perft.txt");

/// The entries: position, variant, (depth, count) pairs.
fn entries() -> Vec<(Position, Vec<(u32, u64)>)> {
    DATA.lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split('|').map(str::trim).collect();
            let [text, variant, counts] = fields[..] else { panic!("bad line {line:?}") };
            let pos = if text == "startpos" {
                Position::start(variant).unwrap()
            } else {
                Position::from_text(text, variant).unwrap_or_else(|e| panic!("{text}: {e}"))
            };
            let counts = counts
                .split_whitespace()
                .map(|pair| {
                    let (d, n) = pair.split_once(':').unwrap();
                    (d.parse().unwrap(), n.parse().unwrap())
                })
                .collect();
            (pos, counts)
        })
        .collect()
}

#[test]
fn perft_table() {
    let entries = entries();
    assert!(entries.len() >= 6);
    for (pos, counts) in entries {
        for (depth, expected) in counts {
            assert_eq!(pos.perft(depth), expected, "perft({depth}) of {pos}");
            if depth <= 5 {
                assert_eq!(
                    board_core::perft::perft(&pos, depth),
                    expected,
                    "generic perft({depth}) of {pos}"
                );
            }
        }
    }
}
