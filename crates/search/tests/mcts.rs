//! MCTS: the solver, the tree kept between searches, its memory bound, and
//! its strength on real games (seeded, bounded runs).

use std::sync::atomic::AtomicBool;

use board_core::tictactoe::{Cell, TicTacToe, pos};
use board_core::{Evaluate, Game, Player, Rng};
use search::{AlphaBeta, EngineKind, Limits, Mcts, Memory, Score, SearchGame, Think, random_move};

fn mcts<G: Evaluate>(searcher: &mut Mcts<G>, p: &G, iterations: u64) -> (G::Move, Score, u64) {
    let (best, info) = searcher.search_with_evaluation(
        p,
        Limits::nodes(iterations),
        &AtomicBool::new(false),
        &mut |_| {},
    );
    (best.expect("a move in an unfinished position"), info.score, info.nodes)
}

#[test]
fn a_proven_win_ends_the_search_and_is_reported_with_its_distance() {
    let (best, score, nodes) = mcts(&mut Mcts::new(1), &pos("xx.oo.... x"), 10_000);
    assert_eq!((best, score), (Cell(2), Score::Win(1)));
    assert_eq!(nodes, 1, "the win is proven when the root is expanded");
    // x to move: c1 wins at once, c4 only in three plies; the fastest is played.
    let (best, score, _) = mcts(&mut Mcts::new(1), &pos("x.xo...o. x"), 10_000);
    assert_eq!((best, score), (Cell(1), Score::Win(1)));
}

#[test]
fn a_proven_loss_is_reported_and_the_slowest_loss_played() {
    // o to move must block c2 (c2-c5-c8) and still loses to the fork c0 or
    // c4; any other move loses at once.
    let (best, score, nodes) = mcts(&mut Mcts::new(1), &pos(".....x.ox o"), 100_000);
    assert_eq!((best, score), (Cell(2), Score::Loss(4)));
    assert!(nodes < 100_000, "the search stops once the loss is proven");
}

#[test]
fn a_proven_draw_is_found_and_the_drawing_move_kept() {
    // o must take an edge; a corner loses.
    let (best, score, nodes) = mcts(&mut Mcts::new(3), &pos("x...o...x o"), 200_000);
    assert_eq!(score, Score::Cp(0));
    assert!(nodes < 200_000, "the search stops once the draw is proven");
    assert!([1, 3, 5, 7].contains(&best.0), "{best}");
    // The last move draws: proven when the root is expanded, never visited.
    let (best, score, _) = mcts(&mut Mcts::new(3), &pos("xxooxx.oo x"), 100);
    assert_eq!((best, score), (Cell(6), Score::Cp(0)));
}

#[test]
fn the_tree_is_kept_for_a_position_two_plies_below() {
    let start = TicTacToe::default();
    let mut searcher = Mcts::new(4);
    let (best, _, _) = mcts(&mut searcher, &start, 3000);
    let mut next = start;
    next.play(best).expect("legal");
    let reply = random_move(&next, &mut Rng::new(1)).expect("a reply");
    next.play(reply).expect("legal");
    mcts(&mut searcher, &next, 1);
    let kept = searcher.tree_nodes();
    let mut fresh = Mcts::new(4);
    mcts(&mut fresh, &next, 1);
    assert!(kept > 10 * fresh.tree_nodes(), "kept {kept} nodes, fresh {}", fresh.tree_nodes());
    // A position not below the root starts a new tree.
    mcts(&mut searcher, &pos("x...o...x o"), 1);
    assert!(searcher.tree_nodes() <= 1 + 6, "{} nodes", searcher.tree_nodes());
}

#[test]
fn the_engine_memory_keeps_the_tree_between_moves_and_forgets_it_in_a_new_game() {
    let p: Box<dyn SearchGame> = Box::new(pos("x...o...x o"));
    let think =
        Think { engine: EngineKind::Mcts, limits: Limits::nodes(200_000), ..Think::default() };
    let stop = AtomicBool::new(false);
    let mut memory = Memory::default();
    let (best, first) = p.think(&think, &mut memory, &stop, &mut |_| {});
    assert_eq!(first.score, Score::Cp(0));
    let (again, second) = p.think(&think, &mut memory, &stop, &mut |_| {});
    assert_eq!(again, best);
    assert_eq!(second.nodes, 0, "the kept tree already proves the draw");
    memory.clear();
    let (_, fresh) = p.think(&think, &mut memory, &stop, &mut |_| {});
    assert_eq!(fresh.nodes, first.nodes, "a cleared memory searches like a new one");
}

#[test]
fn the_tree_never_grows_past_its_budget() {
    let start = focus::Position::default();
    // Many searches: without the alpha-beta check of each move to play.
    let mut searcher = Mcts::new(5).with_tree_mb(1).with_playout_cap(0).without_verification();
    let budget = searcher.node_budget();
    let mut moves = Vec::new();
    let mut p = start;
    for ply in 0..6 {
        mcts(&mut searcher, &p, 2000);
        assert!(searcher.tree_nodes() <= budget, "ply {ply}: {} > {budget}", searcher.tree_nodes());
        moves.clear();
        p.generate_moves(&mut moves);
        p.play(moves[0]).expect("legal");
    }
    // The budget was reached: the test would see a tree that outgrew it.
    // Past half the budget, leaves need more and more visits to grow, so
    // the tree fills over many searches of the same position (it is kept).
    let mut full = Mcts::new(5).with_tree_mb(1).with_playout_cap(0).without_verification();
    let (_, _, nodes) = mcts(&mut full, &start, 2000);
    assert_eq!(nodes, 2000);
    let half = full.tree_nodes();
    assert!(half * 10 < budget * 6, "rationed past half the budget: {half} of {budget}");
    let mut searches = 1;
    while full.tree_nodes() + 200 <= budget && searches < 200 {
        let (best, _, nodes) = mcts(&mut full, &start, 2000);
        assert!(start.is_legal(best));
        assert_eq!(nodes, 2000, "a full tree goes on with playouts from its leaves");
        assert!(full.tree_nodes() <= budget);
        searches += 1;
    }
    assert!(full.tree_nodes() + 200 > budget, "{} of {budget}", full.tree_nodes());
    eprintln!("full after {searches} searches");
    let (_, _, nodes) = mcts(&mut full, &start, 2000);
    assert_eq!(nodes, 2000, "a full tree goes on with playouts from its leaves");
    assert!(full.tree_nodes() <= budget);
}

/// Random playouts of focus almost never end; scored by the evaluation as a
/// win probability they must lead MCTS to win by the rules, not the cap.
#[test]
fn mcts_beats_random_at_focus_by_the_rules() {
    let won = (0..10u64)
        .filter(|&seed| {
            let me = if seed % 2 == 0 { Player::First } else { Player::Second };
            let mut rng = Rng::new(seed);
            let mut searcher = Mcts::new(seed);
            let mut p = focus::Position::default();
            for _ in 0..focus::Position::DEFAULT_MAX_PLIES {
                if p.is_over() {
                    break;
                }
                let mv = if p.side_to_move() == me {
                    mcts(&mut searcher, &p, 100).0
                } else {
                    random_move(&p, &mut rng).expect("a move")
                };
                p.play(mv).expect("legal");
            }
            p.outcome().is_some_and(|o| o.winner == Some(me))
        })
        .count();
    assert!(won >= 9, "MCTS won {won} of 10 by the rules");
}

/// Positions from seeded random City games where at least one move lets
/// the opponent win at once and at least one does not.
fn city_traps() -> Vec<(city::Position, Vec<city::Move>)> {
    let mut traps = Vec::new();
    let mut moves = Vec::new();
    let mut replies = Vec::new();
    for seed in 0..40u64 {
        let mut rng = Rng::new(seed);
        let mut p = city::Position::start(
            [city::Variant::Eight, city::Variant::Sixteen][seed as usize % 2],
        );
        while !p.is_over() && traps.len() < 12 {
            moves.clear();
            p.generate_moves(&mut moves);
            let losing: Vec<city::Move> = moves
                .iter()
                .copied()
                .filter(|&mv| {
                    let mut after = p;
                    after.play_unchecked(mv);
                    replies.clear();
                    after.generate_moves(&mut replies);
                    replies.iter().any(|&reply| {
                        let mut end = after;
                        end.play_unchecked(reply);
                        end.outcome().is_some_and(|o| o.winner == Some(after.side_to_move()))
                    })
                })
                .collect();
            if !losing.is_empty() && losing.len() < moves.len() {
                traps.push((p, losing));
                break;
            }
            let mv = random_move(&p, &mut rng).expect("a move");
            p.play(mv).expect("legal");
        }
    }
    traps
}

#[test]
fn mcts_never_plays_a_move_that_loses_at_once_in_city() {
    let traps = city_traps();
    assert!(traps.len() >= 10, "only {} positions found", traps.len());
    for (p, losing) in traps {
        let (best, _, _) = mcts(&mut Mcts::new(9), &p, 300);
        assert!(!losing.contains(&best), "{p}: {best} loses at once");
    }
}

/// Won Otrazhenie positions, two checkers against one, each a win in 5
/// plies for the side to move (alpha-beta proves it): MCTS must prove the
/// win and play a move that keeps it.
#[test]
fn mcts_keeps_won_otrazhenie_positions() {
    let stop = AtomicBool::new(false);
    let mut alphabeta = AlphaBeta::<otrazhenie::Position>::new(4);
    for text in [
        "4B3/8/8/8/8/5B2/2W5/8 b",
        "8/B7/8/1W6/8/8/8/1B6 b",
        "4W3/8/1B6/8/8/2W5/8/8 w",
        "8/4W3/8/6BW/8/8/8/8 w",
        "5B2/8/8/B7/8/1W6/8/8 b",
    ] {
        let p = text.parse::<otrazhenie::Position>().expect("a position");
        alphabeta.clear();
        let (_, proof) = alphabeta.search(&p, Limits::depth(9), &stop, &mut |_| {});
        assert_eq!(proof.score, Score::Win(5), "{text}");
        let (best, score, _) = mcts(&mut Mcts::new(2), &p, 8000);
        assert_eq!(score, Score::Win(5), "{text}: MCTS proves the win");
        let mut after = p;
        after.play(best).expect("legal");
        alphabeta.clear();
        let (_, reply) = alphabeta.search(&after, Limits::depth(9), &stop, &mut |_| {});
        let kept = after.is_over() || matches!(reply.score, Score::Loss(_));
        assert!(kept, "{text}: {best} throws the win (MCTS {score:?}, then {:?})", reply.score);
    }
}

/// The value alpha-beta proves for the player who plays `mv` in `pos` by
/// searching the position after it to `depth` (a loss in `n` for the
/// opponent: a win for the mover), as a score from the mover's side.
fn checked<G: Evaluate>(pos: &G, mv: G::Move, depth: u32) -> Score {
    let mut after = pos.clone();
    after.play_unchecked(mv);
    let (_, info) = AlphaBeta::<G>::new(4).search(
        &after,
        Limits::depth(depth),
        &AtomicBool::new(false),
        &mut |_| {},
    );
    match info.score {
        Score::Win(n) => Score::Loss(n),
        Score::Loss(n) => Score::Win(n),
        Score::Cp(cp) => Score::Cp(-cp),
    }
}

/// City `8` from the start: MCTS's playouts rate `a1-a9` and `i1-i9` well,
/// but alpha-beta proves each lost in 7 (and `c1-c2` won in 7). A search
/// limited by iterations is MCTS alone (issue 34): it plays what MCTS
/// without the alpha-beta check plays, one of those lost moves, after
/// exactly its 10 000 iterations. (The check, which runs in timed searches,
/// is tested in the crate: `the_check_gives_up_a_move_alpha_beta_proves_lost_in_city_8`.)
#[test]
fn a_search_limited_by_iterations_is_mcts_alone() {
    let start = city::Position::start("8".parse().expect("variant 8"));
    let searched = mcts(&mut Mcts::new(1), &start, 10_000);
    let alone = mcts(&mut Mcts::new(1).without_verification(), &start, 10_000);
    assert_eq!(searched, alone);
    assert_eq!(searched.2, 10_000, "nodes are the iterations");
    let value = checked(&start, searched.0, 8);
    assert!(
        matches!(value, Score::Loss(_)),
        "{} is {value:?}: a check would not keep it",
        searched.0
    );
}
