//! Perft speed: `cargo bench -p igroteka-focus -- --warm-up-time 1 --measurement-time 3`.
//! Elements are perft leaves; the last ply is bulk-counted (by `Position::perft`
//! from the move tables, by the generic perft from a generated move list).

use std::hint::black_box;

use board_core::Game;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use focus::Position;

/// Tall stacks, White to move with a piece in reserve (see tests/data/perft.txt).
const MIDGAME: &str = "4/b,1,bwbwb,w,b,b/1,w,2,b,3/3,w,w,b,2/1,bwbwb,1,b,b,3/1,b,2,w,b,2/w,3,w,w/4 w reserve 0 1 captured 5 3";

fn perft(c: &mut Criterion) {
    let start = Position::default();
    let midgame = MIDGAME.parse::<Position>().expect("valid position");
    let cases: [(&str, &Position, u32, u64); 2] =
        [("startpos", &start, 5, 1_298_133_752), ("midgame", &midgame, 5, 496_837_304)];
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, pos, depth, nodes) in cases {
        assert_eq!(pos.perft(depth), nodes, "perft({depth}) of {name}");
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{name}/{depth}"), |b| b.iter(|| black_box(pos).perft(depth)));
    }
    let generic_nodes = 19_521_582;
    assert_eq!(board_core::perft::perft(&start, 4), generic_nodes);
    group.throughput(Throughput::Elements(generic_nodes));
    group.bench_function("generic/startpos/4", |b| {
        b.iter(|| board_core::perft::perft(black_box(&start), 4))
    });
    group.finish();
}

criterion_group!(benches, perft);
criterion_main!(benches);
