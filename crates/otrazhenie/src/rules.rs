//! The rules on bitboards: every move of one side, counted or listed, and the
//! reason a given move is not legal.

use crate::square::{Direction, SLIDES, farthest, nearest, orthogonal_neighbours, ray, squares};
use crate::{Move, Square};

/// What the move walk reports, so one walk serves generation, counting and
/// evaluation.
pub(crate) trait MoveSink {
    /// The checker on `from` can move quietly to every square of `destinations`.
    fn quiet(&mut self, from: Square, destinations: u64);
    /// The checker on `from` can slide to `edge` and capture on `target`.
    fn capture(&mut self, from: Square, edge: Square, target: Square);
}

/// Walks every move of the checkers `own` against the checkers `enemy`.
///
/// Per checker and rook direction: the empty squares up to the first occupied
/// one are quiet moves. When the slide meets nothing before the boundary (and
/// is at least one square long), its last square is the edge square; from
/// there each diagonal leading away from the boundary is followed to its first
/// occupied square, a capture when that holds an enemy checker.
pub(crate) fn walk_moves(own: u64, enemy: u64, sink: &mut impl MoveSink) {
    let occupied = own | enemy;
    for from in squares(own) {
        for (slide, reflections) in SLIDES {
            let line = ray(from, slide);
            let blockers = line & occupied;
            if blockers != 0 {
                let blocker = nearest(blockers, slide);
                sink.quiet(from, line & !ray(blocker, slide) & !blocker.bit());
                continue;
            }
            if line == 0 {
                continue;
            }
            sink.quiet(from, line);
            let edge = farthest(line, slide);
            for diagonal in reflections {
                let met = ray(edge, diagonal) & occupied;
                if met != 0 {
                    let target = nearest(met, diagonal);
                    if enemy & target.bit() != 0 {
                        sink.capture(from, edge, target);
                    }
                }
            }
        }
    }
}

/// Appends the moves to a vector.
pub(crate) struct Collect<'a>(pub(crate) &'a mut Vec<Move>);

impl MoveSink for Collect<'_> {
    fn quiet(&mut self, from: Square, destinations: u64) {
        self.0.extend(squares(destinations).map(|to| Move::Quiet { from, to }));
    }
    fn capture(&mut self, from: Square, edge: Square, target: Square) {
        self.0.push(Move::Capture { from, edge, target });
    }
}

/// Appends the captures to a vector, skipping the quiet moves.
pub(crate) struct Captures<'a>(pub(crate) &'a mut Vec<Move>);

impl MoveSink for Captures<'_> {
    fn quiet(&mut self, _from: Square, _destinations: u64) {}
    fn capture(&mut self, from: Square, edge: Square, target: Square) {
        self.0.push(Move::Capture { from, edge, target });
    }
}

/// Calls a closure with each move.
pub(crate) struct Visit<F>(pub(crate) F);

impl<F: FnMut(Move)> MoveSink for Visit<F> {
    fn quiet(&mut self, from: Square, destinations: u64) {
        squares(destinations).for_each(|to| (self.0)(Move::Quiet { from, to }));
    }
    fn capture(&mut self, from: Square, edge: Square, target: Square) {
        (self.0)(Move::Capture { from, edge, target });
    }
}

/// Counts moves and notes which enemy checkers can be captured.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Tally {
    /// Quiet moves.
    pub(crate) quiet: u32,
    /// Capture moves (several may capture the same checker).
    pub(crate) captures: u32,
    /// The enemy checkers some capture takes.
    pub(crate) targets: u64,
}

impl Tally {
    /// The tally of the moves of `own` against `enemy`.
    pub(crate) fn of(own: u64, enemy: u64) -> Tally {
        let mut tally = Tally::default();
        walk_moves(own, enemy, &mut tally);
        tally
    }

    /// All moves.
    pub(crate) const fn moves(&self) -> u32 {
        self.quiet + self.captures
    }
}

impl MoveSink for Tally {
    fn quiet(&mut self, _from: Square, destinations: u64) {
        self.quiet += destinations.count_ones();
    }
    fn capture(&mut self, _from: Square, _edge: Square, target: Square) {
        self.captures += 1;
        self.targets |= target.bit();
    }
}

/// Whether `own` has any move at all: every move, quiet or capture, starts
/// with a step onto an orthogonally adjacent empty square.
pub(crate) const fn has_move(own: u64, enemy: u64) -> bool {
    orthogonal_neighbours(own) & !(own | enemy) != 0
}

/// Why `mv` is not a legal move of `own` against `enemy` (for error messages;
/// the move list decides legality). `mover` and `opponent` are colour names.
pub(crate) fn why_illegal(mv: Move, own: u64, enemy: u64, mover: &str, opponent: &str) -> String {
    let from = mv.from();
    if own & from.bit() == 0 {
        return if enemy & from.bit() != 0 {
            format!("no {mover} checker on {from} (it holds a {opponent} checker)")
        } else {
            format!("no {mover} checker on {from}")
        };
    }
    let occupied = own | enemy;
    let first_met = |start: Square, end: Square, dir: Direction| {
        let mut at = start.step(dir);
        while let Some(sq) = at {
            if occupied & sq.bit() != 0 || sq == end {
                return Some(sq).filter(|&sq| occupied & sq.bit() != 0);
            }
            at = sq.step(dir);
        }
        None
    };
    match mv {
        Move::Quiet { to, .. } => {
            let Some(dir) = Direction::between(from, to).filter(|d| d.is_orthogonal()) else {
                return if from == to {
                    format!("a checker must move at least one square ({from} to {to})")
                } else {
                    format!("{from} and {to} are not on one rank or file")
                };
            };
            match first_met(from, to, dir) {
                Some(sq) if sq == to => {
                    format!("{to} is occupied (a quiet move never captures)")
                }
                Some(sq) => format!("the way from {from} to {to} is blocked at {sq}"),
                None => "not a legal move here".to_owned(),
            }
        }
        Move::Capture { edge, target, .. } => {
            let Some(slide) = Direction::between(from, edge).filter(|d| d.is_orthogonal()) else {
                let on_boundary =
                    |sq: Square| [sq.file(), sq.rank()].iter().any(|&c| c == 0 || c == 7);
                return if from == edge && !on_boundary(from) {
                    format!("{edge} is not at the board edge (the checker starts there)")
                } else if from == edge {
                    format!(
                        "a checker must slide at least one square before the reflection \
                         ({from} is already at the edge)"
                    )
                } else {
                    format!("{from} and {edge} are not on one rank or file")
                };
            };
            if edge.step(slide).is_some() {
                let real_edge = farthest(ray(from, slide), slide);
                return format!(
                    "{edge} is not at the board edge: from {from} through {edge} \
                     the edge square is {real_edge}"
                );
            }
            match first_met(from, edge, slide) {
                Some(sq) if sq == edge => return format!("the edge square {edge} is occupied"),
                Some(sq) => return format!("the slide from {from} to {edge} is blocked at {sq}"),
                None => {}
            }
            let Some(diagonal) = Direction::between(edge, target)
                .filter(|d| SLIDES.iter().any(|&(s, r)| s == slide && r.contains(d)))
            else {
                return format!(
                    "{target} is not on a diagonal leading away from the board edge at {edge}"
                );
            };
            match first_met(edge, target, diagonal) {
                Some(sq) if sq != target => {
                    format!("the diagonal from {edge} to {target} is blocked at {sq}")
                }
                _ if enemy & target.bit() == 0 => {
                    format!("no {opponent} checker on {target} to capture")
                }
                _ => "not a legal move here".to_owned(),
            }
        }
    }
}
