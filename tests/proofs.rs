//! Results the generic alpha-beta must prove on real games.

use std::sync::atomic::AtomicBool;

use board_core::Game;
use city::Position;
use search::{AlphaBeta, Limits, Score};

/// The rules note of City: the base set-up `8` is a forced first-player win
/// in 7 plies (4 White moves, starting `c1-c2`).
#[test]
fn alphabeta_proves_the_forced_win_in_the_base_city_setup() {
    let start = Position::start(city::Variant::Eight);
    let (best, info) = AlphaBeta::<Position>::new(16).search(
        &start,
        Limits::depth(7),
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert_eq!(
        info.score,
        Score::Win(7),
        "pv {:?}",
        info.pv.iter().map(ToString::to_string).collect::<Vec<_>>()
    );
    // The set-up is symmetric about the e-file, so g1-g2 wins as well.
    let best = best.map(|m| m.to_string()).unwrap_or_default();
    assert!(["c1-c2", "g1-g2"].contains(&best.as_str()), "{best}");
}

/// The ply cap is part of the game: a win that needs 7 plies is no win when
/// the record allows 6 (the cap adjudicates a draw), and still is with 7.
#[test]
fn alphabeta_does_not_chase_a_win_beyond_the_ply_cap() {
    let start = Position::start(city::Variant::Eight);
    let search = |plies_left| {
        let limits = Limits { plies_left, ..Limits::depth(7) };
        AlphaBeta::<Position>::new(16)
            .search(&start, limits, &AtomicBool::new(false), &mut |_| {})
            .1
    };
    assert_eq!(search(Some(7)).score, Score::Win(7));
    let capped = search(Some(6));
    assert!(matches!(capped.score, Score::Cp(_)), "{:?} with 6 plies left", capped.score);
    assert!(capped.pv.len() <= 6, "a line past the cap: {:?}", capped.pv);
}
