//! Position text: `W:WH1,H2,KK2:BB1,KA2`.
//!
//! Three parts joined by `:` — the side to move (`W` or `B`), then White's
//! pieces after `W` and Black's after `B` (either order), each a
//! comma-separated list of fields, a king's field prefixed by `K` (`KK2` is a
//! king on K2, `K2` a man there). Letters may be lower case; spaces around
//! entries are ignored. Printed upper case, in field order (A1 first).

use std::fmt;
use std::str::FromStr;

use board_core::{Player, PositionError};

use crate::board::Field;
use crate::position::player_name;

/// Man or king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Moves one field forward, captures by jumping an adjacent piece.
    Man,
    /// Flies along lines in every direction.
    King,
}

/// A piece: its owner and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Who owns it ([`Player::First`] is White).
    pub owner: Player,
    /// Man or king.
    pub kind: Kind,
}

impl Piece {
    /// A piece of `owner`.
    pub const fn new(owner: Player, kind: Kind) -> Piece {
        Piece { owner, kind }
    }

    /// `w`, `W` (White man, king), `b`, `B` (Black man, king).
    pub const fn symbol(self) -> char {
        match (self.owner, self.kind) {
            (Player::First, Kind::Man) => 'w',
            (Player::First, Kind::King) => 'W',
            (Player::Second, Kind::Man) => 'b',
            (Player::Second, Kind::King) => 'B',
        }
    }
}

/// A position as read from text, not yet validated (see
/// [`Game::from_setup`](board_core::Game::from_setup)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The player to move.
    pub side_to_move: Player,
    /// The pieces and their fields, in any order.
    pub pieces: Vec<(Field, Piece)>,
}

impl Setup {
    /// No pieces, `side_to_move` to move.
    pub const fn empty(side_to_move: Player) -> Setup {
        Setup { side_to_move, pieces: Vec::new() }
    }
}

fn colour_letter(player: Player) -> char {
    match player {
        Player::First => 'W',
        Player::Second => 'B',
    }
}

fn read_colour(text: &str) -> Option<Player> {
    match text {
        "W" | "w" => Some(Player::First),
        "B" | "b" => Some(Player::Second),
        _ => None,
    }
}

fn read_piece(entry: &str, owner: Player) -> Result<(Field, Piece), PositionError> {
    let king = entry
        .strip_prefix(['K', 'k'])
        .and_then(|name| name.parse::<Field>().ok())
        .map(|field| (field, Piece::new(owner, Kind::King)));
    king.or_else(|| entry.parse::<Field>().ok().map(|field| (field, Piece::new(owner, Kind::Man))))
        .ok_or_else(|| {
            PositionError::new(format!(
                "'{entry}' in {}'s list is not a field (like G8) or a king's field (like KG8)",
                player_name(owner)
            ))
        })
}

impl FromStr for Setup {
    type Err = PositionError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let parts: Vec<&str> = text.trim().split(':').map(str::trim).collect();
        let [side, lists @ ..] = parts.as_slice() else {
            return Err(PositionError::new("empty position text"));
        };
        if lists.len() != 2 {
            return Err(PositionError::new(format!(
                "expected 3 parts joined by ':' (side to move, White's pieces, Black's pieces), found {}",
                parts.len()
            )));
        }
        let side_to_move = read_colour(side).ok_or_else(|| {
            PositionError::new(format!("the side to move must be W or B, not '{side}'"))
        })?;
        let mut setup = Setup::empty(side_to_move);
        let mut seen = Vec::new();
        for list in lists {
            let mut chars = list.chars();
            let owner = chars.next().map(String::from).as_deref().and_then(read_colour);
            let Some(owner) = owner else {
                return Err(PositionError::new(format!(
                    "a list of pieces must start with W or B, not '{list}'"
                )));
            };
            if seen.contains(&owner) {
                return Err(PositionError::new(format!(
                    "{} has two lists of pieces",
                    player_name(owner)
                )));
            }
            seen.push(owner);
            let entries = chars.as_str().trim();
            if entries.is_empty() {
                continue;
            }
            for entry in entries.split(',') {
                setup.pieces.push(read_piece(entry.trim(), owner)?);
            }
        }
        Ok(setup)
    }
}

/// Writes the position text of `pieces` (in the order given).
pub(crate) fn write_text(
    f: &mut fmt::Formatter<'_>,
    side_to_move: Player,
    pieces: &[(Field, Piece)],
) -> fmt::Result {
    write!(f, "{}", colour_letter(side_to_move))?;
    for owner in Player::BOTH {
        write!(f, ":{}", colour_letter(owner))?;
        let own = pieces.iter().filter(|(_, piece)| piece.owner == owner);
        for (k, (field, piece)) in own.enumerate() {
            let separator = if k > 0 { "," } else { "" };
            let king = if piece.kind == Kind::King { "K" } else { "" };
            write!(f, "{separator}{king}{field}")?;
        }
    }
    Ok(())
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_text(f, self.side_to_move, &self.pieces)
    }
}
