//! City («Город»): a race-and-capture game on a walled town. The first pawn
//! to reach the bazaar square in the centre wins.
//!
//! **These rules are a reconstruction.** Only the end of the source's rules
//! survives (the wall, capture, the win conditions, the pawn counts). The
//! board, the zones, the set-ups and the ordinary moves are the project's
//! reconstruction, written out in full with tested examples in [`rules_page`]
//! (`RULES.md` in the crate) and implemented here exactly; every point that
//! is ours is marked *reconstruction* below.
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
//! # Two rule sets
//!
//! The literal reconstruction (variants `8`, `16`, `22`, `24`) follows the
//! surviving text and fills the gaps as simply as possible; every set-up is
//! then a shallow forced win for White, so a person playing second loses
//! within a few moves. The **playable rule set** (variants `8c`, `16c`,
//! `22c`, `24c`, [`Rules::Playable`]) adds two rules the fragment neither
//! states nor forbids: **compulsory capture** and **entry to the bazaar by
//! one step**. With them `16c` has no forced win for either side within 26
//! plies (an exhaustive search made for the reconstruction). The default
//! variant is `16c`.
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
//! Under the playable rules (the `c` variants; *reconstruction*, chosen by
//! an exhaustive search for playability), two more:
//! 5. **Compulsory capture**: if the side to move has a move that captures
//!    (by any of the four kinds of move) or a move onto the bazaar, it must
//!    play one of those, any one (no majority rule). So when such a move
//!    exists the legal moves are exactly the captures and the bazaar entries.
//! 6. **The bazaar is entered by one step**, from d5, f5, e4 or e6 (the
//!    *gates*). A slide along rank 5 or file e stops before e5 (it may end on
//!    the gate); it never enters or crosses e5.
//!
//! The game ends when a pawn enters the bazaar e5 (its owner wins at once),
//! when a player captures the last enemy pawn (it wins), or when the player to
//! move has no legal move (it loses; *reconstruction*, and it cannot happen
//! while that player has a pawn). There is no draw rule: tools stop a game at
//! [`Game::DEFAULT_MAX_PLIES`] = 300 plies and score it a draw
//! ([`Game::adjudicate`] is not overridden, since the rules give no scoring).
//!
//! # Variants
//!
//! [`Variant`] names a set-up and a rule set ([`Variant::rules`]):
//! `16c` ([`Variant::SixteenC`], the default), `8c`, `22c`, `24c` (playable
//! rules) and `16` ([`Variant::Sixteen`]), `8`, `22`, `24` (literal rules);
//! `"22c".parse::<Variant>()` reads one by its name. White's pawns (Black's
//! are the same turned 180 degrees about e5), the same under both rule sets:
//! - `8` (base game): a1 b1 c1 d1 f1 g1 h1 i1;
//! - `16`: the base plus c4 d4 f3 g3 c6 d6 f7 g7 (the town squares off the two
//!   lines through e5);
//! - `22`: the 16 plus b2 c2 b3 h2 g2 h3 (the wall corners on White's side and
//!   their neighbours);
//! - `24`: the 22 plus d2 f2 (the other reading of the source's misprint).
//!
//! The set-up squares are *reconstruction*. The default is `16c` (a
//! reconstruction): it is the only set-up from the text's own pawn counts that is not a
//! shallow forced win. Under the literal rules every set-up is a forced win
//! for White: `8` in 7 plies (proved by `tests/forced_win.rs`), the others
//! in 11 (the exhaustive search). Under the playable rules `8c` is a
//! forced White win in 25 plies (the same search); `16c` has none for either side
//! within 26 plies and `22c` none within 18. A position may hold at most the
//! variant's start count of pawns per side.
//!
//! # Notation
//!
//! Every move is `from-to` with lower-case square names: `d1-d2` (climb),
//! `d2-d3` (climb down), `c2-h5` (along the wall), `a1-a9` (a slide that
//! captures on a9). Captures are written the same way ([`Game::NOTATION`]
//! says so in one line, and names the two added rules of the `c` variants). [`MoveText`] reads square names case-insensitively,
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
//! `text.parse::<Position>()` reads a position of the default variant `16c`,
//! [`Game::from_text`] one of any variant. The text does not say the rule
//! set: the same text is a position of `16` and of `16c`.
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
//!
//! // The same set-up under the playable rules: the two long captures are
//! // compulsory.
//! let mut pos = Position::start(Variant::EightC);
//! assert_eq!(pos.legal_moves().len(), 2);
//! assert!(pos.play_text("c1-c2").is_err());
//! pos.play_text("a1-a9")?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # API decisions
//!
//! Interpretation/decision (the uniform game-crate API): the position type is
//! [`Position`] (it was `City`; the deprecated alias `City` stays at the crate
//! root). The variant names are numbers, so the [`Variant`] enum spells them
//! out (`Sixteen = "16"`, ...; `SixteenC = "16c"` for the playable rules).
//! The rule set is a property of the variant ([`Variant::rules`], a
//! [`Rules`]), not a separate option: a tool that names a variant names
//! both, and every tool's default is the default variant `16c`. A [`Square`]'s [`Cell::index`] is
//! `rank * 9 + file` as before (a1 = 0, i9 = 80, 81 cells, no holes), and
//! [`Game::piece_at`] gives the [`Player`] owning the pawn on a square (it
//! replaces `pawn_at`), since every pawn is alike.

mod board;
mod eval;
mod movegen;
mod moves;
mod patterns;
mod position;
mod stages;
mod text;
mod view;

pub use board::{RING, Square, Zone};
pub use moves::{Move, MoveText};
pub use position::{Position, Rules, Variant};
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
/// [`MoveText`], [`Setup`], [`Variant`], [`Rules`], [`Square`], [`Zone`],
/// [`RING`]) and
/// board-core's vocabulary (the traits with their methods, [`Player`],
/// [`Outcome`], the errors, perft, the view).
pub mod prelude {
    pub use board_core::prelude::*;

    pub use crate::{Move, MoveText, Position, RING, Rules, Setup, Square, Variant, Zone};
}

/// The rules of City: the board, every kind of move with an example, the
/// end, the variants and both rule sets, and each point of the
/// reconstruction (the crate's `RULES.md`, whose examples
/// `tests/rules_page.rs` checks).
#[doc = include_str!("../RULES.md")]
pub mod rules_page {}

/// The README's example, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
