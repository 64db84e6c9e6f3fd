//! The client side of the protocol (feature `client`): one engine process,
//! driven the same way by every program that drives engines (the arena, the
//! browser GUI's server, `match`).
//!
//! - The engine runs in a process group of its own; [`EngineProcess::quit`]
//!   sends `quit`, closes its input, waits a short grace, then ends the whole
//!   group (SIGTERM, then SIGKILL), so an engine behind a wrapper script
//!   leaves nothing running. Dropping an [`EngineProcess`] kills the group.
//! - Lines are read with the engine side's limit ([`MAX_LINE_BYTES`]); a
//!   longer line or one that is not UTF-8 ends the conversation with
//!   [`ClientError::Garbage`], at once.
//! - Every wait has a deadline; a wait that passes it is
//!   [`ClientError::Timeout`], saying what was awaited.
//! - What is sent is a typed [`GuiMessage`] and must print as one line: a
//!   move, position or option text with a line break in it is refused
//!   ([`ClientError::Unsendable`]), never split into two commands.
//! - The last lines the engine wrote to stderr are kept and end every error
//!   message (a crash says why); with a log file, the whole conversation and
//!   stderr are written there too, up to a size ([`EngineLog`]).
//! - Every engine's group is known process-wide until it is ended: a
//!   program waits for [`terminated`] (SIGINT, SIGTERM, SIGHUP or SIGQUIT),
//!   stops its work, then calls [`end_every_engine`], so it leaves no engine
//!   running whatever signal stops it.
//! - Memory is bounded in bytes: lines read and not yet taken hold at most
//!   [`QUEUED_BYTES`] (the engine is then held back by its pipe until they
//!   are taken), each at most [`MAX_LINE_BYTES`].

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt;
use std::fs::File;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::Duration;

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, watch};
use tokio::time::Instant;

use crate::{EngineMessage, GuiMessage, MAX_LINE_BYTES, OptionDecl, ParseError};

/// Bytes of lines read from the engine and not yet taken, at most (a line
/// counts its text and 64 bytes more).
pub const QUEUED_BYTES: usize = 4 << 20;
/// What a queued line costs beyond its text (its string and place in the
/// queue), so that a flood of empty lines is bounded too.
const LINE_OVERHEAD: usize = 64;
/// Lines of the engine's stderr kept for error messages.
pub const STDERR_LINES: usize = 8;
/// The most characters of one stderr line kept for error messages.
const STDERR_CHARS: usize = 200;
/// How long lines written before an engine exited may still take to arrive.
const EXIT_DRAIN: Duration = Duration::from_millis(100);
/// What `ugi` awaits.
const UGIOK: &str = "ugiok";
/// Lines that are no awaited reply, tolerated per wait.
pub const MAX_OTHER_LINES: u32 = 10_000;

/// The most bytes an engine log holds by default (16 MiB): a whole game's
/// conversation many times over; an engine that floods its output fills
/// no disk.
pub const LOG_BYTES: u64 = 16 << 20;

/// A file to write an engine's whole conversation and stderr to, up to a
/// size: past it, one last line says the log was cut, and nothing more is
/// written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineLog {
    /// The file (created, or emptied).
    pub path: PathBuf,
    /// The most bytes written before the closing note ([`LOG_BYTES`] by
    /// default).
    pub max_bytes: u64,
}

impl EngineLog {
    /// A log at `path` of at most [`LOG_BYTES`].
    pub fn new(path: PathBuf) -> Self {
        EngineLog { path, max_bytes: LOG_BYTES }
    }
}

/// How to start an engine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineCommand {
    /// The program.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its working directory (default: ours).
    pub dir: Option<PathBuf>,
    /// A file to write the whole conversation and the engine's stderr to.
    pub log: Option<EngineLog>,
}

/// Why talking to an engine failed. Every variant's message ends with the
/// last lines the engine wrote to stderr, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientError {
    /// The process could not be started.
    Spawn {
        /// What failed.
        detail: String,
    },
    /// The engine closed its output or its input (it exited or crashed).
    Disconnect {
        /// What happened, with the exit status when known.
        detail: String,
        /// The engine's last stderr lines.
        stderr: Vec<String>,
    },
    /// A deadline passed first.
    Timeout {
        /// What was awaited (`readyok`, `bestmove`).
        awaited: String,
        /// How long was waited.
        after: Duration,
        /// The engine's last stderr lines.
        stderr: Vec<String>,
    },
    /// The engine wrote what is no protocol text: a line over the limit, a
    /// line that is not UTF-8, or too many lines that are no awaited reply.
    Garbage {
        /// What it was.
        detail: String,
        /// The engine's last stderr lines.
        stderr: Vec<String>,
    },
    /// A message that would not print as one line.
    Unsendable {
        /// The message's text (with its line breaks shown).
        text: String,
    },
}

impl ClientError {
    /// The engine's last stderr lines, if the error has them.
    pub fn stderr(&self) -> &[String] {
        match self {
            ClientError::Disconnect { stderr, .. }
            | ClientError::Timeout { stderr, .. }
            | ClientError::Garbage { stderr, .. } => stderr,
            ClientError::Spawn { .. } | ClientError::Unsendable { .. } => &[],
        }
    }
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Spawn { detail } => f.write_str(detail)?,
            ClientError::Disconnect { detail, .. } => f.write_str(detail)?,
            ClientError::Timeout { awaited, after, .. } => {
                write!(f, "no '{awaited}' within {} ms", after.as_millis())?;
                if awaited == UGIOK {
                    f.write_str(" (a UCI engine, which speaks 'uci' … 'uciok', never answers)")?;
                }
            }
            ClientError::Garbage { detail, .. } => f.write_str(detail)?,
            ClientError::Unsendable { text } => {
                write!(f, "refused to send {text:?}: it would be more than one line")?;
            }
        }
        let stderr = self.stderr();
        if !stderr.is_empty() {
            write!(f, "; stderr: {}", stderr.join(" | "))?;
        }
        Ok(())
    }
}

impl std::error::Error for ClientError {}

/// A line the engine wrote: a protocol message, or a line that is none
/// (ignored, as the protocol asks, unless too many come).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Heard {
    /// A message.
    Message(EngineMessage),
    /// Any other line, with why it is no message.
    Unreadable(String, ParseError),
}

/// What `ugi` … `readyok` told: the engine's name, its options, and the
/// errors the options sent caused.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Handshake {
    /// `id name`, if given.
    pub name: Option<String>,
    /// The declared options, by name.
    pub options: BTreeMap<String, OptionDecl>,
    /// The `info string error: ...` texts answered to the options sent.
    pub errors: Vec<String>,
    /// The options asked for that the engine does not declare (not sent).
    pub missing: Vec<String>,
}

impl Handshake {
    /// Whether the engine declared option `name` (any case).
    pub fn declares(&self, name: &str) -> bool {
        self.options.keys().any(|declared| declared.eq_ignore_ascii_case(name))
    }
}

enum Event {
    /// A line, holding its share of [`QUEUED_BYTES`] until taken.
    Line(String, OwnedSemaphorePermit),
    Garbage(String),
    Eof,
}

/// The last stderr lines, and the log file.
#[derive(Default)]
struct Tail {
    lines: VecDeque<String>,
    log: Option<LogFile>,
}

/// An open engine log and the bytes it may still take.
struct LogFile {
    file: File,
    max_bytes: u64,
    room: u64,
    cut: bool,
}

type Shared = Arc<Mutex<Tail>>;

fn lock(shared: &Shared) -> std::sync::MutexGuard<'_, Tail> {
    shared.lock().unwrap_or_else(PoisonError::into_inner)
}

fn log(shared: &Shared, prefix: &str, text: &str) {
    let mut tail = lock(shared);
    let Some(log) = &mut tail.log else { return };
    if log.cut {
        return;
    }
    let line = format!("{prefix} {text}\n");
    match log.room.checked_sub(line.len() as u64) {
        Some(room) => {
            log.room = room;
            let _ = log.file.write_all(line.as_bytes());
        }
        None => {
            log.cut = true;
            let _ = writeln!(
                log.file,
                "# log cut here: it reached its limit of {} bytes; the rest of the \
                 conversation and stderr is not kept",
                log.max_bytes
            );
        }
    }
}

/// A running engine process.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    events: mpsc::Receiver<Event>,
    group: Option<Pid>,
    tail: Shared,
    ended: bool,
    /// When the engine was seen to exit.
    exited: Option<Instant>,
}

impl fmt::Debug for EngineProcess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EngineProcess").field("group", &self.group).finish_non_exhaustive()
    }
}

impl EngineProcess {
    /// Starts the engine in a process group of its own. Must be called
    /// within a tokio runtime.
    ///
    /// # Errors
    /// [`ClientError::Spawn`] when the program cannot be started or the log
    /// file not created.
    pub fn spawn(command: &EngineCommand) -> Result<EngineProcess, ClientError> {
        let program = command.program.display().to_string();
        let log_file = match &command.log {
            Some(log) => Some(LogFile {
                file: File::create(&log.path).map_err(|e| ClientError::Spawn {
                    detail: format!("cannot create the log {}: {e}", log.path.display()),
                })?,
                max_bytes: log.max_bytes,
                room: log.max_bytes,
                cut: false,
            }),
            None => None,
        };
        let mut process = Command::new(&command.program);
        process.args(&command.args);
        if let Some(dir) = &command.dir {
            process.current_dir(dir);
        }
        process
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        let mut child = process.spawn().map_err(|e| {
            let dir =
                command.dir.as_ref().map(|d| format!(" in {}", d.display())).unwrap_or_default();
            ClientError::Spawn { detail: format!("cannot start '{program}'{dir}: {e}") }
        })?;
        let group = child.id().and_then(|id| i32::try_from(id).ok()).map(Pid::from_raw);
        if let Some(group) = group {
            lock_groups().insert(group.as_raw());
        }
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(ClientError::Spawn { detail: format!("'{program}' has no pipes") });
        };
        let tail: Shared = Arc::new(Mutex::new(Tail { lines: VecDeque::new(), log: log_file }));
        log(&tail, "#", &format!("started {program} {}", command.args.join(" ")));
        let (tx, events) = mpsc::channel(QUEUED_BYTES / LINE_OVERHEAD);
        let budget = Arc::new(Semaphore::new(QUEUED_BYTES));
        tokio::spawn(read_lines(BufReader::new(stdout), tx, budget, Arc::clone(&tail)));
        tokio::spawn(read_stderr(BufReader::new(stderr), Arc::clone(&tail)));
        Ok(EngineProcess {
            child,
            stdin: Some(stdin),
            events,
            group,
            tail,
            ended: false,
            exited: None,
        })
    }

    /// Writes the rest of the conversation and stderr to `log` instead of
    /// the log given at the start (if any), beginning with `# note`: one log
    /// per game of an engine process that plays several.
    ///
    /// # Errors
    /// [`ClientError::Spawn`] when the file cannot be created (the old log
    /// is kept).
    pub fn set_log(&mut self, log: &EngineLog, note: &str) -> Result<(), ClientError> {
        let file = File::create(&log.path).map_err(|e| ClientError::Spawn {
            detail: format!("cannot create the log {}: {e}", log.path.display()),
        })?;
        lock(&self.tail).log =
            Some(LogFile { file, max_bytes: log.max_bytes, room: log.max_bytes, cut: false });
        self::log(&self.tail, "#", note);
        Ok(())
    }

    /// The engine's last stderr lines (at most [`STDERR_LINES`]).
    pub fn stderr(&self) -> Vec<String> {
        lock(&self.tail).lines.iter().cloned().collect()
    }

    /// Writes one message.
    ///
    /// # Errors
    /// [`ClientError::Unsendable`] for a message that would print as more than
    /// one line (nothing is sent); [`ClientError::Disconnect`] when the pipe
    /// is closed.
    pub async fn send(&mut self, message: &GuiMessage) -> Result<(), ClientError> {
        let text = message.to_string();
        if text.contains(['\n', '\r']) {
            return Err(ClientError::Unsendable { text });
        }
        log(&self.tail, ">", &text);
        let line = format!("{text}\n");
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(self.disconnect("its input is closed").await);
        };
        let write = async {
            stdin.write_all(line.as_bytes()).await?;
            stdin.flush().await
        };
        match write.await {
            Ok(()) => Ok(()),
            Err(e) => Err(self.disconnect(&format!("writing '{text}': {e}")).await),
        }
    }

    /// The next line before `deadline`; `None` when the deadline passes
    /// first. Cancel-safe, so it can wait in a `select!`.
    ///
    /// # Errors
    /// [`ClientError::Disconnect`] at the end of output,
    /// [`ClientError::Garbage`] for bytes that are no text line.
    pub async fn next_line(&mut self, deadline: Instant) -> Result<Option<Heard>, ClientError> {
        // Once the engine has exited, what it wrote still comes, but its
        // output may stay open (a child that left its group holds it): after
        // a short pause the exit is the answer, not silence at the deadline.
        let event = loop {
            if let Some(exited) = self.exited {
                let after_exit = deadline.min(exited + EXIT_DRAIN);
                match tokio::time::timeout_at(after_exit, self.events.recv()).await {
                    Err(_) if after_exit < deadline => {
                        return Err(self.disconnect("it exited").await);
                    }
                    event => break event,
                }
            }
            tokio::select! {
                event = tokio::time::timeout_at(deadline, self.events.recv()) => break event,
                _ = self.child.wait() => self.exited = Some(Instant::now()),
            }
        };
        match event {
            Err(_) => Ok(None),
            Ok(Some(Event::Line(line, _taken))) => Ok(Some(match line.parse() {
                Ok(message) => Heard::Message(message),
                Err(e) => Heard::Unreadable(line, e),
            })),
            Ok(Some(Event::Garbage(detail))) => {
                Err(ClientError::Garbage { detail, stderr: self.stderr() })
            }
            Ok(Some(Event::Eof) | None) => Err(self.disconnect("it closed its output").await),
        }
    }

    /// Waits until `deadline` for the first message `wanted` accepts (named
    /// `awaited` in errors), giving every other message to `others`.
    ///
    /// # Errors
    /// [`ClientError::Timeout`] when `deadline` passes first; the errors of
    /// [`next_line`](Self::next_line); [`ClientError::Garbage`] after more
    /// than [`MAX_OTHER_LINES`] other lines.
    pub async fn expect<T>(
        &mut self,
        awaited: &str,
        deadline: Instant,
        mut wanted: impl FnMut(&EngineMessage) -> Option<T>,
        mut others: impl FnMut(EngineMessage),
    ) -> Result<T, ClientError> {
        let started = Instant::now();
        let mut count = 0;
        loop {
            match self.next_line(deadline).await? {
                Some(Heard::Message(message)) => match wanted(&message) {
                    Some(found) => return Ok(found),
                    None => others(message),
                },
                Some(Heard::Unreadable(..)) => {}
                None => {
                    return Err(ClientError::Timeout {
                        awaited: awaited.to_owned(),
                        after: started.elapsed(),
                        stderr: self.stderr(),
                    });
                }
            }
            count += 1;
            if count > MAX_OTHER_LINES {
                return Err(ClientError::Garbage {
                    detail: format!("more than {MAX_OTHER_LINES} lines without '{awaited}'"),
                    stderr: self.stderr(),
                });
            }
        }
    }

    /// `isready`, then the messages before `readyok` (within `timeout`).
    ///
    /// # Errors
    /// As [`expect`](Self::expect).
    pub async fn sync(&mut self, timeout: Duration) -> Result<Vec<EngineMessage>, ClientError> {
        self.send(&GuiMessage::IsReady).await?;
        let mut before = Vec::new();
        let ready = |m: &EngineMessage| (*m == EngineMessage::ReadyOk).then_some(());
        let deadline = Instant::now() + timeout;
        self.expect("readyok", deadline, ready, |m| before.push(m)).await?;
        Ok(before)
    }

    /// `ugi` … `ugiok`: the engine's name and declared options (the
    /// [`Handshake`] has no errors or missing options yet).
    ///
    /// # Errors
    /// As [`expect`](Self::expect); [`ClientError::Garbage`] naming UCI at
    /// once when the engine answers `uciok` (a UCI engine), and a
    /// [`ClientError::Timeout`] that names UCI too, since a UCI engine may
    /// not answer `ugi` at all.
    pub async fn identify(&mut self, timeout: Duration) -> Result<Handshake, ClientError> {
        self.send(&GuiMessage::Ugi).await?;
        let mut handshake = Handshake::default();
        let ok = |m: &EngineMessage| match m {
            EngineMessage::UgiOk => Some(true),
            EngineMessage::UciOk => Some(false),
            _ => None,
        };
        let deadline = Instant::now() + timeout;
        let ugi = self
            .expect(UGIOK, deadline, ok, |m| match m {
                EngineMessage::IdName(name) => handshake.name = Some(name),
                EngineMessage::Option(decl) => {
                    handshake.options.insert(decl.name.clone(), decl);
                }
                _ => {}
            })
            .await?;
        if !ugi {
            let detail = "it answered 'ugi' with 'uciok': a UCI engine, which speaks 'uci' \
                          … 'uciok', not UGI ('ugi' … 'ugiok')"
                .to_owned();
            return Err(ClientError::Garbage { detail, stderr: self.stderr() });
        }
        Ok(handshake)
    }

    /// [`identify`](Self::identify), then `setoption` for
    /// each of `options` the engine declares (the others are listed in
    /// [`Handshake::missing`], not sent), then `isready` … `readyok`,
    /// collecting the errors the options caused.
    ///
    /// # Errors
    /// As [`identify`](Self::identify) and [`expect`](Self::expect), each
    /// wait within `timeout`.
    pub async fn handshake(
        &mut self,
        options: &[(String, String)],
        timeout: Duration,
    ) -> Result<Handshake, ClientError> {
        let mut handshake = self.identify(timeout).await?;
        for (name, value) in options {
            if !handshake.declares(name) {
                handshake.missing.push(name.clone());
                continue;
            }
            let set = GuiMessage::SetOption { name: name.clone(), value: Some(value.clone()) };
            self.send(&set).await?;
        }
        handshake.errors = errors(&self.sync(timeout).await?);
        Ok(handshake)
    }

    /// Ends the engine: `quit`, its input closed, `grace` to exit; then, if
    /// the engine or anything it started is still running, SIGTERM and,
    /// 200 ms later, SIGKILL to its whole process group (so grandchildren
    /// end too); then reaps it. Never fails.
    pub async fn quit(mut self, grace: Duration) {
        let _ = self.send(&GuiMessage::Quit).await;
        self.stdin = None;
        let exited = tokio::time::timeout(grace, self.child.wait()).await.is_ok();
        log(&self.tail, "#", if exited { "exited after quit" } else { "ignored quit" });
        if self.group_alive() {
            self.kill_group(Some(Signal::SIGTERM));
            let _ = tokio::time::timeout(Duration::from_millis(200), self.child.wait()).await;
            self.kill_group(Some(Signal::SIGKILL));
            let _ = tokio::time::timeout(Duration::from_millis(500), self.child.wait()).await;
        }
        self.ended = true;
        self.forget_group();
    }

    /// Takes the group out of those [`terminated`] ends.
    fn forget_group(&self) {
        if let Some(group) = self.group {
            lock_groups().remove(&group.as_raw());
        }
    }

    /// Whether any process of the engine's group is still there.
    fn group_alive(&self) -> bool {
        self.group.is_some_and(|group| killpg(group, None).is_ok())
    }

    /// Sends `signal` to the engine's process group (nothing if it has none
    /// left).
    fn kill_group(&self, signal: Option<Signal>) {
        if let Some(group) = self.group {
            let _ = killpg(group, signal);
        }
    }

    async fn disconnect(&mut self, what: &str) -> ClientError {
        let status = tokio::time::timeout(Duration::from_millis(200), self.child.wait()).await;
        let detail = match status {
            Ok(Ok(status)) => format!("the engine is gone: {what} ({status})"),
            _ => format!("the engine is gone: {what}"),
        };
        // Give its last stderr lines a moment to arrive.
        tokio::time::sleep(Duration::from_millis(20)).await;
        ClientError::Disconnect { detail, stderr: self.stderr() }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if !self.ended {
            self.kill_group(Some(Signal::SIGKILL));
            self.forget_group();
        }
    }
}

/// The process groups of the engines started and not yet ended.
static GROUPS: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

fn lock_groups() -> std::sync::MutexGuard<'static, BTreeSet<i32>> {
    GROUPS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The signal that stopped the program: SIGINT (Ctrl-C), SIGTERM (`kill`,
/// `timeout`, systemd), SIGHUP (a closed terminal) or SIGQUIT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terminated(Signal);

impl Terminated {
    /// The status a shell gives a program the signal killed: 128 + its
    /// number.
    pub fn exit_code(self) -> u8 {
        u8::try_from(128 + self.0 as i32).unwrap_or(u8::MAX)
    }
}

impl fmt::Display for Terminated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "stopped by {}", self.0.as_str())
    }
}

impl std::error::Error for Terminated {}

/// Resolves when a terminating signal (see [`Terminated`]) has come. The
/// program should then stop its work (so that no engine's end is taken for
/// its fault), call [`end_every_engine`] and exit with
/// [`Terminated::exit_code`].
///
/// The first call starts listening (in that call's tokio runtime, which must
/// outlive the waits): from then on these signals no longer kill the
/// program, and one that comes while nothing waits is kept for the next
/// call. Cancel-safe.
pub async fn terminated() -> Terminated {
    static HEARD: OnceLock<watch::Sender<Option<Terminated>>> = OnceLock::new();
    let heard = HEARD.get_or_init(|| {
        let (sender, _) = watch::channel(None);
        let listening = [
            SignalKind::interrupt(),
            SignalKind::terminate(),
            SignalKind::hangup(),
            SignalKind::quit(),
        ]
        .into_iter()
        .zip([Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP, Signal::SIGQUIT])
        .filter_map(|(kind, which)| signal(kind).ok().map(|stream| (stream, which)));
        for (mut stream, which) in listening {
            let sender = sender.clone();
            tokio::spawn(async move {
                while stream.recv().await.is_some() {
                    sender.send_replace(Some(Terminated(which)));
                }
            });
        }
        sender
    });
    let mut receiver = heard.subscribe();
    match receiver.wait_for(Option::is_some).await {
        Ok(which) => (*which).unwrap_or(Terminated(Signal::SIGTERM)),
        Err(_) => std::future::pending().await,
    }
}

/// Ends every engine started and not yet ended, and all in their process
/// groups: SIGTERM, 200 ms, SIGKILL (nothing, at once, when none is left).
pub async fn end_every_engine() {
    let groups: Vec<Pid> = lock_groups().iter().copied().map(Pid::from_raw).collect();
    if groups.is_empty() {
        return;
    }
    for &group in &groups {
        let _ = killpg(group, Signal::SIGTERM);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    for &group in &groups {
        let _ = killpg(group, Signal::SIGKILL);
    }
}

/// The texts of the `info string error: ...` lines among `answers`.
pub fn errors(answers: &[EngineMessage]) -> Vec<String> {
    answers
        .iter()
        .filter_map(|answer| match answer {
            EngineMessage::InfoString(text) => text.strip_prefix("error: ").map(str::to_owned),
            _ => None,
        })
        .collect()
}

async fn read_lines<R: AsyncRead + Unpin>(
    mut reader: BufReader<R>,
    tx: mpsc::Sender<Event>,
    budget: Arc<Semaphore>,
    tail: Shared,
) {
    let mut line = Vec::new();
    loop {
        let chunk = match reader.fill_buf().await {
            Ok([]) | Err(_) => {
                let _ = tx.send(Event::Eof).await;
                return;
            }
            Ok(chunk) => chunk,
        };
        let (take, complete) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        line.extend_from_slice(&chunk[..take]);
        reader.consume(take);
        if line.len() > MAX_LINE_BYTES + 1 {
            let limit = MAX_LINE_BYTES >> 10;
            let _ = tx.send(Event::Garbage(format!("a line longer than {limit} KiB"))).await;
            return;
        }
        if complete {
            let event = match std::str::from_utf8(&line) {
                Ok(text) => {
                    let text = text.trim_end_matches(['\n', '\r']);
                    log(&tail, "<", text);
                    let cost = u32::try_from(text.len() + LINE_OVERHEAD).unwrap_or(u32::MAX);
                    let Ok(share) = Arc::clone(&budget).acquire_many_owned(cost).await else {
                        return;
                    };
                    Event::Line(text.to_owned(), share)
                }
                Err(e) => Event::Garbage(format!(
                    "a line that is not UTF-8 (byte {} of {})",
                    e.valid_up_to() + 1,
                    line.len()
                )),
            };
            let garbage = matches!(event, Event::Garbage(_));
            if tx.send(event).await.is_err() || garbage {
                return;
            }
            line.clear();
        }
    }
}

async fn read_stderr<R: AsyncRead + Unpin>(mut reader: BufReader<R>, tail: Shared) {
    // Only the start of each line is kept: an engine that writes without
    // line breaks costs nothing but the bytes skipped.
    let mut line = Vec::new();
    loop {
        let chunk = match reader.fill_buf().await {
            Ok([]) | Err(_) => break,
            Ok(chunk) => chunk,
        };
        let (take, complete) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let room = (4 * STDERR_CHARS).saturating_sub(line.len());
        line.extend_from_slice(&chunk[..take.min(room)]);
        reader.consume(take);
        if complete {
            keep_stderr(&tail, &line);
            line.clear();
        }
    }
    if !line.is_empty() {
        keep_stderr(&tail, &line);
    }
}

fn keep_stderr(tail: &Shared, line: &[u8]) {
    let text = String::from_utf8_lossy(line);
    let text = text.trim_end();
    log(tail, "!", text);
    let mut kept: String = text.chars().take(STDERR_CHARS).collect();
    if kept.len() < text.len() {
        kept.push('…');
    }
    let mut tail = lock(tail);
    if tail.lines.len() == STDERR_LINES {
        tail.lines.pop_front();
    }
    tail.lines.push_back(kept);
}
