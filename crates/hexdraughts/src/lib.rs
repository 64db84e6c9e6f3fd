//! Hexagonal draughts on 80 fields (placeholder docs, see below).

mod board;
mod eval;
mod movegen;
mod moves;
mod picture;
mod position;
mod resolve;
mod text;

pub use board::{Direction, FIELD_COUNT, Field, ROWS};
pub use eval::{KING_VALUE, MAN_VALUE};
pub use moves::{MAX_PATH, Move, MoveText};
pub use position::{ByKind, Position, Variant, promotion_row};
pub use text::{Kind, Piece, Setup};
