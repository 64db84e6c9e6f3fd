//! The shared conformance suite, from the start and from mid-game positions
//! with displacements available, near-crashes and near-dockings.

use stykovka::Position;

#[test]
fn conformance() {
    board_core::testkit::Conformance::<Position>::new()
        .positions(&[
            // Mid-game, reached from the start (see tests/data/perft.txt).
            "4WW1B/5B2/8/2B4B/BW5B/W4BW1/3WW3/2WB4 w",
            "5W2/1W1B1B2/3B3B/4WW2/W1B4B/B1WB4/8/3W1W2 w",
            // The rules' displacement example, with the opponent one move from docking.
            "BBBBBBB1/8/8/4W2W/8/W1W1B1W1/8/W1W3W1 w",
            // A crash in one (e1-e4), and a crash that loses (c2-e4).
            "1B1B2B1/W7/4W3/3WBW2/B1B4B/8/2W3B1/W3W2W w",
            "W1W2B2/3B3W/8/1W2B3/3B1B2/B3B2B/2W3W1/W6W w",
            // White must pass.
            "W3B1WW/6BW/8/3B3B/B3B3/8/WB6/WW1B3W w",
            // Docking in one.
            "B1B1B1B1/8/1B1B1B1B/1W6/8/8/1WWWWWWW/8 w",
        ])
        .run();
}
