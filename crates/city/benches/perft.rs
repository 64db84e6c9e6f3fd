//! Perft speed: from the starts of both rule sets and from a mid-game position, with the
//! node counts asserted so a fast but wrong generator fails. The last ply is
//! bulk-counted (the generic `board_core::perft`).

use std::hint::black_box;

use board_core::Game;
use city::{Position, Variant};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// (name, variant, position text or `None` for the start, depth, nodes)
const CASES: [(&str, Variant, Option<&str>, u32, u64); 4] = [
    ("start-16", Variant::Sixteen, None, 4, 8_951_196),
    ("start-16c", Variant::SixteenC, None, 6, 4_092_358),
    ("start-8", Variant::Eight, None, 5, 17_242_298),
    (
        "midgame-16",
        Variant::Sixteen,
        Some("BBBB1BBBB/9/4W4/2WWB1B2/9/2WW1WB2/2BB2W2/9/WWWW1WWWW W"),
        4,
        6_444_115,
    ),
];

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, variant, text, depth, nodes) in CASES {
        let pos = match text {
            Some(text) => {
                Position::from_text(text, variant).unwrap_or_else(|e| panic!("{name}: {e}"))
            }
            None => Position::start(variant),
        };
        assert_eq!(pos.perft(depth), nodes, "{name}: perft({depth})");
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| b.iter(|| black_box(&pos).perft(depth)));
    }
    group.finish();
}

criterion_group!(benches, perft);
criterion_main!(benches);
