//! The searchers on tic-tac-toe positions whose values are known.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use board_core::tictactoe::{Cell, TicTacToe, pos};
use board_core::{Game, Rng, testkit::Conformance};
use search::{
    AlphaBeta, EngineKind, Info, Limits, Mcts, Memory, Score, SearchGame, Think, random_move,
};

fn alphabeta(p: &TicTacToe, depth: u32) -> (Option<Cell>, Info<Cell>) {
    AlphaBeta::new(1).search(p, Limits::depth(depth), &AtomicBool::new(false), &mut |_| {})
}

#[test]
fn test_game_is_conformant() {
    Conformance::<TicTacToe>::new().run();
}

#[test]
fn alphabeta_solves_the_empty_board_as_a_draw() {
    let (best, info) = alphabeta(&TicTacToe::default(), 9);
    assert!(best.is_some());
    assert_eq!(info.score, Score::Cp(0));
    assert_eq!(info.depth, 9);
}

#[test]
fn alphabeta_takes_a_win_in_one() {
    // x x . / o o . / . . .  x to move: c2 wins at once.
    let (best, info) = alphabeta(&pos("xx.oo.... x"), 9);
    assert_eq!(best, Some(Cell(2)));
    assert_eq!(info.score, Score::Win(1));
    assert_eq!(info.pv, vec![Cell(2)]);
}

#[test]
fn alphabeta_finds_a_fork_and_sees_a_lost_position() {
    // x to move: c4 threatens c0-c4-c8 and c2-c4-c6 at once and wins in 3 plies.
    let (best, info) = alphabeta(&pos("x.xo...o. x"), 9);
    assert_eq!(info.score, Score::Win(1), "c1 wins at once");
    assert_eq!(best, Some(Cell(1)));
    let (best, info) = alphabeta(&pos("x...o...x o"), 9);
    assert_eq!(info.score, Score::Cp(0), "o holds the draw with an edge move");
    assert!(best.is_some_and(|c| [1, 3, 5, 7].contains(&c.0)), "{best:?}");
    // o to move cannot stop both x threats (c2 and c6 complete lines).
    let (_, info) = alphabeta(&pos("xx.xo.... o"), 9);
    assert_eq!(info.score, Score::Loss(2));
}

#[test]
fn alphabeta_blocks_a_threat() {
    // x threatens c0-c1-c2; o must take c2.
    let (best, _) = alphabeta(&pos("xx..o.... o"), 9);
    assert_eq!(best, Some(Cell(2)));
}

#[test]
fn alphabeta_respects_node_limits_and_the_stop_flag() {
    let start = TicTacToe::default();
    let (best, info) =
        AlphaBeta::new(1).search(&start, Limits::nodes(50), &AtomicBool::new(false), &mut |_| {});
    assert!(best.is_some_and(|mv| start.is_legal(mv)));
    assert!(info.nodes <= 50, "{} nodes", info.nodes);
    let (best, _) =
        AlphaBeta::new(1).search(&start, Limits::default(), &AtomicBool::new(true), &mut |_| {});
    assert!(best.is_some_and(|mv| start.is_legal(mv)));
}

#[test]
fn alphabeta_reports_each_depth_with_a_pv() {
    let mut depths = Vec::new();
    AlphaBeta::new(1).search(
        &TicTacToe::default(),
        Limits::depth(4),
        &AtomicBool::new(false),
        &mut |info| {
            assert!(!info.pv.is_empty());
            depths.push(info.depth);
        },
    );
    assert_eq!(depths, vec![1, 2, 3, 4]);
}

#[test]
fn finished_positions_have_no_best_move() {
    let over = pos("xxxoo.... o");
    assert_eq!(alphabeta(&over, 3).0, None);
    let stop = AtomicBool::new(false);
    assert_eq!(Mcts::new(1).search(&over, Limits::nodes(10), &stop, &mut |_| {}).0, None);
    assert_eq!(random_move(&over, &mut Rng::new(1)), None);
}

#[test]
fn mcts_finds_the_win_and_the_block() {
    let stop = AtomicBool::new(false);
    let (best, _) =
        Mcts::new(7).search(&pos("xx.oo.... x"), Limits::nodes(3000), &stop, &mut |_| {});
    assert_eq!(best, Some(Cell(2)));
    let (best, _) =
        Mcts::new(7).search(&pos("xx..o.... o"), Limits::nodes(3000), &stop, &mut |_| {});
    assert_eq!(best, Some(Cell(2)));
}

#[test]
fn mcts_is_deterministic_for_a_seed_and_counts_iterations() {
    let stop = AtomicBool::new(false);
    let start = TicTacToe::default();
    let a = Mcts::new(5).search(&start, Limits::nodes(500), &stop, &mut |_| {});
    let b = Mcts::new(5).search(&start, Limits::nodes(500), &stop, &mut |_| {});
    assert_eq!(a.0, b.0);
    assert_eq!(a.1.pv, b.1.pv);
    assert_eq!(a.1.nodes, 500);
}

#[test]
fn mcts_stops_on_time_and_on_the_flag() {
    let start = TicTacToe::default();
    let (best, info) = Mcts::new(1).search(
        &start,
        Limits::time(Duration::from_millis(50)),
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert!(best.is_some());
    assert!(info.time < Duration::from_secs(5));
    let (best, _) =
        Mcts::new(1).search(&start, Limits::default(), &AtomicBool::new(true), &mut |_| {});
    assert!(best.is_some(), "even a search stopped at once names a move");
}

#[test]
fn random_player_is_uniform_enough_and_seeded() {
    let start = TicTacToe::default();
    let mut seen = [0u32; 9];
    let mut rng = Rng::new(11);
    for _ in 0..900 {
        let mv = random_move(&start, &mut rng).expect("a move");
        seen[mv.0 as usize] += 1;
    }
    assert!(seen.iter().all(|&n| (50..150).contains(&n)), "{seen:?}");
    assert_eq!(random_move(&start, &mut Rng::new(3)), random_move(&start, &mut Rng::new(3)));
}

#[test]
fn dynamic_think_returns_legal_move_text() {
    let p: Box<dyn SearchGame> = Box::new(pos("xx.oo.... x"));
    for engine in EngineKind::ALL {
        let limits = Limits { depth: Some(3), nodes: Some(2000), time: None, plies_left: None };
        let think = Think { engine, limits, ..Think::default() };
        let mut infos = 0;
        let (best, info) =
            p.think(&think, &mut Memory::default(), &AtomicBool::new(false), &mut |_| infos += 1);
        let best = best.expect("a move");
        assert!(p.legal_move_texts().contains(&best), "{engine}: {best}");
        assert!(infos >= 1, "{engine} reported nothing");
        if engine != EngineKind::Random {
            assert_eq!(best, "c2", "{engine}");
            assert_eq!(info.pv.first(), Some(&best));
        }
    }
}

#[test]
fn engine_kinds_parse_by_name() {
    assert_eq!("MCTS".parse(), Ok(EngineKind::Mcts));
    assert_eq!("alphabeta".parse(), Ok(EngineKind::AlphaBeta));
    let err = "minimax".parse::<EngineKind>().unwrap_err();
    assert!(err.to_string().contains("minimax"));
}

#[test]
fn memory_keeps_the_table_between_searches_of_one_game() {
    let p: Box<dyn SearchGame> = Box::new(TicTacToe::default());
    let think = Think { limits: Limits::depth(6), ..Think::default() };
    let stop = AtomicBool::new(false);
    let mut memory = Memory::default();
    let (first_best, first) = p.think(&think, &mut memory, &stop, &mut |_| {});
    let (second_best, second) = p.think(&think, &mut memory, &stop, &mut |_| {});
    assert_eq!(first_best, second_best);
    assert!(second.nodes < first.nodes, "{} then {} nodes", first.nodes, second.nodes);
    memory.clear();
    let (_, fresh) = p.think(&think, &mut memory, &stop, &mut |_| {});
    assert_eq!(fresh.nodes, first.nodes, "a cleared memory searches like a new one");
}

#[test]
fn mcts_reads_a_depth_limit_as_an_iteration_budget() {
    let stop = AtomicBool::new(false);
    let start = TicTacToe::default();
    let (best, info) = Mcts::new(2).search(&start, Limits::depth(3), &stop, &mut |_| {});
    assert!(best.is_some());
    assert_eq!(info.nodes, 3 * search::ITERATIONS_PER_DEPTH);
    let both = Limits { depth: Some(3), nodes: Some(100), time: None, plies_left: None };
    assert_eq!(Mcts::new(2).search(&start, both, &stop, &mut |_| {}).1.nodes, 100);
}

#[test]
fn prepare_fills_the_memory_before_the_first_search() {
    let p: Box<dyn SearchGame> = Box::new(TicTacToe::default());
    let mut memory = Memory::default();
    assert_eq!(format!("{memory:?}"), "Memory { hash_mb: None, endgame: None, learned: None }");
    p.prepare(&mut memory, 2);
    assert_eq!(format!("{memory:?}"), "Memory { hash_mb: Some(2), endgame: None, learned: None }");
    let think = Think { limits: Limits::depth(4), hash_mb: 2, ..Think::default() };
    let (_, first) = p.think(&think, &mut memory, &AtomicBool::new(false), &mut |_| {});
    let (_, fresh) = p.think(&think, &mut Memory::default(), &AtomicBool::new(false), &mut |_| {});
    assert_eq!(first.nodes, fresh.nodes, "a prepared table is an empty table");
}

#[test]
fn two_threads_prove_the_same_values() {
    let mut searcher = AlphaBeta::new(1);
    searcher.set_threads(2);
    let stop = AtomicBool::new(false);
    let (best, info) = searcher.search(&pos("x.xo...o. x"), Limits::depth(9), &stop, &mut |_| {});
    assert_eq!((best, info.score), (Some(Cell(1)), Score::Win(1)));
    let (_, info) = searcher.search(&pos("xx.xo.... o"), Limits::depth(9), &stop, &mut |_| {});
    assert_eq!(info.score, Score::Loss(2));
    searcher.clear();
    let (_, info) = searcher.search(&TicTacToe::default(), Limits::depth(9), &stop, &mut |_| {});
    assert_eq!((info.score, info.depth), (Score::Cp(0), 9));
    let think = Think { limits: Limits::depth(9), threads: 2, ..Think::default() };
    let start: Box<dyn SearchGame> = Box::new(TicTacToe::default());
    let (_, info) = start.think(&think, &mut Memory::default(), &stop, &mut |_| {});
    assert_eq!(info.score, Score::Cp(0));
}

/// Both searchers take the plies left before the game's ply cap from the
/// limits: a win in 5 is proved with 5 plies left, and is no win with 4 (the
/// cap adjudicates tic-tac-toe a draw).
#[test]
fn a_win_beyond_the_ply_cap_is_no_win() {
    let pos: TicTacToe = "x.......o x".parse().expect("a position");
    let stop = AtomicBool::new(false);
    for plies_left in [None, Some(5), Some(4)] {
        let ab = Limits { plies_left, ..Limits::depth(9) };
        let ab = AlphaBeta::<TicTacToe>::new(1).search(&pos, ab, &stop, &mut |_| {}).1.score;
        let mcts = Limits { plies_left, ..Limits::nodes(5000) };
        let mcts = Mcts::<TicTacToe>::new(1).search(&pos, mcts, &stop, &mut |_| {}).1.score;
        if plies_left == Some(4) {
            assert_eq!(ab, Score::Cp(0));
            assert!(matches!(mcts, Score::Cp(_)), "MCTS proved {mcts:?} past the cap");
        } else {
            assert_eq!((ab, mcts), (Score::Win(5), Score::Win(5)), "{plies_left:?} plies left");
        }
    }
}
