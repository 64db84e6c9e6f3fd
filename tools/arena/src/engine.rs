//! One engine process seen through the protocol: start, talk, listen with
//! deadlines, and name what went wrong.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use protocol::{EngineMessage, GuiMessage, OptionDecl, ParseError};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::config::{EngineSpec, Program};
use crate::record::Termination;

/// The longest line an engine may write.
const MAX_LINE: usize = 64 * 1024;
/// Lines that are no reply the arena waits for, tolerated per wait.
pub(crate) const MAX_UNRECOGNISED: u32 = 1000;

/// What went wrong with an engine: the termination it causes and a detail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// The name of the failure.
    pub termination: Termination,
    /// What happened, for people.
    pub detail: String,
}

impl Fault {
    pub(crate) fn new(termination: Termination, detail: impl Into<String>) -> Self {
        Fault { termination, detail: detail.into() }
    }
}

enum Event {
    Line(String),
    Garbage(&'static str),
    Eof,
}

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    events: mpsc::UnboundedReceiver<Event>,
}

/// A line the engine wrote: a protocol message, or a line that is none
/// (ignored, as the protocol asks, unless too many come).
#[derive(Debug)]
pub enum Heard {
    /// A message the protocol crate reads.
    Message(EngineMessage),
    /// Any other line, with why it is no message.
    Unreadable(String, ParseError),
}

impl Engine {
    /// Starts the engine: built-ins as `<igroteka> engine --game G --variant V`.
    ///
    /// # Errors
    /// A `disconnect` fault when the process cannot be started.
    pub fn spawn(
        spec: &EngineSpec,
        igroteka: &Path,
        game: &str,
        variant: &str,
    ) -> Result<Engine, Fault> {
        let (program, args) = match &spec.program {
            Program::Builtin(_) => {
                (igroteka.as_os_str(), vec!["engine", "--game", game, "--variant", variant])
            }
            Program::External(words) => match words.split_first() {
                Some((program, args)) => {
                    (program.as_ref(), args.iter().map(String::as_str).collect())
                }
                None => return Err(Fault::new(Termination::Disconnect, "no program to start")),
            },
        };
        let mut command = Command::new(program);
        command.args(args);
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true);
        let mut child = command.spawn().map_err(|e| {
            let dir = spec.dir.as_ref().map(|d| format!(" in {}", d.display())).unwrap_or_default();
            let program = Path::new(program).display();
            Fault::new(Termination::Disconnect, format!("cannot start '{program}'{dir}: {e}"))
        })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(Fault::new(Termination::Disconnect, "no pipes to the engine"));
        };
        let (tx, events) = mpsc::unbounded_channel();
        tokio::spawn(read_lines(BufReader::new(stdout), tx));
        Ok(Engine { child, stdin, events })
    }

    /// Writes one message.
    ///
    /// # Errors
    /// `disconnect` when the pipe is closed.
    pub async fn send(&mut self, message: &GuiMessage) -> Result<(), Fault> {
        let line = format!("{message}\n");
        let write = async {
            self.stdin.write_all(line.as_bytes()).await?;
            self.stdin.flush().await
        };
        match write.await {
            Ok(()) => Ok(()),
            Err(e) => Err(self.disconnect(&format!("writing '{message}': {e}")).await),
        }
    }

    /// The next line before `deadline`; `None` when the deadline passes first.
    ///
    /// # Errors
    /// `disconnect` at the end of output, `garbage output` for bytes that are
    /// no text line.
    pub async fn next_line(&mut self, deadline: Instant) -> Result<Option<Heard>, Fault> {
        match tokio::time::timeout_at(deadline, self.events.recv()).await {
            Err(_) => Ok(None),
            Ok(Some(Event::Line(line))) => Ok(Some(match line.parse() {
                Ok(message) => Heard::Message(message),
                Err(e) => Heard::Unreadable(line, e),
            })),
            Ok(Some(Event::Garbage(what))) => Err(Fault::new(Termination::GarbageOutput, what)),
            Ok(Some(Event::Eof) | None) => {
                Err(self.disconnect("the engine closed its output").await)
            }
        }
    }

    /// Waits for the first message `wanted` accepts (named `name` in
    /// faults), skipping others.
    ///
    /// # Errors
    /// `stall` when `timeout` passes first; the faults of [`next_line`](Self::next_line);
    /// `garbage output` after too many other lines.
    pub async fn expect<T>(
        &mut self,
        name: &str,
        timeout: Duration,
        mut wanted: impl FnMut(EngineMessage) -> Option<T>,
    ) -> Result<T, Fault> {
        let deadline = Instant::now() + timeout;
        let mut others = 0;
        loop {
            match self.next_line(deadline).await? {
                Some(Heard::Message(message)) => {
                    if let Some(found) = wanted(message) {
                        return Ok(found);
                    }
                }
                Some(Heard::Unreadable(..)) => {}
                None => {
                    return Err(Fault::new(
                        Termination::Stall,
                        format!("no '{name}' within {} ms", timeout.as_millis()),
                    ));
                }
            }
            others += 1;
            if others > MAX_UNRECOGNISED {
                return Err(Fault::new(
                    Termination::GarbageOutput,
                    format!("more than {MAX_UNRECOGNISED} lines without '{name}'"),
                ));
            }
        }
    }

    /// `isready`, then waits for `readyok`.
    ///
    /// # Errors
    /// As [`expect`](Self::expect).
    pub async fn sync(&mut self, timeout: Duration) -> Result<(), Fault> {
        self.send(&GuiMessage::IsReady).await?;
        let ready = |m| (m == EngineMessage::ReadyOk).then_some(());
        self.expect(&EngineMessage::ReadyOk.to_string(), timeout, ready).await
    }

    /// Asks the engine to quit and leaves it a moment before it is killed.
    pub fn quit(mut self) {
        tokio::spawn(async move {
            let _ = self.stdin.write_all(format!("{}\n", GuiMessage::Quit).as_bytes()).await;
            let _ = self.stdin.flush().await;
            if tokio::time::timeout(Duration::from_millis(500), self.child.wait()).await.is_err() {
                let _ = self.child.kill().await;
            }
        });
    }

    async fn disconnect(&mut self, what: &str) -> Fault {
        let status = tokio::time::timeout(Duration::from_millis(200), self.child.wait()).await;
        let detail = match status {
            Ok(Ok(status)) => format!("{what} ({status})"),
            _ => what.to_owned(),
        };
        Fault::new(Termination::Disconnect, detail)
    }
}

async fn read_lines<R: AsyncBufReadExt + Unpin>(mut reader: R, tx: mpsc::UnboundedSender<Event>) {
    let mut line = Vec::new();
    loop {
        let chunk = match reader.fill_buf().await {
            Ok([]) | Err(_) => {
                let _ = tx.send(Event::Eof);
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
        if line.len() > MAX_LINE {
            let _ = tx.send(Event::Garbage("a line longer than 64 KiB"));
            return;
        }
        if complete {
            let event = match std::str::from_utf8(&line) {
                Ok(text) => Event::Line(text.trim_end_matches(['\n', '\r']).to_owned()),
                Err(_) => Event::Garbage("a line that is not UTF-8"),
            };
            if tx.send(event).is_err() {
                return;
            }
            line.clear();
        }
    }
}

// Options: what an engine declares and what it refuses. Kept apart from the
// process handling above, which the protocol crate's client will take over.
impl Engine {
    /// `ugi` … `ugiok`; returns the options the engine declared on the way.
    ///
    /// # Errors
    /// As [`expect`](Self::expect).
    pub async fn identify(&mut self, timeout: Duration) -> Result<Vec<OptionDecl>, Fault> {
        self.send(&GuiMessage::Ugi).await?;
        let mut declared = Vec::new();
        let ok = |m| match m {
            EngineMessage::UgiOk => Some(()),
            EngineMessage::Option(decl) => {
                declared.push(decl);
                None
            }
            _ => None,
        };
        self.expect(&EngineMessage::UgiOk.to_string(), timeout, ok).await?;
        Ok(declared)
    }

    /// Sends `setoption` for each of `options`, then `isready` … `readyok`;
    /// returns the `info string error: ...` lines the engine wrote in
    /// between (the protocol's answer to an option it refuses): empty when
    /// it took them all.
    ///
    /// # Errors
    /// As [`expect`](Self::expect).
    pub async fn configure(
        &mut self,
        options: &[(String, String)],
        timeout: Duration,
    ) -> Result<Vec<String>, Fault> {
        for (name, value) in options {
            let set = GuiMessage::SetOption { name: name.clone(), value: Some(value.clone()) };
            self.send(&set).await?;
        }
        self.send(&GuiMessage::IsReady).await?;
        let mut refused = Vec::new();
        let ready = |m| match m {
            EngineMessage::ReadyOk => Some(()),
            EngineMessage::InfoString(text) if is_error(&text) => {
                refused.push(text);
                None
            }
            _ => None,
        };
        self.expect(&EngineMessage::ReadyOk.to_string(), timeout, ready).await?;
        Ok(refused)
    }
}

/// Whether an `info string` text reports an error (`error: ...`).
fn is_error(text: &str) -> bool {
    text.get(..5).is_some_and(|word| word.eq_ignore_ascii_case("error"))
}
