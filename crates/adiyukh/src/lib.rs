//! Adiyukh (also published as "13"): Russian column draughts in which kings
//! only capture and the winner is decided by counting pieces on the far half.
//!
//! The full rules, with tested examples, are in [`rules_page`] (`RULES.md` in
//! the crate).
//!
//! # Rules in brief
//! - 8x8 board, the 32 dark squares (a1 is dark). 12 White men on ranks 1-3,
//!   12 Black men on ranks 6-8; White moves first.
//! - Pieces never leave the board: they form **columns** of 1..24 pieces. A
//!   column belongs to the colour of its top piece and has that piece's rank
//!   (man or king). Buried pieces keep their colour and rank.
//! - **Quiet move** (man-topped columns only): one square diagonally forward
//!   to an empty square. **Kings have no quiet moves**: a king-topped column
//!   only captures.
//! - **Capture is compulsory**, with free choice among capture sequences (no
//!   majority rule), and a sequence goes on while it can. A man jumps an
//!   adjacent enemy-topped column forward or backward onto the empty square
//!   beyond; a king flies along a diagonal over empty squares, jumps one
//!   enemy-topped column and lands on any empty square beyond — on one from
//!   which the capture goes on, if there is such a square.
//! - A jump takes only the **top piece** of the jumped column and puts it at
//!   the **bottom** of the capturing column. The jumped column changes at
//!   once, so it may be jumped again later in the same capture while its top
//!   is an enemy piece; the start square counts as empty during the capture.
//! - **No 180-degree turn**: a jump may not go straight back along the
//!   direction of the jump just made (a king may not even turn back to jump
//!   another column); such a jump does not count when deciding whether a
//!   capture can go on.
//! - **Promotion**: a man ending a quiet move on its last row (rank 8 for
//!   White, rank 1 for Black) becomes a king; a man reaching it during a
//!   capture becomes a king at once and continues as one.
//! - **Demotion**: when a capture by a king-topped column ends, the top piece
//!   becomes a man again unless it stops on its own promotion row.
//! - **End**: when the side to move has no legal move (kings that cannot
//!   capture have none). White scores a point for every piece of either
//!   colour on ranks 5-8, Black for every piece on ranks 1-4; 13 or more
//!   wins, 12:12 is a draw. The [`Outcome`] carries the
//!   score (first = White).
//!
//! # Interpretations
//! - A man promoted during a capture is demoted like any king at the end of
//!   the capture: it stays a king only if it stops on its promotion row.
//! - A jumped column left with no pieces leaves an empty square at once; a
//!   king may fly over it or land on it later in the same capture.
//! - A capture has at most 12 jumps (each takes one of the 12 pieces of the
//!   enemy colour, which stays under the moving column until the move ends).
//! - Tools that stop a game at a ply cap ([`DEFAULT_MAX_PLIES`] = 300; in
//!   400 seeded random games from the start the longest took 176 plies, the
//!   median 62) score the position as it stands ([`Game::adjudicate`]): 13
//!   or more wins, 12:12 a draw, reason "ply limit", score attached.
//! - A position text must hold exactly 12 pieces of each colour; any
//!   arrangement of them into columns is accepted (buried kings anywhere,
//!   either side to move).
//!
//! # Interpretation/decision (the shared API)
//! - Cells: [`Square`] has only the 32 dark squares. Its
//!   [`Cell::index`] is the grid index `rank * 8 + file` (a1 = 0, c1 = 2,
//!   b2 = 9, h8 = 63; `INDEX_BOUND` = 64) with the light squares as holes, so
//!   that it is the bit of the square in the bitboards and the square's place
//!   on a plain 8x8 tensor. [`Cell::all`] gives a1, c1, e1, g1, b2, ..., h8:
//!   the order of the position text. Names are read in any case.
//! - [`Game::piece_at`] gives the whole [`Column`] on a square (`None` when it
//!   is empty); [`Position::column`] stays as the same without the `Option`
//!   (an empty square gives [`Column::EMPTY`]), usable in `const` code.
//! - The board view ([`Describe::board`]) has the 32 dark squares as its
//!   cells; the light squares, which are no cells, are not drawn.
//! - One variant, [`Variant::Standard`] (`"standard"`).
//!
//! # Notation
//! In one line ([`Game::NOTATION`]): quiet move `c3-d4` (or the short `fe5`:
//! the f-file column to e5); capture: start and every landing square joined
//! by `:`, `c5:e3:c1` (or short `d:f6`: from the d-file to f6). In full:
//!
//! - Quiet move `g3-h4`; capture: the start square and every landing square
//!   in order, joined by `:` (`c5:e3:c1:a3:f8`). Captures with different
//!   landing squares are different moves even when they reach the same
//!   position. This is how [`Move`] prints.
//! - Also read: the short form of published records, `gh4` (the column from
//!   the g-file that steps to h4) and `h:f6` (the capture from the h-file
//!   that ends on f6), and `c5:a3` for "the capture from c5 that ends on a3"
//!   when that is not itself a one-jump capture. Each is accepted when it
//!   names exactly one legal move, otherwise the error lists the candidates
//!   ([`IllegalMoveError::Ambiguous`]).
//!   A leading move number (`4.`) and trailing annotations `Д.`, `Пр.`, `!`,
//!   `?` are ignored.
//!
//! # Position text
//! The side to move (`w` or `b`), then every column as `<square>:<pieces>`
//! with the pieces bottom to top: `w` White man, `W` White king, `b` Black
//! man, `B` Black king; separated by spaces, printed in the order a1, c1, e1,
//! g1, b2, ..., h8 (read in any order). The start position is
//!
//! ```text
//! w a1:w c1:w e1:w g1:w b2:w d2:w f2:w h2:w a3:w c3:w e3:w g3:w b6:b d6:b f6:b h6:b a7:b c7:b e7:b g7:b b8:b d8:b f8:b h8:b
//! ```
//!
//! and `b e5:wwwbbb g1:bbbbwwW ...` has a column of three White men under
//! three Black men on e5 and a White king on top of four Black and two
//! White men on g1.
//!
//! # Representation
//! [`Position`] is `Copy` (about 300 bytes): one packed word per dark square
//! ([`Column`]: 2 bits per piece bottom to top, the height in the top byte),
//! bitboards of White-topped, Black-topped and king-topped squares, and an
//! incremental Zobrist hash (keys per square, level and piece). Captures are
//! found by a depth-first search that takes top pieces off the jumped columns
//! in an overlay and puts them back on the way out; nothing is allocated per
//! node. Perft from the start: 7, 49, 302, 1 469, 7 482, 37 908, 189 912,
//! 925 868 (deeper in the README).
//!
//! # Example
//! ```
//! use adiyukh::prelude::*;
//!
//! let mut pos = Position::default();
//! assert_eq!(pos.legal_moves().len(), 7);
//! pos.play_text("c3-d4")?;
//! pos.play_text("fe5")?; // short form: the f-file column steps to e5
//! let capture = pos.parse_move("d:f6")?; // forced: d4 takes e5 and lands on f6
//! assert_eq!(capture.to_string(), "d4:f6");
//! pos.play_unchecked(capture);
//! let f6: Square = "f6".parse()?;
//! let column = pos.piece_at(f6).ok_or("f6 is empty")?;
//! assert_eq!(column.to_string(), "bw"); // the taken Black man under the White man
//! assert_eq!(column.top(), Some(Piece::man(Color::White)));
//! assert_eq!(pos.to_string().split(' ').find(|c| c.starts_with("f6")), Some("f6:bw"));
//! // `Game::` because the prelude's `DynGame` has a `perft` method too.
//! assert_eq!(Game::perft(&Position::default(), 4), 1_469);
//! assert_eq!(Position::start(Variant::Standard), Position::default());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`DEFAULT_MAX_PLIES`]: board_core::Game::DEFAULT_MAX_PLIES
//! [`Game::adjudicate`]: board_core::Game::adjudicate

/// The README's example, compiled as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// The rules of Adiyukh: the board, every kind of move with an example, the
/// end and the scoring, and each interpretation (the crate's `RULES.md`,
/// whose examples `tests/rules_page.rs` checks).
#[doc = include_str!("../RULES.md")]
pub mod rules_page {}

mod board;
mod eval;
mod movegen;
mod moves;
mod notation;
mod patterns;
mod piece;
mod position;
mod text;
mod view;

pub use board::Square;
pub use moves::{MAX_LANDINGS, Move};
pub use notation::MoveText;
pub use piece::{Color, Column, MAX_HEIGHT, Piece};
pub use position::{Position, Variant};
pub use text::Setup;

/// The core crate itself, for what the prelude leaves out (`DynGame`,
/// `GameRecord`, the view types, the testkit).
pub use board_core;
pub use board_core::prelude::*;

/// Everything a user of the game needs, in one import: `use
/// adiyukh::prelude::*;` brings the game's types (position, move, square,
/// columns and pieces, variant) and board-core's prelude (the traits with
/// their methods, errors, outcome, perft and the view).
pub mod prelude {
    pub use board_core::prelude::*;

    pub use crate::{
        Color, Column, MAX_HEIGHT, MAX_LANDINGS, Move, MoveText, Piece, Position, Setup, Square,
        Variant,
    };
}
