//! Engines and limits as given on the command line: `key=value` tokens.

use std::fmt;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use search::EngineKind;

/// A clock: base time and increment per move, in milliseconds, and
/// optionally moves per period.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time on the clock at the start (and, with `moves`, added again at
    /// the start of every period).
    pub base_ms: u64,
    /// Time added after each move.
    pub inc_ms: u64,
    /// Moves per period (`40/60+0.6`): every `moves` moves of a player,
    /// `base_ms` is added to its clock; `None`: the whole game is one
    /// period.
    pub moves: Option<u32>,
}

impl TimeControl {
    /// Reads the form cutechess-cli and fastchess take:
    /// `[moves/]base[+inc]`, base and increment in seconds, the base also as
    /// `minutes:seconds` (`10+0.1`, `60`, `40/60+0.6`, `40/1:30`).
    ///
    /// # Errors
    /// When the text is not of that form.
    pub fn parse(text: &str) -> Result<Self> {
        let bad = || format!("bad tc '{text}' (BASE, BASE+INC or MOVES/BASE+INC; seconds)");
        let (moves, clock) = match text.split_once('/') {
            Some((moves, clock)) => {
                let moves: u32 = moves
                    .trim()
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .with_context(|| format!("'{moves}' is not a number of moves (1 or more)"))
                    .with_context(bad)?;
                (Some(moves), clock)
            }
            None => (None, text),
        };
        let (base, inc) = clock.split_once('+').unwrap_or((clock, "0"));
        let base_ms = match base.split_once(':') {
            Some((minutes, seconds)) => {
                let minutes: u64 = minutes
                    .trim()
                    .parse()
                    .ok()
                    .filter(|&m| m <= 1_000_000)
                    .with_context(|| format!("'{minutes}' is not whole minutes"))
                    .with_context(bad)?;
                seconds_to_ms(seconds).with_context(bad)? + minutes * 60_000
            }
            None => seconds_to_ms(base).with_context(bad)?,
        };
        Ok(TimeControl { base_ms, inc_ms: seconds_to_ms(inc).with_context(bad)?, moves })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(moves) = self.moves {
            write!(f, "{moves}/")?;
        }
        write!(f, "{}+{}", self.base_ms as f64 / 1000.0, self.inc_ms as f64 / 1000.0)
    }
}

fn seconds_to_ms(text: &str) -> Result<u64> {
    let secs: f64 = text.trim().parse().with_context(|| format!("'{text}' is not seconds"))?;
    if !(0.0..=1e9).contains(&secs) {
        bail!("'{text}' is out of range");
    }
    Ok((secs * 1000.0).round() as u64)
}

/// What one engine may spend per move. Several limits may be combined; the
/// engine stops at the first one reached.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limit {
    /// A clock (`tc=base+inc`).
    pub tc: Option<TimeControl>,
    /// A fixed time per move in milliseconds (`movetime=MS`).
    pub movetime_ms: Option<u64>,
    /// A depth (`depth=N`).
    pub depth: Option<u32>,
    /// Nodes, or iterations for MCTS (`nodes=N`, `iterations=N`).
    pub nodes: Option<u64>,
}

impl Limit {
    /// Whether no limit is set.
    pub fn is_empty(&self) -> bool {
        *self == Limit::default()
    }

    /// This limit's fields, with `fallback`'s where this one has none.
    #[must_use]
    pub fn or(self, fallback: Limit) -> Limit {
        Limit {
            tc: self.tc.or(fallback.tc),
            movetime_ms: self.movetime_ms.or(fallback.movetime_ms),
            depth: self.depth.or(fallback.depth),
            nodes: self.nodes.or(fallback.nodes),
        }
    }

    /// Reads one `key=value` limit token into `self`; `false` if `key` is no limit.
    fn set(&mut self, key: &str, value: &str) -> Result<bool> {
        match key {
            "tc" => self.tc = Some(TimeControl::parse(value)?),
            "movetime" => self.movetime_ms = Some(parse_number(key, value)?),
            "depth" => self.depth = Some(parse_number(key, value)?),
            "nodes" | "iterations" => self.nodes = Some(parse_number(key, value)?),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Reads `--each` tokens.
    ///
    /// # Errors
    /// An unknown key or a bad value.
    pub fn parse_tokens(tokens: &[String]) -> Result<Limit> {
        let mut limit = Limit::default();
        for token in tokens {
            let (key, value) = split_token(token)?;
            if key == "timemargin" {
                bail!(
                    "--each: timemargin= is per engine (--engine ... timemargin=MS); for every engine, --timemargin MS"
                );
            }
            if !limit.set(key, value)? {
                bail!("--each: unknown key '{key}' (tc, movetime, depth, nodes)");
            }
        }
        Ok(limit)
    }
}

/// `tc=10+0.1 movetime=100 depth=4 nodes=1000`, the set ones only.
impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if let Some(tc) = self.tc {
            parts.push(format!("tc={tc}"));
        }
        if let Some(ms) = self.movetime_ms {
            parts.push(format!("movetime={ms}"));
        }
        if let Some(depth) = self.depth {
            parts.push(format!("depth={depth}"));
        }
        if let Some(nodes) = self.nodes {
            parts.push(format!("nodes={nodes}"));
        }
        f.write_str(&parts.join(" "))
    }
}

/// Reads a size in bytes: a number, optionally followed by `K`, `M` or `G`
/// (KiB, MiB, GiB); `0` is no limit ([`u64::MAX`]).
///
/// # Errors
/// Any other text, in words (for clap).
pub(crate) fn parse_bytes(text: &str) -> std::result::Result<u64, String> {
    let text = text.trim();
    let (number, shift) = match text.char_indices().last() {
        Some((i, 'k' | 'K')) => (&text[..i], 10),
        Some((i, 'm' | 'M')) => (&text[..i], 20),
        Some((i, 'g' | 'G')) => (&text[..i], 30),
        _ => (text, 0),
    };
    let bytes =
        number.trim().parse::<u64>().ok().and_then(|n| n.checked_mul(1 << shift)).ok_or_else(
            || format!("'{text}' is not a size in bytes (16777216, 64K, 16M, 1G; 0: no limit)"),
        )?;
    Ok(if bytes == 0 { u64::MAX } else { bytes })
}

fn parse_number<T: std::str::FromStr>(key: &str, value: &str) -> Result<T> {
    value.trim().parse().ok().with_context(|| format!("{key}={value}: not a non-negative number"))
}

fn split_token(token: &str) -> Result<(&str, &str)> {
    token.split_once('=').with_context(|| format!("'{token}' is not key=value"))
}

/// How an engine is started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Program {
    /// `igroteka engine` with this built-in player.
    Builtin(EngineKind),
    /// Any program speaking the protocol: the program and its arguments.
    External(Vec<String>),
}

/// One engine of the tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Its unique name in tables and records.
    pub name: String,
    /// How to start it.
    pub program: Program,
    /// Working directory (`dir=`).
    pub dir: Option<PathBuf>,
    /// `setoption` pairs (`option.Hash=64`), in the order given.
    pub options: Vec<(String, String)>,
    /// Its own limits (the `--each` ones fill the gaps).
    pub limit: Limit,
    /// Milliseconds it may overrun its time before it forfeits
    /// (`timemargin=MS`); `None`: the tournament's `--timemargin`.
    pub time_margin: Option<u64>,
}

impl EngineSpec {
    /// The engine in the tournament fingerprint's defined encoding: a JSON
    /// array of its name, its program (`["builtin", kind]` or the command's
    /// words), its directory (or `null`), its options as `[name, value]`
    /// pairs in order, and its limit as `--each` prints it. Unlike `Debug`
    /// output, it changes only when what the engine is changes.
    pub fn canonical(&self) -> String {
        let program = match &self.program {
            Program::Builtin(kind) => serde_json::json!(["builtin", kind.name()]),
            Program::External(words) => serde_json::json!(words),
        };
        let dir = self.dir.as_ref().map(|d| d.to_string_lossy().into_owned());
        let mut fields =
            serde_json::json!([self.name, program, dir, self.options, self.limit.to_string()]);
        // Only when given, so that engines without one keep their encoding.
        if let (Some(margin), Some(fields)) = (self.time_margin, fields.as_array_mut()) {
            fields.push(serde_json::json!({ "timemargin": margin }));
        }
        fields.to_string()
    }

    /// The built-in player `kind`, named after it.
    pub fn builtin(kind: EngineKind) -> Self {
        EngineSpec {
            name: kind.name().to_owned(),
            program: Program::Builtin(kind),
            dir: None,
            options: Vec::new(),
            limit: Limit::default(),
            time_margin: None,
        }
    }

    /// Reads the tokens of one `--engine` flag:
    /// `name=A cmd="./e --flag" | builtin=mcts`, `dir=D`, `option.N=V`, limits.
    ///
    /// # Errors
    /// A token that is not `key=value`, an unknown key or a bad value, no
    /// program or two of them.
    pub fn parse_tokens(tokens: &[String]) -> Result<Self> {
        let mut name = None;
        let mut program = None;
        let mut dir = None;
        let mut options = Vec::new();
        let mut limit = Limit::default();
        let mut time_margin = None;
        for token in tokens {
            let (key, value) = split_token(token)?;
            let new_program = match key {
                "timemargin" => {
                    time_margin = Some(parse_number(key, value)?);
                    None
                }
                "name" => {
                    name = Some(value.to_owned());
                    None
                }
                "cmd" => {
                    let words = split_command(value)?;
                    if words.is_empty() {
                        bail!("cmd= is empty");
                    }
                    Some(Program::External(words))
                }
                "builtin" => Some(Program::Builtin(value.parse()?)),
                "dir" => {
                    dir = Some(PathBuf::from(value));
                    None
                }
                _ => {
                    if let Some(option) = key.strip_prefix("option.") {
                        options.push((option.to_owned(), value.to_owned()));
                    } else if !limit.set(key, value)? {
                        bail!(
                            "--engine: unknown key '{key}' \
                             (name, cmd, builtin, dir, option.NAME, tc, movetime, depth, nodes, \
                             timemargin)"
                        );
                    }
                    None
                }
            };
            if let Some(p) = new_program {
                if program.is_some() {
                    bail!("--engine: give one of cmd= and builtin=, once");
                }
                program = Some(p);
            }
        }
        let program = program.context("--engine needs cmd=COMMAND or builtin=KIND")?;
        let name = match name {
            Some(name) if !name.trim().is_empty() => name,
            Some(_) => bail!("--engine: empty name"),
            None => match &program {
                Program::Builtin(kind) => kind.name().to_owned(),
                Program::External(words) => words[0].clone(),
            },
        };
        Ok(EngineSpec { name, program, dir, options, limit, time_margin })
    }
}

/// Splits a command line like a POSIX shell does for words: blanks separate,
/// `'...'` is literal, `"..."` allows `\"` and `\\`, a backslash outside quotes
/// escapes the next character.
///
/// # Errors
/// An unterminated quote or a trailing backslash.
pub fn split_command(text: &str) -> Result<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => bail!("unterminated ' in '{text}'"),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => bail!("unterminated \" in '{text}'"),
                        },
                        Some(c) => word.push(c),
                        None => bail!("unterminated \" in '{text}'"),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.push(chars.next().with_context(|| format!("trailing \\ in '{text}'"))?);
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}
