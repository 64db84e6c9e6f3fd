//! One browser tab: its WebSocket, its game and that game's engine processes.
//!
//! The referee (an engine that answers `query board/pieces/movepaths`, never
//! searches) knows the rules; each engine-controlled side has an engine of
//! its own. When the tab closes, the game is restarted, or an engine fails,
//! every process of the game is closed and reaped.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use arena::{EngineSpec, Program};
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, close_code};
use protocol::{
    EngineMessage, Go, GuiMessage, MoveToken, PositionBase, PositionText, Query, SearchInfo,
};
use serde_json::Value;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

use super::analysis::{ANALYSIS_MS, Analysis, Ask, MAX_LINES};
use super::engine::{Engine, EngineError};
use super::messages::{GameInfo, Limit, NewGame, Notice, Request, State, Verdict};
use super::review::Review;
use super::watch::{Entry, Question, Registry, Snapshot, ViewAsk, is_id};
use games::GAMES;

/// What every session shares.
pub struct Config {
    /// This binary, run as `engine` for the built-ins.
    pub exe: PathBuf,
    /// The engines a side can be given.
    pub engines: Vec<EngineSpec>,
    /// The engine asked the referee's queries.
    pub referee: EngineSpec,
    /// How long an engine may be silent when an answer is due (beyond `movetime`).
    pub timeout: Duration,
    /// One permit per game that may run at once.
    pub slots: Arc<Semaphore>,
    /// The number of permits.
    pub max_games: usize,
    /// How long a tab may stay connected without a game.
    pub idle_timeout: Duration,
    /// The links of the games played and the last ones ended.
    pub links: Registry,
    /// How many ended games `links` keeps (`--watch-kept`).
    pub kept: usize,
    /// Whether tabs may start games (not on `arena --live`'s page, which
    /// only shows the tournament's).
    pub plays: bool,
}

/// An engine playing one side.
struct Player {
    engine: Engine,
    limit: Limit,
    /// `bestmove`s still due for searches that were abandoned (take back).
    abandoned: u32,
}

/// A game in progress and its processes.
struct Game {
    settings: NewGame,
    /// Where the moves start from, checked (`settings.fen`).
    base: PositionBase,
    /// The moves played, checked (`settings.moves`, then what was played).
    moves: Vec<MoveToken>,
    referee: Engine,
    players: [Option<Player>; 2],
    /// The side searching now (0 or 1) and when it must have answered.
    thinking: Option<(usize, Instant)>,
    /// Over by the rules.
    game_over: bool,
    /// Over by resignation or time.
    verdict: Option<Verdict>,
    /// The side to move (0 or 1).
    to_move: usize,
    /// The time left per side, in ms, for the sides with a clock.
    left: [Option<i64>; 2],
    /// When the clock of the side to move started running.
    turn_started: Option<Instant>,
    /// Engine against engine: no search starts while paused.
    paused: bool,
    /// The wait before each search.
    delay: Duration,
    /// When the engine to move is to start its search.
    go_at: Option<Instant>,
}

/// A failure that ends the game (its engines are closed).
pub(super) struct Fatal(String);

impl From<EngineError> for Fatal {
    fn from(e: EngineError) -> Self {
        Fatal(e.0)
    }
}

/// Runs one tab's session until its WebSocket closes. A tab holds one of
/// the `--max-games` places only while it has a game: pages that never
/// start one (or whose game has ended with an error) hold none.
pub async fn run(ws: WebSocket, config: Arc<Config>) {
    let mut ws = Page { ws, lost: false };
    let hello = Notice::Hello {
        games: GAMES
            .iter()
            .map(|g| GameInfo {
                name: g.name,
                variants: g.variants,
                max_plies: g.default_max_plies,
            })
            .collect(),
        engines: config.engines.iter().map(|e| e.name.clone()).collect(),
        referee: config.referee.name.clone(),
    };
    if send(&mut ws, &hello).await.is_err() {
        return;
    }
    let mut session = Session {
        ws,
        config,
        game: None,
        slot: None,
        quiet_since: Instant::now(),
        review: None,
        analysis: None,
        link: None,
        views: None,
        watching: None,
    };
    session.serve().await;
    session.end_game().await;
}

struct Session {
    ws: Page,
    config: Arc<Config>,
    game: Option<Game>,
    /// The place among `--max-games` held while `game` runs.
    slot: Option<OwnedSemaphorePermit>,
    /// The last request or end of a game: `--idle-timeout` after it, a
    /// tab without a game is closed.
    quiet_since: Instant,
    /// The review of the game under way, if any.
    review: Option<Review>,
    /// The analysis board's engine, while the game lasts.
    analysis: Option<Analysis>,
    /// The link of `game`, which spectators watch.
    link: Option<Arc<Entry>>,
    /// The spectators' questions about earlier positions and variations of
    /// `game`.
    views: Option<tokio::sync::mpsc::Receiver<ViewAsk>>,
    /// The game this tab watches, if it watches one (and plays none).
    watching: Option<Watching>,
}

/// A spectator's game: the latest snapshot and what of it was sent.
struct Watching {
    /// The game, to ask the player's tab for earlier positions and
    /// variations; not held (the game is dropped when it is no longer kept).
    entry: std::sync::Weak<Entry>,
    snapshot: tokio::sync::watch::Receiver<Snapshot>,
    /// What the page was sent; `None` before the first.
    shown: Option<Snapshot>,
}

/// A spectator's question for the tab that plays (`None`: none will come
/// any more); never, when the tab plays no game with a link.
async fn asked(views: Option<&mut tokio::sync::mpsc::Receiver<ViewAsk>>) -> Option<ViewAsk> {
    match views {
        Some(views) => views.recv().await,
        None => std::future::pending().await,
    }
}

/// Whether the watched game changed (`false`: it was dropped); never, when
/// the tab watches none.
async fn changed(watching: Option<&mut Watching>) -> bool {
    match watching {
        Some(watching) => watching.snapshot.changed().await.is_ok(),
        None => std::future::pending().await,
    }
}

/// The next message of `player`'s engine; never, when a person plays the side.
async fn heard(player: Option<&mut Player>) -> Result<EngineMessage, EngineError> {
    match player {
        Some(player) => player.engine.next().await,
        None => std::future::pending().await,
    }
}

impl Session {
    async fn serve(&mut self) {
        loop {
            let idle = self.game.is_none() && self.watching.is_none();
            let idle_at = idle.then(|| self.quiet_since + self.config.idle_timeout);
            let (first, second, deadline, go_at, flag_at) = match &mut self.game {
                Some(game) => {
                    let flag_at = game.flag_at();
                    let [first, second] = &mut game.players;
                    let deadline = game.thinking.map(|(_, at)| at);
                    (first.as_mut(), second.as_mut(), deadline, game.go_at, flag_at)
                }
                None => (None, None, None, None, None),
            };
            let review_at = self.review.as_ref().map(Review::deadline);
            let review = self.review.as_mut();
            let analysis_at = self.analysis.as_ref().and_then(Analysis::deadline);
            let analysis = self.analysis.as_mut();
            let watching = self.watching.as_mut();
            let views = self.views.as_mut();
            let outcome = tokio::select! {
                message = self.ws.recv() => match message {
                    Some(Ok(Message::Text(text))) => {
                        self.quiet_since = Instant::now();
                        self.request(&text).await
                    }
                    Some(Ok(Message::Binary(_))) => {
                        self.complain("a binary message: send JSON text").await
                    }
                    Some(Ok(Message::Ping(_))) => {
                        self.ws.flush().await;
                        Ok(())
                    }
                    Some(Ok(Message::Pong(_))) => Ok(()),
                    Some(Ok(Message::Close(_)) | Err(_)) | None => return,
                },
                message = heard(first) => self.engine_said(0, message).await,
                message = heard(second) => self.engine_said(1, message).await,
                () = sleep_until(deadline) => self.hung().await,
                () = sleep_until(go_at) => self.go().await,
                () = sleep_until(flag_at) => self.flag().await,
                () = sleep_until(idle_at) => return self.close_idle().await,
                message = reviewed(review) => self.review_said(message).await,
                () = sleep_until(review_at) => {
                    let error = "the review's engine did not answer in time".to_owned();
                    self.end_review(Some(error), false).await
                }
                message = analysed(analysis) => self.analysis_said(message).await,
                () = sleep_until(analysis_at) => {
                    let error = "the analysis engine did not answer in time".to_owned();
                    self.end_analysis(error).await
                }
                kept = changed(watching) => self.spectate(kept).await,
                question = asked(views) => self.answer_view(question).await,
            };
            if let Err(Fatal(message)) = outcome {
                self.end_game().await;
                let notice = Notice::Error { message, restart: true, new_game: false };
                if send(&mut self.ws, &notice).await.is_err() {
                    return;
                }
            }
        }
    }

    /// Closes the game's engines and gives its place back; its link
    /// shows it ended.
    async fn end_game(&mut self) {
        if let Some(review) = self.review.take() {
            review.close().await;
        }
        if let Some(analysis) = self.analysis.take() {
            analysis.close().await;
        }
        if let Some(link) = self.link.take() {
            self.config.links.release(&link);
        }
        self.views = None;
        if let Some(game) = self.game.take() {
            game.close().await;
        }
        self.slot = None;
        self.quiet_since = Instant::now();
    }

    /// Closes the WebSocket of a tab that has had no game for
    /// `--idle-timeout`, saying why (the page shows it).
    async fn close_idle(&mut self) {
        let idle = self.config.idle_timeout;
        let reason = match idle.as_secs() {
            0 => format!("no game for {} ms", idle.as_millis()),
            secs if secs < 120 => format!("no game for {secs} s"),
            secs => format!("no game for {} minutes", secs / 60),
        };
        let frame = CloseFrame { code: close_code::AWAY, reason: reason.into() };
        if self.ws.write(Some(Message::Close(Some(frame)))).await.is_ok() {
            // The page's close in answer, then the end of the stream.
            let _ = tokio::time::timeout(CLOSE_TIMEOUT, async {
                while let Some(Ok(_)) = self.ws.recv().await {}
            })
            .await;
        }
    }

    async fn complain(&mut self, message: &str) -> Result<(), Fatal> {
        let notice = Notice::Error { message: message.to_owned(), restart: false, new_game: false };
        let _ = send(&mut self.ws, &notice).await;
        Ok(())
    }

    /// A New game that did not start: the running game, if any, goes on.
    async fn refuse_new(&mut self, message: String) -> Result<(), Fatal> {
        let notice = Notice::Error { message, restart: false, new_game: true };
        let _ = send(&mut self.ws, &notice).await;
        Ok(())
    }

    async fn request(&mut self, text: &str) -> Result<(), Fatal> {
        let request = match serde_json::from_str::<Request>(text) {
            Ok(request) => request,
            Err(e) => return self.complain(&format!("bad message from the page: {e}")).await,
        };
        let watcher = matches!(
            request,
            Request::New(_)
                | Request::Watch { .. }
                | Request::View { .. }
                | Request::Explore { .. }
        );
        if self.watching.is_some() && !watcher {
            return self.complain("this tab watches a game: only the tab that plays it can").await;
        }
        match request {
            Request::New(_) if !self.config.plays => {
                let message = "this page shows a tournament's games: it plays none".to_owned();
                self.refuse_new(message).await
            }
            Request::New(settings) => {
                if let Some(review) = self.review.take() {
                    review.close().await;
                }
                if let Some(analysis) = self.analysis.take() {
                    analysis.close().await;
                }
                // The running game keeps its place (and goes on) until the
                // new one has started.
                let slot = match self.slot.take() {
                    Some(slot) => slot,
                    None => match self.config.slots.clone().try_acquire_owned() {
                        Ok(slot) => slot,
                        Err(_) => {
                            let message = format!(
                                "this server runs at most {} games at once (--max-games): close \
                                 another tab's game and try again",
                                self.config.max_games
                            );
                            return self.refuse_new(message).await;
                        }
                    },
                };
                let notes = match self.start(*settings).await {
                    Ok((game, notes, board)) => {
                        if let Some(old) = self.game.replace(game) {
                            old.close().await;
                        }
                        self.slot = Some(slot);
                        self.watching = None;
                        self.relink(board).await;
                        notes
                    }
                    Err(Fatal(message)) => {
                        if self.game.is_some() {
                            self.slot = Some(slot);
                        }
                        return self.refuse_new(message).await;
                    }
                };
                self.advance().await?;
                for note in notes {
                    self.complain(&note).await?;
                }
                Ok(())
            }
            Request::Move { text } => self.human_move(text).await,
            Request::TakeBack => self.take_back().await,
            Request::View { ply } if self.watching.is_some() => {
                self.watched(Question::View(ply)).await
            }
            Request::View { ply } => self.view(ply).await,
            Request::Resign { side } => self.resign(side).await,
            Request::Pace { paused, delay_ms } => self.pace(paused, delay_ms).await,
            Request::Step => self.step().await,
            Request::Import { text, game } => {
                let notice = match super::import::read_record(&text, game.as_deref()) {
                    Ok(record) => Notice::Imported(record),
                    Err(message) => Notice::ImportRefused { message },
                };
                let _ = send(&mut self.ws, &notice).await;
                Ok(())
            }
            Request::Review { movetime_ms } => self.review(movetime_ms.unwrap_or(300)).await,
            Request::ReviewStop => self.end_review(None, true).await,
            Request::Explore { ply, moves } if self.watching.is_some() => {
                self.watched(Question::Explore { ply, moves }).await
            }
            Request::Explore { ply, moves } => {
                let notice = self.explored(ply, moves).await?;
                let _ = send(&mut self.ws, &notice).await;
                Ok(())
            }
            Request::Analyse { id, ply, moves, lines, movetime_ms, engine } => {
                let asked = Asked {
                    id,
                    ply,
                    moves,
                    lines: lines.unwrap_or(1),
                    movetime: movetime_ms.unwrap_or(ANALYSIS_MS.1),
                    engine,
                };
                self.analyse(asked).await
            }
            Request::AnalyseStop => self.stop_analysis().await,
            Request::Watch { id } => self.watch(&id).await,
        }
    }

    /// Sends `notice` to the page and, when it shows the game, to the
    /// game's spectators.
    async fn tell(&mut self, notice: Notice) {
        let text = Utf8Bytes::from(serde_json::to_string(&notice).unwrap_or_default());
        let _ = self.ws.write(Some(Message::Text(text.clone()))).await;
        if let Some(link) = &self.link {
            link.publish(notice, text.as_str());
        }
    }

    /// Gives the game just started its link: the one it continues, when
    /// its settings show that link's key and no other tab plays it, else a
    /// new one; the old game's link shows it ended. The page is told the
    /// link, the spectators the board.
    async fn relink(&mut self, board: Notice) {
        let Some(game) = &self.game else { return };
        let settings = game.settings.clone();
        let links = &self.config.links;
        let continued = match &settings.link {
            Some(wanted) => match self.link.take() {
                Some(own) if own.id == wanted.id && own.key == wanted.key => Some(own),
                own => {
                    if let Some(own) = own {
                        links.release(&own);
                    }
                    links.claim(&wanted.id, &wanted.key, &settings).await
                }
            },
            None => None,
        };
        if let Some(old) = self.link.take() {
            links.release(&old);
        }
        let link = continued.unwrap_or_else(|| links.create(&settings));
        let notice = Notice::Link { id: link.id.clone(), key: link.key.clone() };
        let _ = send(&mut self.ws, &notice).await;
        let text = serde_json::to_string(&board).unwrap_or_default();
        link.publish(board, &text);
        self.views = Some(link.answer_views());
        self.link = Some(link);
    }

    /// Starts watching the game of link `id` (a tab that plays a game
    /// keeps playing it).
    async fn watch(&mut self, id: &str) -> Result<(), Fatal> {
        if self.game.is_some() {
            return self
                .complain("this tab plays a game: open the link in another tab to watch it")
                .await;
        }
        let found = if is_id(id) { self.config.links.find(id) } else { None };
        let Some(entry) = found else {
            let message = format!(
                "there is no game '{}' here: a link shows its game while it is played and                  among the last {} ended games",
                id.escape_debug(),
                self.config.kept
            );
            return self.complain(&message).await;
        };
        self.watching = Some(Watching {
            entry: Arc::downgrade(&entry),
            snapshot: entry.subscribe(),
            shown: None,
        });
        self.spectate(true).await
    }

    /// Sends a spectator what changed in its game since the last time
    /// (`kept`), or says the game was dropped.
    async fn spectate(&mut self, kept: bool) -> Result<(), Fatal> {
        let Some(watching) = &mut self.watching else { return Ok(()) };
        if !kept {
            self.watching = None;
            self.quiet_since = Instant::now();
            let message = format!(
                "the game of this link is no longer kept (the server keeps the last {} ended                  games)",
                self.config.kept
            );
            return self.complain(&message).await;
        }
        let now = watching.snapshot.borrow_and_update().clone();
        let shown = watching.shown.replace(now.clone());
        let fresh = |new: &Option<Arc<str>>, old: Option<&Option<Arc<str>>>| match (new, old) {
            (Some(new), Some(Some(old))) if Arc::ptr_eq(new, old) => None,
            (new, _) => new.clone(),
        };
        let mut texts: Vec<Arc<str>> = Vec::new();
        if shown.as_ref().is_none_or(|shown| !Arc::ptr_eq(&shown.watch, &now.watch)) {
            texts.push(Arc::clone(&now.watch));
        }
        texts.extend(fresh(&now.board, shown.as_ref().map(|s| &s.board)));
        let old_state = shown.as_ref().and_then(|s| s.state.as_ref());
        if let Some((state, at)) = &now.state
            && old_state.is_none_or(|(old, _)| !Arc::ptr_eq(old, state))
        {
            // The clock that runs has run since the position was published.
            let mut state = State::clone(state);
            if let Some(side) = state.ticking
                && let Some(left) = &mut state.clocks[usize::from(side - 1)]
            {
                *left -= at.elapsed().as_millis().min(i64::MAX as u128) as i64;
            }
            texts.push(serde_json::to_string(&Notice::State(state)).unwrap_or_default().into());
        }
        for side in 0..2 {
            texts.extend(fresh(&now.info[side], shown.as_ref().map(|s| &s.info[side])));
        }
        for text in texts {
            if self.ws.write(Some(Message::Text(text.as_ref().into()))).await.is_err() {
                break;
            }
        }
        Ok(())
    }

    /// Starts the processes of a game (what fails closes them again); with
    /// the notes on the engines' options.
    async fn start(&mut self, mut settings: NewGame) -> Result<(Game, Vec<String>, Notice), Fatal> {
        let config = Arc::clone(&self.config);
        // Nothing the page sends may become two protocol lines, nor a
        // position text or move that reads back as more moves.
        let texts = [Some(&settings.game), settings.variant.as_ref()];
        if let Some(text) = texts.into_iter().flatten().find(|t| has_break(t)) {
            return Err(Fatal(format!("{text:?} holds a line break: not a game or variant")));
        }
        let base = match settings.fen.as_deref().map(str::trim) {
            Some(text) if !text.is_empty() => PositionBase::Fen(
                PositionText::new(text).map_err(|e| Fatal(format!("position text: {e}")))?,
            ),
            _ => PositionBase::StartPos,
        };
        let moves = (settings.moves.iter().enumerate())
            .map(|(i, mv)| {
                MoveToken::new(mv.as_str()).map_err(|e| Fatal(format!("move {}: {e}", i + 1)))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let ended = settings.verdict.as_ref().map(Verdict::resumed).transpose().map_err(Fatal)?;
        let entry = search::find_game(GAMES, &settings.game).map_err(|e| Fatal(e.to_string()))?;
        settings.game = entry.name.to_owned();
        settings.variant.get_or_insert_with(|| entry.default_variant().to_owned());
        let mut specs = [None, None];
        for (spec, side) in specs.iter_mut().zip(&settings.sides) {
            let Some(name) = &side.engine else { continue };
            let found = config.engines.iter().find(|e| &e.name == name);
            *spec = Some(found.ok_or_else(|| Fatal(format!("unknown engine '{name}'")))?);
        }
        let (referee, mut notes) = spawn(&config.referee, &config, &settings, true).await?;
        let left = settings.sides.each_ref().map(|side| {
            side.clock.map(|c| c.left_ms.unwrap_or(c.base_ms).min(i64::MAX as u64) as i64)
        });
        let delay = Duration::from_millis(settings.delay_ms.min(60_000));
        let paused = settings.paused;
        let mut game = Game {
            settings,
            base,
            moves,
            referee,
            players: [None, None],
            thinking: None,
            game_over: false,
            verdict: None,
            to_move: 0,
            left,
            turn_started: None,
            paused,
            delay,
            go_at: None,
        };
        let mut prepared = game.prepare(&config, specs, &mut notes).await;
        if prepared.is_ok()
            && ended.is_some()
            && let Err(e) = game.resume_verdict(ended, config.timeout).await
        {
            prepared = Err(e);
        }
        match prepared {
            Ok((board, rules)) => {
                let board = Notice::Board { board, rules };
                let _ = send(&mut self.ws, &board).await;
                Ok((game, notes, board))
            }
            Err(e) => {
                game.close().await;
                Err(e)
            }
        }
    }

    /// Shows the position; lets the engine to move search (after the delay,
    /// unless paused) and starts the clock of the side to move.
    async fn advance(&mut self) -> Result<(), Fatal> {
        let timeout = self.config.timeout;
        let Some(game) = &mut self.game else { return Ok(()) };
        let position = game.position();
        game.referee.command(&position, timeout).await?;
        let Described { fen, pieces, movepaths, game_over, to_move: side } =
            game.described(timeout).await?;
        game.game_over = game_over;
        game.to_move = side;
        let over = game.over();
        if over || game.paused {
            game.turn_started = None;
        } else if game.left[side].is_some() && game.turn_started.is_none() {
            game.turn_started = Some(Instant::now());
        }
        let engine_to_move = !over && game.players[side].is_some();
        if engine_to_move && game.thinking.is_none() && game.go_at.is_none() && !game.paused {
            if game.delay.is_zero() {
                game.search(timeout).await?;
            } else {
                game.go_at = Some(Instant::now() + game.delay);
            }
        }
        let state = State {
            moves: game.moves.iter().map(ToString::to_string).collect(),
            fen,
            pieces,
            movepaths,
            to_move: side as u8 + 1,
            human_to_move: !over && !engine_to_move,
            thinking: game.thinking.map(|(s, _)| s as u8 + 1),
            game_over: over,
            verdict: game.verdict.clone(),
            clocks: game.clocks_now(),
            ticking: game.turn_started.map(|_| side as u8 + 1),
            paused: game.paused,
        };
        self.tell(Notice::State(state)).await;
        Ok(())
    }

    /// The position after the first `ply` moves, for the page's move list;
    /// the referee is put back on the game's position.
    async fn view(&mut self, ply: usize) -> Result<(), Fatal> {
        match self.viewed(ply).await? {
            Ok(notice) => {
                let _ = send(&mut self.ws, &notice).await;
                Ok(())
            }
            Err(message) => self.complain(&message).await,
        }
    }

    /// A spectator's question: the player's tab answers it.
    async fn watched(&mut self, question: Question) -> Result<(), Fatal> {
        let entry = self.watching.as_ref().and_then(|w| w.entry.upgrade());
        let answer = match entry {
            Some(entry) => entry.ask(question, self.config.timeout).await,
            None => Err("the game of this link is no longer kept".to_owned()),
        };
        match answer {
            Ok(text) => {
                let _ = self.ws.write(Some(Message::Text(text.into()))).await;
                Ok(())
            }
            Err(message) => self.complain(&message).await,
        }
    }

    /// Answers a spectator's question about an earlier position or a
    /// variation.
    async fn answer_view(&mut self, question: Option<ViewAsk>) -> Result<(), Fatal> {
        let Some((question, reply)) = question else {
            self.views = None;
            return Ok(());
        };
        let answer = match question {
            Question::View(ply) => self.viewed(ply).await?,
            Question::Explore { ply, moves } => Ok(self.explored(ply, moves).await?),
        };
        let _ = reply.send(answer.map(|notice| serde_json::to_string(&notice).unwrap_or_default()));
        Ok(())
    }

    /// The `view` notice of the position after `ply` moves, or why there is
    /// none; the referee is put back on the game's position.
    async fn viewed(&mut self, ply: usize) -> Result<Result<Notice, String>, Fatal> {
        let timeout = self.config.timeout;
        let Some(game) = &mut self.game else {
            return Ok(Err("no game is running: start one".to_owned()));
        };
        if ply > game.moves.len() {
            return Ok(Err(format!("the game has no move {ply}")));
        }
        let mut position = game.position();
        if let GuiMessage::Position { moves, .. } = &mut position {
            moves.truncate(ply);
        }
        game.referee.command(&position, timeout).await?;
        let pieces = game.referee.ask(Query::Pieces, timeout).await?;
        let pieces = json(&game.referee.name, "pieces", &pieces)?;
        let fen = game.referee.ask(Query::Fen, timeout).await?;
        game.referee.command(&game.position(), timeout).await?;
        Ok(Ok(Notice::View { ply, fen, pieces }))
    }

    async fn resign(&mut self, side: Option<u8>) -> Result<(), Fatal> {
        let Some(game) = &mut self.game else {
            return self.complain("no game is running: start one").await;
        };
        if game.over() {
            return self.complain("the game is over already").await;
        }
        let people: Vec<usize> = (0..2).filter(|&i| game.players[i].is_none()).collect();
        let loser = match side {
            Some(side @ 1..=2) => usize::from(side - 1),
            Some(side) => return self.complain(&format!("there is no side {side}")).await,
            None if people.len() == 1 => people[0],
            None => game.to_move,
        };
        game.end(loser, "resignation").await?;
        self.advance().await
    }

    async fn pace(&mut self, paused: bool, delay_ms: u64) -> Result<(), Fatal> {
        let Some(game) = &mut self.game else { return Ok(()) };
        game.delay = Duration::from_millis(delay_ms.min(60_000));
        if paused && !game.paused {
            game.go_at = None;
            game.stop_clock(false);
        }
        game.paused = paused;
        self.advance().await
    }

    async fn step(&mut self) -> Result<(), Fatal> {
        let timeout = self.config.timeout;
        let Some(game) = &mut self.game else { return Ok(()) };
        if game.paused && !game.over() && game.thinking.is_none() {
            if game.players[game.to_move].is_none() {
                return self.complain("a person is to move").await;
            }
            game.search(timeout).await?;
            self.advance().await?;
        }
        Ok(())
    }

    /// The clock of the side to move has run out.
    async fn flag(&mut self) -> Result<(), Fatal> {
        let Some(game) = &mut self.game else { return Ok(()) };
        let side = game.to_move;
        game.stop_clock(false);
        game.end(side, "time").await?;
        self.advance().await
    }

    /// The wait for the delay before a search is over.
    async fn go(&mut self) -> Result<(), Fatal> {
        let timeout = self.config.timeout;
        let Some(game) = &mut self.game else { return Ok(()) };
        game.go_at = None;
        if !game.over() && !game.paused && game.thinking.is_none() {
            game.search(timeout).await?;
        }
        Ok(())
    }

    /// The referee's verdict on `text` as the next move.
    async fn is_legal(&mut self, mv: &MoveToken) -> Result<bool, Fatal> {
        let Some(game) = &mut self.game else { return Ok(false) };
        let verdict = game.referee.ask(Query::IsLegal(mv.clone()), self.config.timeout).await?;
        Ok(verdict == "true")
    }

    async fn human_move(&mut self, text: String) -> Result<(), Fatal> {
        let Some(game) = &self.game else {
            return self.complain("no game is running: start one").await;
        };
        if game.over() || game.thinking.is_some() || game.players[game.to_move].is_some() {
            return self.complain(&format!("'{text}' was not played: it is not your turn")).await;
        }
        let mv = match MoveToken::new(text) {
            Ok(mv) => mv,
            Err(e) => return self.complain(&format!("not played: {e}")).await,
        };
        if !self.is_legal(&mv).await? {
            return self.complain(&format!("'{mv}' is not a legal move here")).await;
        }
        self.played(mv).await
    }

    /// A legal move of the side to move: on its clock, then on the board
    /// (unless the clock had run out).
    async fn played(&mut self, mv: MoveToken) -> Result<(), Fatal> {
        let Some(game) = &mut self.game else { return Ok(()) };
        if game.stop_clock(true) {
            let side = game.to_move;
            game.end(side, "time").await?;
        } else {
            game.moves.push(mv);
        }
        self.advance().await
    }

    async fn take_back(&mut self) -> Result<(), Fatal> {
        let timeout = self.config.timeout;
        let Some(game) = &mut self.game else {
            return self.complain("no game is running: start one").await;
        };
        if game.moves.is_empty() {
            return self.complain("there is no move to take back").await;
        }
        if game.verdict.is_some() {
            return self.complain("the game is over: start a new one").await;
        }
        game.stop_clock(false);
        game.go_at = None;
        if let Some((side, _)) = game.thinking.take()
            && let Some(player) = &mut game.players[side]
        {
            player.engine.send(&GuiMessage::Stop).await?;
            player.abandoned += 1;
        }
        let has_person = game.players.iter().any(Option::is_none);
        game.moves.pop();
        // Back to a position where a person is to move, if one plays.
        while has_person && !game.moves.is_empty() {
            game.referee.command(&game.position(), timeout).await?;
            let side = usize::from(game.referee.ask(Query::P1Turn, timeout).await? != "true");
            if game.players[side].is_none() {
                break;
            }
            game.moves.pop();
        }
        self.advance().await
    }

    async fn engine_said(
        &mut self,
        side: usize,
        message: Result<EngineMessage, EngineError>,
    ) -> Result<(), Fatal> {
        let message = message?;
        let Some(game) = &mut self.game else { return Ok(()) };
        let Some(player) = &mut game.players[side] else { return Ok(()) };
        match message {
            EngineMessage::BestMove(_) if player.abandoned > 0 => {
                player.abandoned -= 1;
                Ok(())
            }
            EngineMessage::BestMove(answer) => {
                let name = player.engine.name.clone();
                if game.thinking.map(|(s, _)| s) != Some(side) {
                    return Err(Fatal(format!(
                        "engine '{name}' answered a move it was not asked for"
                    )));
                }
                game.thinking = None;
                let Some(text) = answer else {
                    return Err(Fatal(format!(
                        "engine '{name}' answered 'bestmove (none)' but the game is not over"
                    )));
                };
                if !self.is_legal(&text).await? {
                    return Err(Fatal(format!(
                        "engine '{name}' answered an illegal move '{text}'"
                    )));
                }
                self.played(text).await
            }
            // Of a search of several lines, the best line is the engine's.
            EngineMessage::Info(info) if player.abandoned == 0 && info.is_best_line() => {
                self.tell(info_notice(side, info)).await;
                Ok(())
            }
            _ => Ok(()),
        }
    }

    async fn hung(&mut self) -> Result<(), Fatal> {
        let Some(game) = &self.game else { return Ok(()) };
        let Some((side, _)) = game.thinking else { return Ok(()) };
        let name = game.players[side].as_ref().map_or("?", |p| p.engine.name.as_str());
        Err(Fatal(format!(
            "engine '{name}' did not answer its move in time (more than {} ms beyond its limit)",
            self.config.timeout.as_millis()
        )))
    }
}

// ----- the analysis board -----

/// The most moves of a variation the analysis board explores.
const MAX_VARIATION: usize = 1000;

/// A position as the referee describes it.
struct Described {
    fen: String,
    pieces: Value,
    movepaths: Value,
    game_over: bool,
    /// 0 or 1.
    to_move: usize,
}

/// A [`Request::Analyse`], with its defaults.
struct Asked {
    id: u32,
    ply: usize,
    moves: Vec<String>,
    lines: u32,
    movetime: u64,
    engine: Option<String>,
}

/// The next message of the analysis engine; never, without one.
async fn analysed(analysis: Option<&mut Analysis>) -> Result<EngineMessage, EngineError> {
    match analysis {
        Some(analysis) => analysis.heard().await,
        None => std::future::pending().await,
    }
}

impl Session {
    /// Sets the referee on the position after the game's first `ply` moves
    /// and then `variation`: that line of moves, or why there is none (the
    /// referee is then back on the game's position). The caller puts the
    /// referee back after a line.
    async fn variation(
        &mut self,
        ply: usize,
        variation: &[String],
    ) -> Result<Result<Vec<MoveToken>, String>, Fatal> {
        let timeout = self.config.timeout;
        let Some(game) = &mut self.game else {
            return Ok(Err("no game is on the board: start or import one".to_owned()));
        };
        if ply > game.moves.len() {
            let plies = game.moves.len();
            return Ok(Err(format!("the game has no move {ply}: it has {plies}")));
        }
        if variation.len() > MAX_VARIATION {
            return Ok(Err(format!(
                "a variation of {} moves: at most {MAX_VARIATION} are explored",
                variation.len()
            )));
        }
        let mut moves = game.moves[..ply].to_vec();
        for (i, mv) in variation.iter().enumerate() {
            match MoveToken::new(mv.as_str()) {
                Ok(mv) => moves.push(mv),
                Err(e) => return Ok(Err(format!("variation move {}: {e}", i + 1))),
            }
        }
        let position = GuiMessage::Position { base: game.base.clone(), moves: moves.clone() };
        // The referee refuses an illegal move of the line, naming it.
        if let Err(e) = game.referee.command(&position, timeout).await {
            game.referee.command(&game.position(), timeout).await?;
            return Ok(Err(format!("the variation is refused: {e}")));
        }
        Ok(Ok(moves))
    }

    /// The answer to a [`Request::Explore`] (the player's own, or a
    /// spectator's): the position, or why there is none.
    async fn explored(&mut self, ply: usize, moves: Vec<String>) -> Result<Notice, Fatal> {
        let timeout = self.config.timeout;
        Ok(match self.variation(ply, &moves).await? {
            Err(message) => Notice::ExploreRefused { ply, moves, message },
            Ok(_) => {
                let Some(game) = &mut self.game else {
                    let message = "no game is on the board".to_owned();
                    return Ok(Notice::ExploreRefused { ply, moves, message });
                };
                let described = game.described(timeout).await?;
                game.referee.command(&game.position(), timeout).await?;
                Notice::Explored {
                    ply,
                    moves,
                    fen: described.fen,
                    pieces: described.pieces,
                    movepaths: described.movepaths,
                    to_move: described.to_move as u8 + 1,
                    game_over: described.game_over,
                }
            }
        })
    }

    /// Answers a [`Request::Analyse`]: the search starts, or the page is
    /// told why not.
    async fn analyse(&mut self, asked: Asked) -> Result<(), Fatal> {
        let id = asked.id;
        if let Err(error) = self.start_analysis(asked).await? {
            let notice =
                Notice::AnalysisDone { id, best: None, error: Some(error), stopped: false };
            let _ = send(&mut self.ws, &notice).await;
        }
        Ok(())
    }

    async fn start_analysis(&mut self, asked: Asked) -> Result<Result<(), String>, Fatal> {
        let config = Arc::clone(&self.config);
        let timeout = config.timeout;
        if !(1..=MAX_LINES).contains(&asked.lines) {
            return Ok(Err(format!("{} lines: an analysis shows 1 to {MAX_LINES}", asked.lines)));
        }
        let spec = match &asked.engine {
            None => &config.referee,
            Some(name) => match config.engines.iter().find(|e| &e.name == name) {
                Some(spec) => spec,
                None if *name == config.referee.name => &config.referee,
                None => return Ok(Err(format!("there is no engine {name:?} here"))),
            },
        };
        let moves = match self.variation(asked.ply, &asked.moves).await? {
            Ok(moves) => moves,
            Err(message) => return Ok(Err(message)),
        };
        let Some(game) = &mut self.game else { return Ok(Err("no game".to_owned())) };
        let over = game.referee.ask(Query::GameOver, timeout).await? == "true";
        let to_move = if game.referee.ask(Query::P1Turn, timeout).await? == "true" { 1 } else { 2 };
        game.referee.command(&game.position(), timeout).await?;
        if over {
            return Ok(Err("the game is over in this position: there is nothing to search".into()));
        }
        let (base, settings) = (game.base.clone(), game.settings.clone());
        if let Some(old) = self.analysis.take_if(|a| a.chosen != spec.name) {
            old.close().await;
        }
        let mut analysis = match self.analysis.take() {
            Some(analysis) => analysis,
            None => match spawn(spec, &config, &settings, false).await {
                Ok((engine, _)) => Analysis::new(engine, spec.name.clone()),
                Err(Fatal(message)) => return Ok(Err(message)),
            },
        };
        let ask = Ask {
            id: asked.id,
            base,
            moves,
            to_move,
            lines: asked.lines,
            movetime: asked.movetime,
        };
        let stopped = match analysis.stop(timeout).await {
            Ok(stopped) => stopped,
            Err(e) => {
                analysis.close().await;
                return Ok(Err(e.0));
            }
        };
        if let Some(notice) = stopped {
            let _ = send(&mut self.ws, &notice).await;
        }
        match analysis.start(ask, timeout).await {
            Ok(()) => {
                self.analysis = Some(analysis);
                Ok(Ok(()))
            }
            Err(e) => {
                analysis.close().await;
                Ok(Err(e.0))
            }
        }
    }

    async fn analysis_said(
        &mut self,
        message: Result<EngineMessage, EngineError>,
    ) -> Result<(), Fatal> {
        let Some(analysis) = &mut self.analysis else { return Ok(()) };
        match message {
            Ok(message) => {
                if let Some(notice) = analysis.said(message) {
                    let _ = send(&mut self.ws, &notice).await;
                }
                Ok(())
            }
            Err(e) => self.end_analysis(e.0).await,
        }
    }

    /// Stops the analysis under way, if any.
    async fn stop_analysis(&mut self) -> Result<(), Fatal> {
        let timeout = self.config.timeout;
        let Some(analysis) = &mut self.analysis else { return Ok(()) };
        match analysis.stop(timeout).await {
            Ok(Some(notice)) => {
                let _ = send(&mut self.ws, &notice).await;
                Ok(())
            }
            Ok(None) => Ok(()),
            Err(e) => self.end_analysis(e.0).await,
        }
    }

    /// Closes the analysis engine after its failure; the page is told, if
    /// it was searching.
    async fn end_analysis(&mut self, error: String) -> Result<(), Fatal> {
        let Some(analysis) = self.analysis.take() else { return Ok(()) };
        let id = analysis.searching();
        analysis.close().await;
        if let Some(id) = id {
            let notice =
                Notice::AnalysisDone { id, best: None, error: Some(error), stopped: false };
            let _ = send(&mut self.ws, &notice).await;
        }
        Ok(())
    }
}

// ----- game review -----

/// The next message of the review's engine; never, without a review.
async fn reviewed(review: Option<&mut Review>) -> Result<EngineMessage, EngineError> {
    match review {
        Some(review) => review.heard().await,
        None => std::future::pending().await,
    }
}

impl Session {
    /// Starts reviewing the game on the board (a review under way is ended).
    async fn review(&mut self, movetime: u64) -> Result<(), Fatal> {
        if let Some(review) = self.review.take() {
            review.close().await;
        }
        let Some(game) = &self.game else {
            return self.complain("no game is on the board: start or import one").await;
        };
        let config = Arc::clone(&self.config);
        let (base, moves) = (game.base.clone(), game.moves.clone());
        let engine = match spawn(&config.referee, &config, &game.settings, true).await {
            Ok((engine, _)) => engine,
            Err(Fatal(message)) => return self.end_review(Some(message), false).await,
        };
        let (review, notices) = Review::start(engine, base, moves, movetime, config.timeout).await;
        self.review = Some(review);
        self.review_told(notices).await
    }

    async fn review_said(
        &mut self,
        message: Result<EngineMessage, EngineError>,
    ) -> Result<(), Fatal> {
        let timeout = self.config.timeout;
        let Some(review) = &mut self.review else { return Ok(()) };
        let notices = match message {
            Ok(message) => review.said(message, timeout).await,
            Err(e) => Err(e),
        };
        self.review_told(notices).await
    }

    /// Sends the review's notices; ends it when it is done or failed.
    async fn review_told(
        &mut self,
        notices: Result<Vec<Notice>, EngineError>,
    ) -> Result<(), Fatal> {
        match notices {
            Ok(notices) => {
                for notice in &notices {
                    let _ = send(&mut self.ws, notice).await;
                }
                if self.review.as_ref().is_some_and(Review::done)
                    && let Some(review) = self.review.take()
                {
                    review.close().await;
                }
                Ok(())
            }
            Err(e) => self.end_review(Some(e.0), false).await,
        }
    }

    /// Ends the review under way (or says that none runs), telling the page.
    async fn end_review(&mut self, error: Option<String>, stopped: bool) -> Result<(), Fatal> {
        if let Some(review) = self.review.take() {
            review.close().await;
        }
        let _ = send(&mut self.ws, &Notice::ReviewDone { error, stopped }).await;
        Ok(())
    }
}

impl Game {
    /// What the referee says of the position it is on.
    async fn described(&mut self, timeout: Duration) -> Result<Described, Fatal> {
        let referee = &mut self.referee;
        let pieces = referee.ask(Query::Pieces, timeout).await?;
        let pieces = json(&referee.name, "pieces", &pieces)?;
        let movepaths = referee.ask(Query::MovePaths, timeout).await?;
        let movepaths = json(&referee.name, "movepaths", &movepaths)?;
        let fen = referee.ask(Query::Fen, timeout).await?;
        let game_over = referee.ask(Query::GameOver, timeout).await? == "true";
        let to_move = usize::from(referee.ask(Query::P1Turn, timeout).await? != "true");
        Ok(Described { fen, pieces, movepaths, game_over, to_move })
    }

    /// Asks the referee for the board (and the rules, which it may not
    /// know), checks the game and the position, and starts the engines of the
    /// sides `specs` names, adding the notes on their options to `notes`.
    async fn prepare(
        &mut self,
        config: &Config,
        specs: [Option<&EngineSpec>; 2],
        notes: &mut Vec<String>,
    ) -> Result<(Value, Option<String>), Fatal> {
        let referee = &mut self.referee;
        let board = referee.ask(Query::Board, config.timeout).await.map_err(|e| {
            Fatal(format!(
                "the referee engine '{}' cannot describe the board ({e}); it needs the queries \
                 board, pieces and movepaths of docs/protocol.md (--referee chooses another)",
                referee.name
            ))
        })?;
        let board = json(&referee.name, "board", &board)?;
        let wanted = [Some(self.settings.game.as_str()), self.settings.variant.as_deref()];
        let described = [board["game"].as_str(), board["variant"].as_str()];
        if wanted != described {
            return Err(Fatal(format!(
                "the referee engine '{}' describes the board of {described:?}, not of {wanted:?}",
                referee.name
            )));
        }
        // An extension: a referee without it has no rules to show.
        let rules = match self.referee.ask(Query::Rules, config.timeout).await {
            Ok(text) => serde_json::from_str::<String>(&text).ok().filter(|t| !t.is_empty()),
            Err(_) => None,
        };
        let position = self.position();
        self.referee.command(&position, config.timeout).await?;
        for (i, spec) in specs.into_iter().enumerate() {
            let Some(spec) = spec else { continue };
            let (engine, more) = spawn(spec, config, &self.settings, false).await?;
            notes.extend(more);
            let limit = self.settings.sides[i].limit.unwrap_or(Limit::Movetime(1000));
            self.players[i] = Some(Player { engine, limit, abandoned: 0 });
        }
        Ok((board, rules))
    }

    /// Puts back the verdict of a resumed game, unless the rules ended it
    /// (a verdict would contradict their result).
    async fn resume_verdict(
        &mut self,
        ended: Option<Verdict>,
        timeout: Duration,
    ) -> Result<(), Fatal> {
        if self.referee.ask(Query::GameOver, timeout).await? == "true" {
            return Err(Fatal(
                "the rules ended this game: it cannot also end by resignation or time".to_owned(),
            ));
        }
        self.verdict = ended;
        Ok(())
    }

    /// Over by the rules or by a verdict.
    fn over(&self) -> bool {
        self.game_over || self.verdict.is_some()
    }

    /// When the clock of the side to move runs out, if it runs.
    fn flag_at(&self) -> Option<Instant> {
        let left = self.left[self.to_move]?;
        let started = self.turn_started?;
        Some(started + Duration::from_millis(left.max(0) as u64))
    }

    /// The time left per side now.
    fn clocks_now(&self) -> [Option<i64>; 2] {
        let mut clocks = self.left;
        if let (Some(started), Some(left)) = (self.turn_started, &mut clocks[self.to_move]) {
            *left -= started.elapsed().as_millis().min(i64::MAX as u128) as i64;
        }
        clocks
    }

    /// Stops the clock of the side to move, adding its increment when it
    /// `moved`; whether it had run out.
    fn stop_clock(&mut self, moved: bool) -> bool {
        let side = self.to_move;
        let (Some(started), Some(left)) = (self.turn_started.take(), &mut self.left[side]) else {
            return false;
        };
        *left -= started.elapsed().as_millis().min(i64::MAX as u128) as i64;
        if *left < 0 {
            return true;
        }
        if moved {
            let inc = self.settings.sides[side].clock.map_or(0, |c| c.inc_ms);
            *left = left.saturating_add(inc.min(i64::MAX as u64) as i64);
        }
        false
    }

    /// Ends the game: `loser` (0 or 1) lost by `reason`; a search is abandoned.
    async fn end(&mut self, loser: usize, reason: &'static str) -> Result<(), Fatal> {
        self.verdict = Some(Verdict {
            result: if loser == 0 { "p2win" } else { "p1win" },
            reason,
            loser: loser as u8 + 1,
        });
        self.go_at = None;
        self.turn_started = None;
        if let Some((side, _)) = self.thinking.take()
            && let Some(player) = &mut self.players[side]
        {
            player.engine.send(&GuiMessage::Stop).await?;
            player.abandoned += 1;
        }
        Ok(())
    }

    /// Lets the engine of the side to move search, under its clock if it
    /// has one, else its limit.
    async fn search(&mut self, timeout: Duration) -> Result<(), Fatal> {
        let side = self.to_move;
        let position = self.position();
        let clocks = self.clocks_now();
        let incs = self.settings.sides.each_ref().map(|s| s.clock.map(|c| c.inc_ms));
        let Some(player) = &mut self.players[side] else { return Ok(()) };
        let (go, patience) = match clocks[side] {
            Some(left) => {
                let ms = |t: Option<i64>| t.map(|t| t.max(0) as u64);
                let go = Go {
                    p1time: ms(clocks[0]),
                    p2time: ms(clocks[1]),
                    p1inc: incs[0],
                    p2inc: incs[1],
                    ..Go::default()
                };
                (go, timeout + Duration::from_millis(left.max(0) as u64))
            }
            None => (player.limit.go(), player.limit.patience(timeout)),
        };
        player.engine.send(&position).await?;
        player.engine.send(&GuiMessage::Go(go)).await?;
        self.thinking = Some((side, Instant::now() + patience));
        Ok(())
    }

    fn position(&self) -> GuiMessage {
        GuiMessage::Position { base: self.base.clone(), moves: self.moves.clone() }
    }

    async fn close(self) {
        let [first, second] = self.players;
        let players = [first, second].into_iter().flatten().map(|p| p.engine.close());
        futures_util::future::join_all(players.chain([self.referee.close()])).await;
    }
}

impl Limit {
    fn go(self) -> Go {
        match self {
            Limit::Movetime(ms) => Go { movetime: Some(ms), ..Go::default() },
            Limit::Depth(depth) => Go { depth: Some(depth), ..Go::default() },
            Limit::Nodes(nodes) => Go { nodes: Some(nodes), ..Go::default() },
        }
    }

    /// How long to wait for the `bestmove` of a search under this limit.
    fn patience(self, timeout: Duration) -> Duration {
        match self {
            Limit::Movetime(ms) => timeout + Duration::from_millis(ms),
            Limit::Depth(_) | Limit::Nodes(_) => timeout,
        }
    }
}

/// Starts an engine for the game of `settings` and sets its options;
/// built-ins also get their `Engine`, and a built-in `referee` no endgame
/// table (it searches nothing). One that fails is closed. Notes of the
/// options it does not declare or refused are returned.
pub(super) async fn spawn(
    spec: &EngineSpec,
    config: &Config,
    settings: &NewGame,
    referee: bool,
) -> Result<(Engine, Vec<String>), Fatal> {
    let mut engine = Engine::spawn(spec, &config.exe)?;
    let mut options = vec![
        ("Game", settings.game.clone()),
        ("Variant", settings.variant.clone().unwrap_or_default()),
        ("MaxPlies", settings.max_plies.to_string()),
    ];
    if let Program::Builtin(kind) = &spec.program {
        options.push(("Engine", kind.name().to_owned()));
        if referee {
            options.push(("Tablebase", "false".to_owned()));
        }
    }
    options.extend(spec.options.iter().map(|(name, value)| (name.as_str(), value.clone())));
    match engine.start(&options, config.timeout).await {
        Ok(notes) => Ok((engine, notes)),
        Err(e) => {
            engine.close().await;
            Err(e.into())
        }
    }
}

/// Whether `text` holds a line break (or another control character), which
/// no protocol text may.
fn has_break(text: &str) -> bool {
    text.contains(char::is_control)
}

fn json(engine: &str, query: &str, text: &str) -> Result<Value, Fatal> {
    serde_json::from_str(text).map_err(|e| {
        Fatal(format!("engine '{engine}' answered 'query {query}' with invalid JSON: {e}"))
    })
}

fn info_notice(side: usize, info: SearchInfo) -> Notice {
    Notice::Info {
        side: side as u8 + 1,
        depth: info.depth,
        score: info.score.map(|score| score.to_string()),
        nodes: info.nodes,
        pv: info.pv.into_iter().map(String::from).collect(),
    }
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// How long the page may take to take what the server writes (its pongs
/// too) once the socket's buffers are full; then the session ends.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the page has to answer the server's close.
const CLOSE_TIMEOUT: Duration = Duration::from_secs(1);

/// The page's end of the WebSocket. Every write is flushed within
/// [`SEND_TIMEOUT`] or the page is lost: a page that sends but never reads
/// is cut off, never buffered for.
struct Page {
    ws: WebSocket,
    /// A write failed or timed out: nothing more is read or written.
    lost: bool,
}

/// The page was lost (see [`Page`]).
struct Lost;

impl Page {
    /// The next message; none once the page is lost.
    async fn recv(&mut self) -> Option<Result<Message, axum::Error>> {
        if self.lost {
            return None;
        }
        self.ws.recv().await
    }

    /// Writes `message` (or only what is queued, the pongs to the page's
    /// pings) and flushes it.
    async fn write(&mut self, message: Option<Message>) -> Result<(), Lost> {
        use futures_util::SinkExt;
        if self.lost {
            return Err(Lost);
        }
        let written = match message {
            Some(message) => tokio::time::timeout(SEND_TIMEOUT, self.ws.send(message)).await,
            None => tokio::time::timeout(SEND_TIMEOUT, self.ws.flush()).await,
        };
        if !matches!(written, Ok(Ok(()))) {
            self.lost = true;
            return Err(Lost);
        }
        Ok(())
    }

    /// Writes the pongs queued for the page's pings.
    async fn flush(&mut self) {
        let _ = self.write(None).await;
    }
}

async fn send(ws: &mut Page, notice: &Notice) -> Result<(), Lost> {
    let text = serde_json::to_string(notice).unwrap_or_default();
    ws.write(Some(Message::Text(text.into()))).await
}
