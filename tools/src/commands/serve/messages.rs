//! The JSON the page and the server exchange over the WebSocket, one object
//! per text message, tagged by `type`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What the page asks.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    /// Start (or restart) a game: new engine processes, from `fen` (or the
    /// start position) with `moves` already played.
    New(NewGame),
    /// The person to move plays `move`.
    Move {
        /// The move text, as `query movepaths` names it.
        #[serde(rename = "move")]
        text: String,
    },
    /// Take back the last move (and the engine's answer to it, so the person
    /// is to move again).
    TakeBack,
}

/// The settings of a game.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// The game, as the engines' `Game` option names it.
    pub game: String,
    /// The variant; the game's default when absent.
    #[serde(default)]
    pub variant: Option<String>,
    /// A position text to start from instead of the start position.
    #[serde(default)]
    pub fen: Option<String>,
    /// Moves already played from there.
    #[serde(default)]
    pub moves: Vec<String>,
    /// The ply cap sent as `MaxPlies` (0: none).
    #[serde(default)]
    pub max_plies: u32,
    /// Player 1's side, then player 2's.
    pub sides: [Side; 2],
}

/// Who plays one side: a person (no engine) or an engine with its limit.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Side {
    /// The engine's name, or none for a person.
    #[serde(default)]
    pub engine: Option<String>,
    /// The limit of each search.
    #[serde(default)]
    pub limit: Option<Limit>,
}

/// One search limit.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Limit {
    /// Milliseconds per move.
    Movetime(u64),
    /// Plies.
    Depth(u32),
    /// Nodes (MCTS: iterations).
    Nodes(u64),
}

/// What the server tells the page.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Notice {
    /// The first message: what can be chosen.
    Hello {
        /// The games, with their variants and default ply caps.
        games: Vec<GameInfo>,
        /// The engines a side can be given.
        engines: Vec<String>,
        /// The engine that answers the referee's queries.
        referee: String,
    },
    /// A game started: the board as `query board` describes it.
    Board {
        /// The `query board` JSON.
        board: Value,
    },
    /// The position after a change.
    State(State),
    /// An `info` line of a searching engine.
    Info {
        /// 1 or 2.
        side: u8,
        /// Completed depth.
        depth: Option<u32>,
        /// `cp 35`, `win 3`, `loss 4`.
        score: Option<String>,
        /// Nodes searched.
        nodes: Option<u64>,
        /// Principal variation.
        pv: Vec<String>,
    },
    /// Something went wrong; with `restart`, the game's engines were closed
    /// and the page should offer to start them again.
    Error {
        /// What happened, for people.
        message: String,
        /// Whether the game needs a restart.
        restart: bool,
    },
}

/// A game as the page offers it.
#[derive(Debug, Serialize)]
pub struct GameInfo {
    /// The name.
    pub name: &'static str,
    /// Its variants, default first.
    pub variants: &'static [&'static str],
    /// The default ply cap.
    pub max_plies: u32,
}

/// The position after a change.
#[derive(Debug, Serialize)]
pub struct State {
    /// The moves played from the base position.
    pub moves: Vec<String>,
    /// The position text now.
    pub fen: String,
    /// `query pieces`.
    pub pieces: Value,
    /// `query movepaths`.
    pub movepaths: Value,
    /// 1 or 2: whose turn it is.
    pub to_move: u8,
    /// Whether a person is to move (and the game goes on).
    pub human_to_move: bool,
    /// The side whose engine is searching, if any.
    pub thinking: Option<u8>,
}
