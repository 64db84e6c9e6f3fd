//! Messages from the engine to the GUI.

use std::fmt;
use std::str::FromStr;

use board_core::{Outcome, Player, Score};

use crate::error::quote;
use crate::token::NO_MOVE;
use crate::{MoveToken, ParseError};

/// One line the engine writes.
///
/// ```
/// use protocol::EngineMessage;
/// let msg: EngineMessage = "bestmove c4".parse().unwrap();
/// assert_eq!(msg, EngineMessage::BestMove(Some("c4".parse().unwrap())));
/// assert_eq!(EngineMessage::BestMove(None).to_string(), "bestmove (none)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineMessage {
    /// `id name <name>`.
    IdName(String),
    /// `id author <author>`.
    IdAuthor(String),
    /// `option name <name> type ...`: an option the engine declares.
    Option(OptionDecl),
    /// `ugiok`: the end of the answer to `ugi`.
    UgiOk,
    /// `uciok`: the end of the answer to `uci`.
    UciOk,
    /// `readyok`.
    ReadyOk,
    /// `info ...`: search progress.
    Info(SearchInfo),
    /// `info string <text>`: a note or an error (`info string error: ...`).
    InfoString(String),
    /// `bestmove <move>`, or `bestmove (none)` when the game is over. Always
    /// exactly two tokens.
    BestMove(Option<MoveToken>),
    /// `response <text>`: the answer to a `query`. The UGI queries answer one
    /// word; `query moves` answers a list (possibly empty: `response`).
    Response(String),
    /// `depth <d> nodes <n> time <ms> nps <n>`: one line of `perft`.
    Perft(Count),
    /// `bench depth <d> nodes <n> time <ms> nps <n>`: the total of `bench`.
    Bench(Count),
}

/// A count of nodes at a depth, and how fast it went (`perft`, `bench`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// The depth.
    pub depth: u32,
    /// Nodes counted or searched.
    pub nodes: u64,
    /// Milliseconds spent.
    pub time_ms: u64,
    /// Nodes per second.
    pub nps: u64,
}

/// What an `info` line carries; every field is optional on the wire.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// Completed depth.
    pub depth: Option<u32>,
    /// Deepest ply reached.
    pub seldepth: Option<u32>,
    /// Which line of a multi-line search (`MultiPV`) this is, best first:
    /// `multipv 1` is the best move's. Absent from one-line searches.
    pub multipv: Option<u32>,
    /// Value for the side to move: `cp <n>`, `win <plies>`, `loss <plies>`.
    pub score: Option<Score>,
    /// UCI's `score mate <moves>` (negative: mated), which engines speaking
    /// UCI send instead of `score win|loss <plies>`.
    pub mate: Option<i64>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Milliseconds spent.
    pub time_ms: Option<u64>,
    /// Principal variation, best move first.
    pub pv: Vec<MoveToken>,
}

impl SearchInfo {
    /// Whether this is the best line: no `multipv`, or `multipv 1`. The
    /// score and depth of a search are its best line's; the other lines of
    /// a `MultiPV` search are alternatives.
    ///
    /// ```
    /// use protocol::SearchInfo;
    /// assert!(SearchInfo::default().is_best_line());
    /// assert!(!SearchInfo { multipv: Some(2), ..SearchInfo::default() }.is_best_line());
    /// ```
    pub fn is_best_line(&self) -> bool {
        self.multipv.is_none_or(|line| line == 1)
    }

    /// The same line as a UCI GUI reads it: a proven result as `score mate
    /// <moves>` (a win in `n` plies is `mate (n + 1) / 2`, a loss in `n`
    /// plies `mate -(n / 2)`).
    ///
    /// ```
    /// use board_core::Score;
    /// use protocol::SearchInfo;
    /// let win = SearchInfo { score: Some(Score::Win(5)), ..SearchInfo::default() };
    /// assert_eq!(win.in_uci_mates().to_string(), "info score mate 3");
    /// let loss = SearchInfo { score: Some(Score::Loss(4)), ..SearchInfo::default() };
    /// assert_eq!(loss.in_uci_mates().to_string(), "info score mate -2");
    /// ```
    #[must_use]
    pub fn in_uci_mates(mut self) -> Self {
        let mate = match self.score {
            Some(Score::Win(plies)) => (i64::from(plies) + 1) / 2,
            Some(Score::Loss(plies)) => -(i64::from(plies) / 2),
            _ => return self,
        };
        self.score = None;
        self.mate = Some(mate);
        self
    }
}

#[cfg(feature = "engine")]
impl SearchInfo {
    /// The info line of a search's progress report.
    pub fn of(info: &search::Info<String>) -> Self {
        SearchInfo {
            mate: None,
            depth: Some(info.depth),
            seldepth: Some(info.seldepth),
            multipv: info.multipv,
            score: Some(info.score),
            nodes: Some(info.nodes),
            nps: Some(info.nps()),
            time_ms: Some(u64::try_from(info.time.as_millis()).unwrap_or(u64::MAX)),
            // A game's move texts are single words (the conformance suite
            // checks it); a line never carries one that is not.
            pv: info.pv.iter().map_while(|mv| MoveToken::new(mv.as_str()).ok()).collect(),
        }
    }
}

/// The word `query result` is answered with: `p1win`, `p2win`, `draw`, or
/// `none` while the game goes on.
///
/// ```
/// use board_core::{Outcome, Player};
/// assert_eq!(protocol::result_word(Some(Outcome::win(Player::Second, "mate"))), "p2win");
/// assert_eq!(protocol::result_word(None), "none");
/// ```
pub fn result_word(outcome: Option<Outcome>) -> &'static str {
    match outcome.map(|end| end.winner) {
        Some(Some(Player::First)) => "p1win",
        Some(Some(Player::Second)) => "p2win",
        Some(None) => "draw",
        None => "none",
    }
}

/// An option declaration: `option name <name> type <kind> ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    /// The name (may contain spaces in other engines; never in ours).
    pub name: String,
    /// The type, default and range.
    pub kind: OptionKind,
}

/// The type of an option, with its default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `type check default true|false`.
    Check {
        /// The default.
        default: bool,
    },
    /// `type spin default <n> min <n> max <n>`.
    Spin {
        /// The default.
        default: i64,
        /// The smallest value.
        min: i64,
        /// The largest value.
        max: i64,
    },
    /// `type combo default <v> var <v> ...`.
    Combo {
        /// The default.
        default: String,
        /// The allowed values.
        vars: Vec<String>,
    },
    /// `type string default <text>`.
    String {
        /// The default.
        default: String,
    },
    /// `type button`.
    Button,
}

impl FromStr for EngineMessage {
    type Err = ParseError;

    fn from_str(line: &str) -> Result<Self, Self::Err> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, rest)) = tokens.split_first() else {
            return Err(ParseError::new("empty line"));
        };
        Ok(match command {
            "id" => match rest.split_first() {
                Some((&"name", name)) => EngineMessage::IdName(name.join(" ")),
                Some((&"author", author)) => EngineMessage::IdAuthor(author.join(" ")),
                _ => return Err(ParseError::new("id: expected 'name' or 'author'")),
            },
            "option" => EngineMessage::Option(parse_option(rest)?),
            "ugiok" => EngineMessage::UgiOk,
            "uciok" => EngineMessage::UciOk,
            "readyok" => EngineMessage::ReadyOk,
            "info" => match rest.split_first() {
                Some((&"string", text)) => EngineMessage::InfoString(text.join(" ")),
                _ => EngineMessage::Info(parse_info(rest)?),
            },
            "bestmove" => match rest.first() {
                Some(&NO_MOVE) => EngineMessage::BestMove(None),
                Some(mv) => EngineMessage::BestMove(Some(
                    MoveToken::new(*mv).map_err(|e| ParseError::new(format!("bestmove: {e}")))?,
                )),
                None => return Err(ParseError::new("bestmove: the move is missing")),
            },
            // Verbatim: a JSON answer may hold runs of spaces inside its strings.
            "response" => EngineMessage::Response(
                line.trim()
                    .split_once(char::is_whitespace)
                    .map_or("", |(_, text)| text.trim())
                    .to_owned(),
            ),
            "depth" => EngineMessage::Perft(parse_count(&tokens)?),
            "bench" => EngineMessage::Bench(parse_count(rest)?),
            _ => {
                return Err(ParseError::new(format!(
                    "unknown engine message '{}'",
                    quote(command)
                )));
            }
        })
    }
}

fn value<T: FromStr>(what: &str, token: Option<&&str>) -> Result<T, ParseError> {
    let token = token.ok_or_else(|| ParseError::new(format!("{what} needs a value")))?;
    token.parse().map_err(|_| ParseError::new(format!("bad value '{}' for {what}", quote(token))))
}

fn parse_count(tokens: &[&str]) -> Result<Count, ParseError> {
    let field = |name: &str| {
        let at = tokens
            .iter()
            .position(|t| *t == name)
            .ok_or_else(|| ParseError::new(format!("'{name}' is missing")))?;
        value::<u64>(name, tokens.get(at + 1))
    };
    Ok(Count {
        depth: u32::try_from(field("depth")?)
            .map_err(|_| ParseError::new("depth is out of range"))?,
        nodes: field("nodes")?,
        time_ms: field("time")?,
        nps: field("nps")?,
    })
}

fn parse_info(rest: &[&str]) -> Result<SearchInfo, ParseError> {
    let mut info = SearchInfo::default();
    let mut i = 0;
    while let Some(&token) = rest.get(i) {
        let next = rest.get(i + 1);
        i += 2;
        match token {
            "depth" => info.depth = Some(value("depth", next)?),
            "seldepth" => info.seldepth = Some(value("seldepth", next)?),
            "multipv" => info.multipv = Some(value("multipv", next)?),
            "nodes" => info.nodes = Some(value("nodes", next)?),
            "nps" => info.nps = Some(value("nps", next)?),
            "time" => info.time_ms = Some(value("time", next)?),
            "score" => {
                let kind = next.ok_or_else(|| ParseError::new("score needs a value"))?;
                let n = rest.get(i);
                i += 1;
                if *kind == "mate" {
                    info.mate = Some(value("score mate", n)?);
                    continue;
                }
                info.score = Some(match *kind {
                    "cp" => Score::Cp(value("score cp", n)?),
                    "win" => Score::Win(value("score win", n)?),
                    "loss" => Score::Loss(value("score loss", n)?),
                    _ => {
                        return Err(ParseError::new(format!(
                            "unknown score kind '{}'",
                            quote(kind)
                        )));
                    }
                });
            }
            "pv" => {
                info.pv = rest[i - 1..]
                    .iter()
                    .map(|m| MoveToken::new(*m).map_err(|e| ParseError::new(format!("pv: {e}"))))
                    .collect::<Result<_, _>>()?;
                break;
            }
            _ => i -= 1,
        }
    }
    Ok(info)
}

fn parse_option(rest: &[&str]) -> Result<OptionDecl, ParseError> {
    let at = |word: &str| rest.iter().position(|t| *t == word);
    let (Some(name_at), Some(type_at)) = (at("name"), at("type")) else {
        return Err(ParseError::new("option: expected 'name <name> type <type> ...'"));
    };
    if type_at <= name_at + 1 {
        return Err(ParseError::new("option: the name is missing"));
    }
    let name = rest[name_at + 1..type_at].join(" ");
    let tail = &rest[type_at + 1..];
    let field = |word: &str| {
        let at = tail.iter().position(|t| *t == word)?;
        let end = tail[at + 1..]
            .iter()
            .position(|t| ["default", "min", "max", "var"].contains(t))
            .map_or(tail.len(), |n| at + 1 + n);
        Some(tail[at + 1..end].join(" "))
    };
    let spin = |word: &str| -> Result<i64, ParseError> {
        let text = field(word).ok_or_else(|| ParseError::new(format!("option: no {word}")))?;
        text.parse().map_err(|_| ParseError::new(format!("option: bad {word} '{}'", quote(&text))))
    };
    let kind = match tail.first().copied() {
        Some("check") => OptionKind::Check {
            default: match field("default").as_deref() {
                Some("true") => true,
                Some("false") => false,
                _ => return Err(ParseError::new("option: check default must be true or false")),
            },
        },
        Some("spin") => {
            OptionKind::Spin { default: spin("default")?, min: spin("min")?, max: spin("max")? }
        }
        Some("combo") => OptionKind::Combo {
            default: field("default").unwrap_or_default(),
            vars: tail
                .iter()
                .enumerate()
                .filter(|(_, t)| **t == "var")
                .filter_map(|(i, _)| tail.get(i + 1).map(|v| (*v).to_owned()))
                .collect(),
        },
        Some("string") => OptionKind::String { default: field("default").unwrap_or_default() },
        Some("button") => OptionKind::Button,
        other => {
            return Err(ParseError::new(format!(
                "option: unknown type '{}'",
                quote(other.unwrap_or_default())
            )));
        }
    };
    Ok(OptionDecl { name, kind })
}

impl fmt::Display for EngineMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineMessage::IdName(name) => write!(f, "id name {name}"),
            EngineMessage::IdAuthor(author) => write!(f, "id author {author}"),
            EngineMessage::Option(decl) => write!(f, "{decl}"),
            EngineMessage::UgiOk => f.write_str("ugiok"),
            EngineMessage::UciOk => f.write_str("uciok"),
            EngineMessage::ReadyOk => f.write_str("readyok"),
            EngineMessage::Info(info) => write!(f, "{info}"),
            EngineMessage::InfoString(text) => write!(f, "info string {text}"),
            EngineMessage::BestMove(mv) => {
                write!(f, "bestmove {}", mv.as_deref().unwrap_or(NO_MOVE))
            }
            EngineMessage::Response(text) if text.is_empty() => f.write_str("response"),
            EngineMessage::Response(text) => write!(f, "response {text}"),
            EngineMessage::Perft(count) => write!(f, "{count}"),
            EngineMessage::Bench(count) => write!(f, "bench {count}"),
        }
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "depth {} nodes {} time {} nps {}",
            self.depth, self.nodes, self.time_ms, self.nps
        )
    }
}

impl fmt::Display for SearchInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        let numbers = [
            ("depth", self.depth.map(u64::from)),
            ("seldepth", self.seldepth.map(u64::from)),
            ("multipv", self.multipv.map(u64::from)),
        ];
        for (name, value) in numbers {
            if let Some(value) = value {
                write!(f, " {name} {value}")?;
            }
        }
        if let Some(score) = self.score {
            write!(f, " score {score}")?;
        }
        if let Some(mate) = self.mate {
            write!(f, " score mate {mate}")?;
        }
        for (name, value) in [("nodes", self.nodes), ("nps", self.nps), ("time", self.time_ms)] {
            if let Some(value) = value {
                write!(f, " {name} {value}")?;
            }
        }
        if !self.pv.is_empty() {
            f.write_str(" pv")?;
            for mv in &self.pv {
                write!(f, " {mv}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for OptionDecl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                vars.iter().try_for_each(|v| write!(f, " var {v}"))
            }
            OptionKind::String { default } => write!(f, "string default {default}"),
            OptionKind::Button => f.write_str("button"),
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

    #[test]
    fn every_message_round_trips() {
        let count = Count { depth: 3, nodes: 252, time_ms: 1, nps: 252_000 };
        let messages = [
            EngineMessage::IdName("Igroteka 0.1".into()),
            EngineMessage::IdAuthor("Igroteka developers".into()),
            EngineMessage::Option(OptionDecl {
                name: "Hash".into(),
                kind: OptionKind::Spin { default: 16, min: 1, max: 1024 },
            }),
            EngineMessage::Option(OptionDecl {
                name: "Engine".into(),
                kind: OptionKind::Combo {
                    default: "alphabeta".into(),
                    vars: vec!["alphabeta".into(), "mcts".into(), "random".into()],
                },
            }),
            EngineMessage::Option(OptionDecl {
                name: "Ponder".into(),
                kind: OptionKind::Check { default: false },
            }),
            EngineMessage::Option(OptionDecl {
                name: "Book File".into(),
                kind: OptionKind::String { default: "a b.bin".into() },
            }),
            EngineMessage::Option(OptionDecl {
                name: "Clear Hash".into(),
                kind: OptionKind::Button,
            }),
            EngineMessage::UgiOk,
            EngineMessage::UciOk,
            EngineMessage::ReadyOk,
            EngineMessage::Info(SearchInfo::default()),
            EngineMessage::Info(SearchInfo {
                depth: Some(3),
                seldepth: Some(5),
                multipv: Some(2),
                score: Some(Score::Cp(-12)),
                nodes: Some(1234),
                nps: Some(500_000),
                time_ms: Some(2),
                pv: vec![mv("c4"), mv("c0")],
                mate: None,
            }),
            EngineMessage::Info(SearchInfo { mate: Some(-2), ..SearchInfo::default() }),
            EngineMessage::Info(SearchInfo { score: Some(Score::Win(3)), ..SearchInfo::default() }),
            EngineMessage::Info(SearchInfo {
                score: Some(Score::Loss(4)),
                ..SearchInfo::default()
            }),
            EngineMessage::InfoString("error: unknown command 'x'".into()),
            EngineMessage::BestMove(Some(mv("pass"))),
            EngineMessage::BestMove(None),
            EngineMessage::Response("true".into()),
            EngineMessage::Response("c0 c1 c2".into()),
            EngineMessage::Response(r#"{"reason":"two  spaces","x":1}"#.into()),
            EngineMessage::Response(String::new()),
            EngineMessage::Perft(count),
            EngineMessage::Bench(count),
        ];
        for msg in messages {
            let text = msg.to_string();
            assert_eq!(text.parse::<EngineMessage>(), Ok(msg), "{text}");
        }
    }

    #[test]
    fn foreign_tokens_are_skipped() {
        let info: EngineMessage =
            "info depth 2 multipv 1 hashfull 3 score cp 5 pv a b".parse().unwrap();
        assert_eq!(
            info,
            EngineMessage::Info(SearchInfo {
                depth: Some(2),
                multipv: Some(1),
                score: Some(Score::Cp(5)),
                pv: vec![mv("a"), mv("b")],
                ..SearchInfo::default()
            })
        );
        assert_eq!(
            "bestmove c4 ponder c5".parse::<EngineMessage>(),
            Ok(EngineMessage::BestMove(Some(mv("c4"))))
        );
    }

    #[test]
    fn multipv_is_written_after_the_depths() {
        let line = SearchInfo {
            depth: Some(4),
            seldepth: Some(6),
            multipv: Some(3),
            score: Some(Score::Cp(7)),
            pv: vec![mv("c4")],
            ..SearchInfo::default()
        };
        assert_eq!(line.to_string(), "info depth 4 seldepth 6 multipv 3 score cp 7 pv c4");
        let one_line = SearchInfo { multipv: None, ..line };
        assert_eq!(one_line.to_string(), "info depth 4 seldepth 6 score cp 7 pv c4");
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let error = |s: &str| s.parse::<EngineMessage>().unwrap_err().to_string();
        assert_eq!(error("hello"), "unknown engine message 'hello'");
        assert_eq!(error("bestmove"), "bestmove: the move is missing");
        assert_eq!(error("info score mate x"), "bad value 'x' for score mate");
        assert_eq!(error("info score lead 3"), "unknown score kind 'lead'");
        assert_eq!(error("info depth x"), "bad value 'x' for depth");
        assert_eq!(error("info depth 3 multipv"), "multipv needs a value");
        assert_eq!(error("info multipv -1"), "bad value '-1' for multipv");
        assert_eq!(error("option name Hash type spin default 1"), "option: no min");
    }
}
