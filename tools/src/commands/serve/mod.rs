//! `igroteka serve`: the browser GUI. An HTTP server for one static page and a
//! WebSocket per tab; it relays between the page and engine processes and
//! owns their lifetimes, knowing no game (see [`session`]).

mod analysis;
mod engine;
mod import;
pub mod live;
mod messages;
mod review;
mod session;
mod watch;

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use arena::EngineSpec;
use axum::Extension;
use axum::Router;
use axum::extract::{State, WebSocketUpgrade};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use search::EngineKind;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

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
    /// the address a client reached (and `localhost` for a loopback
    /// address, also with `--host 0.0.0.0`), whatever `Host` a request names.
    #[arg(long, value_name = "HOST:PORT")]
    origin: Vec<String>,
    /// How long a client may take to send a request's headers, in ms; a
    /// connection that sends half a request is closed then.
    #[arg(long, default_value_t = 10_000)]
    header_timeout: u64,
    /// How many connections (pages, their files, their WebSockets) may be
    /// open at once; more are answered `503` and closed. Each may hold a
    /// message of up to 1 MiB being received.
    #[arg(long, default_value_t = 128)]
    max_connections: usize,
    /// How long a tab may stay connected without a game, in ms: then its
    /// WebSocket is closed (reloading the page reconnects).
    #[arg(long, default_value_t = 600_000)]
    idle_timeout: u64,
    /// How many ended games stay watchable at their links (a game is
    /// watchable while it is played, then among the last N ended).
    #[arg(long, value_name = "N", default_value_t = 64)]
    watch_kept: usize,
}

const ENGINE_ARG: &str = "engine";

/// The largest message the page may send: a long game's moves fit easily.
const MAX_MESSAGE: usize = 1 << 20;
/// What a WebSocket reads at a time (the library's default, 128 KiB, would
/// be held by every idle socket).
const READ_BUFFER: usize = 4 << 10;
/// The most a WebSocket may hold unsent: the largest notice (a position's
/// pieces and move paths, each up to an engine's 1 MiB line, and the moves)
/// fits. The session waits until each notice is sent, so this is reached
/// only by a page that reads nothing, which is then cut off.
const MAX_WRITE_BUFFER: usize = 8 << 20;
/// The most a connection buffers of a request's head (hyper's default is
/// about 400 KiB; it reads up to about twice this before it checks); a
/// browser's headers take a few KiB.
const MAX_HEAD: usize = 64 << 10;
/// The largest `--max-connections`: more would exceed any file limit.
const MAX_CONNECTIONS: usize = 1 << 20;
/// The wait before accepting again after `accept` failed (at the limit of
/// open files, say): the connection waits in the queue until one closes,
/// and retrying at once would spin.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);
/// How long a connection past `--max-connections` has to take its `503`.
const REFUSAL_TIMEOUT: Duration = Duration::from_secs(1);
/// How many such `503`s may be under way at once.
const MAX_REFUSALS: usize = 64;

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
    if !(1..=MAX_CONNECTIONS).contains(&flags.max_connections) {
        bail!("--max-connections must be from 1 to {MAX_CONNECTIONS}");
    }
    if flags.idle_timeout == 0 {
        bail!("--idle-timeout must be at least 1 ms");
    }
    let config = Arc::new(Config {
        exe: std::env::current_exe().context("cannot find this program to run its engine")?,
        engines,
        referee,
        timeout: Duration::from_millis(flags.timeout),
        slots: Arc::new(Semaphore::new(flags.max_games)),
        max_games: flags.max_games,
        idle_timeout: Duration::from_millis(flags.idle_timeout),
        links: watch::Registry::new(flags.watch_kept),
        kept: flags.watch_kept,
        plays: true,
    });
    let runtime = tokio::runtime::Runtime::new()?;
    // Returning drops the runtime and with it every session's engines,
    // whose process groups are killed.
    runtime.block_on(serve((flags.host.as_str(), flags.port), config, flags))
}

/// Whether a page of `origin` (`scheme://host[:port]`) may open a
/// WebSocket on a connection that `reached` the server at that address: the
/// page's host and port must be that address (or, for a loopback address,
/// `localhost` and the other loopback names), or one given with `--origin`,
/// whatever `Host` the request names. A server listening on every address
/// (`--host 0.0.0.0`) thus takes its page under each address it is reached at.
fn origin_allowed(origin: &str, reached: SocketAddr, extra: &[String]) -> bool {
    let Some((scheme, host)) = origin.split_once("://") else { return false };
    let mut host = host.to_ascii_lowercase();
    let has_port = host
        .rsplit_once(':')
        .is_some_and(|(_, port)| !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit()));
    if !has_port {
        let port = if scheme.eq_ignore_ascii_case("https") { 443 } else { 80 };
        host = format!("{host}:{port}");
    }
    let reached = SocketAddr::new(reached.ip().to_canonical(), reached.port());
    let port = reached.port();
    let loopback = || {
        [format!("localhost:{port}"), format!("127.0.0.1:{port}"), format!("[::1]:{port}")]
            .contains(&host)
    };
    host == reached.to_string()
        || (reached.ip().is_loopback() && loopback())
        || extra.iter().any(|o| o.eq_ignore_ascii_case(&host))
}

async fn serve(
    address: (&str, u16),
    config: Arc<Config>,
    flags: &ServeFlags,
) -> anyhow::Result<()> {
    let listener = tokio::net::TcpListener::bind(address)
        .await
        .with_context(|| format!("cannot listen on {}:{}", address.0, address.1))?;
    let url = url_of(listener.local_addr()?);
    // A closed stdout (`igroteka serve | head -1`) must not stop the server.
    let mut out = std::io::stdout();
    let _ = writeln!(out, "igroteka serve: open {url} (Ctrl-C stops)").and_then(|()| out.flush());
    if flags.open {
        open_browser(&url);
    }
    accept(listener, router(config, flags, None), flags).await
}

/// The address a page of `local` is opened at: for every address
/// (`--host 0.0.0.0`) this machine's own, as a page under 0.0.0.0 would be
/// refused.
fn url_of(local: SocketAddr) -> String {
    let shown = match local.ip() {
        ip if !ip.is_unspecified() => local,
        IpAddr::V4(_) => SocketAddr::new(Ipv4Addr::LOCALHOST.into(), local.port()),
        IpAddr::V6(_) => SocketAddr::new(Ipv6Addr::LOCALHOST.into(), local.port()),
    };
    format!("http://{shown}/")
}

/// The page, its files and its WebSocket; with `live`, an arena's page at
/// `/` (which shows its games with the page at `/game`) and its state.
fn router(config: Arc<Config>, flags: &ServeFlags, live: Option<Arc<live::Live>>) -> Router {
    const HTML: &str = "text/html; charset=utf-8";
    const JS: &str = "text/javascript; charset=utf-8";
    let index = || async { page(HTML, include_str!("../../../web/index.html")) };
    let app = Router::new()
        .route("/app.js", get(|| async { page(JS, include_str!("../../../web/app.js")) }))
        .route(
            "/style.css",
            get(|| async {
                page("text/css; charset=utf-8", include_str!("../../../web/style.css"))
            }),
        )
        .route("/favicon.svg", get(favicon))
        .route("/favicon.ico", get(favicon))
        .route("/ws", get(websocket));
    let app = match &live {
        None => app.route("/", get(index)),
        Some(_) => app
            .route("/", get(|| async { page(HTML, include_str!("../../../web/live.html")) }))
            .route("/live.js", get(|| async { page(JS, include_str!("../../../web/live.js")) }))
            .route("/live.json", get(live::state))
            .route("/game", get(index)),
    };
    app.with_state(Served { config, origins: Arc::new(flags.origin.clone()), live })
}

/// Serves `app` on `listener` until a terminating signal, which ends every
/// engine first, within the bounds of `flags`.
async fn accept(
    listener: tokio::net::TcpListener,
    app: Router,
    flags: &ServeFlags,
) -> anyhow::Result<()> {
    let header_timeout = Duration::from_millis(flags.header_timeout);
    let places = Arc::new(Semaphore::new(flags.max_connections));
    let refusals = Arc::new(Semaphore::new(MAX_REFUSALS));
    // Ctrl-C, SIGTERM (`kill`, systemd, container runtimes), SIGHUP (a
    // closed terminal) or SIGQUIT: every engine is ended, then the server.
    let shutdown = protocol::client::terminated();
    tokio::pin!(shutdown);
    let mut failing = false;
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            stopped = &mut shutdown => {
                protocol::client::end_every_engine().await;
                return Err(stopped.into());
            }
        };
        let stream = match accepted {
            Ok((stream, _)) => stream,
            Err(e) => {
                if !failing {
                    eprintln!("igroteka serve: cannot accept a connection ({e}); trying again");
                }
                failing = true;
                tokio::select! {
                    () = tokio::time::sleep(ACCEPT_BACKOFF) => continue,
                    stopped = &mut shutdown => {
                        protocol::client::end_every_engine().await;
                        return Err(stopped.into());
                    }
                }
            }
        };
        failing = false;
        let Ok(place) = Arc::clone(&places).try_acquire_owned() else {
            // Past that many refusals under way, a connection is just closed.
            if let Ok(refusal) = Arc::clone(&refusals).try_acquire_owned() {
                let max = flags.max_connections;
                tokio::spawn(async move {
                    refuse(stream, max).await;
                    drop(refusal);
                });
            }
            continue;
        };
        let Ok(reached) = stream.local_addr() else { continue };
        let connection = Connection { reached, _place: Arc::new(place) };
        let app = hyper_util::service::TowerToHyperService::new(app.clone());
        let service = hyper::service::service_fn(move |mut request| {
            request.extensions_mut().insert(connection.clone());
            hyper::service::Service::call(&app, request)
        });
        tokio::spawn(async move {
            let io = hyper_util::rt::TokioIo::new(stream);
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(header_timeout)
                .max_buf_size(MAX_HEAD)
                .serve_connection(io, service)
                .with_upgrades();
            let _ = connection.await;
        });
    }
}

/// Answers a connection past `--max-connections` with a `503` and closes it.
async fn refuse(mut stream: tokio::net::TcpStream, max: usize) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let body =
        format!("this server serves at most {max} connections at once (--max-connections)\n");
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Content-Length: {}\r\nRetry-After: 10\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(REFUSAL_TIMEOUT, async {
        stream.write_all(response.as_bytes()).await?;
        stream.shutdown().await?;
        // What the client sent is read before closing, lest the close
        // reset the connection and lose the answer.
        let mut sink = [0; 1024];
        while stream.read(&mut sink).await? > 0 {}
        Ok::<_, std::io::Error>(())
    })
    .await;
}

/// What every request of one connection carries.
#[derive(Clone)]
struct Connection {
    /// The server's address the client reached.
    reached: SocketAddr,
    /// Its place among `--max-connections`, held while the connection or
    /// the WebSocket it became is open.
    _place: Arc<OwnedSemaphorePermit>,
}

/// What every request handler shares.
#[derive(Clone)]
struct Served {
    config: Arc<Config>,
    /// The `--origin`s.
    origins: Arc<Vec<String>>,
    /// An arena's games, for `arena --live`.
    live: Option<Arc<live::Live>>,
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
    Extension(connection): Extension<Connection>,
    State(Served { config, origins, .. }): State<Served>,
) -> Response {
    // Pages of other sites may not start engines here: the origin must be
    // the address the client reached, not merely the `Host` the request
    // names (a DNS-rebinding page names its own).
    let text = |name| headers.get(name).and_then(|value: &HeaderValue| value.to_str().ok());
    if let Some(origin) = text(header::ORIGIN)
        && !origin_allowed(origin, connection.reached, &origins)
    {
        let message = format!("a page of {origin} may not play here");
        return (StatusCode::FORBIDDEN, message).into_response();
    }
    ws.max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(0)
        .max_write_buffer_size(MAX_WRITE_BUFFER)
        .on_upgrade(move |socket| async move {
            session::run(socket, config).await;
            drop(connection);
        })
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

#[cfg(test)]
mod tests {
    use super::origin_allowed;

    #[test]
    fn a_page_is_allowed_under_the_address_its_connection_reached() {
        let loopback = "127.0.0.1:8080".parse().expect("an address");
        let lan = "192.168.1.5:8080".parse().expect("an address");
        let mapped = "[::ffff:192.168.1.5]:8080".parse().expect("an address");
        let v6 = "[::1]:8080".parse().expect("an address");
        let http80 = "192.168.1.5:80".parse().expect("an address");
        let none: &[String] = &[];
        let cases = [
            ("http://127.0.0.1:8080", loopback, true),
            ("http://localhost:8080", loopback, true),
            ("http://LOCALHOST:8080", loopback, true),
            ("http://[::1]:8080", v6, true),
            ("http://localhost:8080", v6, true),
            ("http://192.168.1.5:8080", lan, true),
            ("http://192.168.1.5:8080", mapped, true),
            ("http://192.168.1.5", http80, true),
            ("http://localhost:8080", lan, false),
            ("http://127.0.0.1:8080", lan, false),
            ("http://192.168.1.5:8081", lan, false),
            ("http://192.168.1.5:8080", loopback, false),
            ("http://attacker.example:8080", loopback, false),
            ("null", loopback, false),
        ];
        for (origin, reached, allowed) in cases {
            assert_eq!(origin_allowed(origin, reached, none), allowed, "{origin} at {reached}");
        }
        let named = ["board.example:80".to_owned()];
        assert!(origin_allowed("http://Board.example", lan, &named));
        assert!(!origin_allowed("http://board.example:8080", lan, &named));
    }
}
