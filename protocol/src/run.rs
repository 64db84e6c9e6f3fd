//! The engine loop: reads commands, answers them, runs searches on a thread.

use std::io::{self, BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use board_core::{Player, Rng};
use search::{DynLearned, EngineKind, GameEntry, Limits, Memory, SearchGame, Think, find_game};

use crate::error::{capped, quoting};
use crate::options::{Effect, Evaluation, Options};
use crate::referee::{Referee, p_name};
use crate::view;
use crate::{
    Count, EngineMessage, Go, GuiMessage, LineError, Lines, MoveToken, Query, SearchInfo,
    result_word, time_budget,
};

/// The default depth of `bench`.
const BENCH_DEPTH: u32 = 5;
/// The deepest `bench` and `perft` accepted.
const MAX_COUNT_DEPTH: u32 = 64;
/// Random-play plies from each start to the extra `bench` positions.
const BENCH_PLIES: [u32; 3] = [8, 16, 24];
/// Seeds the random play of the `bench` positions.
const BENCH_SEED: u64 = 2024;
/// `bench` uses its own table size so `Hash` cannot change its node count.
const BENCH_HASH_MB: usize = 16;
/// The longest `bench movetime`, per position: ten minutes.
const MAX_BENCH_MOVETIME: u64 = 600_000;

/// How long `bench` searches each position.
#[derive(Clone, Copy)]
enum BenchLimit {
    /// To this depth: the same nodes on every run (one thread).
    Depth(u32),
    /// For this many milliseconds, reporting the depth reached.
    Movetime(u64),
}

/// How the engine starts: the game (and variant) it plays until the GUI sets
/// the `Game` or `Variant` option, and how it names itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSettings {
    /// The game's name (case-insensitive); empty means the first registered game.
    pub game: String,
    /// The variant; `None` means the game's default variant.
    pub variant: Option<String>,
    /// Sent as `id name`.
    pub name: String,
    /// Sent as `id author`.
    pub author: String,
    /// Options set before the first command, as by `setoption` (same names
    /// and checks), in order: for managers that cannot send `setoption`.
    pub options: Vec<(String, String)>,
}

impl Default for EngineSettings {
    /// The first registered game in its default variant, named "Igroteka".
    fn default() -> Self {
        EngineSettings {
            game: String::new(),
            variant: None,
            name: format!("Igroteka {}", env!("CARGO_PKG_VERSION")),
            author: "Igroteka developers".to_owned(),
            options: Vec::new(),
        }
    }
}

/// Runs the engine: reads commands from `input` until `quit` or the end of
/// input, writes the answers to `output`. A search runs on its own thread, so
/// `stop`, `isready` and `quit` are answered while it runs. After `quit` any
/// search is stopped; at the end of input a search with a limit (depth,
/// nodes, time) is let finish, one without is stopped; either way its
/// `bestmove` is written before this returns.
///
/// Bad lines are answered with `info string error: ...` and the loop goes on.
///
/// # Errors
/// An unknown game or variant in `settings` (or an empty `games`), and errors
/// reading `input` or writing `output`.
pub fn run_engine<R: BufRead + Send + 'static, W: Write + Send + 'static>(
    games: &'static [GameEntry],
    settings: EngineSettings,
    input: R,
    output: W,
) -> io::Result<()> {
    let mut engine = Engine::new(games, settings, Output(Arc::new(Mutex::new(output))))
        .map_err(|message| io::Error::new(io::ErrorKind::InvalidInput, message))?;
    let result = engine.read(input);
    let finished = match result {
        Ok(End::Input) => engine.let_search_finish(),
        Ok(End::Quit) | Err(_) => engine.finish_search(),
    };
    result.and(finished)
}

/// The output, shared with the search thread; one whole line at a time.
struct Output<W>(Arc<Mutex<W>>);

impl<W> Clone for Output<W> {
    fn clone(&self) -> Self {
        Output(Arc::clone(&self.0))
    }
}

impl<W: Write> Output<W> {
    fn send(&self, msg: &EngineMessage) -> io::Result<()> {
        let mut out = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        writeln!(out, "{msg}")?;
        out.flush()
    }

    fn note(&self, text: impl Into<String>) -> io::Result<()> {
        self.send(&EngineMessage::InfoString(text.into()))
    }

    fn error(&self, text: impl std::fmt::Display) -> io::Result<()> {
        self.note(format!("error: {}", capped(&text.to_string())))
    }
}

/// Why the engine stopped reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// `quit`.
    Quit,
    /// The end of input.
    Input,
}

/// A running search.
struct Search {
    stop: Arc<AtomicBool>,
    /// Raised to end a ponder search without its `bestmove` (at `ponderhit`).
    silent: Arc<AtomicBool>,
    handle: JoinHandle<()>,
    /// Whether it ends by itself (a depth, node or time limit, not `infinite`).
    limited: bool,
    /// The `go ponder` that started it, while it ponders.
    pondering: Option<Go>,
}

struct Engine<W> {
    games: &'static [GameEntry],
    settings: EngineSettings,
    options: Options,
    /// Whether a conflict of `Game` and `Variant` since the last change has
    /// been reported (at `isready` or `go`).
    options_checked: bool,
    referee: Referee,
    out: Output<W>,
    search: Option<Search>,
    /// The transposition table kept between moves and games; a new game
    /// forgets its entries (or, if a search still holds it, gets a new one).
    memory: Arc<Mutex<Memory>>,
    /// Whether the GUI spoke UCI (`uci` rather than `ugi`): proven results
    /// are then reported as UCI's `score mate N` (moves, negative when lost).
    uci: bool,
    /// `EvalFile`: another weights file for the learned evaluation.
    eval_file: Option<PathBuf>,
    /// The learned evaluation last read: for which game and file, and the
    /// weights or why they did not load.
    learned: Option<(LearnedSource, Result<DynLearned, String>)>,
}

/// Where learned weights come from: a game, and a file or (`None`) the
/// game's own.
type LearnedSource = (&'static str, Option<PathBuf>);

impl<W: Write + Send + 'static> Engine<W> {
    fn new(
        games: &'static [GameEntry],
        settings: EngineSettings,
        out: Output<W>,
    ) -> Result<Self, String> {
        let game = if settings.game.trim().is_empty() {
            games.first().ok_or("no game is registered")?
        } else {
            find_game(games, &settings.game).map_err(|e| quoting(&e.to_string(), &settings.game))?
        };
        let variant = settings
            .variant
            .as_deref()
            .map(|name| game.variant(name))
            .transpose()
            .map_err(|e| format!("Variant: {}", quoting(&e.to_string(), &e.variant)))?;
        let mut options = Options::new(game, variant);
        let mut eval_file = None;
        for (name, value) in &settings.options {
            let effect = options
                .set(games, name, Some(value))
                .map_err(|e| format!("option {name}={}: {e}", quoting(value, value)))?;
            if let Effect::EvalFile(path) = effect {
                eval_file = (!path.is_empty()).then(|| PathBuf::from(path));
            }
        }
        if let Some(conflict) = options.conflict() {
            return Err(conflict);
        }
        let referee =
            Referee::new(game, options.variant, options.max_plies).map_err(|e| e.to_string())?;
        Ok(Engine {
            games,
            settings,
            options,
            options_checked: true,
            referee,
            out,
            search: None,
            memory: Arc::default(),
            uci: false,
            eval_file,
            learned: None,
        })
    }

    fn read(&mut self, input: impl BufRead) -> io::Result<End> {
        for line in Lines::new(input) {
            let line = match line {
                Ok(line) => line,
                Err(LineError::Io(e)) => return Err(e),
                Err(e) => {
                    self.out.error(e)?;
                    continue;
                }
            };
            if line.trim().is_empty() {
                continue;
            }
            match line.parse::<GuiMessage>() {
                Ok(GuiMessage::Quit) => return Ok(End::Quit),
                Ok(msg) => self.handle(msg)?,
                Err(e) => {
                    self.out.error(&e)?;
                    // A manager waits for the response to any query: an
                    // unknown or malformed one gets an error response.
                    let word = line.split_whitespace().next().unwrap_or_default();
                    if word.eq_ignore_ascii_case("query") {
                        let text = format!("error {}", capped(&e.to_string()));
                        self.out.send(&EngineMessage::Response(text))?;
                    }
                }
            }
        }
        Ok(End::Input)
    }

    fn handle(&mut self, msg: GuiMessage) -> io::Result<()> {
        match msg {
            GuiMessage::Ugi => {
                self.uci = false;
                self.identify(EngineMessage::UgiOk)
            }
            GuiMessage::Uci => {
                self.uci = true;
                self.identify(EngineMessage::UciOk)
            }
            GuiMessage::Debug(_) | GuiMessage::Register => Ok(()),
            GuiMessage::PonderHit => self.ponder_hit(),
            GuiMessage::IsReady => {
                self.check_options()?;
                self.prepare_table()?;
                self.out.send(&EngineMessage::ReadyOk)
            }
            GuiMessage::SetOption { name, value } => {
                match self.options.set(self.games, &name, value.as_deref()) {
                    Ok(Effect::None) => Ok(()),
                    Ok(Effect::MaxPlies) => {
                        self.referee.set_max_plies(self.options.max_plies);
                        Ok(())
                    }
                    Ok(Effect::NewGame) => {
                        self.options_checked = false;
                        self.new_referee()
                    }
                    Ok(Effect::Evaluation) => {
                        // Judged with the other options: `EvalFile` may follow.
                        self.options_checked = false;
                        Ok(())
                    }
                    Ok(Effect::EvalFile(path)) => self.set_eval_file(&path),
                    Err(e) => self.out.error(e),
                }
            }
            GuiMessage::NewGame => {
                self.referee.reset();
                let cleared = self.memory.try_lock().map(|mut memory| memory.clear()).is_ok();
                if !cleared {
                    // A search still runs with it: let it keep the old table.
                    self.memory = Arc::default();
                }
                Ok(())
            }
            GuiMessage::Position { base, moves } => {
                match self.referee.set_position(&base, &moves) {
                    Ok(()) => Ok(()),
                    Err(e) => self.out.error(e),
                }
            }
            GuiMessage::Go(go) => self.go(&go),
            GuiMessage::Stop => self.finish_search(),
            GuiMessage::Quit => Ok(()),
            GuiMessage::Query(query) => self.query(&query),
            GuiMessage::Display => self.display(),
            GuiMessage::Perft { depth } => self.perft(depth),
            GuiMessage::Bench { depth, movetime: None } => {
                self.bench(BenchLimit::Depth(depth.unwrap_or(BENCH_DEPTH)))
            }
            GuiMessage::Bench { movetime: Some(ms), .. } => self.bench(BenchLimit::Movetime(ms)),
        }
    }

    fn identify(&self, ok: EngineMessage) -> io::Result<()> {
        self.out.send(&EngineMessage::IdName(self.settings.name.clone()))?;
        self.out.send(&EngineMessage::IdAuthor(self.settings.author.clone()))?;
        let eval_file = self.eval_file.as_ref().map(|path| path.to_string_lossy());
        for decl in self.options.declarations(self.games, eval_file.as_deref()) {
            self.out.send(&EngineMessage::Option(decl))?;
        }
        self.out.send(&ok)
    }

    fn new_referee(&mut self) -> io::Result<()> {
        match Referee::new(self.options.game, self.options.variant, self.options.max_plies) {
            Ok(referee) => {
                self.referee = referee;
                Ok(())
            }
            Err(e) => self.out.error(e),
        }
    }

    /// Reports, once, a `Variant` the `Game` does not have and learned
    /// weights that do not load (`Evaluation learned` for a game without
    /// weights and no `EvalFile`): the options may come in any order, so
    /// they are judged together when the GUI is done (`isready` or `go`).
    fn check_options(&mut self) -> io::Result<()> {
        if std::mem::replace(&mut self.options_checked, true) {
            return Ok(());
        }
        if let Some(conflict) = self.options.conflict() {
            self.out.error(conflict)?;
        }
        self.report_learned()
    }

    /// Stops the running search, if any, and waits for its `bestmove`.
    fn finish_search(&mut self) -> io::Result<()> {
        if let Some(search) = &self.search {
            search.stop.store(true, Ordering::Release);
            search.handle.thread().unpark();
        }
        self.join_search()
    }

    /// Waits for a running search with a limit to reach it (as UCI engines
    /// do at the end of input); stops one without.
    fn let_search_finish(&mut self) -> io::Result<()> {
        if self.search.as_ref().is_some_and(|search| search.limited) {
            self.join_search()
        } else {
            self.finish_search()
        }
    }

    fn join_search(&mut self) -> io::Result<()> {
        if let Some(search) = self.search.take()
            && search.handle.join().is_err()
        {
            return self.out.error("the search thread failed");
        }
        Ok(())
    }

    /// Allocates alpha-beta's table and loads the game's endgame table now,
    /// between moves, rather than in the next `go`, where they would eat the
    /// clock (a large `Hash` takes a while; Otrazhenie's table about a
    /// second to build). Nothing is written anywhere.
    fn prepare_table(&mut self) -> io::Result<()> {
        if self.searching()? {
            return Ok(());
        }
        if let Ok(mut memory) = self.memory.try_lock() {
            self.endgame_table(&mut memory);
            if self.options.engine == EngineKind::AlphaBeta {
                self.referee.position().prepare(&mut memory, self.options.hash_mb);
            }
        }
        Ok(())
    }

    /// `EvalFile`: the weights of `path` (empty: the game's own) from now
    /// on, if they load for the game played; a file that does not is
    /// refused in one line, and the previous weights stay.
    fn set_eval_file(&mut self, path: &str) -> io::Result<()> {
        let file = (!path.is_empty()).then(|| PathBuf::from(path));
        if let Some(file) = &file {
            let loaded = std::fs::read(file).map_err(|e| e.to_string()).and_then(|bytes| {
                self.referee.position().learned(Some(&bytes)).map_err(|e| e.to_string())
            });
            if let Err(e) = loaded {
                return self.out.error(format!("EvalFile: {}: {e}", file.display()));
            }
        }
        self.eval_file = file;
        self.options_checked = false;
        Ok(())
    }

    /// Reads the learned evaluation now if `Evaluation` asks for it, and
    /// reports weights that do not load (the classic evaluation is used).
    fn report_learned(&mut self) -> io::Result<()> {
        match self.learned_evaluation() {
            Some(Err(e)) => self.out.error(format!("Evaluation: {e}; searching with classic")),
            _ => Ok(()),
        }
    }

    /// The learned evaluation when `Evaluation` is `learned` (`None`:
    /// classic): the game's weights or `EvalFile`'s, read once per game and
    /// file.
    fn learned_evaluation(&mut self) -> Option<Result<DynLearned, String>> {
        if self.options.evaluation() == Evaluation::Classic {
            return None;
        }
        let source = (self.options.game.name, self.eval_file.clone());
        if self.learned.as_ref().is_none_or(|(kept, _)| *kept != source) {
            let loaded = match &source.1 {
                Some(path) => std::fs::read(path)
                    .map_err(|e| format!("{}: {e}", path.display()))
                    .and_then(|bytes| {
                        self.referee
                            .position()
                            .learned(Some(&bytes))
                            .map_err(|e| format!("{}: {e}", path.display()))
                    }),
                None => self.referee.position().learned(None).map_err(|e| e.to_string()),
            };
            self.learned = Some((source, loaded));
        }
        self.learned.as_ref().map(|(_, loaded)| loaded.clone())
    }

    /// Gives `memory` the game's endgame table when the engine plays from
    /// one (`Tablebase`, a searching engine), made once per game.
    fn endgame_table(&self, memory: &mut Memory) {
        let game = self.options.game;
        let wanted = self.options.tablebase
            && self.options.engine != EngineKind::Random
            && game.has_endgame_table();
        if !wanted {
            return;
        }
        if memory.endgame_table().is_none_or(|table| table.game() != game.name) {
            memory.set_endgame_table(game.endgame_table());
        }
    }

    /// Whether a search is running (one that ended by itself is reaped).
    fn searching(&mut self) -> io::Result<bool> {
        if self.search.as_ref().is_some_and(|s| s.handle.is_finished()) {
            self.finish_search()?;
        }
        Ok(self.search.is_some())
    }

    /// `ponderhit`: the pondered move was played. The ponder search ends
    /// without its `bestmove`, and the same position is searched under the
    /// clock of its `go` (the table keeps what pondering found).
    fn ponder_hit(&mut self) -> io::Result<()> {
        let Some(go) = self.search.as_ref().and_then(|search| search.pondering.clone()) else {
            return self.out.error("ponderhit: not pondering");
        };
        if let Some(search) = &self.search {
            search.silent.store(true, Ordering::Release);
        }
        self.finish_search()?;
        self.go(&Go { ponder: false, ..go })
    }

    fn go(&mut self, go: &Go) -> io::Result<()> {
        self.finish_search()?;
        self.check_options()?;
        if self.referee.outcome().is_some() {
            return self.out.send(&EngineMessage::BestMove(None));
        }
        let position = self.referee.position().clone_search();
        let overhead = self.options.move_overhead;
        if let Some(ms) = go.movetime
            && u128::from(ms) <= overhead.as_millis()
        {
            self.out.note(format!(
                "warning: movetime {ms} ms is not above MoveOverhead {} ms, so the search \
                 gets 1 ms; lower MoveOverhead for short moves",
                overhead.as_millis()
            ))?;
        }
        // UCI's `go mate N`: a win in N moves is 2N - 1 plies deep.
        let mate_depth = go.mate.map(|moves| moves.saturating_mul(2).saturating_sub(1).max(1));
        let limits = Limits {
            depth: go.depth.or(mate_depth),
            nodes: go.nodes,
            time: time_budget(go, position.side_to_move(), overhead),
            plies_left: self.referee.plies_left(),
        };
        let pondering = go.ponder.then(|| go.clone());
        // A ponder search runs until `ponderhit` or `stop`.
        let limits = if go.ponder {
            Limits { plies_left: limits.plies_left, ..Limits::default() }
        } else {
            limits
        };
        let infinite = go.infinite || go.ponder;
        let limited = !infinite
            && (limits.depth.is_some() || limits.nodes.is_some() || limits.time.is_some());
        let mut think = self.options.think(limits);
        think.searchmoves = go.searchmoves.iter().map(|mv| mv.to_string()).collect();
        let stop = Arc::new(AtomicBool::new(false));
        let thread_stop = Arc::clone(&stop);
        let silent = Arc::new(AtomicBool::new(false));
        let thread_silent = Arc::clone(&silent);
        let out = self.out.clone();
        let uci = self.uci;
        let learned = self.learned_evaluation().and_then(Result::ok);
        if let Ok(mut memory) = self.memory.try_lock() {
            self.endgame_table(&mut memory);
        }
        let memory = Arc::clone(&self.memory);
        let spawned = thread::Builder::new().name("igroteka-search".to_owned()).spawn(move || {
            let mut memory = memory.lock().unwrap_or_else(PoisonError::into_inner);
            memory.set_learned(learned);
            let flags = Flags { stop: &thread_stop, silent: &thread_silent, infinite, uci };
            search_thread(position.as_ref(), &think, &mut memory, &flags, &out);
        });
        match spawned {
            Ok(handle) => {
                self.search = Some(Search { stop, silent, handle, limited, pondering });
                Ok(())
            }
            Err(e) => {
                self.out.error(format!("cannot start the search ({e}); playing the first move"))?;
                let first = self.referee.position().legal_move_texts().into_iter().next();
                send_best_move(&self.out, first)
            }
        }
    }

    fn query(&self, query: &Query) -> io::Result<()> {
        let outcome = self.referee.outcome();
        let position = self.referee.position();
        let yes_no = |b: bool| if b { "true" } else { "false" }.to_owned();
        let text = match query {
            Query::GameOver => yes_no(outcome.is_some()),
            Query::P1Turn => yes_no(position.side_to_move() == Player::First),
            Query::Result => result_word(outcome).to_owned(),
            Query::Score => match outcome.and_then(|end| end.score) {
                Some(score) => format!("{} {}", score.first, score.second),
                None => "none".to_owned(),
            },
            Query::Moves if outcome.is_some() => String::new(),
            Query::Moves => position.legal_move_texts().join(" "),
            Query::IsLegal(mv) => yes_no(outcome.is_none() && position.check_move(mv).is_ok()),
            Query::Fen => position.position_text(),
            Query::Board => view::board(position).to_string(),
            Query::Pieces => view::pieces(position, outcome).to_string(),
            Query::MovePaths => view::move_paths(position, outcome.is_some()).to_string(),
            // One line: the text as a JSON string.
            Query::Rules => serde_json::Value::String(position.rules().to_owned()).to_string(),
        };
        self.out.send(&EngineMessage::Response(text))
    }

    fn display(&self) -> io::Result<()> {
        let position = self.referee.position();
        for line in position.board_text().lines() {
            self.out.note(line)?;
        }
        self.out.note(format!("fen {}", position.position_text()))?;
        let mover = position.side_to_move();
        self.out.note(format!(
            "game {} variant {} to move {} ({})",
            position.name(),
            position.variant(),
            position.player_names()[mover],
            p_name(mover)
        ))?;
        match self.referee.outcome() {
            Some(end) => self.out.note(format!("game over {end}")),
            None => Ok(()),
        }
    }

    fn perft(&mut self, depth: u32) -> io::Result<()> {
        if self.busy()? {
            return Ok(());
        }
        if !(1..=MAX_COUNT_DEPTH).contains(&depth) {
            return self.out.error(format!("perft: depth must be from 1 to {MAX_COUNT_DEPTH}"));
        }
        let position = self.referee.position();
        for d in 1..=depth {
            let start = Instant::now();
            let nodes = position.perft(d);
            self.out.send(&EngineMessage::Perft(count(d, nodes, start.elapsed())))?;
        }
        Ok(())
    }

    fn bench(&mut self, limit: BenchLimit) -> io::Result<()> {
        if self.busy()? {
            return Ok(());
        }
        let limits = match limit {
            BenchLimit::Depth(depth) if (1..=MAX_COUNT_DEPTH).contains(&depth) => {
                Limits::depth(depth)
            }
            BenchLimit::Depth(_) => {
                return self.out.error(format!("bench: depth must be from 1 to {MAX_COUNT_DEPTH}"));
            }
            BenchLimit::Movetime(ms) if (1..=MAX_BENCH_MOVETIME).contains(&ms) => {
                Limits { time: Some(Duration::from_millis(ms)), ..Limits::default() }
            }
            BenchLimit::Movetime(_) => {
                return self
                    .out
                    .error(format!("bench: movetime must be from 1 to {MAX_BENCH_MOVETIME} ms"));
            }
        };
        let think = Think {
            engine: EngineKind::AlphaBeta,
            limits,
            seed: 0,
            hash_mb: BENCH_HASH_MB,
            threads: self.options.threads,
            use_table: false,
            searchmoves: Vec::new(),
            multi_pv: 1,
        };
        let never = AtomicBool::new(false);
        let positions = bench_positions(self.options.game);
        // One table for every position, emptied before each search; the
        // time and nps are the searches' own.
        let mut memory = Memory::default();
        // With the evaluation the engine plays with (`Evaluation`).
        memory.set_learned(self.learned_evaluation().and_then(Result::ok));
        let mut searching = Duration::ZERO;
        let (mut total, mut depths, mut searched) = (0, 0_u64, 0_u32);
        for (i, position) in positions.iter().enumerate() {
            memory.clear();
            let (_, info) = position.think(&think, &mut memory, &never, &mut |_| {});
            searching += info.time;
            total += info.nodes;
            depths += u64::from(info.depth);
            searched += 1;
            let reached = match limit {
                BenchLimit::Depth(_) => String::new(),
                BenchLimit::Movetime(_) => format!(" depth {}", info.depth),
            };
            self.out.note(format!(
                "bench position {}{reached} nodes {} fen {}",
                i + 1,
                info.nodes,
                position.position_text()
            ))?;
        }
        let depth = match limit {
            BenchLimit::Depth(depth) => depth,
            BenchLimit::Movetime(_) => {
                let mean = depths as f64 / f64::from(searched.max(1));
                self.out.note(format!("bench mean depth {mean:.2} over {searched} positions"))?;
                u32::try_from(depths / u64::from(searched.max(1))).unwrap_or(u32::MAX)
            }
        };
        self.out.send(&EngineMessage::Bench(count(depth, total, searching)))
    }

    /// Refuses a long command while a search runs.
    fn busy(&mut self) -> io::Result<bool> {
        let busy = self.searching()?;
        if busy {
            self.out.error("a search is running; send stop first")?;
        }
        Ok(busy)
    }
}

fn count(depth: u32, nodes: u64, time: Duration) -> Count {
    let micros = time.as_micros().max(1);
    Count {
        depth,
        nodes,
        time_ms: u64::try_from(time.as_millis()).unwrap_or(u64::MAX),
        nps: u64::try_from(u128::from(nodes) * 1_000_000 / micros).unwrap_or(u64::MAX),
    }
}

/// Each variant's start, and a few positions reached from it by seeded random
/// play: the same list on every run.
fn bench_positions(game: &GameEntry) -> Vec<Box<dyn SearchGame>> {
    let mut positions = Vec::new();
    let mut rng = Rng::new(BENCH_SEED);
    for variant in game.variants {
        let Ok(start) = game.start(variant) else { continue };
        positions.push(start.clone());
        for plies in BENCH_PLIES {
            let mut position = start.clone();
            for _ in 0..plies {
                if position.play_random(&mut rng).is_none() {
                    break;
                }
            }
            if position.outcome().is_none() {
                positions.push(position);
            }
        }
    }
    positions
}

/// How a search thread ends and reports.
struct Flags<'a> {
    stop: &'a AtomicBool,
    /// Raised: no `bestmove` (a ponder search ended by `ponderhit`).
    silent: &'a AtomicBool,
    /// Hold the `bestmove` until `stop`.
    infinite: bool,
    /// Report proven results as UCI's `score mate N`.
    uci: bool,
}

/// Searches, reports, and writes exactly one `bestmove` (none when made
/// silent); with `infinite`, not before `stop` is raised.
fn search_thread<W: Write>(
    position: &dyn SearchGame,
    think: &Think,
    memory: &mut Memory,
    flags: &Flags<'_>,
    out: &Output<W>,
) {
    let stop = flags.stop;
    let mut report = |info: &search::Info<String>| {
        let mut line = SearchInfo::of(info);
        if flags.uci {
            line = line.in_uci_mates();
        }
        // A GUI that closed its end cannot be told anything: write errors are
        // left to the input loop, which sees the end of input.
        let _ = out.send(&EngineMessage::Info(line));
    };
    let best =
        match catch_unwind(AssertUnwindSafe(|| position.think(think, memory, stop, &mut report))) {
            Ok((best, _)) => {
                if let Some(shortfall) = memory.thread_shortfall() {
                    let _ = out.send(&EngineMessage::InfoString(shortfall.to_string()));
                }
                best
            }
            Err(_) => {
                let _ = out.error("the search failed; playing the first legal move");
                position.legal_move_texts().into_iter().next()
            }
        };
    while flags.infinite && !stop.load(Ordering::Acquire) {
        thread::park_timeout(Duration::from_millis(50));
    }
    if !flags.silent.load(Ordering::Acquire) {
        let _ = send_best_move(out, best);
    }
}

/// `bestmove` with a game's move text, which the conformance suite checks
/// is one word; one that is not is reported, never sent as two words.
fn send_best_move<W: Write>(out: &Output<W>, best: Option<String>) -> io::Result<()> {
    let best = match best.map(MoveToken::new).transpose() {
        Ok(best) => best,
        Err(e) => {
            out.error(format!("the game's move cannot be sent: {e}"))?;
            None
        }
    };
    out.send(&EngineMessage::BestMove(best))
}
