//! The tournament: plan from the flags, play the schedule concurrently, write
//! each game as it ends, report; resume from a state file; merge shards.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, anyhow, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use protocol::Lines;
use protocol::client::{end_every_engine, terminated};
use search::{EngineKind, GameEntry, find_game};
use tokio::task::JoinSet;

use crate::adjudicate::{Adjudication, DrawRule, ResignRule, TableResults};
use crate::check::{game_table, repeated_games, verify};
use crate::config::{EngineSpec, Limit};
use crate::observe::{Event, Observers};
use crate::record::{GameRecord, MoveEval};
use crate::referee::{Idle, Referee, StartError};
use crate::schedule::{Fixture, GAMES_PER_ENCOUNTER, Opening, Openings, Pairing, Shard};
use crate::standings::Standings;
use crate::stats::{Sprt, SprtVerdict};
use crate::{ArenaArgs, MergeArgs};

/// The limit of engines that set none, with no `--each`.
const DEFAULT_LIMIT: Limit = Limit { tc: None, movetime_ms: Some(100), depth: None, nodes: None };
/// The event name in PGN records.
const EVENT: &str = "igroteka arena";
/// The most games one tournament schedules (the schedule is kept in memory).
const MAX_GAMES: u64 = 1_000_000;
/// The version of the state file's format (its header's `arena_state`):
/// 3 since records carry their pairing and the fingerprint the forfeit
/// rules (`--timemargin`, `--stall-timeout`, `--move-timeout`).
const STATE_VERSION: u64 = 3;

struct Plan {
    referee: Arc<Referee>,
    fixtures: Vec<Fixture>,
    openings: BTreeMap<u32, Opening>,
    concurrency: usize,
    sprt: Option<Sprt>,
    rating_interval: u32,
    quiet: bool,
    /// What decides the tournament's games, in words (state file headers
    /// and error messages); its hash is the fingerprint in every record.
    description: String,
    shard: Option<Shard>,
    /// `--wait`: the pause before a game that takes a finished one's place.
    wait: Duration,
}

impl Plan {
    /// The tournament's fingerprint (as in its records).
    fn tournament(&self) -> &str {
        &self.referee.tournament
    }

    /// The shard as the state header writes it.
    fn shard_text(&self) -> String {
        self.shard.map_or("all".to_owned(), |s| s.to_string())
    }
}

pub(crate) fn run(
    games: &'static [GameEntry],
    igroteka: PathBuf,
    args: ArenaArgs,
    observers: Observers,
) -> Result<()> {
    let plan = plan(games, igroteka, &args, observers)?;
    let lock = args.flags.state.as_deref().map(StateLock::take).transpose()?;
    let (runtime, mut outputs, done) = match prepare(&plan, &args) {
        Ok(prepared) => prepared,
        Err(e) => {
            if let Some(lock) = &lock {
                lock.remove_if_unused();
            }
            return Err(e);
        }
    };
    runtime.block_on(play(&plan, &mut outputs, done))
}

/// Everything before the first game: the state's games read back, the
/// runtime, every engine started once, the warnings, the outputs opened.
fn prepare(
    plan: &Plan,
    args: &ArenaArgs,
) -> Result<(tokio::runtime::Runtime, Outputs, Vec<GameRecord>)> {
    let done = match &args.flags.state {
        Some(path) => read_state(path, plan)?,
        None => Vec::new(),
    };
    let workers = plan.concurrency.clamp(1, 4);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .build()
        .context("starting the tokio runtime")?;
    let varies = runtime.block_on(async {
        let stopped = tokio::select! {
            varies = check_engines(&plan.referee) => return varies,
            stopped = terminated() => stopped,
        };
        end_every_engine().await;
        Err(stopped.into())
    })?;
    if plan.referee.max_plies == 0 {
        eprintln!("warning: {}", no_cap_warning(plan.referee.entry));
    }
    if let Some(warning) = repeat_warning(plan, &varies) {
        eprintln!("warning: {warning}");
    }
    let outputs = Outputs::open(args, plan, &done)?;
    Ok((runtime, outputs, done))
}

/// The warning for a tournament or self-play without a ply cap.
pub fn no_cap_warning(entry: &GameEntry) -> String {
    format!(
        "no ply cap (--max-plies 0): only the rules end a game, and the rules of {} have no \
         draw by repetition or move count, so a game that neither player ends goes on for \
         ever; the game's own cap is {} plies",
        entry.name, entry.default_max_plies
    )
}

/// How long [`StateLock::take`] waits for a lock a forked child still holds.
const LOCK_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

/// A run's hold on its state file: an advisory lock (`flock`) on the state
/// file itself, so a second run on the same state — a requeued task whose
/// first attempt still runs, a second terminal — is refused before it reads
/// or writes anything; it would write duplicate and conflicting games. The
/// state is rewritten by renaming a temporary file over it, which this run
/// locks before the rename ([`write_state`]): whichever file the name
/// points at, this run holds it. No separate lock file a user might delete.
/// A file system without locks is warned about, not refused.
///
/// A lock is also held, for a moment, by a child forked to start an engine
/// (by this process, or by a run that has just ended or been killed): the
/// child shares the open file until it executes the engine. So a run waits
/// up to [`LOCK_GRACE`] for the lock before it concludes another run holds it.
struct StateLock {
    path: PathBuf,
    _file: File,
    created: bool,
}

impl StateLock {
    fn take(state: &Path) -> Result<StateLock> {
        let created = !state.exists();
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(state)
            .with_context(|| format!("opening {}", state.display()))?;
        let asked = std::time::Instant::now();
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(TryLockError::WouldBlock) if asked.elapsed() < LOCK_GRACE => {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                Err(TryLockError::WouldBlock) => bail!(
                    "{} is in use by another run of the arena (it holds a lock on it): wait \
                     until that run ends, or stop it, then run this command again; or give \
                     this tournament another --state file",
                    state.display()
                ),
                Err(TryLockError::Error(e)) => {
                    eprintln!(
                        "warning: cannot lock {} ({e}): make sure no other run uses it",
                        state.display()
                    );
                    break;
                }
            }
        }
        Ok(StateLock { path: state.to_owned(), _file: file, created })
    }

    /// Removes the state file this run created, while it is still empty: a
    /// run stopped before its first game (an engine that does not start)
    /// leaves no file behind.
    fn remove_if_unused(&self) {
        if self.created && std::fs::metadata(&self.path).is_ok_and(|m| m.len() == 0) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Starts every engine once (`ugi` ... `readyok`, with the options of game
/// 0) before the first game, so a misspelt program or directory, or an
/// option an engine refuses, stops the tournament before it writes
/// anything. Returns, per engine, whether its games vary (see
/// [`Started::varies`](crate::referee::Started)).
async fn check_engines(referee: &Referee) -> Result<Vec<bool>> {
    let mut varies = Vec::new();
    for spec in &referee.engines {
        if let Some(dir) = &spec.dir
            && !dir.is_dir()
        {
            bail!("engine '{}': dir={} is not a directory", spec.name, dir.display());
        }
        let seed = referee.game_seed(0, board_core::Player::First);
        match referee.start(spec, seed, None).await {
            Ok(started) => {
                varies.push(started.varies);
                referee.release(varies.len() - 1, started);
            }
            Err(StartError::Fault(fault)) => bail!(
                "engine '{}' does not start ({}): {}",
                spec.name,
                fault.termination,
                fault.detail
            ),
            Err(StartError::Refused(refused)) => {
                bail!("{refused}: fix or drop the option, then run the command again")
            }
        }
    }
    Ok(varies)
}

/// The warning for a schedule whose games will repeat: two games with the
/// same engines in the same colours from the same opening, both engines
/// deterministic (see [`Started::varies`](crate::referee::Started)).
fn repeat_warning(plan: &Plan, varies: &[bool]) -> Option<String> {
    let mut seen = HashSet::new();
    let engines = &plan.referee.engines;
    let repeat = plan.fixtures.iter().find(|f| {
        !varies[f.p1] && !varies[f.p2] && !seen.insert((f.p1, f.p2, &plan.openings[&f.round]))
    })?;
    Some(format!(
        "{} and {} are deterministic here (fixed depth or nodes, no seed they use) and meet \
         again from an opening they already played ('{}'), so their games repeat move for \
         move and count several times; give --openings random:PLIES or --openings file=F",
        engines[repeat.p1].name, engines[repeat.p2].name, plan.openings[&repeat.round]
    ))
}

fn plan(
    games: &'static [GameEntry],
    igroteka: PathBuf,
    args: &ArenaArgs,
    observers: Observers,
) -> Result<Plan> {
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
        Some(tokens) => {
            Openings::parse_tokens(tokens, entry, variant, args.flags.rounds, args.flags.seed)?
        }
        None => Openings::Start,
    };
    let per_encounter = match (args.flags.games, args.flags.repeat) {
        (Some(0), _) => bail!("--games must be at least 1"),
        (Some(n), true) if n != GAMES_PER_ENCOUNTER => {
            bail!("--repeat is --games {GAMES_PER_ENCOUNTER}; it contradicts --games {n}")
        }
        (Some(n), _) => n,
        (None, _) => GAMES_PER_ENCOUNTER,
    };
    if sprt.as_ref().is_some_and(|sprt| sprt.pentanomial) && per_encounter % 2 == 1 {
        bail!(
            "--sprt counts pairs of games (pentanomial), and with --games {per_encounter} each \
             encounter's last game is in no pair: give an even --games, or --sprt penta=false"
        );
    }
    let pairing = Pairing {
        engines: engines.iter().map(|e| e.name.clone()).collect(),
        rounds: args.flags.rounds,
        gauntlet: args.flags.gauntlet,
        games: per_encounter,
        noswap: args.flags.noswap,
        reverse: args.flags.reverse,
    };
    let total = pairing.games();
    if total > MAX_GAMES {
        bail!(
            "--rounds {} with --games {per_encounter} makes {total} games; one tournament has at most \
             {MAX_GAMES} (fewer rounds, or several tournaments with different --seed)",
            args.flags.rounds
        );
    }
    let fixtures: Vec<Fixture> =
        pairing.fixtures().into_iter().filter(|f| shard.is_none_or(|s| s.contains(f))).collect();
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
    if let Some((round, opening)) = round_openings
        .iter()
        .find(|(_, o)| max_plies > 0 && o.moves.len() as u64 >= u64::from(max_plies))
    {
        bail!(
            "--max-plies {max_plies} leaves no move to the engines after the {}-ply opening \
             of round {round}: a longer cap or shorter openings",
            opening.moves.len()
        );
    }
    let move_timeout = args.flags.move_timeout.max(1);
    let adjudication = adjudication(&args.flags, games, entry)?;
    // Built (or read from the cache) once for every game.
    let table = if adjudication.table.is_some() { game_table(entry) } else { None };
    let description = format!(
        "game={} variant={} engines={:x} rounds={} gauntlet={} openings={:x} seed={} max_plies={} \
         timemargin={} stall_timeout={} move_timeout={move_timeout}{adjudication}{}",
        entry.name,
        variant,
        fnv1a(&engines.iter().map(EngineSpec::canonical).collect::<Vec<_>>().join("\n")),
        args.flags.rounds,
        args.flags.gauntlet,
        fnv1a(&openings.canonical()),
        args.flags.seed,
        max_plies,
        args.flags.timemargin,
        args.flags.stall_timeout,
        pairing.games_text(),
    );
    if let Some(dir) = &args.flags.engine_log {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("--engine-log: cannot make {}", dir.display()))?;
    }
    let concurrency = args
        .flags
        .concurrency
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let engine_count = engines.len();
    Ok(Plan {
        referee: Arc::new(Referee {
            entry,
            variant: variant.to_owned(),
            engines,
            igroteka,
            max_plies,
            time_margin: Duration::from_millis(args.flags.timemargin),
            stall_timeout: Duration::from_millis(args.flags.stall_timeout),
            restart: args.flags.restart,
            idle: Idle::new(engine_count),
            move_timeout: Duration::from_millis(move_timeout),
            engine_log: args.flags.engine_log.clone(),
            engine_log_bytes: args.flags.engine_log_limit,
            query_result: args.flags.query_result,
            seed: args.flags.seed,
            tournament: format!("{:016x}", fnv1a(&description)),
            pairing,
            adjudication,
            table,
            observers,
        }),
        fixtures,
        openings: round_openings,
        concurrency,
        sprt,
        rating_interval: args.flags.ratinginterval,
        quiet: args.flags.quiet,
        description,
        shard,
        wait: Duration::from_millis(args.flags.wait),
    })
}

/// The adjudication rules of `--draw`, `--resign` and `--tb`; `--tb` on a
/// game without an exact table is refused.
fn adjudication(
    flags: &crate::ArenaFlags,
    games: &[GameEntry],
    entry: &GameEntry,
) -> Result<Adjudication> {
    let table = if flags.tb {
        if !entry.has_endgame_table() {
            let with: Vec<&str> =
                games.iter().filter(|g| g.has_endgame_table()).map(|g| g.name).collect();
            bail!(
                "--tb: {} has no exact table to adjudicate by (games with one: {})",
                entry.name,
                if with.is_empty() { "none".to_owned() } else { with.join(", ") }
            );
        }
        Some(TableResults::parse(&flags.tbadjudicate)?)
    } else {
        None
    };
    Ok(Adjudication {
        draw: flags.draw.as_deref().map(DrawRule::parse_tokens).transpose()?,
        resign: flags.resign.as_deref().map(ResignRule::parse_tokens).transpose()?,
        table,
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
    let mut signalled = None;
    let terminated = terminated();
    tokio::pin!(terminated);
    let mut started = 0;
    loop {
        while !stopped && running.len() < plan.concurrency {
            let Some(fixture) = pending.pop_front() else { break };
            let referee = Arc::clone(&plan.referee);
            let opening = plan.openings[&fixture.round].clone();
            // The first games start at once; each later one in the place of
            // a finished one, after `--wait`.
            let wait = if started < plan.concurrency { Duration::ZERO } else { plan.wait };
            started += 1;
            running.spawn(async move {
                tokio::time::sleep(wait).await;
                referee.play(fixture, &opening).await
            });
        }
        if running.is_empty() {
            break;
        }
        tokio::select! {
            joined = running.join_next() => {
                let Some(joined) = joined else { break };
                let record = joined.context("a game task failed")??;
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
                plan.referee.observers.tell(Event::Standings {
                    table: &standings.table(),
                    played: records.len() as u64,
                    total,
                });
                if let Some(sprt) = &plan.sprt
                    && !stopped
                    && sprt.verdict(standings.sprt_llr(sprt)) != SprtVerdict::Continue
                {
                    stopped = true;
                    bar.suspend(|| eprintln!("{}; finishing the games in progress", standings.sprt_line(sprt)));
                }
                let finished = records.len() as u32;
                if !plan.quiet && plan.rating_interval > 0 && finished.is_multiple_of(plan.rating_interval) && !pending.is_empty() {
                    bar.suspend(|| eprintln!("\nInterim standings after {finished} games\n{}{}", standings.table(), standings.ratings_table()));
                }
            }
            signal = &mut terminated => {
                signalled = Some(signal);
                running.abort_all();
                while running.join_next().await.is_some() {}
                end_every_engine().await;
                break;
            }
        }
    }
    plan.referee.close().await;
    bar.finish_and_clear();
    records.sort_by_key(|r| r.id);
    writeln!(std::io::stdout(), "{}", Standings::new(&names, &records).report(plan.sprt.as_ref()))?;
    warn_repeated(&records);
    if let Some(signal) = signalled {
        return Err(anyhow::Error::new(signal).context(format!(
            "interrupted after {} of {total} games{}",
            records.len(),
            if outputs.state.is_some() { "; run the same command to resume" } else { "" }
        )));
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
    fn open(args: &ArenaArgs, plan: &Plan, done: &[GameRecord]) -> Result<Outputs> {
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
            let file = write_state(path, plan, done)
                .with_context(|| format!("writing {}", path.display()))?;
            outputs.state = Some((path.clone(), file));
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
/// the old one or the new one): a header (the format's version, the
/// tournament's fingerprint, its shard and its description), then `done`.
/// The temporary file is the state's whole name plus `.tmp` (`st.1.tmp`),
/// so states that differ only after their last dot (`st.1`, `st.2`: shards
/// started together) never share one; it is locked before it takes the
/// state's name ([`StateLock`]). Returns it, open at its end, for the games
/// to come.
fn write_state(path: &Path, plan: &Plan, done: &[GameRecord]) -> Result<File> {
    let tmp = beside(path, ".tmp");
    let mut file = File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
    // Unlocked only where locks are not supported, as warned about.
    let _ = file.try_lock();
    let header = serde_json::json!({
        "arena_state": STATE_VERSION,
        "tournament": plan.tournament(),
        "shard": plan.shard_text(),
        "description": plan.description,
    });
    writeln!(file, "{header}")?;
    for record in done {
        writeln!(file, "{}", serde_json::to_string(record)?)?;
    }
    file.sync_all()?;
    std::fs::rename(&tmp, path)?;
    Ok(file)
}

/// `path` with `suffix` added to its whole file name (`st.1` -> `st.1.tmp`).
fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
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
    let header = state_header(path, &header)?;
    if header["tournament"].as_str() != Some(plan.tournament()) {
        bail!(
            "{} holds another tournament ({}), not this one ({}): to resume that one, run \
             the command that started it; to start this one, give another --state file \
             or remove this one",
            path.display(),
            header["description"],
            plan.description
        );
    }
    if header["shard"].as_str() != Some(plan.shard_text().as_str()) {
        bail!(
            "{} holds shard {} of this tournament, not {}: give each shard its own --state file",
            path.display(),
            header["shard"],
            plan.shard_text()
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

/// The header of a state file, checked for its version.
fn state_header(path: &Path, line: &str) -> Result<serde_json::Value> {
    let header: serde_json::Value = serde_json::from_str(line)
        .with_context(|| format!("{} is not an arena state file", path.display()))?;
    match header["arena_state"].as_u64() {
        Some(STATE_VERSION) => Ok(header),
        Some(version) => bail!(
            "{}: a state file of version {version}; this arena reads version {STATE_VERSION} \
             (finish it with the arena that wrote it, or give this run another --state file)",
            path.display()
        ),
        None => bail!("{} is not an arena state file", path.display()),
    }
}

/// Whether `record` is a game of the schedule — its id, engines, round and
/// opening the schedule's, written for this tournament and ply cap — and
/// what it says of itself holds ([`verify`]).
fn check_record(plan: &Plan, fixtures: &HashMap<u64, Fixture>, record: &GameRecord) -> Result<()> {
    let referee = &plan.referee;
    if record.pairing.as_ref() != Some(&referee.pairing) {
        bail!("another pairing (engines, rounds) than this tournament's");
    }
    if record.game != referee.entry.name || record.variant != referee.variant {
        bail!(
            "a game of {} {}, not {} {}",
            record.game,
            record.variant,
            referee.entry.name,
            referee.variant
        );
    }
    if record.tournament != plan.tournament() {
        bail!("tournament {}, not this one ({})", record.tournament, plan.tournament());
    }
    if record.max_plies != Some(referee.max_plies) {
        let cap = record.max_plies.map_or("none".to_owned(), |cap| cap.to_string());
        bail!("ply cap {cap}, not this tournament's {}", referee.max_plies);
    }
    // The id, engines and round against the pairing, which is this
    // tournament's; then the opening the schedule gives that round.
    verify(referee.entry, record)?;
    let fixture = fixtures.get(&record.id).context("the id is not in the schedule")?;
    let opening = &plan.openings[&fixture.round];
    if record.opening != opening.to_string() || record.fen != opening.fen {
        bail!("opening '{}', where the schedule has '{opening}'", record.opening);
    }
    Ok(())
}

/// Warns when games repeat an earlier one move for move.
fn warn_repeated(records: &[GameRecord]) {
    let repeated = repeated_games(records);
    if repeated > 0 {
        eprintln!(
            "warning: {repeated} of {} games repeat an earlier game move for move (same \
             engines, same opening): deterministic engines replay their games, which then \
             count several times; give --openings random:PLIES or --openings file=F",
            records.len()
        );
    }
}

/// `igroteka arena merge F...`: reads JSONL game records (from `--jsonl` or
/// `--state` files, e.g. of shards), checks them ([`read_records`]) and
/// prints the standings of the whole.
///
/// # Errors
/// As [`read_records`]; games of the tournament missing, unless
/// `--partial` (then a warning).
pub fn merge(games: &[GameEntry], args: &MergeArgs) -> Result<()> {
    let records = read_records(games, &args.files)?;
    if let Some(missing) = missing_games(&records) {
        if !args.partial {
            bail!("{missing}: give every shard's file, or --partial to merge the games there are");
        }
        eprintln!("warning: {missing}: standings of the {} games there are", records.len());
    }
    let standings = Standings::new(&[], &records);
    if args.json {
        writeln!(std::io::stdout(), "{}", standings.to_json())?;
    } else {
        writeln!(std::io::stdout(), "{}", standings.report(None))?;
    }
    warn_repeated(&records);
    Ok(())
}

/// What games of the tournament `records` (checked by [`read_records`])
/// lack, in words: how many of how many, the first few numbers.
fn missing_games(records: &[GameRecord]) -> Option<String> {
    let total = records.first()?.pairing.as_ref()?.games();
    let present: HashSet<u64> = records.iter().map(|r| r.id).collect();
    let missing = total - present.len() as u64;
    if missing == 0 {
        return None;
    }
    const SHOWN: usize = 5;
    let first: Vec<String> = (0..total)
        .filter(|id| !present.contains(id))
        .take(SHOWN)
        .map(|id| id.to_string())
        .collect();
    let more = if missing > SHOWN as u64 { ", ..." } else { "" };
    let (is, s) = if missing == 1 { ("is", "") } else { ("are", "s") };
    Some(format!(
        "{missing} of the tournament's {total} games {is} missing (game{s} {}{more})",
        first.join(", ")
    ))
}

/// The records of `files` (`--jsonl` or `--state` files, e.g. of shards),
/// sorted by id. Every record is replayed and checked as resume checks it
/// (its engines and round the schedule's for its id, its moves legal under
/// its ply cap, its end, result, score and blame what they give); all must
/// be of one tournament (one fingerprint: same game, engines, limits,
/// rounds, openings, seed, ply cap and forfeit rules; one pairing), and the
/// games of one round of one opening. A state file's header must be of this
/// version and tournament. Games may be missing (a single shard's file
/// reads); [`merge`] refuses that unless asked.
///
/// # Errors
/// Unreadable files, bad lines, a record that does not check, records of
/// different tournaments, one game in two places (even the same record: a
/// file given twice).
pub fn read_records(games: &[GameEntry], files: &[PathBuf]) -> Result<Vec<GameRecord>> {
    let mut by_id: BTreeMap<u64, (GameRecord, String)> = BTreeMap::new();
    for path in files {
        let file = File::open(path).with_context(|| format!("reading {}", path.display()))?;
        let mut header_tournament = None;
        for (number, line) in (1..).zip(Lines::new(BufReader::new(file))) {
            let at = format!("{}:{number}", path.display());
            let line = line.with_context(|| format!("reading {}", path.display()))?;
            if line.trim().is_empty() {
                continue;
            }
            if number == 1 && line.contains("\"arena_state\"") {
                let header = state_header(path, &line)?;
                header_tournament = header["tournament"].as_str().map(str::to_owned);
                continue;
            }
            let record: GameRecord = serde_json::from_str(&line).with_context(|| at.clone())?;
            let context = || format!("{at}: game {}", record.id);
            let entry = find_game(games, &record.game).with_context(context)?;
            verify(entry, &record).with_context(context)?;
            if let Some(tournament) = &header_tournament
                && *tournament != record.tournament
            {
                bail!("{at}: game {} is of another tournament than its state file", record.id);
            }
            if let Some((first, first_at)) = by_id.values().next()
                && first.tournament != record.tournament
            {
                bail!(
                    "{at}: game {} is of tournament {}, {first_at} of tournament {}: shards of \
                     different tournaments (other game, engines, limits, rounds, openings, seed \
                     or ply cap) do not merge",
                    record.id,
                    record.tournament,
                    first.tournament
                );
            }
            if let Some((seen, seen_at)) = by_id.get(&record.id) {
                if same_game(seen, &record) {
                    bail!(
                        "{at}: game {} is also at {seen_at}: give each game once (a file given \
                         twice, or the state file and the JSONL of one run)",
                        record.id
                    );
                }
                bail!(
                    "{at}: game {} appears twice with different records (also at {seen_at})",
                    record.id
                );
            }
            by_id.insert(record.id, (record, at));
        }
    }
    check_together(&by_id)?;
    Ok(by_id.into_values().map(|(record, _)| record).collect())
}

/// The records of one tournament against each other: one game and
/// variant, one pairing (so one schedule, which [`verify`] checked each
/// game's engines and round against); the games of a round share its
/// opening.
fn check_together(by_id: &BTreeMap<u64, (GameRecord, String)>) -> Result<()> {
    let mut rounds: HashMap<u32, &(GameRecord, String)> = HashMap::new();
    let Some((first, first_at)) = by_id.values().next() else { return Ok(()) };
    for entry @ (record, at) in by_id.values() {
        if (&record.game, &record.variant) != (&first.game, &first.variant) {
            bail!(
                "{at}: game {} is a game of {} {}, {first_at} of {} {}",
                record.id,
                record.game,
                record.variant,
                first.game,
                first.variant
            );
        }
        if record.pairing != first.pairing {
            bail!(
                "{at}: game {} has another pairing (engines, rounds) than game {} at {first_at}, \
                 with the same fingerprint: an edited record",
                record.id,
                first.id
            );
        }
        let first = *rounds.entry(record.round).or_insert(entry);
        if first.0.opening != record.opening || first.0.fen != record.fen {
            bail!(
                "{at}: game {} of round {} starts from '{}', game {} of that round at {} from \
                 '{}': one round has one opening",
                record.id,
                record.round,
                record.opening,
                first.0.id,
                first.1,
                first.0.opening
            );
        }
    }
    Ok(())
}

/// Whether two records are of the same game, whatever the times measured.
fn same_game(a: &GameRecord, b: &GameRecord) -> bool {
    let untimed = |g: &GameRecord| {
        let evals = g.evals.iter().map(|e| MoveEval { ms: 0, ..*e }).collect();
        GameRecord { duration_ms: 0, evals, ..g.clone() }
    };
    untimed(a) == untimed(b)
}

fn fnv1a(text: &str) -> u64 {
    text.bytes()
        .fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}
