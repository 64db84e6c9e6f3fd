//! The evaluation and move ordering.

use board_core::{Evaluate, Game, Player};
use stykovka::Position;

/// The result after the move with the highest priority.
fn after_best_move(pos: &Position) -> Option<(Option<Player>, &'static str)> {
    let moves = pos.legal_moves();
    let &best = moves.iter().max_by_key(|&&mv| pos.move_priority(mv)).expect("a move");
    let mut next = *pos;
    next.play_unchecked(best);
    next.outcome().map(|o| (o.winner, o.reason))
}

#[test]
fn winning_moves_come_first() {
    // Crash in one: e1-e4 closes the Black e5 in.
    let crash = Position::from_text("1B1B2B1/W7/4W3/3WBW2/B1B4B/8/2W3B1/W3W2W w", "standard")
        .expect("valid");
    // (e1-e4 and c2-e4 both do it.)
    assert_eq!(after_best_move(&crash), Some((Some(Player::First), "crash")));
    // Docking in one: b5-b3 or b5-d3 joins the row.
    let dock =
        Position::from_text("B1B1B1B1/8/1B1B1B1B/1W6/8/8/1WWWWWWW/8 w", "standard").expect("valid");
    assert_eq!(after_best_move(&dock), Some((Some(Player::First), "docking")));
}

#[test]
fn a_connected_side_is_better_than_a_scattered_one() {
    // White: a row of 7 plus one; Black: scattered. White to move is ahead,
    // Black to move is behind.
    let white =
        Position::from_text("B1B1B1B1/8/1B1B1B1B/1W6/8/8/1WWWWWWW/8 w", "standard").expect("valid");
    let black =
        Position::from_text("B1B1B1B1/8/1B1B1B1B/1W6/8/8/1WWWWWWW/8 b", "standard").expect("valid");
    assert!(white.evaluate() > 200, "{}", white.evaluate());
    assert!(black.evaluate() < -200, "{}", black.evaluate());
    assert_eq!(Position::default_start().evaluate().abs(), 10, "symmetric start: only the tempo");
}

#[test]
fn a_threatened_crash_counts() {
    // Black e5 has White on d5, f5 and e6: White to move threatens to crash it.
    let threat = Position::from_text("1B1B2B1/W7/4W3/3WBW2/B1B4B/8/2W3B1/W3W2W w", "standard")
        .expect("valid");
    let calm = Position::from_text("1B1B2B1/W7/8/3WBW2/B1B4B/4W3/2W3B1/W3W2W w", "standard")
        .expect("valid");
    assert!(threat.evaluate() > calm.evaluate() + 100);
}

#[test]
fn evaluation_stays_in_bounds_along_random_games() {
    let mut rng = board_core::Rng::new(9);
    for _ in 0..20 {
        let mut pos = Position::default_start();
        for _ in 0..Position::DEFAULT_MAX_PLIES {
            let Some(&mv) = rng.choose(&pos.legal_moves()) else { break };
            assert!(pos.evaluate().abs() <= 20_000);
            pos.play_unchecked(mv);
        }
    }
}

#[test]
fn a_crash_that_also_crashes_an_own_checker_still_comes_first() {
    // c2-e4 closes in the Black e5 and the White e4 at once: end check 1 comes
    // first, so the move wins and must be ordered as a winning move.
    let both = Position::from_text("W1W2B2/3B4/8/4BW2/3B1BW1/B3BW1B/2W5/W6W w", "standard")
        .expect("valid");
    assert_eq!(after_best_move(&both), Some((Some(Player::First), "crash")));
}
