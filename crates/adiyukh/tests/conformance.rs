//! The shared conformance suite, from the start and from positions with tall
//! columns, buried and surfaced kings, and long king captures.

use adiyukh::Position;

#[test]
fn conformance() {
    board_core::testkit::Conformance::<Position>::new()
        .positions(&[
            // After 30 plies of a random game: a Black king on a White man.
            "w a1:w e1:bwww g1:wB b2:w d2:w f2:ww b4:bww a5:w d6:b f6:b h6:b a7:b e7:b g7:b b8:b d8:b f8:b",
            // After 60 plies: tall mixed columns.
            "w b2:w h2:wwwwwb a3:w e3:bbbwww a5:bbbbbw c5:w e5:b g5:b g7:b",
            // Kings of both colours on top and buried.
            "w c1:wwwW e3:bB f6:bb d4:bbw g7:wB b8:bbW h2:bbw a5:www e7:wB",
            "b c1:wwwW e3:bB f6:bb d4:bbw g7:wB b8:bbW h2:bbw a5:www e7:wB",
            // The worked example: an 11-jump capture with a promotion on the way.
            "b d2:www b2:www d4:w c5:bbbbbbbbbbbb e7:ww g7:ww h8:W",
            // A finished game (Black has no move): 13:11 for White.
            "b g1:wwwbbbB b4:bbbw e5:bbbwww g5:bbww a7:w b8:ww",
        ])
        .run();
}
