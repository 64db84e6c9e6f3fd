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
    New(Box<NewGame>),
    /// The person to move plays `move`.
    Move {
        /// The move text, as `query movepaths` names it.
        #[serde(rename = "move")]
        text: String,
    },
    /// Take back the last move (and the engine's answer to it, so the person
    /// is to move again).
    TakeBack,
    /// Show the position after the first `ply` moves (for the move list):
    /// answered by [`Notice::View`].
    View {
        /// How many of the game's moves.
        ply: usize,
    },
    /// A person gives up: `side` (1 or 2), or the person's side when one
    /// person plays, or the side to move.
    Resign {
        /// Who resigns.
        #[serde(default)]
        side: Option<u8>,
    },
    /// Engine against engine: hold the next search (`paused`), and wait
    /// `delay_ms` before each one.
    Pace {
        /// Whether to hold.
        paused: bool,
        /// The wait before each search.
        #[serde(default)]
        delay_ms: u64,
    },
    /// While paused: let the engine to move make one move.
    Step,
    /// Read a pasted game record: answered by [`Notice::Imported`] or
    /// [`Notice::ImportRefused`] (the game on the board goes on either way).
    Import {
        /// The record.
        text: String,
        /// The game when the record has no `[Game]` tag.
        #[serde(default)]
        game: Option<String>,
    },
    /// Review the game on the board: an engine searches each of its
    /// positions `movetime_ms` (default 300), answered by a
    /// [`Notice::Reviewed`] per position, then [`Notice::ReviewDone`].
    Review {
        /// The search time per position.
        #[serde(default)]
        movetime_ms: Option<u64>,
    },
    /// Stop the review under way.
    ReviewStop,
    /// The analysis board: the position after the game's first `ply` moves
    /// and then `moves` (a variation, checked move by move by the referee),
    /// answered by [`Notice::Explored`] or [`Notice::ExploreRefused`]; the
    /// game is not changed. A spectator's is answered by the player's tab.
    Explore {
        /// How many of the game's moves.
        ply: usize,
        /// The variation's moves from there.
        #[serde(default)]
        moves: Vec<String>,
    },
    /// Search a position of the analysis board (as [`Request::Explore`]
    /// names it) with `lines` lines, answered by a [`Notice::Analysis`] per
    /// line and depth, then [`Notice::AnalysisDone`]; a search under way is
    /// stopped first.
    Analyse {
        /// The page's id of the request, told back.
        id: u32,
        /// How many of the game's moves.
        ply: usize,
        /// The variation's moves from there.
        #[serde(default)]
        moves: Vec<String>,
        /// How many lines (`MultiPV`), 1 to 10 (default 1).
        #[serde(default)]
        lines: Option<u32>,
        /// The search time (default and most: 10 minutes, or until
        /// [`Request::AnalyseStop`]).
        #[serde(default)]
        movetime_ms: Option<u64>,
        /// The engine, as `hello` names them (default: the referee's kind).
        #[serde(default)]
        engine: Option<String>,
    },
    /// Stop the analysis under way.
    AnalyseStop,
    /// Watch the game of link `id` (read-only): answered by a `watch`
    /// notice, then the game's `board`, `state` and `info` notices as it
    /// goes on (see [`super::watch`]).
    Watch {
        /// The id of the link (`/?g=<id>`).
        id: String,
    },
}

/// The settings of a game.
#[derive(Clone, Debug, Deserialize, Serialize)]
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
    /// The wait before each engine's search, in ms (to watch engines play).
    #[serde(default)]
    pub delay_ms: u64,
    /// Engine against engine: start held, as [`Request::Pace`] holds a game
    /// (a paused game resumed from the page's address).
    #[serde(default)]
    pub paused: bool,
    /// When a game that ended by resignation or time is resumed: that
    /// verdict (refused when the rules ended the game).
    #[serde(default)]
    pub verdict: Option<Ended>,
    /// The link of the game this one continues (a reload, a restart), with
    /// the key its tab was given: the game keeps that link when no other
    /// tab plays it, else it gets a new one.
    #[serde(default, skip_serializing)]
    pub link: Option<Link>,
}

/// A game's link and the key of the tab that plays it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Link {
    /// The id in the link.
    pub id: String,
    /// The key the server gave the tab with the link.
    pub key: String,
}

/// A resignation or a flag, as a resumed game carries it.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Ended {
    /// `p1win` or `p2win`.
    pub result: String,
    /// `resignation` or `time`.
    pub reason: String,
}

/// Who plays one side: a person (no engine) or an engine with its limit.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Side {
    /// The engine's name, or none for a person.
    #[serde(default)]
    pub engine: Option<String>,
    /// The limit of each search.
    #[serde(default)]
    pub limit: Option<Limit>,
    /// A clock: the side loses when it runs out (an engine searches under it
    /// instead of `limit`).
    #[serde(default)]
    pub clock: Option<Clock>,
}

/// A side's clock: a base time and an increment per move.
#[derive(Clone, Copy, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Clock {
    /// The time at the start, in ms.
    pub base_ms: u64,
    /// Added after each of the side's moves, in ms.
    #[serde(default)]
    pub inc_ms: u64,
    /// The time left now, when a game is resumed (default: `base_ms`).
    #[serde(default)]
    pub left_ms: Option<u64>,
}

/// One search limit.
#[derive(Clone, Copy, Debug, Deserialize, Serialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Limit {
    /// Milliseconds per move.
    Movetime(u64),
    /// Plies.
    Depth(u32),
    /// Nodes (MCTS: iterations).
    Nodes(u64),
}

/// What the server tells the page (and a `watch` notice, which
/// [`super::watch`] writes: a spectator's link, its game's settings and
/// whether its player's tab is still there).
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
        /// The `query rules` page (Markdown), when the referee answers it.
        rules: Option<String>,
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
        /// Whether a New game failed (the running game, if any, goes on).
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        new_game: bool,
    },
    /// The game just started has this link (`/?g=<id>`); `key` lets this
    /// tab continue it under the same link after a reload.
    Link {
        /// The id in the link.
        id: String,
        /// The tab's key to the link.
        key: String,
    },
    /// The position after the first `ply` moves, as asked by [`Request::View`].
    View {
        /// How many moves.
        ply: usize,
        /// The position text.
        fen: String,
        /// `query pieces`.
        pieces: Value,
    },
    /// A record read by [`Request::Import`]: the page starts it with
    /// a `new` request.
    Imported(super::import::Imported),
    /// A record [`Request::Import`] could not read, and why (one line).
    ImportRefused {
        /// What was wrong, and where.
        message: String,
    },
    /// One position of a review searched.
    Reviewed {
        /// The position: after the first `ply` moves.
        ply: usize,
        /// The moves of the game reviewed.
        plies: usize,
        /// Whose turn it is there (1 or 2).
        to_move: u8,
        /// The score from the view of the side to move (`cp 35`, `win 3`);
        /// none when the game is over there or the engine told none.
        score: Option<String>,
        /// The engine's best move there.
        best: Option<String>,
        /// Its line.
        pv: Vec<String>,
    },
    /// A position of the analysis board, as [`Request::Explore`] asked.
    Explored {
        /// How many of the game's moves.
        ply: usize,
        /// The variation's moves from there.
        moves: Vec<String>,
        /// The position text.
        fen: String,
        /// `query pieces`.
        pieces: Value,
        /// `query movepaths`.
        movepaths: Value,
        /// 1 or 2: whose turn it is.
        to_move: u8,
        /// Whether the game is over there (by the rules).
        game_over: bool,
    },
    /// A position [`Request::Explore`] asked for that is not there, and why
    /// (one line).
    ExploreRefused {
        /// How many of the game's moves.
        ply: usize,
        /// The variation's moves asked for.
        moves: Vec<String>,
        /// What was wrong, and where.
        message: String,
    },
    /// One line of an analysis: the engine's `info ... multipv <line>`.
    Analysis {
        /// The id of the [`Request::Analyse`].
        id: u32,
        /// Whose turn it is in the position searched (1 or 2).
        to_move: u8,
        /// Which line, best first (1: the best move's).
        line: u32,
        /// Completed depth.
        depth: Option<u32>,
        /// The score from the view of the side to move (`cp 35`, `win 3`).
        score: Option<String>,
        /// Nodes searched.
        nodes: Option<u64>,
        /// The line's moves.
        pv: Vec<String>,
    },
    /// An analysis ended: its time was up, it was `stopped`, or it could
    /// not run (`error`, one line).
    AnalysisDone {
        /// The id of the [`Request::Analyse`].
        id: u32,
        /// The engine's best move.
        best: Option<String>,
        /// Why it could not run, or failed.
        error: Option<String>,
        /// Whether the page stopped it (or asked for another).
        stopped: bool,
    },
    /// The review ended: every position searched, or `stopped` by the page,
    /// or an `error` of its engine.
    ReviewDone {
        /// What went wrong.
        error: Option<String>,
        /// Whether the page stopped it.
        stopped: bool,
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
#[derive(Clone, Debug, Serialize)]
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
    /// Whether the game is over, by the rules or by a [`Verdict`].
    pub game_over: bool,
    /// A result the rules did not decide (resignation, time), if any.
    pub verdict: Option<Verdict>,
    /// The time left per side, in ms (`null` for a side without a clock).
    pub clocks: [Option<i64>; 2],
    /// The side whose clock runs, if any.
    pub ticking: Option<u8>,
    /// Whether engine-against-engine play is held.
    pub paused: bool,
}

/// A result decided outside the rules.
#[derive(Clone, Debug, Serialize)]
pub struct Verdict {
    /// `p1win` or `p2win`.
    pub result: &'static str,
    /// `resignation` or `time`.
    pub reason: &'static str,
    /// The side that lost (1 or 2).
    pub loser: u8,
}

impl Verdict {
    /// The verdict a resumed game carries, if it makes sense.
    pub fn resumed(ended: &Ended) -> Result<Verdict, String> {
        let reason = match ended.reason.as_str() {
            "resignation" => "resignation",
            "time" => "time",
            other => {
                return Err(format!(
                    "a resumed game ends by resignation or time, not by '{other}'"
                ));
            }
        };
        let (result, loser) = match ended.result.as_str() {
            "p1win" => ("p1win", 2),
            "p2win" => ("p2win", 1),
            other => {
                return Err(format!("a resignation or a flag makes p1win or p2win, not '{other}'"));
            }
        };
        Ok(Verdict { result, reason, loser })
    }
}
