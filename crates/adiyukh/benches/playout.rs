//! Seeded random playouts from the start of every variant, per generated
//! move (see `board_core::playout_bench`).
//!
//! `cargo bench -p igroteka-adiyukh --bench playout -- --warm-up-time 1 --measurement-time 3`

board_core::playout_bench!(adiyukh::Position, 50);
