//! Checks every entry of `tests/data/perft.txt` (see the comments there for
//! where the numbers come from), with this crate's perft and the generic one.

use adiyukh::Position;
use board_core::Game;
use board_core::testkit;

const DATA: &str = include_str!("data/perft.txt");

/// The entries: position, variant, (depth, count) pairs.
fn entries() -> Vec<(Position, Vec<(u32, u64)>)> {
    testkit::perft_table::<Position>(DATA).into_iter().map(|e| (e.position, e.counts)).collect()
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
