//! One engine process seen through the protocol: started, spoken to and
//! ended by the protocol crate's client ([`protocol::client`]: a process
//! group of its own, bounded reads, every wait bounded, quit then kill of
//! the whole group, stderr kept), with what goes wrong named as the arena's
//! terminations.

use std::path::{Path, PathBuf};
use std::time::Duration;

pub use protocol::client::Heard;
use protocol::client::{ClientError, EngineCommand, EngineLog, EngineProcess};
use protocol::{EngineMessage, GuiMessage, OptionDecl};
use tokio::time::Instant;

use crate::config::{EngineSpec, Program};
use crate::record::Termination;

/// Lines that are no reply the arena waits for, tolerated per wait.
pub(crate) const MAX_UNRECOGNISED: u32 = 1000;
/// How long an engine has to exit after `quit` before its group is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);

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

impl From<ClientError> for Fault {
    /// The client's errors as terminations; the detail ends with the
    /// engine's last stderr lines.
    fn from(error: ClientError) -> Self {
        let termination = match &error {
            ClientError::Spawn { .. }
            | ClientError::Disconnect { .. }
            | ClientError::Unsendable { .. } => Termination::Disconnect,
            ClientError::Timeout { .. } => Termination::Stall,
            ClientError::Garbage { .. } => Termination::GarbageOutput,
        };
        Fault::new(termination, error.to_string())
    }
}

/// A running engine.
pub struct Engine {
    process: EngineProcess,
}

impl Engine {
    /// Starts the engine: built-ins as `<igroteka> engine --game G --variant V`;
    /// with `log`, the whole conversation and the engine's stderr go there.
    ///
    /// # Errors
    /// A `disconnect` fault when the process cannot be started.
    pub fn spawn(
        spec: &EngineSpec,
        igroteka: &Path,
        game: &str,
        variant: &str,
        log: Option<EngineLog>,
    ) -> Result<Engine, Fault> {
        let (program, args) = match &spec.program {
            Program::Builtin(_) => (
                igroteka.to_path_buf(),
                ["engine", "--game", game, "--variant", variant].map(str::to_owned).to_vec(),
            ),
            Program::External(words) => match words.split_first() {
                Some((program, args)) => (PathBuf::from(program), args.to_vec()),
                None => return Err(Fault::new(Termination::Disconnect, "no program to start")),
            },
        };
        let command = EngineCommand { program, args, dir: spec.dir.clone(), log };
        Ok(Engine { process: EngineProcess::spawn(&command)? })
    }

    /// Writes one message.
    ///
    /// # Errors
    /// `disconnect` when the pipe is closed.
    pub async fn send(&mut self, message: &GuiMessage) -> Result<(), Fault> {
        Ok(self.process.send(message).await?)
    }

    /// The next line before `deadline`; `None` when the deadline passes first.
    ///
    /// # Errors
    /// `disconnect` at the end of output, `garbage output` for bytes that are
    /// no text line.
    pub async fn next_line(&mut self, deadline: Instant) -> Result<Option<Heard>, Fault> {
        Ok(self.process.next_line(deadline).await?)
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
                    let stderr = self.process.stderr();
                    let tail = if stderr.is_empty() {
                        String::new()
                    } else {
                        format!("; stderr: {}", stderr.join(" | "))
                    };
                    return Err(Fault::new(
                        Termination::Stall,
                        format!("no '{name}' within {} ms{tail}", timeout.as_millis()),
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

    /// Ends the engine in the background: `quit`, a short grace, then its
    /// whole process group is killed (see [`EngineProcess::quit`]).
    pub fn quit(self) {
        tokio::spawn(self.end());
    }

    /// Ends the engine as [`quit`](Self::quit) does, returning when it has.
    pub async fn end(self) {
        self.process.quit(QUIT_GRACE).await;
    }

    /// Writes the rest of the conversation to `log` (see
    /// [`EngineProcess::set_log`]).
    ///
    /// # Errors
    /// `disconnect` when the log cannot be created.
    pub fn set_log(&mut self, log: &EngineLog, note: &str) -> Result<(), Fault> {
        Ok(self.process.set_log(log, note)?)
    }
}

// Options: what an engine declares and what it refuses.
impl Engine {
    /// `ugi` … `ugiok`; returns the options the engine declared on the way.
    ///
    /// # Errors
    /// As [`EngineProcess::identify`]: `garbage output` naming UCI at once for
    /// an engine that answers `uciok`.
    pub async fn identify(&mut self, timeout: Duration) -> Result<Vec<OptionDecl>, Fault> {
        let handshake = self.process.identify(timeout).await?;
        Ok(handshake.options.into_values().collect())
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
        self.set_then_sync(options, &[], timeout).await
    }

    /// Readies an engine that played a game for its next one: `setoption`
    /// for each of `options` (its seed for the game), `uginewgame`,
    /// `isready` … `readyok`; returns the errors the engine wrote in
    /// between, as [`configure`](Self::configure).
    ///
    /// # Errors
    /// As [`expect`](Self::expect).
    pub async fn renew(
        &mut self,
        options: &[(String, String)],
        timeout: Duration,
    ) -> Result<Vec<String>, Fault> {
        // Lines already read and not taken (a `readyok` to a probe sent
        // while it searched) answer nothing that follows.
        while let Some(_stale) = self.next_line(Instant::now()).await? {}
        self.set_then_sync(options, &[GuiMessage::NewGame], timeout).await
    }

    /// `setoption` for each of `options`, then the messages `then`, then
    /// `isready` … `readyok`, collecting the `info string error: ...` lines.
    async fn set_then_sync(
        &mut self,
        options: &[(String, String)],
        then: &[GuiMessage],
        timeout: Duration,
    ) -> Result<Vec<String>, Fault> {
        for (name, value) in options {
            let set = GuiMessage::SetOption { name: name.clone(), value: Some(value.clone()) };
            self.send(&set).await?;
        }
        for message in then {
            self.send(message).await?;
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
