//! Perft speed from the start and from a mid-game position with kings; the
//! node counts are asserted so that a fast but wrong generator fails.
//!
//! `cargo bench -p igroteka-hexdraughts -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use board_core::Game;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hexdraughts::{Position, Variant};

/// Seed 1 of tests/data/perft.txt: kings on both sides, captures available.
const MIDGAME: &str = "W:WKE9,F5,G3,G7,G9,H1,H2,H4,H6,I1,I2,I3,I4,I6,J1,J2,KJ3,KJ4,J5,J6\
                       :BKA4,B1,B2,KB3,B5,C1,C2,C3,C4,D4,E2,E3";

fn bench_perft(c: &mut Criterion) {
    let cases = [
        ("start depth 6", Position::default(), 6, 40_091_608),
        (
            "midgame depth 5",
            Position::from_text(MIDGAME, Variant::Standard).expect("valid"),
            5,
            4_005_177,
        ),
    ];
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, pos, depth, nodes) in cases {
        assert_eq!(pos.perft(depth), nodes, "{name}");
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| b.iter(|| black_box(&pos).perft(black_box(depth))));
    }
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
