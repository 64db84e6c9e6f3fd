//! Perft speed from the start and from a mid-game position. The node counts
//! are asserted, so a fast but wrong generator fails. The last ply is
//! bulk-counted.

use std::hint::black_box;

use board_core::Game;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use stykovka::Position;

fn perft(c: &mut Criterion) {
    let cases = [
        ("start", Position::default(), 4, 2_098_344),
        (
            "midgame",
            "4WW1B/5B2/8/2B4B/BW5B/W4BW1/3WW3/2WB4 w".parse::<Position>().expect("valid position"),
            4,
            1_081_723,
        ),
    ];
    let mut group = c.benchmark_group("perft");
    for (name, pos, depth, nodes) in cases {
        assert_eq!(pos.perft(depth), nodes, "perft({depth}) of {name}");
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{name}_depth_{depth}"), |b| {
            b.iter(|| black_box(&pos).perft(black_box(depth)));
        });
    }
    group.finish();
}

criterion_group!(benches, perft);
criterion_main!(benches);
