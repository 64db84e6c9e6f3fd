//! The Rust figure for `bench/playouts.py`: uniformly random games from
//! each game's start to its end or its ply cap, in plain Rust with the
//! typed `board_core::Game` API (one reused move buffer), one thread.
//!
//! `cargo run --release --example rust_playouts -- [games] [seed]` prints
//! one line per game: `<game> games <n> plies <n> seconds <s> ns_per_ply <x> playouts_per_second <y>`.

use std::time::Instant;

use board_core::{Game, Rng};

fn run<G: Game>(games: u64, seed: u64) {
    let mut rng = Rng::new(seed);
    let mut moves = Vec::with_capacity(256);
    let mut plies = 0u64;
    let start = Instant::now();
    for _ in 0..games {
        let mut pos = G::default();
        for _ in 0..G::DEFAULT_MAX_PLIES {
            moves.clear();
            pos.generate_moves(&mut moves);
            let Some(&mv) = rng.choose(&moves) else { break };
            pos.play_unchecked(mv);
            plies += 1;
        }
        std::hint::black_box(pos.outcome().unwrap_or_else(|| pos.adjudicate()));
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{} games {games} plies {plies} seconds {seconds:.3} ns_per_ply {:.1} playouts_per_second {:.1}",
        G::NAME,
        seconds * 1e9 / plies as f64,
        games as f64 / seconds,
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let seed = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    run::<otrazhenie::Position>(games, seed);
    run::<adiyukh::Position>(games, seed);
    run::<focus::Position>(games, seed);
    run::<hexdraughts::Position>(games, seed);
    run::<stykovka::Position>(games, seed);
    run::<city::Position>(games, seed);
}
