//! `igroteka serve`: the browser GUI. An HTTP server for one static page and a
//! WebSocket per tab; it relays between the page and engine processes and
//! owns their lifetimes, knowing no game (see [`session`]).

mod engine;
mod messages;
mod session;

use std::io::Write;
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
    /// Another `host:port` whose pages may play here (repeatable), for a
    /// server reached under a name; pages are otherwise accepted only from
    /// the address the server listens on (and `localhost` for a loopback
    /// address), whatever `Host` a request names.
    #[arg(long, value_name = "HOST:PORT")]
    origin: Vec<String>,
    /// How long a client may take to send a request's headers, in ms; a
    /// connection that sends half a request is closed then.
    #[arg(long, default_value_t = 10_000)]
    header_timeout: u64,
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

/// Serves until a terminating signal, which ends every engine first.
///
/// # Errors
/// [`Terminated`](protocol::client::Terminated) at the signal;
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
    // Returning drops the runtime and with it every session's engines,
    // whose process groups are killed.
    runtime.block_on(serve((flags.host.as_str(), flags.port), config, flags))
}

/// The origins (`host:port`) whose pages may open a WebSocket: the address
/// listened on, `localhost` and the other loopback names for a loopback
/// address, and those given with `--origin`.
fn allowed_origins(local: std::net::SocketAddr, extra: &[String]) -> Vec<String> {
    let port = local.port();
    let mut origins = vec![local.to_string()];
    if local.ip().is_loopback() {
        origins.extend([
            format!("localhost:{port}"),
            format!("127.0.0.1:{port}"),
            format!("[::1]:{port}"),
        ]);
    }
    origins.extend(extra.iter().map(|o| o.to_ascii_lowercase()));
    origins
}

async fn serve(
    address: (&str, u16),
    config: Arc<Config>,
    flags: &ServeFlags,
) -> anyhow::Result<()> {
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
        .route("/favicon.svg", get(favicon))
        .route("/favicon.ico", get(favicon))
        .route("/ws", get(websocket));
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .with_context(|| format!("cannot listen on {}:{}", address.0, address.1))?;
    let local = listener.local_addr()?;
    let origins = Arc::new(allowed_origins(local, &flags.origin));
    let app = app.with_state(Served { config, origins });
    let url = format!("http://{local}/");
    // A closed stdout (`igroteka serve | head -1`) must not stop the server.
    let mut out = std::io::stdout();
    let _ = writeln!(out, "igroteka serve: open {url} (Ctrl-C stops)").and_then(|()| out.flush());
    if flags.open {
        open_browser(&url);
    }
    let header_timeout = Duration::from_millis(flags.header_timeout);
    // Ctrl-C, SIGTERM (`kill`, systemd, container runtimes), SIGHUP (a
    // closed terminal) or SIGQUIT: every engine is ended, then the server.
    let shutdown = protocol::client::terminated();
    tokio::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // A failed accept (too many open files, say) passes.
                Err(_) => continue,
            },
            stopped = &mut shutdown => {
                protocol::client::end_every_engine().await;
                return Err(stopped.into());
            }
        };
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let io = hyper_util::rt::TokioIo::new(stream);
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(header_timeout)
                .serve_connection(io, service)
                .with_upgrades();
            let _ = connection.await;
        });
    }
}

/// What every request handler shares.
#[derive(Clone)]
struct Served {
    config: Arc<Config>,
    origins: Arc<Vec<String>>,
}

fn page(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "no-cache")], body)
}

async fn favicon() -> impl IntoResponse {
    page("image/svg+xml", include_str!("../../../web/favicon.svg"))
}

async fn websocket(
    ws: WebSocketUpgrade,
    headers: HeaderMap,
    State(Served { config, origins }): State<Served>,
) -> Response {
    // Pages of other sites may not start engines here: the origin must be
    // an address the server listens on, not merely the `Host` the request
    // names (a DNS-rebinding page names its own).
    let text = |name| headers.get(name).and_then(|value: &HeaderValue| value.to_str().ok());
    if let Some(origin) = text(header::ORIGIN) {
        let host = origin.split_once("://").map(|(_, host)| host.to_ascii_lowercase());
        if !host.is_some_and(|host| origins.contains(&host)) {
            let message = format!("a page of {origin} may not play here");
            return (StatusCode::FORBIDDEN, message).into_response();
        }
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
