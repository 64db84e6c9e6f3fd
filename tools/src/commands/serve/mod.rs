//! `igroteka serve`: the browser GUI. An HTTP server for one static page and a
//! WebSocket per tab; it relays between the page and engine processes and
//! owns their lifetimes, knowing no game (see [`session`]).

mod engine;
mod messages;
mod session;

use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use arena::EngineSpec;
use axum::Router;
use axum::extract::{State, WebSocketUpgrade};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use search::EngineKind;
use tokio::sync::Semaphore;

use session::Config;

/// Play and watch every game in the browser.
///
/// Each tab runs its own engine processes: a referee, which answers the
/// queries that describe the board, the pieces and the moves (docs/protocol.md),
/// and one engine per side an engine plays. They are closed when the tab
/// closes or its game is restarted.
#[derive(Debug)]
pub struct ServeArgs {
    /// The tokens of each `--engine`.
    engines: Vec<Vec<String>>,
    flags: ServeFlags,
}

/// The flags of `serve` but `--engine`, which [`ServeArgs`] adds.
#[derive(Debug, clap::Args)]
pub struct ServeFlags {
    /// The port to listen on (0: any free one).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// The engine that referees every game: the name of an `--engine` that
    /// answers `query board`, `pieces` and `movepaths` (default: the built-in
    /// engine, whatever the sides play).
    #[arg(long)]
    referee: Option<String>,
    /// How many games (tabs) may run at once; more are refused.
    #[arg(long, default_value_t = 4)]
    max_games: usize,
    /// How long an engine may be late, in ms: beyond `movetime` for a move,
    /// in all for any other answer. Then the game stops with an error.
    #[arg(long, default_value_t = 30_000)]
    timeout: u64,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
}

const ENGINE_ARG: &str = "engine";

/// The largest message the page may send: a long game's moves fit easily.
const MAX_MESSAGE: usize = 1 << 20;

impl clap::FromArgMatches for ServeArgs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let engines = matches
            .get_occurrences::<String>(ENGINE_ARG)
            .map(|groups| groups.map(|group| group.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(ServeArgs { engines, flags: ServeFlags::from_arg_matches(matches)? })
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for ServeArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        ServeFlags::augment_args(cmd).arg(
            clap::Arg::new(ENGINE_ARG)
                .long(ENGINE_ARG)
                .num_args(1..)
                .action(clap::ArgAction::Append)
                .value_name("KEY=VALUE")
                .help(
                    "An engine the page offers: name=A builtin=alphabeta|mcts|random | \
                     cmd=\"./engine --flag\" [dir=D] [option.NAME=VALUE]; repeat per engine \
                     (default: the three built-ins)",
                ),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// Serves until interrupted.
///
/// # Errors
/// A bad `--engine` or `--referee`, or an address that cannot be bound.
pub fn run(args: &ServeArgs) -> anyhow::Result<()> {
    let flags = &args.flags;
    let mut engines = args
        .engines
        .iter()
        .map(|tokens| EngineSpec::parse_tokens(tokens))
        .collect::<anyhow::Result<Vec<_>>>()?;
    if engines.is_empty() {
        engines = [EngineKind::AlphaBeta, EngineKind::Mcts, EngineKind::Random]
            .into_iter()
            .map(EngineSpec::builtin)
            .collect();
    }
    for (i, engine) in engines.iter().enumerate() {
        if engines[..i].iter().any(|e| e.name == engine.name) {
            bail!("two engines are named '{}': give each a name=", engine.name);
        }
    }
    let referee = match &flags.referee {
        Some(name) => engines
            .iter()
            .find(|e| &e.name == name)
            .cloned()
            .with_context(|| format!("--referee '{name}' is none of the --engine names"))?,
        None => EngineSpec {
            name: "built-in referee".to_owned(),
            ..EngineSpec::builtin(EngineKind::AlphaBeta)
        },
    };
    if flags.max_games == 0 {
        bail!("--max-games must be at least 1");
    }
    let config = Arc::new(Config {
        exe: std::env::current_exe().context("cannot find this program to run its engine")?,
        engines,
        referee,
        timeout: Duration::from_millis(flags.timeout),
        slots: Arc::new(Semaphore::new(flags.max_games)),
        max_games: flags.max_games,
    });
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(serve((flags.host.as_str(), flags.port), config, flags.open))
}

async fn serve(address: (&str, u16), config: Arc<Config>, open: bool) -> anyhow::Result<()> {
    let app = Router::new()
        .route(
            "/",
            get(|| async {
                page("text/html; charset=utf-8", include_str!("../../../web/index.html"))
            }),
        )
        .route(
            "/app.js",
            get(|| async {
                page("text/javascript; charset=utf-8", include_str!("../../../web/app.js"))
            }),
        )
        .route(
            "/style.css",
            get(|| async {
                page("text/css; charset=utf-8", include_str!("../../../web/style.css"))
            }),
        )
        .route("/ws", get(websocket))
        .with_state(config);
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .with_context(|| format!("cannot listen on {}:{}", address.0, address.1))?;
    let url = format!("http://{}/", listener.local_addr()?);
    println!("igroteka serve: open {url} (Ctrl-C stops)");
    if open {
        open_browser(&url);
    }
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}

fn page(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "no-cache")], body)
}

async fn websocket(
    ws: WebSocketUpgrade,
    headers: HeaderMap,
    State(config): State<Arc<Config>>,
) -> Response {
    // Pages of other sites may not start engines here.
    let text = |name| headers.get(name).and_then(|value: &HeaderValue| value.to_str().ok());
    if let Some(origin) = text(header::ORIGIN)
        && origin.split_once("://").map(|(_, host)| host) != text(header::HOST)
    {
        let message = format!("a page of {origin} may not play here");
        return (StatusCode::FORBIDDEN, message).into_response();
    }
    ws.max_message_size(MAX_MESSAGE)
        .on_upgrade(move |socket| session::run(socket, config))
        .into_response()
}

/// Starts the system's browser on `url`; a failure is only reported.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(opener).arg(url).spawn() {
        eprintln!("cannot open a browser ({opener}: {e}); open {url} yourself");
    }
}
