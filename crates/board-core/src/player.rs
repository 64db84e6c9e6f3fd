//! The two players and per-player data.

use std::fmt;
use std::ops::{Index, IndexMut};

/// One of the two players.
///
/// `First` is always the side that moves first from the game's normal start
/// (White in otrazhenie, Black in focus, ...). Each game names its colours in
/// [`Game::PLAYER_NAMES`](crate::Game::PLAYER_NAMES).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Player {
    /// The player who moves first from the normal start position.
    First,
    /// The other player.
    Second,
}

impl Player {
    /// Both players, first player first.
    pub const BOTH: [Player; 2] = [Player::First, Player::Second];

    /// The opponent.
    #[must_use]
    pub const fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// 0 for the first player, 1 for the second.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `+1` for the first player, `-1` for the second: handy for scores kept
    /// from the first player's point of view.
    #[must_use]
    pub const fn sign(self) -> i32 {
        match self {
            Player::First => 1,
            Player::Second => -1,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::First => "first player",
            Player::Second => "second player",
        })
    }
}

/// A value for each player, indexable by [`Player`].
///
/// ```
/// use board_core::{ByPlayer, Player};
/// let mut pieces = ByPlayer::new(12, 12);
/// pieces[Player::Second] -= 1;
/// assert_eq!(pieces, ByPlayer { first: 12, second: 11 });
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByPlayer<T> {
    /// The first player's value.
    pub first: T,
    /// The second player's value.
    pub second: T,
}

impl<T> ByPlayer<T> {
    /// Both values, first player's first.
    pub const fn new(first: T, second: T) -> Self {
        ByPlayer { first, second }
    }

    /// Applies `f` to both values.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByPlayer<U> {
        ByPlayer { first: f(self.first), second: f(self.second) }
    }
}

impl<T> Index<Player> for ByPlayer<T> {
    type Output = T;
    fn index(&self, player: Player) -> &T {
        match player {
            Player::First => &self.first,
            Player::Second => &self.second,
        }
    }
}

impl<T> IndexMut<Player> for ByPlayer<T> {
    fn index_mut(&mut self, player: Player) -> &mut T {
        match player {
            Player::First => &mut self.first,
            Player::Second => &mut self.second,
        }
    }
}
