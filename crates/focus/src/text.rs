//! Position text (see the crate docs for the format) and the board picture.

use std::fmt;
use std::str::FromStr;

use board_core::{ByPlayer, Game, Player, PositionError};

use crate::board::{Square, Stack, piece_letter, rank_files};
use crate::position::Position;

/// A position as read from text, before validation by
/// [`Game::from_setup`](board_core::Game::from_setup).
///
/// `Display` prints the position text back.
///
/// ```
/// use focus::prelude::*;
///
/// // White's piece on top of Black's on f6; Black has one piece in reserve.
/// let text = "4/6/5,bw,2/8/8/8/6/4 b reserve 1 0 captured 17 16";
/// let setup: Setup = text.parse()?;
/// assert_eq!(setup.stacks.len(), 1);
/// assert_eq!(setup.side_to_move, Player::First);
/// assert_eq!(setup.to_string(), text);
/// let pos = Position::from_setup(setup, Variant::Standard)?;
/// assert_eq!(pos.legal_moves().len(), 52); // Black can only drop
/// assert_eq!(pos.to_setup().to_string(), text);
/// # Ok::<(), PositionError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The stacks and their squares.
    pub stacks: Vec<(Square, Stack)>,
    /// The player to move.
    pub side_to_move: Player,
    /// The pieces in each player's reserve.
    pub reserve: ByPlayer<u8>,
    /// The enemy pieces each player has captured.
    pub captured: ByPlayer<u8>,
}

fn player_from_letter(letter: char) -> Option<Player> {
    match letter {
        'b' => Some(Player::First),
        'w' => Some(Player::Second),
        _ => None,
    }
}

fn parse_stack(token: &str, square: Square) -> Result<Stack, PositionError> {
    let pieces = token
        .chars()
        .map(|c| {
            player_from_letter(c).ok_or_else(|| {
                PositionError::new(format!(
                    "{square}: '{c}' is not a piece (b = Black, w = White, bottom to top)"
                ))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Stack::from_bottom_up(&pieces).ok_or_else(|| {
        PositionError::new(format!(
            "{square}: a stack holds 1 to 5 pieces, {token} has {}",
            pieces.len()
        ))
    })
}

/// Reads one rank (`rank` zero-based) into `stacks`.
fn parse_rank(
    text: &str,
    rank: u8,
    stacks: &mut Vec<(Square, Stack)>,
) -> Result<(), PositionError> {
    let (first, last) = rank_files(rank);
    let width = last - first + 1;
    let mut file = first;
    for token in text.split(',') {
        let done = file - first;
        if done >= width {
            return Err(PositionError::new(format!(
                "rank {} describes more than its {width} squares",
                rank + 1
            )));
        }
        if token.bytes().all(|b| b.is_ascii_digit()) && !token.is_empty() {
            let run: u8 = match token.parse() {
                Ok(run) if (1..=width - done).contains(&run) => run,
                _ => {
                    return Err(PositionError::new(format!(
                        "rank {}: {token} empty squares do not fit ({} left of {width})",
                        rank + 1,
                        width - done
                    )));
                }
            };
            file += run;
        } else {
            let Some(square) = Square::new(file, rank) else {
                return Err(PositionError::new(format!(
                    "rank {}: no square at file {file}",
                    rank + 1
                )));
            };
            if token.is_empty() {
                return Err(PositionError::new(format!("{square}: empty entry between commas")));
            }
            stacks.push((square, parse_stack(token, square)?));
            file += 1;
        }
    }
    if file - first != width {
        return Err(PositionError::new(format!(
            "rank {} describes {} squares, it has {width}",
            rank + 1,
            file - first
        )));
    }
    Ok(())
}

fn parse_count(token: Option<&str>, what: &str) -> Result<u8, PositionError> {
    let token = token.ok_or_else(|| PositionError::new(format!("missing {what}")))?;
    token
        .parse::<u8>()
        .ok()
        .filter(|&n| n <= crate::position::PIECES_PER_PLAYER)
        .ok_or_else(|| PositionError::new(format!("{what} must be a number 0..=18, not {token:?}")))
}

fn expect_word(token: Option<&str>, word: &str) -> Result<(), PositionError> {
    match token {
        Some(t) if t == word => Ok(()),
        Some(t) => Err(PositionError::new(format!("expected '{word}', found {t:?}"))),
        None => Err(PositionError::new(format!("missing '{word}' and its two counts"))),
    }
}

impl FromStr for Setup {
    type Err = PositionError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut tokens = text.split_whitespace();
        let board = tokens.next().ok_or_else(|| PositionError::new("empty position text"))?;
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 8 {
            return Err(PositionError::new(format!(
                "the board has {} ranks separated by '/', expected 8",
                ranks.len()
            )));
        }
        let mut stacks = Vec::new();
        for (rank_text, rank) in ranks.iter().zip((0..8).rev()) {
            parse_rank(rank_text, rank, &mut stacks)?;
        }
        let side_to_move = match tokens.next() {
            Some("b") => Player::First,
            Some("w") => Player::Second,
            Some(other) => {
                return Err(PositionError::new(format!(
                    "side to move must be b or w, not {other:?}"
                )));
            }
            None => return Err(PositionError::new("missing side to move (b or w)")),
        };
        expect_word(tokens.next(), "reserve")?;
        let reserve = ByPlayer::new(
            parse_count(tokens.next(), "Black's reserve")?,
            parse_count(tokens.next(), "White's reserve")?,
        );
        expect_word(tokens.next(), "captured")?;
        let captured = ByPlayer::new(
            parse_count(tokens.next(), "the count Black has captured")?,
            parse_count(tokens.next(), "the count White has captured")?,
        );
        if let Some(extra) = tokens.next() {
            return Err(PositionError::new(format!("unexpected {extra:?} after the counts")));
        }
        Ok(Setup { stacks, side_to_move, reserve, captured })
    }
}

/// Writes the position text: the board (`stack_at` gives the stack on each
/// square), the side to move, the reserves and the captures.
fn write_text(
    f: &mut fmt::Formatter<'_>,
    stack_at: impl Fn(Square) -> Option<Stack>,
    side: Player,
    reserve: ByPlayer<u8>,
    captured: ByPlayer<u8>,
) -> fmt::Result {
    for rank in (0..8).rev() {
        let (first, last) = rank_files(rank);
        let mut empty_run = 0;
        let mut separator = "";
        for file in first..=last {
            let stack = Square::new(file, rank).and_then(&stack_at);
            match stack {
                None => empty_run += 1,
                Some(stack) => {
                    if empty_run > 0 {
                        write!(f, "{separator}{empty_run},")?;
                        empty_run = 0;
                    } else {
                        f.write_str(separator)?;
                    }
                    write!(f, "{stack}")?;
                    separator = ",";
                }
            }
        }
        if empty_run > 0 {
            write!(f, "{separator}{empty_run}")?;
        }
        if rank > 0 {
            f.write_str("/")?;
        }
    }
    write!(
        f,
        " {} reserve {} {} captured {} {}",
        piece_letter(side),
        reserve.first,
        reserve.second,
        captured.first,
        captured.second
    )
}

/// The position text (the first stack given for a square, if there are several).
impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stack_at =
            |square| self.stacks.iter().find(|&&(at, _)| at == square).map(|&(_, stack)| stack);
        write_text(f, stack_at, self.side_to_move, self.reserve, self.captured)
    }
}

impl Position {
    fn fmt_text(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let by_player = |count: fn(&Position, Player) -> u8| {
            ByPlayer::new(count(self, Player::First), count(self, Player::Second))
        };
        write_text(
            f,
            |square| self.piece_at(square),
            self.side_to_move(),
            by_player(Position::reserve),
            by_player(Position::captured),
        )
    }

    fn fmt_picture(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const CELL: usize = 6;
        for rank in (0..8u8).rev() {
            let mut line = format!("{:>2} ", rank + 1);
            for file in 0..8 {
                let cell = match Square::new(file, rank) {
                    None => String::new(),
                    Some(sq) => self.piece_at(sq).map_or_else(|| ".".to_owned(), |s| s.to_string()),
                };
                line.push_str(&format!("{cell:<CELL$}"));
            }
            writeln!(f, "{}", line.trim_end())?;
        }
        let files: String = ('a'..='h').map(|file| format!("{file:<CELL$}")).collect();
        writeln!(f, "   {}", files.trim_end())?;
        writeln!(f, "stacks bottom to top (b = Black, w = White); the top piece owns the stack")?;
        for player in Player::BOTH {
            writeln!(
                f,
                "{:<5}: reserve {:>2}, captured {:>2}",
                Position::PLAYER_NAMES[player],
                self.reserve(player),
                self.captured(player)
            )?;
        }
        write!(f, "{} to move", Position::PLAYER_NAMES[self.side_to_move()])
    }
}

/// The position text; `{:#}` draws the board for people.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() { self.fmt_picture(f) } else { self.fmt_text(f) }
    }
}
