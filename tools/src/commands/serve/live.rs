//! `igroteka arena … --live [HOST:]PORT`: a page that shows a running
//! tournament — its games in progress, each drawn by the page of `serve` as
//! a spectator of a link (`/game?g=<id>`), with their clocks and the
//! engines' last depth and score, and the standings so far.
//!
//! The arena tells [`Live`] what happens ([`arena::Observer`]); a task of
//! the server's own runtime turns each game's latest position into the
//! notices a spectator gets, asking one referee engine (the built-in) for
//! the board and pieces, as `serve` does, and publishes them at the game's
//! link. Only the latest position of each game is kept: a busy referee
//! skips positions, never holds a game up.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use anyhow::{Context, bail};
use arena::{ArenaArgs, EngineSpec, Event, Observer};
use axum::Json;
use axum::extract::State;
use axum::response::IntoResponse;
use board_core::Player;
use protocol::{GuiMessage, Query};
use search::EngineKind;
use serde::Serialize;
use serde_json::Value;
use tokio::sync::{Notify, Semaphore};

use super::engine::Engine;
use super::messages::{NewGame, Notice, Side, State as Position};
use super::session::{Config, spawn};
use super::watch::Entry;
use super::{ServeFlags, Served, accept, router, url_of};

/// How many ended games the page lists (and their links keep).
const ENDED_SHOWN: usize = 8;
/// How long the referee may take to answer.
const REFEREE_TIMEOUT: Duration = Duration::from_secs(30);

/// What the page shows of a tournament, kept as the arena tells it.
#[derive(Default)]
pub struct Live {
    shown: Mutex<Shown>,
    /// Wakes the task that publishes positions.
    changed: Notify,
}

#[derive(Default, Serialize)]
struct Shown {
    game: String,
    variant: String,
    /// The games in progress, by id.
    games: BTreeMap<u64, LiveGame>,
    /// The last games ended, newest last.
    ended: VecDeque<LiveGame>,
    /// The standings table so far.
    standings: String,
    played: u64,
    total: u64,
}

#[derive(Clone, Serialize)]
struct LiveGame {
    id: u64,
    engines: [String; 2],
    /// The link's id, once published.
    link: Option<String>,
    plies: usize,
    clocks: [Option<u64>; 2],
    /// 1 or 2.
    to_move: u8,
    /// Each engine's last depth and score.
    searched: [Option<Searched>; 2],
    /// `1-0 (reason)` once over.
    result: Option<String>,
    /// The position to publish, until it is.
    #[serde(skip)]
    position: Option<(GuiMessage, Vec<String>)>,
    /// The last position told, published again as the game ends.
    #[serde(skip)]
    last: Option<(GuiMessage, Vec<String>)>,
    /// `info` to publish.
    #[serde(skip)]
    fresh_info: [bool; 2],
}

#[derive(Clone, Serialize)]
struct Searched {
    depth: Option<u32>,
    score: Option<String>,
}

impl Live {
    fn shown(&self) -> std::sync::MutexGuard<'_, Shown> {
        self.shown.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Observer for Live {
    fn event(&self, event: Event<'_>) {
        let mut shown = self.shown();
        match event {
            Event::Started { id, engines } => {
                let game = LiveGame {
                    id,
                    engines: engines.map(str::to_owned),
                    link: None,
                    plies: 0,
                    clocks: [None, None],
                    to_move: 1,
                    searched: [None, None],
                    result: None,
                    position: None,
                    last: None,
                    fresh_info: [false, false],
                };
                shown.games.insert(id, game);
            }
            Event::Moved { id, position, moves, clocks_ms, to_move } => {
                if let Some(game) = shown.games.get_mut(&id) {
                    game.plies = moves.len();
                    game.clocks = clocks_ms;
                    game.to_move = if to_move == Player::First { 1 } else { 2 };
                    game.position = Some((position.clone(), moves.to_vec()));
                    game.last.clone_from(&game.position);
                }
            }
            Event::Searched { id, side, depth, score } => {
                if let Some(game) = shown.games.get_mut(&id) {
                    let at = usize::from(side == Player::Second);
                    let score = score.map(ToString::to_string);
                    game.searched[at] = Some(Searched { depth, score });
                    game.fresh_info[at] = true;
                }
            }
            Event::Ended { id, result, reason } => {
                if let Some(game) = shown.games.get_mut(&id) {
                    game.result = Some(format!("{result} ({reason})"));
                    game.position.clone_from(&game.last);
                }
            }
            Event::Standings { table, played, total } => {
                shown.standings = table.to_owned();
                shown.played = played;
                shown.total = total;
            }
            _ => {}
        }
        drop(shown);
        self.changed.notify_one();
    }
}

/// `/live.json`: the games in progress, the last ended, the standings.
pub(super) async fn state(State(served): State<Served>) -> impl IntoResponse {
    let json = match &served.live {
        Some(live) => serde_json::to_value(&*live.shown()).unwrap_or(Value::Null),
        None => Value::Null,
    };
    ([(axum::http::header::CACHE_CONTROL, "no-cache")], Json(json))
}

/// `--live` as an address: `PORT` (on 127.0.0.1) or `HOST:PORT`.
fn address(live: &str) -> anyhow::Result<(String, u16)> {
    let (host, port) = match live.rsplit_once(':') {
        Some((host, port)) => (host.trim_start_matches('[').trim_end_matches(']'), port),
        None => ("127.0.0.1", live),
    };
    let Ok(port) = port.parse::<u16>() else {
        bail!("--live {live:?}: give PORT or HOST:PORT (a port from 0 to 65535)");
    };
    Ok((host.to_owned(), port))
}

/// Runs the tournament of `args`, serving its page when `--live` asks.
///
/// # Errors
/// The arena's; an address that cannot be bound.
pub fn run_arena(args: &ArenaArgs) -> anyhow::Result<()> {
    let exe = std::env::current_exe().context("cannot find this program to run its engine")?;
    let Some(live_flag) = &args.flags.live else {
        return arena::run(games::GAMES, exe, args.clone());
    };
    if args.flags.command.is_some() {
        bail!("--live shows a tournament as it is played, not a merge");
    }
    let (host, port) = address(live_flag)?;
    let entry = match &args.flags.game {
        Some(name) => search::find_game(games::GAMES, name)?,
        None => games::GAMES.first().context("no game is registered")?,
    };
    let variant = match &args.flags.variant {
        Some(v) => entry.variant(v)?.to_owned(),
        None => entry.default_variant().to_owned(),
    };
    let listener = std::net::TcpListener::bind((host.as_str(), port))
        .with_context(|| format!("--live: cannot listen on {host}:{port}"))?;
    listener.set_nonblocking(true)?;
    let url = url_of(listener.local_addr()?);
    eprintln!("igroteka arena: watch the tournament at {url}");
    let live = Arc::new(Live::default());
    {
        let mut shown = live.shown();
        shown.game = entry.name.to_owned();
        shown.variant.clone_from(&variant);
    }
    let referee = EngineSpec {
        name: "built-in referee".to_owned(),
        ..EngineSpec::builtin(EngineKind::AlphaBeta)
    };
    let config = Arc::new(Config {
        exe: exe.clone(),
        engines: Vec::new(),
        referee,
        timeout: REFEREE_TIMEOUT,
        slots: Arc::new(Semaphore::new(0)),
        max_games: 0,
        idle_timeout: Duration::from_secs(600),
        links: super::watch::Registry::new(ENDED_SHOWN),
        kept: ENDED_SHOWN,
        plays: false,
    });
    let flags = ServeFlags {
        port,
        host,
        referee: None,
        max_games: 1,
        timeout: REFEREE_TIMEOUT.as_millis() as u64,
        open: false,
        origin: Vec::new(),
        header_timeout: 10_000,
        max_connections: 128,
        idle_timeout: 600_000,
        watch_kept: ENDED_SHOWN,
    };
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build()?;
    let served = Arc::clone(&live);
    std::thread::spawn(move || {
        runtime.block_on(async move {
            let listener = match tokio::net::TcpListener::from_std(listener) {
                Ok(listener) => listener,
                Err(e) => return eprintln!("igroteka arena: --live stops: {e}"),
            };
            let app = router(Arc::clone(&config), &flags, Some(Arc::clone(&served)));
            let published = publish(served, config, NewGame::for_arena(entry.name, &variant));
            tokio::select! {
                _ = accept(listener, app, &flags) => {}
                () = published => {}
            }
        });
    });
    arena::run_observed(games::GAMES, exe, args.clone(), Some(live))
}

impl NewGame {
    /// The settings of a tournament's game as its spectators see them.
    fn for_arena(game: &str, variant: &str) -> NewGame {
        let side = Side { engine: None, limit: None, clock: None };
        NewGame {
            game: game.to_owned(),
            variant: Some(variant.to_owned()),
            fen: None,
            moves: Vec::new(),
            max_plies: 0,
            sides: [side.clone(), side],
            delay_ms: 0,
            verdict: None,
            paused: false,
            link: None,
        }
    }
}

/// Publishes each game's latest position at its link, as the arena tells
/// them, until the referee fails.
async fn publish(live: Arc<Live>, config: Arc<Config>, settings: NewGame) {
    let (mut referee, _) = match spawn(&config.referee, &config, &settings, true).await {
        Ok(started) => started,
        Err(_) => return eprintln!("igroteka arena: --live stops: the referee does not start"),
    };
    let board = match referee.ask(Query::Board, REFEREE_TIMEOUT).await {
        Ok(text) => serde_json::from_str::<Value>(&text).unwrap_or(Value::Null),
        Err(e) => return eprintln!("igroteka arena: --live stops: {e}"),
    };
    let mut links: BTreeMap<u64, Arc<Entry>> = BTreeMap::new();
    loop {
        live.changed.notified().await;
        // What changed, taken out under the lock; the referee is asked
        // without it.
        let changed: Vec<LiveGame> = {
            let mut shown = live.shown();
            let changed: Vec<LiveGame> = shown
                .games
                .values_mut()
                .filter(|g| {
                    g.position.is_some() || g.fresh_info.contains(&true) || g.result.is_some()
                })
                .map(|g| {
                    let taken = LiveGame { last: None, ..g.clone() };
                    g.position = None;
                    g.fresh_info = [false, false];
                    taken
                })
                .collect();
            changed
        };
        for game in changed {
            let link = links.entry(game.id).or_insert_with(|| {
                let mut settings = settings.clone();
                for (side, engine) in settings.sides.iter_mut().zip(&game.engines) {
                    side.engine = Some(engine.clone());
                }
                let link = config.links.create(&settings);
                let notice = Notice::Board { board: board.clone(), rules: None };
                let text = serde_json::to_string(&notice).unwrap_or_default();
                link.publish(notice, &text);
                link
            });
            let link = Arc::clone(link);
            if let Some((position, moves)) = &game.position
                && let Err(e) = publish_position(&mut referee, &link, &game, position, moves).await
            {
                return eprintln!("igroteka arena: --live stops: {e}");
            }
            for (at, searched) in game.searched.iter().enumerate() {
                if let (true, Some(searched)) = (game.fresh_info[at], searched) {
                    let notice = Notice::Info {
                        side: at as u8 + 1,
                        depth: searched.depth,
                        score: searched.score.clone(),
                        nodes: None,
                        pv: Vec::new(),
                    };
                    let text = serde_json::to_string(&notice).unwrap_or_default();
                    link.publish(notice, &text);
                }
            }
            let mut shown = live.shown();
            if let Some(shown_game) = shown.games.get_mut(&game.id) {
                shown_game.link = Some(link.id.clone());
            }
            if game.result.is_some()
                && shown.games.get(&game.id).is_some_and(|g| g.position.is_none())
            {
                if let Some(mut ended) = shown.games.remove(&game.id) {
                    ended.link = Some(link.id.clone());
                    shown.ended.push_back(ended);
                    if shown.ended.len() > ENDED_SHOWN {
                        shown.ended.pop_front();
                    }
                }
                drop(shown);
                links.remove(&game.id);
                config.links.release(&link);
            }
        }
    }
}

/// The position of `game` at its link: the referee's pieces and moves, the
/// arena's clocks.
async fn publish_position(
    referee: &mut Engine,
    link: &Entry,
    game: &LiveGame,
    position: &GuiMessage,
    moves: &[String],
) -> Result<(), super::engine::EngineError> {
    referee.command(position, REFEREE_TIMEOUT).await?;
    let pieces = referee.ask(Query::Pieces, REFEREE_TIMEOUT).await?;
    let movepaths = referee.ask(Query::MovePaths, REFEREE_TIMEOUT).await?;
    let fen = referee.ask(Query::Fen, REFEREE_TIMEOUT).await?;
    let over =
        game.result.is_some() || referee.ask(Query::GameOver, REFEREE_TIMEOUT).await? == "true";
    let clocks = game.clocks.map(|c| c.map(|ms| ms.min(i64::MAX as u64) as i64));
    let state = Position {
        moves: moves.to_vec(),
        fen,
        pieces: serde_json::from_str(&pieces).unwrap_or(Value::Null),
        movepaths: serde_json::from_str(&movepaths).unwrap_or(Value::Null),
        to_move: game.to_move,
        human_to_move: false,
        thinking: (!over).then_some(game.to_move),
        game_over: over,
        verdict: None,
        clocks,
        ticking: (!over && clocks[usize::from(game.to_move - 1)].is_some()).then_some(game.to_move),
        paused: false,
    };
    let notice = Notice::State(state);
    let text = serde_json::to_string(&notice).unwrap_or_default();
    link.publish(notice, &text);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::address;

    #[test]
    fn the_live_address_is_a_port_or_a_host_and_port() {
        assert_eq!(address("8090").ok(), Some(("127.0.0.1".to_owned(), 8090)));
        assert_eq!(address("0.0.0.0:80").ok(), Some(("0.0.0.0".to_owned(), 80)));
        assert_eq!(address("[::1]:9").ok(), Some(("::1".to_owned(), 9)));
        assert!(address("http").is_err());
        assert!(address("host:99999").is_err());
    }
}
