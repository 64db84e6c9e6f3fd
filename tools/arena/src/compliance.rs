//! `igroteka check-engine`: a protocol conformance script run against one
//! engine, as fastchess's `--compliance`, for every game of the registry.
//!
//! Each check sends typed messages through the protocol crate's client and
//! judges the answers by the game's own rules (the registry's
//! [`SearchGame`]): the handshake, the options, `isready`, `uginewgame`,
//! every limit kind of `go`, `position` with moves from the start and from a
//! position text, `isready` during a search, `stop` (and `stop` with no
//! search), the UGI queries, a legal `bestmove` in random positions, and
//! `quit`. Every read has a deadline, so a hanging engine cannot hang the
//! checker; after a failed check the engine is killed and the next check
//! starts a fresh one; at the end its whole process group is ended, also
//! when it ignores `quit` (which fails that check).

use std::fmt;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use protocol::client::{ClientError, EngineCommand, EngineProcess, Heard, MAX_OTHER_LINES};
use protocol::{
    EngineMessage, Go, GuiMessage, MoveToken, OptionDecl, OptionKind, Query, result_word,
};
use search::{GameEntry, find_game};
use tokio::time::Instant;

use crate::referee::position_message;
use crate::schedule::{Opening, Openings};

/// The flags of `igroteka check-engine`.
#[derive(Clone, Debug, clap::Args)]
pub struct CheckArgs {
    /// The game (default: the first registered one).
    #[arg(long)]
    pub game: Option<String>,
    /// Its variant (default: the game's default).
    #[arg(long)]
    pub variant: Option<String>,
    /// Milliseconds an answer that should come at once may take (`readyok`,
    /// `bestmove` after `stop`, the exit after `quit`), and the slack after
    /// a search's own time.
    #[arg(long, value_name = "MS", default_value_t = 2000)]
    pub timeout: u64,
    /// Milliseconds for `ugi` … `ugiok`, the first `readyok` after the
    /// options and `uginewgame` (tables are allocated then), and a search
    /// limited by depth or nodes.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub start_timeout: u64,
    /// Milliseconds an engine may overrun its movetime or clock before the
    /// check fails (as the arena's `--timemargin`).
    #[arg(long, value_name = "MS", default_value_t = 100)]
    pub timemargin: u64,
    /// Random positions (seeded random play from the start) in which the
    /// engine must answer a legal `bestmove`.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub positions: u32,
    /// Seed of the random positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// An option for the engine, `NAME=VALUE`, sent after its defaults;
    /// repeat per option.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// The engine: its program and arguments, after `--`.
    #[arg(last = true, required = true, value_name = "CMD")]
    pub command: Vec<String>,
}

/// The outcome of one check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Check {
    /// What was checked (`isready during search`).
    pub name: String,
    /// `Ok` with what was seen, or `Err` with why the check failed.
    pub outcome: std::result::Result<String, String>,
}

impl Check {
    /// Whether the check passed.
    pub fn passed(&self) -> bool {
        self.outcome.is_ok()
    }
}

/// `ok   name: what was seen` or `FAIL name: why`.
impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.outcome {
            Ok(seen) if seen.is_empty() => write!(f, "ok   {}", self.name),
            Ok(seen) => write!(f, "ok   {}: {seen}", self.name),
            Err(why) => write!(f, "FAIL {}: {why}", self.name),
        }
    }
}

/// A conformance run: which engine, which game, how long to wait.
#[derive(Clone, Debug)]
pub struct Checker {
    /// The game whose rules judge the moves.
    pub entry: &'static GameEntry,
    /// Its variant.
    pub variant: &'static str,
    /// How to start the engine.
    pub command: EngineCommand,
    /// Options sent after the engine's own defaults.
    pub options: Vec<(String, String)>,
    /// For answers that should come at once, and the slack after a
    /// search's own time.
    pub timeout: Duration,
    /// For `ugi`, the first `readyok`, `uginewgame`, and searches limited
    /// by depth or nodes.
    pub start_timeout: Duration,
    /// How far a search may overrun its movetime or clock.
    pub time_margin: Duration,
    /// Random positions for the legality check.
    pub positions: u32,
    /// Their seed.
    pub seed: u64,
}

/// Runs `igroteka check-engine`: prints each check to `out` as it ends
/// (`ok   name: ...` or `FAIL name: why`), then a summary line; builds its
/// own tokio runtime. Returns whether every check passed.
///
/// # Errors
/// Bad flags, or a command that cannot be started (one line saying why).
pub fn check_engine(
    games: &'static [GameEntry],
    args: &CheckArgs,
    out: &mut dyn Write,
) -> Result<bool> {
    let checker = Checker::from_args(games, args)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the tokio runtime")?;
    let mut failed_to_write = None;
    let checks = runtime.block_on(checker.run(|check| {
        if failed_to_write.is_none()
            && let Err(e) = writeln!(out, "{check}").and_then(|()| out.flush())
        {
            failed_to_write = Some(e);
        }
    }))?;
    if let Some(e) = failed_to_write {
        return Err(e.into());
    }
    let failed = checks.iter().filter(|c| !c.passed()).count();
    writeln!(
        out,
        "{} checks of {} ({} {}): {} ok, {failed} FAIL",
        checks.len(),
        args.command.join(" "),
        checker.entry.name,
        checker.variant,
        checks.len() - failed
    )?;
    Ok(failed == 0)
}

impl Checker {
    /// The checker the flags describe.
    ///
    /// # Errors
    /// An unknown game or variant, an option that is not `NAME=VALUE`, no
    /// command.
    pub fn from_args(games: &'static [GameEntry], args: &CheckArgs) -> Result<Checker> {
        let entry = match &args.game {
            Some(name) => find_game(games, name)?,
            None => games.first().context("no game is registered")?,
        };
        let variant = match &args.variant {
            Some(v) => entry.variant(v)?,
            None => entry.default_variant(),
        };
        let Some((program, rest)) = args.command.split_first() else {
            bail!("no engine command: give it after --, as in `check-engine -- ./engine --flag`");
        };
        let options = args
            .options
            .iter()
            .map(|token| match token.split_once('=') {
                Some((name, value)) if !name.trim().is_empty() => {
                    Ok((name.trim().to_owned(), value.to_owned()))
                }
                _ => bail!("--option {token}: not NAME=VALUE"),
            })
            .collect::<Result<_>>()?;
        Ok(Checker {
            entry,
            variant,
            command: EngineCommand {
                program: PathBuf::from(program),
                args: rest.to_vec(),
                dir: None,
                log: None,
            },
            options,
            timeout: Duration::from_millis(args.timeout.max(1)),
            start_timeout: Duration::from_millis(args.start_timeout.max(1)),
            time_margin: Duration::from_millis(args.timemargin),
            positions: args.positions,
            seed: args.seed,
        })
    }

    /// Runs every check, giving each to `report` as it ends; the engine is
    /// ended (its whole process group) before this returns.
    ///
    /// # Errors
    /// The command cannot be started ([`ClientError::Spawn`]).
    pub async fn run(&self, mut report: impl FnMut(&Check)) -> Result<Vec<Check>, ClientError> {
        let mut session =
            Session { checker: self, engine: None, broken: None, declared: Vec::new() };
        session.engine = Some(EngineProcess::spawn(&self.command)?);
        let mut checks = Vec::new();
        let mut record = |session: &mut Session<'_>, name: String, outcome| {
            let check = Check { name, outcome };
            if !check.passed() {
                session.discard();
            }
            report(&check);
            checks.push(check);
        };
        let outcome = session.ugi().await;
        if let Err(why) = &outcome {
            session.broken = Some(format!("not run: the engine does not start ({why})"));
        }
        record(&mut session, "ugi".to_owned(), outcome);
        let outcome = match &session.broken {
            Some(why) => Err(why.clone()),
            None => session.options().await,
        };
        if let Err(why) = &outcome
            && session.broken.is_none()
        {
            session.broken = Some(format!("not run: the engine does not take its options ({why})"));
        }
        record(&mut session, "options".to_owned(), outcome);
        for step in Step::ALL {
            let outcome = match session.ready().await {
                Ok(()) => session.step(step).await,
                Err(why) => Err(why),
            };
            record(&mut session, step.name(self), outcome);
        }
        let outcome = match session.ready().await {
            Ok(()) => session.quit().await,
            Err(why) => Err(why),
        };
        record(&mut session, "quit".to_owned(), outcome);
        if let Some(engine) = session.engine.take() {
            engine.quit(Duration::ZERO).await;
        }
        Ok(checks)
    }
}

/// The checks between the options and `quit`, each on a ready engine.
#[derive(Clone, Copy, Debug)]
enum Step {
    IsReady,
    NewGame,
    Depth,
    Nodes,
    MoveTime,
    Clock,
    MovesToGo,
    StartposMoves,
    FenMoves,
    IsReadyWhileSearching,
    Stop,
    StopWhileIdle,
    Queries,
    RandomPositions,
}

impl Step {
    const ALL: [Step; 14] = [
        Step::IsReady,
        Step::NewGame,
        Step::Depth,
        Step::Nodes,
        Step::MoveTime,
        Step::Clock,
        Step::MovesToGo,
        Step::StartposMoves,
        Step::FenMoves,
        Step::IsReadyWhileSearching,
        Step::Stop,
        Step::StopWhileIdle,
        Step::Queries,
        Step::RandomPositions,
    ];

    fn name(self, checker: &Checker) -> String {
        match self {
            Step::IsReady => "isready".to_owned(),
            Step::NewGame => "uginewgame".to_owned(),
            Step::Depth => format!("go depth {DEPTH}"),
            Step::Nodes => format!("go nodes {NODES}"),
            Step::MoveTime => format!("go movetime {MOVETIME_MS}"),
            Step::Clock => "go p1time p2time p1inc p2inc (player 2 to move)".to_owned(),
            Step::MovesToGo => format!("go p1time p2time movestogo {MOVES_TO_GO}"),
            Step::StartposMoves => "position startpos moves".to_owned(),
            Step::FenMoves => "position fen moves".to_owned(),
            Step::IsReadyWhileSearching => "isready during search".to_owned(),
            Step::Stop => "stop".to_owned(),
            Step::StopWhileIdle => "stop with no search".to_owned(),
            Step::Queries => "query gameover, p1turn, result".to_owned(),
            Step::RandomPositions => {
                format!("legal bestmove in {} random positions", checker.positions)
            }
        }
    }
}

/// The depth of `go depth`.
const DEPTH: u32 = 1;
/// The nodes of `go nodes`.
const NODES: u64 = 100;
/// The time of `go movetime`.
const MOVETIME_MS: u64 = 100;
/// The clocks of the clock check: player 1 has plenty, player 2 (to move)
/// little, so an engine that reads the wrong clock overruns its own.
const CLOCK_P1_MS: u64 = 600_000;
const CLOCK_P2_MS: u64 = 1000;
const CLOCK_INC_MS: u64 = 100;
/// The clocks and moves of the `movestogo` check.
const MOVES_TO_GO: u32 = 4;
const MOVES_TO_GO_MS: u64 = 1000;
/// How long a search runs before `isready` or `stop` is sent into it.
const SEARCHING: Duration = Duration::from_millis(100);
/// Bytes of lines kept per wait for judging (the others are only
/// counted): every option of an engine that declares hundreds.
const KEPT_BYTES: usize = 1 << 20;

/// The engine under test and what is known of it.
struct Session<'a> {
    checker: &'a Checker,
    /// The engine, ready for the next check (`None`: start a fresh one).
    engine: Option<EngineProcess>,
    /// Why no fresh engine can be made ready: the checks left fail so.
    broken: Option<String>,
    /// The options the engine declared.
    declared: Vec<OptionDecl>,
}

/// What came before an awaited message, up to [`KEPT_BYTES`] of text.
struct Before {
    /// The messages.
    messages: Vec<EngineMessage>,
    /// Lines that were no message, and why.
    unreadable: Vec<(String, String)>,
    /// Bytes of text left to keep.
    room: usize,
}

impl Before {
    /// Whether a line of `bytes` is still kept (and takes its room).
    fn keeps(&mut self, bytes: usize) -> bool {
        match self.room.checked_sub(bytes) {
            Some(room) => {
                self.room = room;
                true
            }
            None => false,
        }
    }
}

impl Session<'_> {
    /// Kills the engine (dropping it kills its whole group) after a failed
    /// check: its state is unknown; the next check starts a fresh one.
    fn discard(&mut self) {
        self.engine = None;
    }

    fn engine(&mut self) -> std::result::Result<&mut EngineProcess, String> {
        self.engine.as_mut().ok_or_else(|| "the engine is not running".to_owned())
    }

    async fn send(&mut self, message: &GuiMessage) -> std::result::Result<(), String> {
        self.engine()?.send(message).await.map_err(|e| e.to_string())
    }

    /// Reads until `wanted` accepts a message, within `timeout`.
    async fn wait<T>(
        &mut self,
        what: &str,
        timeout: Duration,
        mut wanted: impl FnMut(&EngineMessage) -> Option<T>,
    ) -> std::result::Result<(T, Before), String> {
        let deadline = Instant::now() + timeout;
        let engine = self.engine()?;
        let mut before = Before { messages: Vec::new(), unreadable: Vec::new(), room: KEPT_BYTES };
        let mut others = 0;
        loop {
            match engine.next_line(deadline).await {
                Ok(Some(Heard::Message(message))) => {
                    if let Some(found) = wanted(&message) {
                        return Ok((found, before));
                    }
                    if before.keeps(message.to_string().len()) {
                        before.messages.push(message);
                    }
                }
                Ok(Some(Heard::Unreadable(line, e))) => {
                    if before.keeps(line.len()) {
                        before.unreadable.push((line, e.to_string()));
                    }
                }
                Ok(None) => {
                    let stderr = engine.stderr();
                    let tail = if stderr.is_empty() {
                        String::new()
                    } else {
                        format!("; stderr: {}", stderr.join(" | "))
                    };
                    return Err(format!("no '{what}' within {} ms{tail}", timeout.as_millis()));
                }
                Err(e) => return Err(e.to_string()),
            }
            others += 1;
            if others > MAX_OTHER_LINES {
                return Err(format!("more than {MAX_OTHER_LINES} lines without '{what}'"));
            }
        }
    }

    /// The move of the next `bestmove`, within `timeout`.
    async fn bestmove(
        &mut self,
        timeout: Duration,
    ) -> std::result::Result<Option<MoveToken>, String> {
        let best = |m: &EngineMessage| match m {
            EngineMessage::BestMove(mv) => Some(mv.clone()),
            _ => None,
        };
        Ok(self.wait("bestmove", timeout, best).await?.0)
    }

    /// `isready` … `readyok` within the timeout, unless a `bestmove` comes
    /// first: then its move.
    async fn ready_unless_bestmove(
        &mut self,
    ) -> std::result::Result<Option<Option<MoveToken>>, String> {
        self.send(&GuiMessage::IsReady).await?;
        let ready = |m: &EngineMessage| match m {
            EngineMessage::ReadyOk => Some(None),
            EngineMessage::BestMove(mv) => Some(Some(mv.clone())),
            _ => None,
        };
        Ok(self.wait("readyok", self.checker.timeout, ready).await?.0)
    }

    /// `isready` … `readyok` within `timeout`; returns the
    /// `info string error: ...` texts written before it.
    async fn sync(&mut self, timeout: Duration) -> std::result::Result<Vec<String>, String> {
        self.send(&GuiMessage::IsReady).await?;
        let ready = |m: &EngineMessage| (*m == EngineMessage::ReadyOk).then_some(());
        let ((), before) = self.wait("readyok", timeout, ready).await?;
        Ok(protocol::client::errors(&before.messages))
    }

    /// A fresh engine, made ready as the options check made the first one,
    /// when the last check discarded its engine.
    async fn ready(&mut self) -> std::result::Result<(), String> {
        if let Some(why) = &self.broken {
            return Err(why.clone());
        }
        if self.engine.is_some() {
            return Ok(());
        }
        let restart = async {
            self.engine =
                Some(EngineProcess::spawn(&self.checker.command).map_err(|e| e.to_string())?);
            self.ugi().await?;
            self.options().await
        };
        match restart.await {
            Ok(_) => Ok(()),
            Err(why) => {
                let why = format!("not run: a fresh engine does not get ready ({why})");
                self.broken = Some(why.clone());
                self.discard();
                Err(why)
            }
        }
    }

    /// `ugi` … `ugiok`: a name, readable option lines, and `Game` and
    /// `Variant` options (if declared) that offer the game checked.
    async fn ugi(&mut self) -> std::result::Result<String, String> {
        let checker = self.checker;
        self.send(&GuiMessage::Ugi).await?;
        let ok = |m: &EngineMessage| match m {
            EngineMessage::UgiOk => Some(true),
            EngineMessage::UciOk => Some(false),
            _ => None,
        };
        let (ugi, before) = self.wait("ugiok", checker.start_timeout, ok).await?;
        if !ugi {
            return Err("answered 'ugi' with 'uciok': a UCI engine; UGI needs 'ugiok'".to_owned());
        }
        if let Some((line, why)) = before.unreadable.iter().find(|(line, _)| {
            line.split_whitespace().next().is_some_and(|w| w == "option" || w == "id")
        }) {
            return Err(format!("an unreadable line '{line}': {why}"));
        }
        let name = before.messages.iter().find_map(|m| match m {
            EngineMessage::IdName(name) => Some(name.clone()),
            _ => None,
        });
        let Some(name) = name else {
            return Err("no 'id name' before 'ugiok'".to_owned());
        };
        let declared: Vec<&OptionDecl> = before
            .messages
            .iter()
            .filter_map(|m| match m {
                EngineMessage::Option(decl) => Some(decl),
                _ => None,
            })
            .collect();
        for (option, wanted) in [("Game", checker.entry.name), ("Variant", checker.variant)] {
            if let Some(OptionDecl { kind: OptionKind::Combo { vars, .. }, .. }) =
                declared.iter().find(|d| d.name.eq_ignore_ascii_case(option))
                && !vars.iter().any(|v| v.eq_ignore_ascii_case(wanted))
            {
                return Err(format!(
                    "its {option} option cannot be '{wanted}' (it offers {})",
                    vars.join(", ")
                ));
            }
        }
        let options: Vec<OptionDecl> = declared.into_iter().cloned().collect();
        let count = options.len();
        self.declared = options;
        Ok(format!("id name {name}, {count} options"))
    }
}

/// What a search check expects of the `bestmove`.
struct Search {
    /// The position, as sent.
    position: Opening,
    /// The `go`.
    go: Go,
    /// How long the answer may take (for a timed search, beyond its time
    /// and margin).
    within: Duration,
    /// Time the engine must not overrun (its movetime or clock).
    budget: Option<Duration>,
}

impl Session<'_> {
    /// Every declared option but buttons and empty strings at its declared
    /// default, then
    /// `Game` and `Variant` (when declared) and the `--option`s; then
    /// `isready` … `readyok`, with no `info string error: ...` on the way.
    async fn options(&mut self) -> std::result::Result<String, String> {
        let checker = self.checker;
        let is = |name: &str, wanted: &str| name.trim().eq_ignore_ascii_case(wanted);
        let mut options: Vec<(String, String)> = Vec::new();
        for decl in &self.declared {
            let default = match &decl.kind {
                OptionKind::Check { default } => default.to_string(),
                OptionKind::Spin { default, .. } => default.to_string(),
                OptionKind::Combo { default, .. } => default.clone(),
                // UCI writes an empty default `<empty>`.
                OptionKind::String { default } if !default.is_empty() && default != "<empty>" => {
                    default.clone()
                }
                OptionKind::String { .. } | OptionKind::Button => continue,
            };
            if !is(&decl.name, "Game")
                && !is(&decl.name, "Variant")
                && !checker.options.iter().any(|(name, _)| is(name, &decl.name))
            {
                options.push((decl.name.clone(), default));
            }
        }
        let defaults = options.len();
        for (name, value) in [("Game", checker.entry.name), ("Variant", checker.variant)] {
            if let Some(decl) = self.declared.iter().find(|d| is(&d.name, name)) {
                options.push((decl.name.clone(), value.to_owned()));
            }
        }
        for (name, value) in &checker.options {
            if !self.declared.iter().any(|d| is(&d.name, name)) {
                return Err(format!("--option {name}: the engine declares no such option"));
            }
            options.push((name.clone(), value.clone()));
        }
        for (name, value) in &options {
            let set = GuiMessage::SetOption { name: name.clone(), value: Some(value.clone()) };
            self.send(&set).await?;
        }
        let errors = self.sync(checker.start_timeout).await?;
        if !errors.is_empty() {
            return Err(format!("refused: {}", errors.join("; ")));
        }
        let set: Vec<String> =
            options[defaults..].iter().map(|(name, value)| format!("{name}={value}")).collect();
        Ok(if set.is_empty() {
            format!("{defaults} defaults taken")
        } else {
            format!("{defaults} defaults taken, then {}", set.join(" "))
        })
    }

    async fn step(&mut self, step: Step) -> std::result::Result<String, String> {
        let checker = self.checker;
        let (timeout, start) = (checker.timeout, checker.start_timeout);
        let depth = Go { depth: Some(DEPTH), ..Go::default() };
        let random = |plies: u32, which: u32| random_position(checker, plies, which);
        match step {
            Step::IsReady => {
                let sent = Instant::now();
                let errors = self.sync(timeout).await?;
                if !errors.is_empty() {
                    return Err(format!("errors before readyok: {}", errors.join("; ")));
                }
                Ok(format!("readyok in {} ms", sent.elapsed().as_millis()))
            }
            Step::NewGame => {
                self.send(&GuiMessage::NewGame).await?;
                self.sync(start).await?;
                Ok(String::new())
            }
            Step::Depth => {
                let search =
                    Search { position: Opening::default(), go: depth, within: start, budget: None };
                self.search(&search).await
            }
            Step::Nodes => {
                let go = Go { nodes: Some(NODES), ..Go::default() };
                let search =
                    Search { position: Opening::default(), go, within: start, budget: None };
                self.search(&search).await
            }
            Step::MoveTime => {
                let go = Go { movetime: Some(MOVETIME_MS), ..Go::default() };
                let budget = Duration::from_millis(MOVETIME_MS);
                let search = Search {
                    position: Opening::default(),
                    go,
                    within: timeout,
                    budget: Some(budget),
                };
                self.search(&search).await
            }
            Step::Clock => {
                // A position with player 2 to move.
                let position = (1..=8)
                    .map(|which| random(1, which))
                    .find(|o| {
                        o.as_ref().is_ok_and(|o| {
                            o.position(checker.entry, checker.variant).is_ok_and(|p| {
                                p.side_to_move() == board_core::Player::Second
                                    && p.outcome().is_none()
                            })
                        })
                    })
                    .unwrap_or_else(|| random(1, 1))?;
                let go = Go {
                    p1time: Some(CLOCK_P1_MS),
                    p2time: Some(CLOCK_P2_MS),
                    p1inc: Some(CLOCK_INC_MS),
                    p2inc: Some(CLOCK_INC_MS),
                    ..Go::default()
                };
                let budget = Duration::from_millis(CLOCK_P2_MS);
                let search = Search { position, go, within: timeout, budget: Some(budget) };
                self.search(&search).await
            }
            Step::MovesToGo => {
                let go = Go {
                    p1time: Some(MOVES_TO_GO_MS),
                    p2time: Some(MOVES_TO_GO_MS),
                    movestogo: Some(MOVES_TO_GO),
                    ..Go::default()
                };
                let budget = Some(Duration::from_millis(MOVES_TO_GO_MS));
                let search = Search { position: Opening::default(), go, within: timeout, budget };
                self.search(&search).await
            }
            Step::StartposMoves => {
                let search =
                    Search { position: random(6, 1)?, go: depth, within: start, budget: None };
                self.search(&search).await
            }
            Step::FenMoves => {
                let position = as_position_text(checker, &random(10, 2)?, 2)?;
                let search = Search { position, go: depth, within: start, budget: None };
                self.search(&search).await
            }
            Step::IsReadyWhileSearching => {
                let position = random(4, 3)?;
                self.infinite(&position).await?;
                let sent = Instant::now();
                if let Some(mv) = self.ready_unless_bestmove().await? {
                    return Err(early(mv.as_ref()));
                }
                let took = sent.elapsed().as_millis();
                // End the search; its answer is the next check's business.
                self.send(&GuiMessage::Stop).await?;
                self.bestmove(timeout).await?;
                Ok(format!("readyok in {took} ms"))
            }
            Step::Stop => {
                let position = random(4, 4)?;
                self.infinite(&position).await?;
                let sent = Instant::now();
                self.send(&GuiMessage::Stop).await?;
                let mv = self.bestmove(timeout).await?;
                let took = sent.elapsed().as_millis();
                let played = self.judge(&position, mv.as_ref())?;
                Ok(format!("bestmove {played} {took} ms after stop"))
            }
            Step::StopWhileIdle => {
                self.send(&GuiMessage::Stop).await?;
                match self.ready_unless_bestmove().await? {
                    None => Ok(String::new()),
                    Some(mv) => Err(format!(
                        "answered '{}' to a 'stop' with no search running",
                        EngineMessage::BestMove(mv)
                    )),
                }
            }
            Step::Queries => self.queries().await,
            Step::RandomPositions => self.random_positions().await,
        }
    }

    /// `position`, `go infinite`, then a short wait for the search to run;
    /// a `bestmove` before `stop` fails.
    async fn infinite(&mut self, position: &Opening) -> std::result::Result<(), String> {
        let message = position_message(position, &position.moves).map_err(|e| e.to_string())?;
        self.send(&message).await?;
        self.send(&GuiMessage::Go(Go { infinite: true, ..Go::default() })).await?;
        match self.bestmove(SEARCHING).await {
            Ok(mv) => Err(early(mv.as_ref())),
            Err(why) if why.starts_with("no 'bestmove' within") => Ok(()),
            Err(why) => Err(why),
        }
    }

    /// One search: `position`, `go`, then a legal `bestmove` in time.
    async fn search(&mut self, search: &Search) -> std::result::Result<String, String> {
        let message = position_message(&search.position, &search.position.moves)
            .map_err(|e| e.to_string())?;
        self.send(&message).await?;
        self.send(&GuiMessage::Go(search.go.clone())).await?;
        let sent = Instant::now();
        let within =
            search.within + search.budget.map_or(Duration::ZERO, |b| b + self.checker.time_margin);
        let mv = self.bestmove(within).await?;
        let took = sent.elapsed();
        let played = self.judge(&search.position, mv.as_ref())?;
        let margin = self.checker.time_margin;
        if let Some(budget) = search.budget
            && took > budget + margin
        {
            return Err(format!(
                "bestmove {played} after {} ms: it overran its {} ms (+{} ms margin)",
                took.as_millis(),
                budget.as_millis(),
                margin.as_millis()
            ));
        }
        Ok(format!("bestmove {played} in {} ms", took.as_millis()))
    }

    /// The move's canonical text if it is legal in `position`.
    fn judge(
        &self,
        position: &Opening,
        mv: Option<&MoveToken>,
    ) -> std::result::Result<String, String> {
        let checker = self.checker;
        let pos = position.position(checker.entry, checker.variant).map_err(|e| e.to_string())?;
        let Some(mv) = mv else {
            return Err(format!("'bestmove (none)' after '{position}', where the game goes on"));
        };
        pos.check_move(mv).map_err(|e| format!("bestmove '{mv}' after '{position}': {e}"))
    }

    /// `query gameover`, `query p1turn` and `query result` in a position of
    /// a game going on and in a finished one, each answered as the rules say.
    async fn queries(&mut self) -> std::result::Result<String, String> {
        let checker = self.checker;
        let going = random_position(checker, 5, 5)?;
        let mut positions = vec![going];
        if let Some(finished) = self.finished_game() {
            positions.push(finished);
        }
        for position in &positions {
            let pos =
                position.position(checker.entry, checker.variant).map_err(|e| e.to_string())?;
            let message = position_message(position, &position.moves).map_err(|e| e.to_string())?;
            self.send(&message).await?;
            let over = pos.outcome().is_some();
            let p1 = pos.side_to_move() == board_core::Player::First;
            for (query, want) in [
                (Query::GameOver, over.to_string()),
                (Query::P1Turn, p1.to_string()),
                (Query::Result, result_word(pos.outcome()).to_owned()),
            ] {
                let asked = GuiMessage::Query(query);
                self.send(&asked).await?;
                let response = |m: &EngineMessage| match m {
                    EngineMessage::Response(text) => Some(text.clone()),
                    _ => None,
                };
                let (text, _) = self.wait("response", self.checker.timeout, response).await?;
                if text.trim() != want {
                    return Err(format!(
                        "'{asked}' after '{position}': answered 'response {text}', the rules say \
                         '{want}'"
                    ));
                }
            }
        }
        Ok(if positions.len() > 1 {
            "a game going on and a finished one".to_owned()
        } else {
            "a game going on (random play found no finished one)".to_owned()
        })
    }

    /// A game played to its end by seeded random moves (within the game's
    /// own ply cap), if one ends there.
    fn finished_game(&self) -> Option<Opening> {
        let checker = self.checker;
        let mut rng = board_core::Rng::new(checker.seed);
        for _ in 0..20 {
            let mut pos = checker.entry.start(checker.variant).ok()?;
            let mut moves = Vec::new();
            while pos.outcome().is_none() && moves.len() < checker.entry.default_max_plies as usize
            {
                moves.push(pos.play_random(&mut rng)?);
            }
            if pos.outcome().is_some() {
                return Some(Opening { fen: None, moves });
            }
        }
        None
    }

    /// A legal `bestmove` in random positions: from 1 to 40 plies deep, sent
    /// every other time as `startpos moves ...` and as a position text and
    /// its last moves, with `depth`, `nodes` and `movetime` in turn.
    async fn random_positions(&mut self) -> std::result::Result<String, String> {
        let checker = self.checker;
        let mut deepest = 0;
        for i in 0..checker.positions {
            let plies = 1 + (i * 7) % 40;
            let opening = random_position(checker, plies, 100 + i)?;
            deepest = deepest.max(opening.moves.len());
            let position =
                if i % 2 == 0 { opening } else { as_position_text(checker, &opening, 3)? };
            let (go, within, budget) = match i % 3 {
                0 => (Go { depth: Some(DEPTH), ..Go::default() }, checker.start_timeout, None),
                1 => (Go { nodes: Some(NODES), ..Go::default() }, checker.start_timeout, None),
                _ => {
                    let budget = Duration::from_millis(MOVETIME_MS / 2);
                    let go = Go { movetime: Some(MOVETIME_MS / 2), ..Go::default() };
                    (go, checker.timeout, Some(budget))
                }
            };
            self.search(&Search { position, go, within, budget }).await?;
        }
        Ok(format!("up to {deepest} plies deep"))
    }

    /// `quit`, then the process must exit within the timeout (its input
    /// left open: `quit` itself must end it).
    async fn quit(&mut self) -> std::result::Result<String, String> {
        let timeout = self.checker.timeout;
        self.send(&GuiMessage::Quit).await?;
        let sent = Instant::now();
        let deadline = sent + timeout;
        let engine = self.engine()?;
        loop {
            match engine.next_line(deadline).await {
                Ok(Some(_)) => {}
                Ok(None) => {
                    return Err(format!(
                        "still running {} ms after 'quit' (killed)",
                        timeout.as_millis()
                    ));
                }
                Err(ClientError::Disconnect { .. }) => {
                    return Ok(format!("exited {} ms after quit", sent.elapsed().as_millis()));
                }
                Err(e) => return Err(e.to_string()),
            }
        }
    }
}

/// A position of a game going on, `plies` random plies from the start
/// (fewer when the game ends sooner), the `which`-th of the seed's.
fn random_position(
    checker: &Checker,
    plies: u32,
    which: u32,
) -> std::result::Result<Opening, String> {
    let (entry, variant) = (checker.entry, checker.variant);
    for plies in (0..=plies).rev() {
        let opening = Openings::Random { plies }
            .for_round(which, checker.seed, entry, variant)
            .map_err(|e| e.to_string())?;
        let pos = opening.position(entry, variant).map_err(|e| e.to_string())?;
        if pos.outcome().is_none() {
            return Ok(opening);
        }
    }
    Err(format!("{} {variant} has no start position going on", entry.name))
}

/// `opening` (from the start) as the position text of all but its last
/// `last` moves, and those moves.
fn as_position_text(
    checker: &Checker,
    opening: &Opening,
    last: usize,
) -> std::result::Result<Opening, String> {
    let split = opening.moves.len().saturating_sub(last);
    let base = Opening { fen: None, moves: opening.moves[..split].to_vec() }
        .position(checker.entry, checker.variant)
        .map_err(|e| e.to_string())?;
    Ok(Opening { fen: Some(base.position_text()), moves: opening.moves[split..].to_vec() })
}

/// The failure of a `bestmove` sent during `go infinite` before `stop`.
fn early(mv: Option<&MoveToken>) -> String {
    format!(
        "'{}' during 'go infinite' before 'stop' (the search must wait for 'stop')",
        EngineMessage::BestMove(mv.cloned())
    )
}
