//! How a game looks, for programs that draw boards they do not know: the
//! cells of the board with their shapes, what stands on them, and the cells a
//! person clicks to make each move.
//!
//! Plain data, no wire format: the protocol turns it into JSON
//! (`query board`, `query pieces`, `query movepaths` in `docs/protocol.md`).
//!
//! Board units: any unit, x to the right and **y downward** (as in SVG), with
//! the first player's home at the bottom, as the game's `{:#}` picture shows it.

use crate::{ByPlayer, Game, Player};

/// The pseudo-cell a drop starts from in a [move path](Describe::move_path):
/// the mover's reserve.
pub const RESERVE: &str = "reserve";

/// The board of a game's variant, as a GUI draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    /// Width of the drawing, board units.
    pub width: f64,
    /// Height of the drawing, board units.
    pub height: f64,
    /// Every cell, each once.
    pub cells: Vec<Cell>,
    /// Texts drawn around the board (files and ranks, row letters).
    pub labels: Vec<Label>,
    /// The colour (`#rrggbb`) of each class a cell can have.
    pub classes: Vec<(&'static str, &'static str)>,
    /// The players' colours (`#rrggbb`), first player first.
    pub colours: ByPlayer<&'static str>,
    /// Whether the players have reserves (hands) that pieces are dropped from.
    pub reserves: bool,
}

/// One cell of a [`Board`].
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// Its name in the game's notation.
    pub name: String,
    /// Its centre, where a piece is drawn.
    pub centre: (f64, f64),
    /// Its outline, corner by corner.
    pub polygon: Vec<(f64, f64)>,
    /// Its class (a colour in [`Board::classes`]): `light`/`dark`, a zone name.
    pub class: &'static str,
}

/// A text drawn at a point of a [`Board`].
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// The text.
    pub text: String,
    /// Where its centre is.
    pub at: (f64, f64),
}

/// One piece of a stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Its owner.
    pub owner: Player,
    /// Its kind in lower-case words: `man`, `king`, `checker`, `pawn`, ...
    pub kind: &'static str,
}

/// What stands on the board of a position, and what the players hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pieces {
    /// Every occupied cell by name, with its pieces bottom to top.
    pub stacks: Vec<(String, Vec<Piece>)>,
    /// Pieces in each player's reserve, for games with reserves.
    pub reserves: Option<ByPlayer<u32>>,
    /// Enemy pieces each player has captured, for games that count them.
    pub captured: Option<ByPlayer<u32>>,
    /// Each player's points as the position stands, for games that score.
    pub score: Option<ByPlayer<u32>>,
}

/// A game that can describe its board, its pieces and its moves to a GUI
/// that knows none of its rules. Cell names are the game's notation, the same
/// in all three. The `testkit` suite checks that they fit together.
pub trait Describe: Game {
    /// The board of this position's variant: the same for every position of
    /// the variant.
    fn board(&self) -> Board;

    /// What stands where: every occupied cell once.
    fn pieces(&self) -> Pieces;

    /// The cells a person clicks to make `mv` (a legal move here), in order:
    /// the start, every landing of a multi-jump, the end; a drop starts at
    /// [`RESERVE`]; a pass has none.
    fn move_path(&self, mv: Self::Move) -> Vec<String>;
}

impl Board {
    /// The colour of light squares of a chequered board.
    pub const LIGHT: (&'static str, &'static str) = ("light", "#f0d9b5");
    /// The colour of dark squares of a chequered board.
    pub const DARK: (&'static str, &'static str) = ("dark", "#b58863");
    /// White's and Black's colours, for games whose players are White and Black.
    pub const WHITE_BLACK: ByPlayer<&'static str> = ByPlayer::new("#f4f4f4", "#222222");

    /// A board of `files` x `ranks` unit squares, rank 1 at the bottom and a
    /// margin of half a square all round, with the file letters below and the
    /// rank numbers to the left. `class(file, rank)` (zero-based) gives each
    /// square's class, or `None` where the board has no square. Squares are
    /// named `a1`.. as in [`coords`](crate::coords). The players are White
    /// and Black, without reserves; change the fields for others.
    ///
    /// ```
    /// use board_core::view::Board;
    /// let board = Board::squares(8, 8, &[("plain", "#dddddd")], |_, _| Some("plain"));
    /// assert_eq!(board.cells.len(), 64);
    /// assert_eq!(board.cells[0].name, "a1");
    /// assert_eq!(board.cells[0].centre, (1.0, 8.0));
    /// assert_eq!((board.width, board.height), (9.0, 9.0));
    /// ```
    pub fn squares(
        files: u8,
        ranks: u8,
        classes: &[(&'static str, &'static str)],
        class: impl Fn(u8, u8) -> Option<&'static str>,
    ) -> Board {
        let margin = 0.5;
        let mut cells = Vec::new();
        for rank in 0..ranks {
            for file in 0..files {
                let Some(class) = class(file, rank) else { continue };
                let left = margin + f64::from(file);
                let top = margin + f64::from(ranks - 1 - rank);
                cells.push(Cell {
                    name: crate::coords::square_name(file, rank).to_string(),
                    centre: (left + 0.5, top + 0.5),
                    polygon: vec![
                        (left, top),
                        (left + 1.0, top),
                        (left + 1.0, top + 1.0),
                        (left, top + 1.0),
                    ],
                    class,
                });
            }
        }
        let bottom = margin + f64::from(ranks);
        let mut labels: Vec<Label> = (0..files)
            .map(|file| Label {
                text: char::from(b'a' + file).to_string(),
                at: (margin + f64::from(file) + 0.5, bottom + margin / 2.0),
            })
            .collect();
        labels.extend((0..ranks).map(|rank| Label {
            text: (u32::from(rank) + 1).to_string(),
            at: (margin / 2.0, margin + f64::from(ranks - 1 - rank) + 0.5),
        }));
        Board {
            width: f64::from(files) + 2.0 * margin,
            height: f64::from(ranks) + 2.0 * margin,
            cells,
            labels,
            classes: classes.to_vec(),
            colours: Board::WHITE_BLACK,
            reserves: false,
        }
    }

    /// A chequered board of `files` x `ranks` squares (as [`squares`](Board::squares)),
    /// `a1` dark.
    pub fn chequered(files: u8, ranks: u8) -> Board {
        Board::squares(files, ranks, &[Board::LIGHT, Board::DARK], |file, rank| {
            Some(if (file + rank) % 2 == 0 { "dark" } else { "light" })
        })
    }

    /// The cell named `name`.
    pub fn cell(&self, name: &str) -> Option<&Cell> {
        self.cells.iter().find(|cell| cell.name == name)
    }
}

impl Pieces {
    /// Single pieces of one kind, from each cell and who owns what stands on it.
    pub fn singles<C: ToString>(
        cells: impl IntoIterator<Item = (C, Option<Player>)>,
        kind: &'static str,
    ) -> Pieces {
        Pieces {
            stacks: cells
                .into_iter()
                .filter_map(|(cell, owner)| {
                    owner.map(|owner| (cell.to_string(), vec![Piece { owner, kind }]))
                })
                .collect(),
            ..Pieces::default()
        }
    }
}
