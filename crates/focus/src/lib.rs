//! Focus (Sid Sackson, 1964; also sold as "Domination"), two-player game.
//!
//! The full rules, with tested examples, are in [`rules_page`] (`RULES.md` in
//! the crate).
//!
//! # Rules in brief
//! - The board is the 8x8 grid without three squares in each corner
//!   (a1 b1 a2, g1 h1 h2, a7 a8 b8, g8 h8 h7): 52 squares.
//! - Each player has 18 pieces. Pieces form stacks of 1 to 5; a stack belongs to
//!   the colour of its top piece. At the start the 6x6 centre holds single pieces
//!   (ranks 2, 4, 6 read `W W B B W W` from b to g, ranks 3, 5, 7 `B B W W B B`);
//!   reserves are empty. **Black moves first.**
//! - A move either takes the top `k` pieces of an own stack (`1 <= k <= height`)
//!   and moves them exactly `k` squares up, down, left or right, onto any square
//!   (empty or not; what lies between does not matter), or drops one piece from
//!   the mover's reserve on any square.
//! - A stack taller than 5 after a move loses pieces from its bottom until it is
//!   5 high: the mover's own pieces go to the mover's reserve, enemy pieces are
//!   captured and leave the game.
//! - The player to move who owns no stack and has no reserve piece loses.
//!
//! # Interpretations
//! - **First player.** Black moves first (the source draws lots; its worked
//!   game starts with Black). `PLAYER_NAMES` is `Black`, `White`.
//! - **No legal move.** Every square has a neighbour on the board, so a player
//!   owning a stack can always move; "no legal move" is exactly "no stack and no
//!   reserve", and that player loses (reason `no stack and no reserve`).
//! - **Holes.** The cut-off corners lie at the ends of their files and ranks, so
//!   no move can pass over one; a move whose destination is a hole does not exist.
//! - **Position validity.** Each colour's pieces on the board, in reserve and
//!   captured by the opponent add up to 18, and the player who has just moved
//!   owns a stack (every move leaves the mover on top of its destination).
//! - **Ply cap.** The rules have no draw and do not say how to score a game
//!   that is stopped. Tools stop a game after
//!   [`DEFAULT_MAX_PLIES`](board_core::Game::DEFAULT_MAX_PLIES) = 400 plies
//!   (200 moves each) and score it a draw (the default
//!   [`adjudicate`](board_core::Game::adjudicate)). The cap matters: of 1000
//!   seeded random games none ended within 5000 plies, since trimmed own
//!   pieces keep refilling the reserves.
//!
//! # Mirror strategy: why games can last forever
//! The start position is symmetric through the centre of the board with the
//! colours swapped (b2 is White, g7 is Black, ...), and so is the board.
//! Whatever the first player does, the second player can answer with the same
//! move reflected through the centre ([`Move::mirrored`]: `d4-d5` is answered by
//! `e5-e4`, `@c3` by `@f6`). The answer is always legal: a reflected square is
//! never on the same file or rank as the original, so the first player's move
//! touched neither of the squares the answer uses, and the symmetry of
//! stacks, reserves and captures (colours swapped) is restored after every
//! answer. Hence the second player never runs out of moves and cannot lose; a
//! game between strong players may never end, which is why tools cap it (see
//! above). `tests/rules.rs` checks this over random games.
//!
//! # Notation
//! - Stack move: `from-to`, e.g. `c5-c1`; the distance is the number of pieces
//!   moved (here 4), so this is unambiguous.
//! - Drop: `@e5` (the source writes `Рe5`, with a Cyrillic Р; read as well).
//!
//! Parsing checks the syntax and geometry first (squares exist, one file or
//! rank, 1 to 5 squares apart), then [`Game::parse_move`]
//! checks the move against the position (own stack, tall enough, reserve).
//! [`Game::NOTATION`] says it in one line.
//!
//! # Position text
//! ```text
//! 4/b,b,w,w,b,b/1,w,w,b,b,w,w,1/1,b,b,w,w,b,b,1/1,w,w,b,b,w,w,1/1,b,b,w,w,b,b,1/w,w,b,b,w,w/4 b reserve 0 0 captured 0 0
//! ```
//! - The board, ranks 8 down to 1 separated by `/`. Each rank lists only its
//!   squares that exist (4 on ranks 8 and 1: c..f; 6 on ranks 7 and 2: b..g;
//!   8 on ranks 3..6), left to right, in comma-separated entries: a stack is its
//!   pieces **bottom to top**, `b` = Black and `w` = White (`wwb`: two White
//!   pieces under a Black one, owned by Black); a number is that many empty
//!   squares.
//! - The side to move, `b` or `w`.
//! - `reserve <Black> <White>`: the pieces in each reserve.
//! - `captured <Black> <White>`: the enemy pieces each player has captured.
//!
//! # Interpretation/decision: the API
//! - **Square index.** [`Square`]'s [`Cell::index`] is `rank * 8 + file` on
//!   the 8x8 grid around the board (`INDEX_BOUND` 64); the 12 cut-off corners
//!   are holes (indexes without a square), so the 52 squares do not number
//!   densely. Bitboards such as [`Position::owned`] use the same bits.
//! - **What stands on a square.** [`Game::piece_at`] gives the [`Stack`]
//!   there (its pieces bottom to top; the top one owns it).
//! - **Move text.** The notation names every move in full, so
//!   [`MoveText`] is [`Move`] itself (reading checks the geometry, resolving
//!   the position).
//! - **Names.** [`Move::piece_count`] (was `pieces`) so that no inherent
//!   method shares a name with [`Describe::pieces`].
//!
//! # Example
//! ```
//! use focus::{Game, Player, Position, Square, Variant};
//!
//! let mut pos = Position::default();
//! assert_eq!(pos.side_to_move(), Player::First); // Black
//! pos.play_text("e4-e5")?; // onto White's e5: a 2-stack, Black on top
//! let e5: Square = "e5".parse()?;
//! assert_eq!(pos.piece_at(e5).map(|s| s.to_string()).as_deref(), Some("wb"));
//! assert_eq!(Position::default().perft(2), 4_460);
//! assert_eq!(pos.to_string().parse::<Position>()?, pos);
//! assert_eq!(Position::from_text(&pos.to_string(), Variant::Standard)?, pos);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod board;
mod eval;
mod moves;
mod patterns;
mod position;
mod text;
mod view;

pub use board::{MAX_HEIGHT, Square, Stack};
pub use moves::{Move, MoveText};
pub use position::{PIECES_PER_PLAYER, Position, Variant};
pub use text::Setup;

/// The core crate itself, for what the prelude leaves out (`DynGame`,
/// `GameRecord`, the view types, the testkit).
pub use board_core;
pub use board_core::prelude::*;

/// Everything a user of Focus needs, in one import: `use focus::prelude::*;`
/// brings the game's types and board-core's traits, errors and vocabulary.
pub mod prelude {
    pub use board_core::prelude::*;

    pub use crate::{
        MAX_HEIGHT, Move, MoveText, PIECES_PER_PLAYER, Position, Setup, Square, Stack, Variant,
    };
}

/// The rules of Focus: the board, every kind of move with an example, the
/// end, and each interpretation (the crate's `RULES.md`, whose examples
/// `tests/rules_page.rs` checks).
#[doc = include_str!("../RULES.md")]
pub mod rules_page {}

/// The README's example is compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
