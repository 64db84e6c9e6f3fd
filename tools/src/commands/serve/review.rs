//! Game review: an engine of its own (the referee's kind) searches every
//! position of the game, one after the other, each for a bounded time, and
//! the page is told each position's score and best move as they come; the
//! page judges the moves. Stopped by the page, by a new game or by the end
//! of the tab.

use std::time::Duration;

use protocol::{EngineMessage, Go, GuiMessage, MoveToken, PositionBase, Query};
use tokio::time::Instant;

use super::engine::{Engine, EngineError};
use super::messages::Notice;

/// The shortest and longest search per position, in ms.
pub const REVIEW_MS: (u64, u64) = (20, 10_000);

/// A review under way.
pub struct Review {
    engine: Engine,
    base: PositionBase,
    moves: Vec<MoveToken>,
    movetime: u64,
    /// The position searched: after the first `ply` moves.
    ply: usize,
    /// Whose turn it is there (1 or 2).
    to_move: u8,
    /// The last score (the side to move's view) and line the search told.
    score: Option<String>,
    pv: Vec<String>,
    /// When the search must have answered.
    deadline: Instant,
}

impl Review {
    /// Starts reviewing the game of `base` and `moves` with `engine`, each
    /// position searched `movetime` ms (bounded by [`REVIEW_MS`]); the
    /// notices of positions with no search (the game was over there).
    ///
    /// # Errors
    /// The engine's failure (it is the caller's to close).
    pub async fn start(
        engine: Engine,
        base: PositionBase,
        moves: Vec<MoveToken>,
        movetime: u64,
        timeout: Duration,
    ) -> (Review, Result<Vec<Notice>, EngineError>) {
        let mut review = Review {
            engine,
            base,
            moves,
            movetime: movetime.clamp(REVIEW_MS.0, REVIEW_MS.1),
            ply: 0,
            to_move: 1,
            score: None,
            pv: Vec::new(),
            deadline: Instant::now(),
        };
        let notices = review.search(timeout).await;
        (review, notices)
    }

    /// When the search under way must have answered.
    pub fn deadline(&self) -> Instant {
        self.deadline
    }

    /// The engine's next message.
    pub async fn heard(&mut self) -> Result<EngineMessage, EngineError> {
        self.engine.next().await
    }

    /// Takes one message of the engine: on its `bestmove`, the position's
    /// notice and the next search (or [`Notice::ReviewDone`]).
    ///
    /// # Errors
    /// The engine's failure.
    pub async fn said(
        &mut self,
        message: EngineMessage,
        timeout: Duration,
    ) -> Result<Vec<Notice>, EngineError> {
        match message {
            // Of a search of several lines, the score and line are the best line's.
            EngineMessage::Info(info) if info.is_best_line() => {
                if let Some(score) = info.score {
                    self.score = Some(score.to_string());
                }
                if !info.pv.is_empty() {
                    self.pv = info.pv.into_iter().map(String::from).collect();
                }
                Ok(Vec::new())
            }
            EngineMessage::BestMove(best) => {
                let mut notices = vec![self.reviewed(best.map(String::from))];
                self.ply += 1;
                notices.extend(self.search(timeout).await?);
                Ok(notices)
            }
            _ => Ok(Vec::new()),
        }
    }

    /// Closes the engine.
    pub async fn close(self) {
        self.engine.close().await;
    }

    /// The notice of the position searched.
    fn reviewed(&mut self, best: Option<String>) -> Notice {
        Notice::Reviewed {
            ply: self.ply,
            plies: self.moves.len(),
            to_move: self.to_move,
            score: self.score.take(),
            best,
            pv: std::mem::take(&mut self.pv),
        }
    }

    /// Starts the search of the position after `self.ply` moves, passing
    /// over the positions where the game is over; the notices of those, and
    /// [`Notice::ReviewDone`] after the last position.
    async fn search(&mut self, timeout: Duration) -> Result<Vec<Notice>, EngineError> {
        let mut notices = Vec::new();
        while self.ply <= self.moves.len() {
            let position = GuiMessage::Position {
                base: self.base.clone(),
                moves: self.moves[..self.ply].to_vec(),
            };
            self.engine.command(&position, timeout).await?;
            self.to_move =
                if self.engine.ask(Query::P1Turn, timeout).await? == "true" { 1 } else { 2 };
            if self.engine.ask(Query::GameOver, timeout).await? == "true" {
                notices.push(self.reviewed(None));
                self.ply += 1;
                continue;
            }
            let go = Go { movetime: Some(self.movetime), ..Go::default() };
            self.engine.send(&GuiMessage::Go(go)).await?;
            self.deadline = Instant::now() + timeout + Duration::from_millis(self.movetime);
            return Ok(notices);
        }
        notices.push(Notice::ReviewDone { error: None, stopped: false });
        Ok(notices)
    }

    /// Whether every position has been searched.
    pub fn done(&self) -> bool {
        self.ply > self.moves.len()
    }
}
