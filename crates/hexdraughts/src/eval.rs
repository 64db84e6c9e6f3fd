//! Static evaluation for alpha-beta: material (kings weighted), advancement
//! of men, mobility and the guard of the back rows.

use board_core::{Evaluate, Game, Player};

use crate::board::{ALL_FIELDS, Direction, FIELD_COUNT, Field, bits_of, row_bits};
use crate::moves::Move;
use crate::position::{Position, promotion_row};
use crate::text::Kind;

/// A man is worth 100.
pub const MAN_VALUE: i32 = 100;
/// A flying king is worth three men.
pub const KING_VALUE: i32 = 300;
/// Per row a man has advanced from its own back row.
const ADVANCE: i32 = 3;
/// Per empty field next to a piece that it could step to.
const MOBILITY: i32 = 2;
/// Per man still guarding one of its own two back rows.
const GUARD: i32 = 6;

/// The score of `player`'s pieces alone.
fn side_score(pos: &Position, player: Player) -> i32 {
    let own = pos.bits(player);
    let kings = own & pos.king_bits();
    let men = own & !kings;
    let home = 10 - promotion_row(player);
    let back_rows = row_bits(home) | row_bits(if home == 0 { 1 } else { 9 });
    let advance: usize =
        bits_of(men).map(|man| Field::from_bit_index(man).row().abs_diff(home)).sum();
    let empty = ALL_FIELDS & !(pos.bits(Player::First) | pos.bits(Player::Second));
    let men_reach: u32 =
        pos.sides(player).forward.iter().map(|dir| (dir.shift(men) & empty).count_ones()).sum();
    let king_reach: u32 =
        Direction::ALL.iter().map(|dir| (dir.shift(kings) & empty).count_ones()).sum();
    MAN_VALUE * men.count_ones() as i32
        + KING_VALUE * kings.count_ones() as i32
        + GUARD * (men & back_rows).count_ones() as i32
        + ADVANCE * advance as i32
        + MOBILITY * (men_reach + king_reach) as i32
}

impl Position {
    /// Whether `mv` moves a man that reaches the far row on its way.
    fn promotes(&self, mv: Move) -> bool {
        let far_row = promotion_row(self.side_to_move());
        self.piece_on(mv.from()).is_some_and(|p| p.kind == Kind::Man)
            && mv.fields().any(|f| f.row() == far_row)
    }
}

impl Evaluate for Position {
    /// Material, advancement, mobility and back-row guard of the side to
    /// move minus the same for the opponent (at most about ±7 000).
    fn evaluate(&self) -> i32 {
        let us = self.side_to_move();
        side_score(self, us) - side_score(self, us.other())
    }

    /// Captures first (the more pieces the better), then moves that promote.
    fn move_priority(&self, mv: Move) -> i32 {
        100 * mv.capture_count() as i32 + if self.promotes(mv) { 50 } else { 0 }
    }

    /// Captures (compulsory when there is one) and moves that promote a man.
    fn is_tactical(&self, mv: Move) -> bool {
        mv.is_capture() || self.promotes(mv)
    }

    const MOVE_INDEX_BOUND: usize = FIELD_COUNT * FIELD_COUNT;

    /// From and to fields.
    fn move_index(&self, mv: Move) -> usize {
        mv.from().index() * FIELD_COUNT + mv.to().index()
    }
}
