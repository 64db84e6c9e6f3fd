//! Tic-tac-toe: a complete tiny game for testing generic code (searchers,
//! protocol loops) on positions whose values are known. Feature `testkit`.

use std::fmt;
use std::str::FromStr;

use crate::view::{Board, Pieces};
use crate::{
    ByPlayer, CellError, Describe, Evaluate, Game, IllegalMoveError, MoveSyntaxError, Outcome,
    Player, PositionError, zobrist_keys,
};

const KEYS: [u64; 19] = zobrist_keys(3);
const LINES: [[usize; 3]; 8] =
    [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

/// Cells 0..9 from the top left, row by row, named `c0`..`c8`; a move is
/// the cell it marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell(pub u8);

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "c{}", self.0)
    }
}

impl FromStr for Cell {
    type Err = CellError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.strip_prefix(['c', 'C']).and_then(|d| d.parse::<u8>().ok()) {
            Some(n) if n < 9 => Ok(Cell(n)),
            _ => Err(CellError::new(s, "expected c0..c8")),
        }
    }
}

impl crate::Cell for Cell {
    const INDEX_BOUND: usize = 9;
    fn index(self) -> usize {
        usize::from(self.0)
    }
    fn from_index(index: usize) -> Option<Self> {
        (index < 9).then_some(Cell(index as u8))
    }
}

/// A move as read from text: the cell it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveText(pub Cell);

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl FromStr for MoveText {
    type Err = MoveSyntaxError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.parse().map(MoveText).map_err(|_| MoveSyntaxError::new(s, "expected c0..c8"))
    }
}

crate::variants! {
    /// Tic-tac-toe has one variant.
    pub enum Variant for "tictactoe" {
        /// The 3x3 game.
        Standard = "standard",
    }
}

/// Position text: nine characters `x`, `o` or `.`, then ` x` or ` o`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TicTacToe {
    cells: [Option<Player>; 9],
    turn: Player,
}

/// A parsed tic-tac-toe position.
#[derive(Debug)]
pub struct Setup(TicTacToe);

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl FromStr for Setup {
    type Err = PositionError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (board, turn) =
            s.split_once(' ').ok_or_else(|| PositionError::new("no side to move"))?;
        let mut cells = [None; 9];
        if board.chars().count() != 9 {
            return Err(PositionError::new("expected 9 cells"));
        }
        for (cell, c) in cells.iter_mut().zip(board.chars()) {
            *cell = match c {
                'x' => Some(Player::First),
                'o' => Some(Player::Second),
                '.' => None,
                _ => return Err(PositionError::new(format!("bad cell '{c}'"))),
            };
        }
        let turn = match turn {
            "x" => Player::First,
            "o" => Player::Second,
            _ => return Err(PositionError::new("side to move must be x or o")),
        };
        Ok(Setup(TicTacToe { cells, turn }))
    }
}

impl TicTacToe {
    fn winner(&self) -> Option<Player> {
        LINES.iter().find_map(|l| {
            let a = self.cells[l[0]]?;
            (self.cells[l[1]] == Some(a) && self.cells[l[2]] == Some(a)).then_some(a)
        })
    }
}

impl fmt::Display for TicTacToe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.cells {
            f.write_str(match c {
                Some(Player::First) => "x",
                Some(Player::Second) => "o",
                None => ".",
            })?;
        }
        f.write_str(if self.turn == Player::First { " x" } else { " o" })
    }
}

crate::default_variant!(TicTacToe);

impl Game for TicTacToe {
    type Move = Cell;
    type MoveText = MoveText;
    type Setup = Setup;
    type Variant = Variant;
    type Cell = Cell;
    type Piece = Player;
    const NAME: &'static str = "tictactoe";
    const PLAYER_NAMES: ByPlayer<&'static str> = ByPlayer::new("X", "O");
    const NOTATION: &'static str = "the cell to mark: c0 (top left) .. c8 (bottom right)";

    fn start(_variant: Variant) -> Self {
        TicTacToe { cells: [None; 9], turn: Player::First }
    }
    fn from_setup(setup: Setup, _variant: Variant) -> Result<Self, PositionError> {
        Ok(setup.0)
    }
    fn to_setup(&self) -> Setup {
        Setup(*self)
    }
    fn variant(&self) -> Variant {
        Variant::Standard
    }
    fn side_to_move(&self) -> Player {
        self.turn
    }
    fn piece_at(&self, cell: Cell) -> Option<Player> {
        self.cells[usize::from(cell.0)]
    }
    fn generate_moves(&self, moves: &mut Vec<Cell>) {
        if self.outcome().is_none() {
            moves.extend((0..9).filter(|&i| self.cells[i as usize].is_none()).map(Cell));
        }
    }
    fn play_unchecked(&mut self, mv: Cell) {
        self.cells[mv.0 as usize] = Some(self.turn);
        self.turn = self.turn.other();
    }
    fn outcome(&self) -> Option<Outcome> {
        if let Some(w) = self.winner() {
            Some(Outcome::win(w, "three in a row"))
        } else if self.cells.iter().all(Option::is_some) {
            Some(Outcome::draw("board full"))
        } else {
            None
        }
    }
    fn zobrist(&self) -> u64 {
        let mut h = if self.turn == Player::Second { KEYS[18] } else { 0 };
        for (i, c) in self.cells.iter().enumerate() {
            if let Some(p) = c {
                h ^= KEYS[i * 2 + p.index()];
            }
        }
        h
    }
    fn resolve_move(&self, text: &MoveText) -> Result<Cell, IllegalMoveError> {
        if self.is_legal(text.0) {
            Ok(text.0)
        } else {
            Err(IllegalMoveError::not_legal(text.to_string(), "cell taken"))
        }
    }
}

impl Evaluate for TicTacToe {
    /// No heuristic: only proven results count.
    fn evaluate(&self) -> i32 {
        0
    }
}

impl Describe for TicTacToe {
    /// A 3x3 grid, `c0` at the top left, without labels.
    fn board(&self) -> Board {
        let mut board = Board::squares(3, 3, &[("cell", "#eeeeee")], |_, _| Some("cell"));
        for (index, cell) in board.cells.iter_mut().enumerate() {
            let (file, rank) = (index % 3, index / 3);
            cell.name = Cell(((2 - rank) * 3 + file) as u8).to_string();
        }
        board.labels.clear();
        board.colours = ByPlayer::new("#c62828", "#1565c0");
        board
    }
    fn pieces(&self) -> Pieces {
        Pieces::singles((0..9).map(|i| (Cell(i), self.cells[usize::from(i)])), "mark")
    }
    fn move_path(&self, mv: Cell) -> Vec<String> {
        vec![mv.to_string()]
    }
}

/// The position of `text`.
///
/// # Panics
/// If `text` is not a valid position: for tests.
pub fn pos(text: &str) -> TicTacToe {
    match text.parse() {
        Ok(p) => p,
        Err(e) => panic!("test position {text:?}: {e}"),
    }
}
