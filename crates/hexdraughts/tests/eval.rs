//! The evaluation: symmetric, bounded, and it sees material and captures.

use board_core::{Evaluate, Game, Rng};
use hexdraughts::Position;

fn position(text: &str) -> Position {
    text.parse::<Position>().unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn the_start_is_even() {
    assert_eq!(Position::default().evaluate(), 0);
}

#[test]
fn material_counts_from_the_side_to_move() {
    let white_up = position("W:WG5,G6:BC3");
    assert!(white_up.evaluate() > 50, "{}", white_up.evaluate());
    let black_view = position("B:WG5,G6:BC3");
    assert!(black_view.evaluate() < -50, "{}", black_view.evaluate());
    let king = position("W:WKG5:BC3,C4");
    assert!(king.evaluate() > 0, "a king outweighs two men: {}", king.evaluate());
}

#[test]
fn advanced_men_and_guards_count() {
    let advanced = position("W:WC3,J1:BC7,J6");
    let behind = position("W:WH3,J1:BC7,J6");
    assert!(advanced.evaluate() > behind.evaluate());
    // J1 guards the back rows; I1 is one row further but no guard.
    let guarded = position("W:WJ1,G5:BB3,C3");
    let unguarded = position("W:WI1,G5:BB3,C3");
    assert!(guarded.evaluate() > unguarded.evaluate());
}

#[test]
fn stays_within_bounds_along_random_games() {
    let mut rng = Rng::new(9);
    for _ in 0..20 {
        let mut pos = Position::default();
        for _ in 0..150 {
            assert!(pos.evaluate().abs() <= 20_000, "{pos}");
            let moves = pos.legal_moves();
            let Some(&mv) = rng.choose(&moves) else { break };
            pos.play_unchecked(mv);
        }
    }
}

#[test]
fn longer_captures_and_promotions_come_first() {
    let pos = position("W:WI3,E5:BH3,F4,D5");
    let double = pos.parse_move("I3:G3:E4").unwrap();
    let single = pos.parse_move("E5:C5").unwrap();
    assert!(pos.move_priority(double) > pos.move_priority(single));
    let promoting = position("W:WB2,H5:BJ1");
    let up = promoting.parse_move("B2-A1").unwrap();
    let quiet = promoting.parse_move("H5-G5").unwrap();
    assert!(promoting.move_priority(up) > promoting.move_priority(quiet));
}
