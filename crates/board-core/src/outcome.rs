//! How a game ended.

use std::fmt;

use crate::{ByPlayer, Player};

/// The end of a game: who won (or a draw), an optional score, and why.
///
/// ```
/// use board_core::{ByPlayer, Outcome, Player};
/// let end = Outcome::win(Player::First, "no legal move").with_score(ByPlayer::new(13, 11));
/// assert_eq!(end.result_text(), "1-0");
/// assert_eq!(end.to_string(), "1-0 score 13-11 reason no legal move");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Player>,
    /// Points per player, for games that end with a score (adiyukh).
    pub score: Option<ByPlayer<u32>>,
    /// Why the game ended, in a few lower-case words ("no legal move").
    pub reason: &'static str,
}

impl Outcome {
    /// A win for `winner`.
    pub const fn win(winner: Player, reason: &'static str) -> Self {
        Outcome { winner: Some(winner), score: None, reason }
    }

    /// A draw.
    pub const fn draw(reason: &'static str) -> Self {
        Outcome { winner: None, score: None, reason }
    }

    /// The same outcome with a score attached.
    #[must_use]
    pub const fn with_score(mut self, score: ByPlayer<u32>) -> Self {
        self.score = Some(score);
        self
    }

    /// `1-0`, `0-1` or `1/2-1/2`, always from the first player's side.
    pub const fn result_text(&self) -> &'static str {
        match self.winner {
            Some(Player::First) => "1-0",
            Some(Player::Second) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// `<result>[ score <a>-<b>] reason <words>`, the tail of `igroteka replay`'s
/// `result` line.
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.result_text())?;
        if let Some(score) = self.score {
            write!(f, " score {}-{}", score.first, score.second)?;
        }
        write!(f, " reason {}", self.reason)
    }
}
