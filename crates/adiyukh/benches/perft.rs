//! Perft throughput (nodes = leaf positions; the last ply is bulk-counted:
//! the moves of the positions one ply earlier are counted, not played).
//! The node counts are asserted so a fast but wrong generator fails.
//!
//! `cargo bench -p igroteka-adiyukh -- --warm-up-time 1 --measurement-time 3`

use adiyukh::{Position, Variant};
use board_core::Game;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// After 30 plies of a seeded random game (see tests/data/perft.txt): tall
/// columns and a Black king on a White man.
const MID_GAME: &str =
    "w a1:w e1:bwww g1:wB b2:w d2:w f2:ww b4:bww a5:w d6:b f6:b h6:b a7:b e7:b g7:b b8:b d8:b f8:b";

fn bench_perft(c: &mut Criterion) {
    let cases = [
        ("start depth 9", Position::default(), 9, 4_533_214),
        (
            "mid-game depth 10",
            Position::from_text(MID_GAME, Variant::Standard).unwrap(),
            10,
            4_662_166,
        ),
    ];
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, pos, depth, nodes) in cases {
        assert_eq!(pos.perft(depth), nodes, "{name}");
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(name, |b| b.iter(|| pos.perft(depth)));
        group.bench_function(format!("{name} (generic perft)"), |b| {
            b.iter(|| board_core::perft::perft(&pos, depth))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
