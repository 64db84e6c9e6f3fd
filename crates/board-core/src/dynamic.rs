//! The dynamic layer: any game's position behind one object-safe trait, with
//! text at the boundary, so binaries can pick a game by name at run time.

use std::any::Any;
use std::fmt;

use crate::view::{Board, Pieces};
use crate::{ByPlayer, Describe, Game, MoveError, Outcome, Player, Rng, Variant, perft};

/// A position of some game, used through text. Every [`Game`] is one.
///
/// ```
/// # use board_core::DynGame;
/// fn show(pos: &dyn DynGame) -> String {
///     format!("{} to move, {} legal moves", pos.player_names()[pos.side_to_move()],
///             pos.legal_move_texts().len())
/// }
/// ```
pub trait DynGame: fmt::Debug + Send + Sync + Any {
    /// The game's name.
    fn name(&self) -> &'static str;
    /// The name of the variant this position is played under.
    fn variant(&self) -> &'static str;
    /// The game's variants, default first.
    fn variants(&self) -> &'static [&'static str];
    /// The colour names, first player first.
    fn player_names(&self) -> ByPlayer<&'static str>;
    /// The ply cap tools use by default ([`Game::DEFAULT_MAX_PLIES`]).
    fn default_max_plies(&self) -> u32;
    /// How to write a move ([`Game::NOTATION`]).
    fn notation(&self) -> &'static str;
    /// The rules page for people, as Markdown ([`Game::RULES`]; empty by default).
    fn rules(&self) -> &'static str {
        ""
    }
    /// The player to move.
    fn side_to_move(&self) -> Player;
    /// How the game ended, if it has.
    fn outcome(&self) -> Option<Outcome>;
    /// The result at a tool's ply cap ([`Game::adjudicate`]).
    fn adjudicate(&self) -> Outcome;
    /// Every legal move in canonical notation.
    fn legal_move_texts(&self) -> Vec<String>;
    /// The canonical notation of `text` if it is a legal move here.
    ///
    /// # Errors
    /// [`MoveError`] when it is not.
    fn check_move(&self, text: &str) -> Result<String, MoveError>;
    /// Plays `text` if it is legal; returns its canonical notation.
    ///
    /// # Errors
    /// [`MoveError`] when it is not; the position is then unchanged.
    fn play_move_text(&mut self, text: &str) -> Result<String, MoveError>;
    /// Plays a uniformly random legal move; returns it, or `None` at the end.
    fn play_random(&mut self, rng: &mut Rng) -> Option<String>;
    /// The position text.
    fn position_text(&self) -> String;
    /// The board drawn for people.
    fn board_text(&self) -> String;
    /// The position hash.
    fn zobrist(&self) -> u64;
    /// Perft to `depth`.
    fn perft(&self, depth: u32) -> u64;
    /// Perft below each legal move.
    fn perft_divide(&self, depth: u32) -> Vec<(String, u64)>;
    /// The board of this variant ([`Describe::board`]).
    fn board_view(&self) -> Board;
    /// What stands where ([`Describe::pieces`]).
    fn pieces_view(&self) -> Pieces;
    /// Every legal move in canonical notation with the cells a person clicks
    /// to make it ([`Describe::move_path`]), in generation order.
    fn move_paths(&self) -> Vec<(String, Vec<String>)>;
    /// A boxed copy.
    fn clone_box(&self) -> Box<dyn DynGame>;
    /// For downcasting to the concrete game.
    fn as_any(&self) -> &dyn Any;
}

impl<G: Describe> DynGame for G {
    fn name(&self) -> &'static str {
        G::NAME
    }
    fn variant(&self) -> &'static str {
        Game::variant(self).name()
    }
    fn variants(&self) -> &'static [&'static str] {
        <G::Variant as Variant>::NAMES
    }
    fn player_names(&self) -> ByPlayer<&'static str> {
        G::PLAYER_NAMES
    }
    fn default_max_plies(&self) -> u32 {
        G::DEFAULT_MAX_PLIES
    }
    fn notation(&self) -> &'static str {
        G::NOTATION
    }

    fn rules(&self) -> &'static str {
        G::RULES
    }
    fn side_to_move(&self) -> Player {
        Game::side_to_move(self)
    }
    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }
    fn adjudicate(&self) -> Outcome {
        Game::adjudicate(self)
    }
    fn legal_move_texts(&self) -> Vec<String> {
        self.legal_moves().iter().map(ToString::to_string).collect()
    }
    fn check_move(&self, text: &str) -> Result<String, MoveError> {
        self.parse_move(text).map(|mv| mv.to_string())
    }
    fn play_move_text(&mut self, text: &str) -> Result<String, MoveError> {
        self.play_text(text).map(|mv| mv.to_string())
    }
    fn play_random(&mut self, rng: &mut Rng) -> Option<String> {
        let mv = *rng.choose(&self.legal_moves())?;
        self.play_unchecked(mv);
        Some(mv.to_string())
    }
    fn position_text(&self) -> String {
        self.to_string()
    }
    fn board_text(&self) -> String {
        format!("{self:#}")
    }
    fn zobrist(&self) -> u64 {
        Game::zobrist(self)
    }
    fn perft(&self, depth: u32) -> u64 {
        Game::perft(self, depth)
    }
    fn perft_divide(&self, depth: u32) -> Vec<(String, u64)> {
        perft::perft_divide(self, depth).into_iter().map(|(mv, n)| (mv.to_string(), n)).collect()
    }
    fn board_view(&self) -> Board {
        self.board()
    }
    fn pieces_view(&self) -> Pieces {
        self.pieces()
    }
    fn move_paths(&self) -> Vec<(String, Vec<String>)> {
        self.legal_moves().into_iter().map(|mv| (mv.to_string(), self.move_path(mv))).collect()
    }
    fn clone_box(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl Clone for Box<dyn DynGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}
