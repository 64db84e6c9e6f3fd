//! How the game looks to a GUI: the 80 fields as hexagons in centred rows
//! (row A at the top, White's row K at the bottom, as the `{:#}` picture),
//! men and kings, and the start and every landing of a move.

use board_core::Cell as _;
use board_core::Describe;
use board_core::view::{Board, Cell, Label, Piece, Pieces};

use crate::board::{ROWS, row_len};
use crate::{Field, Kind, Move, Position};

/// The distance from a hexagon's centre to its corners; hexagons are one unit
/// wide (flat sides left and right, pointed top and bottom).
const RADIUS: f64 = 0.577_350_269_189_625_8; // 1 / sqrt(3)
/// The distance between the centres of two rows.
const ROW_PITCH: f64 = 1.5 * RADIUS;
/// Room for the row letters left and right.
const SIDE: f64 = 1.0;
/// Room above and below.
const MARGIN: f64 = 0.25;
/// Fields in the longest row.
const WIDEST: f64 = 10.0;
/// The rulebook's three field colours, in rotation along a row (a proper
/// 3-colouring: touching fields always differ).
const COLOURS: [(&str, &str); 3] = [("light", "#efe3c8"), ("grey", "#b9b4aa"), ("dark", "#a07a55")];

/// The colour of field `number` of `row`: its position in half-steps from
/// the left edge, modulo 3 (neighbours in a row are 2 half-steps apart,
/// in the next row 1).
fn colour(row: usize, number: u8) -> &'static str {
    let half_steps = 2 * usize::from(number) + WIDEST as usize - row_len(row);
    COLOURS[half_steps % 3].0
}

/// Three decimals are plenty for drawing, and keep the JSON short.
fn round(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

/// The centre of field `number` (from 1) of `row` (0 = A): rows are centred,
/// so a field lies half a field to the side of the fields it touches in the
/// rows above and below.
fn centre(row: usize, number: u8) -> (f64, f64) {
    let half_steps = 2.0 * f64::from(number) - row_len(row) as f64 - 1.0;
    (SIDE + WIDEST / 2.0 + half_steps / 2.0, MARGIN + RADIUS + row as f64 * ROW_PITCH)
}

/// The corners clockwise from the top: x in units, y in radii.
fn hexagon((x, y): (f64, f64)) -> Vec<(f64, f64)> {
    let corners = [(0.0, -1.0), (0.5, -0.5), (0.5, 0.5), (0.0, 1.0), (-0.5, 0.5), (-0.5, -0.5)];
    corners.iter().map(|&(dx, dy)| (round(x + dx), round(y + dy * RADIUS))).collect()
}

impl Describe for Position {
    /// The same hexagon in both variants.
    fn board(&self) -> Board {
        let cells = Field::all()
            .map(|field| {
                let at = centre(field.row(), field.number());
                Cell {
                    name: field.to_string(),
                    centre: (round(at.0), round(at.1)),
                    polygon: hexagon(at),
                    class: colour(field.row(), field.number()),
                }
            })
            .collect();
        // Each field's number in its row, low in the field (the row letters
        // stand beside the rows).
        let mut labels: Vec<Label> = Field::all()
            .map(|field| {
                let (x, y) = centre(field.row(), field.number());
                Label { text: field.number().to_string(), at: (round(x), round(y + 0.72 * RADIUS)) }
            })
            .collect();
        for row in 0..ROWS {
            let text = char::from(b'A' + row as u8).to_string();
            let (left, y) = centre(row, 1);
            let (right, _) = centre(row, row_len(row) as u8);
            for x in [left - 0.9, right + 0.9] {
                labels.push(Label { text: text.clone(), at: (round(x), round(y)) });
            }
        }
        Board {
            width: 2.0 * SIDE + WIDEST,
            height: round(2.0 * MARGIN + 2.0 * RADIUS + (ROWS - 1) as f64 * ROW_PITCH),
            cells,
            labels,
            classes: COLOURS.to_vec(),
            colours: Board::WHITE_BLACK,
            reserves: false,
        }
    }

    fn pieces(&self) -> Pieces {
        let stacks = self
            .occupied()
            .map(|(field, piece)| {
                let kind = match piece.kind {
                    Kind::Man => "man",
                    Kind::King => "king",
                };
                (field.to_string(), vec![Piece { owner: piece.owner, kind }])
            })
            .collect();
        Pieces { stacks, ..Pieces::default() }
    }

    /// The start field and every landing field.
    fn move_path(&self, mv: Move) -> Vec<String> {
        mv.fields().map(|field| field.to_string()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fields whose centres are one unit apart touch; they never share a
    /// colour, and all three colours are used.
    #[test]
    fn touching_fields_differ_in_colour_and_each_field_is_numbered() {
        let board = <Position as board_core::Game>::start(crate::Variant::default()).board();
        let mut used = std::collections::BTreeSet::new();
        for a in &board.cells {
            used.insert(a.class);
            for b in &board.cells {
                let d = (a.centre.0 - b.centre.0).hypot(a.centre.1 - b.centre.1);
                if a.name != b.name && d < 1.01 {
                    assert_ne!(a.class, b.class, "{} and {} touch", a.name, b.name);
                }
            }
            let number = &a.name[1..];
            assert!(
                board.labels.iter().any(|l| l.text == number
                    && (l.at.0 - a.centre.0).abs() < 0.01
                    && l.at.1 > a.centre.1),
                "{} has no number",
                a.name
            );
        }
        assert_eq!(used.len(), 3);
    }
}
