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
use search::{AlphaBeta, Info, Limits, Pruning, Score};

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

/// The static value at the horizon, side to move's bonus included (focus has one).
fn horizon<G: Evaluate>(pos: &G) -> i32 {
    pos.evaluate() + G::TEMPO
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
            return horizon(pos);
        }
        // Stand on the evaluation, unless every move is tactical.
        let tactical: Vec<_> = moves.iter().copied().filter(|&mv| pos.is_tactical(mv)).collect();
        let stand = if tactical.len() == moves.len() { -WIN - 1 } else { horizon(pos) };
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

/// The result of a search with `lines` lines (`MultiPV`), whose `pv`
/// starts with the best move, and the last depth's lines.
fn multi_pv<G: Evaluate>(
    pos: &G,
    depth: u32,
    lines: usize,
    pruning: Pruning,
) -> (Info<G::Move>, Vec<Info<G::Move>>) {
    let mut searcher = AlphaBeta::<G>::new(1).with_pruning(pruning);
    searcher.set_multi_pv(lines);
    let mut reports = Vec::new();
    let (_, info) = searcher.search(pos, Limits::depth(depth), &AtomicBool::new(false), &mut |i| {
        reports.push(i.clone());
    });
    reports.retain(|i| i.depth == depth);
    (info, reports)
}

/// With `MultiPV` `lines`, the last depth's lines are the best `lines` root
/// moves (or all), distinct, best first, each with its own minimax value,
/// and line 1 is the search's result.
fn check_lines<G: Evaluate>(count: usize, depth: u32, lines: usize, pruning: Pruning) {
    let qplies = pruning.quiescence_plies;
    for pos in positions::<G>(count) {
        let legal = pos.legal_moves();
        let (info, reports) = multi_pv(&pos, depth, lines, pruning);
        let k = lines.min(legal.len());
        let numbers: Vec<Option<u32>> = reports.iter().map(|i| i.multipv).collect();
        let expected: Vec<Option<u32>> = (1..=k as u32).map(Some).collect();
        assert_eq!(numbers, expected, "{} {pos}", G::NAME);
        let firsts: Vec<G::Move> = reports.iter().map(|i| i.pv[0]).collect();
        for (i, mv) in firsts.iter().enumerate() {
            assert!(legal.contains(mv), "{} {pos}: line {} plays {mv}", G::NAME, i + 1);
            assert!(!firsts[..i].contains(mv), "{} {pos}: {mv} twice", G::NAME);
        }
        let values: Vec<i32> =
            firsts.iter().map(|&mv| -child_value(&pos, mv, depth - 1, 0, qplies)).collect();
        let scores: Vec<Score> = reports.iter().map(|i| i.score).collect();
        let exact: Vec<Score> = values.iter().map(|&v| to_score(v)).collect();
        assert_eq!(scores, exact, "{} {pos}: each line's own value", G::NAME);
        let mut all: Vec<i32> =
            legal.iter().map(|&mv| -child_value(&pos, mv, depth - 1, 0, qplies)).collect();
        all.sort_unstable_by(|a, b| b.cmp(a));
        assert_eq!(values, all[..k], "{} {pos}: the best {k} moves, best first", G::NAME);
        assert_eq!(info.pv.first(), Some(&firsts[0]), "{} {pos}: best move", G::NAME);
        let line = |i: &Info<G::Move>| (i.depth, i.score, i.pv.clone(), i.multipv);
        assert_eq!(line(&info), line(&reports[0]), "{} {pos}: the result is line 1", G::NAME);
    }
}

#[test]
fn multi_pv_lines_are_the_best_moves_with_their_minimax_values() {
    check_lines::<adiyukh::Position>(30, 3, 3, Pruning::NONE);
    check_lines::<otrazhenie::Position>(30, 3, 4, Pruning::NONE);
    check_lines::<stykovka::Position>(20, 2, 5, Pruning::NONE);
    check_lines::<hexdraughts::Position>(15, 3, 3, Pruning::NONE);
    check_lines::<adiyukh::Position>(20, 2, 3, quiescence(4));
    check_lines::<focus::Position>(10, 2, 2, Pruning::NONE);
}

/// Every pruning on: distinct legal moves, best first (by the scores the
/// search reports: reductions make them inexact).
#[test]
fn multi_pv_with_every_pruning_reports_distinct_moves_best_first() {
    fn rank(score: Score) -> i64 {
        match score {
            Score::Win(n) => 2_000_000 - i64::from(n),
            Score::Loss(n) => -2_000_000 + i64::from(n),
            Score::Cp(cp) => i64::from(cp),
        }
    }
    for pos in positions::<otrazhenie::Position>(20) {
        let legal = pos.legal_moves();
        let (info, reports) = multi_pv(&pos, 5, 3, Pruning::ALL);
        assert_eq!(reports.len(), legal.len().min(3), "{pos}");
        assert_eq!(info.pv.first(), Some(&reports[0].pv[0]), "{pos}");
        for (i, line) in reports.iter().enumerate() {
            assert!(legal.contains(&line.pv[0]), "{pos}");
            assert!(reports[..i].iter().all(|l| l.pv[0] != line.pv[0]), "{pos}");
            if i > 0 {
                assert!(rank(reports[i - 1].score) >= rank(line.score), "{pos}: {reports:?}");
            }
        }
    }
}

/// `MultiPV` 1 is the one-line search: the same nodes, move, score and
/// line, with no `multipv` in its infos.
#[test]
fn multi_pv_one_is_the_one_line_search() {
    for pos in positions::<adiyukh::Position>(10) {
        let plain = AlphaBeta::<adiyukh::Position>::new(1).search(
            &pos,
            Limits::depth(6),
            &AtomicBool::new(false),
            &mut |i| assert_eq!(i.multipv, None),
        );
        let (info, reports) = multi_pv(&pos, 6, 1, Pruning::ALL);
        assert_eq!(
            (info.pv.first(), info.nodes, info.score, &info.pv),
            (plain.0.as_ref(), plain.1.nodes, plain.1.score, &plain.1.pv)
        );
        assert_eq!(reports.len(), 1);
        assert_eq!(info.multipv, None);
    }
}
