//! What the bindings need to know of each game beyond `board_core`'s traits:
//! the observation planes of its pieces and the two ends of a move.
//! Everything else (actions, routes, the common planes) is generic.

use board_core::view::RESERVE;
use board_core::{Cell, Describe, Evaluate, Game, Player};

/// The end cells of a move: `from` is a cell index, or the cell bound for a
/// drop from the reserve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ends {
    /// A move from `from` (a cell, or the reserve) to `to`.
    Cells { from: u16, to: u16 },
    /// A pass.
    Pass,
}

/// A game as the Python package sees it. The README documents each game's
/// planes; keep the two together.
pub trait Encode: Evaluate + Describe {
    /// Whether the rules have a pass move (one more action id).
    const PASS: bool = false;
    /// `(ranks, files)` when cell index = `rank * files + file`, so the
    /// observation can be shaped as a grid.
    const GRID: Option<(usize, usize)>;
    /// The most cells a move path ([`Describe::move_path`]) can have.
    const MAX_PATH: usize;

    /// The names of the planes of what stands on a cell, from the
    /// observer's side ("own" = the observer's).
    fn piece_planes() -> Vec<String>;

    /// Names of numbers about the whole position (reserves...), one plane
    /// each with the number on every cell.
    fn count_planes() -> Vec<String> {
        Vec::new()
    }

    /// Marks the planes of `piece` (on some cell) as seen by `observer`:
    /// `set(plane)`, an index into [`piece_planes`](Encode::piece_planes).
    fn encode_piece(piece: Self::Piece, observer: Player, set: &mut dyn FnMut(usize));

    /// Writes one number per [`count_planes`](Encode::count_planes) entry.
    fn encode_counts(&self, _observer: Player, _out: &mut [f32]) {}

    /// The first and last cells of `mv`'s path, without making its text.
    fn ends(&self, mv: Self::Move) -> Ends;

    /// Every cell of `mv`'s path ([`Describe::move_path`]) as indices, the
    /// reserve as the cell bound. Needed only to tell apart moves with the
    /// same ends, which is rare, so it reads the path's text.
    fn path(&self, mv: Self::Move, out: &mut Vec<u16>) {
        out.clear();
        for name in self.move_path(mv) {
            if name == RESERVE {
                out.push(bound::<Self>());
            } else if let Ok(cell) = name.parse::<Self::Cell>() {
                out.push(index(cell));
            }
        }
    }
}

/// The cell index bound of `G`.
pub fn bound<G: Game>() -> u16 {
    u16::try_from(G::Cell::INDEX_BOUND).expect("boards have fewer than 65536 cells")
}

/// A cell's index as stored in paths.
pub fn index<C: Cell>(cell: C) -> u16 {
    u16::try_from(cell.index()).expect("boards have fewer than 65536 cells")
}

/// 0 for the observer, 1 for the opponent.
fn side(owner: Player, observer: Player) -> usize {
    usize::from(owner != observer)
}

fn cells<C: Cell>(from: C, to: C) -> Ends {
    Ends::Cells { from: index(from), to: index(to) }
}

fn names(names: &[&str]) -> Vec<String> {
    names.iter().map(|&name| name.to_owned()).collect()
}

/// Planes per level of a stack, from the top down: `kinds` for each level.
fn levels(levels: usize, kinds: &[&str]) -> Vec<String> {
    (0..levels)
        .flat_map(|level| {
            kinds.iter().map(move |kind| format!("{kind}, level {level} from the top"))
        })
        .collect()
}

impl Encode for otrazhenie::Position {
    const GRID: Option<(usize, usize)> = Some((8, 8));
    /// From, edge, captured square.
    const MAX_PATH: usize = 3;

    fn piece_planes() -> Vec<String> {
        names(&["own checker", "opponent checker"])
    }

    fn encode_piece(owner: Player, observer: Player, set: &mut dyn FnMut(usize)) {
        set(side(owner, observer));
    }

    fn ends(&self, mv: otrazhenie::Move) -> Ends {
        cells(mv.from(), mv.to())
    }
}

impl Encode for adiyukh::Position {
    const GRID: Option<(usize, usize)> = Some((8, 8));
    /// A capture has at most 12 jumps (the crate docs).
    const MAX_PATH: usize = 13;

    fn piece_planes() -> Vec<String> {
        levels(adiyukh::MAX_HEIGHT, &["own man", "own king", "opponent man", "opponent king"])
    }

    fn encode_piece(column: adiyukh::Column, observer: Player, set: &mut dyn FnMut(usize)) {
        let height = column.height();
        for (level, piece) in column.pieces().enumerate() {
            let from_top = height - 1 - level;
            set(4 * from_top + 2 * side(piece.color.player(), observer) + usize::from(piece.king));
        }
    }

    fn ends(&self, mv: adiyukh::Move) -> Ends {
        cells(mv.from(), mv.to())
    }
}

impl Encode for focus::Position {
    const GRID: Option<(usize, usize)> = Some((8, 8));
    const MAX_PATH: usize = 2;

    fn piece_planes() -> Vec<String> {
        levels(focus::MAX_HEIGHT, &["own piece", "opponent piece"])
    }

    fn count_planes() -> Vec<String> {
        names(&["own reserve", "opponent reserve", "own captured", "opponent captured"])
    }

    fn encode_piece(stack: focus::Stack, observer: Player, set: &mut dyn FnMut(usize)) {
        let height = stack.height();
        for (level, owner) in stack.bottom_up().enumerate() {
            set(2 * (height - 1 - level) + side(owner, observer));
        }
    }

    fn encode_counts(&self, observer: Player, out: &mut [f32]) {
        let opponent = observer.other();
        let counts = [
            self.reserve(observer),
            self.reserve(opponent),
            self.captured(observer),
            self.captured(opponent),
        ];
        for (slot, count) in out.iter_mut().zip(counts) {
            *slot = f32::from(count);
        }
    }

    fn ends(&self, mv: focus::Move) -> Ends {
        match mv {
            focus::Move::Stack { from, to } => cells(from, to),
            focus::Move::Drop { to } => Ends::Cells { from: bound::<Self>(), to: index(to) },
        }
    }
}

impl Encode for hexdraughts::Position {
    /// 80 fields numbered row by row; no rectangular grid.
    const GRID: Option<(usize, usize)> = None;
    const MAX_PATH: usize = hexdraughts::MAX_PATH;

    fn piece_planes() -> Vec<String> {
        names(&["own man", "own king", "opponent man", "opponent king"])
    }

    fn encode_piece(piece: hexdraughts::Piece, observer: Player, set: &mut dyn FnMut(usize)) {
        set(2 * side(piece.owner, observer) + usize::from(piece.kind == hexdraughts::Kind::King));
    }

    fn ends(&self, mv: hexdraughts::Move) -> Ends {
        cells(mv.from(), mv.to())
    }
}

impl Encode for stykovka::Position {
    const PASS: bool = true;
    const GRID: Option<(usize, usize)> = Some((8, 8));
    const MAX_PATH: usize = 2;

    fn piece_planes() -> Vec<String> {
        names(&["own checker", "opponent checker"])
    }

    fn encode_piece(owner: Player, observer: Player, set: &mut dyn FnMut(usize)) {
        set(side(owner, observer));
    }

    fn ends(&self, mv: stykovka::Move) -> Ends {
        match (mv.from(), mv.to()) {
            (Some(from), Some(to)) => cells(from, to),
            _ => Ends::Pass,
        }
    }
}

impl Encode for city::Position {
    const GRID: Option<(usize, usize)> = Some((9, 9));
    const MAX_PATH: usize = 2;

    fn piece_planes() -> Vec<String> {
        names(&["own pawn", "opponent pawn"])
    }

    fn encode_piece(owner: Player, observer: Player, set: &mut dyn FnMut(usize)) {
        set(side(owner, observer));
    }

    fn ends(&self, mv: city::Move) -> Ends {
        cells(mv.from, mv.to)
    }
}
