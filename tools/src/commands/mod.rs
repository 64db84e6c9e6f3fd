//! One module per subcommand.

pub mod datagen;
pub mod engine;
pub mod engine_args;
pub mod generate;
pub mod perft;
pub mod play;
pub mod replay;
pub mod selfplay;
pub mod serve;
pub mod show;
pub mod solve;
pub mod train;
pub mod tune;
