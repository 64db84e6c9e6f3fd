//! The analysis board's engine: a search of a position of the page's
//! choosing (the game's moves up to a ply, then a variation the referee
//! checked) with several lines (`MultiPV`), each line told to the page as
//! the engine reports it. The engine (the referee's kind or one of the
//! `--engine`s) is kept for the next position while the game lasts; the
//! game itself never learns of it.

use std::time::Duration;

use protocol::{EngineMessage, Go, GuiMessage, MoveToken, PositionBase};
use tokio::time::Instant;

use super::engine::{Engine, EngineError};
use super::messages::Notice;

/// The most lines an analysis may ask for.
pub const MAX_LINES: u32 = 10;
/// The shortest and longest search, in ms (a search "until stopped" is
/// the longest).
pub const ANALYSIS_MS: (u64, u64) = (20, 600_000);

/// The engine of the analysis board and its search, if one runs.
pub struct Analysis {
    engine: Engine,
    /// The name the page chose it by (the referee's name for the referee's kind).
    pub chosen: String,
    /// The `MultiPV` it was last given.
    lines: Option<u32>,
    /// The search under way: its request's id, whose turn it is there (1 or
    /// 2), and when it must have answered.
    search: Option<(u32, u8, Instant)>,
}

/// What one search is asked.
pub struct Ask {
    /// The page's id of the request, told back with every line.
    pub id: u32,
    /// Where the moves start.
    pub base: PositionBase,
    /// The game's moves up to the position, then the variation's.
    pub moves: Vec<MoveToken>,
    /// Whose turn it is there (1 or 2).
    pub to_move: u8,
    /// How many lines (1 to [`MAX_LINES`]).
    pub lines: u32,
    /// The search time, in ms, bounded by [`ANALYSIS_MS`].
    pub movetime: u64,
}

impl Analysis {
    /// The engine `engine`, chosen by the page as `chosen`, with no search.
    pub fn new(engine: Engine, chosen: String) -> Analysis {
        Analysis { engine, chosen, lines: None, search: None }
    }

    /// When the search under way must have answered.
    pub fn deadline(&self) -> Option<Instant> {
        self.search.map(|(_, _, at)| at)
    }

    /// The id of the search under way, if one runs.
    pub fn searching(&self) -> Option<u32> {
        self.search.map(|(id, ..)| id)
    }

    /// The engine's next message.
    pub async fn heard(&mut self) -> Result<EngineMessage, EngineError> {
        self.engine.next().await
    }

    /// Starts searching `ask` (a search under way is stopped first).
    ///
    /// # Errors
    /// The engine's failure (it is the caller's to close).
    pub async fn start(&mut self, ask: Ask, timeout: Duration) -> Result<(), EngineError> {
        self.stop(timeout).await?;
        if self.lines != Some(ask.lines) {
            let option = GuiMessage::SetOption {
                name: "MultiPV".to_owned(),
                value: Some(ask.lines.to_string()),
            };
            // An engine without the option searches one line.
            let _ = self.engine.command(&option, timeout).await;
            self.lines = Some(ask.lines);
        }
        let position = GuiMessage::Position { base: ask.base, moves: ask.moves };
        self.engine.command(&position, timeout).await?;
        let movetime = ask.movetime.clamp(ANALYSIS_MS.0, ANALYSIS_MS.1);
        let go = Go { movetime: Some(movetime), ..Go::default() };
        self.engine.send(&GuiMessage::Go(go)).await?;
        let deadline = Instant::now() + timeout + Duration::from_millis(movetime);
        self.search = Some((ask.id, ask.to_move, deadline));
        Ok(())
    }

    /// Stops the search under way, if any, and waits for its `bestmove`;
    /// the notice that it ended, if one ran.
    ///
    /// # Errors
    /// The engine's failure or silence.
    pub async fn stop(&mut self, timeout: Duration) -> Result<Option<Notice>, EngineError> {
        let Some((id, ..)) = self.search else { return Ok(None) };
        self.engine.send(&GuiMessage::Stop).await?;
        let best = tokio::time::timeout(timeout, async {
            loop {
                if let EngineMessage::BestMove(best) = self.engine.next().await? {
                    return Ok(best);
                }
            }
        })
        .await
        .map_err(|_| {
            EngineError(format!("engine '{}' did not stop its analysis in time", self.engine.name))
        })??;
        self.search = None;
        Ok(Some(Notice::AnalysisDone {
            id,
            best: best.map(String::from),
            error: None,
            stopped: true,
        }))
    }

    /// Takes one message of the engine: a line of the search under way, or
    /// its end.
    pub fn said(&mut self, message: EngineMessage) -> Option<Notice> {
        let (id, to_move, _) = self.search?;
        match message {
            EngineMessage::Info(info) if !info.pv.is_empty() => Some(Notice::Analysis {
                id,
                to_move,
                line: info.multipv.unwrap_or(1),
                depth: info.depth,
                score: info.score.map(|score| score.to_string()),
                nodes: info.nodes,
                pv: info.pv.into_iter().map(String::from).collect(),
            }),
            EngineMessage::BestMove(best) => {
                self.search = None;
                Some(Notice::AnalysisDone {
                    id,
                    best: best.map(String::from),
                    error: None,
                    stopped: false,
                })
            }
            _ => None,
        }
    }

    /// Closes the engine.
    pub async fn close(self) {
        self.engine.close().await;
    }
}
