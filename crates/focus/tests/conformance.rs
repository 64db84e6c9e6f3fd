//! The shared conformance suite, from the start and from positions with tall
//! stacks, reserves and captures that random play reaches rarely.

use board_core::testkit::Conformance;
use focus::Position;

#[test]
fn conformance() {
    Conformance::<Position>::new()
        .positions(&[
            // White to move with a piece in reserve, two 5-stacks.
            "4/b,1,bwbwb,w,b,b/1,w,2,b,3/3,w,w,b,2/1,bwbwb,1,b,b,3/1,b,2,w,b,2/w,3,w,w/4 w reserve 0 1 captured 5 3",
            // Three 5-stacks, 15 pieces captured.
            "4/4,wbwbw,1/2,w,5/1,b,4,b,1/2,bwbbb,2,w,2/3,wbwwb,w,3/b,5/4 b reserve 0 0 captured 8 7",
            // Black owns no stack: drops only.
            "4/6/5,bw,2/8/8/8/6/4 b reserve 1 0 captured 17 16",
            // Black has nothing left: the game is over.
            "4/6/5,w,2/8/8/8/6/4 b reserve 0 0 captured 17 18",
            // Both reserves full, 5-stacks on the arms.
            "bbbbb,3/6/8/wwwww,7/7,bwbwb/8/6/3,wbwbw w reserve 3 4 captured 4 5",
        ])
        .run();
}
