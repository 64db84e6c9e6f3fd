//! `igroteka tune datagen` at scale and `tune merge` (docs/tuning.md, "Data
//! at scale"): games played by several threads, written whole and in game
//! order, so that a killed run resumes from its own output; shards that
//! split the games by number; JSON lines or a compact postcard format.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use arena::{GameRecord, Openings, Shard, Termination};
use board_core::{Outcome, Player, Rng, Valuation, dot};
use clap::{Args, ValueEnum};
use search::{EngineKind, GameEntry, Limits, Memory, Score, SearchGame, Think};
use serde::{Deserialize, Serialize};

use crate::position::{base_position, play_all};

/// How the positions are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One JSON object a line (docs/tuning.md).
    Jsonl,
    /// A versioned header, then one length-prefixed postcard frame a game.
    Postcard,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Jsonl => "jsonl",
            Format::Postcard => "postcard",
        }
    }
}

/// The flags of `tune datagen`.
#[derive(Args, Debug)]
pub struct DatagenArgs {
    /// The game.
    #[arg(long, short)]
    game: String,
    /// The variant (default: the game's first).
    #[arg(long)]
    variant: Option<String>,
    /// Self-play games to play.
    #[arg(long, default_value_t = 200)]
    games: u32,
    /// Read the games from arena records (JSONL) instead of playing them.
    #[arg(long, value_name = "FILE")]
    from_arena: Option<PathBuf>,
    /// Where to write the positions (a run re-run with the same flags
    /// resumes from what this file holds).
    #[arg(long)]
    out: PathBuf,
    /// Alpha-beta depth of the self-play moves and of the quietness check.
    #[arg(long, default_value_t = 2)]
    depth: u32,
    /// Alpha-beta node limit instead of a depth.
    #[arg(long, conflicts_with = "depth")]
    nodes: Option<u64>,
    /// Seed of the random opening plies and of the sampling.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random plies that open each self-play game (not sampled); after a
    /// file opening, random plies played from it.
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// Openings: `file=PATH` (one move list or position text a line, game
    /// `i` from opening `i mod count`), as the arena reads them.
    #[arg(long, value_name = "file=PATH")]
    openings: Option<String>,
    /// Positions sampled per game at most.
    #[arg(long, default_value_t = 16)]
    per_game: usize,
    /// A position is quiet when the search's value differs from the static
    /// evaluation (with the side to move's bonus alpha-beta adds) by at most
    /// this much.
    #[arg(long, default_value_t = 150)]
    max_swing: i32,
    /// Ply cap of a self-play game (default: the game's own).
    #[arg(long)]
    max_plies: Option<u32>,
    /// A self-play game the ply cap stops is won by the side the search
    /// finds at least this many centipawns ahead in its last position (a
    /// draw otherwise; without the flag, the game's own adjudication).
    #[arg(long, value_name = "CP")]
    adjudicate: Option<i32>,
    /// Games played at once (default: the number of cores).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Play only slice `I` of `N` of the games (game `k` belongs to shard
    /// `k mod N + 1`).
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Jsonl)]
    format: Format,
}

/// The flags of `tune merge`.
#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Where to write the merged positions.
    #[arg(long)]
    out: PathBuf,
    /// Output format (default: the first input's).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// The shards' files (JSON lines or postcard).
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

/// One position as a JSON line. The first four fields are the original
/// format (all `tune fit` needs); the others are written by this version and
/// optional when read. `result` and `score` are the side to move's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sample {
    /// The game's name.
    pub game: String,
    /// Its variant.
    pub variant: String,
    /// The position text.
    pub fen: String,
    /// The game's result for the side to move (1 won, 0.5 drawn, 0 lost).
    pub result: f64,
    /// The side to move, 1 or 2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<u8>,
    /// The search's score, centipawns, side to move's view.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<i32>,
    /// The depth the search completed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// The nodes it searched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Plies played before this position (from the game's base position).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ply: Option<u32>,
    /// The game's number in the run (0-based).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u64>,
    /// The run's fingerprint: its settings but the shard, output and
    /// concurrency.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<String>,
}

// ---- the postcard format ------------------------------------------------

/// The first bytes of a postcard file, then its version (u32, little-endian).
const MAGIC: &[u8; 8] = b"IGRODATA";
/// The postcard format's version.
const VERSION: u32 = 1;
/// The largest frame read back (a frame is one game).
const MAX_FRAME: u32 = 64 << 20;

/// A postcard file's header frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Header {
    game: String,
    variant: String,
    run: String,
    settings: String,
}

/// One game's positions, one frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct PackedGame {
    id: u64,
    positions: Vec<Packed>,
}

/// One position in a frame; `half_points` is the side to move's result in
/// half points (2 won, 1 drawn, 0 lost).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Packed {
    fen: String,
    side: u8,
    score: i32,
    depth: u32,
    nodes: u64,
    ply: u32,
    half_points: u8,
}

fn frame(bytes: &[u8], out: &mut Vec<u8>) {
    let len = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(bytes);
}

fn header_bytes(header: &Header) -> anyhow::Result<Vec<u8>> {
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&VERSION.to_le_bytes());
    frame(&postcard::to_allocvec(header)?, &mut out);
    Ok(out)
}

/// Reads the next frame: `None` at a clean end, `Err(Torn)` for a partial one.
fn read_frame(reader: &mut impl Read, buf: &mut Vec<u8>) -> Result<Option<()>, Torn> {
    let mut len = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        match reader.read(&mut len[got..]) {
            Ok(0) if got == 0 => return Ok(None),
            Ok(0) => return Err(Torn),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return Err(Torn),
        }
    }
    let len = u32::from_le_bytes(len);
    if len > MAX_FRAME {
        return Err(Torn);
    }
    buf.clear();
    buf.resize(len as usize, 0);
    reader.read_exact(buf).map_err(|_| Torn)?;
    Ok(Some(()))
}

/// A frame cut short or unreadable.
struct Torn;

/// One game read back from a file, and where its bytes end.
struct GameBlock {
    id: Option<u64>,
    samples: Vec<Sample>,
    start: u64,
    end: u64,
}

/// What a scan of a data file found.
struct Scanned {
    format: Format,
    header: Option<Header>,
    /// Where the whole games end (a torn tail starts there).
    whole: u64,
    /// Whether a torn tail follows.
    torn: bool,
}

/// The format of `file` by its first bytes (an empty file is `None`).
fn sniff(file: &mut File) -> io::Result<Option<Format>> {
    let mut first = [0u8; 8];
    file.seek(SeekFrom::Start(0))?;
    let mut got = 0;
    while got < first.len() {
        let n = file.read(&mut first[got..])?;
        if n == 0 {
            break;
        }
        got += n;
    }
    file.seek(SeekFrom::Start(0))?;
    Ok(match got {
        0 => None,
        _ if first[..got] == MAGIC[..got] => Some(Format::Postcard),
        _ => Some(Format::Jsonl),
    })
}

/// Whether a postcard file ends inside its header (magic, version, header
/// frame).
fn header_is_torn(file: &mut File) -> io::Result<bool> {
    let mut reader = BufReader::new(&mut *file);
    let mut head = [0u8; 12];
    let torn = reader.read_exact(&mut head).is_err()
        || matches!(read_frame(&mut reader, &mut Vec::new()), Err(Torn) | Ok(None));
    file.seek(SeekFrom::Start(0))?;
    Ok(torn)
}

/// Reads `file` game by game, calling `each` with every whole game in
/// order. A torn tail (a run killed while writing) ends the scan.
fn scan(
    file: &mut File,
    name: &Path,
    mut each: impl FnMut(GameBlock) -> anyhow::Result<()>,
) -> anyhow::Result<Scanned> {
    let format = sniff(file)?.unwrap_or(Format::Jsonl);
    let mut reader = BufReader::new(&mut *file);
    match format {
        Format::Postcard => {
            let mut head = [0u8; 12];
            reader
                .read_exact(&mut head)
                .with_context(|| format!("{}: a postcard file cut short", name.display()))?;
            let version = u32::from_le_bytes([head[8], head[9], head[10], head[11]]);
            if version != VERSION {
                bail!(
                    "{}: a postcard file of version {version}; this igroteka reads version \
                     {VERSION}",
                    name.display()
                );
            }
            let mut buf = Vec::new();
            let header: Header = match read_frame(&mut reader, &mut buf) {
                Ok(Some(())) => postcard::from_bytes(&buf).ok(),
                _ => None,
            }
            .with_context(|| format!("{}: the postcard header is unreadable", name.display()))?;
            let mut at = 12 + 4 + buf.len() as u64;
            let mut torn = false;
            loop {
                match read_frame(&mut reader, &mut buf) {
                    Ok(None) => break,
                    Ok(Some(())) => {}
                    Err(Torn) => {
                        torn = true;
                        break;
                    }
                }
                let Ok(game) = postcard::from_bytes::<PackedGame>(&buf) else {
                    torn = true;
                    break;
                };
                let end = at + 4 + buf.len() as u64;
                let samples = unpack(&header, game.id, game.positions);
                each(GameBlock { id: Some(game.id), samples, start: at, end })?;
                at = end;
            }
            Ok(Scanned { format, header: Some(header), whole: at, torn })
        }
        Format::Jsonl => {
            let mut line = Vec::new();
            let mut at = 0u64;
            let mut number = 0usize;
            let mut block: Option<GameBlock> = None;
            let mut torn = false;
            loop {
                line.clear();
                let limit = protocol::MAX_LINE_BYTES as u64 + 1;
                let n = (&mut reader).take(limit).read_until(b'\n', &mut line)?;
                if n == 0 {
                    break;
                }
                number += 1;
                if line.last() != Some(&b'\n') {
                    if n as u64 >= limit {
                        bail!(
                            "{} line {number} is longer than {} bytes",
                            name.display(),
                            protocol::MAX_LINE_BYTES
                        );
                    }
                    // The last line, cut short by a kill.
                    torn = true;
                    break;
                }
                let start = at;
                at += n as u64;
                let text = std::str::from_utf8(&line)
                    .ok()
                    .with_context(|| format!("{} line {number}: not UTF-8", name.display()))?
                    .trim();
                if text.is_empty() {
                    continue;
                }
                let sample: Sample = super::tune::parse_json(text, "a position record")
                    .with_context(|| format!("{} line {number}", name.display()))?;
                match &mut block {
                    Some(b) if b.id.is_some() && b.id == sample.id => {
                        b.samples.push(sample);
                        b.end = at;
                    }
                    _ => {
                        if let Some(done) = block.take() {
                            each(done).with_context(|| {
                                format!("{} line {}", name.display(), number - 1)
                            })?;
                        }
                        block = Some(GameBlock {
                            id: sample.id,
                            samples: vec![sample],
                            start,
                            end: at,
                        });
                    }
                }
            }
            if let Some(done) = block.take() {
                each(done).with_context(|| format!("{} line {number}", name.display()))?;
            }
            Ok(Scanned { format, header: None, whole: at, torn })
        }
    }
}

/// The samples of a postcard frame's positions.
fn unpack(header: &Header, id: u64, positions: Vec<Packed>) -> Vec<Sample> {
    positions
        .into_iter()
        .map(|p| Sample {
            game: header.game.clone(),
            variant: header.variant.clone(),
            fen: p.fen,
            result: f64::from(p.half_points) / 2.0,
            side: Some(p.side),
            score: Some(p.score),
            depth: Some(p.depth),
            nodes: Some(p.nodes),
            ply: Some(p.ply),
            id: Some(id),
            run: Some(header.run.clone()),
        })
        .collect()
}

/// A game's bytes as `scan` found them (a postcard frame with its length,
/// or JSON lines) read back as samples.
fn decode_block(
    format: Format,
    header: Option<&Header>,
    bytes: &[u8],
) -> anyhow::Result<Vec<Sample>> {
    match (format, header) {
        (Format::Postcard, Some(header)) => {
            let game: PackedGame = postcard::from_bytes(bytes.get(4..).unwrap_or_default())
                .context("a game frame that no longer decodes")?;
            Ok(unpack(header, game.id, game.positions))
        }
        _ => std::str::from_utf8(bytes)
            .context("not UTF-8")?
            .lines()
            .filter(|line| !line.trim().is_empty())
            .map(|line| super::tune::parse_json(line.trim(), "a position record"))
            .collect(),
    }
}

/// A 64-bit FNV-1a hash of `text`, as 16 hex digits.
fn fingerprint(text: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

// ---- datagen ------------------------------------------------------------

/// A position found in a game, before sampling.
struct Found {
    fen: String,
    side: Player,
    score: i32,
    depth: u32,
    nodes: u64,
    ply: u32,
}

/// Positions of one game worth sampling.
struct GamePositions {
    quiet: Vec<Found>,
    /// The first player's points (1, ½, 0).
    first_points: f64,
}

/// Where the games come from.
enum Source {
    SelfPlay(Openings),
    Arena(Vec<GameRecord>),
}

/// Everything a worker needs, shared by all.
struct Plan<'a> {
    entry: &'a GameEntry,
    variant: &'a str,
    think: Think,
    args: &'a DatagenArgs,
    source: Source,
    run: String,
}

/// The seed of game `id`'s own random numbers (extra opening plies and
/// sampling): games are independent, so any shard plays any game alike.
fn game_seed(seed: u64, id: u64) -> u64 {
    seed ^ (id + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03
}

pub fn datagen(args: &DatagenArgs) -> anyhow::Result<()> {
    let entry = games::find(&args.game)?;
    let variant =
        entry.start(args.variant.as_deref().unwrap_or(entry.default_variant()))?.variant();
    let limits = match args.nodes {
        Some(nodes) => Limits::nodes(nodes),
        None => Limits::depth(args.depth),
    };
    let think = Think {
        engine: EngineKind::AlphaBeta,
        limits,
        seed: args.seed,
        hash_mb: 16,
        use_table: false,
        ..Think::default()
    };
    let shard = args.shard.as_deref().map(Shard::parse).transpose()?;
    let concurrency = match args.concurrency {
        Some(0) => bail!("--concurrency 0: give at least 1"),
        Some(k) => k,
        None => std::thread::available_parallelism().map_or(1, usize::from),
    };
    let limit = match args.nodes {
        Some(nodes) => format!("nodes={nodes}"),
        None => format!("depth={}", args.depth),
    };
    let (source, origin, total) = match &args.from_arena {
        Some(path) => {
            let mut records = Vec::new();
            let mut text = String::new();
            super::tune::for_each_line(super::tune::open(path)?, path, |_, line| {
                let record: GameRecord = super::tune::parse_json(line, "an arena game record")?;
                if !record.game.eq_ignore_ascii_case(entry.name) {
                    bail!("a game of {}, not {}", record.game, entry.name);
                }
                text.push_str(line);
                text.push('\n');
                records.push(record);
                Ok(())
            })?;
            let total = records.len() as u64;
            (Source::Arena(records), format!("arena:{}", fingerprint(&text)), total)
        }
        None => {
            if args.max_plies == Some(0) {
                eprintln!("warning: {}", arena::no_cap_warning(entry));
            }
            let openings = match &args.openings {
                None => Openings::Random { plies: args.random_plies },
                Some(text) if text.starts_with("file=") => {
                    Openings::parse(text, entry, variant, args.games.max(1))?
                }
                Some(text) => {
                    bail!("--openings '{text}': expected file=PATH (random plies: --random-plies)")
                }
            };
            if args.random_plies == 0 && args.games > 1 && args.openings.is_none() {
                eprintln!(
                    "warning: --random-plies 0: alpha-beta at a fixed depth or node count \
                     plays the same game every time, so all {} games are one",
                    args.games
                );
            }
            let origin = format!(
                "self-play games={} random-plies={} openings={}",
                args.games,
                args.random_plies,
                fingerprint(&openings.canonical())
            );
            (Source::SelfPlay(openings), origin, u64::from(args.games))
        }
    };
    let settings = format!(
        "game={} variant={variant} {origin} {limit} seed={} per-game={} max-swing={} \
         max-plies={}",
        entry.name,
        args.seed,
        args.per_game,
        args.max_swing,
        args.max_plies.map_or("default".to_owned(), |p| p.to_string()),
    );
    // Only when given, so that the runs before the flag keep their fingerprints.
    let settings = match args.adjudicate {
        Some(cp) => format!("{settings} adjudicate={cp}"),
        None => settings,
    };
    let run = fingerprint(&settings);
    let ids: Vec<u64> =
        (0..total).filter(|id| shard.is_none_or(|s| id % s.count == s.index - 1)).collect();

    let mut out = Output::open(args, entry, variant, &run, &settings, shard)?;
    let todo: Vec<u64> =
        ids.iter().copied().filter(|&id| out.resume_from.is_none_or(|f| id >= f)).collect();
    let kept_games = ids.len() - todo.len();
    let plan = Plan { entry, variant, think, args, source, run };
    let mut progress = Progress::new(ids.len(), kept_games, out.kept_positions);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let result = std::thread::scope(|scope| -> anyhow::Result<()> {
        let (send, receive) = mpsc::channel::<(usize, anyhow::Result<Vec<Sample>>)>();
        for _ in 0..concurrency.min(todo.len()) {
            let send = send.clone();
            let (plan, todo, next, stop) = (&plan, &todo, &next, &stop);
            scope.spawn(move || {
                let mut memory = Memory::default();
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&id) = todo.get(i) else { break };
                    let played = play_one(plan, id, &mut memory);
                    if send.send((i, played)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        let mut waiting = BTreeMap::new();
        let mut written = 0;
        for (i, played) in receive {
            waiting.insert(i, played);
            while let Some(played) = waiting.remove(&written) {
                let samples = match played {
                    Ok(samples) => samples,
                    Err(e) => {
                        stop.store(true, Ordering::Relaxed);
                        return Err(e.context(format!("game {}", todo[written])));
                    }
                };
                out.write_game(todo[written], &samples)?;
                progress.game(samples.len());
                written += 1;
            }
        }
        Ok(())
    });
    stop.store(true, Ordering::Relaxed);
    progress.finish();
    result?;
    // A closed stdout (`| head`) is an error to return, not a panic.
    let resumed = if kept_games > 0 {
        format!(" ({kept_games} games were there from an earlier run)")
    } else {
        String::new()
    };
    writeln!(
        io::stdout(),
        "wrote {} positions from {} games to {}{resumed}",
        progress.positions,
        progress.games,
        args.out.display()
    )?;
    Ok(())
}

/// Plays (or reads) game `id` and samples its positions.
fn play_one(plan: &Plan<'_>, id: u64, memory: &mut Memory) -> anyhow::Result<Vec<Sample>> {
    let args = plan.args;
    let mut rng = Rng::new(game_seed(args.seed, id));
    let game = match &plan.source {
        Source::SelfPlay(openings) => self_play(plan, openings, id, memory, &mut rng)?,
        Source::Arena(records) => match arena_positions(plan, &records[id as usize], memory)? {
            Some(game) => game,
            None => return Ok(Vec::new()),
        },
    };
    let mut quiet = game.quiet;
    // A partial Fisher-Yates shuffle picks `per_game` positions at random;
    // they are written in the order of the game.
    let take = quiet.len().min(args.per_game);
    for i in 0..take {
        let j = i + rng.below(quiet.len() - i);
        quiet.swap(i, j);
    }
    quiet.truncate(take);
    quiet.sort_by_key(|found| found.ply);
    Ok(quiet
        .into_iter()
        .map(|found| {
            let first = found.side == Player::First;
            Sample {
                game: plan.entry.name.to_owned(),
                variant: plan.variant.to_owned(),
                fen: found.fen,
                result: if first { game.first_points } else { 1.0 - game.first_points },
                side: Some(if first { 1 } else { 2 }),
                score: Some(found.score),
                depth: Some(found.depth),
                nodes: Some(found.nodes),
                ply: Some(found.ply),
                id: Some(id),
                run: Some(plan.run.clone()),
            }
        })
        .collect())
}

/// The first player's points of `outcome`.
fn first_points(outcome: &Outcome) -> f64 {
    match outcome.winner {
        Some(Player::First) => 1.0,
        Some(Player::Second) => 0.0,
        None => 0.5,
    }
}

/// The search's move at `pos`, and `pos` as a found position if it is
/// quiet: valued by its features, and the search finds about the same value
/// as the static evaluation plus the game's `Evaluate::TEMPO`.
fn search_quiet(
    pos: &dyn SearchGame,
    ply: u32,
    think: &Think,
    memory: &mut Memory,
    max_swing: i32,
) -> (Option<String>, Option<Found>) {
    memory.clear();
    let (best, info) = pos.think(think, memory, &AtomicBool::new(false), &mut |_| {});
    let mut features = Vec::new();
    let quiet = match (pos.eval_features(&mut features), info.score) {
        (Valuation::Weighted, Score::Cp(searched)) => {
            let (_, weights) = pos.evaluation_terms();
            // The static value as alpha-beta's leaves have it: with the
            // side to move's bonus.
            let value = dot(weights, &features) + pos.tempo();
            ((searched - value).abs() <= max_swing).then(|| Found {
                fen: pos.position_text(),
                side: pos.side_to_move(),
                score: searched,
                depth: info.depth,
                nodes: info.nodes,
                ply,
            })
        }
        _ => None,
    };
    (best, quiet)
}

/// One self-play game of alpha-beta against itself from game `id`'s
/// opening.
fn self_play(
    plan: &Plan<'_>,
    openings: &Openings,
    id: u64,
    memory: &mut Memory,
    rng: &mut Rng,
) -> anyhow::Result<GamePositions> {
    let (entry, args) = (plan.entry, plan.args);
    let cap = args.max_plies.unwrap_or(entry.default_max_plies);
    let round = u32::try_from(id + 1).unwrap_or(u32::MAX);
    let opening = openings.for_round(round, args.seed, entry, plan.variant)?;
    let mut game = opening.record(entry, plan.variant, cap)?;
    if let Openings::List(_) = openings {
        for _ in 0..args.random_plies {
            if game.outcome().is_some() {
                break;
            }
            let mut next = game.position().clone_search();
            let Some(mv) = next.play_random(rng) else { break };
            game.play(&mv)?;
        }
    }
    let mut quiet = Vec::new();
    while game.outcome().is_none() {
        let pos = game.position();
        let mut think = plan.think.clone();
        think.limits.plies_left = game.plies_left();
        let ply = u32::try_from(game.moves().len()).unwrap_or(u32::MAX);
        let (best, found) = search_quiet(pos, ply, &think, memory, args.max_swing);
        quiet.extend(found);
        let Some(best) = best else { bail!("alpha-beta found no move in an unfinished game") };
        game.play(&best)?;
    }
    let outcome = match game.outcome() {
        Some(outcome) => outcome,
        None => unreachable!("the loop ends at the end"),
    };
    let mut first = first_points(&outcome);
    if let Some(margin) = args.adjudicate
        && outcome.winner.is_none()
        && game.plies_left() == Some(0)
    {
        first = adjudicate(game.position(), &plan.think, memory, margin).unwrap_or(first);
    }
    Ok(GamePositions { quiet, first_points: first })
}

/// The first player's points of a game stopped at the ply cap in `pos`, by
/// a search of it (without the cap): 1 or 0 when the search finds a side
/// `margin` centipawns ahead or a proven result, `None` otherwise.
fn adjudicate(
    pos: &dyn SearchGame,
    think: &Think,
    memory: &mut Memory,
    margin: i32,
) -> Option<f64> {
    let mut think = think.clone();
    think.limits.plies_left = None;
    memory.clear();
    let (_, info) = pos.think(&think, memory, &AtomicBool::new(false), &mut |_| {});
    let mover_wins = match info.score {
        Score::Cp(cp) if cp >= margin => true,
        Score::Cp(cp) if cp <= -margin => false,
        Score::Cp(_) => return None,
        Score::Win(_) => true,
        Score::Loss(_) => false,
    };
    Some(if mover_wins == (pos.side_to_move() == Player::First) { 1.0 } else { 0.0 })
}

/// The quiet positions after the opening of an arena game; `None` for games
/// an engine lost by a fault (their result says nothing of the position).
fn arena_positions(
    plan: &Plan<'_>,
    record: &GameRecord,
    memory: &mut Memory,
) -> anyhow::Result<Option<GamePositions>> {
    if !matches!(record.termination, Termination::Normal | Termination::MaxPlies) {
        return Ok(None);
    }
    let mut pos = base_position(plan.entry, Some(&record.variant), record.fen.as_deref())?;
    let opening = (record.opening_plies as usize).min(record.moves.len());
    let moves: Vec<&str> = record.moves.iter().map(String::as_str).collect();
    play_all(pos.as_mut(), &moves[..opening])?;
    let mut quiet = Vec::new();
    for (i, mv) in moves[opening..].iter().enumerate() {
        let ply = u32::try_from(opening + i).unwrap_or(u32::MAX);
        quiet.extend(search_quiet(pos.as_ref(), ply, &plan.think, memory, plan.args.max_swing).1);
        pos.play_move_text(mv).with_context(|| format!("move {} ({mv})", opening + i + 1))?;
    }
    Ok(Some(GamePositions { quiet, first_points: record.p1_points() }))
}

/// The output file, locked, with what an earlier run left in it.
struct Output {
    file: File,
    format: Format,
    /// The first game still to play (`None`: all).
    resume_from: Option<u64>,
    kept_positions: usize,
    buf: Vec<u8>,
}

impl Output {
    /// Opens (or creates) the output, locks it, and reads back what an
    /// earlier run of the same settings wrote: a torn last game is cut off,
    /// and in JSON lines the last game too (it may be incomplete; it is
    /// played again).
    fn open(
        args: &DatagenArgs,
        entry: &GameEntry,
        variant: &str,
        run: &str,
        settings: &str,
        shard: Option<Shard>,
    ) -> anyhow::Result<Output> {
        let path = &args.out;
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => bail!(
                "{} is in use by another run of tune datagen (it holds a lock on it): wait \
                 until that run ends, or give this run another --out",
                path.display()
            ),
            Err(TryLockError::Error(e)) => eprintln!(
                "warning: cannot lock {} ({e}): make sure no other run writes it",
                path.display()
            ),
        }
        let mut out = Output {
            file,
            format: args.format,
            resume_from: None,
            kept_positions: 0,
            buf: Vec::new(),
        };
        if sniff(&mut out.file)? == Some(Format::Postcard) && header_is_torn(&mut out.file)? {
            // Killed while writing its header: the file holds no game yet.
            out.file.set_len(0)?;
        }
        let Some(found) = sniff(&mut out.file)? else {
            if args.format == Format::Postcard {
                let header = Header {
                    game: entry.name.to_owned(),
                    variant: variant.to_owned(),
                    run: run.to_owned(),
                    settings: settings.to_owned(),
                };
                out.file.write_all(&header_bytes(&header)?)?;
            }
            return Ok(out);
        };
        if found != args.format {
            bail!(
                "{} holds {} positions; this run writes {}: give --format {} to resume it, or \
                 another --out",
                path.display(),
                found.name(),
                args.format.name(),
                found.name()
            );
        }
        let other_run = |what: &str| {
            anyhow::anyhow!(
                "{} holds positions of another datagen run ({what}): resume it with the \
                 command that started it, or give this run another --out",
                path.display()
            )
        };
        let mut last: Option<GameBlock> = None;
        let mut kept = 0;
        let scanned = scan(&mut out.file, path, |block| {
            let Some(id) = block.id else {
                return Err(other_run("positions without a game id"));
            };
            if let Some(sample) = block.samples.iter().find(|s| s.run.as_deref() != Some(run)) {
                return Err(other_run(&format!(
                    "run {}, this one {run}",
                    sample.run.as_deref().unwrap_or("unnamed")
                )));
            }
            if let Some(s) = shard.filter(|s| id % s.count != s.index - 1) {
                bail!("game {id} is not one of shard {s}'s: {}", other_run("another shard"));
            }
            if last.as_ref().is_some_and(|l| l.id >= Some(id)) {
                bail!("game {id} out of order: the file was not written by one datagen run");
            }
            if let Some(previous) = last.replace(block) {
                kept += previous.samples.len();
            }
            Ok(())
        })?;
        if let Some(header) = &scanned.header
            && header.run != run
        {
            return Err(other_run(&format!("settings {}", header.settings)));
        }
        if scanned.torn {
            eprintln!(
                "warning: {}: the last game was cut short (a killed run): it is played again",
                path.display()
            );
        }
        let (keep_to, resume_from) = match (last, scanned.format) {
            (None, _) => (scanned.whole, None),
            (Some(block), Format::Jsonl) => (block.start, block.id),
            (Some(block), Format::Postcard) => {
                kept += block.samples.len();
                (block.end, block.id.map(|id| id + 1))
            }
        };
        out.file.set_len(keep_to)?;
        out.file.seek(SeekFrom::End(0))?;
        out.resume_from = resume_from;
        out.kept_positions = kept;
        Ok(out)
    }

    /// Appends game `id` whole, in one write.
    fn write_game(&mut self, id: u64, samples: &[Sample]) -> anyhow::Result<()> {
        if samples.is_empty() {
            return Ok(());
        }
        self.buf.clear();
        encode_game(self.format, id, samples, &mut self.buf)?;
        self.file.write_all(&self.buf).context("writing the positions")?;
        Ok(())
    }
}

/// One game's samples in `format` (for postcard, the frame).
fn encode_game(
    format: Format,
    id: u64,
    samples: &[Sample],
    out: &mut Vec<u8>,
) -> anyhow::Result<()> {
    match format {
        Format::Jsonl => {
            for sample in samples {
                serde_json::to_writer(&mut *out, sample)?;
                out.push(b'\n');
            }
        }
        Format::Postcard => {
            let positions = samples
                .iter()
                .map(|s| Packed {
                    fen: s.fen.clone(),
                    side: s.side.unwrap_or(1),
                    score: s.score.unwrap_or(0),
                    depth: s.depth.unwrap_or(0),
                    nodes: s.nodes.unwrap_or(0),
                    ply: s.ply.unwrap_or(0),
                    half_points: (s.result * 2.0).round() as u8,
                })
                .collect();
            frame(&postcard::to_allocvec(&PackedGame { id, positions })?, out);
        }
    }
    Ok(())
}

/// The progress line on stderr: at most once a second, and at the end.
struct Progress {
    total: usize,
    games: usize,
    positions: usize,
    new_games: usize,
    new_positions: usize,
    started: Instant,
    shown: Instant,
    /// Whether a game ended since the line was last shown.
    pending: bool,
}

impl Progress {
    fn new(total: usize, games: usize, positions: usize) -> Progress {
        let now = Instant::now();
        Progress {
            total,
            games,
            positions,
            new_games: 0,
            new_positions: 0,
            started: now,
            shown: now,
            pending: false,
        }
    }

    fn game(&mut self, positions: usize) {
        self.games += 1;
        self.new_games += 1;
        self.positions += positions;
        self.new_positions += positions;
        self.pending = true;
        if self.shown.elapsed() >= Duration::from_secs(1) {
            self.show();
        }
    }

    fn show(&mut self) {
        self.shown = Instant::now();
        self.pending = false;
        let seconds = self.started.elapsed().as_secs_f64().max(1e-3);
        let rate = self.new_positions as f64 / seconds;
        let left = self.total.saturating_sub(self.games) as f64;
        let eta =
            if self.new_games == 0 { 0 } else { (left * seconds / self.new_games as f64) as u64 };
        eprint!(
            "\rgames {}/{} positions {} ({rate:.1}/s) ETA {}:{:02}:{:02} ",
            self.games,
            self.total,
            self.positions,
            eta / 3600,
            eta / 60 % 60,
            eta % 60
        );
    }

    fn finish(&mut self) {
        if self.pending || self.new_games == 0 {
            self.show();
        }
        eprintln!();
    }
}

// ---- reading back: fit and merge ------------------------------------------

/// Calls `each` with every position of `path` if it is a postcard file, and
/// says whether it was (JSON lines are the caller's to read, line by line).
/// A postcard file cut short is an error.
pub fn read_postcard(
    path: &Path,
    mut each: impl FnMut(&Sample) -> anyhow::Result<()>,
) -> anyhow::Result<bool> {
    let mut file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    if sniff(&mut file)? != Some(Format::Postcard) {
        return Ok(false);
    }
    let scanned = scan(&mut file, path, |block| {
        for sample in &block.samples {
            each(sample).with_context(|| format!("game {}", block.id.unwrap_or(0)))?;
        }
        Ok(())
    })?;
    if scanned.torn {
        bail!(
            "{}: the last game is cut short at byte {} (a killed run?): run its datagen command \
             again to complete it",
            path.display(),
            scanned.whole
        );
    }
    Ok(true)
}

/// `tune merge`: the games of every shard, each once, in game order. A first
/// pass checks every file and notes where each game is; the second copies
/// the games in order (converting them if the output's format is not the
/// file's), so a merge of millions of positions holds one game at a time.
pub fn merge(args: &MergeArgs) -> anyhow::Result<()> {
    // Game id -> (file, length of its bytes).
    let mut games: BTreeMap<u64, (usize, u64)> = BTreeMap::new();
    let mut sources: Vec<(BufReader<File>, Format, Option<Header>)> = Vec::new();
    let mut first: Option<(String, Format, Option<Header>)> = None;
    let mut positions = 0usize;
    for (index, path) in args.files.iter().enumerate() {
        if path == &args.out {
            bail!("--out {} is also an input: write the merge elsewhere", path.display());
        }
        let mut file =
            File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        let format = sniff(&mut file)?.unwrap_or(Format::Jsonl);
        let mut run_of_file: Option<String> = None;
        let mut first_start: Option<u64> = None;
        let scanned = scan(&mut file, path, |block| {
            let Some(id) = block.id else {
                bail!("positions without a game id (written before tune datagen kept them)");
            };
            let run = block.samples.first().and_then(|s| s.run.clone()).unwrap_or_default();
            if block.samples.iter().any(|s| s.run.as_deref() != Some(&run)) {
                bail!("game {id} mixes positions of two runs");
            }
            match &first {
                Some((expected, ..)) if *expected != run => bail!(
                    "positions of run {run}, but {} holds run {expected}: merge only the shards \
                     of one datagen run (the same flags but --shard)",
                    args.files[0].display()
                ),
                _ => {}
            }
            if run_of_file.get_or_insert_with(|| run.clone()) != &run {
                bail!("game {id} is of another run than the games before it in this file");
            }
            if let Some((other, _)) = games.get(&id) {
                bail!(
                    "game {id} is in {} too: each game once (a shard given twice?)",
                    args.files[*other].display()
                );
            }
            first_start.get_or_insert(block.start);
            positions += block.samples.len();
            games.insert(id, (index, block.end - block.start));
            Ok(())
        })?;
        if scanned.torn {
            bail!(
                "{}: the last game is cut short (a killed run): run its datagen command again \
                 to complete it, then merge",
                path.display()
            );
        }
        let run = scanned.header.as_ref().map(|h| h.run.clone()).or(run_of_file);
        match (&first, run) {
            (Some((expected, ..)), Some(run)) if *expected != run => bail!(
                "{}: positions of run {run}, but {} holds run {expected}: merge only the shards \
                 of one datagen run (the same flags but --shard)",
                path.display(),
                args.files[0].display()
            ),
            (None, Some(run)) => first = Some((run, format, scanned.header.clone())),
            _ => {}
        }
        file.seek(SeekFrom::Start(first_start.unwrap_or(scanned.whole)))?;
        sources.push((BufReader::new(file), format, scanned.header));
    }
    let Some((run, first_format, header)) = first else {
        bail!("no positions in {} file(s)", args.files.len());
    };
    if games.is_empty() {
        bail!("no positions in {} file(s)", args.files.len());
    }
    let format = args.format.unwrap_or(first_format);
    let temp = args.out.with_extension("merge-tmp");
    let mut out = io::BufWriter::new(
        File::create(&temp).with_context(|| format!("cannot write {}", temp.display()))?,
    );
    let mut bytes = Vec::new();
    let mut encoded = Vec::new();
    for (&id, &(source, len)) in &games {
        let (reader, source_format, source_header) = &mut sources[source];
        bytes.resize(usize::try_from(len)?, 0);
        reader
            .read_exact(&mut bytes)
            .with_context(|| format!("{} changed while merging", args.files[source].display()))?;
        let first_game = Some(&id) == games.keys().next();
        if *source_format == format && !(first_game && format == Format::Postcard) {
            out.write_all(&bytes)?;
            continue;
        }
        let samples = decode_block(*source_format, source_header.as_ref(), &bytes)
            .with_context(|| format!("{} game {id}", args.files[source].display()))?;
        if first_game && format == Format::Postcard {
            let sample = samples.first();
            let settings =
                header.as_ref().map_or_else(|| format!("run {run}"), |h| h.settings.clone());
            out.write_all(&header_bytes(&Header {
                game: sample.map(|s| s.game.clone()).unwrap_or_default(),
                variant: sample.map(|s| s.variant.clone()).unwrap_or_default(),
                run: run.clone(),
                settings,
            })?)?;
        }
        if *source_format == format {
            out.write_all(&bytes)?;
        } else {
            encoded.clear();
            encode_game(format, id, &samples, &mut encoded)?;
            out.write_all(&encoded)?;
        }
    }
    out.flush()?;
    drop(out);
    std::fs::rename(&temp, &args.out)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    writeln!(
        io::stdout(),
        "merged {positions} positions of {} games from {} files into {}",
        games.len(),
        args.files.len(),
        args.out.display()
    )?;
    Ok(())
}
