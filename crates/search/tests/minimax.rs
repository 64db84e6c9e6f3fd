//! Alpha-beta against plain minimax on real positions of every game.
//!
//! Everything alpha-beta does to go faster (the table, move ordering, killers,
//! history, principal variation search, aspiration windows) must leave the
//! value of a one-thread, fixed-depth search unchanged. Two parts change values
//! by design: late-move reductions (never exact) and quiescence (a larger
//! tree). So with [`Pruning::NONE`] the value must be plain minimax's, and
//! with quiescence on it must be the minimax of the same tree extended by the
//! quiescence rule, written out plainly below. Both checks also require the
//! returned best move to have the root's value, and every move's
//! [`Evaluate::move_index`] to stay below its bound.

use std::sync::atomic::AtomicBool;

use board_core::{Evaluate, Game, Rng};
use search::{AlphaBeta, Limits, Pruning, Score};

const WIN: i32 = 1_000_000;

/// The value of a finished position for the side to move, `ply` plies from the root.
fn terminal<G: Game>(pos: &G, ply: u32) -> Option<i32> {
    let outcome = pos.outcome()?;
    let win = WIN - ply as i32;
    Some(match outcome.winner {
        None => 0,
        Some(w) if w == pos.side_to_move() => win,
        Some(_) => -win,
    })
}

/// Plain negamax to `depth`, then the quiescence rule for `qplies` more plies
/// (0: the evaluation at once).
fn minimax<G: Evaluate>(pos: &G, depth: u32, ply: u32, qplies: u32) -> i32 {
    if let Some(value) = terminal(pos, ply) {
        return value;
    }
    let moves = pos.legal_moves();
    if depth == 0 {
        if qplies == 0 {
            return pos.evaluate();
        }
        // Stand on the evaluation, unless every move is tactical.
        let tactical: Vec<_> = moves.iter().copied().filter(|&mv| pos.is_tactical(mv)).collect();
        let stand = if tactical.len() == moves.len() { -WIN - 1 } else { pos.evaluate() };
        return tactical
            .into_iter()
            .map(|mv| -child_value(pos, mv, 0, ply, qplies - 1))
            .fold(stand, i32::max);
    }
    moves.into_iter().map(|mv| -child_value(pos, mv, depth - 1, ply, qplies)).max().unwrap_or(0)
}

fn child_value<G: Evaluate>(pos: &G, mv: G::Move, depth: u32, ply: u32, qplies: u32) -> i32 {
    let mut child = pos.clone();
    child.play_unchecked(mv);
    minimax(&child, depth, ply + 1, qplies)
}

fn to_score(value: i32) -> Score {
    if value >= WIN - 10_000 {
        Score::Win((WIN - value) as u32)
    } else if value <= -(WIN - 10_000) {
        Score::Loss((WIN + value) as u32)
    } else {
        Score::Cp(value)
    }
}

/// `count` positions of every variant reached by seeded random play of 0 to
/// 59 plies; finished ones are left out.
fn positions<G: Game>(count: usize) -> Vec<G> {
    let mut rng = Rng::new(0x5eed);
    let mut out = Vec::new();
    for &variant in <G::Variant as board_core::Variant>::ALL {
        let start = G::start(variant);
        let mut made = 0;
        while made < count {
            let mut pos = start.clone();
            let plies = rng.below(60);
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
            made += 1;
            if !pos.is_over() {
                out.push(pos);
            }
        }
    }
    out
}

/// Alpha-beta with `pruning` equals minimax with `qplies` of quiescence on
/// `count` positions per variant at `depth`.
fn check<G: Evaluate>(count: usize, depth: u32, pruning: Pruning) {
    let qplies = pruning.quiescence_plies;
    for pos in positions::<G>(count) {
        for mv in pos.legal_moves() {
            assert!(pos.move_index(mv) < G::MOVE_INDEX_BOUND, "{} {pos}: {mv}", G::NAME);
        }
        let mut searcher = AlphaBeta::<G>::new(1).with_pruning(pruning);
        let (best, info) =
            searcher.search(&pos, Limits::depth(depth), &AtomicBool::new(false), &mut |_| {});
        let expected = minimax(&pos, depth, 0, qplies);
        assert_eq!(info.score, to_score(expected), "{} {pos}", G::NAME);
        let best = best.expect("a move in an unfinished game");
        assert_eq!(
            to_score(-child_value(&pos, best, depth - 1, 0, qplies)),
            info.score,
            "{} {pos}: best move {best}",
            G::NAME
        );
    }
}

/// Quiescence for this many plies past the horizon, nothing else that
/// changes values.
const fn quiescence(plies: u32) -> Pruning {
    Pruning { quiescence_plies: plies, late_move_reductions: false }
}

#[test]
fn adiyukh_equals_minimax() {
    check::<adiyukh::Position>(150, 4, Pruning::NONE);
    check::<adiyukh::Position>(100, 3, quiescence(4));
}

/// City's lines hold many captures at once: plain minimax over its capture
/// tree is slow, so its quiescence goes two plies.
#[test]
fn city_equals_minimax() {
    check::<city::Position>(25, 2, Pruning::NONE);
    check::<city::Position>(15, 1, quiescence(2));
}

#[test]
fn focus_equals_minimax() {
    check::<focus::Position>(40, 2, Pruning::NONE);
    check::<focus::Position>(100, 1, quiescence(4));
}

#[test]
fn hexdraughts_equals_minimax() {
    check::<hexdraughts::Position>(40, 3, Pruning::NONE);
    check::<hexdraughts::Position>(100, 2, quiescence(4));
}

#[test]
fn otrazhenie_equals_minimax() {
    check::<otrazhenie::Position>(200, 2, Pruning::NONE);
    check::<otrazhenie::Position>(40, 3, Pruning::NONE);
    check::<otrazhenie::Position>(100, 2, quiescence(4));
}

#[test]
fn stykovka_equals_minimax() {
    check::<stykovka::Position>(150, 2, Pruning::NONE);
    check::<stykovka::Position>(15, 3, Pruning::NONE);
    check::<stykovka::Position>(100, 2, quiescence(4));
}
