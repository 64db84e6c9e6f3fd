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
    let crash = "1B1B2B1/W7/4W3/3WBW2/B1B4B/8/2W3B1/W3W2W w".parse::<Position>().expect("valid");
    // (e1-e4 and c2-e4 both do it.)
    assert_eq!(after_best_move(&crash), Some((Some(Player::First), "crash")));
    // Docking in one: b5-b3 or b5-d3 joins the row.
    let dock = "B1B1B1B1/8/1B1B1B1B/1W6/8/8/1WWWWWWW/8 w".parse::<Position>().expect("valid");
    assert_eq!(after_best_move(&dock), Some((Some(Player::First), "docking")));
}

#[test]
fn a_connected_side_is_better_than_a_scattered_one() {
    // White: a row of 7 plus one; Black: scattered. White to move is ahead,
    // Black to move is behind.
    let white = "B1B1B1B1/8/1B1B1B1B/1W6/8/8/1WWWWWWW/8 w".parse::<Position>().expect("valid");
    let black = "B1B1B1B1/8/1B1B1B1B/1W6/8/8/1WWWWWWW/8 b".parse::<Position>().expect("valid");
    assert!(white.evaluate() > 200, "{}", white.evaluate());
    assert!(black.evaluate() < -200, "{}", black.evaluate());
    assert_eq!(Position::default().evaluate().abs(), 10, "symmetric start: only the tempo");
}

#[test]
fn a_threatened_crash_counts() {
    // Black e5 has White on d5, f5 and e6: White to move threatens to crash it.
    let threat = "1B1B2B1/W7/4W3/3WBW2/B1B4B/8/2W3B1/W3W2W w".parse::<Position>().expect("valid");
    let calm = "1B1B2B1/W7/8/3WBW2/B1B4B/4W3/2W3B1/W3W2W w".parse::<Position>().expect("valid");
    assert!(threat.evaluate() > calm.evaluate() + 100);
}

#[test]
fn evaluation_stays_in_bounds_along_random_games() {
    let mut rng = board_core::Rng::new(9);
    for _ in 0..20 {
        let mut pos = Position::default();
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
    let both = "W1W2B2/3B4/8/4BW2/3B1BW1/B3BW1B/2W5/W6W w".parse::<Position>().expect("valid");
    assert_eq!(after_best_move(&both), Some((Some(Player::First), "crash")));
}

#[test]
fn tactical_moves_are_exactly_the_moves_that_win_at_once() {
    let mut rng = board_core::Rng::new(17);
    let mut tactical = 0;
    let mut starts = vec![
        Position::default(),
        "1B1B2B1/W7/4W3/3WBW2/B1B4B/8/2W3B1/W3W2W w".parse().expect("valid"),
        "B1B1B1B1/8/1B1B1B1B/1W6/8/8/1WWWWWWW/8 w".parse().expect("valid"),
        "W1W2B2/3B4/8/4BW2/3B1BW1/B3BW1B/2W5/W6W w".parse().expect("valid"),
    ];
    starts.extend(std::iter::repeat_n(Position::default(), 8));
    for start in starts {
        let mut pos = start;
        for _ in 0..Position::DEFAULT_MAX_PLIES {
            let moves = pos.legal_moves();
            for &mv in &moves {
                let mut next = pos;
                next.play_unchecked(mv);
                let wins = next.outcome().is_some_and(|o| o.winner == Some(pos.side_to_move()));
                assert_eq!(pos.is_tactical(mv), wins, "{mv} in {pos}");
                // The move ordering puts them first, as before the rules owned them.
                assert_eq!(pos.is_tactical(mv), pos.move_priority(mv) >= 9_000, "{mv} in {pos}");
                tactical += usize::from(wins);
            }
            let Some(&mv) = rng.choose(&moves) else { break };
            pos.play_unchecked(mv);
        }
    }
    assert!(tactical >= 3, "only {tactical} tactical moves seen");
}
