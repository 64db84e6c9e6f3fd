//! The shared conformance suite, from every variant's start (both rule
//! sets) and from positions with the features random play rarely sets up.

use city::{Position, Variant};

#[test]
fn conformance() {
    board_core::testkit::Conformance::<Position>::new()
        .positions(&[
            // Pawns of both sides outside, on the wall and in the town.
            "BB2B1B2/1W3B1B1/2W3W2/3B5/9/2W2B3/1B7/3W3W1/W3W3W W",
            // Black to move; both sides threaten the bazaar on the e-file.
            "B3B3B/9/9/4B4/9/4W4/9/9/W7W B",
            // Nearly finished: one White pawn against two Black.
            "9/9/9/2B6/9/9/6W2/1B7/9 W",
            // The 16 line of RULES.md after ten plies: White's e6 wins next move.
            "BBBB1BBBB/9/4W4/4W4/9/2BW1WB2/3B2W2/9/WWWW1WWWW W",
        ])
        // 8 after c1-c2, and after c1-c2 g9-g8 c2-c3 g8-g7 d1-d2 a9-a5.
        .positions_in(
            Variant::Eight,
            &["BBBB1BBBB/9/9/9/9/9/9/2W6/WW1W1WWWW B", "1BBB1B1BB/9/6B2/9/B8/9/2W6/3W5/WW3WWWW W"],
        )
        // 24 after d2-e2 f8-e8 e2-e3 e8-e7: crowded walls, threats on the e-file.
        .positions_in(
            Variant::TwentyFour,
            &["BBBB1BBBB/1BBB2BB1/1BBBBWWB1/2WW1BB2/9/2WW1BB2/1WBBWWWW1/1WW2WWW1/WWWW1WWWW W"],
        )
        // The playable rules: captures of every kind compulsory; free lines
        // to e5 that a slide cannot use; a pawn on a gate; a quiet 8c.
        .positions_in(
            Variant::SixteenC,
            &[
                "B8/9/9/9/9/9/2B6/2WB1B3/W2W5 W",
                "4B4/9/4B4/9/2W3B2/9/4W4/9/W8 W",
                "B8/9/9/9/3W2B2/9/9/9/W8 B",
                "1BBB1BBBW/9/3B1WB2/2B2W3/9/3W1BW2/2W2B3/9/BWWW1WWW1 W",
            ],
        )
        .positions_in(Variant::EightC, &["B1BB1BB2/9/9/9/9/9/8B/3W5/1WW2WWW1 W"])
        .positions_in(
            Variant::TwentyFourC,
            &["BBBB1BBBB/1BBB1BBB1/1WW2BW2/3W1BB2/9/2WW1BB2/2B2WWB1/1W1W1WWW1/WWWW1WWWW W"],
        )
        .run();
}

#[test]
fn finished_positions_have_texts_that_read_back() {
    use board_core::Game;
    for text in ["B8/9/9/9/4W1B2/9/9/9/9 B", "W8/9/9/9/9/9/9/9/9 B", "9/9/9/9/4B4/9/9/9/W8 W"] {
        let pos = text.parse::<Position>().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert!(pos.is_over(), "{text}");
        assert_eq!(pos.to_string(), text);
    }
}
