//! The evaluation: side-to-move view, material, the town, bazaar threats,
//! and the move order it suggests.

use board_core::{Evaluate, Game, Player, Variant as _};
use city::{Position, Variant};

fn position(text: &str) -> Position {
    Position::from_text(text, Variant::Sixteen).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn symmetric_starts_are_level() {
    // Every variant, both rule sets.
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

fn playable(text: &str) -> Position {
    Position::from_text(text, Variant::SixteenC).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn playable_threats_are_pawns_on_the_gates() {
    // White c5 (a free line to e5, but a slide stops on d5) and e3: no
    // threat under the playable rules, one each under the literal rules.
    // Black d7 and g4 would capture on d5 and e4: nothing is decided.
    let text = "4B4/9/3B5/9/2W6/6B2/4W4/9/9 W";
    assert_eq!(playable(text).bazaar_threats(Player::First), 0);
    assert_eq!(position(text).bazaar_threats(Player::First), 2);
    assert!(playable(text).evaluate().abs() < 10_000);
    // A pawn on d5 steps in next move.
    let gate = playable("4B4/9/9/9/3W5/9/9/9/9 W");
    assert_eq!(gate.bazaar_threats(Player::First), 1);
    assert_eq!(gate.evaluate(), 10_000);
}

#[test]
fn a_playable_threat_nobody_can_capture_is_lost() {
    // Black d5 on a gate; White's c3 cannot reach it: lost for White.
    let lost = playable("4B4/9/9/9/3B5/9/2W6/9/W8 W");
    assert_eq!(lost.evaluate(), -10_000);
    // White's d3 can capture it (d3-d5 up the file): not decided.
    let answered = playable("4B4/9/9/9/3B5/9/3W5/9/W8 W");
    assert!(answered.evaluate() > -10_000);
    // Two pawns on gates cannot both be captured.
    let two = playable("4B4/9/9/4B4/3B5/9/3W5/9/W8 W");
    assert_eq!(two.evaluate(), -10_000);
}

#[test]
fn playable_move_priority_takes_the_pawn_on_the_gate_first() {
    // White must capture: a1-a9 or d3xd5 (the pawn that would enter).
    let pos = playable("B8/9/9/9/3B5/9/3W5/9/W8 W");
    let mut moves = pos.legal_moves();
    moves.sort_by_key(|&mv| -pos.move_priority(mv));
    let order: Vec<String> = moves.iter().map(ToString::to_string).collect();
    assert_eq!(order, ["d3-d5", "a1-a9"]);
}

#[test]
fn a_safe_step_onto_a_gate_wins_in_three_plies() {
    // White c5-d5 and nothing of Black's can capture on d5: e5 next move.
    assert_eq!(playable("4B4/9/9/9/2W6/9/9/9/9 W").evaluate(), 10_000);
    // With Black d7 watching d5 (down the d-file once c5 has left) it is
    // not decided...
    assert!(playable("4B4/9/3B5/9/2W6/9/9/9/9 W").evaluate() < 10_000);
    // ...while Black g5 cannot take on d5: a slide never crosses e5.
    assert_eq!(playable("4B4/9/9/9/2W3B2/9/9/9/9 W").evaluate(), 10_000);
    // A capture that lands on a gate counts when nothing can take back.
    assert_eq!(playable("4B4/9/9/9/2WB5/9/9/9/9 W").evaluate(), 10_000);
}
