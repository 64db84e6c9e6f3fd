//! One engine process: started from an [`EngineSpec`], spoken to with typed
//! [`GuiMessage`]s, heard as typed [`EngineMessage`]s, and always reaped.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use arena::{EngineSpec, Program};
use protocol::{EngineMessage, GuiMessage, Query};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::mpsc;

/// What an engine process said: a line read as a message, or its end.
#[derive(Debug)]
enum Heard {
    /// A line, typed; lines that are no protocol message are dropped.
    Message(EngineMessage),
    /// The process closed its output (it exited or crashed).
    Gone,
}

/// A running engine process. Dropping it kills the process; [`Engine::close`]
/// also waits for it, so no zombie is left.
pub struct Engine {
    /// The name people know it by.
    pub name: String,
    child: Child,
    stdin: ChildStdin,
    heard: mpsc::UnboundedReceiver<Heard>,
}

/// Why talking to an engine failed, for people.
#[derive(Debug)]
pub struct EngineError(pub String);

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Engine {
    /// Starts `spec` (built-ins as `<exe> engine`).
    ///
    /// # Errors
    /// When the process cannot be started.
    pub fn spawn(spec: &EngineSpec, exe: &Path) -> Result<Engine, EngineError> {
        let mut command = match &spec.program {
            Program::Builtin(_) => {
                let mut command = Command::new(exe);
                command.arg("engine");
                command
            }
            Program::External(words) => {
                let mut command = Command::new(&words[0]);
                command.args(&words[1..]);
                command
            }
        };
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true);
        let mut child = command
            .spawn()
            .map_err(|e| EngineError(format!("cannot start engine '{}': {e}", spec.name)))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(EngineError(format!("engine '{}' has no pipes", spec.name)));
        };
        let (tx, heard) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            // Bytes that are not UTF-8 are read as replacement characters, as
            // the protocol's engines read theirs.
            let mut reader = BufReader::new(stdout);
            let mut line = Vec::new();
            while matches!(reader.read_until(b'\n', &mut line).await, Ok(1..)) {
                let text = String::from_utf8_lossy(&line);
                if let Ok(message) = text.trim_end().parse::<EngineMessage>()
                    && tx.send(Heard::Message(message)).is_err()
                {
                    return;
                }
                line.clear();
            }
            let _ = tx.send(Heard::Gone);
        });
        Ok(Engine { name: spec.name.clone(), child, stdin, heard })
    }

    /// Writes one message.
    ///
    /// # Errors
    /// When the pipe is closed (the engine is gone).
    pub async fn send(&mut self, message: &GuiMessage) -> Result<(), EngineError> {
        let line = format!("{message}\n");
        let write = async {
            self.stdin.write_all(line.as_bytes()).await?;
            self.stdin.flush().await
        };
        write.await.map_err(|e| EngineError(format!("engine '{}' is gone ({e})", self.name)))
    }

    /// The next message; cancel-safe, so it can wait in a `select!`.
    ///
    /// # Errors
    /// When the engine has exited.
    pub async fn next(&mut self) -> Result<EngineMessage, EngineError> {
        match self.heard.recv().await {
            Some(Heard::Message(message)) => Ok(message),
            Some(Heard::Gone) | None => {
                Err(EngineError(format!("engine '{}' exited (or crashed)", self.name)))
            }
        }
    }

    /// Sends `isready` and returns what the engine says before `readyok`.
    ///
    /// # Errors
    /// The engine's exit; no `readyok` within `timeout` (after `what`).
    async fn ready(
        &mut self,
        what: &str,
        timeout: Duration,
    ) -> Result<Vec<EngineMessage>, EngineError> {
        self.send(&GuiMessage::IsReady).await?;
        let answers = async {
            let mut answers = Vec::new();
            loop {
                match self.next().await? {
                    EngineMessage::ReadyOk => return Ok(answers),
                    other => answers.push(other),
                }
            }
        };
        tokio::time::timeout(timeout, answers).await.map_err(|_| {
            EngineError(format!(
                "engine '{}' did not answer '{what}' within {} ms",
                self.name,
                timeout.as_millis()
            ))
        })?
    }

    /// Sends `message` and waits until the engine is ready again; the answers
    /// before it are returned, an `info string error: ...` as an error.
    ///
    /// # Errors
    /// That error; the engine's exit; no `readyok` within `timeout`.
    pub async fn command(
        &mut self,
        message: &GuiMessage,
        timeout: Duration,
    ) -> Result<Vec<EngineMessage>, EngineError> {
        self.send(message).await?;
        let answers = self.ready(&message.to_string(), timeout).await?;
        match errors(&answers).last() {
            Some(error) => Err(EngineError(format!("engine '{}': {error}", self.name))),
            None => Ok(answers),
        }
    }

    /// The text of the engine's `response` to `query`.
    ///
    /// # Errors
    /// As [`command`](Self::command), and when no `response` came.
    pub async fn ask(&mut self, query: Query, timeout: Duration) -> Result<String, EngineError> {
        let message = GuiMessage::Query(query);
        let answers = self.command(&message, timeout).await?;
        answers
            .into_iter()
            .find_map(|answer| match answer {
                EngineMessage::Response(text) => Some(text),
                _ => None,
            })
            .ok_or_else(|| {
                EngineError(format!("engine '{}' gave no answer to '{message}'", self.name))
            })
    }

    /// `ugi` … `ugiok`, then the options, then `isready` … `readyok`.
    /// Returns a note of the errors the options caused, if any: an engine may
    /// lack some (a one-game engine has no `Game`); the referee catches moves
    /// of a wrong game.
    ///
    /// # Errors
    /// The engine's exit or silence.
    pub async fn start(
        &mut self,
        options: &[(&str, String)],
        timeout: Duration,
    ) -> Result<Option<String>, EngineError> {
        self.send(&GuiMessage::Ugi).await?;
        let ugiok = async {
            while !matches!(self.next().await?, EngineMessage::UgiOk) {}
            Ok::<_, EngineError>(())
        };
        tokio::time::timeout(timeout, ugiok).await.map_err(|_| {
            EngineError(format!(
                "engine '{}' did not answer 'ugi' within {} ms",
                self.name,
                timeout.as_millis()
            ))
        })??;
        for (name, value) in options {
            let value = Some(value.clone());
            self.send(&GuiMessage::SetOption { name: (*name).to_owned(), value }).await?;
        }
        let answers = self.ready("its options", timeout).await?;
        let errors = errors(&answers);
        Ok((!errors.is_empty())
            .then(|| format!("engine '{}' refused options: {}", self.name, errors.join("; "))))
    }

    /// Asks the engine to quit, kills it if it has not after a moment, and
    /// reaps it.
    pub async fn close(mut self) {
        let _ = self.send(&GuiMessage::Quit).await;
        if tokio::time::timeout(Duration::from_millis(300), self.child.wait()).await.is_err() {
            let _ = self.child.kill().await;
        }
    }
}

/// The texts of the `info string error: ...` lines among `answers`.
fn errors(answers: &[EngineMessage]) -> Vec<&str> {
    answers
        .iter()
        .filter_map(|answer| match answer {
            EngineMessage::InfoString(text) => text.strip_prefix("error: "),
            _ => None,
        })
        .collect()
}
