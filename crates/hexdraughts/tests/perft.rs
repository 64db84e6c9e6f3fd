//! Checks every entry of `tests/data/perft.txt` (see its header for the format
//! and where the numbers come from).

use board_core::Game;
use board_core::testkit;
use hexdraughts::Position;

const TABLE: &str = include_str!("data/perft.txt");

/// The position of an entry: `startpos` or a position text, then optionally
/// `moves ...` played from it.

#[test]
fn perft_table() {
    let mut checked = 0;
    for entry in testkit::perft_table::<Position>(TABLE) {
        let pos = entry.position;
        for (depth, expected) in entry.counts {
            assert_eq!(pos.perft(depth), expected, "line {}: perft({depth}) of {pos}", entry.line);
            checked += 1;
        }
    }
    assert!(checked >= 20, "the table lost entries: {checked}");
}
