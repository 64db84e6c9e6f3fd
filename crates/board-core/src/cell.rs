//! Cells: the squares or fields of a game's board, named as in its notation.

use std::fmt;
use std::hash::Hash;
use std::str::FromStr;

use crate::CellError;

/// A cell of a game's board (a square, a field): small and `Copy`, printed
/// and read by its name in the game's notation (`c5`, `G8`), and numbered by
/// [`index`](Cell::index) for arrays and tensors.
///
/// ```
/// use board_core::Cell;
///
/// /// One flag per cell of any game's board.
/// fn marks<C: Cell>(marked: &[C]) -> Vec<bool> {
///     let mut flags = vec![false; C::INDEX_BOUND];
///     for cell in marked {
///         flags[cell.index()] = true;
///     }
///     flags
/// }
/// ```
pub trait Cell:
    Copy + Eq + Hash + fmt::Debug + fmt::Display + FromStr<Err = CellError> + Send + Sync + 'static
{
    /// Every cell's index is below this. Indexes need not fill the range
    /// (a board with holes may number the cells of the grid around it).
    const INDEX_BOUND: usize;

    /// The cell's number, below [`INDEX_BOUND`](Cell::INDEX_BOUND); different
    /// cells have different numbers.
    fn index(self) -> usize;

    /// The cell numbered `index`, if there is one.
    fn from_index(index: usize) -> Option<Self>;

    /// Every cell, in index order.
    fn all() -> impl Iterator<Item = Self> {
        (0..Self::INDEX_BOUND).filter_map(Self::from_index)
    }
}
