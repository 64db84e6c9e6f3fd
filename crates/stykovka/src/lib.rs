//! Stykovka ("Docking"), a connection game by Yu. P. Filatov (St. Petersburg),
//! a relative of Lines of Action: rules, notation, position text, perft and an
//! evaluation, behind [`board_core::Game`] and [`board_core::Evaluate`].
//!
//! The vocabulary, all in [`prelude`] (`use stykovka::prelude::*;`):
//! [`Position`] (the game; `Copy`, 32 bytes; `Default` is the start, `FromStr`
//! reads a position text), [`Move`], [`MoveText`] (a move read from text, not
//! yet checked), [`Setup`] (a position read from text, not yet validated),
//! [`Variant`] (one: [`Variant::Standard`]) and [`Square`] (a [`Cell`]:
//! `"c5".parse::<Square>()`). [`Game::piece_at`] gives the [`Player`] whose
//! checker stands on a square.
//!
//! # Rules in brief
//! The 8x8 board holds 8 White and 8 Black checkers; nothing is ever captured.
//! White moves first.
//! 1. A checker moves in a straight line in any of the 8 directions.
//! 2. It moves exactly as many squares as there are checkers (both colours) on
//!    that line *ahead of it in the direction of the move*, counting itself.
//! 3. It may pass over its own checkers, never over an enemy checker.
//! 4. It may not land on its own checker.
//! 5. It may land on an enemy checker only if that checker can retreat: some
//!    diagonal from its square has 4 empty squares in a row (the mover's origin
//!    counts as empty); the enemy checker then moves 4 squares along it.
//! 6. A player with no legal move passes (`pass`); if neither player can move,
//!    the game is drawn.
//!
//! **Docking** (all 8 own checkers form one orthogonally connected group) wins.
//! A checker whose four orthogonal neighbours all exist and all hold enemy
//! checkers is **crashed**, and its owner loses. After each move by P the
//! checks run in this order: an opponent checker crashed (P wins), one of P's
//! checkers crashed (P loses), P docked (P wins), the opponent docked (the
//! opponent wins).
//!
//! # Interpretations
//! The source text survives without its figures; these are implemented exactly
//! as the project's rules fix them ([`rules_page`], with tested examples):
//! - **Start** (Lines-of-Action style): White c1 d1 e1 f1 and c8 d8 e8 f8,
//!   Black a3 a4 a5 a6 and h3 h4 h5 h6.
//! - **Distance** counts only the checkers ahead of the mover on the line in
//!   the direction of the move, plus the mover; checkers behind it do not count.
//!   A checker with nothing ahead moves 1 square.
//! - **Retreat** ("a diagonal at least four fields long"): 4 consecutive empty
//!   squares on one diagonal from the enemy checker's square, the mover's
//!   origin counting as empty (so the two checkers may swap: `h8-d4/h8`). The
//!   mover would choose among several such diagonals, but on 8x8 exactly one
//!   diagonal from every square is at least 4 squares long, so the retreat
//!   square is determined by the landing square.
//! - **Crash**: only enemy checkers lock a ship in; a checker on the edge
//!   cannot crash.
//!
//! Where the rules are silent:
//! - A position text is judged as if the side *not* to move has just moved
//!   (the end checks run with that player as P), so the start position and any
//!   constructed position get the same result a game reaching them would.
//! - A pass is a real move (it changes the side to move and the hash), and it
//!   is generated only when the side to move has no other move while the
//!   opponent has one; when neither side has a move, no move is generated and
//!   [`Game::outcome`] is a draw.
//! - That draw cannot actually arise with 8 + 8 checkers. A checker with
//!   nothing ahead in some direction (and not on the edge that way) can always
//!   step 1 square, so where nobody can move, both end squares of every
//!   occupied line (rank, file, diagonal) are occupied. Then the occupied
//!   files and ranks are one set S, closed under x -> 7 - x, the 4|S| - 4
//!   edge squares of S x S are occupied and every checker lies in S x S:
//!   16 checkers force |S| = 4 and exactly S x S, and each such S leaves a
//!   checker with an empty diagonal ray (for files a, b, g, h and ranks
//!   1, 2, 7, 8: b2 can step to a3). The rule is implemented anyway.
//! - Outcome reasons: `crash`, `docking`, `neither side can move`.
//! - A position must have exactly 8 checkers per side (nothing is captured).
//! - The game has no draw by repetition or move count. Tools stop a game at
//!   [`Game::DEFAULT_MAX_PLIES`] = 300 plies and score it a draw (the default
//!   [`Game::adjudicate`]).
//!
//! Decisions of the uniform API:
//! - A square's [`Cell::index`] is `rank * 8 + file` (`a1` = 0, `h8` = 63),
//!   which is also its bit in the position's bitboards; all 64 are squares.
//! - [`Game::Piece`] is [`Player`]: a square holds one plain checker.
//! - [`Game::is_tactical`]: a move is tactical exactly when it wins at once
//!   (crashes an enemy checker or docks); nothing is ever captured.
//!
//! # Notation
//! `c1-c4` (slide), `c1-e3/a7` (slide onto the enemy checker on e3, which
//! retreats to a7), `pass`. Parsers also accept `c1-e3` for a displacement,
//! since the retreat square is determined, and upper-case squares. In one line
//! ([`Game::NOTATION`]): "from-to: d1-d3; landing on an enemy checker, add
//! where it retreats: c1-e3/a7; pass only when no other move exists: pass".
//!
//! # Position text
//! The ranks from 8 down to 1 separated by `/`, each listing files a..h: `W`
//! White checker, `B` Black checker, a digit 1-8 for that many empty squares
//! (`.` is also read as one empty square); then a space and the side to move,
//! `w` or `b`. Exactly 8 checkers per side. The start position:
//! `2WWWW2/8/B6B/B6B/B6B/B6B/8/2WWWW2 w`.
//!
//! # Example
//! ```
//! use stykovka::prelude::*;
//!
//! let mut pos = Position::default();
//! assert_eq!(pos.to_string(), "2WWWW2/8/B6B/B6B/B6B/B6B/8/2WWWW2 w");
//! assert_eq!(pos, Position::start(Variant::Standard));
//!
//! // d1 has one checker ahead on its file (d8): it moves 2 squares.
//! let mv = pos.play_text("d1-d3")?;
//! let (d1, d3): (Square, Square) = ("d1".parse()?, "d3".parse()?);
//! assert_eq!(mv, Move::Slide { from: d1, to: d3 });
//! assert_eq!(pos.piece_at(d3), Some(Player::First));
//! assert_eq!(pos.to_string(), "2WWWW2/8/B6B/B6B/B6B/B2W3B/8/2W1WW2 b");
//!
//! // A displacement: the Black a3 docks on c1, whose checker retreats to g5.
//! assert_eq!(pos.play_text("a3-c1")?.to_string(), "a3-c1/g5");
//! assert_eq!(pos.piece_at("g5".parse()?), Some(Player::First));
//!
//! // `Game::` because the prelude also brings `DynGame::perft` into scope.
//! assert_eq!(Game::perft(&Position::default(), 3), 57_780);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod board;
mod eval;
mod moves;
mod notation;
pub mod patterns;
mod position;
mod rules;
mod text;
mod view;

pub use board::Square;
pub use moves::Move;
pub use notation::MoveText;
pub use position::{CHECKERS_PER_SIDE, Position, Variant};
pub use text::Setup;

/// The core crate itself, for what the prelude leaves out (`DynGame`,
/// `GameRecord`, the view types, the testkit).
pub use board_core;
pub use board_core::prelude::*;

/// Everything a user of stykovka needs, in one import: the game's types and
/// constants, and [`board_core::prelude`] (the traits with their methods,
/// [`Player`], [`Outcome`], the errors, perft and the view).
///
/// ```
/// use stykovka::prelude::*;
///
/// let pos: Position = "2WWWW2/8/B6B/B6B/B6B/B6B/8/2WWWW2 w".parse()?;
/// assert_eq!(pos, Position::default());
/// assert_eq!(pos.piece_at("a3".parse()?), Some(Player::Second));
/// assert_eq!(pos.checkers(Player::First).count_ones(), CHECKERS_PER_SIDE);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub mod prelude {
    pub use board_core::prelude::*;

    pub use crate::{CHECKERS_PER_SIDE, Move, MoveText, Position, Setup, Square, Variant};
}

/// The rules of Stykovka: the board, every kind of move with an example,
/// the end, and each interpretation (the crate's `RULES.md`, whose examples
/// `tests/rules_page.rs` checks).
#[doc = include_str!("../RULES.md")]
pub mod rules_page {}

/// The README's example, compiled as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
