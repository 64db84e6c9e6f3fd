//! Position text (`BBBB1BBBB/9/9/9/9/9/9/9/WWWW1WWWW W`) and the board picture.

use std::fmt;
use std::str::FromStr;

use board_core::{Game, Player, PositionError};

use crate::board::{SIZE, SQUARES};
use crate::{City, Square, Zone};

/// A position as read from text: pawns and side to move, not yet checked
/// (turn it into a [`City`] with [`Game::from_setup`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The owner of the pawn on each square, by [`Square::index`].
    pub board: [Option<Player>; SQUARES],
    /// The side to move: [`Player::First`] is White.
    pub side_to_move: Player,
}

impl Setup {
    /// An empty board with `side_to_move` to move.
    pub const fn empty(side_to_move: Player) -> Setup {
        Setup { board: [None; SQUARES], side_to_move }
    }
}

const fn pawn_letter(player: Player) -> char {
    match player {
        Player::First => 'W',
        Player::Second => 'B',
    }
}

impl FromStr for Setup {
    type Err = PositionError;

    /// Reads `<rank 9>/<rank 8>/.../<rank 1> <side>`: each rank from file a,
    /// `W`/`B` a pawn, a digit 1-9 that many empty squares; side `W` or `B`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut parts = text.split_whitespace();
        let (Some(board), Some(side), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(PositionError::new(
                "expected the board and the side to move, like BBBB1BBBB/9/9/9/9/9/9/9/WWWW1WWWW W",
            ));
        };
        let side_to_move = match side {
            "W" => Player::First,
            "B" => Player::Second,
            other => {
                return Err(PositionError::new(format!(
                    "the side to move must be W or B, not '{other}'"
                )));
            }
        };
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != SIZE as usize {
            return Err(PositionError::new(format!(
                "expected 9 ranks separated by '/', found {}",
                ranks.len()
            )));
        }
        let mut setup = Setup::empty(side_to_move);
        for (row, rank_text) in ranks.iter().enumerate() {
            let rank = SIZE - 1 - row as u8;
            let mut file = 0u8;
            for c in rank_text.chars() {
                let (owner, width) = match c {
                    'W' => (Some(Player::First), 1),
                    'B' => (Some(Player::Second), 1),
                    '1'..='9' => (None, c as u8 - b'0'),
                    other => {
                        return Err(PositionError::new(format!(
                            "rank {}: '{}' is not W, B or a digit 1-9",
                            rank + 1,
                            other.escape_debug()
                        )));
                    }
                };
                if file + width > SIZE {
                    return Err(PositionError::new(format!(
                        "rank {} has more than 9 squares",
                        rank + 1
                    )));
                }
                if let Some(square) = Square::new(file, rank) {
                    setup.board[square.index()] = owner;
                }
                file += width;
            }
            if file != SIZE {
                return Err(PositionError::new(format!(
                    "rank {} has {file} squares, expected 9",
                    rank + 1
                )));
            }
        }
        Ok(setup)
    }
}

/// The position text; with `{:#}`, a board picture with coordinates.
impl fmt::Display for City {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            return self.draw(f);
        }
        for rank in (0..SIZE).rev() {
            let mut empty = 0;
            for file in 0..SIZE {
                match Square::new(file, rank).and_then(|s| self.pawn_at(s)) {
                    Some(player) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", pawn_letter(player))?;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        write!(f, " {}", pawn_letter(self.side_to_move()))
    }
}

impl City {
    /// The board for people: `W`/`B` pawns; empty squares by zone (`.`
    /// outside, `#` wall, `+` town, `*` bazaar); then who moves or who won.
    fn draw(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..SIZE).rev() {
            write!(f, "{} ", rank + 1)?;
            for file in 0..SIZE {
                let Some(square) = Square::new(file, rank) else { continue };
                let c = match (self.pawn_at(square), square.zone()) {
                    (Some(player), _) => pawn_letter(player),
                    (None, Zone::Outside) => '.',
                    (None, Zone::Wall) => '#',
                    (None, Zone::Town) => '+',
                    (None, Zone::Bazaar) => '*',
                };
                write!(f, " {c}")?;
            }
            f.write_str("\n")?;
        }
        f.write_str("   a b c d e f g h i\n")?;
        match self.outcome() {
            Some(outcome) => match outcome.winner {
                Some(winner) => write!(
                    f,
                    "{} wins ({}), variant {}",
                    Self::PLAYER_NAMES[winner],
                    outcome.reason,
                    Game::variant(self)
                ),
                None => write!(f, "draw ({}), variant {}", outcome.reason, Game::variant(self)),
            },
            None => write!(
                f,
                "{} to move, variant {}",
                Self::PLAYER_NAMES[self.side_to_move()],
                Game::variant(self)
            ),
        }
    }
}
