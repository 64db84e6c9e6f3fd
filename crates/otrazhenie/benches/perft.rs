//! Perft speed. Node counts are asserted, so a fast but wrong generator fails.
//!
//! `cargo bench -p igroteka-otrazhenie -- --warm-up-time 1 --measurement-time 3`; the
//! throughput is perft leaf nodes per second (the last ply is bulk-counted).

use std::hint::black_box;

use board_core::Game;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use otrazhenie::Position;

/// (name, position text, depth, nodes), from `tests/data/perft.txt`.
const CASES: [(&str, &str, u32, u64); 2] = [
    ("start", otrazhenie::START_TEXT, 6, 176_720_326),
    // After a1-b1 h8-h2 b1-f1 h2-h5 h1-h4 h5-c5: captures at hand for both sides.
    ("midgame", "B7/8/8/2B5/7W/8/8/5W2 w", 5, 14_691_984),
];

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, text, depth, nodes) in CASES {
        let pos = match text.parse::<Position>() {
            Ok(pos) => pos,
            Err(e) => panic!("{name}: {e}"),
        };
        assert_eq!(pos.perft(depth), nodes, "{name}: perft({depth})");
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{name}/depth {depth}"), |b| {
            b.iter(|| assert_eq!(black_box(&pos).perft(black_box(depth)), nodes));
        });
    }
    group.finish();
}

criterion_group!(benches, perft);
criterion_main!(benches);
