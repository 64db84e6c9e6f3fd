//! Messages from the GUI (or tournament manager) to the engine.

use std::fmt;
use std::str::FromStr;

use crate::error::quote;
use crate::{MoveToken, ParseError, PositionText};

/// One line the engine reads.
///
/// Keywords are matched case-insensitively; move and position texts keep
/// their case. Tokens a command does not know are ignored (as in UCI and Hub);
/// a missing or unreadable value is an error.
///
/// ```
/// use protocol::{GuiMessage, Query};
/// let msg: GuiMessage = "query islegal c4".parse().unwrap();
/// assert_eq!(msg, GuiMessage::Query(Query::IsLegal("c4".parse().unwrap())));
/// assert_eq!(msg.to_string(), "query islegal c4");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GuiMessage {
    /// `ugi`: identify and list the options, end with `ugiok`.
    Ugi,
    /// `uci`: the same as `ugi`, ended with `uciok`.
    Uci,
    /// `isready`: answer `readyok` (also during a search).
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option's name as the GUI wrote it.
        name: String,
        /// The value, if any (absent for buttons).
        value: Option<String>,
    },
    /// `uginewgame` (also read from `ucinewgame`).
    NewGame,
    /// `position startpos|fen <text> [moves <m> ...]`.
    Position {
        /// Where the moves start from.
        base: PositionBase,
        /// The moves played from there, as sent.
        moves: Vec<MoveToken>,
    },
    /// `go ...`: search the current position.
    Go(Go),
    /// `stop`: end the search now and answer its `bestmove`.
    Stop,
    /// `quit`: stop any search and end.
    Quit,
    /// `ponderhit` (UCI): the move pondered on was played; search it now
    /// under the clock of the `go ponder` that started it.
    PonderHit,
    /// `debug [on|off]` (UCI): accepted, changes nothing.
    Debug(bool),
    /// `register ...` (UCI): accepted, changes nothing (no registration).
    Register,
    /// `query ...`: a question answered with `response ...`.
    Query(Query),
    /// `d`: draw the board for people.
    Display,
    /// `perft <depth>`: count move paths like `igroteka perft`.
    Perft {
        /// The deepest count.
        depth: u32,
    },
    /// `bench [depth]`: search fixed positions to a fixed depth;
    /// `bench movetime <ms>`: search each for a fixed time and report the
    /// depth reached.
    Bench {
        /// The depth, or the default.
        depth: Option<u32>,
        /// Milliseconds per position instead of a depth.
        movetime: Option<u64>,
    },
}

/// The base of a `position` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionBase {
    /// `startpos`: the start position of the current variant.
    StartPos,
    /// `fen <text>`: a position text of the current game (may contain spaces).
    Fen(PositionText),
}

/// The parameters of `go`. Times are in milliseconds; a negative time is
/// read as zero. UCI's `wtime`, `btime`, `winc` and `binc` are read as
/// `p1time`, `p2time`, `p1inc` and `p2inc`: UCI's white moves first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// Player 1's clock.
    pub p1time: Option<u64>,
    /// Player 2's clock.
    pub p2time: Option<u64>,
    /// Player 1's increment per move.
    pub p1inc: Option<u64>,
    /// Player 2's increment per move.
    pub p2inc: Option<u64>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Exactly this long.
    pub movetime: Option<u64>,
    /// At most this many plies deep.
    pub depth: Option<u32>,
    /// At most this many nodes.
    pub nodes: Option<u64>,
    /// Until `stop`; the `bestmove` waits for it.
    pub infinite: bool,
    /// UCI's `ponder`: search as if infinite until `ponderhit` (then under
    /// the clock given here) or `stop`.
    pub ponder: bool,
    /// UCI's `mate <moves>`: look for a win in at most this many own moves.
    pub mate: Option<u32>,
    /// UCI's `searchmoves <m> ...`: only these moves at the root (the last
    /// parameter: every token after it is a move).
    pub searchmoves: Vec<MoveToken>,
}

/// A `query`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Query {
    /// `query gameover`: `response true|false`.
    GameOver,
    /// `query p1turn`: `response true|false`.
    P1Turn,
    /// `query result`: `response p1win|p2win|draw|none`.
    Result,
    /// `query score`: `response <p1> <p2>` or `response none`.
    Score,
    /// `query moves`: `response` and every legal move.
    Moves,
    /// `query islegal <move>`: `response true|false`. Exactly one move: a
    /// second word is an error, never ignored.
    IsLegal(MoveToken),
    /// `query fen`: `response <position text>`.
    Fen,
    /// `query board`: `response <json>`, the cells of the board and how to
    /// draw them (`docs/protocol.md`, `docs/board.schema.json`).
    Board,
    /// `query pieces`: `response <json>`, what stands where, reserves,
    /// captures, score, side to move and result.
    Pieces,
    /// `query movepaths`: `response <json>`, every legal move with the cells
    /// a person clicks to make it.
    MovePaths,
    /// `query rules`: `response <json string>`, the game's rules page for people,
    /// as Markdown (an extension for GUIs).
    Rules,
}

fn keyword(token: &str, word: &str) -> bool {
    token.eq_ignore_ascii_case(word)
}

fn number<T: FromStr>(command: &str, what: &str, token: Option<&str>) -> Result<T, ParseError> {
    let token = token.ok_or_else(|| ParseError::new(format!("{command}: {what} needs a value")))?;
    token
        .parse()
        .map_err(|_| ParseError::new(format!("{command}: bad value '{}' for {what}", quote(token))))
}

/// A time in milliseconds; negative values (a late GUI clock) count as zero.
fn millis(what: &str, token: Option<&str>) -> Result<u64, ParseError> {
    let ms: i64 = number("go", what, token)?;
    Ok(u64::try_from(ms).unwrap_or(0))
}

impl FromStr for GuiMessage {
    type Err = ParseError;

    fn from_str(line: &str) -> Result<Self, Self::Err> {
        let mut tokens = line.split_whitespace();
        let Some(command) = tokens.next() else {
            return Err(ParseError::new("empty line"));
        };
        let rest: Vec<&str> = tokens.collect();
        let lower = command.to_ascii_lowercase();
        Ok(match lower.as_str() {
            "ugi" => GuiMessage::Ugi,
            "uci" => GuiMessage::Uci,
            "isready" => GuiMessage::IsReady,
            "uginewgame" | "ucinewgame" => GuiMessage::NewGame,
            "stop" => GuiMessage::Stop,
            "quit" => GuiMessage::Quit,
            "ponderhit" => GuiMessage::PonderHit,
            "debug" => GuiMessage::Debug(!rest.first().is_some_and(|t| keyword(t, "off"))),
            "register" => GuiMessage::Register,
            "d" => GuiMessage::Display,
            "setoption" => parse_setoption(&rest)?,
            "position" => parse_position(&rest)?,
            "go" => GuiMessage::Go(parse_go(&rest)?),
            "query" => GuiMessage::Query(parse_query(&rest)?),
            "perft" => {
                GuiMessage::Perft { depth: number("perft", "depth", rest.first().copied())? }
            }
            "bench" => parse_bench(&rest)?,
            _ => return Err(ParseError::new(format!("unknown command '{}'", quote(command)))),
        })
    }
}

fn parse_bench(rest: &[&str]) -> Result<GuiMessage, ParseError> {
    Ok(match rest {
        ["movetime", ms @ ..] => GuiMessage::Bench {
            depth: None,
            movetime: Some(number("bench", "movetime", ms.first().copied())?),
        },
        _ => GuiMessage::Bench {
            depth: rest.first().map(|d| number("bench", "depth", Some(d))).transpose()?,
            movetime: None,
        },
    })
}

fn parse_setoption(rest: &[&str]) -> Result<GuiMessage, ParseError> {
    let name_at = rest
        .iter()
        .position(|t| keyword(t, "name"))
        .ok_or_else(|| ParseError::new("setoption: expected 'name <name> [value <value>]'"))?;
    let after_name = &rest[name_at + 1..];
    let value_at = after_name.iter().position(|t| keyword(t, "value"));
    let name_tokens = &after_name[..value_at.unwrap_or(after_name.len())];
    if name_tokens.is_empty() {
        return Err(ParseError::new("setoption: the option name is missing"));
    }
    let value = value_at.map(|at| after_name[at + 1..].join(" "));
    Ok(GuiMessage::SetOption { name: name_tokens.join(" "), value })
}

/// Every word as a move of `command`.
fn move_tokens(command: &str, words: &[&str]) -> Result<Vec<MoveToken>, ParseError> {
    words
        .iter()
        .map(|word| MoveToken::new(*word).map_err(|e| ParseError::new(format!("{command}: {e}"))))
        .collect()
}

fn parse_position(rest: &[&str]) -> Result<GuiMessage, ParseError> {
    let moves_at = rest.iter().position(|t| keyword(t, "moves"));
    let head = &rest[..moves_at.unwrap_or(rest.len())];
    let moves = match moves_at {
        Some(at) => move_tokens("position", &rest[at + 1..])?,
        None => Vec::new(),
    };
    let base = match head.first() {
        Some(t) if keyword(t, "startpos") => PositionBase::StartPos,
        Some(t) if keyword(t, "fen") => {
            if head.len() < 2 {
                return Err(ParseError::new("position: 'fen' needs a position text"));
            }
            PositionBase::Fen(
                PositionText::new(&head[1..].join(" "))
                    .map_err(|e| ParseError::new(format!("position: {e}")))?,
            )
        }
        Some(t) => {
            return Err(ParseError::new(format!(
                "position: expected 'startpos' or 'fen <text>', found '{}'",
                quote(t)
            )));
        }
        None => return Err(ParseError::new("position: expected 'startpos' or 'fen <text>'")),
    };
    Ok(GuiMessage::Position { base, moves })
}

fn parse_go(rest: &[&str]) -> Result<Go, ParseError> {
    let mut go = Go::default();
    let mut tokens = rest.iter().copied();
    while let Some(token) = tokens.next() {
        match token.to_ascii_lowercase().as_str() {
            // UCI's clock words: "white" is the side that moves first.
            word @ ("p1time" | "wtime") => go.p1time = Some(millis(word, tokens.next())?),
            word @ ("p2time" | "btime") => go.p2time = Some(millis(word, tokens.next())?),
            word @ ("p1inc" | "winc") => go.p1inc = Some(millis(word, tokens.next())?),
            word @ ("p2inc" | "binc") => go.p2inc = Some(millis(word, tokens.next())?),
            "movetime" => go.movetime = Some(millis("movetime", tokens.next())?),
            "movestogo" => go.movestogo = Some(number("go", "movestogo", tokens.next())?),
            "depth" => go.depth = Some(number("go", "depth", tokens.next())?),
            "nodes" => go.nodes = Some(number("go", "nodes", tokens.next())?),
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "mate" => go.mate = Some(number("go", "mate", tokens.next())?),
            "searchmoves" => {
                go.searchmoves =
                    move_tokens("go searchmoves", &tokens.by_ref().collect::<Vec<_>>())?;
            }
            _ => {}
        }
    }
    Ok(go)
}

fn parse_query(rest: &[&str]) -> Result<Query, ParseError> {
    let Some(what) = rest.first() else {
        return Err(ParseError::new(
            "query: expected gameover, p1turn, result, score, moves, islegal <move>, fen, board, \
             pieces or movepaths",
        ));
    };
    Ok(match what.to_ascii_lowercase().as_str() {
        "gameover" => Query::GameOver,
        "p1turn" => Query::P1Turn,
        "result" => Query::Result,
        "score" => Query::Score,
        "moves" => Query::Moves,
        "fen" => Query::Fen,
        "board" => Query::Board,
        "pieces" => Query::Pieces,
        "movepaths" => Query::MovePaths,
        "rules" => Query::Rules,
        "islegal" => match &rest[1..] {
            [mv] => Query::IsLegal(
                MoveToken::new(*mv).map_err(|e| ParseError::new(format!("query islegal: {e}")))?,
            ),
            [] => return Err(ParseError::new("query islegal: the move is missing")),
            words => {
                return Err(ParseError::new(format!(
                    "query islegal: expected one move, found {} words '{}'",
                    words.len(),
                    quote(&words.join(" "))
                )));
            }
        },
        _ => return Err(ParseError::new(format!("unknown query '{}'", quote(what)))),
    })
}

impl fmt::Display for GuiMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GuiMessage::Ugi => f.write_str("ugi"),
            GuiMessage::Uci => f.write_str("uci"),
            GuiMessage::IsReady => f.write_str("isready"),
            GuiMessage::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                match value {
                    Some(value) => write!(f, " value {value}"),
                    None => Ok(()),
                }
            }
            GuiMessage::NewGame => f.write_str("uginewgame"),
            GuiMessage::Position { base, moves } => {
                f.write_str("position ")?;
                match base {
                    PositionBase::StartPos => f.write_str("startpos")?,
                    PositionBase::Fen(text) => write!(f, "fen {text}")?,
                }
                if !moves.is_empty() {
                    f.write_str(" moves")?;
                    for mv in moves {
                        write!(f, " {mv}")?;
                    }
                }
                Ok(())
            }
            GuiMessage::Go(go) => write!(f, "{go}"),
            GuiMessage::Stop => f.write_str("stop"),
            GuiMessage::Quit => f.write_str("quit"),
            GuiMessage::PonderHit => f.write_str("ponderhit"),
            GuiMessage::Debug(on) => f.write_str(if *on { "debug on" } else { "debug off" }),
            GuiMessage::Register => f.write_str("register later"),
            GuiMessage::Query(query) => write!(f, "query {query}"),
            GuiMessage::Display => f.write_str("d"),
            GuiMessage::Perft { depth } => write!(f, "perft {depth}"),
            GuiMessage::Bench { depth: None, movetime: None } => f.write_str("bench"),
            GuiMessage::Bench { depth: Some(depth), movetime: None } => write!(f, "bench {depth}"),
            GuiMessage::Bench { movetime: Some(ms), .. } => write!(f, "bench movetime {ms}"),
        }
    }
}

impl fmt::Display for Go {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        let numbers = [
            ("p1time", self.p1time),
            ("p2time", self.p2time),
            ("p1inc", self.p1inc),
            ("p2inc", self.p2inc),
            ("movestogo", self.movestogo.map(u64::from)),
            ("movetime", self.movetime),
            ("depth", self.depth.map(u64::from)),
            ("nodes", self.nodes),
            ("mate", self.mate.map(u64::from)),
        ];
        for (name, value) in numbers {
            if let Some(value) = value {
                write!(f, " {name} {value}")?;
            }
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        if self.ponder {
            f.write_str(" ponder")?;
        }
        if !self.searchmoves.is_empty() {
            f.write_str(" searchmoves")?;
            for mv in &self.searchmoves {
                write!(f, " {mv}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for Query {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Query::GameOver => f.write_str("gameover"),
            Query::P1Turn => f.write_str("p1turn"),
            Query::Result => f.write_str("result"),
            Query::Score => f.write_str("score"),
            Query::Moves => f.write_str("moves"),
            Query::IsLegal(mv) => write!(f, "islegal {mv}"),
            Query::Fen => f.write_str("fen"),
            Query::Board => f.write_str("board"),
            Query::Pieces => f.write_str("pieces"),
            Query::MovePaths => f.write_str("movepaths"),
            Query::Rules => f.write_str("rules"),
        }
    }
}

#[cfg(test)]
mod tests {
    use pretty_assertions::assert_eq;

    use super::*;

    fn mv(text: &str) -> MoveToken {
        text.parse().unwrap()
    }

    fn round_trip(msg: GuiMessage) {
        let text = msg.to_string();
        assert_eq!(text.parse::<GuiMessage>(), Ok(msg), "{text}");
    }

    #[test]
    fn every_message_round_trips() {
        let messages = [
            GuiMessage::Ugi,
            GuiMessage::Uci,
            GuiMessage::IsReady,
            GuiMessage::SetOption { name: "Hash".into(), value: Some("32".into()) },
            GuiMessage::SetOption { name: "Clear Hash".into(), value: None },
            GuiMessage::SetOption { name: "Game".into(), value: Some("".into()) },
            GuiMessage::NewGame,
            GuiMessage::Position { base: PositionBase::StartPos, moves: vec![] },
            GuiMessage::Position {
                base: PositionBase::Fen("x..o..... x".parse().unwrap()),
                moves: vec![mv("c2"), mv("c4")],
            },
            GuiMessage::Go(Go::default()),
            GuiMessage::Go(Go {
                p1time: Some(1000),
                p2time: Some(0),
                p1inc: Some(10),
                p2inc: Some(10),
                movestogo: Some(5),
                movetime: Some(300),
                depth: Some(4),
                nodes: Some(10_000),
                infinite: true,
                ponder: false,
                mate: None,
                searchmoves: vec![],
            }),
            GuiMessage::Go(Go {
                ponder: true,
                mate: Some(3),
                searchmoves: vec![mv("c1"), mv("c2")],
                ..Go::default()
            }),
            GuiMessage::Stop,
            GuiMessage::Quit,
            GuiMessage::PonderHit,
            GuiMessage::Debug(true),
            GuiMessage::Debug(false),
            GuiMessage::Register,
            GuiMessage::Display,
            GuiMessage::Perft { depth: 3 },
            GuiMessage::Bench { depth: None, movetime: None },
            GuiMessage::Bench { depth: Some(2), movetime: None },
            GuiMessage::Bench { depth: None, movetime: Some(500) },
        ];
        for msg in messages {
            round_trip(msg);
        }
        for query in [
            Query::GameOver,
            Query::P1Turn,
            Query::Result,
            Query::Score,
            Query::Moves,
            Query::IsLegal(mv("pass")),
            Query::Fen,
            Query::Board,
            Query::Pieces,
            Query::MovePaths,
            Query::Rules,
        ] {
            round_trip(GuiMessage::Query(query));
        }
    }

    #[test]
    fn lenient_forms() {
        let parse = |s: &str| s.parse::<GuiMessage>();
        assert_eq!(parse("  UGINEWGAME  "), Ok(GuiMessage::NewGame));
        assert_eq!(parse("ucinewgame"), Ok(GuiMessage::NewGame));
        assert_eq!(parse("query MovePaths"), Ok(GuiMessage::Query(Query::MovePaths)));
        assert_eq!(parse("query board extra"), Ok(GuiMessage::Query(Query::Board)));
        assert_eq!(
            parse("go ponder p1time -20 depth 3"),
            Ok(GuiMessage::Go(Go {
                p1time: Some(0),
                depth: Some(3),
                ponder: true,
                ..Go::default()
            }))
        );
        assert_eq!(
            parse("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5"),
            Ok(GuiMessage::Go(Go {
                p1time: Some(1000),
                p2time: Some(2000),
                p1inc: Some(10),
                p2inc: Some(20),
                movestogo: Some(5),
                ..Go::default()
            }))
        );
        assert_eq!(
            parse("setoption name hash value 1"),
            Ok(GuiMessage::SetOption { name: "hash".into(), value: Some("1".into()) })
        );
        assert_eq!(
            parse("position startpos moves"),
            Ok(GuiMessage::Position { base: PositionBase::StartPos, moves: vec![] })
        );
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let error = |s: &str| s.parse::<GuiMessage>().unwrap_err().to_string();
        assert_eq!(error("flip"), "unknown command 'flip'");
        assert_eq!(error(""), "empty line");
        assert_eq!(error("go depth x"), "go: bad value 'x' for depth");
        assert_eq!(error("go nodes"), "go: nodes needs a value");
        assert_eq!(error("perft"), "perft: depth needs a value");
        assert_eq!(error("position"), "position: expected 'startpos' or 'fen <text>'");
        assert_eq!(error("position fen"), "position: 'fen' needs a position text");
        assert_eq!(error("query colour"), "unknown query 'colour'");
        assert_eq!(error("query islegal"), "query islegal: the move is missing");
        assert_eq!(error("query boards"), "unknown query 'boards'");
        assert_eq!(error("setoption Hash 3"), "setoption: expected 'name <name> [value <value>]'");
        assert_eq!(error("setoption name value 3"), "setoption: the option name is missing");
    }
}
