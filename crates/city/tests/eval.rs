//! The evaluation: side-to-move view, material, the town, bazaar threats,
//! and the move order it suggests.

use board_core::{Evaluate, Game, Player, Variant as _};
use city::{Position, Variant};

fn position(text: &str) -> Position {
    Position::from_text(text, Variant::Sixteen).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn symmetric_starts_are_level() {
    for &variant in Variant::ALL {
        assert_eq!(Position::start(variant).evaluate(), 0, "variant {variant}");
    }
}

#[test]
fn the_view_is_the_side_to_move() {
    // White has an extra pawn: good for White to move, bad for Black to move.
    let white = position("B8/9/9/9/9/9/9/9/WW7 W");
    let black = position("B8/9/9/9/9/9/9/9/WW7 B");
    assert!(white.evaluate() > 0);
    assert_eq!(black.evaluate(), -white.evaluate());
}

#[test]
fn town_pawns_beat_wall_pawns_beat_outside_pawns() {
    let outside = position("B8/9/9/9/9/9/9/9/2W6 W").evaluate();
    let wall = position("B8/9/9/9/9/9/9/2W6/9 W").evaluate();
    let town = position("B8/9/9/9/9/9/2W6/9/9 W").evaluate();
    assert!(outside < wall && wall < town, "{outside} {wall} {town}");
}

#[test]
fn bazaar_threats_decide_the_evaluation() {
    // White to move with a free line from e3: wins next move.
    let own_threat = position("B8/9/9/9/9/9/4W4/9/9 W");
    assert_eq!(own_threat.bazaar_threats(Player::First), 1);
    assert_eq!(own_threat.evaluate(), 10_000);
    // Black to move facing two White threats (c5 and e3) cannot stop both.
    let two = position("B8/9/9/9/2W6/9/4W4/9/9 B");
    assert_eq!(two.bazaar_threats(Player::First), 2);
    assert_eq!(two.evaluate(), -10_000);
    // One threat costs the defender, but is not decided.
    let one = position("B8/9/9/9/9/9/4W4/9/1B7 B");
    assert!(one.evaluate() < position("B8/9/9/9/9/9/3W5/9/1B7 B").evaluate());
    assert!(one.evaluate() > -10_000);
    // A pawn behind another on the same arm is no second threat.
    let blocked = position("B8/9/9/9/9/4B4/4W4/9/9 W");
    assert_eq!(blocked.bazaar_threats(Player::First), 0);
    assert_eq!(blocked.bazaar_threats(Player::Second), 1);
}

#[test]
fn finished_games_evaluate_as_decided() {
    let lost = position("B8/9/9/9/4W4/9/9/9/9 B");
    assert_eq!(lost.evaluate(), -10_000);
}

#[test]
fn move_priority_puts_the_bazaar_then_captures_first() {
    let pos = position("B8/9/9/9/2W6/9/9/3B5/3W5 W");
    let mut moves = pos.legal_moves();
    moves.sort_by_key(|&mv| -pos.move_priority(mv));
    let order: Vec<String> = moves.iter().take(2).map(ToString::to_string).collect();
    assert_eq!(order, ["c5-e5", "d1-d2"]);
}
