//! Checks every line of `tests/data/perft.txt`.

use board_core::Game;
use board_core::perft::perft;
use focus::Position;

const TABLE: &str = include_str!("data/perft.txt");

/// One line of the table.
struct Entry {
    pos: Position,
    variant: String,
    /// `(depth, leaves)` pairs.
    counts: Vec<(u32, u64)>,
}

fn entries() -> Vec<Entry> {
    TABLE
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split('|').map(str::trim).collect();
            let [text, variant, counts] = fields[..] else { panic!("bad line {line:?}") };
            let pos = match text {
                "startpos" => Position::start(variant).expect("variant"),
                _ => Position::from_text(text, variant).unwrap_or_else(|e| panic!("{text}: {e}")),
            };
            let counts = counts
                .split_whitespace()
                .map(|pair| {
                    let (depth, leaves) = pair.split_once(':').expect("depth:leaves");
                    (depth.parse().expect("depth"), leaves.parse().expect("leaves"))
                })
                .collect();
            Entry { pos, variant: variant.to_owned(), counts }
        })
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
