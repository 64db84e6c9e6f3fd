//! City («Город»): a race-and-capture game on a walled town. The first pawn
//! to reach the bazaar square in the centre wins.
//!
//! **These rules are a reconstruction.** Only the end of the source's rules
//! survives (the wall, capture, the win conditions, the pawn counts). The
//! board, the zones, the set-ups and the ordinary moves are the project's
//! reconstruction (`shared/rules/city.md`), implemented here exactly; every
//! point that is ours is marked *reconstruction* below.
//!
//! # The board
//!
//! A 9x9 grid, files `a`..`i`, ranks `1`..`9`, White at the bottom
//! (*reconstruction*). Every square is in one zone:
//!
//! ```text
//! 9  .  .  .  .  .  .  .  .  .      . outside (32): the edge of the board
//! 8  .  #  #  #  #  #  #  #  .      # wall (24): a ring, b2..h2..h8..b8..b2
//! 7  .  #  +  +  +  +  +  #  .      + town (24): c3..g7 without e5
//! 6  .  #  +  +  +  +  +  #  .      * bazaar: e5
//! 5  .  #  +  +  *  +  +  #  .
//! 4  .  #  +  +  +  +  +  #  .
//! 3  .  #  +  +  +  +  +  #  .
//! 2  .  #  #  #  #  #  #  #  .
//! 1  .  .  .  .  .  .  .  .  .
//!    a  b  c  d  e  f  g  h  i
//! ```
//!
//! # Rules in brief
//!
//! White moves first; a player moves one own pawn per turn, no passing. A move
//! ends on an empty square or on an enemy pawn, which is captured. It never
//! ends on or passes over any other pawn. "Adjacent" is orthogonal.
//! 1. **Slide** (*reconstruction*): a pawn off the wall (outside or in the
//!    town) moves like a rook over empty squares, may capture the first enemy
//!    pawn in its line, never enters or crosses a wall square, and stops on
//!    the bazaar if it reaches it (it cannot cross it).
//! 2. **Climb onto the wall**: a pawn steps onto an adjacent wall square; that
//!    is the whole move. Outside and town pawns next to the wall both can.
//! 3. **Along the wall**: a pawn on the wall moves along the ring either way,
//!    round corners, over empty wall squares, possibly capturing the first
//!    enemy pawn met. A move is its two squares: a square reached both ways
//!    round the ring is one move.
//! 4. **Climb down**: a pawn on the wall steps onto an adjacent square off the
//!    wall (outside or town); that is the whole move.
//!
//! The game ends when a pawn enters the bazaar e5 (its owner wins at once),
//! when a player captures the last enemy pawn (it wins), or when the player to
//! move has no legal move (it loses; *reconstruction*, and it cannot happen
//! while that player has a pawn). There is no draw rule: tools stop a game at
//! [`Game::DEFAULT_MAX_PLIES`] = 300 plies and score it a draw
//! ([`Game::adjudicate`] is not overridden, since the spec gives no scoring).
//!
//! # Variants
//!
//! [`Variant`]: `16` ([`Variant::Sixteen`], the default), `8`
//! ([`Variant::Eight`]), `22` ([`Variant::TwentyTwo`]), `24`
//! ([`Variant::TwentyFour`]); `"22".parse::<Variant>()` reads one by its
//! name. White's pawns (Black's are the same turned 180 degrees about e5):
//! - `8` (base game): a1 b1 c1 d1 f1 g1 h1 i1;
//! - `16`: the base plus c4 d4 f3 g3 c6 d6 f7 g7 (the town squares off the two
//!   lines through e5);
//! - `22`: the 16 plus b2 c2 b3 h2 g2 h3 (the wall corners on White's side and
//!   their neighbours);
//! - `24`: the 22 plus d2 f2 (the other reading of the source's misprint).
//!
//! The set-up squares are *reconstruction*. The default is `16` as the spec
//! says: it comes straight from the source text and has the deepest forced
//! win. Every set-up is a forced win for White: `8` in 7 plies (proved by
//! `tests/forced_win.rs`), the others in 11 (the spec's exhaustive search).
//! A position may hold at most the variant's start count of pawns per side.
//!
//! # Notation
//!
//! Every move is `from-to` with lower-case square names: `d1-d2` (climb),
//! `d2-d3` (climb down), `c2-h5` (along the wall), `a1-a9` (a slide that
//! captures on a9). Captures are written the same way ([`Game::NOTATION`]
//! says so in one line). [`MoveText`] reads square names case-insensitively,
//! and so does [`Square`]'s `FromStr` (`"E5".parse::<Square>()`).
//!
//! # Position text
//!
//! Ranks 9 down to 1 separated by `/`, each from file a: `W` a White pawn,
//! `B` a Black pawn, a digit 1-9 that many empty squares (consecutive digits
//! add up); then a space and the side to move, `W` or `B`. The base start is
//! `BBBB1BBBB/9/9/9/9/9/9/9/WWWW1WWWW W`. A finished game has a text too: a
//! pawn on e5 (its owner won; the other side is to move), or a side to move
//! with no pawns (it lost). [`Game::from_setup`] refuses positions that
//! cannot arise: more pawns than the variant's start count, a side without
//! pawns when it is not its turn, the side to move standing on e5.
//! `text.parse::<Position>()` reads a position of the default variant `16`,
//! [`Game::from_text`] one of any variant.
//!
//! # Example
//!
//! ```
//! use city::prelude::*;
//!
//! let mut pos = Position::start(Variant::Eight);
//! assert_eq!(pos.to_string(), "BBBB1BBBB/9/9/9/9/9/9/9/WWWW1WWWW W");
//! assert_eq!(pos.legal_moves().len(), 24);
//! pos.play_text("c1-c2")?; // climb onto the wall
//! pos.play_text("a9-a1")?; // Black slides down the a-file...
//! assert_eq!(pos.pawn_count(Player::First), 7); // ...capturing a1
//! assert_eq!(pos.piece_at("a1".parse()?), Some(Player::Second));
//! assert_eq!(perft(&Position::start(Variant::Eight), 3), 15_140);
//! assert!(pos.play_text("c2-c4").is_err()); // climbing down is one step
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # API decisions
//!
//! Interpretation/decision (the uniform game-crate API): the position type is
//! [`Position`] (it was `City`; the deprecated alias `City` stays at the crate
//! root). The variant names are numbers, so the [`Variant`] enum spells them
//! out (`Sixteen = "16"`, ...). A [`Square`]'s [`Cell::index`] is
//! `rank * 9 + file` as before (a1 = 0, i9 = 80, 81 cells, no holes), and
//! [`Game::piece_at`] gives the [`Player`] owning the pawn on a square (it
//! replaces `pawn_at`), since every pawn is alike.

mod board;
mod eval;
mod movegen;
mod moves;
mod position;
mod text;
mod view;

pub use board::{RING, Square, Zone};
pub use moves::{Move, MoveText};
pub use position::{Position, Variant};
pub use text::Setup;

/// The core crate itself, for what the prelude leaves out (`DynGame`,
/// `GameRecord`, the view types, the testkit).
pub use board_core;
pub use board_core::prelude::*;

/// The position type's old name.
#[deprecated(note = "renamed to Position")]
pub type City = Position;

/// Everything a user of the crate needs, in one import:
/// `use city::prelude::*;` brings the game's types ([`Position`], [`Move`],
/// [`MoveText`], [`Setup`], [`Variant`], [`Square`], [`Zone`], [`RING`]) and
/// board-core's vocabulary (the traits with their methods, [`Player`],
/// [`Outcome`], the errors, perft, the view).
pub mod prelude {
    pub use board_core::prelude::*;

    pub use crate::{Move, MoveText, Position, RING, Setup, Square, Variant, Zone};
}

/// The README's example, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
