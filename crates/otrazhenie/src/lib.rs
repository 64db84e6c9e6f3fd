//! Otrazhenie ("Reflection"), a game by Yu. P. Filatov: two checkers a side on
//! a chessboard that move like rooks and capture by bouncing off the board edge.
//!
//! The rules follow `shared/rules/otrazhenie.md`; the source's figures are
//! lost, so several points are **interpretations** of that text (marked
//! below). This crate implements them exactly as stated there.
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
//! retrograde analysis in about a second (release build) and kept in memory;
//! with the `cache` feature it is also read from and written to a file
//! (`Tablebase::load_or_build`), checked on load and rebuilt when missing,
//! damaged or stale. [`Evaluate::probe`] answers
//! from it for every position, so the engines play perfectly.
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
//! use otrazhenie::{Evaluate, Game, Position};
//!
//! let mut pos = Position::default_start();
//! assert_eq!(pos.to_string(), "B6B/8/8/8/8/8/8/W6W w");
//! assert_eq!(pos.legal_moves().len(), 24);
//! assert_eq!(pos.perft(3), 12_836);
//! pos.play_text("a1-a4")?;
//! assert_eq!(pos.to_string(), "B6B/8/8/8/W7/8/8/7W b");
//!
//! // A capture by reflection off the h-file.
//! let mut pos = Position::from_text("8/8/8/3B4/8/8/8/W6B w", "standard")?;
//! pos.play_text("a1-g1xd4").unwrap_err(); // g1 is not at the edge
//! pos.play_text("a1-h1xd5").unwrap_err(); // h1 holds a Black checker
//! let mut pos = Position::from_text("7B/8/8/3B4/8/8/8/W7 w", "standard")?;
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
pub use moves::Move;
pub use position::{Position, START_TEXT};
pub use solve::Tablebase;
pub use square::Square;
pub use text::Setup;

pub use board_core::prelude::*;

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
