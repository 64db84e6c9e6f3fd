//! The shared conformance suite, from both variants' start and from positions
//! with kings, long captures, promotion during a capture and blocked sides.

use hexdraughts::Position;

#[test]
fn conformance() {
    board_core::testkit::Conformance::<Position>::new()
        .positions(&[
            // The worked examples: a flying king's triple capture, a man's double.
            "W:WKK4:BH4,E5,F8",
            "W:WI3,KG2:BH3,F4,KB3",
            // Kings on both sides in a mid-game.
            "B:WKG2,KK4,H5,I3,H7,I6:BKB3,E5,F8,H4,D2,C6,KD7",
            // A man that promotes in the middle of a capture and goes on as a king.
            "W:WC3,J5:BB3,D6,F5,KA5",
            // White is blocked (no move) while Black can move.
            "W:WJ1:BI1,H1,I2,KA1",
        ])
        .run();
}
