use adiyukh::Position;
use board_core::Game;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(6);
    let pos = match args.get(2) {
        Some(t) => Position::from_text(t, "standard").expect("position"),
        None => Position::default_start(),
    };
    for d in 1..=depth {
        let t = Instant::now();
        let n = pos.perft(d);
        let s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let g = board_core::perft::perft(&pos, d);
        let s2 = t.elapsed().as_secs_f64();
        assert_eq!(g, n);
        println!(
            "{d}: {n}  {:.3}s  {:.1} Mn/s (generic {:.1} Mn/s)",
            s,
            n as f64 / s / 1e6,
            n as f64 / s2 / 1e6
        );
    }
}
