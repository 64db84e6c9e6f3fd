//! Perft from the start (or a position text) to a given depth, with timing:
//! the deeper counts of the README.
//!
//! `cargo run --release -p adiyukh --example perft -- 12 ["<position text>"]`

use std::time::Instant;

use adiyukh::Position;
use board_core::Game;

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(8);
    let pos = match args.next() {
        None => Position::default_start(),
        Some(text) => match Position::from_text(&text, "standard") {
            Ok(pos) => pos,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        },
    };
    for d in 1..=depth {
        let clock = Instant::now();
        let nodes = pos.perft(d);
        let secs = clock.elapsed().as_secs_f64();
        println!("{d:>2} {nodes:>13} {secs:>9.3} s {:>7.1} M nodes/s", nodes as f64 / secs / 1e6);
    }
}
