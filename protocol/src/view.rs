//! The JSON answers of `query board`, `query pieces` and `query movepaths`,
//! made from any game's [`board_core::view`] through the dynamic layer.
//! The shape is documented in `docs/protocol.md` and `docs/board.schema.json`.

use board_core::view::Piece;
use board_core::{ByPlayer, DynGame, Outcome, Player};
use serde_json::{Value, json};

use crate::result_word;

/// 1 or 2.
fn number(player: Player) -> u8 {
    match player {
        Player::First => 1,
        Player::Second => 2,
    }
}

fn pair(values: Option<ByPlayer<u32>>) -> Value {
    values.map_or(Value::Null, |v| json!([v.first, v.second]))
}

fn point((x, y): (f64, f64)) -> Value {
    json!([x, y])
}

/// `query board`: the board of the position's variant.
pub(crate) fn board(position: &dyn DynGame) -> Value {
    let board = position.board_view();
    let names = position.player_names();
    let cells: Vec<Value> = board
        .cells
        .iter()
        .map(|cell| {
            json!({
                "name": cell.name,
                "x": cell.centre.0,
                "y": cell.centre.1,
                "polygon": cell.polygon.iter().copied().map(point).collect::<Vec<_>>(),
                "class": cell.class,
            })
        })
        .collect();
    let labels: Vec<Value> = board
        .labels
        .iter()
        .map(|label| json!({ "text": label.text, "x": label.at.0, "y": label.at.1 }))
        .collect();
    let classes: serde_json::Map<String, Value> =
        board.classes.iter().map(|&(class, colour)| (class.to_owned(), json!(colour))).collect();
    let players: Vec<Value> = Player::BOTH
        .into_iter()
        .map(|p| json!({ "name": names[p], "colour": board.colours[p] }))
        .collect();
    json!({
        "game": position.name(),
        "variant": position.variant(),
        "width": board.width,
        "height": board.height,
        "cells": cells,
        "labels": labels,
        "classes": classes,
        "players": players,
        "reserves": board.reserves,
    })
}

/// `query pieces`: what stands where, and how the game stands (`outcome` is
/// the referee's, which may be a forfeit or an adjudication).
pub(crate) fn pieces(position: &dyn DynGame, outcome: Option<Outcome>) -> Value {
    let pieces = position.pieces_view();
    let piece = |p: &Piece| json!({ "owner": number(p.owner), "kind": p.kind });
    let cells: Vec<Value> = pieces
        .stacks
        .iter()
        .map(|(cell, stack)| json!({ "cell": cell, "stack": stack.iter().map(piece).collect::<Vec<_>>() }))
        .collect();
    json!({
        "cells": cells,
        "reserves": pair(pieces.reserves),
        "captured": pair(pieces.captured),
        "score": pair(outcome.and_then(|end| end.score).or(pieces.score)),
        "side_to_move": number(position.side_to_move()),
        "game_over": outcome.is_some(),
        "result": outcome.map(|end| result_word(Some(end))),
        "reason": outcome.map(|end| end.reason),
    })
}

/// `query movepaths`: every legal move with its clicks; none once the game
/// is over (also by forfeit or the ply cap, as `query moves`).
pub(crate) fn move_paths(position: &dyn DynGame, over: bool) -> Value {
    let moves: Vec<Value> = if over {
        Vec::new()
    } else {
        position
            .move_paths()
            .into_iter()
            .map(|(mv, path)| json!({ "move": mv, "path": path }))
            .collect()
    };
    json!({ "moves": moves })
}
