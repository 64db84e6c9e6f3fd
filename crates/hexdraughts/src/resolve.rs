//! The legality stage of move parsing: a [`MoveText`] checked against a
//! position, with a message saying why a move is refused.

use board_core::{Game, IllegalMoveError};

use crate::moves::{Move, MoveText};
use crate::position::{Position, player_name};
use crate::text::Kind;

/// The legal move `text` names in `pos`: the exact path, or for a capture
/// written as just start and end (`I3:E4`), the only capture that fits.
pub(crate) fn resolve(pos: &Position, text: &MoveText) -> Result<Move, IllegalMoveError> {
    let legal = pos.legal_moves();
    let fields = text.fields();
    let written = text.to_string();
    let same_path =
        |mv: &&Move| mv.is_capture() == text.is_capture() && mv.fields().eq(fields.iter().copied());
    if let Some(&mv) = legal.iter().find(same_path) {
        return Ok(mv);
    }
    let (Some(&from), Some(&to)) = (fields.first(), fields.last()) else {
        return Err(IllegalMoveError::not_legal(written, "no fields"));
    };
    if text.is_capture() && fields.len() == 2 {
        let fitting: Vec<&Move> = legal
            .iter()
            .filter(|mv| mv.is_capture() && mv.from() == from && mv.to() == to)
            .collect();
        match fitting.as_slice() {
            [mv] => return Ok(**mv),
            [] => {}
            many => {
                return Err(IllegalMoveError::Ambiguous {
                    text: written,
                    candidates: many.iter().map(ToString::to_string).collect(),
                });
            }
        }
    }
    let side = pos.side_to_move();
    let reason = match pos.piece_at(from) {
        Some(piece) if piece.owner == side => {
            let kind = if piece.kind == Kind::King { "king" } else { "man" };
            let capture = legal.iter().find(|mv| mv.is_capture());
            match (text.is_capture(), capture) {
                (false, Some(capture)) => format!("capturing is compulsory (e.g. {capture})"),
                (true, None) => "there is no capture here".to_owned(),
                (true, Some(_)) => {
                    let longer = legal
                        .iter()
                        .find(|mv| mv.fields().take(fields.len()).eq(fields.iter().copied()));
                    match longer {
                        Some(mv) => format!("the capture must continue (e.g. {mv})"),
                        None => format!("the {kind} on {from} has no capture {written}"),
                    }
                }
                (false, None) => format!("the {kind} on {from} cannot move to {to}"),
            }
        }
        _ => format!("no piece of {} on {from}", player_name(side)),
    };
    Err(IllegalMoveError::not_legal(written, reason))
}
