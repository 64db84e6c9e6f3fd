//! Hexagonal draughts on 80 fields, from a Russian rulebook (articles 1–5 and
//! an appendix).
//!
//! The full rules, with tested examples, are in [`rules_page`] (`RULES.md` in
//! the crate).
//!
//! # The board
//! Eleven rows ("horizontals") A..K, from Black's side (A, top) to White's
//! (K, bottom), of 5, 6, 7, 8, 9, 10, 9, 8, 7, 6, 5 fields, numbered 1.. from
//! the left: `A1`..`A5`, ..., `F1`..`F10`, ..., `K1`..`K5` (names are read in
//! either case and printed upper case). Rows are centred, so the board is a
//! hexagon, and pieces move only along the four diagonal directions
//! ([`Direction`]): a field touches the fields half a field to its left and
//! right in the rows above and below, never its neighbours in its own row.
//! Lines run on while fields exist: `G2 H2 I2 J2 K2`, `G2 F2 E1`,
//! `G2 F3 E3 D3 C3 B3 A3`.
//!
//! A [`Field`] is a [`Cell`] numbered densely in row order:
//! `A1` = 0, ..., `A5` = 4, `B1` = 5, ..., `K5` = 79
//! ([`INDEX_BOUND`](board_core::Cell::INDEX_BOUND) = [`FIELD_COUNT`] = 80),
//! the order of [`Cell::all`].
//!
//! # The rules in brief
//! - Each side has 19 men and 2 kings; White moves first, towards row A; Black
//!   towards row K.
//! - A man steps to an empty adjacent field forward; it captures by jumping an
//!   adjacent enemy piece, forward or backward, onto the empty field beyond.
//! - A king flies any distance along a line over empty fields, and captures
//!   over empty fields, exactly one enemy piece, onto any empty field beyond;
//!   if the capture can go on from some of those fields it must land on one
//!   of them.
//! - Capturing is compulsory and goes on while possible; the player chooses
//!   freely among capture sequences (no majority rule). Captured pieces are
//!   removed when the move ends ("Turkish strike"): each is jumped at most
//!   once and blocks the way until then. The capturing piece's start field
//!   counts as empty during its move.
//! - A man reaching the far row (A for White, K for Black) becomes a king at
//!   once; during a capture it goes on capturing as a king and stays a king
//!   wherever the capture ends.
//! - A player who captures every enemy piece wins. A player without a legal
//!   move on their turn loses (article 1.2); if neither side could move, the
//!   game is drawn (article 1.3). The `blocked-draw` variant ([`Variant`])
//!   follows article 4.0(c) instead: the side to move without a legal move
//!   draws.
//! - No repetition or move-count draw is defined. Tools stop a game after
//!   [`DEFAULT_MAX_PLIES`](board_core::Game::DEFAULT_MAX_PLIES) = 400 plies and
//!   score it a draw ([`adjudicate`](board_core::Game::adjudicate) is not
//!   overridden).
//!
//! # Interpretations
//! - **Start position** (the rulebook's figure is lost): Black kings on A2 and
//!   A4; Black men on B1 B2 B5 B6 and all of rows C and D; White is the same
//!   turned half a circle: kings on K2 and K4, men on J1 J2 J5 J6 and all of
//!   rows H and I.
//! - **"Neither side can move"** is checked in the position where the side to
//!   move has no move, by asking whether the other side would have one there.
//! - **Validation**: at most 21 pieces and 19 men per side, no man on its own
//!   promotion row, and the side that moved last must have a piece (the side
//!   to move may have none: the game is then over).
//! - **Field index** (decision for [`Cell`]): the board is
//!   no rectangle, so fields are numbered densely in row order, A1 = 0 to
//!   K5 = 79, rather than on a grid with holes.
//!
//! # Notation
//! A quiet move is `G8-F8`; a capture lists the start and every landing field
//! joined by `:`, `I3:G3:E4`. Each pair of consecutive fields lies on one line
//! with exactly one enemy piece between them, so the landing fields fix the
//! captured pieces. Two captures with different landing fields are different
//! moves even when they take the same pieces and end on the same field. When
//! reading, a capture may be shortened to its start and end (`I3:E4`) if only
//! one legal capture fits.
//!
//! # Position text
//! `<side>:W<white pieces>:B<black pieces>` — the side to move (`W` or `B`),
//! then each side's pieces as comma-separated fields, a king's field prefixed
//! by `K` (`KK2` is a king on K2, `K2` a man there). Lists may come in either
//! order and be empty; letters may be lower case. The start:
//!
//! ```text
//! W:WH1,H2,H3,H4,H5,H6,H7,H8,I1,I2,I3,I4,I5,I6,I7,J1,J2,J5,J6,KK2,KK4:BKA2,KA4,B1,B2,B5,B6,C1,C2,C3,C4,C5,C6,C7,D1,D2,D3,D4,D5,D6,D7,D8
//! ```
//!
//! `{:#}` draws the board as a hexagon with offset rows (see [`Position`]'s
//! `Display`).
//!
//! # Example
//! ```
//! use hexdraughts::prelude::*;
//!
//! let mut pos = Position::default();
//! assert_eq!(pos.legal_moves().len(), 18);
//! pos.play_text("h8-g9")?;
//! assert_eq!(pos.perft(3), 6_406);
//!
//! let capture: Position = "W:WI3:BH3,F4".parse()?;
//! let mv = capture.parse_move("I3:G3:E4")?;
//! assert_eq!(mv.capture_count(), 2);
//! let field: Field = "i3".parse()?;
//! assert_eq!(capture.piece_at(field), Some(Piece::new(Player::First, Kind::Man)));
//! println!("{capture:#}");
//!
//! let blocked = Position::from_text("W:WJ1:BI1,I2,H1,H3", Variant::BlockedDraw)?;
//! assert_eq!(blocked.outcome(), Some(Outcome::draw("no legal move")));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Implementation
//! The 80 fields are bits of a `u128` laid out so that every line of play is
//! a constant shift (the hexagon becomes a 10x10 grid with two corners cut);
//! a [`Position`] is
//! `Copy` and keeps an incremental Zobrist hash. Perft counts the last ply
//! without listing its quiet moves.

#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// The rules of hexagonal draughts: the board, every kind of move with an
/// example, the end, the variants and each interpretation (the crate's
/// `RULES.md`, whose examples `tests/rules_page.rs` checks).
#[doc = include_str!("../RULES.md")]
pub mod rules_page {}

mod board;
mod eval;
mod movegen;
mod moves;
mod patterns;
mod picture;
mod position;
mod resolve;
mod text;
mod view;

/// Everything a user of the crate needs, with `use hexdraughts::prelude::*;`
/// alone: the shared vocabulary of [`board_core::prelude`] and this game's
/// types.
pub mod prelude {
    pub use board_core::prelude::*;

    pub use crate::{
        ByKind, Direction, FIELD_COUNT, Field, KING_VALUE, Kind, MAN_VALUE, MAX_PATH, Move,
        MoveText, Piece, Position, ROWS, Setup, Variant, promotion_row,
    };
}

pub use board::{Direction, FIELD_COUNT, Field, ROWS};
pub use eval::{KING_VALUE, MAN_VALUE};
pub use moves::{MAX_PATH, Move, MoveText};
pub use position::{ByKind, Position, Variant, promotion_row};
pub use text::{Kind, Piece, Setup};

pub use board_core::prelude::*;

/// The core crate itself, for what the prelude leaves out (`DynGame`,
/// `GameRecord`, the view types, the testkit).
pub use board_core;
