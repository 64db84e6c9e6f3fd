//! The shared conformance suite of board-core, from the start and from
//! positions with captures at hand, a lone checker and a finished game.

use board_core::testkit::Conformance;
use otrazhenie::Position;

#[test]
fn conformance() {
    Conformance::<Position>::new()
        .positions(&[
            // Captures for both sides at hand (reached by play, see tests/data/perft.txt).
            "5WB1/7W/2B5/8/8/8/8/8 w",
            "B7/8/8/2B5/7W/8/8/5W2 w",
            // Black's lone checker on h8 can capture.
            "B6W/8/8/8/8/8/8/3B4 b",
            // A reflection with two diagonals.
            "8/2B5/8/8/8/8/W7/6B1 w",
            // White's last checker hemmed in on the edge; shut in; captured.
            "8/8/8/8/8/B7/WB6/8 w",
            "8/8/8/8/8/8/B7/WB6 w",
            "8/8/8/3W4/8/8/8/8 b",
        ])
        .run();
}
