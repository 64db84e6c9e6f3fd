//! Position text (`BBBB1BBBB/9/9/9/9/9/9/9/WWWW1WWWW W`) and the board picture.

use std::fmt;
use std::str::FromStr;

use board_core::coords::{parse_placement, placement};
use board_core::{Game, Player, PositionError};

use crate::board::{SIZE, SQUARES};
use crate::{Position, Square, Zone};

/// A position as read from text: pawns and side to move, not yet checked
/// (turn it into a [`Position`] with [`Game::from_setup`]). `Display` prints
/// the position text back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The owner of the pawn on each square, by [`Cell::index`](board_core::Cell::index)
    /// (`rank * 9 + file`).
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
        let mut setup = Setup::empty(side_to_move);
        parse_placement(board, SIZE, SIZE, &mut setup.board)?;
        Ok(setup)
    }
}

/// The position text.
impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let owner = |file: u8, rank: u8| self.board[usize::from(rank * SIZE + file)];
        write!(f, "{}", placement(SIZE, SIZE, owner))?;
        write!(f, " {}", pawn_letter(self.side_to_move))
    }
}

/// The position text; with `{:#}`, a board picture with coordinates.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            return self.draw(f);
        }
        self.to_setup().fmt(f)
    }
}

impl Position {
    /// The board for people: `W`/`B` pawns; empty squares by zone (`.`
    /// outside, `#` wall, `+` town, `*` bazaar); a line saying so; then who
    /// moves or who won.
    fn draw(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..SIZE).rev() {
            write!(f, "{} ", rank + 1)?;
            for file in 0..SIZE {
                let Some(square) = Square::new(file, rank) else { continue };
                let c = match (self.piece_at(square), square.zone()) {
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
        f.write_str(
            "W/B White/Black pawn; . outside, # wall, + town, * bazaar (reach it to win)\n",
        )?;
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
