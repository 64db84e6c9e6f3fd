//! A game as played: its start, its moves, the ply cap it is played under and
//! how it ends. The one place that decides when a game stops.

use std::fmt;

use crate::{DynGame, MoveError, Outcome};

/// A game record: the start position, the moves played from it (canonical
/// text, all legal), the ply cap, and the position they reach. Every tool
/// that referees or replays a game (the engine's referee, the arena and its
/// resume check, `match`, `tune datagen`, the GUI) keeps one, so all of them
/// end a game at the same ply with the same result.
///
/// `P` is the kind of position: `dyn DynGame` (the default) for any game
/// chosen at run time, a searchable one (`dyn SearchGame`), or a concrete
/// game type.
///
/// Tic-tac-toe (feature `testkit`) capped at three plies:
///
#[cfg_attr(feature = "testkit", doc = "```")]
#[cfg_attr(not(feature = "testkit"), doc = "```ignore")]
/// use board_core::GameRecord;
/// use board_core::tictactoe::TicTacToe;
///
/// let mut record = GameRecord::new(Box::new(TicTacToe::default()), 3);
/// for mv in ["c4", "c0", "c8"] {
///     record.play(mv)?;
/// }
/// assert_eq!(record.plies_left(), Some(0));
/// let end = record.outcome().unwrap(); // the cap: tic-tac-toe adjudicates a draw
/// assert_eq!((end.result_text(), end.reason), ("1/2-1/2", "ply limit"));
/// assert!(record.play("c1").is_err()); // nothing after the end
/// # Ok::<(), board_core::RecordError>(())
/// ```
#[derive(Debug)]
pub struct GameRecord<P: ?Sized + DynGame = dyn DynGame> {
    start: Box<P>,
    position: Box<P>,
    moves: Vec<String>,
    max_plies: u32,
}

impl<P: ?Sized + DynGame> Clone for GameRecord<P>
where
    Box<P>: Clone,
{
    fn clone(&self) -> Self {
        GameRecord {
            start: self.start.clone(),
            position: self.position.clone(),
            moves: self.moves.clone(),
            max_plies: self.max_plies,
        }
    }
}

/// Why a move could not be added to a [`GameRecord`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The game had already ended (by the rules or at the ply cap) before
    /// move `ply` (counted from 1).
    Ended {
        /// The move's ply, from 1.
        ply: usize,
        /// The move as given.
        text: String,
        /// How the game ended.
        outcome: Outcome,
    },
    /// Move `ply` is not a legal move there.
    Move {
        /// The move's ply, from 1.
        ply: usize,
        /// Why.
        error: MoveError,
    },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Ended { ply, text, outcome } => {
                write!(f, "move {ply} ({text}) comes after the end ({outcome})")
            }
            RecordError::Move { ply, error } => write!(f, "move {ply}: {error}"),
        }
    }
}

impl std::error::Error for RecordError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RecordError::Ended { .. } => None,
            RecordError::Move { error, .. } => Some(error),
        }
    }
}

impl<P: ?Sized + DynGame> GameRecord<P>
where
    Box<P>: Clone,
{
    /// A record of a game starting at `start`, stopped after `max_plies`
    /// plies (0: no cap).
    pub fn new(start: Box<P>, max_plies: u32) -> Self {
        GameRecord { position: start.clone(), start, moves: Vec::new(), max_plies }
    }

    /// Plays `text` if the game goes on and the move is legal; returns its
    /// canonical text.
    ///
    /// # Errors
    /// [`RecordError`] when the game has ended or the move is not legal; the
    /// record is then unchanged.
    pub fn play(&mut self, text: &str) -> Result<String, RecordError> {
        let ply = self.moves.len() + 1;
        if let Some(outcome) = self.outcome() {
            return Err(RecordError::Ended { ply, text: text.trim().to_owned(), outcome });
        }
        let canonical =
            self.position.play_move_text(text).map_err(|error| RecordError::Move { ply, error })?;
        self.moves.push(canonical.clone());
        Ok(canonical)
    }

    /// Takes back the last move (replaying the others from the start);
    /// returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<String> {
        let last = self.moves.pop()?;
        let mut position = self.start.clone();
        for mv in &self.moves {
            if position.play_move_text(mv).is_err() {
                unreachable!("a recorded move is legal where it was played");
            }
        }
        self.position = position;
        Some(last)
    }

    /// A record with the same start and cap, without moves.
    #[must_use]
    pub fn restarted(&self) -> Self {
        GameRecord::new(self.start.clone(), self.max_plies)
    }
}

impl<P: ?Sized + DynGame> GameRecord<P> {
    /// The start position.
    pub fn start(&self) -> &P {
        &self.start
    }

    /// The position after the last move.
    pub fn position(&self) -> &P {
        &self.position
    }

    /// The moves played, canonical text.
    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    /// The ply cap (0: none).
    pub fn max_plies(&self) -> u32 {
        self.max_plies
    }

    /// Changes the ply cap (0: none); the moves stay, so the game may end
    /// (or go on) at once.
    pub fn set_max_plies(&mut self, max_plies: u32) {
        self.max_plies = max_plies;
    }

    /// How many more plies may be played before the cap: `None` without a cap.
    pub fn plies_left(&self) -> Option<u32> {
        let played = u32::try_from(self.moves.len()).unwrap_or(u32::MAX);
        (self.max_plies > 0).then(|| self.max_plies.saturating_sub(played))
    }

    /// How the game ended: by the rules, or at the cap by the game's
    /// adjudication ([`Game::adjudicate`](crate::Game::adjudicate)); `None`
    /// while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.position
            .outcome()
            .or_else(|| (self.plies_left() == Some(0)).then(|| self.position.adjudicate()))
    }

    /// Whether the game ended at the ply cap rather than by the rules.
    pub fn ended_at_cap(&self) -> bool {
        self.position.outcome().is_none() && self.plies_left() == Some(0)
    }
}
