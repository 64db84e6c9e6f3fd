//! Otrazhenie ("Reflection"), a game by Yu. P. Filatov: two checkers a side on
//! a chessboard that move like rooks and capture by bouncing off the board edge.
//!
//! The full rules, with tested examples, are in [`rules_page`] (`RULES.md` in the
//! crate); the source's figures are lost, so several points are
//! **interpretations** (marked below), implemented exactly as stated.
//!
//! # Rules in brief
//! - 8x8 board, files a-h, ranks 1-8. Two White and two Black checkers.
//!   **Interpretation:** the start is White a1 and h1, Black a8 and h8.
//!   White moves first.
//! - **Quiet move:** like a rook, one or more squares along a rank or file
//!   through empty squares onto an empty square. It never captures.
//! - **Capture (reflection):** the checker slides along a rank or file through
//!   empty squares to the last square before the board boundary in that
//!   direction (the *edge square*, which must be empty), turns onto one of the
//!   two diagonals leading away from that boundary (one in a corner) and
//!   continues through empty squares; if the first occupied square on that
//!   diagonal holds an enemy checker, it is captured and the capturing checker
//!   stops there. An own checker or the end of the board first means no
//!   capture that way. A White checker on a1 slides to h1, turns up-left
//!   through g2, f3, e4 and captures a Black checker on d5: `a1-h1xd5`.
//!   **Interpretations:** exactly one reflection; a checker already on the edge
//!   square of a direction cannot capture that way (its slide would have length
//!   zero); capturing is optional (quiet moves stay legal when a capture exists).
//! - **End:** a player who captures both enemy checkers wins; a player with no
//!   legal move loses. The rules define no draw.
//!
//! # Decisions where the rules are silent
//! - Only the boundary the slide runs into decides the reflection: a slide east
//!   into h1 turns north-west or south-west (south-west leaves the board at
//!   once), never along the south boundary.
//! - [`DEFAULT_MAX_PLIES`](board_core::Game::DEFAULT_MAX_PLIES) is 200 plies
//!   (100 moves a side); a game stopped there is adjudicated a **draw**
//!   (reason "ply limit"), the provided [`Game::adjudicate`].
//! - A position is valid with at most two checkers a side, where the player
//!   who moved last still has a checker. The side to move may have none (the
//!   game is then over: the opponent captured both).
//! - **Decision (cells):** a [`Square`]'s [index](board_core::Cell::index) is
//!   its bitboard bit, `8 * rank + file` (a1 = 0, h1 = 7, h8 = 63), as on
//!   every rectangular board of the workspace; [`Setup::board`] is indexed
//!   the same way. The one variant is [`Variant::Standard`] (`"standard"`),
//!   and a cell holds at most one checker, so
//!   [`piece_at`](board_core::Game::piece_at) answers with its owner, a
//!   [`Player`].
//! - The outcome reasons are "captured both checkers" and "no legal move"
//!   (the side to move loses in both cases). A checker with no empty square
//!   next to it along a rank or file has no move at all, capture included.
//!
//! # Notation
//! - Quiet move: from-to, `a1-a5`.
//! - Capture: from-edge`x`target, `a1-h1xd5` (the edge square where the
//!   reflection happens, then the captured square).
//!
//! Square letters are read in either case; moves print in lower case.
//! [`Game::NOTATION`] says the same in one line.
//!
//! # Position text
//! The ranks from 8 down to 1 separated by `/`, each from the a-file to the
//! h-file: `W` a White checker, `B` a Black checker, a digit 1-8 that many
//! empty squares; then a space and the side to move, `w` or `b` (read in
//! either case). Runs of digits are read; the printed text is canonical. The start is
//! `B6B/8/8/8/8/8/8/W6W w` ([`START_TEXT`]). See [`Setup`].
//!
//! # Perfect play
//! [`Tablebase`] holds the value of every legal position (the rules allow no
//! more than two checkers a side, so nothing falls outside it), solved by
//! retrograde analysis in about a second (release build). It is a plain
//! value that the engine owns: the engine builds it ([`Tablebase::build`])
//! or, with the `cache` feature, reads it from a file (`Tablebase::load`,
//! checked on load), and passes it to search as its [`EndgameTable`], whose
//! `probe` answers for every position, so the engine plays perfectly.
//! Nothing is built, kept or written behind the caller's back: the crate has
//! no global table and no cache file of its own, and [`Evaluate`] is the
//! heuristic evaluation only. Writing the file is an explicit step
//! (`Tablebase::save`, or `Tablebase::load_or_build`, which rebuilds and
//! rewrites a missing, damaged or stale file: what the `igroteka solve`
//! command calls); an engine should only `load`, and fall back to `build` in
//! memory without writing.
//!
//! Values are for the side to move, distances in plies:
//! - **win N** (odd): the side to move ends the game with its move N plies
//!   from now (the opponent then has no checker or no move), against the
//!   best defence; `win 1` is a winning move at hand.
//! - **loss N** (even): the game ends N plies from now with the side to move
//!   beaten, against the best attack; `loss 0` is a finished position.
//! - **draw**: neither side can force a win. The 200-ply cap plays no part:
//!   the longest forced result is 21 plies.
//!
//! A move keeps a value exactly when the position it reaches has the value
//! one ply back: after the best move of a `win N` the opponent has `loss N-1`.
//!
//! # Example
//! ```
//! // Not the prelude here: its `DynGame` has a `perft` method too.
//! use otrazhenie::{Evaluate, Game, Player, Position, Variant};
//!
//! let mut pos = Position::default();
//! assert_eq!(pos.to_string(), "B6B/8/8/8/8/8/8/W6W w");
//! assert_eq!(pos.legal_moves().len(), 24);
//! assert_eq!(pos.perft(3), 12_836);
//! pos.play_text("a1-a4")?;
//! assert_eq!(pos.to_string(), "B6B/8/8/8/W7/8/8/7W b");
//! assert_eq!(pos.piece_at("a4".parse()?), Some(Player::First));
//!
//! // A capture by reflection off the h-file.
//! let mut pos: Position = "8/8/8/3B4/8/8/8/W6B w".parse()?;
//! pos.play_text("a1-g1xd4").unwrap_err(); // g1 is not at the edge
//! pos.play_text("a1-h1xd5").unwrap_err(); // h1 holds a Black checker
//! let mut pos = Position::from_text("7B/8/8/3B4/8/8/8/W7 w", Variant::Standard)?;
//! pos.play_text("a1-h1xd5")?;
//! assert_eq!(pos.to_string(), "7B/8/8/3W4/8/8/8/8 b");
//! // Black recaptures over a8 (capturing White's last checker would win).
//! assert!(pos.legal_moves().iter().any(|mv| mv.to_string() == "h8-a8xd5"));
//! assert!(pos.evaluate() > 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(feature = "cache")]
mod cache;
mod eval;
mod moves;
mod position;
mod rules;
mod solve;
mod square;
mod text;
mod view;

#[cfg(feature = "cache")]
pub use cache::{CacheError, CacheUse};
pub use moves::{Move, MoveText};
pub use position::{Position, START_TEXT, Variant};
pub use solve::Tablebase;
pub use square::Square;
pub use text::Setup;

/// The core crate itself, for what the prelude leaves out (`DynGame`,
/// `GameRecord`, the view types, the testkit).
pub use board_core;
pub use board_core::prelude::*;

/// Everything a user of the game needs, in one import:
/// `use otrazhenie::prelude::*;` brings board-core's prelude (the traits
/// with their methods, the shared types and errors) and the game's own
/// types, the perfect-play [`Tablebase`] among them.
pub mod prelude {
    pub use board_core::prelude::*;

    #[cfg(feature = "cache")]
    pub use crate::{CacheError, CacheUse};
    pub use crate::{Move, MoveText, Position, START_TEXT, Setup, Square, Tablebase, Variant};
}

/// The rules of Otrazhenie: the board, every kind of move with an example,
/// the end, and each interpretation (the crate's `RULES.md`, whose examples
/// `tests/rules_page.rs` checks).
#[doc = include_str!("../RULES.md")]
pub mod rules_page {}

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
