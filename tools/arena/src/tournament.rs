//! The tournament: plan from the flags, play the schedule concurrently, write
//! each game as it ends, report; resume from a state file; merge shards.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::fs::{File, OpenOptions};
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use protocol::Lines;
use search::{EngineKind, GameEntry, find_game};
use tokio::task::JoinSet;

use crate::ArenaArgs;
use crate::config::{EngineSpec, Limit};
use crate::engine::Engine;
use crate::record::{GameRecord, Termination};
use crate::referee::Referee;
use crate::schedule::{Fixture, Opening, Openings, Shard, encounters, schedule};
use crate::standings::Standings;
use crate::stats::{Sprt, SprtVerdict};

/// The limit of engines that set none, with no `--each`.
const DEFAULT_LIMIT: Limit = Limit { tc: None, movetime_ms: Some(100), depth: None, nodes: None };
/// The event name in PGN records.
const EVENT: &str = "igroteka arena";
/// The most games one tournament schedules (the schedule is kept in memory).
const MAX_GAMES: u64 = 1_000_000;

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
    let done = match &args.flags.state {
        Some(path) if path.exists() => read_state(path, &plan)?,
        _ => Vec::new(),
    };
    let workers = plan.concurrency.clamp(1, 4);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .build()
        .context("starting the tokio runtime")?;
    runtime.block_on(check_engines(&plan.referee))?;
    let mut outputs = Outputs::open(&args, &plan.fingerprint, &done)?;
    runtime.block_on(play(&plan, &mut outputs, done))
}

/// Starts every engine once (`ugi` ... `readyok`) before the first game, so
/// a misspelt program or directory stops the tournament before it writes
/// anything.
async fn check_engines(referee: &Referee) -> Result<()> {
    for spec in &referee.engines {
        if let Some(dir) = &spec.dir
            && !dir.is_dir()
        {
            bail!("engine '{}': dir={} is not a directory", spec.name, dir.display());
        }
        let mut engine =
            Engine::spawn(spec, &referee.igroteka, referee.entry.name, &referee.variant)
                .map_err(|fault| anyhow!("engine '{}': {}", spec.name, fault.detail))?;
        let answered = engine.handshake(&spec.options, referee.stall_timeout).await;
        engine.quit();
        answered.map_err(|fault| {
            anyhow!(
                "engine '{}' does not start ({}): {}",
                spec.name,
                fault.termination,
                fault.detail
            )
        })?;
    }
    Ok(())
}

fn plan(games: &'static [GameEntry], igroteka: PathBuf, args: &ArenaArgs) -> Result<Plan> {
    let entry = match &args.flags.game {
        Some(name) => find_game(games, name)?,
        None => games.first().context("no game is registered")?,
    };
    let variant = match &args.flags.variant {
        Some(v) => entry.variant(v)?,
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
    let games_per_round = 2 * encounters(engines.len(), args.flags.gauntlet).len() as u64;
    let total = games_per_round.saturating_mul(u64::from(args.flags.rounds));
    if total > MAX_GAMES {
        bail!(
            "--rounds {} makes {total} games; one tournament has at most {MAX_GAMES} \
             (fewer rounds, or several tournaments with different --seed)",
            args.flags.rounds
        );
    }
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
            let position =
                opening.position(entry, variant).with_context(|| format!("opening '{opening}'"))?;
            if let Some(outcome) = position.outcome() {
                bail!("opening '{opening}' (round {}) is already over: {outcome}", fixture.round);
            }
            slot.insert(opening);
        }
    }
    let max_plies = args.flags.max_plies.unwrap_or(entry.default_max_plies);
    let fingerprint = format!(
        "game={} variant={} engines={:x} rounds={} gauntlet={} openings={:x} seed={} max_plies={} shard={}",
        entry.name,
        variant,
        fnv1a(&engines.iter().map(EngineSpec::canonical).collect::<Vec<_>>().join("\n")),
        args.flags.rounds,
        args.flags.gauntlet,
        fnv1a(
            &round_openings
                .iter()
                .map(|(round, opening)| format!("{round} {opening}"))
                .collect::<Vec<_>>()
                .join("\n")
        ),
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
            if outputs.state.is_some() { "; run the same command to resume" } else { "" }
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

/// The files games are written to as they end, each with its path.
struct Outputs {
    pgn: Option<(PathBuf, File)>,
    jsonl: Option<(PathBuf, File)>,
    state: Option<(PathBuf, File)>,
}

impl Outputs {
    /// Opens `--pgnout` and `--jsonl` for appending and rewrites the state
    /// file from `done`, the games it held. The last of them is the one a kill
    /// may have caught after its state line but before the other outputs: it
    /// is completed there, never written twice.
    fn open(args: &ArenaArgs, fingerprint: &str, done: &[GameRecord]) -> Result<Outputs> {
        let append = |path: &Option<PathBuf>| -> Result<Option<(PathBuf, File)>> {
            let Some(path) = path else { return Ok(None) };
            let file = OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("opening {}", path.display()))?;
            Ok(Some((path.clone(), file)))
        };
        let mut outputs = Outputs {
            pgn: append(&args.flags.pgnout)?,
            jsonl: append(&args.flags.jsonl)?,
            state: None,
        };
        if let Some(path) = &args.flags.state {
            write_state(path, fingerprint, done)
                .with_context(|| format!("writing {}", path.display()))?;
            outputs.state = append(&args.flags.state)?;
        }
        if let Some(last) = done.last() {
            let json = serde_json::to_string(last)? + "\n";
            for (output, text) in [(&mut outputs.pgn, last.pgn(EVENT)), (&mut outputs.jsonl, json)]
            {
                if let Some((path, file)) = output {
                    complete_tail(path, file, &text)
                        .with_context(|| format!("writing {}", path.display()))?;
                }
            }
        }
        Ok(outputs)
    }

    /// Writes a finished game everywhere, the state first.
    fn write(&mut self, record: &GameRecord) -> Result<()> {
        let json = serde_json::to_string(record)? + "\n";
        let pgn = record.pgn(EVENT);
        for (output, text) in
            [(&mut self.state, &json), (&mut self.pgn, &pgn), (&mut self.jsonl, &json)]
        {
            if let Some((path, file)) = output {
                file.write_all(text.as_bytes())
                    .and_then(|()| file.flush())
                    .with_context(|| format!("writing game {} to {}", record.id, path.display()))?;
            }
        }
        Ok(())
    }
}

/// Writes the state file anew (through a temporary file, so a kill leaves
/// the old one or the new one): the tournament's fingerprint, then `done`.
fn write_state(path: &Path, fingerprint: &str, done: &[GameRecord]) -> Result<()> {
    let tmp = path.with_extension("tmp");
    let mut file = File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
    writeln!(file, "{}", serde_json::json!({ "arena_state": 1, "tournament": fingerprint }))?;
    for record in done {
        writeln!(file, "{}", serde_json::to_string(record)?)?;
    }
    file.sync_all()?;
    std::fs::rename(&tmp, path)?;
    Ok(())
}

/// Appends what `text` lacks at the end of `file` (open for appending at
/// `path`): nothing when the file ends with it, the rest when it ends with a
/// cut-off start of it, else all of it.
fn complete_tail(path: &Path, file: &mut File, text: &str) -> Result<()> {
    let text = text.as_bytes();
    let mut reader = File::open(path)?;
    let len = reader.metadata()?.len();
    let take = len.min(text.len() as u64);
    reader.seek(SeekFrom::Start(len - take))?;
    let mut tail = Vec::new();
    reader.read_to_end(&mut tail)?;
    let present = (0..=text.len()).rev().find(|&k| tail.ends_with(&text[..k])).unwrap_or(0);
    file.write_all(&text[present..])?;
    file.flush()?;
    Ok(())
}

/// The games of a state file, each checked against the schedule and the
/// rules, a repeated line counted once. A torn last line (a kill while it was
/// written) is dropped: that game is played again.
fn read_state(path: &Path, plan: &Plan) -> Result<Vec<GameRecord>> {
    let file = File::open(path).with_context(|| format!("reading {}", path.display()))?;
    let mut lines = Lines::new(BufReader::new(file));
    let header = match lines.next() {
        None => return Ok(Vec::new()),
        Some(line) => line.with_context(|| format!("reading {}", path.display()))?,
    };
    let header: serde_json::Value = serde_json::from_str(&header)
        .with_context(|| format!("{} is not an arena state file", path.display()))?;
    if header["tournament"].as_str() != Some(plan.fingerprint.as_str()) {
        bail!(
            "{} holds another tournament ({}), not this one ({}): to resume that one, run \
             the command that started it; to start this one, give another --state file \
             or remove this one",
            path.display(),
            header["tournament"],
            plan.fingerprint
        );
    }
    let fixtures: HashMap<u64, Fixture> = plan.fixtures.iter().map(|f| (f.id, *f)).collect();
    let mut records: Vec<GameRecord> = Vec::new();
    let mut index: HashMap<u64, usize> = HashMap::new();
    let mut torn = None;
    for (number, line) in (2..).zip(lines) {
        let at = || format!("{}:{number}", path.display());
        let line = line.with_context(|| format!("reading {}", path.display()))?;
        if let Some(error) = torn.take() {
            return Err(error);
        }
        let record = match serde_json::from_str::<GameRecord>(&line) {
            Ok(record) => record,
            Err(e) => {
                torn = Some(anyhow!("{}: {e}", at()));
                continue;
            }
        };
        check_record(plan, &fixtures, &record).with_context(|| {
            format!("{}: game {} does not fit this tournament", at(), record.id)
        })?;
        match index.get(&record.id) {
            Some(&i) if same_game(&records[i], &record) => {}
            Some(_) => bail!("{}: game {} appears twice with different results", at(), record.id),
            None => {
                index.insert(record.id, records.len());
                records.push(record);
            }
        }
    }
    Ok(records)
}

/// Whether `record` is a game of the schedule, between its engines, from its
/// opening, with legal moves and the result the rules (or a forfeit) give.
fn check_record(plan: &Plan, fixtures: &HashMap<u64, Fixture>, record: &GameRecord) -> Result<()> {
    let referee = &plan.referee;
    let fixture = fixtures.get(&record.id).context("the id is not in the schedule")?;
    let (p1, p2) = (&referee.engines[fixture.p1].name, &referee.engines[fixture.p2].name);
    if (&record.p1, &record.p2) != (p1, p2) || record.round != fixture.round {
        bail!(
            "{} vs {} in round {}, where the schedule has {p1} vs {p2} in round {}",
            record.p1,
            record.p2,
            record.round,
            fixture.round
        );
    }
    if record.game != referee.entry.name || record.variant != referee.variant {
        bail!("a game of {} {}", record.game, record.variant);
    }
    let opening = &plan.openings[&fixture.round];
    if record.opening != opening.to_string() || !record.moves.starts_with(&opening.moves) {
        bail!("opening '{}', where the schedule has '{opening}'", record.opening);
    }
    let mut game = board_core::GameRecord::new(
        opening.base(referee.entry, &referee.variant)?,
        referee.max_plies,
    );
    for mv in &record.moves {
        game.play(mv)?;
    }
    let end = game.outcome();
    let by_rules = end.is_some() && !game.ended_at_cap();
    let expected = match (record.termination, end) {
        (Termination::Normal, Some(end)) if by_rules => end.result_text(),
        (Termination::MaxPlies, Some(end)) if !by_rules => end.result_text(),
        (Termination::Normal | Termination::MaxPlies, _) => {
            bail!("'{}' where the moves do not end so", record.termination)
        }
        (_, Some(_)) => bail!("a forfeit ('{}') after the end", record.termination),
        (_, None) if matches!(record.result.as_str(), "1-0" | "0-1") => return Ok(()),
        (_, None) => bail!("a forfeit ('{}') with result {}", record.termination, record.result),
    };
    if record.result != expected {
        bail!("result {} where the moves give {expected}", record.result);
    }
    Ok(())
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
        for (i, line) in Lines::new(BufReader::new(file)).enumerate() {
            let line = line.with_context(|| format!("reading {}", path.display()))?;
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
