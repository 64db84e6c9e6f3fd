//! Checks every entry of `tests/data/perft.txt` (see its header for the format
//! and where the numbers come from).

use board_core::Game;
use hexdraughts::Position;

const TABLE: &str = include_str!("data/perft.txt");

/// The position of an entry: `startpos` or a position text, then optionally
/// `moves ...` played from it.
fn entry_position(spec: &str, variant: &str) -> Position {
    let (base, moves) = match spec.split_once(" moves ") {
        Some((base, moves)) => (base.trim(), moves),
        None => (spec, ""),
    };
    let mut pos = if base == "startpos" {
        Position::start(variant).unwrap_or_else(|e| panic!("{e}"))
    } else {
        Position::from_text(base, variant).unwrap_or_else(|e| panic!("{base}: {e}"))
    };
    for mv in moves.split_whitespace() {
        pos.play_text(mv).unwrap_or_else(|e| panic!("replaying {spec}: {e}"));
    }
    pos
}

#[test]
fn perft_table() {
    let mut checked = 0;
    for line in TABLE.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let parts: Vec<&str> = line.split('|').map(str::trim).collect();
        let [spec, variant, counts] = parts.as_slice() else {
            panic!("bad perft line {line:?}");
        };
        let pos = entry_position(spec, variant);
        for item in counts.split_whitespace() {
            let (depth, expected) = item.split_once(':').expect("depth:count");
            let depth: u32 = depth.parse().expect("depth");
            let expected: u64 = expected.parse().expect("count");
            assert_eq!(pos.perft(depth), expected, "perft({depth}) of {pos} ({variant})");
            checked += 1;
        }
    }
    assert!(checked >= 20, "the table lost entries: {checked}");
}
