//! The tournament: plan from the flags, play the schedule concurrently, write
//! each game as it ends, report; resume from a state file; merge shards.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use search::{EngineKind, GameEntry, find_game};
use tokio::task::JoinSet;

use crate::ArenaArgs;
use crate::config::{EngineSpec, Limit};
use crate::record::GameRecord;
use crate::referee::Referee;
use crate::schedule::{Fixture, Opening, Openings, Shard, schedule};
use crate::standings::Standings;
use crate::stats::{Sprt, SprtVerdict};

/// The limit of engines that set none, with no `--each`.
const DEFAULT_LIMIT: Limit = Limit { tc: None, movetime_ms: Some(100), depth: None, nodes: None };
/// The event name in PGN records.
const EVENT: &str = "igroteka arena";

struct Plan {
    referee: Arc<Referee>,
    fixtures: Vec<Fixture>,
    openings: BTreeMap<u32, Opening>,
    concurrency: usize,
    sprt: Option<Sprt>,
    rating_interval: u32,
    quiet: bool,
    fingerprint: String,
}

pub(crate) fn run(games: &'static [GameEntry], igroteka: PathBuf, args: ArenaArgs) -> Result<()> {
    let plan = plan(games, igroteka, &args)?;
    let (mut outputs, done) = Outputs::open(&args, &plan.fingerprint)?;
    let workers = plan.concurrency.clamp(1, 4);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .build()
        .context("starting the tokio runtime")?;
    runtime.block_on(play(&plan, &mut outputs, done))
}

fn plan(games: &'static [GameEntry], igroteka: PathBuf, args: &ArenaArgs) -> Result<Plan> {
    let entry = match &args.flags.game {
        Some(name) => find_game(games, name).with_context(|| {
            let known: Vec<&str> = games.iter().map(|g| g.name).collect();
            format!("unknown game '{name}' (games: {})", known.join(", "))
        })?,
        None => games.first().context("no game is registered")?,
    };
    let variant = match &args.flags.variant {
        Some(v) => {
            *entry.variants.iter().find(|k| k.eq_ignore_ascii_case(v)).with_context(|| {
                format!(
                    "{} has no variant '{v}' (variants: {})",
                    entry.name,
                    entry.variants.join(", ")
                )
            })?
        }
        None => entry.default_variant(),
    };
    let each = Limit::parse_tokens(&args.flags.each)?;
    let mut engines = if args.engines.is_empty() {
        EngineKind::ALL.into_iter().map(EngineSpec::builtin).collect()
    } else {
        args.engines
            .iter()
            .map(|tokens| EngineSpec::parse_tokens(tokens))
            .collect::<Result<Vec<_>>>()?
    };
    for engine in &mut engines {
        engine.limit = engine.limit.or(each);
        if engine.limit.is_empty() {
            engine.limit = DEFAULT_LIMIT;
        }
    }
    if engines.len() < 2 {
        bail!("a tournament needs at least two engines");
    }
    let mut names = HashSet::new();
    for engine in &engines {
        if !names.insert(engine.name.as_str()) {
            bail!("two engines are named '{}': give each a name=", engine.name);
        }
    }
    if args.flags.rounds == 0 {
        bail!("--rounds must be at least 1");
    }
    let sprt = match &args.flags.sprt {
        Some(tokens) => {
            if engines.len() != 2 {
                bail!("--sprt needs exactly two engines");
            }
            Some(Sprt::parse_tokens(tokens)?)
        }
        None => None,
    };
    let shard = args.flags.shard.as_deref().map(Shard::parse).transpose()?;
    let openings = match &args.flags.openings {
        Some(text) => Openings::parse(text, entry, variant)?,
        None => Openings::Start,
    };
    let fixtures: Vec<Fixture> = schedule(engines.len(), args.flags.rounds, args.flags.gauntlet)
        .into_iter()
        .filter(|f| shard.is_none_or(|s| s.contains(f)))
        .collect();
    let mut round_openings = BTreeMap::new();
    for fixture in &fixtures {
        if let std::collections::btree_map::Entry::Vacant(slot) =
            round_openings.entry(fixture.round)
        {
            let opening = openings.for_round(fixture.round, args.flags.seed, entry, variant)?;
            opening.position(entry, variant).with_context(|| format!("opening '{opening}'"))?;
            slot.insert(opening);
        }
    }
    let max_plies = args.flags.max_plies.unwrap_or(entry.default_max_plies);
    let fingerprint = format!(
        "game={} variant={} engines={:x} rounds={} gauntlet={} openings={:x} seed={} max_plies={} shard={}",
        entry.name,
        variant,
        fnv1a(&format!("{engines:?}")),
        args.flags.rounds,
        args.flags.gauntlet,
        fnv1a(&format!("{round_openings:?}")),
        args.flags.seed,
        max_plies,
        shard.map_or("all".to_owned(), |s| s.to_string()),
    );
    let concurrency = args
        .flags
        .concurrency
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    Ok(Plan {
        referee: Arc::new(Referee {
            entry,
            variant: variant.to_owned(),
            engines,
            igroteka,
            max_plies,
            time_margin: Duration::from_millis(args.flags.timemargin),
            stall_timeout: Duration::from_millis(args.flags.stall_timeout),
            query_result: args.flags.query_result,
            seed: args.flags.seed,
        }),
        fixtures,
        openings: round_openings,
        concurrency,
        sprt,
        rating_interval: args.flags.ratinginterval,
        quiet: args.flags.quiet,
        fingerprint,
    })
}

async fn play(plan: &Plan, outputs: &mut Outputs, mut records: Vec<GameRecord>) -> Result<()> {
    let names: Vec<String> = plan.referee.engines.iter().map(|e| e.name.clone()).collect();
    let done: HashSet<u64> = records.iter().map(|r| r.id).collect();
    let mut pending: VecDeque<Fixture> =
        plan.fixtures.iter().filter(|f| !done.contains(&f.id)).copied().collect();
    let total = plan.fixtures.len() as u64;
    let bar = progress_bar(total, records.len() as u64);
    if !plan.quiet {
        let r = &plan.referee;
        let limits: Vec<String> =
            r.engines.iter().map(|e| format!("{} ({})", e.name, e.limit)).collect();
        bar.suspend(|| {
            eprintln!(
                "Arena: {} {}, {} games{}, engines {}",
                r.entry.name,
                r.variant,
                total,
                if done.is_empty() {
                    String::new()
                } else {
                    format!(" ({} already played)", done.len())
                },
                limits.join(", ")
            );
        });
    }
    let mut running = JoinSet::new();
    let mut stopped = false;
    let mut interrupted = false;
    let ctrl_c = tokio::signal::ctrl_c();
    tokio::pin!(ctrl_c);
    loop {
        while !stopped && running.len() < plan.concurrency {
            let Some(fixture) = pending.pop_front() else { break };
            let referee = Arc::clone(&plan.referee);
            let opening = plan.openings[&fixture.round].clone();
            running.spawn(async move { referee.play(fixture, &opening).await });
        }
        if running.is_empty() {
            break;
        }
        tokio::select! {
            joined = running.join_next() => {
                let Some(joined) = joined else { break };
                let record = joined.context("a game task failed")?;
                outputs.write(&record)?;
                bar.inc(1);
                if !plan.quiet {
                    bar.suspend(|| eprintln!(
                        "Finished game {} ({} vs {}): {} {{{}: {}}}{}",
                        record.id, record.p1, record.p2, record.result, record.termination, record.reason,
                        if record.disagreements.is_empty() { String::new() }
                        else { format!(" disagreement: {}", record.disagreements.join(", ")) },
                    ));
                }
                records.push(record);
                let standings = Standings::new(&names, &records);
                if let Some(sprt) = &plan.sprt
                    && !stopped
                    && sprt.verdict(sprt.llr(standings.totals[0])) != SprtVerdict::Continue
                {
                    stopped = true;
                    bar.suspend(|| eprintln!("{}; finishing the games in progress", standings.sprt_line(sprt)));
                }
                let finished = records.len() as u32;
                if !plan.quiet && plan.rating_interval > 0 && finished.is_multiple_of(plan.rating_interval) && !pending.is_empty() {
                    bar.suspend(|| eprintln!("\nInterim standings after {finished} games\n{}", standings.table()));
                }
            }
            _ = &mut ctrl_c => {
                interrupted = true;
                running.abort_all();
                while running.join_next().await.is_some() {}
                break;
            }
        }
    }
    bar.finish_and_clear();
    records.sort_by_key(|r| r.id);
    writeln!(std::io::stdout(), "{}", Standings::new(&names, &records).report(plan.sprt.as_ref()))?;
    if interrupted {
        bail!(
            "interrupted after {} of {total} games{}",
            records.len(),
            if outputs.state { "; run the same command to resume" } else { "" }
        );
    }
    Ok(())
}

fn progress_bar(total: u64, done: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:30.cyan/blue} {pos}/{len} games  {elapsed_precise} elapsed, ETA {eta_precise}",
    ) {
        bar.set_style(style);
    }
    bar.set_position(done);
    bar.enable_steady_tick(Duration::from_millis(500));
    bar
}

/// The files games are written to as they end.
struct Outputs {
    pgn: Option<File>,
    jsonl: Option<File>,
    state_file: Option<File>,
    state: bool,
}

impl Outputs {
    /// Opens the outputs; with a state file that already holds games, returns
    /// them and rewrites every output from them (so a game written to one file
    /// but not yet to the state before a kill is neither lost nor doubled).
    fn open(args: &ArenaArgs, fingerprint: &str) -> Result<(Outputs, Vec<GameRecord>)> {
        let done = match &args.flags.state {
            Some(path) if path.exists() => read_state(path, fingerprint)?,
            _ => Vec::new(),
        };
        let create = |path: &Option<PathBuf>| -> Result<Option<File>> {
            path.as_ref()
                .map(|p| File::create(p).with_context(|| format!("creating {}", p.display())))
                .transpose()
        };
        let mut outputs = Outputs {
            pgn: create(&args.flags.pgnout)?,
            jsonl: create(&args.flags.jsonl)?,
            state_file: None,
            state: args.flags.state.is_some(),
        };
        if let Some(path) = &args.flags.state {
            let tmp = path.with_extension("tmp");
            let mut file =
                File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
            writeln!(
                file,
                "{}",
                serde_json::json!({ "arena_state": 1, "tournament": fingerprint })
            )?;
            for record in &done {
                writeln!(file, "{}", serde_json::to_string(record)?)?;
            }
            file.sync_all()?;
            std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
            outputs.state_file = Some(OpenOptions::new().append(true).open(path)?);
        }
        for record in &done {
            outputs.write_outputs(record)?;
        }
        Ok((outputs, done))
    }

    fn write_outputs(&mut self, record: &GameRecord) -> Result<()> {
        if let Some(file) = &mut self.pgn {
            file.write_all(record.pgn(EVENT).as_bytes())?;
            file.flush()?;
        }
        if let Some(file) = &mut self.jsonl {
            writeln!(file, "{}", serde_json::to_string(record)?)?;
            file.flush()?;
        }
        Ok(())
    }

    /// Writes a finished game everywhere, the state last.
    fn write(&mut self, record: &GameRecord) -> Result<()> {
        self.write_outputs(record).context("writing a game record")?;
        if let Some(file) = &mut self.state_file {
            writeln!(file, "{}", serde_json::to_string(record)?)?;
            file.flush()?;
        }
        Ok(())
    }
}

fn read_state(path: &Path, fingerprint: &str) -> Result<Vec<GameRecord>> {
    let file = File::open(path).with_context(|| format!("reading {}", path.display()))?;
    let lines: Vec<String> = BufReader::new(file).lines().collect::<Result<_, _>>()?;
    let Some(header) = lines.first() else { return Ok(Vec::new()) };
    let header: serde_json::Value = serde_json::from_str(header)
        .with_context(|| format!("{} is not an arena state file", path.display()))?;
    if header["tournament"].as_str() != Some(fingerprint) {
        bail!(
            "{} belongs to another tournament ({}); this one is {fingerprint}",
            path.display(),
            header["tournament"]
        );
    }
    let mut records = Vec::new();
    for (i, line) in lines.iter().enumerate().skip(1) {
        match serde_json::from_str::<GameRecord>(line) {
            Ok(record) => records.push(record),
            // A kill while writing leaves a torn last line: that game is replayed.
            Err(_) if i + 1 == lines.len() => {}
            Err(e) => bail!("{}:{}: {e}", path.display(), i + 1),
        }
    }
    Ok(records)
}

/// `igroteka arena merge F...`: reads JSONL game records (from `--jsonl` or
/// `--state` files, e.g. of shards), checks they belong to one tournament and
/// prints the standings.
///
/// # Errors
/// Unreadable files, bad lines, games of different games, one game id with
/// two different records.
pub fn merge(files: &[PathBuf]) -> Result<()> {
    let records = read_records(files)?;
    writeln!(std::io::stdout(), "{}", Standings::new(&[], &records).report(None))?;
    Ok(())
}

/// The records of `files`, sorted by id, without duplicates.
///
/// # Errors
/// As [`merge`].
pub fn read_records(files: &[PathBuf]) -> Result<Vec<GameRecord>> {
    let mut by_id: BTreeMap<u64, GameRecord> = BTreeMap::new();
    for path in files {
        let file = File::open(path).with_context(|| format!("reading {}", path.display()))?;
        for (i, line) in BufReader::new(file).lines().enumerate() {
            let line = line?;
            if line.trim().is_empty() || line.contains("\"arena_state\"") {
                continue;
            }
            let record: GameRecord = serde_json::from_str(&line)
                .with_context(|| format!("{}:{}", path.display(), i + 1))?;
            if let Some(first) = by_id.values().next()
                && (first.game != record.game || first.variant != record.variant)
            {
                bail!(
                    "{}:{}: a game of {} {}, not {} {}",
                    path.display(),
                    i + 1,
                    record.game,
                    record.variant,
                    first.game,
                    first.variant
                );
            }
            match by_id.get(&record.id) {
                Some(seen) if !same_game(seen, &record) => {
                    bail!(
                        "{}:{}: game {} appears twice with different results",
                        path.display(),
                        i + 1,
                        record.id
                    )
                }
                Some(_) => {}
                None => {
                    by_id.insert(record.id, record);
                }
            }
        }
    }
    Ok(by_id.into_values().collect())
}

fn same_game(a: &GameRecord, b: &GameRecord) -> bool {
    GameRecord { duration_ms: 0, ..a.clone() } == GameRecord { duration_ms: 0, ..b.clone() }
}

fn fnv1a(text: &str) -> u64 {
    text.bytes()
        .fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}
