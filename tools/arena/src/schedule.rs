//! Who plays whom, in which order, from which opening; shards of the schedule.

use std::fmt;

use anyhow::{Context, Result, bail};
use board_core::{GameRecord, Rng};
use search::{GameEntry, SearchGame};
use serde::{Deserialize, Serialize};

use crate::book::Book;
use crate::movetext::read_movetext;

/// How many bytes of an openings file may be read per opening a tournament
/// needs (64 KiB), beyond a first 1 MiB for comments: plenty for any real
/// book, and a bound on a file of endless blank lines.
pub const OPENING_BYTES: u64 = 64 << 10;

/// The most bytes of an openings file read to find `wanted` openings.
pub fn openings_budget(wanted: u32) -> u64 {
    (u64::from(wanted) + 16) * OPENING_BYTES
}

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fixture {
    /// Index in the whole (unsharded) schedule, from 0.
    pub id: u64,
    /// Round, from 1.
    pub round: u32,
    /// The pair of games this game belongs to: games `2k` and `2k + 1` of
    /// an encounter (so `id / 2` with the default two games per encounter;
    /// with an odd `--games`, an encounter's last game is a pair alone).
    pub pair: u64,
    /// Engine index playing first.
    pub p1: usize,
    /// Engine index playing second.
    pub p2: usize,
}

/// The encounters of one round: every pair of engines (round-robin) or the
/// first engine against each other one (gauntlet), in a fixed order.
pub fn encounters(engines: usize, gauntlet: bool) -> Vec<(usize, usize)> {
    if gauntlet {
        (1..engines).map(|j| (0, j)).collect()
    } else {
        (0..engines).flat_map(|i| (i + 1..engines).map(move |j| (i, j))).collect()
    }
}

/// The default schedule: per round, per encounter, two games with colours
/// swapped (the first-listed engine plays first in the first game).
pub fn schedule(engines: usize, rounds: u32, gauntlet: bool) -> Vec<Fixture> {
    Pairing {
        engines: (0..engines).map(|i| i.to_string()).collect(),
        rounds,
        gauntlet,
        ..Pairing::default()
    }
    .fixtures()
}

/// The default number of games per encounter and round (`--games`).
pub const GAMES_PER_ENCOUNTER: u32 = 2;

fn is_default_games(games: &u32) -> bool {
    *games == GAMES_PER_ENCOUNTER
}

fn default_games() -> u32 {
    GAMES_PER_ENCOUNTER
}

/// Who plays whom: what the schedule is made of, written in every record so
/// that `merge` can rebuild the schedule and check each game's engines and
/// round, and find the games missing, without the command line. The fields
/// of `--games`, `--noswap` and `--reverse` are written only when they are
/// not the default, so records of the default schedule read as before.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    /// The engines' names, in the order given (engine 1 first).
    pub engines: Vec<String>,
    /// Rounds.
    pub rounds: u32,
    /// Engine 1 plays each other one, instead of a round-robin.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub gauntlet: bool,
    /// Games per encounter and round (`--games`, default 2), all from the
    /// round's opening.
    #[serde(default = "default_games", skip_serializing_if = "is_default_games")]
    pub games: u32,
    /// Colours are not swapped between the games of an encounter (`--noswap`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub noswap: bool,
    /// The second-listed engine of each encounter plays first where it
    /// would play second, and the other way round (`--reverse`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reverse: bool,
}

impl Default for Pairing {
    /// No engines, one round, a round-robin of two games per encounter.
    fn default() -> Self {
        Pairing {
            engines: Vec::new(),
            rounds: 1,
            gauntlet: false,
            games: GAMES_PER_ENCOUNTER,
            noswap: false,
            reverse: false,
        }
    }
}

impl Pairing {
    /// The whole (unsharded) schedule.
    pub fn fixtures(&self) -> Vec<Fixture> {
        let encounters = encounters(self.engines.len(), self.gauntlet);
        let mut fixtures = Vec::new();
        let mut pair = 0;
        for round in 1..=self.rounds {
            for &(a, b) in &encounters {
                for g in 0..self.games {
                    let swapped = (!self.noswap && g % 2 == 1) != self.reverse;
                    let (p1, p2) = if swapped { (b, a) } else { (a, b) };
                    fixtures.push(Fixture { id: fixtures.len() as u64, round, pair, p1, p2 });
                    if g % 2 == 1 || g + 1 == self.games {
                        pair += 1;
                    }
                }
            }
        }
        fixtures
    }

    /// The encounters of one round.
    fn encounters_per_round(&self) -> u64 {
        let n = self.engines.len() as u64;
        if self.gauntlet { n.saturating_sub(1) } else { n * n.saturating_sub(1) / 2 }
    }

    /// The number of games of the whole schedule.
    pub fn games(&self) -> u64 {
        self.encounters_per_round()
            .saturating_mul(u64::from(self.games))
            .saturating_mul(u64::from(self.rounds))
    }

    /// Game `id` of the whole schedule (as [`Pairing::fixtures`] has it),
    /// found without making the schedule; `None` past its end. Game `g` of
    /// an encounter of engines `a` and `b` (`a` listed first) has `a` first
    /// when `g` is even, `b` when it is odd; `--noswap` keeps `a` first in
    /// every game, `--reverse` swaps the colours of every game.
    pub fn fixture(&self, id: u64) -> Option<Fixture> {
        if id >= self.games() {
            return None;
        }
        let games = u64::from(self.games);
        let per_round = self.encounters_per_round();
        let (encounter, g) = (id / games, id % games);
        let round = u32::try_from(encounter / per_round + 1).ok()?;
        let mut k = (encounter % per_round) as usize;
        let n = self.engines.len();
        let (a, b) = if self.gauntlet {
            (0, k + 1)
        } else {
            let mut a = 0;
            while k >= n - 1 - a {
                k -= n - 1 - a;
                a += 1;
            }
            (a, a + 1 + k)
        };
        let swapped = (!self.noswap && g % 2 == 1) != self.reverse;
        let (p1, p2) = if swapped { (b, a) } else { (a, b) };
        let pair = encounter * games.div_ceil(2) + g / 2;
        Some(Fixture { id, round, pair, p1, p2 })
    }

    /// The schedule's settings beyond engines, rounds and gauntlet, in
    /// words for the tournament's description: empty for the default.
    pub fn games_text(&self) -> String {
        let mut text = String::new();
        if self.games != GAMES_PER_ENCOUNTER {
            text.push_str(&format!(" games={}", self.games));
        }
        if self.noswap {
            text.push_str(" noswap");
        }
        if self.reverse {
            text.push_str(" reverse");
        }
        text
    }
}

/// A slice `index` of `count` (1-based, as on the command line `--shard i/n`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, 1..=count.
    pub index: u64,
    /// How many slices.
    pub count: u64,
}

impl Shard {
    /// Reads `i/n` with `1 <= i <= n`.
    ///
    /// # Errors
    /// Any other text.
    pub fn parse(text: &str) -> Result<Shard> {
        let parsed = text
            .split_once('/')
            .and_then(|(i, n)| Some((i.trim().parse().ok()?, n.trim().parse().ok()?)));
        match parsed {
            Some((index, count)) if index >= 1 && index <= count => Ok(Shard { index, count }),
            _ => bail!("--shard '{text}': expected i/n with 1 <= i <= n"),
        }
    }

    /// Whether the fixture belongs to this shard: pairs are dealt round the
    /// shards in turn, so both games of a pair stay together.
    pub fn contains(&self, fixture: &Fixture) -> bool {
        fixture.pair % self.count == self.index - 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Where a game starts: a position (or the start) and moves played from it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Opening {
    /// The base position text, `None` for the start position.
    pub fen: Option<String>,
    /// Moves from the base position, in canonical notation.
    pub moves: Vec<String>,
}

impl Opening {
    /// The base position.
    ///
    /// # Errors
    /// A bad variant or position text.
    pub fn base(&self, entry: &GameEntry, variant: &str) -> Result<Box<dyn SearchGame>> {
        Ok(match &self.fen {
            None => entry.start(variant).map_err(|e| anyhow::anyhow!("{e}"))?,
            Some(text) => entry.from_text(text, variant).map_err(|e| anyhow::anyhow!("{e}"))?,
        })
    }

    /// The game record of the opening: its base, its moves, the ply cap
    /// (counted from the base, 0: none).
    ///
    /// # Errors
    /// A bad base position, an illegal move, or a move after the end.
    pub fn record(
        &self,
        entry: &GameEntry,
        variant: &str,
        max_plies: u32,
    ) -> Result<GameRecord<dyn SearchGame>> {
        let mut record = GameRecord::new(self.base(entry, variant)?, max_plies);
        for mv in &self.moves {
            record.play(mv).map_err(|e| anyhow::anyhow!("opening {e}"))?;
        }
        Ok(record)
    }

    /// The position after the opening moves.
    ///
    /// # Errors
    /// A bad base position or an illegal move.
    pub fn position(&self, entry: &GameEntry, variant: &str) -> Result<Box<dyn SearchGame>> {
        Ok(self.record(entry, variant, 0)?.position().clone_search())
    }
}

/// `startpos` or `fen <text>`, then `moves ...` if any: the protocol's form.
impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.fen {
            None => f.write_str("startpos")?,
            Some(text) => write!(f, "fen {text}")?,
        }
        if !self.moves.is_empty() {
            write!(f, " moves {}", self.moves.join(" "))?;
        }
        Ok(())
    }
}

/// Whether `line` is a PGN tag pair (`[Event "..."]`), which would
/// otherwise read as an empty move list: the start position.
pub(crate) fn is_pgn_tag(line: &str) -> bool {
    line.strip_prefix('[').and_then(|rest| rest.strip_suffix(']')).is_some_and(|inner| {
        inner.split_once(char::is_whitespace).is_some_and(|(name, value)| {
            !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && value.trim().starts_with('"')
        })
    })
}

/// Where openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// Every game from the start position.
    Start,
    /// `plies` random legal plies from the start, seeded per round.
    Random {
        /// How many plies.
        plies: u32,
    },
    /// A list read from a file, used in turn, one per round.
    List(Vec<Opening>),
}

impl Openings {
    /// Reads `random:P` or `file=F` (lines: a move list from the start, or a
    /// position text; blank lines and `#` comments skipped). A file is read
    /// line by line and only as far as its first `wanted` openings (the
    /// tournament's rounds: later lines are never used), and at most
    /// [`openings_budget`]`(wanted)` bytes of it, so an endless or huge file
    /// can neither fill the memory nor keep the arena reading.
    ///
    /// # Errors
    /// Bad syntax, an unreadable file, a line that is neither form, a file
    /// that gives too few openings within the limit.
    pub fn parse(text: &str, entry: &GameEntry, variant: &str, wanted: u32) -> Result<Openings> {
        Openings::parse_tokens(&[text.to_owned()], entry, variant, wanted, 0)
    }

    /// Reads the tokens of `--openings`: `random:P`, or `file=F` followed
    /// by `format=epd|pgn`, `order=sequential|random` (shuffled with
    /// `seed`), `plies=N` (each opening cut after N plies) and `start=N`
    /// (the book's N-th opening first, from 1), as fastchess reads them.
    /// Without `format=`, as [`Openings::parse`]; `epd`: one position text
    /// per line; `pgn`: game records, tags and `[FEN]` honoured.
    ///
    /// # Errors
    /// As [`Openings::parse`]; an unknown key, a bad value, a record that
    /// is not a game of `entry`'s `variant`.
    pub fn parse_tokens(
        tokens: &[String],
        entry: &GameEntry,
        variant: &str,
        wanted: u32,
        seed: u64,
    ) -> Result<Openings> {
        let Some((first, keys)) = tokens.split_first() else {
            bail!("--openings: expected random:PLIES or file=PATH");
        };
        if let Some(plies) = first.strip_prefix("random:") {
            if let Some(key) = keys.first() {
                bail!("--openings {first}: '{key}' goes with file= only");
            }
            let plies = plies.trim().parse().with_context(|| format!("--openings {first}"))?;
            return Ok(Openings::Random { plies });
        }
        if let Some(path) = first.strip_prefix("file=") {
            let book = Book::parse(path, keys)?;
            return Ok(Openings::List(book.read(entry, variant, wanted, seed)?));
        }
        bail!("--openings '{first}': expected random:PLIES or file=PATH")
    }

    /// The openings in the fingerprint's defined encoding, the same in
    /// every shard: `startpos`, `random:P` (the seed is fingerprinted apart),
    /// or the list, one opening a line.
    pub fn canonical(&self) -> String {
        match self {
            Openings::Start => "startpos".to_owned(),
            Openings::Random { plies } => format!("random:{plies}"),
            Openings::List(list) => {
                list.iter().map(Opening::to_string).collect::<Vec<_>>().join("\n")
            }
        }
    }

    /// The opening of `round` (from 1) for a tournament seeded `seed`.
    ///
    /// # Errors
    /// Only for a game that cannot make its start position.
    pub fn for_round(
        &self,
        round: u32,
        seed: u64,
        entry: &GameEntry,
        variant: &str,
    ) -> Result<Opening> {
        match self {
            Openings::Start => Ok(Opening::default()),
            Openings::List(list) => Ok(list[(round as usize - 1) % list.len()].clone()),
            Openings::Random { plies } => {
                let mut rng = Rng::new(seed ^ u64::from(round).wrapping_mul(0xA076_1D64_78BD_642F));
                let mut fallback = Opening::default();
                for _attempt in 0..100 {
                    let mut pos = entry.start(variant).map_err(|e| anyhow::anyhow!("{e}"))?;
                    let mut moves = Vec::new();
                    for _ in 0..*plies {
                        match pos.play_random(&mut rng) {
                            Some(mv) => moves.push(mv),
                            None => break,
                        }
                    }
                    let opening = Opening { fen: None, moves };
                    if pos.outcome().is_none() {
                        return Ok(opening);
                    }
                    fallback = opening;
                }
                Ok(fallback)
            }
        }
    }
}

/// A line of an openings file: a move list from the start (as `replay`
/// reads it, move numbers and annotations allowed) or a position text.
pub(crate) fn parse_opening_line(line: &str, entry: &GameEntry, variant: &str) -> Result<Opening> {
    let as_moves = || -> Result<Opening> {
        let record = read_movetext(line)?;
        let mut pos = entry.start(variant).map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut moves = Vec::with_capacity(record.moves.len());
        for (i, mv) in record.moves.iter().enumerate() {
            let canonical = pos
                .play_move_text(mv)
                .map_err(|e| anyhow::anyhow!("move {} ({mv}): {e}", i + 1))?;
            moves.push(canonical);
        }
        Ok(Opening { fen: None, moves })
    };
    let moves_error = match as_moves() {
        Ok(opening) => return Ok(opening),
        Err(e) => e,
    };
    match entry.from_text(line, variant) {
        Ok(pos) => Ok(Opening { fen: Some(pos.position_text()), moves: Vec::new() }),
        Err(e) => bail!("neither a move list ({moves_error}) nor a position text ({e})"),
    }
}
