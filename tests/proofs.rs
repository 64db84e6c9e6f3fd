//! Results the generic alpha-beta must prove on real games.

use std::sync::atomic::AtomicBool;

use board_core::Game;
use city::City;
use search::{AlphaBeta, Limits, Score};

/// The rules note of City: the base set-up `8` is a forced first-player win
/// in 7 plies (4 White moves, starting `c1-c2`).
#[test]
fn alphabeta_proves_the_forced_win_in_the_base_city_setup() {
    let start = City::start("8").expect("variant 8");
    let (best, info) = AlphaBeta::<City>::new(16).search(
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
