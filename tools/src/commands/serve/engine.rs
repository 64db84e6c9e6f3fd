//! One engine process of the page, driven by the protocol crate's client
//! ([`protocol::client`]: process group, bounded reads, quit then kill):
//! started from an [`EngineSpec`], spoken to with typed [`GuiMessage`]s,
//! heard as typed [`EngineMessage`]s, and always ended.

use std::path::Path;
use std::time::Duration;

use arena::{EngineSpec, Program};
use protocol::client::{ClientError, EngineCommand, EngineProcess, Heard, errors};
use protocol::{EngineMessage, GuiMessage, Query};
use tokio::time::Instant;

/// How long an engine has to exit after `quit` before its group is killed.
const QUIT_GRACE: Duration = Duration::from_millis(300);
/// How far [`Engine::next`] looks ahead: the session bounds its own waits.
const FAR: Duration = Duration::from_secs(24 * 3600);

/// A running engine process. Dropping it kills its process group;
/// [`Engine::close`] asks it to quit first.
pub struct Engine {
    /// The name people know it by.
    pub name: String,
    process: EngineProcess,
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
        let (program, args) = match &spec.program {
            Program::Builtin(_) => (exe.to_path_buf(), vec!["engine".to_owned()]),
            Program::External(words) => match words.split_first() {
                Some((program, args)) => (program.into(), args.to_vec()),
                None => return Err(EngineError(format!("engine '{}' has no program", spec.name))),
            },
        };
        let command = EngineCommand { program, args, dir: spec.dir.clone(), log: None };
        let process = EngineProcess::spawn(&command)
            .map_err(|e| EngineError(format!("engine '{}': {e}", spec.name)))?;
        Ok(Engine { name: spec.name.clone(), process })
    }

    fn error(&self, error: &ClientError) -> EngineError {
        EngineError(format!("engine '{}': {error}", self.name))
    }

    /// Writes one message.
    ///
    /// # Errors
    /// When the engine is gone, or the message would be more than one line.
    pub async fn send(&mut self, message: &GuiMessage) -> Result<(), EngineError> {
        match self.process.send(message).await {
            Ok(()) => Ok(()),
            Err(e) => Err(self.error(&e)),
        }
    }

    /// The next message; cancel-safe, so it can wait in a `select!`. Lines
    /// that are no message are skipped, but a malformed `bestmove` is an
    /// error at once (as in the arena).
    ///
    /// # Errors
    /// When the engine has exited, wrote garbage or a malformed `bestmove`.
    pub async fn next(&mut self) -> Result<EngineMessage, EngineError> {
        loop {
            match self.process.next_line(Instant::now() + FAR).await {
                Ok(Some(Heard::Message(message))) => return Ok(message),
                Ok(Some(Heard::Unreadable(line, e)))
                    if line.split_whitespace().next() == Some("bestmove") =>
                {
                    return Err(EngineError(format!(
                        "engine '{}' wrote '{line}', which is no valid 'bestmove': {e}",
                        self.name
                    )));
                }
                Ok(Some(Heard::Unreadable(..)) | None) => {}
                Err(e) => return Err(self.error(&e)),
            }
        }
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
        let answers = match self.process.sync(timeout).await {
            Ok(answers) => answers,
            Err(e) => {
                return Err(EngineError(format!("engine '{}' after '{message}': {e}", self.name)));
            }
        };
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

    /// `ugi` … `ugiok`, then the options the engine declares, then `isready`
    /// … `readyok`. Returns notes for people: the options it does not
    /// declare (not set: a one-game engine has no `Game`, and the referee
    /// catches moves of a wrong game), and the errors it answered to the
    /// options it declares.
    ///
    /// # Errors
    /// The engine's exit or silence.
    pub async fn start(
        &mut self,
        options: &[(&str, String)],
        timeout: Duration,
    ) -> Result<Vec<String>, EngineError> {
        let options: Vec<(String, String)> =
            options.iter().map(|(name, value)| ((*name).to_owned(), value.clone())).collect();
        let handshake = match self.process.handshake(&options, timeout).await {
            Ok(handshake) => handshake,
            Err(e) => return Err(self.error(&e)),
        };
        let mut notes = Vec::new();
        match handshake.missing.as_slice() {
            [] => {}
            [one] => notes.push(format!(
                "engine '{}' does not declare the option {one}, so it was not set",
                self.name
            )),
            many => notes.push(format!(
                "engine '{}' does not declare the options {}, so they were not set",
                self.name,
                many.join(", ")
            )),
        }
        if !handshake.errors.is_empty() {
            let errors = handshake.errors.join("; ");
            notes.push(format!("engine '{}' refused an option: {errors}", self.name));
        }
        Ok(notes)
    }

    /// Asks the engine to quit, ends its whole process group if it has not
    /// after a moment, and reaps it.
    pub async fn close(self) {
        self.process.quit(QUIT_GRACE).await;
    }
}
