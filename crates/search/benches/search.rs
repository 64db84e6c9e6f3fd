//! Alpha-beta to a fixed depth from each game's start (one thread, a fresh
//! 16 MB table each time), and MCTS for a fixed number of iterations: the
//! search's speed in time per search; nodes per second is the node count
//! (printed once per case) over it. For instruction counts, which machine
//! load does not distort, see `tools/scripts/callgrind.sh`.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use board_core::Evaluate;
use criterion::{Criterion, criterion_group, criterion_main};
use search::{AlphaBeta, Limits, Mcts};

/// Searches `G`'s start to `depth` in the `alphabeta` group.
fn alphabeta<G: Evaluate>(c: &mut Criterion, depth: u32) {
    let start = G::default();
    let never = AtomicBool::new(false);
    let search = || {
        let mut searcher = AlphaBeta::<G>::new(16);
        searcher.search(&start, Limits::depth(depth), &never, &mut |_| {}).1.nodes
    };
    eprintln!("alphabeta {} depth {depth}: {} nodes", G::NAME, search());
    let mut group = c.benchmark_group("alphabeta");
    group.sample_size(10);
    group.bench_function(format!("{}-depth-{depth}", G::NAME), |b| b.iter(|| black_box(search())));
    group.finish();
}

/// MCTS with the evaluation from `G`'s start for `iterations` (below
/// 1000, so without the alpha-beta check of the move: playouts alone).
fn mcts<G: Evaluate>(c: &mut Criterion, iterations: u64) {
    let start = G::default();
    let never = AtomicBool::new(false);
    let mut group = c.benchmark_group("mcts");
    group.sample_size(10);
    group.bench_function(format!("{}-{iterations}", G::NAME), |b| {
        b.iter(|| {
            let mut searcher = Mcts::<G>::new(1);
            let limits = Limits::nodes(iterations);
            black_box(searcher.search_with_evaluation(&start, limits, &never, &mut |_| {}))
        });
    });
    group.finish();
}

fn searches(c: &mut Criterion) {
    alphabeta::<adiyukh::Position>(c, 12);
    alphabeta::<city::Position>(c, 5);
    alphabeta::<focus::Position>(c, 5);
    alphabeta::<hexdraughts::Position>(c, 9);
    alphabeta::<otrazhenie::Position>(c, 8);
    alphabeta::<stykovka::Position>(c, 6);
    mcts::<city::Position>(c, 999);
    mcts::<focus::Position>(c, 999);
    mcts::<hexdraughts::Position>(c, 999);
    mcts::<stykovka::Position>(c, 999);
}

criterion_group!(benches, searches);
criterion_main!(benches);
