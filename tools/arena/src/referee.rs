//! Plays one game between two engine processes, keeping the position itself,
//! checking every move and deciding the end.

use std::fmt;
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use board_core::{ByPlayer, Outcome, Player, Score};
use protocol::client::EngineLog;
use protocol::{
    EngineMessage, Go, GuiMessage, MoveToken, OptionDecl, OptionKind, ParseError, PositionBase,
    PositionText, Query, result_word,
};
use search::{DynTable, EngineKind, GameEntry, SearchGame};
use tokio::time::Instant;

use crate::adjudicate::{Adjudication, Tracker, Verdict, table_verdict};
use crate::config::{EngineSpec, Limit, Program, TimeControl};
use crate::engine::{Engine, Fault, Heard, MAX_UNRECOGNISED};
use crate::observe::{Event, Observers};
use crate::record::{GameRecord, MoveEval, Termination};
use crate::schedule::{Fixture, Opening, Pairing};

/// What every game of a tournament shares.
#[derive(Debug)]
pub struct Referee {
    /// The game.
    pub entry: &'static GameEntry,
    /// Its variant.
    pub variant: String,
    /// The engines.
    pub engines: Vec<EngineSpec>,
    /// The `igroteka` executable for built-ins.
    pub igroteka: PathBuf,
    /// The ply cap (moves from the base position, opening included; 0: none).
    pub max_plies: u32,
    /// Time an engine may overrun its clock or movetime before it forfeits.
    pub time_margin: Duration,
    /// Time to answer `ugi` or `isready`.
    pub stall_timeout: Duration,
    /// The longest a move may take when the engine's limit has no time in
    /// it (depth or nodes only): then it forfeits (`stall`).
    pub move_timeout: Duration,
    /// A folder for one log per engine process and game (the conversation
    /// and the engine's stderr), if asked for.
    pub engine_log: Option<PathBuf>,
    /// The most bytes of each log (past them, a note and nothing more).
    pub engine_log_bytes: u64,
    /// Whether to ask both engines `query result` at the end.
    pub query_result: bool,
    /// The tournament seed: every engine that declares `Seed` gets a
    /// per-game seed derived from it.
    pub seed: u64,
    /// The tournament's fingerprint, written in every record.
    pub tournament: String,
    /// The tournament's engines, rounds and pairing, written in every record.
    pub pairing: Pairing,
    /// When the arena ends a game early (`--draw`, `--resign`, `--tb`).
    pub adjudication: Adjudication,
    /// The game's exact table, with `--tb`.
    pub table: Option<DynTable>,
    /// Whether every game starts both its engines afresh (`--restart on`);
    /// otherwise an engine's process plays its next game too, and only one
    /// that misbehaved is replaced.
    pub restart: bool,
    /// The engine processes kept for their next game, per engine.
    pub(crate) idle: Idle,
    /// Told each game's start, moves, searches and end.
    pub(crate) observers: Observers,
}

/// Engine processes between two games, per engine of the tournament.
pub(crate) struct Idle(Mutex<Vec<Vec<Started>>>);

impl Idle {
    /// No process kept, for `engines` engines.
    pub(crate) fn new(engines: usize) -> Self {
        Idle(Mutex::new((0..engines).map(|_| Vec::new()).collect()))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Vec<Started>>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl fmt::Debug for Idle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let counts: Vec<usize> = self.lock().iter().map(Vec::len).collect();
        f.debug_tuple("Idle").field(&counts).finish()
    }
}

/// An engine refused the options the arena sent it: the tournament cannot
/// go on as asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionsRefused {
    /// The engine's name.
    pub engine: String,
    /// What it answered (its `info string error: ...` texts).
    pub errors: Vec<String>,
}

impl fmt::Display for OptionsRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "engine '{}' refused its options: {}", self.engine, self.errors.join("; "))
    }
}

impl std::error::Error for OptionsRefused {}

/// Why an engine could not be made ready for a game.
pub(crate) enum StartError {
    /// It misbehaved: it loses the game.
    Fault(Fault),
    /// It refused an option: the tournament stops.
    Refused(OptionsRefused),
}

impl From<Fault> for StartError {
    fn from(fault: Fault) -> Self {
        StartError::Fault(fault)
    }
}

/// An engine ready for a game.
pub(crate) struct Started {
    pub(crate) engine: Engine,
    /// Whether its games differ from one another by more than the opening:
    /// it gets a seed per game and uses it (a built-in MCTS or random
    /// player, or an external engine that declares `Seed`), or it plays on
    /// a clock or a movetime.
    pub(crate) varies: bool,
    /// The range of the `Seed` option it declared, when the arena seeds it
    /// (not when its `option.Seed=` is given): a renewed engine gets the
    /// next game's seed in it.
    seed_range: Option<(i64, i64)>,
}

/// A clock of one side.
#[derive(Clone, Copy, Debug)]
struct Clock {
    left_ms: u64,
    inc_ms: u64,
    /// Added every `moves` moves (a period's time).
    base_ms: u64,
    /// Moves per period, if the clock has periods.
    moves: Option<u32>,
    /// Moves made on this clock.
    made: u32,
}

impl Clock {
    fn new(tc: TimeControl) -> Self {
        Clock {
            left_ms: tc.base_ms,
            inc_ms: tc.inc_ms,
            base_ms: tc.base_ms,
            moves: tc.moves,
            made: 0,
        }
    }

    /// Moves left in this period (the protocol's `movestogo`), with periods.
    fn moves_to_go(self) -> Option<u32> {
        self.moves.map(|n| n - self.made % n)
    }

    /// After a move that took `spent_ms`: the time taken off (never below
    /// zero), the increment added, and at the end of a period its time.
    fn punch(&mut self, spent_ms: u64) {
        self.left_ms = self.left_ms.saturating_sub(spent_ms) + self.inc_ms;
        self.made += 1;
        if self.moves.is_some_and(|n| self.made.is_multiple_of(n)) {
            self.left_ms += self.base_ms;
        }
    }
}

enum End {
    Rules(Outcome),
    MaxPlies(Outcome),
    Fault(Player, Fault),
    Adjudicated(Verdict),
}

impl Referee {
    /// Plays `fixture` from `opening` and returns its record. An engine that
    /// misbehaves loses the game.
    ///
    /// # Errors
    /// An engine that refuses an option: no game can be played as asked.
    pub async fn play(
        &self,
        fixture: Fixture,
        opening: &Opening,
    ) -> Result<GameRecord, OptionsRefused> {
        let started = std::time::Instant::now();
        let specs = ByPlayer::new(&self.engines[fixture.p1], &self.engines[fixture.p2]);
        let mut game = match opening.record(self.entry, &self.variant, self.max_plies) {
            Ok(game) => game,
            Err(e) => unreachable!("openings are checked before play: {e}"),
        };
        let second_moves_first =
            opening.moves.is_empty() && game.position().side_to_move() == Player::Second;
        let mut engines = ByPlayer::new(None, None);
        let mut evals = Vec::new();
        let end = self.run(fixture, opening, &mut engines, &mut game, &mut evals).await;
        let end = match end {
            Ok(end) => end,
            Err(refused) => {
                for started in [engines.first, engines.second].into_iter().flatten() {
                    started.engine.quit();
                }
                return Err(refused);
            }
        };
        let faulty = match &end {
            End::Fault(side, _) => Some(*side),
            End::Rules(_) | End::MaxPlies(_) | End::Adjudicated(_) => None,
        };
        let moves = game.moves().to_vec();
        let (outcome, termination, reason) = match end {
            End::Rules(o) => (o, Termination::Normal, o.reason.to_owned()),
            End::MaxPlies(o) => (o, Termination::MaxPlies, o.reason.to_owned()),
            End::Adjudicated(verdict) => {
                let outcome = match verdict.winner {
                    Some(winner) => Outcome::win(winner, "adjudication"),
                    None => Outcome::draw("adjudication"),
                };
                (outcome, Termination::Adjudication, verdict.reason)
            }
            End::Fault(side, fault) => (
                Outcome::win(side.other(), "forfeit"),
                fault.termination,
                format!(
                    "{} ({}): {}",
                    specs[side].name, self.entry.player_names[side], fault.detail
                ),
            ),
        };
        let mut disagreements = Vec::new();
        if self.query_result && matches!(termination, Termination::Normal | Termination::MaxPlies) {
            let position = position_message(opening, &moves);
            for side in Player::BOTH {
                if let Some(started) = engines[side].as_mut()
                    && let Ok(position) = &position
                    && let Some(answer) = self.ask_result(&mut started.engine, position).await
                    && answer != result_word(Some(outcome))
                {
                    disagreements.push(format!("{}: {answer}", specs[side].name));
                }
            }
        }
        let indices = ByPlayer::new(fixture.p1, fixture.p2);
        for side in Player::BOTH {
            if let Some(started) = engines[side].take() {
                if faulty == Some(side) {
                    started.engine.quit();
                } else {
                    self.release(indices[side], started);
                }
            }
        }
        let result = outcome.result_text();
        self.observers.tell(Event::Ended { id: fixture.id, result, reason: &reason });
        Ok(GameRecord {
            id: fixture.id,
            round: fixture.round,
            pair: fixture.pair,
            game: self.entry.name.to_owned(),
            variant: self.variant.clone(),
            tournament: self.tournament.clone(),
            max_plies: Some(self.max_plies),
            pairing: Some(self.pairing.clone()),
            colours: [
                self.entry.player_names.first.to_owned(),
                self.entry.player_names.second.to_owned(),
            ],
            p1: specs.first.name.clone(),
            p2: specs.second.name.clone(),
            opening: opening.to_string(),
            fen: opening.fen.clone(),
            opening_plies: opening.moves.len() as u32,
            second_moves_first,
            moves,
            result: outcome.result_text().to_owned(),
            score: outcome.score.map(|s| [s.first, s.second]),
            termination,
            reason,
            disagreements,
            duration_ms: started.elapsed().as_millis() as u64,
            evals,
        })
    }

    async fn run(
        &self,
        fixture: Fixture,
        opening: &Opening,
        engines: &mut ByPlayer<Option<Started>>,
        game: &mut board_core::GameRecord<dyn SearchGame>,
        evals: &mut Vec<MoveEval>,
    ) -> Result<End, OptionsRefused> {
        let indices = ByPlayer::new(fixture.p1, fixture.p2);
        for side in Player::BOTH {
            match self.engine_for(indices[side], fixture.id, side).await {
                Ok(started) => engines[side] = Some(started),
                Err(StartError::Fault(fault)) => return Ok(End::Fault(side, fault)),
                Err(StartError::Refused(refused)) => return Err(refused),
            }
        }
        let specs = indices.map(|i| &self.engines[i]);
        let limits = specs.map(|s| s.limit);
        let mut clocks = limits.map(|l| l.tc.map(Clock::new));
        let margins = specs.map(|s| s.time_margin.map_or(self.time_margin, Duration::from_millis));
        let mut tracker = Tracker::default();
        let names = [specs.first.name.as_str(), specs.second.name.as_str()];
        // The side that made the last engine move (none yet: the opening's).
        let mut mover = None;
        self.observers.tell(Event::Started { id: fixture.id, engines: names });
        loop {
            // Every position, the last one too, when it is watched.
            if self.observers.0.is_some()
                && let Ok(position) = position_message(opening, game.moves())
            {
                self.observers.tell(Event::Moved {
                    id: fixture.id,
                    position: &position,
                    moves: game.moves(),
                    clocks_ms: [clocks.first, clocks.second].map(|c| c.map(|c| c.left_ms)),
                    to_move: game.position().side_to_move(),
                });
            }
            if let Some(outcome) = game.outcome() {
                return Ok(if game.ended_at_cap() {
                    End::MaxPlies(outcome)
                } else {
                    End::Rules(outcome)
                });
            }
            // After each engine move, as fastchess: the table first, then
            // the scores.
            if let (Some(last), Some(mover)) = (evals.last(), mover) {
                if let Some(verdict) = self.table_verdict(game.position()) {
                    return Ok(End::Adjudicated(verdict));
                }
                let plies = game.moves().len();
                let adjudication = &self.adjudication;
                if let Some(verdict) = tracker.update(adjudication, mover, last.score, plies, names)
                {
                    return Ok(End::Adjudicated(verdict));
                }
            }
            let side = game.position().side_to_move();
            let moves = game.moves();
            let Some(Started { engine, .. }) = engines[side].as_mut() else {
                unreachable!("both engines started")
            };
            let position = match position_message(opening, moves) {
                Ok(position) => position,
                // Cannot happen with our games (see position_message); the
                // side that made the last move is charged, not the one to move.
                Err(e) => {
                    let fault =
                        Fault::new(Termination::IllegalMove, format!("ply {}: {e}", moves.len()));
                    return Ok(End::Fault(side.other(), fault));
                }
            };
            let answer = self
                .think(
                    engine,
                    (limits[side], margins[side]),
                    &mut clocks,
                    side,
                    &position,
                    fixture.id,
                )
                .await;
            let (token, eval) = match answer {
                Ok(answer) => answer,
                Err(fault) => return Ok(End::Fault(side, fault)),
            };
            let Some(token) = token else {
                let none = EngineMessage::BestMove(None);
                let detail = format!("'{none}' at ply {}: the game goes on", moves.len() + 1);
                return Ok(End::Fault(side, Fault::new(Termination::IllegalMove, detail)));
            };
            let ply = moves.len() + 1;
            match game.play(&token) {
                Ok(_) => {
                    evals.push(eval);
                    mover = Some(side);
                }
                Err(board_core::RecordError::Move { error: e, .. }) => {
                    let detail = format!("'{token}' at ply {ply}: {e}");
                    return Ok(End::Fault(side, Fault::new(Termination::IllegalMove, detail)));
                }
                Err(e @ board_core::RecordError::Ended { .. }) => {
                    unreachable!("the game goes on: {e}")
                }
            }
        }
    }

    /// The log of `spec`'s process playing `side` in game `id`, when logs are
    /// asked for: `<dir>/game<id>-p<1|2>-<name>.log`.
    pub(crate) fn log_file(&self, id: u64, side: Player, spec: &EngineSpec) -> Option<EngineLog> {
        let name: String = spec
            .name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
            .collect();
        let dir = self.engine_log.as_ref()?;
        Some(EngineLog {
            path: dir.join(format!("game{id}-p{}-{name}.log", side.index() + 1)),
            max_bytes: self.engine_log_bytes,
        })
    }

    /// The seed of `side`'s engine in game `id`: derived from the
    /// tournament's seed, so a resumed or sharded tournament gives every game
    /// the seeds the whole one would.
    pub(crate) fn game_seed(&self, id: u64, side: Player) -> u64 {
        mix(self.seed ^ mix(id.wrapping_mul(2).wrapping_add(side.index() as u64)))
    }

    /// Engine `index` ready for game `id` as `side`: with `--restart off`
    /// a process kept from an earlier game, renewed ([`Engine::renew`]: its
    /// seed for this game, `uginewgame`, `isready`), else (or when the kept
    /// one fails to answer: it died between games) a new one
    /// ([`Referee::start`]).
    async fn engine_for(&self, index: usize, id: u64, side: Player) -> Result<Started, StartError> {
        let spec = &self.engines[index];
        let seed = self.game_seed(id, side);
        let log = self.log_file(id, side, spec);
        let kept = self.idle.lock()[index].pop();
        if let Some(mut started) = kept {
            match self.renew(&mut started, spec, seed, log.as_ref()).await {
                Ok(()) => return Ok(started),
                Err(StartError::Fault(_)) => started.engine.quit(),
                Err(refused @ StartError::Refused(_)) => {
                    started.engine.quit();
                    return Err(refused);
                }
            }
        }
        self.start(spec, seed, log).await
    }

    /// Readies a kept process for its next game, logging it to `log`.
    async fn renew(
        &self,
        started: &mut Started,
        spec: &EngineSpec,
        seed: u64,
        log: Option<&EngineLog>,
    ) -> Result<(), StartError> {
        if let Some(log) = log {
            started.engine.set_log(log, "the process of an earlier game, kept for this one")?;
        }
        let options: Vec<(String, String)> = started
            .seed_range
            .map(|(min, max)| (SEED.to_owned(), in_range(seed, min, max).to_string()))
            .into_iter()
            .collect();
        let errors = started.engine.renew(&options, self.stall_timeout).await?;
        if !errors.is_empty() {
            return Err(StartError::Refused(OptionsRefused { engine: spec.name.clone(), errors }));
        }
        Ok(())
    }

    /// Keeps `started` (a process of engine `index` that played a game
    /// without fault) for that engine's next game, or ends it with
    /// `--restart on`.
    pub(crate) fn release(&self, index: usize, started: Started) {
        if self.restart {
            started.engine.quit();
        } else {
            self.idle.lock()[index].push(started);
        }
    }

    /// Ends every kept process, returning when they have ended.
    pub(crate) async fn close(&self) {
        let kept: Vec<Started> = self.idle.lock().iter_mut().flat_map(std::mem::take).collect();
        let mut ending = tokio::task::JoinSet::new();
        for started in kept {
            ending.spawn(started.engine.end());
        }
        while ending.join_next().await.is_some() {}
    }

    /// Starts `spec`'s engine and makes it ready for a game: `ugi`, the
    /// options (built-ins: `Engine`, `MaxPlies`; every engine that declares
    /// a `Seed` spin and is not given one: `seed`, brought into the declared
    /// range; then the engine's own `option.NAME=VALUE`s), `isready`,
    /// `uginewgame`.
    pub(crate) async fn start(
        &self,
        spec: &EngineSpec,
        seed: u64,
        log: Option<EngineLog>,
    ) -> Result<Started, StartError> {
        let mut engine = Engine::spawn(spec, &self.igroteka, self.entry.name, &self.variant, log)?;
        let declared = engine.identify(self.stall_timeout).await?;
        let is = |name: &str, wanted: &str| name.trim().eq_ignore_ascii_case(wanted);
        // Every engine that declares `Game`, `Variant` or `MaxPlies` is told
        // the tournament's; one whose `Game` or `Variant` cannot be it is
        // refused before it plays.
        let mut options = Vec::new();
        for (name, value) in [
            ("Game", self.entry.name.to_owned()),
            ("Variant", self.variant.clone()),
            ("MaxPlies", self.max_plies.to_string()),
        ] {
            let Some(decl) = declared.iter().find(|decl| is(&decl.name, name)) else { continue };
            if let OptionKind::Combo { vars, .. } = &decl.kind
                && !vars.iter().any(|var| is(var, &value))
            {
                engine.quit();
                let errors = vec![format!(
                    "its {name} option cannot be '{value}' (it offers {})",
                    vars.join(", ")
                )];
                return Err(StartError::Refused(OptionsRefused {
                    engine: spec.name.clone(),
                    errors,
                }));
            }
            options.push((decl.name.clone(), value));
        }
        let seed_range = declared.iter().find_map(|decl: &OptionDecl| match decl.kind {
            OptionKind::Spin { min, max, .. } if is(&decl.name, SEED) && min <= max => {
                Some((min, max))
            }
            _ => None,
        });
        let seed_range =
            seed_range.filter(|_| !spec.options.iter().any(|(name, _)| is(name, SEED)));
        let seed = seed_range.map(|(min, max)| in_range(seed, min, max));
        if let Program::Builtin(kind) = spec.program {
            options.push(("Engine".to_owned(), kind.name().to_owned()));
        }
        if let Some(seed) = seed {
            options.push((SEED.to_owned(), seed.to_string()));
        }
        options.extend(spec.options.iter().cloned());
        let errors = engine.configure(&options, self.stall_timeout).await?;
        if !errors.is_empty() {
            engine.quit();
            return Err(StartError::Refused(OptionsRefused { engine: spec.name.clone(), errors }));
        }
        engine.send(&GuiMessage::NewGame).await?;
        let uses_seed = match spec.program {
            Program::Builtin(kind) => kind != EngineKind::AlphaBeta,
            Program::External(_) => true,
        };
        let timed = spec.limit.tc.is_some() || spec.limit.movetime_ms.is_some();
        Ok(Started { engine, varies: timed || (seed.is_some() && uses_seed), seed_range })
    }

    /// One move: `position`, `isready`, `go`, then the `bestmove` move (`None`
    /// for `bestmove (none)`), with the clock kept; `limit` and `margin` the
    /// engine's, `id` the game's (for the observers).
    async fn think(
        &self,
        engine: &mut Engine,
        (limit, margin): (Limit, Duration),
        clocks: &mut ByPlayer<Option<Clock>>,
        side: Player,
        position: &GuiMessage,
        id: u64,
    ) -> Result<(Option<MoveToken>, MoveEval), Fault> {
        engine.send(position).await?;
        engine.sync(self.stall_timeout).await?;
        engine.send(&GuiMessage::Go(go(limit, clocks, side))).await?;
        let sent = Instant::now();
        let (mut score, mut depth) = (None, None);
        let allowed = match (clocks[side], limit.movetime_ms) {
            (Some(clock), movetime) => Some(Duration::from_millis(
                movetime.map_or(clock.left_ms, |m| m.min(clock.left_ms)),
            )),
            (None, Some(movetime)) => Some(Duration::from_millis(movetime)),
            (None, None) => None,
        };
        let mut probe_sent: Option<Instant> = None;
        let mut others = 0;
        let token = loop {
            let ceiling = sent + self.move_timeout;
            let wait_until = match (allowed, probe_sent) {
                (Some(allowed), _) => sent + allowed + margin,
                (None, Some(probe)) => (probe + self.stall_timeout).min(ceiling),
                (None, None) => (Instant::now() + self.stall_timeout).min(ceiling),
            };
            match engine.next_line(wait_until).await? {
                Some(Heard::Message(EngineMessage::BestMove(mv))) => break mv,
                Some(Heard::Message(EngineMessage::ReadyOk)) => probe_sent = None,
                Some(Heard::Message(EngineMessage::Info(info))) if info.is_best_line() => {
                    self.observers.tell(Event::Searched {
                        id,
                        side,
                        depth: info.depth,
                        score: info.score.as_ref(),
                    });
                    // The last score and depth before `bestmove` are the
                    // move's (of its best line, under `MultiPV`).
                    score = info.score.or(info.mate.map(mate_score)).or(score);
                    depth = info.depth.or(depth);
                }
                Some(Heard::Message(EngineMessage::Info(_) | EngineMessage::InfoString(_))) => {}
                Some(Heard::Unreadable(line, e)) if is_bestmove(&line) => {
                    return Err(Fault::new(Termination::GarbageOutput, e.to_string()));
                }
                Some(_) => {
                    others += 1;
                    if others > MAX_UNRECOGNISED {
                        return Err(Fault::new(
                            Termination::GarbageOutput,
                            format!("more than {MAX_UNRECOGNISED} lines without 'bestmove'"),
                        ));
                    }
                }
                None if allowed.is_some() => {
                    return Err(Fault::new(
                        Termination::TimeForfeit,
                        format!(
                            "no bestmove within {} ms",
                            (allowed.unwrap_or_default() + margin).as_millis()
                        ),
                    ));
                }
                None if Instant::now() >= ceiling => {
                    return Err(Fault::new(
                        Termination::Stall,
                        format!(
                            "no bestmove within {} ms (--move-timeout), though it answers \
                             isready",
                            self.move_timeout.as_millis()
                        ),
                    ));
                }
                None if probe_sent.is_some() => {
                    return Err(Fault::new(
                        Termination::Stall,
                        format!(
                            "no 'readyok' within {} ms while searching",
                            self.stall_timeout.as_millis()
                        ),
                    ));
                }
                None => {
                    engine.send(&GuiMessage::IsReady).await?;
                    probe_sent = Some(Instant::now());
                }
            }
        };
        let spent = sent.elapsed();
        if let Some(allowed) = allowed
            && spent > allowed + margin
        {
            return Err(Fault::new(
                Termination::TimeForfeit,
                format!(
                    "took {} ms of {} ms (+{} ms margin)",
                    spent.as_millis(),
                    allowed.as_millis(),
                    margin.as_millis()
                ),
            ));
        }
        let ms = spent.as_millis() as u64;
        if let Some(clock) = clocks[side].as_mut() {
            clock.punch(ms);
        }
        Ok((token, MoveEval { score, depth, ms }))
    }

    /// How the table (with `--tb`) ends the game at `pos`, if it does.
    fn table_verdict(&self, pos: &dyn SearchGame) -> Option<Verdict> {
        let (table, results) = (self.table.as_ref()?, self.adjudication.table?);
        let value = pos.probe_table(table)?;
        let colours = [self.entry.player_names.first, self.entry.player_names.second];
        table_verdict(value, pos.side_to_move(), results, colours)
    }

    /// The engine's `query result` answer, unless it has none.
    async fn ask_result(&self, engine: &mut Engine, position: &GuiMessage) -> Option<String> {
        engine.send(position).await.ok()?;
        engine.send(&GuiMessage::Query(Query::Result)).await.ok()?;
        let response = |m| match m {
            EngineMessage::Response(text) => Some(text),
            _ => None,
        };
        let name = EngineMessage::Response(String::new()).to_string();
        let text = engine.expect(&name, self.stall_timeout, response).await.ok()?;
        let word = text.split_whitespace().next()?.to_owned();
        (word != result_word(None)).then_some(word)
    }
}

/// `position startpos|fen <text> [moves ...]` for the moves played so far
/// (the game's canonical texts).
///
/// # Errors
/// A text that the protocol cannot carry: a position text holding `moves`
/// or a move that is not one word (no game of ours writes one; the
/// conformance suite checks every game's moves).
pub fn position_message(opening: &Opening, moves: &[String]) -> Result<GuiMessage, ParseError> {
    let base = match &opening.fen {
        None => PositionBase::StartPos,
        Some(text) => PositionBase::Fen(PositionText::new(text)?),
    };
    let moves = moves.iter().map(|mv| MoveToken::new(mv.as_str())).collect::<Result<_, _>>()?;
    Ok(GuiMessage::Position { base, moves })
}

/// `go` with the engine's limits; the clocks of both sides (each side's own
/// when it has one, else the mover's), never negative.
fn go(limit: Limit, clocks: &ByPlayer<Option<Clock>>, side: Player) -> Go {
    let mut go =
        Go { movetime: limit.movetime_ms, depth: limit.depth, nodes: limit.nodes, ..Go::default() };
    if let Some(own) = clocks[side] {
        go.movestogo = own.moves_to_go();
        let clock = |p: Player| clocks[p].unwrap_or(own);
        let (p1, p2) = (clock(Player::First), clock(Player::Second));
        go.p1time = Some(p1.left_ms);
        go.p2time = Some(p2.left_ms);
        go.p1inc = Some(p1.inc_ms);
        go.p2inc = Some(p2.inc_ms);
    }
    go
}

/// UCI's `score mate M` (moves; negative: mated) as plies to the end.
fn mate_score(moves: i64) -> Score {
    let plies = |m: i64| u32::try_from(m.unsigned_abs()).unwrap_or(u32::MAX);
    if moves > 0 {
        Score::Win(plies(moves).saturating_mul(2) - 1)
    } else {
        Score::Loss(plies(moves).saturating_mul(2))
    }
}

/// Whether an unreadable line was meant as `bestmove` (say one with no
/// move): a broken answer, not a line to ignore.
fn is_bestmove(line: &str) -> bool {
    let keyword = EngineMessage::BestMove(None).to_string();
    line.split_whitespace().next() == keyword.split_whitespace().next()
}

/// The name of the option that seeds an engine.
const SEED: &str = "Seed";

/// SplitMix64's finaliser: nearby inputs give unrelated outputs.
fn mix(x: u64) -> u64 {
    let x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// `seed` brought into `min..=max` (a 64-bit seed into an engine's declared
/// range, the built-ins' 0..2147483647 say).
fn in_range(seed: u64, min: i64, max: i64) -> i64 {
    let span = (i128::from(max) - i128::from(min) + 1) as u128;
    let offset = u128::from(seed) % span;
    (i128::from(min) + offset as i128) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 32, item 5: `40/60+0.6`-style clocks add the period's time
    /// every N moves of their player and send `movestogo`.
    #[test]
    fn a_clock_with_periods_refills_and_counts_down_movestogo() {
        let tc = TimeControl::parse("3/10+1").unwrap();
        let mut clock = Clock::new(tc);
        let mut seen = Vec::new();
        for _ in 0..7 {
            seen.push((clock.moves_to_go(), clock.left_ms));
            clock.punch(4_000);
        }
        let wanted = [
            (Some(3), 10_000),
            (Some(2), 7_000),
            (Some(1), 4_000),
            // 4000 - 4000 + 1000, then the period's 10 s.
            (Some(3), 11_000),
            (Some(2), 8_000),
            (Some(1), 5_000),
            (Some(3), 12_000),
        ];
        assert_eq!(seen, wanted);
        let plain = Clock::new(TimeControl::parse("10+1").unwrap());
        assert_eq!(plain.moves_to_go(), None);
        let clocks = ByPlayer::new(Some(clock), Some(plain));
        let go = go(Limit::default(), &clocks, Player::First);
        assert_eq!((go.movestogo, go.p1time, go.p2time), (Some(2), Some(9_000), Some(10_000)));
        assert_eq!(super::go(Limit::default(), &clocks, Player::Second).movestogo, None);
    }

    #[test]
    fn uci_mates_are_proven_results_in_plies() {
        assert_eq!(mate_score(3), Score::Win(5));
        assert_eq!(mate_score(-2), Score::Loss(4));
        assert_eq!(mate_score(0), Score::Loss(0));
    }
}
