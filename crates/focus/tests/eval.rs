//! The evaluation and the move ordering.

use board_core::{Evaluate, Game};
use focus::Position;

fn position(text: &str) -> Position {
    text.parse::<Position>().unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn the_symmetric_start_is_even() {
    assert_eq!(Position::default().evaluate(), 0);
}

#[test]
fn evaluation_is_from_the_side_to_move() {
    let even = position("4/6/8/4,w,3/3,b,4/8/6/4 b reserve 0 0 captured 17 17");
    assert_eq!(even.evaluate(), 0);
    // Black has one more piece: in reserve instead of captured.
    let ahead = position("4/6/8/4,w,3/3,b,4/8/6/4 b reserve 1 0 captured 17 16");
    assert!(ahead.evaluate() > 0);
    let white_view = position("4/6/8/4,w,3/3,b,4/8/6/4 w reserve 1 0 captured 17 16");
    assert_eq!(white_view.evaluate(), -ahead.evaluate());
}

#[test]
fn a_capture_raises_the_movers_value() {
    let mut pos = position("4/6/8/8/8/2,wwwwb,4,bbwww/6/4 b reserve 0 0 captured 11 15");
    let before = pos.evaluate();
    pos.play_text("c3-h3").unwrap();
    assert!(-pos.evaluate() > before, "capturing three should raise Black's value");
}

#[test]
fn captures_are_tried_first() {
    let pos = position("4/6/8/8/8/2,wwwwb,4,bbwww/6/4 b reserve 0 0 captured 11 15");
    let mut moves = pos.legal_moves();
    moves.sort_by_key(|&mv| -pos.move_priority(mv));
    assert_eq!(moves[0].to_string(), "c3-h3");
    assert!(pos.move_priority(moves[0]) > pos.move_priority(moves[1]));
}

#[test]
fn evaluation_stays_in_bounds_over_random_play() {
    let mut rng = board_core::Rng::new(3);
    let mut pos = Position::default();
    for _ in 0..400 {
        assert!(pos.evaluate().abs() <= 20_000);
        let moves = pos.legal_moves();
        let Some(&mv) = rng.choose(&moves) else { break };
        pos.play_unchecked(mv);
    }
}

/// Quiescence search plays captures and take-overs of enemy stacks of three
/// or more past the horizon: a search that stopped after one would value
/// the tall stack as the mover's, though the reply takes it back.
#[test]
fn captures_and_take_overs_of_tall_stacks_are_tactical() {
    let sorted_tactical = |pos: &Position| {
        let mut moves = Vec::new();
        pos.generate_tactical(&mut moves);
        let mut texts: Vec<String> = moves.iter().map(|mv| mv.to_string()).collect();
        texts.sort();
        texts
    };
    // Black's single piece beside White's stacks of three (e4) and two (f4).
    let pos = position("4/6/8/8/3,b,bbw,bw,2/8/6/4 b reserve 1 0 captured 16 13");
    assert_eq!(sorted_tactical(&pos), ["@e4", "d4-e4"]);
    for mv in pos.legal_moves() {
        let text = mv.to_string();
        assert_eq!(pos.is_tactical(mv), text == "@e4" || text == "d4-e4", "{text}");
    }
    // A capture is tactical whatever it lands on.
    let pos = position("4/6/8/8/8/2,wwwwb,4,bbwww/6/4 b reserve 0 0 captured 11 15");
    assert!(sorted_tactical(&pos).contains(&"c3-h3".to_string()));
}
