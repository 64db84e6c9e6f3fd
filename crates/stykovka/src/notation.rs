//! Move notation: reading move text (syntax, then legality).
//!
//! `c1-c4` is a slide, `c1-e3/a7` a slide onto an enemy checker that retreats
//! to `a7`, `pass` a pass. The `/a7` part may be left out: the retreat square
//! is determined by the position. Squares may be written in upper case.

use std::fmt;
use std::str::FromStr;

use board_core::{Cell, Game, IllegalMoveError, MoveSyntaxError};

use crate::board::{GEOMETRY, Geometry, line_between};
use crate::{Move, Position, Square};

/// A move as read from text, before it is checked against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveText {
    /// `from-to`, optionally `/retreat`.
    Slide {
        /// The square the checker leaves.
        from: Square,
        /// The square it lands on.
        to: Square,
        /// Where the displaced enemy checker goes, when written.
        retreat: Option<Square>,
    },
    /// `pass`.
    Pass,
}

fn square(text: &str, whole: &str, role: &str) -> Result<Square, MoveSyntaxError> {
    if text.is_empty() {
        return Err(MoveSyntaxError::new(whole, format!("the {role} square is missing")));
    }
    text.parse()
        .map_err(|_| MoveSyntaxError::new(whole, format!("'{text}' is not a square (a1 to h8)")))
}

impl FromStr for MoveText {
    type Err = MoveSyntaxError;

    fn from_str(text: &str) -> Result<MoveText, MoveSyntaxError> {
        if text.eq_ignore_ascii_case("pass") {
            return Ok(MoveText::Pass);
        }
        let Some((from, rest)) = text.split_once('-') else {
            return Err(MoveSyntaxError::new(
                text,
                "expected 'from-to' (like c1-c4), 'from-to/retreat' (like c1-e3/a7) or 'pass'",
            ));
        };
        let (to, retreat) = match rest.split_once('/') {
            Some((to, retreat)) => (to, Some(retreat)),
            None => (rest, None),
        };
        Ok(MoveText::Slide {
            from: square(from, text, "starting")?,
            to: square(to, text, "landing")?,
            retreat: retreat.map(|r| square(r, text, "retreat")).transpose()?,
        })
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveText::Slide { from, to, retreat: Some(retreat) } => {
                write!(f, "{from}-{to}/{retreat}")
            }
            MoveText::Slide { from, to, retreat: None } => write!(f, "{from}-{to}"),
            MoveText::Pass => f.write_str("pass"),
        }
    }
}

/// The legal move `text` names in `pos`, or why there is none.
pub(crate) fn resolve(pos: &Position, text: &MoveText) -> Result<Move, IllegalMoveError> {
    if pos.is_over() {
        return Err(IllegalMoveError::GameOver { text: text.to_string() });
    }
    let legal = pos.legal_moves();
    let name = Position::PLAYER_NAMES[pos.side_to_move()];
    let illegal = |reason: String| Err(IllegalMoveError::not_legal(text.to_string(), reason));
    match *text {
        MoveText::Pass if legal.contains(&Move::Pass) => Ok(Move::Pass),
        MoveText::Pass => illegal(format!("{name} has a move, so cannot pass")),
        MoveText::Slide { from, to, retreat } => {
            let found = legal.iter().find(|mv| mv.from() == Some(from) && mv.to() == Some(to));
            match (found, retreat) {
                (Some(&mv), None) => Ok(mv),
                (Some(&mv @ Move::Dock { retreat: actual, .. }), Some(given))
                    if actual == given =>
                {
                    Ok(mv)
                }
                (Some(Move::Dock { retreat: actual, .. }), Some(given)) => {
                    illegal(format!("the checker on {to} retreats to {actual}, not {given}"))
                }
                (Some(_), Some(_)) => {
                    illegal(format!("{to} is empty: there is nothing to displace"))
                }
                (None, _) => illegal(why_not(pos, from, to)),
            }
        }
    }
}

/// Why sliding from `from` to `to` is not legal in `pos` (whose game is not over).
fn why_not(pos: &Position, from: Square, to: Square) -> String {
    let side = pos.side_to_move();
    let (name, enemy_name) = (Position::PLAYER_NAMES[side], Position::PLAYER_NAMES[side.other()]);
    if pos.piece_at(from) != Some(side) {
        return format!("no {name} checker on {from}");
    }
    let Some((d, asked)) = line_between(from, to) else {
        return format!("{from} and {to} are not on one straight line");
    };
    let (own, enemy) = pos.own_and_enemy();
    let s = from.index();
    let ahead = (GEOMETRY.ray[d][s] & (own | enemy)).count_ones() as u8;
    let distance = ahead + 1;
    let why = format!(
        "the checker on {from} moves exactly {distance} squares that way ({ahead} {} ahead, plus itself)",
        if ahead == 1 { "checker" } else { "checkers" }
    );
    if distance > GEOMETRY.ray_len[d][s] {
        return format!("{why}, which leaves the board");
    }
    let target = Geometry::step(from, d, distance);
    if asked != distance {
        return format!("{why}: to {target}, not {asked}");
    }
    if let Some(over) = (1..distance)
        .map(|n| Geometry::step(from, d, n))
        .find(|&sq| pos.piece_at(sq) == Some(side.other()))
    {
        return format!("it would pass over the {enemy_name} checker on {over}");
    }
    match pos.piece_at(to) {
        Some(owner) if owner == side => format!("{to} holds a {name} checker"),
        Some(_) => format!(
            "the {enemy_name} checker on {to} cannot be displaced: it has no diagonal of 4 \
             empty squares to retreat along"
        ),
        None => "not a legal move here".to_owned(),
    }
}
