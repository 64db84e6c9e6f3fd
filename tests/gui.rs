//! The page of `igroteka serve` in headless Chromium, driven over the Chrome
//! DevTools Protocol: every game is drawn, played by clicks against an
//! engine, watched engine against engine to its end, and photographed
//! (target/screenshots/<game>.png).
//!
//! Chromium is required: without it these tests fail and say how to install
//! it (`apt-get install chromium`; `CHROMIUM=/path` chooses another binary).

#[path = "serve_support.rs"]
mod serve_support;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use base64::Engine as _;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use serve_support::{BIN, Engine, Server, fake_flag, script};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// One browser at a time: the machine is small.
static BROWSER: Mutex<()> = Mutex::new(());

/// A headless Chromium, killed when dropped.
struct Browser {
    child: Child,
    profile: PathBuf,
    /// The DevTools address, for more pages.
    url: String,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// A page of that browser, over one DevTools WebSocket session.
struct Page {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    session: String,
    next_id: u64,
}

fn chromium() -> String {
    let path = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".to_owned());
    assert!(
        std::path::Path::new(&path).exists(),
        "the browser tests need Chromium at {path}: install it (apt-get install chromium, as \
         .ci/run does) or set CHROMIUM to its path"
    );
    path
}

/// The first address starting with `scheme` that `child` writes on its
/// (piped) stderr; the rest of its stderr is read and dropped, so that it
/// never writes into a closed pipe.
fn address_on_stderr(child: &mut Child, scheme: &str) -> Option<String> {
    let mut stderr = BufReader::new(child.stderr.take().expect("piped stderr")).lines();
    let url = stderr
        .by_ref()
        .map_while(Result::ok)
        .find_map(|line| line.find(scheme).map(|at| line[at..].trim().to_owned()));
    std::thread::spawn(move || stderr.for_each(drop));
    url
}

async fn launch(test: &str) -> (Browser, Page) {
    let profile = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("chromium-{test}"));
    let _ = std::fs::remove_dir_all(&profile);
    let mut child = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
            "--window-size=1200,1000",
            "--remote-debugging-port=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("about:blank")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chromium starts");
    let url = address_on_stderr(&mut child, "ws://").expect("chromium prints its DevTools address");
    let browser = Browser { child, profile, url };
    let page = browser.page().await;
    (browser, page)
}

impl Browser {
    /// A new tab.
    async fn page(&self) -> Page {
        let ws = tokio_tungstenite::connect_async(&self.url).await.expect("DevTools connects").0;
        let mut page = Page { ws, session: String::new(), next_id: 0 };
        let target = page.call("Target.createTarget", json!({"url": "about:blank"})).await;
        let attached = page
            .call("Target.attachToTarget", json!({"targetId": target["targetId"], "flatten": true}))
            .await;
        page.session = attached["sessionId"].as_str().expect("a session").to_owned();
        page
    }
}

impl Browser {
    /// A tab in a new browser context: its own storage and cookies, as
    /// another browser would have.
    async fn stranger_page(&self) -> Page {
        let ws = tokio_tungstenite::connect_async(&self.url).await.expect("DevTools connects").0;
        let mut page = Page { ws, session: String::new(), next_id: 0 };
        let context = page.call("Target.createBrowserContext", json!({})).await;
        let params = json!({"url": "about:blank", "browserContextId": context["browserContextId"]});
        let target = page.call("Target.createTarget", params).await;
        let attached = page
            .call("Target.attachToTarget", json!({"targetId": target["targetId"], "flatten": true}))
            .await;
        page.session = attached["sessionId"].as_str().expect("a session").to_owned();
        page
    }
}

impl Page {
    /// A DevTools command; its result.
    async fn call(&mut self, method: &str, params: Value) -> Value {
        match self.try_call(method, params).await {
            Ok(result) => result,
            Err(error) => panic!("{method}: {error}"),
        }
    }

    /// A DevTools command; its result or its error.
    async fn try_call(&mut self, method: &str, params: Value) -> Result<Value, Value> {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if !self.session.is_empty() {
            message["sessionId"] = json!(self.session);
        }
        self.ws.send(Message::Text(message.to_string().into())).await.expect("DevTools takes it");
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(60), self.ws.next())
                .await
                .unwrap_or_else(|_| panic!("no answer to {method}"))
                .expect("DevTools stays open")
                .expect("a frame");
            let Message::Text(text) = frame else { continue };
            let answer: Value = serde_json::from_str(&text).expect("DevTools sends JSON");
            if answer["id"] == id {
                return if answer["error"].is_null() {
                    Ok(answer["result"].clone())
                } else {
                    Err(answer["error"].clone())
                };
            }
        }
    }

    /// The value of a JavaScript expression (promises awaited).
    async fn eval(&mut self, expression: &str) -> Value {
        let params = json!({"expression": expression, "returnByValue": true, "awaitPromise": true});
        let result = self.call("Runtime.evaluate", params).await;
        assert!(
            result["exceptionDetails"].is_null(),
            "{expression}: {}",
            result["exceptionDetails"]
        );
        result["result"]["value"].clone()
    }

    /// Waits until `condition` (JavaScript) is true; at most 90 s, then fails
    /// saying what was awaited and what the page shows.
    async fn wait(&mut self, condition: &str, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(90);
        loop {
            // A page that is loading may not answer yet.
            let params = json!({"expression": condition, "returnByValue": true});
            let answer = self.try_call("Runtime.evaluate", params).await;
            if answer.is_ok_and(|a| a["result"]["value"] == json!(true)) {
                return;
            }
            if Instant::now() > deadline {
                let shown = self
                    .eval("document.body.dataset.phase + ' | ' + document.body.innerText.slice(0, 600)")
                    .await;
                panic!("waited in vain for {what}; the page shows: {shown}");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    async fn open(&mut self, server: &Server) {
        let url = format!("http://{}/", server.address);
        self.call("Page.navigate", json!({"url": url})).await;
        self.wait("document.body?.dataset.phase === 'idle'", "the page to connect").await;
    }

    /// Reloads the page and waits until the fresh page satisfies `condition`.
    async fn reload(&mut self, condition: &str) {
        self.eval("window.before = true").await;
        self.call("Page.reload", json!({})).await;
        self.wait(&format!("!window.before && {condition}"), "the page after a reload").await;
    }

    /// Goes to `url` and waits until the page has settled on a game (or on
    /// none).
    async fn goto(&mut self, url: &str) {
        self.call("Page.navigate", json!({"url": url})).await;
        self.wait(
            "['human', 'thinking', 'over', 'idle'].includes(document.body?.dataset.phase)",
            "the page to connect",
        )
        .await;
    }

    /// The viewport as a screen of `width` x `height` CSS pixels (a phone
    /// when `mobile`).
    async fn screen(&mut self, width: u32, height: u32, mobile: bool) {
        let params =
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile});
        self.call("Emulation.setDeviceMetricsOverride", params).await;
    }

    /// A key pressed and released (`key` as in `KeyboardEvent.key`).
    async fn key(&mut self, key: &str, code: &str, keycode: u32) {
        for kind in ["keyDown", "keyUp"] {
            let params = json!({"type": kind, "key": key, "code": code,
                "windowsVirtualKeyCode": keycode, "nativeVirtualKeyCode": keycode});
            self.call("Input.dispatchKeyEvent", params).await;
        }
    }

    /// Clicks the middle of cell `name`.
    async fn click_cell(&mut self, name: &str) {
        let (x, y) = self.cell_point(name).await;
        self.click_at(x, y).await;
    }

    /// A picture of the whole viewport.
    async fn screenshot_view(&mut self, path: &std::path::Path) {
        self.eval("window.scrollTo(0, 0)").await;
        let shot = self.call("Page.captureScreenshot", json!({"format": "png"})).await;
        let data = shot["data"].as_str().expect("image data");
        let png = base64::engine::general_purpose::STANDARD.decode(data).expect("base64");
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("screenshot folder");
        std::fs::write(path, png).expect("write the screenshot");
    }

    async fn text(&mut self, id: &str) -> String {
        let value = self.eval(&format!("document.getElementById({id:?}).innerText")).await;
        value.as_str().unwrap_or_default().to_owned()
    }

    async fn phase(&mut self) -> String {
        self.eval("document.body.dataset.phase").await.as_str().unwrap_or_default().to_owned()
    }

    /// A real mouse click at a point of the viewport.
    async fn click_at(&mut self, x: f64, y: f64) {
        for kind in ["mouseMoved", "mousePressed", "mouseReleased"] {
            let params = json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1});
            self.call("Input.dispatchMouseEvent", params).await;
        }
    }

    /// Clicks the middle of the element `selector` finds (once it stays put
    /// and nothing covers it).
    async fn click(&mut self, selector: &str) {
        let script = format!(
            "(() => {{ const e = document.querySelector({selector:?}); if (!e) return null; \
             e.scrollIntoView({{block: 'nearest'}}); const r = e.getBoundingClientRect(); \
             const x = r.x + r.width / 2, y = r.y + r.height / 2; \
             const hit = document.elementFromPoint(x, y); \
             return [x, y, !!hit && (hit === e || e.contains(hit))]; }})()"
        );
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let point = self.eval(&script).await;
            let (Some(x), Some(y)) = (point[0].as_f64(), point[1].as_f64()) else {
                panic!("nothing to click at {selector}");
            };
            if point[2] == json!(true) || Instant::now() > deadline {
                self.click_at(x, y).await;
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The viewport point of cell `name`'s centre (the mean of its corners,
    /// inside every convex cell), scrolled into view.
    async fn cell_point(&mut self, name: &str) -> (f64, f64) {
        let script = format!(
            "(() => {{ const g = document.querySelector('[data-cell=\"' + {name:?} + '\"]'); \
             if (!g) return null; g.scrollIntoView({{block: 'center'}}); \
             const poly = g.querySelector('polygon'); const pts = [...poly.points]; \
             const x = pts.reduce((s, p) => s + p.x, 0) / pts.length; \
             const y = pts.reduce((s, p) => s + p.y, 0) / pts.length; \
             const p = new DOMPoint(x, y).matrixTransform(poly.getScreenCTM()); \
             return [p.x, p.y]; }})()"
        );
        let point = self.eval(&script).await;
        match (point[0].as_f64(), point[1].as_f64()) {
            (Some(x), Some(y)) => (x, y),
            _ => panic!("cell {name} is not drawn"),
        }
    }

    /// Sets the form, with `fen` pasted as the position text, and presses New game.
    async fn new_game(
        &mut self,
        game: &str,
        variant: &str,
        sides: [&str; 2],
        limit: &str,
        plies: u32,
        fen: &str,
    ) {
        let script = format!(
            "(() => {{ const s = (id, v) => {{ const e = document.getElementById(id); e.value = v; \
             e.dispatchEvent(new Event('change')); }}; s('game', {game:?}); s('variant', {variant:?}); \
             s('p1-engine', {p1:?}); s('p2-engine', {p2:?}); s('p1-kind', 'depth'); \
             s('p2-kind', 'depth'); s('p1-limit', {limit:?}); s('p2-limit', {limit:?}); \
             s('maxplies', '{plies}'); s('fen', {fen:?}); return true; }})()",
            p1 = sides[0],
            p2 = sides[1],
        );
        self.eval("document.getElementById('setup-dialog').open || document.getElementById('open-setup').click()")
            .await;
        assert_eq!(self.eval(&script).await, json!(true));
        self.click("#new").await;
        // Mid-game, New game asks first.
        if self.eval("!document.getElementById('confirm-new').hidden").await == json!(true) {
            self.click("#confirm-new").await;
        }
    }

    async fn screenshot(&mut self, path: &std::path::Path) {
        let clip = self
            .eval(
                "(() => { window.scrollTo(0, 0); const r = document.querySelector('main').getBoundingClientRect(); \
                 return {x: r.x, y: r.y, width: r.width, height: r.height, scale: 0.6}; })()",
            )
            .await;
        let shot =
            self.call("Page.captureScreenshot", json!({"format": "png", "clip": clip})).await;
        let data = shot["data"].as_str().expect("image data");
        let png = base64::engine::general_purpose::STANDARD.decode(data).expect("base64");
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("screenshot folder");
        std::fs::write(path, png).expect("write the screenshot");
    }

    async fn moves(&mut self) -> Vec<String> {
        let moves = self
            .eval("[...document.querySelectorAll('#moves [data-move]')].map(e => e.dataset.move)")
            .await;
        serde_json::from_value(moves).expect("a list of moves")
    }
}

/// The game, and the variant unless it is the default: a name for pictures.
const LABEL: &str = "(() => { const game = document.getElementById('game').value; \
    const variant = document.getElementById('variant'); \
    return variant.selectedIndex === 0 ? game : game + '-' + variant.value; })()";

fn screenshot_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).parent().expect("target/").join("screenshots")
}

fn run<F: std::future::Future<Output = ()>>(test: F) {
    let _one_at_a_time = BROWSER.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    tokio::runtime::Runtime::new().expect("a runtime").block_on(test);
}

#[test]
fn every_cell_of_every_board_is_drawn_and_clickable() {
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("cells").await;
        page.open(&server).await;
        for (game, variants) in serve_support::games() {
            for variant in variants {
                let board = Engine::start(&game, &variant).json("board");
                let cells = board["cells"].as_array().expect("cells").clone();
                assert!(!cells.is_empty(), "{game} {variant}: no cells");
                page.new_game(&game, &variant, ["", ""], "1", 0, "").await;
                page.wait("document.body.dataset.phase === 'human'", "a board").await;
                let drawn =
                    page.eval("document.querySelectorAll('#cells [data-cell]').length").await;
                assert_eq!(drawn, json!(cells.len()), "{game} {variant}: cells drawn");
                for cell in &cells {
                    let name = cell["name"].as_str().expect("a name");
                    let (x, y) = page.cell_point(name).await;
                    let hit = page
                        .eval(&format!(
                            "document.elementFromPoint({x}, {y})?.closest('[data-cell]')?.dataset.cell ?? null"
                        ))
                        .await;
                    if hit != json!(name) {
                        let what = page.eval(&format!("(() => {{ const e = document.elementFromPoint({x}, {y}); return e ? e.outerHTML.slice(0, 200) + ' ' + innerHeight + ' ' + scrollY : 'none'; }})()")).await;
                        panic!("{game} {variant}: a click on {name} at {x},{y} hits {what}");
                    }
                }
            }
        }
    });
}

/// Makes the first legal move by clicks: the cells of its path, then the
/// chooser when other moves share the path. Returns the move.
async fn click_first_move(page: &mut Page, referee: &mut Engine, from: &str) -> String {
    let paths = referee.json("movepaths");
    let moves = paths["moves"].as_array().expect("moves").clone();
    let first = moves.iter().find(|m| {
        m["path"]
            .as_array()
            .is_some_and(|p| p.first() == Some(&json!(from)) || (from.is_empty() && !p.is_empty()))
    });
    let first = first.unwrap_or_else(|| panic!("a move from '{from}' in {paths}"));
    click_move(page, &moves, first).await
}

/// Makes `first`, one of `moves` (the referee's movepaths), by clicks on
/// its path, choosing it among those that share it; its text.
async fn click_move(page: &mut Page, moves: &[Value], first: &Value) -> String {
    let text = first["move"].as_str().expect("move text").to_owned();
    let path: Vec<&str> =
        first["path"].as_array().expect("path").iter().filter_map(Value::as_str).collect();
    for (i, cell) in path.iter().enumerate() {
        if *cell == "reserve" {
            page.click("[data-cell='reserve']").await;
        } else {
            if i > 0 {
                page.wait(
                    &format!("!!document.querySelector('#targets [data-target=\"{cell}\"]')"),
                    &format!("{cell} shown as a target"),
                )
                .await;
            }
            let (x, y) = page.cell_point(cell).await;
            page.click_at(x, y).await;
        }
        if i == 0 && path.len() > 1 {
            let label = page.eval(LABEL).await;
            let name = format!("{}-select.png", label.as_str().unwrap_or("game"));
            page.screenshot(&screenshot_dir().join(name)).await;
        }
    }
    let shared = moves.iter().filter(|m| m["path"] == first["path"]).count();
    if shared > 1 {
        let button = format!("#chooser button[data-move='{text}']");
        page.wait(&format!("!!document.querySelector({button:?})"), "the chooser").await;
        page.click(&button).await;
    }
    text
}

#[test]
fn every_game_and_variant_is_played_by_clicks_and_watched_to_the_end() {
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("games").await;
        page.open(&server).await;
        let games = serve_support::games();
        assert_eq!(games.len(), 6, "{games:?}");
        let every_variant = games.iter().flat_map(|(game, variants)| {
            variants.iter().enumerate().map(move |(i, variant)| (game, variant, i == 0))
        });
        for (game, variant, default) in every_variant {
            // A person against the engine: a picture, a click move, an answer.
            page.new_game(game, variant, ["", "alphabeta"], "1", 0, "").await;
            page.wait("document.body.dataset.phase === 'human'", "the person to move").await;
            let label = if default { game.clone() } else { format!("{game}-{variant}") };
            let mut referee = Engine::start(game, variant);
            let played = click_first_move(&mut page, &mut referee, "").await;
            page.wait(
                "document.querySelectorAll('#moves [data-move]').length === 2 && \
                 document.body.dataset.phase !== 'thinking'",
                &format!("{game}: the engine's answer to {played}"),
            )
            .await;
            // The picture (docs/screenshots): a move each, the last one marked.
            page.screenshot(&screenshot_dir().join(format!("{label}.png"))).await;
            let moves = page.moves().await;
            assert_eq!(moves[0], played, "{game}");
            referee.send(&format!("position startpos moves {}", moves.join(" ")));
            assert_eq!(referee.query("gameover"), "false", "{game}: {moves:?}");

            // Engine against engine to the end, under a ply cap.
            page.new_game(game, variant, ["alphabeta", "random"], "1", 16, "").await;
            page.wait("document.body.dataset.phase === 'over'", &format!("{game}: the end")).await;
            page.screenshot(&screenshot_dir().join(format!("{label}-end.png"))).await;
            let moves = page.moves().await;
            assert!(!moves.is_empty() && moves.len() <= 16, "{game}: {moves:?}");
            referee.send("setoption name MaxPlies value 16");
            referee.send(&format!("position startpos moves {}", moves.join(" ")));
            let result = referee.query("result");
            let names = referee.json("board")["players"].clone();
            let expected = match result.as_str() {
                "p1win" => format!("{} wins", names[0]["name"].as_str().unwrap_or("")),
                "p2win" => format!("{} wins", names[1]["name"].as_str().unwrap_or("")),
                "draw" => "Draw".to_owned(),
                other => panic!("{game}: the referee says {other} after {moves:?}"),
            };
            let shown = page.eval("document.getElementById('result').innerText").await;
            let shown = shown.as_str().unwrap_or("");
            assert!(shown.starts_with(&expected), "{game}: shows {shown:?}, expected {expected:?}");

            // The record copied from the page replays to the position it shows.
            let record = page.eval("document.getElementById('record').value").await;
            let replayed =
                replay(&["--game", game, "--variant", variant], record.as_str().unwrap_or(""));
            let position = page.eval("document.getElementById('position').value").await;
            let position = position.as_str().unwrap_or("");
            assert!(replayed.contains(&format!("position {position}\n")), "{game}: {replayed}");
        }
    });
}

#[test]
fn a_drop_from_the_reserve_is_made_by_clicks_on_a_pasted_position() {
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("drop").await;
        page.open(&server).await;
        let mut referee = Engine::start("focus", "standard");
        // The start, with one black piece moved from the board into Black's reserve.
        let start = referee.query("fen");
        let fen = start.replacen("/b,", "/1,", 1).replace("reserve 0 0", "reserve 1 0");
        assert_eq!(fen.len(), start.len(), "{start} names a black piece and the reserves");
        referee.send(&format!("position fen {fen}"));
        page.new_game("focus", "standard", ["", ""], "1", 0, &fen).await;
        page.wait("document.body.dataset.phase === 'human'", "the pasted position").await;
        let played = click_first_move(&mut page, &mut referee, "reserve").await;
        page.wait("document.querySelectorAll('#moves [data-move]').length === 1", "the drop").await;
        assert_eq!(page.moves().await, vec![played.clone()]);
        referee.send(&format!("position fen {fen} moves {played}"));
        let shown = page.eval("document.getElementById('position').value").await;
        assert_eq!(shown, json!(referee.query("fen")));
    });
}

/// `igroteka replay <args>` of `record` on stdin: what it prints.
fn replay(args: &[&str], record: &str) -> String {
    use std::io::Write;
    let mut child = Command::new(BIN)
        .arg("replay")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("igroteka replay starts");
    child.stdin.take().expect("stdin").write_all(record.as_bytes()).expect("record written");
    let out = child.wait_with_output().expect("replay ends");
    assert!(out.status.success(), "replay refused {record:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn an_engine_crash_is_shown_with_a_restart() {
    run(async {
        let fake = fake_flag("crash");
        let server = Server::start(&["--engine", "name=fake", &fake, "--engine", "builtin=random"]);
        let (_browser, mut page) = launch("crash").await;
        page.open(&server).await;
        page.new_game("stykovka", "standard", ["fake", ""], "1", 0, "").await;
        page.wait("document.body.dataset.phase === 'error'", "the crash").await;
        let banner = page.eval("document.getElementById('error-text').innerText").await;
        assert!(banner.as_str().unwrap_or("").contains("'fake': the engine is gone"), "{banner}");
        let restart =
            page.eval("getComputedStyle(document.getElementById('restart')).display").await;
        assert_ne!(restart, json!("none"));
        // The restart starts fresh processes, and the fake crashes again.
        page.click("#restart").await;
        page.wait("document.body.dataset.phase !== 'error'", "the restart").await;
        page.wait("document.body.dataset.phase === 'error'", "the second crash").await;
        server.wait_for_children(0);
    });
}

/// A toy referee for a game the page has never seen: two cells, one piece,
/// and two moves with the same clicks.
const TOY_REFEREE: &str = r##""query board") echo 'response {"game":"otrazhenie","variant":"standard","width":3,"height":2,"cells":[{"name":"a1","x":1,"y":1,"polygon":[[0.5,0.5],[1.5,0.5],[1.5,1.5],[0.5,1.5]],"class":"sea"},{"name":"b1","x":2,"y":1,"polygon":[[1.5,0.5],[2.5,0.5],[2.5,1.5],[1.5,1.5]],"class":"sea"}],"labels":[],"classes":{"sea":"#88bbee"},"players":[{"name":"Red","colour":"#cc2222"},{"name":"Blue","colour":"#2222cc"}],"reserves":false}' ;;
    "query pieces") echo 'response {"cells":[{"cell":"a1","stack":[{"owner":1,"kind":"ship"}]}],"reserves":null,"captured":null,"score":null,"side_to_move":1,"game_over":false,"result":null,"reason":null}' ;;
    "query movepaths") echo 'response {"moves":[{"move":"a1-b1","path":["a1","b1"]},{"move":"a1-b1!","path":["a1","b1"]}]}' ;;
    "query fen") echo 'response toy' ;;
    "query gameover") echo 'response false' ;;
    "query p1turn") echo 'response true' ;;
    "query islegal"*) echo 'response true' ;;"##;

#[test]
fn moves_with_the_same_clicks_are_told_apart_by_a_chooser() {
    run(async {
        let toy = format!("cmd={}", script("toy", TOY_REFEREE).display());
        let server = Server::start(&["--engine", "name=toy", &toy, "--referee", "toy"]);
        let (_browser, mut page) = launch("chooser").await;
        page.open(&server).await;
        page.new_game("otrazhenie", "standard", ["", ""], "1", 0, "").await;
        page.wait("document.body.dataset.phase === 'human'", "the toy board").await;
        let drawn = page.eval("document.querySelectorAll('#cells [data-cell]').length").await;
        assert_eq!(drawn, json!(2));
        for cell in ["a1", "b1"] {
            let (x, y) = page.cell_point(cell).await;
            page.click_at(x, y).await;
        }
        page.wait("!document.getElementById('chooser').hidden", "the chooser").await;
        let offered = page
            .eval("[...document.querySelectorAll('#chooser [data-move]')].map(b => b.dataset.move)")
            .await;
        assert_eq!(offered, json!(["a1-b1", "a1-b1!"]));
        page.click("#chooser [data-move='a1-b1!']").await;
        page.wait("document.querySelectorAll('#moves [data-move]').length === 1", "the move").await;
        assert_eq!(page.moves().await, vec!["a1-b1!".to_owned()]);
    });
}

/// The names of the cells the selector finds on the board.
async fn cells(page: &mut Page, selector: &str) -> std::collections::BTreeSet<String> {
    let script = format!(
        "[...document.querySelectorAll({selector:?})].map(e => e.dataset.cell ?? e.dataset.target)"
    );
    serde_json::from_value(page.eval(&script).await).expect("a list of names")
}

/// City's playable rules (`16c`): as on draughts sites, only the pawns that
/// must capture are selectable and a selected pawn offers only its captures.
/// The page knows no game: it offers the moves of `query movepaths`, which
/// under compulsory capture are the captures alone. Photographed to
/// target/screenshots/city-16c-duty.png and city-16c-duty-select.png.
#[test]
fn only_the_pawns_that_must_capture_are_selectable_in_city_16c() {
    use std::collections::BTreeSet;
    // White c4 and a1 can capture (c4-c3, a1-a9); d1 and the pawns on the
    // wall (b2, d2) could move but must not. Black: a9, i9 and c3.
    let fen = "B7B/9/9/9/9/2W6/2B6/1W1W5/W2W5 W";
    let mut referee = Engine::start("city", "16c");
    referee.send(&format!("position fen {fen}"));
    let paths = referee.json("movepaths");
    let moves = paths["moves"].as_array().expect("moves");
    let cell = |m: &Value, i: usize| m["path"][i].as_str().unwrap_or_default().to_owned();
    let starts: BTreeSet<String> = moves.iter().map(|m| cell(m, 0)).collect();
    let ends: BTreeSet<String> =
        moves.iter().filter(|m| m["path"][0] == json!("c4")).map(|m| cell(m, 1)).collect();
    assert_eq!(starts, BTreeSet::from(["a1".to_owned(), "c4".to_owned()]));
    assert_eq!(ends, BTreeSet::from(["c3".to_owned()]));
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("city-duty").await;
        page.open(&server).await;
        page.new_game("city", "16c", ["", ""], "1", 0, fen).await;
        page.wait("document.body.dataset.phase === 'human'", "the person to move").await;
        // Only the capturing pawns are marked as places to start a move.
        assert_eq!(cells(&mut page, "#cells [data-cell].start").await, starts);
        page.screenshot(&screenshot_dir().join("city-16c-duty.png")).await;
        // A click on a pawn that may not move now selects nothing.
        let (x, y) = page.cell_point("d1").await;
        page.click_at(x, y).await;
        assert!(cells(&mut page, "#cells [data-cell].selected").await.is_empty());
        assert!(cells(&mut page, "#targets [data-target]").await.is_empty());
        // A capturing pawn, once selected, offers its capture alone.
        let (x, y) = page.cell_point("c4").await;
        page.click_at(x, y).await;
        page.wait("!!document.querySelector('#targets [data-target]')", "c4's targets").await;
        assert_eq!(cells(&mut page, "#targets [data-target]").await, ends);
        page.screenshot(&screenshot_dir().join("city-16c-duty-select.png")).await;
        // Playing it by clicks is accepted.
        let (x, y) = page.cell_point("c3").await;
        page.click_at(x, y).await;
        page.wait("document.querySelectorAll('#moves [data-move]').length === 1", "the move").await;
        assert_eq!(page.moves().await, ["c4-c3"]);
    });
}

// ----- the defects of issue 21, each by real input -----

/// The moves of `referee`'s position whose path starts with `cells`.
fn sharing(referee: &mut Engine, cells: &[&str]) -> std::collections::BTreeSet<String> {
    let paths = referee.json("movepaths");
    paths["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .filter(|m| {
            let path = m["path"].as_array().expect("a path");
            path.len() >= cells.len() && cells.iter().zip(path).all(|(c, p)| p == c)
        })
        .map(|m| m["move"].as_str().expect("a move").to_owned())
        .collect()
}

/// Every target shown and every start cell is hit by a click at its centre
/// (nothing covers it): the names that are not.
async fn covered(page: &mut Page) -> Vec<String> {
    let script = "(() => { const names = [...document.querySelectorAll('#targets [data-target]')]\
        .map(t => t.dataset.target).concat([...document.querySelectorAll('#cells .start')]\
        .map(c => c.dataset.cell)); const out = []; for (const name of names) { \
        const g = document.querySelector('#cells [data-cell=\"' + name + '\"]'); \
        const poly = g.querySelector('polygon'); const pts = [...poly.points]; \
        const x = pts.reduce((s, p) => s + p.x, 0) / pts.length; \
        const y = pts.reduce((s, p) => s + p.y, 0) / pts.length; \
        const p = new DOMPoint(x, y).matrixTransform(poly.getScreenCTM()); \
        const hit = document.elementFromPoint(p.x, p.y)?.closest('[data-cell]')?.dataset.cell; \
        if (hit !== name) out.push(name); } return out; })()";
    serde_json::from_value(page.eval(script).await).expect("names")
}

#[test]
fn a_reflected_capture_into_the_centre_is_made_by_clicks_and_the_chooser_covers_nothing() {
    let fen = "B7/8/8/3B4/8/8/7W/W7 w";
    let mut referee = Engine::start("otrazhenie", "standard");
    referee.send(&format!("position fen {fen}"));
    let offered_by_referee = sharing(&mut referee, &["h2", "h1"]);
    let capture = offered_by_referee
        .iter()
        .find(|m| m.ends_with("xd5"))
        .unwrap_or_else(|| panic!("a capture on d5 among {offered_by_referee:?}"))
        .clone();
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("reflect").await;
        page.open(&server).await;
        page.new_game("otrazhenie", "standard", ["", ""], "1", 0, fen).await;
        page.wait("document.body.dataset.phase === 'human'", "the position").await;
        page.click_cell("h2").await;
        page.click_cell("h1").await;
        page.wait("!document.getElementById('chooser').hidden", "the chooser").await;
        let offered: std::collections::BTreeSet<String> = serde_json::from_value(
            page.eval(
                "[...document.querySelectorAll('#chooser [data-move]')].map(b => b.dataset.move)",
            )
            .await,
        )
        .expect("moves");
        assert_eq!(offered, offered_by_referee, "the chooser offers every move sharing h2 h1");
        page.screenshot_view(&screenshot_dir().join("otrazhenie-chooser.png")).await;
        assert_eq!(covered(&mut page).await, Vec::<String>::new());
        page.click_cell("d5").await;
        page.wait("document.querySelectorAll('#moves [data-move]').length === 1", "the capture")
            .await;
        assert_eq!(page.moves().await, vec![capture]);
    });
}

#[test]
fn the_whole_board_and_both_bars_fit_a_laptop_and_a_phone_screen() {
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("layout").await;
        let games = serve_support::games();
        for (width, height, mobile, name) in
            [(1366, 768, false, "laptop"), (390, 844, true, "phone")]
        {
            page.screen(width, height, mobile).await;
            page.open(&server).await;
            for (game, variants) in &games {
                // Focus has a reserve to drop from in its bars; both sides people.
                page.new_game(game, &variants[0], ["", ""], "1", 0, "").await;
                page.wait("document.body.dataset.phase === 'human'", "a board").await;
                page.eval("window.scrollTo(0, 0)").await;
                let outside = page
                    .eval(
                        "(() => { const out = []; const W = innerWidth, H = innerHeight; \
                         const inside = (r) => r.left >= 0 && r.top >= 0 && r.right <= W + 0.5 && r.bottom <= H + 0.5; \
                         for (const g of document.querySelectorAll('#cells [data-cell]')) \
                           if (!inside(g.getBoundingClientRect())) out.push(g.dataset.cell); \
                         for (const id of ['reserve-1', 'reserve-2']) { const e = document.getElementById(id); \
                           if (!inside(e.getBoundingClientRect()) || e.getBoundingClientRect().height < 10) out.push(id); } \
                         for (const l of document.querySelectorAll('#labels text')) \
                           if (!inside(l.getBoundingClientRect())) out.push('label ' + l.textContent); \
                         return out; })()",
                    )
                    .await;
                assert_eq!(outside, json!([]), "{game} at {width}x{height}: outside the screen");
                assert_eq!(page.eval("scrollY").await, json!(0));
                page.screenshot_view(&screenshot_dir().join(format!("layout-{name}-{game}.png")))
                    .await;
            }
        }
    });
}

#[test]
fn a_failed_new_game_keeps_the_running_one_and_the_form_names_the_game_on_the_board() {
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("failed-new").await;
        page.open(&server).await;
        // Before any game there is nothing to take back.
        assert_eq!(page.eval("document.getElementById('takeback').disabled").await, json!(true));
        page.new_game("stykovka", "standard", ["", ""], "1", 0, "").await;
        page.wait("document.body.dataset.phase === 'human'", "the game").await;
        let mut referee = Engine::start("stykovka", "standard");
        let played = click_first_move(&mut page, &mut referee, "").await;
        page.wait("document.querySelectorAll('#moves [data-move]').length === 1", "the move").await;
        let pieces_before = page.eval("document.querySelectorAll('#pieces .piece').length").await;
        // New game mid-game asks; a mistyped position then fails.
        page.click("#open-setup").await;
        page.eval("document.getElementById('fen').value = 'this is no position'").await;
        page.click("#new").await;
        assert_eq!(page.eval("!document.getElementById('confirm-new').hidden").await, json!(true));
        assert_eq!(page.moves().await, vec![played.clone()], "nothing happened before the answer");
        page.click("#confirm-new").await;
        page.wait("!document.getElementById('setup-error').hidden", "the refusal").await;
        page.click("#cancel-setup").await;
        assert_eq!(page.phase().await, "human");
        assert_eq!(page.moves().await, vec![played.clone()]);
        assert_eq!(
            page.eval("document.querySelectorAll('#pieces .piece').length").await,
            pieces_before
        );
        // Choosing another game in the form and not starting it leaves the
        // form naming the game on the board.
        page.click("#open-setup").await;
        page.eval(
            "(() => { const g = document.getElementById('game'); g.value = 'city'; \
             g.dispatchEvent(new Event('change')); })()",
        )
        .await;
        page.click("#cancel-setup").await;
        page.click("#open-setup").await;
        assert_eq!(page.eval("document.getElementById('game').value").await, json!("stykovka"));
        assert_eq!(page.eval("document.getElementById('fen').value").await, json!(""));
        page.click("#cancel-setup").await;
        assert!(page.text("title").await.starts_with("stykovka"));
        // The game goes on by clicks.
        referee.send(&format!("position startpos moves {played}"));
        click_first_move(&mut page, &mut referee, "").await;
        page.wait("document.querySelectorAll('#moves [data-move]').length === 2", "the reply")
            .await;
    });
}

#[test]
fn a_reload_back_and_a_reopened_tab_resume_the_game() {
    run(async {
        let server = Server::start(&[]);
        let (browser, mut page) = launch("resume").await;
        page.open(&server).await;
        page.new_game("focus", "standard", ["", "alphabeta"], "1", 0, "").await;
        page.wait("document.body.dataset.phase === 'human'", "the game").await;
        let mut referee = Engine::start("focus", "standard");
        click_first_move(&mut page, &mut referee, "").await;
        page.wait(
            "document.querySelectorAll('#moves [data-move]').length === 2 && document.body.dataset.phase === 'human'",
            "the engine's answer",
        )
        .await;
        let moves = page.moves().await;
        let position = page.eval("document.getElementById('position').value").await;
        let link = page.eval("location.href").await;
        // A reload: the same game under the same link.
        page.reload("document.body?.dataset.phase === 'human'").await;
        assert_eq!(page.moves().await, moves);
        assert_eq!(page.eval("location.href").await, link);
        assert_eq!(page.eval("document.getElementById('position').value").await, position);
        // Away and Back.
        let url = page.eval("location.href").await.as_str().expect("a url").to_owned();
        page.eval("window.before = true").await;
        let away = format!("http://{}/favicon.svg", server.address);
        page.call("Page.navigate", json!({"url": away})).await;
        page.wait("location.pathname === '/favicon.svg'", "the other page").await;
        let history = page.call("Page.getNavigationHistory", json!({})).await;
        let index = history["currentIndex"].as_u64().expect("an index");
        let entry = history["entries"][(index - 1) as usize]["id"].clone();
        page.call("Page.navigateToHistoryEntry", json!({"entryId": entry})).await;
        page.wait(
            "!window.before && location.pathname === '/' && document.body?.dataset.phase === 'human' \
             && document.querySelectorAll('#moves [data-move]').length === 2",
            "the game after Back",
        )
        .await;
        assert_eq!(page.moves().await, moves);
        assert_eq!(page.eval("location.href").await, link);
        // Another tab at the address watches the game, which the player's
        // tab plays on.
        let mut tab = browser.page().await;
        tab.goto(&url).await;
        tab.wait(
            "document.body.dataset.watching === 'true' \
             && document.querySelectorAll('#moves [data-move]').length === 2",
            "the game watched in the new tab",
        )
        .await;
        referee.send(&format!("position startpos moves {}", moves.join(" ")));
        // (A tab in the background draws nothing to photograph.)
        page.call("Page.bringToFront", json!({})).await;
        click_first_move(&mut page, &mut referee, "").await;
        tab.wait(
            "document.querySelectorAll('#moves [data-move]').length === 4",
            "the game goes on, watched",
        )
        .await;
        let moves = page.moves().await;
        assert_eq!(tab.moves().await, moves);
        // An address of before links resumes its record, as a new game
        // with a link of its own.
        let record = json!({"game": "focus", "variant": "standard", "fen": null, "moves": moves,
            "max_plies": 0, "sides": [{"engine": null, "limit": null},
            {"engine": "alphabeta", "limit": {"depth": 1}}]});
        let mut old = browser.page().await;
        old.goto(&format!("http://{}/#game={}", server.address, percent(&record.to_string())))
            .await;
        old.wait(
            "document.body.dataset.phase === 'human' && location.search.startsWith('?g=') \
             && !document.body.dataset.watching",
            "the record resumed",
        )
        .await;
        assert_eq!(old.moves().await, moves);
        assert_ne!(old.eval("location.href").await, link);
    });
}

/// A long game from the address: move numbers from 100 on are whole.
#[test]
fn move_numbers_from_100_on_are_shown_whole() {
    let mut referee = Engine::start("otrazhenie", "standard");
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..205 {
        referee.send(&format!("position startpos moves {}", moves.join(" ")));
        let legal = referee.query("moves");
        let legal: Vec<&str> = legal.split_whitespace().collect();
        assert!(!legal.is_empty(), "the game ended after {ply} plies");
        // Quiet moves only (no capture), so that the game goes on.
        let quiet: Vec<&str> = legal.iter().copied().filter(|m| !m.contains('x')).collect();
        let pool = if quiet.is_empty() { &legal } else { &quiet };
        moves.push(pool[(ply * 7) % pool.len()].to_owned());
    }
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("numbers").await;
        let saved = json!({"game": "otrazhenie", "variant": "standard", "fen": null, "moves": moves,
            "max_plies": 0, "sides": [{"engine": null, "limit": null}, {"engine": null, "limit": null}]});
        let url = format!("http://{}/#game={}", server.address, percent(&saved.to_string()));
        page.goto(&url).await;
        page.wait("document.querySelectorAll('#moves [data-move]').length === 205", "the game")
            .await;
        let numbers =
            page.eval("[...document.querySelectorAll('#moves .num')].map(n => n.innerText)").await;
        let numbers: Vec<String> = serde_json::from_value(numbers).expect("numbers");
        assert_eq!(numbers.len(), 103);
        assert_eq!(numbers[99], "100.");
        assert_eq!(numbers[102], "103.");
        // Each number is drawn whole: its text fits its box.
        let clipped = page
            .eval("[...document.querySelectorAll('#moves .num')].filter(n => n.scrollWidth > n.clientWidth + 1).length")
            .await;
        assert_eq!(clipped, json!(0));
    });
}

/// `text` with everything but letters and digits percent-encoded.
fn percent(text: &str) -> String {
    text.bytes()
        .map(
            |b| {
                if b.is_ascii_alphanumeric() {
                    (b as char).to_string()
                } else {
                    format!("%{b:02X}")
                }
            },
        )
        .collect()
}

#[test]
fn a_tab_beyond_max_games_is_told_and_tabs_without_a_game_hold_no_place() {
    run(async {
        let server = Server::start(&["--max-games", "1"]);
        let (browser, mut first) = launch("max-games").await;
        first.open(&server).await;
        let mut second = browser.page().await;
        second.open(&server).await;
        // The first tab holds no place: the second may play.
        second.new_game("otrazhenie", "standard", ["", ""], "1", 0, "").await;
        second.wait("document.body.dataset.phase === 'human'", "the second tab's game").await;
        first.new_game("otrazhenie", "standard", ["", ""], "1", 0, "").await;
        first.wait("!document.getElementById('setup-error').hidden", "the refusal").await;
        let refusal = first.text("setup-error").await;
        assert!(refusal.contains("at most 1 games at once"), "{refusal}");
        assert_eq!(first.phase().await, "idle");
        assert!(!first.text("status").await.contains("Starting"));
    });
}

#[test]
fn the_board_is_inert_once_the_server_is_gone() {
    run(async {
        let mut server = Server::start(&[]);
        let (_browser, mut page) = launch("gone").await;
        page.open(&server).await;
        page.new_game("city", "16c", ["", ""], "1", 0, "").await;
        page.wait("document.body.dataset.phase === 'human'", "the game").await;
        let start = page.eval("document.querySelector('#cells .start').dataset.cell").await;
        let start = start.as_str().expect("a start cell").to_owned();
        server.interrupt();
        page.wait("document.body.dataset.phase === 'closed'", "the page to notice").await;
        page.click_cell(&start).await;
        assert!(cells(&mut page, "#cells [data-cell].selected").await.is_empty());
        assert!(cells(&mut page, "#cells [data-cell].start").await.is_empty());
        assert!(cells(&mut page, "#targets [data-target]").await.is_empty());
        assert_eq!(page.eval("document.getElementById('takeback').disabled").await, json!(true));
    });
}

#[test]
fn a_tab_closed_for_having_no_game_says_so() {
    run(async {
        let server = Server::start(&["--idle-timeout", "1000"]);
        let (_browser, mut page) = launch("idle").await;
        page.open(&server).await;
        page.wait("document.body.dataset.phase === 'closed'", "the idle tab to close").await;
        let error = page.text("error-text").await;
        assert!(error.contains("closed the connection (no game for 1 s)"), "{error}");
    });
}

/// Plays moves `(ply * 5) % n` from the start until a move of `game` makes
/// `wanted` true; that position's text and the move.
fn find_position(game: &str, wanted: impl Fn(&str) -> bool) -> (String, String) {
    let mut referee = Engine::start(game, "standard");
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..300 {
        referee.send(&format!("position startpos moves {}", moves.join(" ")));
        let legal = referee.query("moves");
        let legal: Vec<&str> = legal.split_whitespace().collect();
        if let Some(found) = legal.iter().find(|m| wanted(m)) {
            return (referee.query("fen"), (*found).to_owned());
        }
        assert!(!legal.is_empty(), "{game} ended without such a move");
        moves.push(legal[(ply * 5) % legal.len()].to_owned());
    }
    panic!("no such move of {game} in 300 plies");
}

#[test]
fn a_docking_move_shows_where_the_displaced_checker_went() {
    let (fen, docking) = find_position("stykovka", |m| m.contains('/'));
    let retreat = docking.rsplit('/').next().expect("the retreat square").to_owned();
    let mut referee = Engine::start("stykovka", "standard");
    referee.send(&format!("position fen {fen}"));
    let path = referee.json("movepaths")["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .find(|m| m["move"] == json!(docking))
        .expect("the docking move")["path"]
        .clone();
    let path: Vec<String> = serde_json::from_value(path).expect("cells");
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("docking").await;
        page.open(&server).await;
        page.new_game("stykovka", "standard", ["", ""], "1", 0, &fen).await;
        page.wait("document.body.dataset.phase === 'human'", "the position").await;
        for cell in &path {
            page.click_cell(cell).await;
        }
        if page.eval("!document.getElementById('chooser').hidden").await == json!(true) {
            page.click(&format!("#chooser [data-move='{docking}']")).await;
        }
        page.wait("document.querySelectorAll('#moves [data-move]').length === 1", "the move").await;
        assert_eq!(page.moves().await, vec![docking.clone()]);
        let last = cells(&mut page, "#cells [data-cell].last").await;
        assert!(last.contains(&retreat), "{retreat} (where the checker went) not marked: {last:?}");
        page.screenshot_view(&screenshot_dir().join("stykovka-docking.png")).await;
    });
}

#[test]
fn a_game_from_a_position_with_player_2_to_move_is_numbered_and_recorded_right() {
    let fen = "B6B/8/8/8/8/8/W7/7W b";
    let mut referee = Engine::start("otrazhenie", "standard");
    referee.send(&format!("position fen {fen}"));
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("black-first").await;
        page.open(&server).await;
        page.new_game("otrazhenie", "standard", ["", ""], "1", 0, fen).await;
        page.wait("document.body.dataset.phase === 'human'", "the position").await;
        let played = click_first_move(&mut page, &mut referee, "").await;
        page.wait("document.querySelectorAll('#moves [data-move]').length === 1", "the move").await;
        let first_row = page.eval("document.querySelector('#moves li').innerText").await;
        let first_row =
            first_row.as_str().unwrap_or_default().split_whitespace().collect::<Vec<_>>();
        assert_eq!(first_row, ["1.", "…", played.as_str()]);
        let record = page.eval("document.getElementById('record').value").await;
        let record = record.as_str().unwrap_or_default().to_owned();
        assert!(record.contains(&format!("1... {played} *")), "{record}");
        // The record names its position: replay needs nothing else.
        let replayed = replay_record(&record);
        let position = page.eval("document.getElementById('position').value").await;
        assert!(replayed.contains(&format!("position {}\n", position.as_str().unwrap_or("?"))));
    });
}

/// `igroteka replay --game <its [Game] tag>` of `record`: what it prints.
fn replay_record(record: &str) -> String {
    let game = record
        .split("[Game \"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a [Game] tag");
    replay(&["--game", game], record)
}

#[test]
fn the_record_replays_to_its_result_which_it_gives_from_whites_side() {
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("capped").await;
        page.open(&server).await;
        page.new_game("otrazhenie", "standard", ["random", "random"], "1", 6, "").await;
        page.wait("document.body.dataset.phase === 'over'", "the cap").await;
        let shown = page.text("result").await;
        assert!(shown.contains("ply limit"), "{shown}");
        let record = page.eval("document.getElementById('record').value").await;
        let record = record.as_str().unwrap_or_default().to_owned();
        for tag in ["[MaxPlies \"6\"]", "[White \"random\"]", "[Black \"random\"]"] {
            assert!(record.contains(tag), "{tag} in {record}");
        }
        assert!(record.contains("[Result \"1/2-1/2\"]") && record.ends_with(" 1/2-1/2"));
        let replayed = replay_record(&record);
        assert!(replayed.contains("result 1/2-1/2 reason ply limit"), "{replayed}");

        // Focus, where the first player is Black: White is player 2 here, and
        // the result is from White's side, as PGN tools read it; replay says
        // it from the first player's side. White (the engine) wins by a drop
        // that captures Black's last stack (RULES.md, "Taller than five").
        let fen = "4/6/8/8/3,bwbwb,4/8/6/4 w reserve 0 1 captured 15 15";
        page.new_game("focus", "standard", ["", "alphabeta"], "2", 0, fen).await;
        page.wait("document.body.dataset.phase === 'over'", "White's drop").await;
        let shown = page.text("result").await;
        assert!(shown.starts_with("White wins"), "{shown}");
        let record = page.eval("document.getElementById('record').value").await;
        let record = record.as_str().unwrap_or_default().to_owned();
        for tag in [
            "[White \"alphabeta\"]",
            "[Black \"You\"]",
            "[Result \"1-0\"]",
            "[Termination \"no stack and no reserve\"]",
            "[SetUp \"1\"]",
        ] {
            assert!(record.contains(tag), "{tag} in {record}");
        }
        assert!(record.ends_with("1... @d4 1-0"), "{record}");
        let replayed = replay_record(&record);
        assert!(replayed.contains("result 0-1 reason no stack and no reserve"), "{replayed}");
    });
}

#[test]
fn the_last_move_mark_never_covers_a_kings_letter() {
    // A White king on K2 moves; its letter must stay uncovered.
    let fen = "W:WKK2:BA1";
    let mut referee = Engine::start("hexdraughts", "standard");
    referee.send(&format!("position fen {fen}"));
    assert_ne!(referee.query("moves"), "", "{fen} has moves");
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("king").await;
        page.open(&server).await;
        page.new_game("hexdraughts", "standard", ["", ""], "1", 0, fen).await;
        page.wait("document.body.dataset.phase === 'human'", "the position").await;
        click_first_move(&mut page, &mut referee, "K2").await;
        page.wait("document.querySelectorAll('#moves [data-move]').length === 1", "the move").await;
        // Nothing drawn after the king's letter overlaps it.
        let over = page
            .eval(
                "(() => { const letter = [...document.querySelectorAll('#pieces text')].find(t => t.textContent === 'K'); \
                 if (!letter) return 'no letter'; const a = letter.getBoundingClientRect(); \
                 const later = [...document.querySelectorAll('#board *')].filter(e => \
                   letter.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING && !letter.contains(e) && e.getBoundingClientRect); \
                 return later.filter(e => { const b = e.getBoundingClientRect(); \
                   return b.width > 0 && b.left < a.right && b.right > a.left && b.top < a.bottom && b.bottom > a.top; }) \
                   .map(e => e.outerHTML.slice(0, 80)); })()",
            )
            .await;
        assert_eq!(over, json!([]));
    });
}

#[test]
fn hexdraughts_shows_field_numbers_and_three_field_colours() {
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("hexfields").await;
        page.open(&server).await;
        page.new_game("hexdraughts", "standard", ["", ""], "1", 0, "").await;
        page.wait("document.body.dataset.phase === 'human'", "the board").await;
        let fills = page
            .eval("new Set([...document.querySelectorAll('#cells polygon:not(.mark)')].map(p => p.getAttribute('fill'))).size")
            .await;
        assert_eq!(fills, json!(3));
        // Every field shows its number inside it.
        let unnumbered = page
            .eval(
                "[...document.querySelectorAll('#cells [data-cell]')].filter(g => { \
                 const r = g.getBoundingClientRect(); const n = g.dataset.cell.slice(1); \
                 return ![...document.querySelectorAll('#labels .field')].some(t => { \
                 const b = t.getBoundingClientRect(); const x = b.left + b.width / 2, y = b.top + b.height / 2; \
                 return t.textContent === n && x > r.left && x < r.right && y > r.top && y < r.bottom; }); }).length",
            )
            .await;
        assert_eq!(unnumbered, json!(0));
        page.screenshot_view(&screenshot_dir().join("hexdraughts-fields.png")).await;
    });
}

#[test]
fn the_page_has_an_icon_colours_the_result_by_what_it_means_to_the_person_and_keeps_it_on_reload() {
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("result").await;
        page.open(&server).await;
        let icon = page
            .eval("fetch('/favicon.ico').then(r => r.status + ' ' + r.headers.get('content-type'))")
            .await;
        assert_eq!(icon, json!("200 image/svg+xml"));
        // Won: Black has nothing left.
        page.new_game("otrazhenie", "standard", ["", "alphabeta"], "1", 0, "W7/8/8/8/8/8/8/8 b")
            .await;
        page.wait("document.body.dataset.phase === 'over'", "the end").await;
        assert_eq!(page.eval("document.getElementById('banner').className").await, json!("won"));
        let won = page.eval("getComputedStyle(document.getElementById('result')).color").await;
        // Lost: the person resigns.
        page.new_game("otrazhenie", "standard", ["", "alphabeta"], "1", 0, "").await;
        page.wait("document.body.dataset.phase === 'human'", "the game").await;
        let movable = page.eval("document.querySelector('[data-cell].start').dataset.cell").await;
        let movable = movable.as_str().expect("a piece that may move").to_owned();
        page.click("#resign").await;
        page.click("#resign").await;
        page.wait("document.body.dataset.phase === 'over'", "the resignation").await;
        assert_eq!(page.eval("document.getElementById('banner').className").await, json!("lost"));
        let lost = page.eval("getComputedStyle(document.getElementById('result')).color").await;
        assert_ne!(won, lost);
        let (r, g) = rgb(&lost);
        assert!(r > g, "a loss is not shown in green: {lost}");
        assert!(page.text("why").await.contains("White resigned"));
        page.screenshot_view(&screenshot_dir().join("resigned.png")).await;
        // A reload brings back the ended game, not a live one.
        let result = page.text("result").await;
        page.reload("['human', 'over'].includes(document.body?.dataset.phase)").await;
        assert_eq!(page.phase().await, "over");
        assert_eq!(page.eval("document.getElementById('banner').hidden").await, json!(false));
        assert_eq!(page.text("result").await, result);
        assert!(page.text("why").await.contains("White resigned"), "{}", page.text("why").await);
        page.click_cell(&movable).await;
        let marks = page.eval("document.querySelectorAll('#targets circle, [data-cell].start, [data-cell].selected').length").await;
        assert_eq!(marks, json!(0), "the board of an ended game is inert");
    });
}

/// The red and green of a CSS `rgb(r, g, b)`.
fn rgb(colour: &Value) -> (u32, u32) {
    let text = colour.as_str().unwrap_or_default();
    let numbers: Vec<u32> = text
        .trim_start_matches("rgb(")
        .trim_end_matches(')')
        .split(',')
        .filter_map(|n| n.trim().parse().ok())
        .collect();
    (numbers[0], numbers[1])
}

// ----- every move by clicks: the property test -----

/// A small deterministic generator (a 64-bit LCG), so the positions are the
/// same on every run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 =
            self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n
    }
}

/// The position texts of `game`'s start and after 10, 40 and 100 random
/// plies (those reached before the game ends).
fn sample_positions(game: &str, variant: &str, seed: u64) -> Vec<(usize, String)> {
    let mut referee = Engine::start(game, variant);
    let mut random = Lcg(seed);
    let mut moves: Vec<String> = Vec::new();
    let mut found = Vec::new();
    for ply in 0..=100 {
        referee.send(&format!("position startpos moves {}", moves.join(" ")));
        if [0, 10, 40, 100].contains(&ply) {
            found.push((ply, referee.query("fen")));
        }
        let legal = referee.query("moves");
        let legal: Vec<&str> = legal.split_whitespace().collect();
        if legal.is_empty() {
            break;
        }
        moves.push(legal[random.below(legal.len())].to_owned());
    }
    found
}

/// Makes every legal move of the page's position by clicks at cell centres
/// (and on the chooser, when moves share a path), catching what the page
/// would send instead of sending it; the moves that could not be made.
async fn unreachable_moves(page: &mut Page, moves: &[Value]) -> Vec<String> {
    // Where each cell (and the mover's reserve) is on the screen.
    let points = page
        .eval(
            "(() => { window.scrollTo(0, 0); const out = {}; \
             for (const g of document.querySelectorAll('#cells [data-cell]')) { \
               const poly = g.querySelector('polygon'); const pts = [...poly.points]; \
               const x = pts.reduce((s, p) => s + p.x, 0) / pts.length; \
               const y = pts.reduce((s, p) => s + p.y, 0) / pts.length; \
               const p = new DOMPoint(x, y).matrixTransform(poly.getScreenCTM()); \
               out[g.dataset.cell] = [p.x, p.y]; } \
             const r = document.querySelector('.bar[data-cell=\"reserve\"]')?.getBoundingClientRect(); \
             if (r) out.reserve = [r.x + r.width / 2, r.y + r.height / 2]; \
             ws.send = (text) => { window.sent = JSON.parse(text); }; return out; })()",
        )
        .await;
    // Back to the position, as if the move had not been sent.
    const RESET: &str = "window.sent = null; setPhase('human'); cancelSelection();";
    page.eval(RESET).await;
    let mut missed = Vec::new();
    for m in moves {
        let text = m["move"].as_str().expect("a move").to_owned();
        let path: Vec<&str> =
            m["path"].as_array().expect("a path").iter().filter_map(Value::as_str).collect();
        if path.is_empty() {
            page.click(&format!("#passes [data-move='{text}']")).await;
        }
        for cell in &path {
            let (Some(x), Some(y)) = (points[cell][0].as_f64(), points[cell][1].as_f64()) else {
                panic!("no point for {cell}");
            };
            for kind in ["mousePressed", "mouseReleased"] {
                let params =
                    json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1});
                page.call("Input.dispatchMouseEvent", params).await;
            }
        }
        // What the page sent, or where the chooser offers the move; then
        // back to the position.
        let check = format!(
            "(() => {{ const sent = window.sent; const b = document.querySelector(\
             '#chooser:not([hidden]) [data-move=\"' + {text:?} + '\"]'); const r = b?.getBoundingClientRect(); \
             if (sent || !b) {{ {RESET} }} \
             return sent ? sent.move : b ? [r.x + r.width / 2, r.y + r.height / 2] : null; }})()"
        );
        let answer = page.eval(&check).await;
        let sent = match answer {
            Value::String(sent) => Some(sent),
            Value::Array(point) => {
                let (x, y) = (point[0].as_f64().unwrap_or(0.0), point[1].as_f64().unwrap_or(0.0));
                page.click_at(x, y).await;
                let sent = page
                    .eval(&format!(
                        "(() => {{ const s = window.sent; {RESET} return s?.move ?? null; }})()"
                    ))
                    .await;
                sent.as_str().map(str::to_owned)
            }
            _ => None,
        };
        if sent.as_deref() != Some(text.as_str()) {
            missed.push(format!("{text} (path {path:?}; the page sent {sent:?})"));
        }
    }
    // The page talks to the server again.
    page.eval("delete ws.send").await;
    missed
}

#[test]
fn every_legal_move_of_sampled_positions_is_made_by_clicks() {
    let games = serve_support::games();
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("every-move").await;
        page.open(&server).await;
        let mut total = 0;
        for (g, (game, variants)) in games.iter().enumerate() {
            for (v, variant) in variants.iter().enumerate() {
                let seed = 1 + (g * 16 + v) as u64;
                for (ply, fen) in sample_positions(game, variant, seed) {
                    page.new_game(game, variant, ["", ""], "1", 0, &fen).await;
                    page.wait("document.body.dataset.phase === 'human'", "the position").await;
                    let moves = page.eval("state.movepaths.moves").await;
                    let moves = moves.as_array().expect("moves").clone();
                    let mut referee = Engine::start(game, variant);
                    referee.send(&format!("position fen {fen}"));
                    assert_eq!(json!(moves), referee.json("movepaths")["moves"], "{game} {fen}");
                    let missed = unreachable_moves(&mut page, &moves).await;
                    assert!(
                        missed.is_empty(),
                        "{game} {variant} after {ply} plies ({fen}): {} of {} moves not made by clicks: {missed:?}",
                        missed.len(),
                        moves.len()
                    );
                    total += moves.len();
                }
            }
        }
        eprintln!("{total} moves made by clicks");
    });
}

// ----- features, by real input -----

/// The moves shown, the position text shown.
async fn position_text(page: &mut Page) -> String {
    page.eval("document.getElementById('position').value")
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn the_game_is_looked_back_through_by_keys_and_clicks_and_back_to_live() {
    let mut referee = Engine::start("otrazhenie", "standard");
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("navigate").await;
        page.open(&server).await;
        page.new_game("otrazhenie", "standard", ["", ""], "1", 0, "").await;
        page.wait("document.body.dataset.phase === 'human'", "the game").await;
        let mut fens = vec![referee.query("fen")];
        let mut moves: Vec<String> = Vec::new();
        for n in 1..=3 {
            referee.send(&format!("position startpos moves {}", moves.join(" ")));
            moves.push(click_first_move(&mut page, &mut referee, "").await);
            page.wait(
                &format!("document.querySelectorAll('#moves [data-move]').length === {n} && document.body.dataset.phase === 'human'"),
                "the move",
            )
            .await;
            referee.send(&format!("position startpos moves {}", moves.join(" ")));
            fens.push(referee.query("fen"));
        }
        assert_eq!(position_text(&mut page).await, fens[3]);
        page.click("#moves").await;
        page.key("ArrowLeft", "ArrowLeft", 37).await;
        page.wait("document.getElementById('board').classList.contains('history')", "history")
            .await;
        assert_eq!(position_text(&mut page).await, fens[2]);
        assert!(page.text("status").await.contains("Move 2 of 3"));
        assert_eq!(page.eval("!document.getElementById('live').hidden").await, json!(true));
        page.key("Home", "Home", 36).await;
        page.wait(
            &format!("document.getElementById('position').value === {:?}", fens[0]),
            "the start",
        )
        .await;
        page.key("ArrowRight", "ArrowRight", 39).await;
        page.wait(
            &format!("document.getElementById('position').value === {:?}", fens[1]),
            "move 1",
        )
        .await;
        // A click on a move in the list shows the position after it.
        page.click("#moves [data-ply='2']").await;
        page.wait(
            &format!("document.getElementById('position').value === {:?}", fens[2]),
            "move 2",
        )
        .await;
        page.screenshot_view(&screenshot_dir().join("history.png")).await;
        // While looking back the board takes no move; the button returns.
        page.click("#live").await;
        page.wait("!document.getElementById('board').classList.contains('history')", "live").await;
        assert_eq!(position_text(&mut page).await, fens[3]);
        page.key("Home", "Home", 36).await;
        page.key("End", "End", 35).await;
        page.wait("!document.getElementById('board').classList.contains('history')", "End").await;
        assert_eq!(page.phase().await, "human");
    });
}

/// The y of cell `name`'s centre on the screen.
async fn cell_y(page: &mut Page, name: &str) -> f64 {
    page.cell_point(name).await.1
}

#[test]
fn the_board_turns_for_player_2_and_a_rematch_swaps_colours() {
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("flip").await;
        page.open(&server).await;
        page.new_game("otrazhenie", "standard", ["alphabeta", ""], "1", 0, "").await;
        page.wait("document.body.dataset.phase === 'human'", "the person to move").await;
        // A person plays: the analysis is hidden until asked for.
        assert_eq!(page.eval("document.getElementById('analysis-box').open").await, json!(false));
        assert_eq!(page.eval("document.getElementById('evalbar').hidden").await, json!(true));
        // The person plays Black (drawn on top): the board is turned.
        assert!(cell_y(&mut page, "a1").await < cell_y(&mut page, "a8").await);
        let bar = |id: &str| format!("document.getElementById('{id}').getBoundingClientRect().top");
        let (own, other) = (page.eval(&bar("reserve-2")).await, page.eval(&bar("reserve-1")).await);
        assert!(own.as_f64() > other.as_f64(), "the person's bar is below the board");
        page.screenshot_view(&screenshot_dir().join("flipped.png")).await;
        page.click("#flip").await;
        assert!(cell_y(&mut page, "a1").await > cell_y(&mut page, "a8").await);
        page.click("#flip").await;
        // Resign, then a rematch with colours swapped: the person is White.
        page.click("#resign").await;
        page.click("#resign").await;
        page.wait("document.body.dataset.phase === 'over'", "the resignation").await;
        assert!(page.text("why").await.contains("Black resigned"));
        page.click("#rematch").await;
        page.wait(
            "document.body.dataset.phase === 'human' && document.getElementById('title').innerText.includes('White (you)')",
            "the rematch",
        )
        .await;
        assert!(cell_y(&mut page, "a1").await > cell_y(&mut page, "a8").await);
        assert_eq!(page.moves().await, Vec::<String>::new());
    });
}

#[test]
fn a_move_is_made_by_drag_and_drop_and_by_keys() {
    let mut referee = Engine::start("stykovka", "standard");
    let paths = referee.json("movepaths");
    let first = paths["moves"][0].clone();
    let path: Vec<String> = serde_json::from_value(first["path"].clone()).expect("a path");
    let text = first["move"].as_str().expect("a move").to_owned();
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("drag").await;
        page.open(&server).await;
        page.new_game("stykovka", "standard", ["", ""], "1", 0, "").await;
        page.wait("document.body.dataset.phase === 'human'", "the game").await;
        // Drag: press on the piece, move with the button held, release on the target.
        drag(&mut page, "left", &path[0], &path[1], 0).await;
        page.wait(
            "document.querySelectorAll('#moves [data-move]').length === 1",
            "the dragged move",
        )
        .await;
        assert_eq!(page.moves().await, vec![text.clone()]);
        page.wait("document.body.dataset.phase === 'human'", "Black to move").await;
        // Keys: from a focused cell, arrows to a piece, Enter, arrows to its target, Enter.
        referee.send(&format!("position startpos moves {text}"));
        let reply = referee.json("movepaths")["moves"][0].clone();
        let reply_path: Vec<String> =
            serde_json::from_value(reply["path"].clone()).expect("a path");
        let square = |name: &str| {
            let b = name.as_bytes();
            (i32::from(b[0] - b'a'), i32::from(b[1] - b'1'))
        };
        page.eval("document.querySelector('[data-cell=\"a1\"]').focus()").await;
        let mut at = square("a1");
        for cell in &reply_path {
            let to = square(cell);
            while at.0 != to.0 {
                let (key, code) = if to.0 > at.0 { ("ArrowRight", 39) } else { ("ArrowLeft", 37) };
                page.key(key, key, code).await;
                at.0 += (to.0 - at.0).signum();
            }
            while at.1 != to.1 {
                let (key, code) = if to.1 > at.1 { ("ArrowUp", 38) } else { ("ArrowDown", 40) };
                page.key(key, key, code).await;
                at.1 += (to.1 - at.1).signum();
            }
            let focused = page.eval("document.activeElement?.dataset?.cell ?? null").await;
            assert_eq!(focused, json!(cell));
            page.key("Enter", "Enter", 13).await;
        }
        page.wait("document.querySelectorAll('#moves [data-move]').length === 2", "the keyed move")
            .await;
        assert_eq!(page.moves().await[1], reply["move"].as_str().expect("a move"));
    });
}

#[test]
fn a_person_whose_clock_runs_out_loses_on_time() {
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("clock").await;
        page.open(&server).await;
        // 0.02 minutes (1.2 s) each, no increment.
        page.eval("document.getElementById('clock-base').value = '0.02'").await;
        page.new_game("otrazhenie", "standard", ["", "alphabeta"], "1", 0, "").await;
        page.wait("document.body.dataset.phase === 'human'", "the game").await;
        let clocks = page.eval("document.querySelectorAll('.bar .clock').length").await;
        assert_eq!(clocks, json!(2));
        page.wait("document.body.dataset.phase === 'over'", "the flag").await;
        assert!(
            page.text("why").await.contains("White ran out of time"),
            "{}",
            page.text("why").await
        );
        assert_eq!(page.eval("document.getElementById('banner').className").await, json!("lost"));
        let record = page.eval("document.getElementById('record').value").await;
        assert!(
            record.as_str().unwrap_or("").contains("[Termination \"time forfeit\"]"),
            "{record}"
        );
        page.screenshot_view(&screenshot_dir().join("flag.png")).await;
    });
}

/// The wait before each engine's search, chosen in the Speed list.
async fn engine_delay(page: &mut Page, ms: u32) {
    let script = format!(
        "(() => {{ const s = document.getElementById('speed'); s.value = '{ms}'; \
         s.dispatchEvent(new Event('change')); }})()"
    );
    page.eval(&script).await;
}

/// Random against random in `game`, half a second between moves, paused
/// after two moves or more.
async fn watch_and_pause(page: &mut Page, game: &str) {
    engine_delay(page, 500).await;
    page.new_game(game, "standard", ["random", "random"], "1", 0, "").await;
    page.wait("document.querySelectorAll('#moves [data-move]').length >= 2", "moves").await;
    page.click("#pause").await;
    page.wait(
        "document.getElementById('pause').innerText === 'Resume' && !document.getElementById('step').disabled",
        "the pause",
    )
    .await;
}

#[test]
fn engine_against_engine_pauses_steps_and_goes_on_after_a_reload() {
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("pause").await;
        page.open(&server).await;
        // Half a second between moves, so that the game lasts.
        watch_and_pause(&mut page, "hexdraughts").await;
        // Analysis is shown for engines: an evaluation bar and a graph, each
        // naming the side it favours.
        page.wait("!document.getElementById('evalbar').hidden && document.getElementById('evalbar').title.startsWith('Evaluation: ')", "the evaluation bar").await;
        assert_eq!(page.text("graph-top").await, "↑ White better");
        assert_eq!(page.text("graph-bottom").await, "↓ Black better");
        page.wait("document.querySelectorAll('#graph polyline').length === 1", "the score graph")
            .await;
        page.screenshot_view(&screenshot_dir().join("engines.png")).await;
        let held = page.moves().await.len();
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert_eq!(page.moves().await.len(), held, "no move while paused");
        page.click("#step").await;
        page.wait(
            &format!("document.querySelectorAll('#moves [data-move]').length === {} && !document.getElementById('step').disabled", held + 1),
            "one step",
        )
        .await;
        page.click("#pause").await;
        page.wait(
            &format!("document.querySelectorAll('#moves [data-move]').length > {}", held + 2),
            "play again",
        )
        .await;
        // A reload: the moves are kept and the engines play on, as fast as
        // they were watched.
        let before = page.moves().await;
        page.reload(
            "['thinking', 'over'].includes(document.body?.dataset.phase) \
             && document.querySelectorAll('#moves [data-move]').length > 0",
        )
        .await;
        let after = page.moves().await;
        assert!(after.starts_with(&before), "{before:?} then {after:?}");
        assert_eq!(page.eval("document.getElementById('speed').value").await, json!("500"));
        page.wait(
            &format!(
                "document.querySelectorAll('#moves [data-move]').length > {}",
                after.len() + 1
            ),
            "the engines to play on",
        )
        .await;
    });
}

#[test]
fn rules_from_the_engine_a_zone_legend_and_readable_stacks() {
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("rules").await;
        page.open(&server).await;
        page.new_game("city", "16c", ["", ""], "1", 0, "").await;
        page.wait("document.body.dataset.phase === 'human'", "the game").await;
        page.click("#open-rules").await;
        page.wait("document.getElementById('rules-dialog').open", "the rules").await;
        let rules = page.text("rules-text").await;
        assert!(rules.contains("bazaar") && rules.contains("compulsory"), "{rules}");
        let legend =
            page.eval("[...document.querySelectorAll('#legend span')].map(s => s.innerText)").await;
        assert_eq!(legend, json!(["bazaar", "outside", "town", "wall"]));
        page.screenshot_view(&screenshot_dir().join("rules.png")).await;
        page.click("#close-rules").await;
        // Each square names its zone.
        let title =
            page.eval("document.querySelector('[data-cell=\"e5\"] title').textContent").await;
        assert_eq!(title, json!("e5 (bazaar)"));
        // Focus: a stack's make-up, bottom to top, is the square's tooltip and
        // is told when the square has the keyboard's focus.
        page.new_game("focus", "standard", ["", ""], "1", 0, "").await;
        page.wait("document.body.dataset.phase === 'human'", "Focus").await;
        let mut referee = Engine::start("focus", "standard");
        let played = click_first_move(&mut page, &mut referee, "").await;
        page.wait("document.querySelectorAll('#moves [data-move]').length === 1", "the move").await;
        let to = played.split('-').nth(1).expect("a stack move").to_owned();
        page.click_cell(&to).await;
        let focused = page.eval("document.activeElement?.dataset?.cell ?? null").await;
        assert_eq!(focused, json!(to));
        let told = page.text("cellinfo").await;
        assert!(told.starts_with(&format!("{to}: a stack of 2, top to bottom: ")), "{told}");
        let rules = page.eval("rules").await;
        assert!(rules.as_str().unwrap_or("").contains("Sackson"), "{rules}");
    });
}

/// Each game's rules page (`RULES.md`), what its engine answers to `query rules`.
fn rules_page(game: &str) -> String {
    let path = format!("{}/../crates/{game}/RULES.md", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The fenced blocks of a Markdown page: (info string, text).
fn fenced_blocks(page: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut open: Option<(String, Vec<&str>)> = None;
    for line in page.lines() {
        let fence = line.strip_prefix("```");
        if let Some((info, body)) = &mut open {
            if fence == Some("") {
                blocks.push((std::mem::take(info), body.join("\n")));
                open = None;
            } else {
                body.push(line);
            }
        } else if let Some(info) = fence {
            open = Some((info.trim().to_owned(), Vec::new()));
        }
    }
    blocks
}

/// What the rules dialog shows, and whether it fits the screen: the dialog
/// and its Close button inside the viewport, nothing wider than the dialog,
/// its text scrolling to its last line.
const RULES_SHOWN: &str = "(() => { const d = document.getElementById('rules-dialog'); \
    const t = document.getElementById('rules-text'); const W = innerWidth, H = innerHeight; \
    const inside = (r) => r.left >= 0 && r.top >= 0 && r.right <= W + 0.5 && r.bottom <= H + 0.5; \
    t.scrollTop = t.scrollHeight; const last = t.lastElementChild.getBoundingClientRect(); \
    const reached = last.bottom <= t.getBoundingClientRect().bottom + 1; t.scrollTop = 0; \
    return { title: document.getElementById('rules-title').textContent, \
      headings: [...t.querySelectorAll('h3, h4, h5, h6')].map((h) => h.textContent), \
      items: t.querySelectorAll('li').length, tables: t.querySelectorAll('table').length, \
      drawings: [...t.querySelectorAll(':scope > pre')].map((p) => p.textContent), \
      examples: [...t.querySelectorAll('figure.example pre')].map((p) => p.textContent), \
      strong: t.querySelectorAll('strong').length, code: t.querySelectorAll('code').length, \
      text: [...t.querySelectorAll(':scope > :not(pre, figure)')].map((e) => e.innerText).join('\\n'), \
      fits: inside(d.getBoundingClientRect()) && inside(document.getElementById('close-rules').getBoundingClientRect()), \
      wide: d.scrollWidth > d.clientWidth + 1, scrolls: t.scrollHeight > t.clientHeight, reached }; })()";

/// target/screenshots/rules-<game>-<screen>-<light|dark>.png.
#[test]
fn the_rules_dialog_shows_each_games_rules_page_and_fits_the_screen() {
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("rules-page").await;
        page.open(&server).await;
        for (game, variants) in serve_support::games() {
            let source = rules_page(&game);
            // The engine sends the page itself.
            let mut referee = Engine::start(&game, &variants[0]);
            let sent: String = serde_json::from_value(referee.json("rules")).expect("a string");
            assert_eq!(sent, source, "{game}: query rules is not RULES.md");

            page.screen(1366, 768, false).await;
            page.new_game(&game, &variants[0], ["", ""], "1", 0, "").await;
            page.wait("document.body.dataset.phase === 'human'", &game).await;
            page.click("#open-rules").await;
            page.wait("document.getElementById('rules-dialog').open", "the rules").await;
            // The text has the focus: keys scroll it at once.
            let focused = page.eval("document.activeElement.id").await;
            assert_eq!(focused, json!("rules-text"), "{game}");
            for (width, height, mobile, screen) in
                [(1366, 768, false, "laptop"), (390, 844, true, "phone")]
            {
                page.screen(width, height, mobile).await;
                for scheme in ["light", "dark"] {
                    let media =
                        json!({"features": [{"name": "prefers-color-scheme", "value": scheme}]});
                    page.call("Emulation.setEmulatedMedia", media).await;
                    let shown = page.eval(RULES_SHOWN).await;
                    let at = format!("{game} at {screen}, {scheme}");
                    // The page's title names the dialog; its sections are headings.
                    let title = source.lines().next().and_then(|l| l.strip_prefix("# "));
                    assert_eq!(shown["title"].as_str(), title, "{at}");
                    let headings = shown["headings"].to_string();
                    assert!(headings.contains("\"Board and start\""), "{at}: {headings}");
                    assert!(shown["items"].as_u64() > Some(0), "{at}: no list");
                    assert!(shown["strong"].as_u64() > Some(0) && shown["code"].as_u64() > Some(0));
                    // The drawings as they are, the tested examples too.
                    let blocks = fenced_blocks(&source);
                    let drawings: Vec<&str> = blocks
                        .iter()
                        .filter(|(i, _)| i == "text")
                        .map(|(_, b)| b.as_str())
                        .collect();
                    let examples: Vec<&str> = blocks
                        .iter()
                        .filter(|(i, _)| i == "text,example")
                        .map(|(_, b)| b.as_str())
                        .collect();
                    assert!(!drawings.is_empty() && !examples.is_empty(), "{game}: {blocks:?}");
                    assert_eq!(shown["drawings"], json!(drawings), "{at}");
                    assert_eq!(shown["examples"], json!(examples), "{at}");
                    // No Markdown is left as it was written.
                    let text = shown["text"].as_str().unwrap_or_default();
                    for raw in ["**", "|---", "| ---", "```", "\n#"] {
                        assert!(!text.contains(raw), "{at}: {raw:?} shown as written");
                    }
                    assert_eq!(shown["fits"], json!(true), "{at}: the dialog leaves the screen");
                    assert_eq!(shown["wide"], json!(false), "{at}: wider than the dialog");
                    assert_eq!(shown["scrolls"], json!(true), "{at}: a whole page in view?");
                    assert_eq!(shown["reached"], json!(true), "{at}: the end is out of reach");
                    let parts = json!([
                        ["heading", "#rules-text h4"],
                        ["paragraph", "#rules-text p"],
                        ["code", "#rules-text code"],
                        ["drawing", "#rules-text > pre"],
                        ["example", "#rules-text figure pre"],
                        ["example label", "#rules-text figcaption"],
                        ["list", "#rules-text li"],
                    ]);
                    let (low, _) = low_contrasts(&mut page, &parts).await;
                    assert!(low.is_empty(), "{at}: hard to read: {low:?}");
                    let name = format!("rules-{game}-{screen}-{scheme}.png");
                    page.screenshot_view(&screenshot_dir().join(name)).await;
                    // Further down: a tested example, and a list.
                    for (part, selector) in [("example", "figure.example"), ("list", "ol, ul")] {
                        let script = format!(
                            "document.querySelector('#rules-text').querySelector({selector:?})\
                             .scrollIntoView({{block: 'center'}})"
                        );
                        page.eval(&script).await;
                        let name = format!("rules-{game}-{screen}-{scheme}-{part}.png");
                        page.screenshot_view(&screenshot_dir().join(name)).await;
                    }
                    page.eval("document.getElementById('rules-text').scrollTop = 0").await;
                }
            }
            page.call("Emulation.setEmulatedMedia", json!({"features": []})).await;
            page.screen(1366, 768, false).await;
            page.click("#close-rules").await;
        }
    });
}

/// The rules renderer makes its own elements, never HTML from the engine's
/// text: tags stay text, links stay text, tables and blocks come out whole.
#[test]
fn the_rules_renderer_builds_no_markup_from_the_engines_text() {
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("rules-markdown").await;
        page.open(&server).await;
        let source = "# Title\n\n<img src=x onerror=\"window.pwned = 1\"> **bold *and* more** \
            and `<b>code</b>`\n<script>window.pwned = 2</script>\n\n\
            | a | b |\n|---|:-:|\n| `x\\|y` | [a link](javascript:window.pwned=3) |\n| c |\n\n\
            3. three\n   more of three\n4. four\n\n- one\n- two\n\n\
            ```text,example\n<i>as it is</i>\n```\n\n> quoted **text**\n\n---\n\nlast";
        let script = format!(
            "(() => {{ const d = document.createElement('div'); d.append(markdown({})); \
             return {{ elements: [...d.querySelectorAll('*')].map((e) => e.tagName.toLowerCase()), \
               strong: [...d.querySelectorAll('strong')].map((e) => e.textContent), \
               em: d.querySelector('em')?.textContent, \
               code: [...d.querySelectorAll('code')].map((e) => e.textContent), \
               cells: [...d.querySelectorAll('td, th')].map((e) => e.textContent), \
               centred: d.querySelector('th:nth-child(2)').style.textAlign, \
               ol: [d.querySelector('ol').start, ...[...d.querySelectorAll('ol li')].map((e) => e.textContent)], \
               ul: [...d.querySelectorAll('ul li')].map((e) => e.textContent), \
               pre: d.querySelector('figure.example pre').textContent, \
               first: d.querySelector('p').textContent, pwned: window.pwned ?? null }}; }})()",
            json!(source)
        );
        let shown = page.eval(&script).await;
        assert_eq!(shown["pwned"], json!(null), "{shown}");
        let elements = shown["elements"].to_string();
        for tag in ["img", "script", "a", "b", "i"] {
            assert!(!elements.contains(&format!("\"{tag}\"")), "a <{tag}> was made: {elements}");
        }
        assert_eq!(shown["strong"], json!(["bold and more", "text"]));
        assert_eq!(shown["em"], json!("and"));
        assert_eq!(shown["code"], json!(["<b>code</b>", "x|y"]));
        assert_eq!(shown["cells"], json!(["a", "b", "x|y", "a link", "c", ""]));
        assert_eq!(shown["centred"], json!("center"));
        assert_eq!(shown["ol"], json!([3, "three more of three", "four"]));
        assert_eq!(shown["ul"], json!(["one", "two"]));
        assert_eq!(shown["pre"], json!("<i>as it is</i>"));
        let first = shown["first"].as_str().unwrap_or_default();
        assert!(
            first.starts_with("<img src=x onerror=\"window.pwned = 1\"> bold and more"),
            "{first}"
        );
        assert!(first.ends_with("<script>window.pwned = 2</script>"), "{first}");

        // Text made to keep a renderer busy (long runs a pattern could try
        // again and again, quotes in quotes) is drawn at once.
        let busy = "(() => { const pages = [ \
            '# ' + ' '.repeat(100000) + 'x', '*a '.repeat(40000), '`a'.repeat(50000), \
            '- - '.repeat(30000) + 'x', 'a|b\\n|' + '-'.repeat(100000) + 'x', \
            '[' + 'a'.repeat(100000), '**a '.repeat(30000), '>'.repeat(5000) + ' deep', \
            '#'.repeat(3) + ' a' + '#'.repeat(100000) + 'x', '```' + ' '.repeat(100000) + '`', \
            '['.repeat(100000), '*'.repeat(100000), '![a]('.repeat(30000), '*a**'.repeat(30000), \
            '`'.repeat(1000) + 'a`'.repeat(1000) ]; \
            const start = performance.now(); let quotes = 0; \
            for (const page of pages) { const d = document.createElement('div'); d.append(markdown(page)); \
              quotes = Math.max(quotes, d.querySelectorAll('blockquote').length); } \
            return { ms: performance.now() - start, quotes }; })()";
        let busy = page.eval(busy).await;
        assert!(busy["ms"].as_f64() < Some(3000.0), "{busy}");
        assert_eq!(busy["quotes"], json!(8), "{busy}");
    });
}

/// The WCAG contrast ratio of each element's text (`fill` for SVG text, the
/// edge of a player's disc) against the first opaque background behind it, by name.
/// The parts (`[name, selector]` pairs, as JSON) whose text has a WCAG
/// contrast below 4.5 against its background, and every ratio measured.
async fn low_contrasts(
    page: &mut Page,
    parts: &serde_json::Value,
) -> (Vec<String>, serde_json::Value) {
    let contrasts = page.eval(&format!("{CONTRASTS}({parts})")).await;
    let low = contrasts
        .as_object()
        .expect("ratios")
        .iter()
        .filter(|(_, ratio)| ratio.as_f64().is_none_or(|r| r < 4.5))
        .map(|(name, ratio)| format!("{name} {ratio}"))
        .collect();
    (low, contrasts)
}

const CONTRASTS: &str = "((parts) => { \
    const rgba = (c) => c.match(/[\\d.]+/g).map(Number); \
    const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }; \
      return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); }; \
    const behind = (e) => { for (; e; e = e.parentElement) { const c = rgba(getComputedStyle(e).backgroundColor); \
      if (c.length < 4 || c[3] > 0.5) return c; } return [255, 255, 255]; }; \
    const out = {}; for (const [name, selector] of parts) { const e = document.querySelector(selector); \
      if (!e) { out[name] = 'missing'; continue; } const s = getComputedStyle(e); \
      const ink = rgba(e.classList.contains('disc') ? s.borderTopColor : e instanceof SVGElement ? s.fill : s.color); \
      const [a, b] = [lum(ink), lum(behind(e))].sort((x, y) => y - x); \
      out[name] = Math.round((a + 0.05) / (b + 0.05) * 10) / 10; } return out; })";

#[test]
fn dark_mode_follows_the_system_with_readable_text() {
    let mut referee = Engine::start("adiyukh", "standard");
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("dark").await;
        let media = json!({"features": [{"name": "prefers-color-scheme", "value": "dark"}]});
        page.call("Emulation.setEmulatedMedia", media).await;
        page.open(&server).await;
        page.new_game("adiyukh", "standard", ["", "alphabeta"], "1", 0, "").await;
        page.wait("document.body.dataset.phase === 'human'", "the game").await;
        let background =
            page.eval("getComputedStyle(document.documentElement).backgroundColor").await;
        let (r, g) = rgb(&background);
        assert!(r < 60 && g < 60, "a dark page: {background}");
        click_first_move(&mut page, &mut referee, "").await;
        page.wait(
            "document.querySelectorAll('#moves [data-move]').length === 2 && document.body.dataset.phase === 'human'",
            "the engine's answer",
        )
        .await;
        page.screenshot_view(&screenshot_dir().join("dark.png")).await;
        page.screenshot(&screenshot_dir().join("dark-theme.png")).await;
        page.click("#open-setup").await;
        page.wait("document.getElementById('setup-dialog').open", "the dialog").await;
        page.screenshot_view(&screenshot_dir().join("dark-setup.png")).await;
        let parts = json!([
            ["board coordinates", "#labels text"],
            ["player bar", "#reserve-1 .name"],
            ["other bar", "#reserve-2 .name"],
            ["status", "#status"],
            ["move", "#moves [data-move]"],
            ["last move", "#moves [data-move]:last-of-type"],
            ["move number", "#moves .num"],
            ["record", "#record"],
            ["dark player's disc edge", "#reserve-2 .disc"],
            ["dialog", "#setup-dialog label"],
            ["dialog field", "#setup-dialog select"],
        ]);
        let (low, contrasts) = low_contrasts(&mut page, &parts).await;
        assert!(low.is_empty(), "hard to read in dark mode: {low:?} (all: {contrasts})");
    });
}

#[test]
fn moves_are_animated_unless_the_system_asks_for_less_motion() {
    let mut referee = Engine::start("otrazhenie", "standard");
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("motion").await;
        page.open(&server).await;
        page.new_game("otrazhenie", "standard", ["", ""], "1", 0, "").await;
        page.wait("document.body.dataset.phase === 'human'", "the game").await;
        // Count the animations the page starts.
        page.eval(
            "(() => { window.animations = 0; const original = Element.prototype.animate; \
             Element.prototype.animate = function (...a) { window.animations++; return original.apply(this, a); }; })()",
        )
        .await;
        let first = click_first_move(&mut page, &mut referee, "").await;
        page.wait("document.querySelectorAll('#moves [data-move]').length === 1", "the move").await;
        assert_eq!(page.eval("window.animations").await, json!(1));
        let media = json!({"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]});
        page.call("Emulation.setEmulatedMedia", media).await;
        referee.send(&format!("position startpos moves {first}"));
        click_first_move(&mut page, &mut referee, "").await;
        page.wait("document.querySelectorAll('#moves [data-move]').length === 2", "the reply")
            .await;
        assert_eq!(page.eval("window.animations").await, json!(1), "no animation with less motion");
    });
}

/// The minutes and seconds a clock of the page shows, in ms.
async fn clock_ms(page: &mut Page, side: u8) -> u64 {
    let text = page
        .eval(&format!("document.querySelector('.bar .clock[data-side=\"{side}\"]').innerText"))
        .await;
    let text = text.as_str().unwrap_or_default();
    let (minutes, seconds) = text.split_once(':').unwrap_or_else(|| panic!("a clock: {text:?}"));
    let minutes: f64 = minutes.parse().unwrap_or_else(|_| panic!("a clock: {text:?}"));
    let seconds: f64 = seconds.parse().unwrap_or_else(|_| panic!("a clock: {text:?}"));
    ((minutes * 60.0 + seconds) * 1000.0) as u64
}

#[test]
fn the_time_left_on_the_clocks_survives_a_reload() {
    let mut referee = Engine::start("otrazhenie", "standard");
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("clock-reload").await;
        page.open(&server).await;
        // A minute each.
        page.eval("document.getElementById('clock-base').value = '1'").await;
        page.new_game("otrazhenie", "standard", ["", "alphabeta"], "1", 0, "").await;
        page.wait("document.body.dataset.phase === 'human'", "the game").await;
        // Let White's clock run a few seconds before the move.
        page.wait(
            "document.querySelector('.bar .clock[data-side=\"1\"]').innerText <= '0:56'",
            "White's clock to run",
        )
        .await;
        let first = move_and_answer(&mut page, &mut referee).await;
        let before = clock_ms(&mut page, 1).await;
        assert!(before <= 56_000, "White's clock ran: {before} ms");
        page.reload("document.body?.dataset.phase === 'human'").await;
        assert_eq!(page.moves().await[0], first);
        let after = clock_ms(&mut page, 1).await;
        // The time used is kept (a clock shows whole seconds; the reload
        // itself may take a few).
        assert!(
            after <= before && after + 10_000 >= before,
            "{before} ms before, {after} ms after"
        );
        let black = clock_ms(&mut page, 2).await;
        assert!(black <= 60_000 && black + 10_000 >= 60_000, "Black: {black} ms");
    });
}

/// The person (White, at the start position) makes the first move the
/// referee lists, by clicks, and the engine answers; the person's move.
async fn move_and_answer(page: &mut Page, referee: &mut Engine) -> String {
    let moves = page.moves().await;
    if moves.is_empty() {
        referee.send("position startpos");
    } else {
        referee.send(&format!("position startpos moves {}", moves.join(" ")));
    }
    let played = click_first_move(page, referee, "").await;
    page.wait(
        &format!(
            "document.querySelectorAll('#moves [data-move]').length === {} \
             && document.body.dataset.phase === 'human'",
            moves.len() + 2
        ),
        "the engine's answer",
    )
    .await;
    played
}

#[test]
fn the_sound_toggle_is_remembered_and_sounds_a_move_only_when_on() {
    let mut referee = Engine::start("otrazhenie", "standard");
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("sound").await;
        page.open(&server).await;
        assert_eq!(page.text("sound").await, "Sound off");
        page.new_game("otrazhenie", "standard", ["", "alphabeta"], "1", 0, "").await;
        page.wait("document.body.dataset.phase === 'human'", "the game").await;
        page.click("#sound").await;
        assert_eq!(page.text("sound").await, "Sound on");
        // Remembered over a reload (which resumes the game).
        page.reload("document.body?.dataset.phase === 'human'").await;
        assert_eq!(page.text("sound").await, "Sound on");
        assert_eq!(
            page.eval("document.getElementById('sound').getAttribute('aria-pressed')").await,
            json!("true")
        );
        // Count the tones the page starts.
        page.eval(
            "(() => { window.tones = 0; const original = OscillatorNode.prototype.start; \
             OscillatorNode.prototype.start = function (...a) { window.tones++; return original.apply(this, a); }; })()",
        )
        .await;
        move_and_answer(&mut page, &mut referee).await;
        assert_eq!(page.eval("window.tones").await, json!(2), "a tone for each move");
        page.click("#sound").await;
        assert_eq!(page.text("sound").await, "Sound off");
        move_and_answer(&mut page, &mut referee).await;
        assert_eq!(page.eval("window.tones").await, json!(2), "no tone with the sound off");
        page.reload("document.body?.dataset.phase === 'human'").await;
        assert_eq!(page.text("sound").await, "Sound off");
    });
}

// ----- the defects of issue 33, each by real input -----

/// Where the page overflows the window at this size: the document's extra
/// height and width, the aside's extra width, and the chooser's parts outside.
const OVERFLOW: &str = "(() => { const d = document.documentElement, a = document.querySelector('aside'); \
    const c = document.getElementById('chooser').getBoundingClientRect(); \
    return {taller: d.scrollHeight - innerHeight, wider: d.scrollWidth - d.clientWidth, \
      aside_wider: a.scrollWidth - a.clientWidth, \
      chooser_out: document.getElementById('chooser').hidden ? 0 : \
        Math.max(0, -c.top, -c.left, c.bottom - innerHeight, c.right - innerWidth)}; })()";

#[test]
fn the_page_fits_the_window_with_the_chooser_and_the_analysis_in_view() {
    // White's h2-h1 is two moves (a plain one and a capture into d5).
    let fen = "B7/8/8/3B4/8/8/7W/W7 w";
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("fit").await;
        for (width, height, mobile) in
            [(1366, 768, false), (1280, 720, false), (1920, 1080, false), (390, 844, true)]
        {
            page.screen(width, height, mobile).await;
            page.open(&server).await;
            page.new_game("otrazhenie", "standard", ["", ""], "1", 0, fen).await;
            page.wait("document.body.dataset.phase === 'human'", "the position").await;
            page.click_cell("h2").await;
            page.click_cell("h1").await;
            page.wait("!document.getElementById('chooser').hidden", "the chooser").await;
            page.eval("window.scrollTo(0, 0)").await;
            let overflow = page.eval(OVERFLOW).await;
            let at = format!("{width}x{height}: {overflow}");
            if !mobile {
                // A laptop shows the whole page: no scrolling.
                assert!(overflow["taller"].as_f64() <= Some(0.0), "{at}");
            }
            assert_eq!(overflow["chooser_out"], json!(0), "{at}");
            assert!(overflow["wider"].as_f64() <= Some(0.0), "{at}");
            page.screenshot_view(&screenshot_dir().join(format!("fit-{width}x{height}.png"))).await;
            // Analysis open: nothing gets wider than the window.
            page.click("#analysis-box summary").await;
            page.wait("document.getElementById('analysis-box').open", "the analysis").await;
            let overflow = page.eval(OVERFLOW).await;
            let at = format!("{width}x{height} with the analysis: {overflow}");
            assert!(overflow["wider"].as_f64() <= Some(0.0), "{at}");
            assert!(overflow["aside_wider"].as_f64() <= Some(0.0), "{at}");
            if !mobile {
                assert!(overflow["taller"].as_f64() <= Some(0.0), "{at}");
            }
        }
    });
}

#[test]
fn a_refused_new_game_leaves_no_error_bar_behind_and_a_win_in_one_is_one_ply_in_readable_words() {
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("refused").await;
        page.open(&server).await;
        page.new_game("otrazhenie", "standard", ["", ""], "1", 0, "this is no position").await;
        page.wait("!document.getElementById('setup-error').hidden", "the refusal").await;
        page.click("#cancel-setup").await;
        assert_eq!(page.eval("document.getElementById('error').hidden").await, json!(true));
        // White takes Black's last piece: the engine says it wins in 1.
        page.new_game(
            "otrazhenie",
            "standard",
            ["alphabeta", "random"],
            "3",
            0,
            "8/8/8/3B4/8/8/7W/W7 w",
        )
        .await;
        page.wait("document.body.dataset.phase === 'over'", "the capture").await;
        assert_eq!(page.text("evaltext").await, "White wins in 1 ply");
        // Readable on the bar (it was 2.8:1).
        let (low, contrasts) =
            low_contrasts(&mut page, &json!([["evaluation", "#evaltext"]])).await;
        assert!(low.is_empty(), "{contrasts}");
    });
}

/// The moves the tab keeps for its game (its address is the link).
async fn address_moves(page: &mut Page) -> usize {
    // The address is the game's link; the tab keeps the game itself.
    let link = page.eval("new URLSearchParams(location.search).get('g')").await;
    assert!(link.as_str().is_some_and(|id| id.len() == 8), "the link: {link}");
    let moves =
        page.eval("JSON.parse(sessionStorage.getItem('igroteka-game')).game.moves.length").await;
    usize::try_from(moves.as_u64().expect("a count")).expect("a count")
}

#[test]
fn the_address_keeps_up_with_engines_at_full_speed() {
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("address").await;
        page.open(&server).await;
        page.new_game("otrazhenie", "standard", ["random", "random"], "1", 300, "").await;
        page.wait("document.body.dataset.phase === 'over'", "the end").await;
        let played = page.moves().await.len();
        assert!(played > 200, "a long game: {played} plies");
        // The last change is kept within a tenth of a second.
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(address_moves(&mut page).await, played);
        page.reload("document.body?.dataset.phase === 'over'").await;
        assert_eq!(page.moves().await.len(), played);
    });
}

#[test]
fn a_paused_engine_game_stays_paused_at_the_viewed_ply_after_a_reload() {
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("paused-reload").await;
        page.open(&server).await;
        watch_and_pause(&mut page, "otrazhenie").await;
        let held = page.moves().await;
        // A move back.
        page.click("#nav-prev").await;
        let viewed = held.len() - 1;
        let status = format!("Move {viewed} of {}", held.len());
        page.wait(
            &format!("document.getElementById('status').innerText.startsWith({status:?})"),
            "history",
        )
        .await;
        let position = position_text(&mut page).await;
        tokio::time::sleep(Duration::from_millis(600)).await;
        page.reload(
            "document.body?.dataset.phase === 'thinking' \
             && document.querySelectorAll('#moves [data-move]').length > 0",
        )
        .await;
        page.wait(
            &format!("document.getElementById('position').value === {position:?}"),
            "the viewed ply",
        )
        .await;
        assert!(page.text("status").await.starts_with(&status));
        assert_eq!(page.text("pause").await, "Resume");
        tokio::time::sleep(Duration::from_millis(1500)).await;
        assert_eq!(page.moves().await, held, "no move while paused");
        // Resumed, the engines play on.
        page.click("#pause").await;
        page.wait(
            &format!("document.querySelectorAll('#moves [data-move]').length > {}", held.len()),
            "play again",
        )
        .await;
    });
}

/// A stack made by Focus's first move, and a move of Black's that leaves it:
/// White to move with a stack of 2 of its own. The moves and the stack's cell.
fn focus_stack() -> (Vec<String>, String) {
    let mut referee = Engine::start("focus", "standard");
    let paths = referee.json("movepaths");
    let first = paths["moves"].as_array().expect("moves").iter().find_map(|m| {
        let path = m["path"].as_array()?;
        let step = (m["move"].as_str()?.to_owned(), path.get(1)?.as_str()?.to_owned());
        (path.len() == 2).then_some(step)
    });
    let (first, stack) = first.expect("a one-step move");
    referee.send(&format!("position startpos moves {first}"));
    let paths = referee.json("movepaths");
    let reply = paths["moves"].as_array().expect("moves").iter().find_map(|m| {
        let path = m["path"].as_array()?;
        let away = !path.iter().any(|c| c == &json!(stack));
        m["move"].as_str().filter(|_| away).map(str::to_owned)
    });
    (vec![first, reply.expect("a reply away from the stack")], stack)
}

/// The viewport point of the height badge of the stack on `cell`.
async fn badge_point(page: &mut Page, cell: &str) -> (f64, f64) {
    let script = format!(
        "(() => {{ const b = document.querySelector('#pieces [data-at=\"{cell}\"] > circle').getBoundingClientRect(); \
         return [b.x + b.width / 2, b.y + b.height / 2]; }})()"
    );
    let point = page.eval(&script).await;
    (point[0].as_f64().expect("x"), point[1].as_f64().expect("y"))
}

#[test]
fn a_click_on_a_stacks_badge_selects_it_and_every_tap_tells_its_make_up() {
    let (moves, stack) = focus_stack();
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("badge").await;
        page.open(&server).await;
        page.new_game("focus", "standard", ["", ""], "1", 0, "").await;
        page.wait("document.body.dataset.phase === 'human'", "the game").await;
        for (n, played) in moves.iter().enumerate() {
            let path: Vec<&str> = played.split('-').collect();
            for cell in path {
                page.click_cell(cell).await;
            }
            page.wait(
                &format!("document.querySelectorAll('#moves [data-move]').length === {} && document.body.dataset.phase === 'human'", n + 1),
                "the move",
            )
            .await;
        }
        let (x, y) = badge_point(&mut page, &stack).await;
        page.click_at(x, y).await;
        assert_eq!(cells(&mut page, "#cells [data-cell].selected").await, [stack.clone()].into());
        assert!(!cells(&mut page, "#targets [data-target]").await.is_empty(), "its targets");
        page.key("Escape", "Escape", 27).await;
        // A phone: each tap on the stack tells what it is made of.
        page.screen(390, 844, true).await;
        page.call(
            "Emulation.setTouchEmulationEnabled",
            json!({"enabled": true, "maxTouchPoints": 1}),
        )
        .await;
        let told = format!("{stack}: a stack of 2");
        for tap in 1..=3 {
            let (x, y) = page.cell_point(&stack).await;
            for (kind, points) in
                [("touchStart", json!([{"x": x, "y": y}])), ("touchEnd", json!([]))]
            {
                page.call("Input.dispatchTouchEvent", json!({"type": kind, "touchPoints": points}))
                    .await;
            }
            page.wait("document.body.dataset.phase === 'human'", "the tap").await;
            let shown = page.text("cellinfo").await;
            assert!(shown.starts_with(&told), "tap {tap}: {shown:?}");
        }
    });
}

// ----- accessibility (issue 33): keys, names, announcements, contrast -----

/// What has the keyboard's focus: its cell, id or tag, and its accessible
/// name (`aria-label`, else its text).
const FOCUSED: &str = "(() => { const e = document.activeElement; \
    return [e?.dataset?.cell ?? (e?.id || e?.tagName), e?.getAttribute('aria-label') ?? e?.textContent ?? '']; })()";

/// Presses Tab until `done` (JavaScript) holds; how many presses (panics
/// after `most`).
async fn tabs_until(page: &mut Page, done: &str, most: usize) -> usize {
    for presses in 1..=most {
        page.key("Tab", "Tab", 9).await;
        if page.eval(done).await == json!(true) {
            return presses;
        }
    }
    panic!("{done} after {most} Tab presses; the focus is on {}", page.eval(FOCUSED).await);
}

/// `text` typed in a text field, then Enter (a key with its text, so that
/// it submits a form or presses a button).
async fn enter_text(page: &mut Page, text: &str) {
    if !text.is_empty() {
        page.call("Input.insertText", json!({ "text": text })).await;
    }
    for kind in ["keyDown", "keyUp"] {
        let params = json!({"type": kind, "key": "Enter", "code": "Enter", "text": "\r",
            "windowsVirtualKeyCode": 13, "nativeVirtualKeyCode": 13});
        page.call("Input.dispatchKeyEvent", params).await;
    }
}

const ON_THE_BOARD: &str = "!!document.activeElement?.closest?.('#cells [data-cell]')";

#[test]
fn the_board_is_one_tab_stop_and_drops_the_chooser_and_typed_moves_are_made_by_keys() {
    let mut referee = Engine::start("focus", "standard");
    let start = referee.query("fen");
    let fen = start.replacen("/b,", "/1,", 1).replace("reserve 0 0", "reserve 1 0");
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("keys").await;
        page.open(&server).await;
        // Otrazhenie's h2-h1 is two moves: the chooser is the next stop.
        page.new_game(
            "otrazhenie",
            "standard",
            ["", "alphabeta"],
            "1",
            0,
            "B7/8/8/3B4/8/8/7W/W7 w",
        )
        .await;
        page.wait("document.body.dataset.phase === 'human'", "the position").await;
        let presses = tabs_until(&mut page, ON_THE_BOARD, 12).await;
        // The header's five buttons, then the board (once the page has the focus).
        assert!(presses <= 7, "{presses} Tab presses to the board");
        // The stop is a piece that can move, named with its targets.
        let focused = page.eval(FOCUSED).await;
        assert_eq!(focused[0], json!("h2"), "{focused}");
        assert!(focused[1].as_str().is_some_and(|n| n.contains("can move to h3")), "{focused}");
        page.key("Enter", "Enter", 13).await;
        assert_eq!(
            page.eval("document.querySelector('[data-cell=\"h2\"]').getAttribute('aria-selected')")
                .await,
            json!("true")
        );
        page.key("ArrowDown", "ArrowDown", 40).await;
        page.key("Enter", "Enter", 13).await;
        page.wait("!document.getElementById('chooser').hidden", "the chooser").await;
        let focused = page.eval(FOCUSED).await;
        assert_eq!(focused[0], json!("BUTTON"), "the chooser has the focus: {focused}");
        assert!(page.text("announce").await.starts_with("Which move? h2-h1, h2-h1xd5"));
        // Escape returns to the board; one Tab leaves it.
        page.key("Escape", "Escape", 27).await;
        assert_eq!(page.eval(FOCUSED).await[0], json!("h1"));
        page.key("Tab", "Tab", 9).await;
        assert_eq!(page.eval(ON_THE_BOARD).await, json!(false), "one Tab leaves the board");
        // A move typed in the game's notation; a wrong one is told.
        page.click("#move-text").await;
        enter_text(&mut page, "h2-h9").await;
        page.wait("document.getElementById('move-text-note').innerText !== ''", "the refusal")
            .await;
        assert_eq!(page.text("announce").await, "h2-h9 is not a legal move here.");
        page.eval("document.getElementById('move-text').select()").await;
        enter_text(&mut page, "h2-h1xd5").await;
        page.wait(
            "document.querySelectorAll('#moves [data-move]').length === 2 && document.body.dataset.phase === 'human'",
            "the typed move and the answer",
        )
        .await;
        assert_eq!(page.moves().await[0], "h2-h1xd5");
        // The engine's move is told.
        let told = page.text("announce").await;
        assert!(told.starts_with("Black played ") && told.ends_with("White to move."), "{told}");

        // Focus: a drop, by keys alone, from the reserve's button.
        page.new_game("focus", "standard", ["", ""], "1", 0, &fen).await;
        page.wait("document.body.dataset.phase === 'human'", "the pasted position").await;
        page.eval("document.activeElement.blur()").await;
        tabs_until(&mut page, "document.activeElement?.getAttribute('role') === 'button'", 40)
            .await;
        let focused = page.eval(FOCUSED).await;
        assert_eq!(focused[1], json!("Drop from Black's reserve"), "{focused}");
        page.key("Enter", "Enter", 13).await;
        let focused = page.eval(FOCUSED).await;
        assert!(focused[1].as_str().is_some_and(|n| n.ends_with("move here")), "{focused}");
        page.key("Enter", "Enter", 13).await;
        page.wait("document.querySelectorAll('#moves [data-move]').length === 1", "the drop").await;
        let drop = page.moves().await.remove(0);
        assert!(drop.starts_with('@'), "{drop}");
        // A click on a piece that cannot move says where moves start.
        referee.send(&format!("position fen {fen} moves {drop}"));
        let starts: std::collections::BTreeSet<String> = referee.json("movepaths")["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .filter_map(|m| m["path"][0].as_str().map(str::to_owned))
            .collect();
        let stuck = drop.trim_start_matches('@').to_owned();
        assert!(!starts.contains(&stuck), "{stuck} in {starts:?}");
        page.click_cell(&stuck).await;
        let told = page.text("announce").await;
        assert!(told.starts_with(&format!("No move starts on {stuck}. Moves start on ")), "{told}");
    });
}

/// The contrast of each target dot shown with what it is drawn on (its
/// square, or the piece there), and of each last-move mark (its edge or its
/// tint, whichever stands out more) with its square, by name; colours with
/// alpha are laid over what is behind them first.
const MARK_CONTRASTS: &str = "(() => { \
    const rgba = (c) => { const v = c.match(/[\\d.]+/g)?.map(Number) ?? []; return v.length === 3 ? [...v, 1] : v; }; \
    const over = (f, b) => f.length < 4 ? null : [0, 1, 2].map((i) => f[i] * f[3] + b[i] * (1 - f[3])); \
    const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }; \
      return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); }; \
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); }; \
    const square = (name) => rgba(getComputedStyle(document.querySelector('#cells [data-cell=\"' + name + '\"] polygon')).fill); \
    const out = {}; \
    const under = (name) => { const top = document.querySelector('#pieces [data-at=\"' + name + '\"] > g.piece:last-of-type > circle'); \
      return top ? rgba(getComputedStyle(top).fill) : square(name); }; \
    for (const t of document.querySelectorAll('#targets [data-target]')) { const s = under(t.dataset.target); \
      out['target ' + t.dataset.target] = ratio(over(rgba(getComputedStyle(t).fill), s), s); } \
    for (const g of document.querySelectorAll('#cells .last')) { const s = square(g.dataset.cell); \
      const m = getComputedStyle(g.querySelector('.mark')); \
      const parts = [m.fill, m.stroke].map(rgba).filter((c) => c.length === 4 && c[3] > 0).map((c) => ratio(over(c, s), s)); \
      out['last ' + g.dataset.cell] = Math.max(0, ...parts); } \
    return out; })()";

#[test]
fn target_dots_and_last_move_marks_stand_out_by_3_to_1() {
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("marks").await;
        page.open(&server).await;
        for (game, variants) in serve_support::games() {
            let variant = &variants[0];
            let mut referee = Engine::start(&game, variant);
            page.new_game(&game, variant, ["", ""], "1", 0, "").await;
            page.wait("document.body.dataset.phase === 'human'", "the game").await;
            // A move by clicks; then the next mover's pieces, one after another, selected.
            let played = click_first_move(&mut page, &mut referee, "").await;
            page.wait("document.querySelectorAll('#moves [data-move]').length === 1", "the move")
                .await;
            referee.send(&format!("position startpos moves {played}"));
            let starts = cells(&mut page, "#cells .start").await;
            let mut measured = serde_json::Map::new();
            for start in starts.iter().take(6) {
                page.click_cell(start).await;
                let ratios = page.eval(MARK_CONTRASTS).await;
                measured.extend(ratios.as_object().expect("ratios").clone());
            }
            assert!(measured.keys().any(|k| k.starts_with("target")), "{game}: {measured:?}");
            assert!(measured.keys().any(|k| k.starts_with("last")), "{game}: {measured:?}");
            let low: Vec<_> = measured.iter().filter(|(_, r)| r.as_f64() < Some(3.0)).collect();
            assert!(low.is_empty(), "{game}: marks below 3:1: {low:?}");
        }
    });
}

// ----- a screen reader's view: the accessibility tree and the keyboard -----

/// The accessibility tree's nodes of `role` (named `name`, when given).
async fn ax_query(page: &mut Page, role: &str, name: Option<&str>) -> Vec<Value> {
    let document = page.call("DOM.getDocument", json!({"depth": 0})).await;
    let mut params = json!({"nodeId": document["root"]["nodeId"], "role": role});
    if let Some(name) = name {
        params["accessibleName"] = json!(name);
    }
    let found = page.call("Accessibility.queryAXTree", params).await;
    found["nodes"].as_array().cloned().unwrap_or_default()
}

fn ax_name(node: &Value) -> String {
    node["name"]["value"].as_str().unwrap_or_default().to_owned()
}

/// The role and name of what has the keyboard's focus.
async fn ax_focused(page: &mut Page) -> (String, String) {
    let focused =
        page.call("Runtime.evaluate", json!({"expression": "document.activeElement"})).await;
    let params = json!({"objectId": focused["result"]["objectId"], "fetchRelatives": false});
    let tree = page.call("Accessibility.getPartialAXTree", params).await;
    let nodes = tree["nodes"].as_array().cloned().unwrap_or_default();
    let node = nodes.iter().find(|n| n["ignored"] != json!(true)).cloned().unwrap_or_default();
    (node["role"]["value"].as_str().unwrap_or_default().to_owned(), ax_name(&node))
}

/// What the page's status region (its live announcements) says now.
async fn ax_status(page: &mut Page) -> String {
    let Some(status) = ax_query(page, "status", None).await.into_iter().next() else {
        return String::new();
    };
    let children =
        page.call("Accessibility.getChildAXNodes", json!({"id": status["nodeId"]})).await;
    let nodes = children["nodes"].as_array().cloned().unwrap_or_default();
    nodes.iter().map(ax_name).collect::<Vec<_>>().join("")
}

/// Waits (at most 60 s) until the status region says something `wanted`
/// holds for; what it says.
async fn ax_wait_status(page: &mut Page, what: &str, wanted: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let said = ax_status(page).await;
        if wanted(&said) {
            return said;
        }
        assert!(Instant::now() < deadline, "waited for {what}; the status says {said:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Presses Tab until the focus is on the control of `role` named `name`.
async fn ax_tab_to(page: &mut Page, role: &str, name: &str) {
    for _ in 0..60 {
        if ax_focused(page).await == (role.to_owned(), name.to_owned()) {
            return;
        }
        page.key("Tab", "Tab", 9).await;
    }
    panic!("no {role} {name:?} in the Tab order; the focus is on {:?}", ax_focused(page).await);
}

/// A key that types `text` (as a letter typed into a list box chooses).
async fn type_key(page: &mut Page, text: &str) {
    for kind in ["keyDown", "keyUp"] {
        let params = json!({"type": kind, "key": text, "text": text});
        page.call("Input.dispatchKeyEvent", params).await;
    }
}

/// Replaces what the focused field holds by `text` (Ctrl+A, then typing).
async fn retype(page: &mut Page, text: &str) {
    for kind in ["keyDown", "keyUp"] {
        let params = json!({"type": kind, "key": "a", "code": "KeyA", "modifiers": 2,
            "windowsVirtualKeyCode": 65, "commands": ["selectAll"]});
        page.call("Input.dispatchKeyEvent", params).await;
    }
    if text.is_empty() {
        page.key("Backspace", "Backspace", 8).await;
    } else {
        page.call("Input.insertText", json!({ "text": text })).await;
    }
}

/// A new game by keys in the New game dialog: `game` typed into the game
/// list (its first letter), a ply cap and a position text.
async fn new_game_by_keys(page: &mut Page, letter: &str, plies: u32, fen: &str) {
    ax_tab_to(page, "button", "New game").await;
    enter_text(page, "").await;
    ax_tab_to(page, "combobox", "Game").await;
    type_key(page, letter).await;
    ax_tab_to(page, "spinbutton", "Ply cap").await;
    retype(page, &plies.to_string()).await;
    ax_tab_to(page, "textbox", "Position text").await;
    retype(page, fen).await;
    // Enter submits; mid-game it asks first, and Enter confirms.
    enter_text(page, "").await;
    if ax_focused(page).await == ("button".to_owned(), "Abandon it and start".to_owned()) {
        enter_text(page, "").await;
    }
}

/// A square's file and rank from the start of its name (`h2: ...`).
fn square_of(name: &str) -> Option<(i32, i32)> {
    let file = i32::from(*name.as_bytes().first()?) - i32::from(b'a');
    let digits: String = name[1..].chars().take_while(char::is_ascii_digit).collect();
    Some((file, digits.parse().ok()?))
}

/// Moves the focus over the board by arrow keys to the square `to`.
async fn arrow_to(page: &mut Page, to: &str) {
    let goal = square_of(to).expect("a square");
    for _ in 0..40 {
        let (role, name) = ax_focused(page).await;
        assert_eq!(role, "gridcell", "the focus left the board: {name}");
        let at = square_of(&name).expect("a square's name");
        let (key, code) = match (goal.0.cmp(&at.0), goal.1.cmp(&at.1)) {
            (std::cmp::Ordering::Greater, _) => ("ArrowRight", 39),
            (std::cmp::Ordering::Less, _) => ("ArrowLeft", 37),
            (_, std::cmp::Ordering::Greater) => ("ArrowUp", 38),
            (_, std::cmp::Ordering::Less) => ("ArrowDown", 40),
            _ => return,
        };
        page.key(key, key, code).await;
    }
    panic!("no way to {to} by arrows");
}

/// The person's move by keys, as a screen reader user makes it: a square
/// whose name says it "can move to" somewhere, Enter, the first of those
/// squares, Enter (and the first choice if a chooser asks).
async fn move_by_keys(page: &mut Page) {
    let cells = ax_query(page, "gridcell", None).await;
    let names: Vec<String> = cells.iter().map(ax_name).collect();
    let start = names.iter().find(|n| n.contains("can move to ")).expect("a piece that can move");
    let from = start.split([':', ',', ' ']).next().expect("a square").to_owned();
    let to =
        start.split("can move to ").nth(1).expect("targets").split(", ").next().expect("a target");
    let to = to.to_owned();
    arrow_to(page, &from).await;
    page.key("Enter", "Enter", 13).await;
    let (_, selected) = ax_focused(page).await;
    assert!(selected.contains("selected"), "{selected}");
    arrow_to(page, &to).await;
    page.key("Enter", "Enter", 13).await;
    let (role, name) = ax_focused(page).await;
    if role == "button" {
        assert!(ax_status(page).await.starts_with("Which move?"), "{name}");
        enter_text(page, "").await;
    }
}

/// Plays the person's side (named `me`) to the end by keys on the board,
/// reading the engine's moves from the status region; the last thing it said.
async fn play_to_the_end(page: &mut Page, me: &str) -> String {
    let mut said = String::new();
    for _ in 0..40 {
        if !ax_query(page, "button", Some("Rematch")).await.is_empty() {
            return said;
        }
        let before = page.moves().await.len();
        move_by_keys(page).await;
        page.wait(
            &format!(
                "document.querySelectorAll('#moves [data-move]').length >= {} \
                 && ['human', 'over'].includes(document.body.dataset.phase)",
                before + 1
            ),
            "the move and the answer",
        )
        .await;
        said = ax_wait_status(page, "the engine's move or the end", |s| {
            s.contains(" played ")
                && (s.ends_with(&format!("{me} to move.")) || !s.contains(" to move."))
        })
        .await;
        // What was said is what the move list shows.
        let last = page.moves().await.pop().expect("a move");
        assert!(said.contains(&format!(" played {last}.")), "{said:?}, the list ends with {last}");
    }
    panic!("no end after 40 moves");
}

#[test]
fn two_games_are_played_to_the_end_with_the_accessibility_tree_and_the_keyboard() {
    let referee = Engine::start("focus", "standard").query("fen");
    let focus_fen = referee.replacen("/b,", "/1,", 1).replace("reserve 0 0", "reserve 1 0");
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("screen-reader").await;
        page.call("Accessibility.enable", json!({})).await;
        page.open(&server).await;

        // Otrazhenie against the engine (the form's default: a second a
        // move), to a cap of 8 plies. The first move is typed, the others
        // made on the board. Only keys: no click, no selector for a square.
        new_game_by_keys(&mut page, "o", 8, "").await;
        ax_wait_status(&mut page, "the game", |s| s == "White to move.").await;
        let field = ax_query(&mut page, "combobox", Some("Type a move")).await;
        assert_eq!(field.len(), 1, "{field:?}");
        tabs_until(&mut page, "document.activeElement?.id === 'move-text'", 30).await;
        assert_eq!(ax_focused(&mut page).await, ("combobox".to_owned(), "Type a move".to_owned()));
        let cells = ax_query(&mut page, "gridcell", None).await;
        let first = cells.iter().map(ax_name).find(|n| n.contains("can move to ")).expect("a move");
        let from = first.split(':').next().expect("a square").to_owned();
        let to = first
            .split("can move to ")
            .nth(1)
            .expect("targets")
            .split(", ")
            .next()
            .expect("a target");
        enter_text(&mut page, &format!("{from}-{to}")).await;
        ax_wait_status(&mut page, "the engine's answer", |s| s.starts_with("Black played ")).await;
        assert_eq!(page.moves().await[0], format!("{from}-{to}"));
        tabs_until(&mut page, ON_THE_BOARD, 40).await;
        let said = play_to_the_end(&mut page, "White").await;
        assert_eq!(page.moves().await.len(), 8);
        assert!(page.text("result").await.len() > 3);
        assert!(said.contains(&page.text("result").await), "{said}");

        // Focus from a position with a piece in Black's reserve, against the
        // engine, to a cap of 6 plies: the first move is a drop.
        new_game_by_keys(&mut page, "f", 6, &focus_fen).await;
        ax_wait_status(&mut page, "the game", |s| s == "Black to move.").await;
        let drop = ax_query(&mut page, "button", Some("Drop from Black's reserve")).await;
        assert_eq!(drop.len(), 1);
        tabs_until(&mut page, "document.activeElement?.getAttribute('role') === 'button'", 40)
            .await;
        assert_eq!(ax_focused(&mut page).await.1, "Drop from Black's reserve");
        page.key("Enter", "Enter", 13).await;
        let (role, name) = ax_focused(&mut page).await;
        assert_eq!(role, "gridcell");
        assert!(name.ends_with("move here"), "{name}");
        page.key("Enter", "Enter", 13).await;
        ax_wait_status(&mut page, "the engine's answer", |s| s.starts_with("White played ")).await;
        assert!(page.moves().await[0].starts_with('@'));
        let said = play_to_the_end(&mut page, "Black").await;
        assert_eq!(page.moves().await.len(), 6);
        assert!(said.contains(&page.text("result").await), "{said}");
    });
}

// ----- premove, arrows and circles (issue 33, item 4) -----

/// A drag with the mouse's `button` from cell `from` to cell `to` (the same
/// cell: a click), with modifier keys (CDP's bits: 1 Alt, 2 Ctrl, 8 Shift).
async fn drag(page: &mut Page, button: &str, from: &str, to: &str, modifiers: u32) {
    let (x0, y0) = page.cell_point(from).await;
    let (x1, y1) = page.cell_point(to).await;
    let held = if button == "right" { 2 } else { 1 };
    let steps = [("mouseMoved", x0, y0, 0), ("mousePressed", x0, y0, held)]
        .into_iter()
        .chain((1..=4).map(|i| {
            let t = f64::from(i) / 4.0;
            ("mouseMoved", x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, held)
        }))
        .chain([("mouseReleased", x1, y1, 0)]);
    for (kind, x, y, buttons) in steps {
        let params = json!({"type": kind, "x": x, "y": y, "button": button, "buttons": buttons,
            "clickCount": 1, "modifiers": modifiers});
        page.call("Input.dispatchMouseEvent", params).await;
    }
}

#[test]
fn a_premove_is_set_by_clicks_or_a_drag_cancelled_by_a_click_elsewhere_and_played_after_the_answer()
{
    let mut referee = Engine::start("otrazhenie", "standard");
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("premove").await;
        page.open(&server).await;
        // The engine waits 1.5 s before each search: time to set a premove.
        engine_delay(&mut page, 1500).await;
        page.new_game("otrazhenie", "standard", ["", "alphabeta"], "1", 0, "").await;
        page.wait("document.body.dataset.phase === 'human'", "the game").await;
        page.click_cell("a1").await;
        page.click_cell("b1").await;
        page.wait("document.body.dataset.phase === 'thinking'", "the engine to think").await;
        // By clicks; a click elsewhere cancels it.
        page.click_cell("b1").await;
        page.click_cell("b2").await;
        assert_eq!(cells(&mut page, "#cells .premove").await, ["b1".into(), "b2".into()].into());
        page.click_cell("e5").await;
        assert!(cells(&mut page, "#cells .premove").await.is_empty());
        assert_eq!(page.text("announce").await, "Premove cancelled.");
        // By a drag; played once the engine has answered, if legal.
        drag(&mut page, "left", "b1", "b2", 0).await;
        assert_eq!(cells(&mut page, "#cells .premove").await, ["b1".into(), "b2".into()].into());
        assert_eq!(page.phase().await, "thinking", "set while the engine thinks");
        page.wait("document.querySelectorAll('#moves [data-move]').length >= 2", "the answer")
            .await;
        let answer = page.moves().await[1].clone();
        referee.send(&format!("position startpos moves a1-b1 {answer}"));
        let legal = sharing(&mut referee, &["b1", "b2"]).contains("b1-b2");
        if legal {
            page.wait("document.querySelectorAll('#moves [data-move]').length >= 3", "the premove")
                .await;
            assert_eq!(page.moves().await[2], "b1-b2");
        } else {
            page.wait(
                "document.getElementById('announce').innerText.includes('not legal')",
                "the refusal",
            )
            .await;
        }
        assert!(cells(&mut page, "#cells .premove").await.is_empty());
    });
}

/// The arrows and circles drawn on the position shown: colour, from, to.
async fn shapes(page: &mut Page) -> std::collections::BTreeSet<String> {
    let script = "[...document.querySelectorAll('#shapes line, #shapes circle')]\
        .map(s => s.dataset.colour + ' ' + s.dataset.from + '-' + s.dataset.to)";
    serde_json::from_value(page.eval(script).await).expect("shapes")
}

#[test]
fn arrows_and_circles_are_drawn_by_right_drags_in_colours_and_kept_per_position() {
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("shapes").await;
        page.open(&server).await;
        page.new_game("otrazhenie", "standard", ["", ""], "1", 0, "").await;
        page.wait("document.body.dataset.phase === 'human'", "the game").await;
        page.click_cell("a1").await;
        page.click_cell("b1").await;
        page.wait("document.querySelectorAll('#moves [data-move]').length === 1", "the move").await;
        drag(&mut page, "right", "d4", "d6", 0).await;
        drag(&mut page, "right", "e4", "e4", 8).await;
        drag(&mut page, "right", "a3", "c3", 1).await;
        drag(&mut page, "right", "f5", "f5", 2).await;
        let drawn: std::collections::BTreeSet<String> =
            ["green d4-d6", "red e4-e4", "blue a3-c3", "yellow f5-f5"].map(String::from).into();
        assert_eq!(shapes(&mut page).await, drawn);
        page.screenshot(&screenshot_dir().join("arrows.png")).await;
        // The same again rubs one out.
        drag(&mut page, "right", "f5", "f5", 2).await;
        let mut kept = drawn.clone();
        kept.remove("yellow f5-f5");
        assert_eq!(shapes(&mut page).await, kept);
        // Each position keeps its own drawings.
        page.click("#nav-prev").await;
        assert!(shapes(&mut page).await.is_empty());
        drag(&mut page, "right", "h8", "h8", 0).await;
        page.click("#nav-next").await;
        assert_eq!(shapes(&mut page).await, kept);
        page.click("#nav-prev").await;
        assert_eq!(shapes(&mut page).await, ["green h8-h8".to_owned()].into());
        page.click("#nav-last").await;
        // A left click on the board rubs out the position's drawings.
        page.click_cell("e5").await;
        assert!(shapes(&mut page).await.is_empty());
        assert_eq!(page.moves().await.len(), 1, "no move made");
    });
}

// ----- appearance (issue 33, item 6) -----

/// Counts the tones (their pitches) and the move animations (their lengths)
/// the page starts from now on.
const RECORD_SOUNDS_AND_ANIMATIONS: &str = "(() => { window.tones = []; window.animations = []; \
    const start = OscillatorNode.prototype.start; \
    OscillatorNode.prototype.start = function (...a) { window.tones.push(this.frequency.value); return start.apply(this, a); }; \
    const animate = Element.prototype.animate; \
    Element.prototype.animate = function (k, o) { window.animations.push(o.duration); return animate.call(this, k, o); }; })()";

/// The colours the board's squares are drawn in.
const SQUARE_COLOURS: &str = "[...new Set([...document.querySelectorAll('#cells [data-cell] polygon:first-child')]\
    .map(p => getComputedStyle(p).fill))].sort()";

#[test]
fn appearance_themes_coordinates_zen_animation_and_sounds_are_chosen_by_keys_and_kept() {
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("appearance").await;
        page.open(&server).await;
        page.new_game("otrazhenie", "standard", ["", ""], "1", 0, "B7/8/8/3B4/8/8/7W/W7 w").await;
        page.wait("document.body.dataset.phase === 'human'", "the position").await;
        let game_colours = page.eval(SQUARE_COLOURS).await;
        page.click("#open-appearance").await;
        for (field, letter) in
            [("Page", "d"), ("Board", "c"), ("Pieces", "s"), ("Move animation", "s")]
        {
            ax_tab_to(&mut page, "combobox", field).await;
            type_key(&mut page, letter).await;
        }
        ax_tab_to(&mut page, "checkbox", "Coordinates").await;
        page.key(" ", "Space", 32).await;
        page.key("Escape", "Escape", 27).await;
        page.wait("!document.getElementById('appearance-dialog').open", "the dialog to close")
            .await;
        let chosen = "[document.documentElement.dataset.theme, getComputedStyle(document.body).backgroundColor, \
            document.querySelectorAll('#pieces .side').length, \
            [...document.querySelectorAll('#labels text')].filter(t => getComputedStyle(t).display !== 'none').length]";
        let shown = page.eval(chosen).await;
        assert_eq!(shown[0], json!("dark"), "{shown}");
        let (r, g) =
            rgb(&page.eval("getComputedStyle(document.documentElement).backgroundColor").await);
        assert!(r < 60 && g < 60, "a dark page");
        assert_eq!(shown[2], json!(4), "each piece marked by its side's shape: {shown}");
        assert_eq!(shown[3], json!(0), "no coordinates: {shown}");
        assert_eq!(
            page.eval(SQUARE_COLOURS).await,
            json!(["rgb(107, 107, 107)", "rgb(255, 255, 255)"])
        );
        page.screenshot(&screenshot_dir().join("appearance-dark-contrast.png")).await;
        // A capture sounds lower than a move; moves are animated slowly.
        page.click("#sound").await;
        page.eval(RECORD_SOUNDS_AND_ANIMATIONS).await;
        page.click_cell("h2").await;
        page.click_cell("h1").await;
        page.click("#chooser [data-move='h2-h1xd5']").await;
        page.wait("document.querySelectorAll('#moves [data-move]').length === 1", "the capture")
            .await;
        page.click_cell("a8").await;
        page.click_cell("b8").await;
        page.wait("document.querySelectorAll('#moves [data-move]').length === 2", "the move").await;
        assert_eq!(page.eval("window.tones").await, json!([330, 660]));
        assert_eq!(page.eval("window.animations").await, json!([400, 400]));
        // Zen mode: the board alone, by the key z and back.
        page.eval("document.activeElement.blur()").await;
        page.key("z", "KeyZ", 90).await;
        let hidden = "getComputedStyle(document.querySelector('aside')).display === 'none' \
            && getComputedStyle(document.querySelector('header')).display === 'none'";
        assert_eq!(page.eval(hidden).await, json!(true));
        page.screenshot_view(&screenshot_dir().join("zen.png")).await;
        page.key("z", "KeyZ", 90).await;
        assert_eq!(page.eval(hidden).await, json!(false));
        // Kept over a reload; the game's own colours come back when chosen.
        page.reload("document.body?.dataset.phase === 'human'").await;
        assert_eq!(page.eval(chosen).await[0], json!("dark"));
        assert_eq!(page.eval(SQUARE_COLOURS).await.as_array().map(Vec::len), Some(2));
        assert_ne!(page.eval(SQUARE_COLOURS).await, game_colours);
        page.click("#open-appearance").await;
        ax_tab_to(&mut page, "combobox", "Board").await;
        type_key(&mut page, "a").await;
        page.key("Escape", "Escape", 27).await;
        assert_eq!(page.eval(SQUARE_COLOURS).await, game_colours);

        // A person's clock running low: a high tone and words, once.
        page.click("#open-setup").await;
        page.eval("document.getElementById('clock-base').value = '0.1'").await;
        page.new_game("otrazhenie", "standard", ["", "alphabeta"], "1", 0, "").await;
        page.wait("document.body.dataset.phase === 'human'", "the game").await;
        page.eval(RECORD_SOUNDS_AND_ANIMATIONS).await;
        page.wait(
            "document.getElementById('announce').innerText.includes('seconds left')",
            "the warning",
        )
        .await;
        assert!(page.text("announce").await.starts_with("White: "));
        assert_eq!(page.eval("window.tones").await, json!([990]));
        page.wait("document.body.dataset.phase === 'over'", "the flag").await;
        assert_eq!(page.eval("window.tones").await, json!([990]), "told once");
    });
}

// ----- record import and download -----

/// The import dialog opened from the record's section, `text` typed into
/// it over what was there (real key input), and Load pressed.
async fn import_record(page: &mut Page, text: &str) {
    page.eval("document.querySelector('#record').closest('details').open = true").await;
    page.click("#open-import").await;
    page.wait("document.getElementById('import-dialog').open", "the import dialog").await;
    page.click("#import-text").await;
    page.eval("document.getElementById('import-text').select()").await;
    page.call("Input.insertText", json!({ "text": text })).await;
    page.click("#import-load").await;
}

const IMPORT_ERROR: &str = "(() => { const e = document.getElementById('import-error'); \
    return e.hidden ? '' : e.innerText; })()";

#[test]
fn a_pasted_record_is_loaded_a_bad_one_is_named_and_a_download_reimports() {
    let downloads = screenshot_dir().parent().expect("target/").join("downloads-import");
    let _ = std::fs::remove_dir_all(&downloads);
    std::fs::create_dir_all(&downloads).expect("a downloads folder");
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("import").await;
        page.open(&server).await;

        // A refused move: named with its number in the dialog, no game starts.
        import_record(&mut page, "[Game \"otrazhenie\"]\n\n1. a1-a5 h8-h4 2. a5-a9 *").await;
        let abandon = page.eval("document.getElementById('import-abandon').hidden").await;
        assert_eq!(abandon, json!(true), "no game runs");
        page.wait(&format!("{IMPORT_ERROR} !== ''"), "the refusal").await;
        let error = page.eval(IMPORT_ERROR).await;
        assert!(error.as_str().is_some_and(|e| e.starts_with("move 3 (a5-a9) refused")), "{error}");
        assert_eq!(page.phase().await, "idle");
        page.screenshot_view(&screenshot_dir().join("import-refused.png")).await;
        // Too long: refused by the page before it is sent.
        page.eval("document.getElementById('import-text').value = '1. a1-a5 '.repeat(70000)").await;
        page.click("#import-load").await;
        let error = page.eval(IMPORT_ERROR).await;
        assert!(error.as_str().is_some_and(|e| e.contains("longer than 512 KiB")), "{error}");

        // A Cute Games PGN: no [Game] tag (the game chosen is meant), FEN
        // "startpos", annotations and comments.
        let cute = "[Event \"?\"]\n[FEN \"startpos\"]\n[White \"a\"]\n[Black \"b\"]\n\n\
                    1. a1-a5 {+0.10/3} h8-h4?! 2. a5-a1 1/2-1/2\n";
        page.eval("document.getElementById('game').value = 'otrazhenie'").await;
        import_record(&mut page, cute).await;
        page.wait("document.querySelectorAll('#moves [data-move]').length === 3", "the moves")
            .await;
        assert_eq!(page.moves().await, ["a1-a5", "h8-h4", "a5-a1"]);
        assert!(
            !page.eval("document.getElementById('import-dialog').open").await.as_bool().unwrap()
        );
        // Browsed like any game: back to the first move by a click.
        page.click("#moves [data-ply='1']").await;
        page.wait(
            "document.querySelector('#moves .viewed')?.dataset.ply === '1' && !!document.querySelector('#cells .start')",
            "move 1, its moves offered",
        )
        .await;
        page.wait("document.querySelector('#moves .viewed')?.dataset.ply === '1'", "ply 1").await;
        page.screenshot_view(&screenshot_dir().join("import-loaded.png")).await;

        // Downloaded as a file that reads back to the same game.
        let session = std::mem::take(&mut page.session);
        let params =
            json!({"behavior": "allow", "downloadPath": downloads.to_str().expect("a path")});
        page.call("Browser.setDownloadBehavior", params).await;
        page.session = session;
        page.click("#download-record").await;
        let deadline = Instant::now() + Duration::from_secs(30);
        let file = loop {
            let found = std::fs::read_dir(&downloads).expect("the folder").flatten().find(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                name.starts_with("igroteka-otrazhenie-") && name.ends_with(".pgn")
            });
            if let Some(entry) = found {
                break entry.path();
            }
            assert!(Instant::now() < deadline, "no download in {}", downloads.display());
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        let saved = std::fs::read_to_string(&file).expect("the downloaded record");
        let record = page.eval("document.getElementById('record').value").await;
        assert_eq!(saved, format!("{}\n", record.as_str().unwrap_or_default()));
        assert!(replay_record(&saved).starts_with("position "), "{saved}");

        // A fresh game, then the file opened in the dialog: the same moves again.
        page.new_game("otrazhenie", "standard", ["", ""], "1", 0, "").await;
        page.wait("document.querySelectorAll('#moves [data-move]').length === 0", "a new game")
            .await;
        page.wait("document.body.dataset.phase === 'human'", "the new game").await;
        page.eval("document.querySelector('#record').closest('details').open = true").await;
        page.click("#open-import").await;
        // Loading it would end the game that runs: the dialog says so.
        let abandon = page.eval("document.getElementById('import-abandon').hidden").await;
        assert_eq!(abandon, json!(false));
        let document = page.call("DOM.getDocument", json!({})).await;
        let input = page
            .call(
                "DOM.querySelector",
                json!({"nodeId": document["root"]["nodeId"], "selector": "#import-file"}),
            )
            .await;
        let files = json!({"files": [file.to_str().expect("a path")], "nodeId": input["nodeId"]});
        page.call("DOM.setFileInputFiles", files).await;
        page.wait(
            "document.getElementById('import-text').value.includes('[Game \"otrazhenie\"]')",
            "the file's text",
        )
        .await;
        page.click("#import-load").await;
        page.wait("document.querySelectorAll('#moves [data-move]').length === 3", "the moves")
            .await;
        assert_eq!(page.moves().await, ["a1-a5", "h8-h4", "a5-a1"]);
    });
    let _ = std::fs::remove_dir_all(&downloads);
}

// ----- game review -----

/// An Otrazhenie game where Black's h7-d7 (ply 4) leaves the checker to
/// c1-c8xd7, which the engine sees at once (`cp 1162` for White after it, `cp
/// 0` before it, at 100 ms).
const BLUNDERED: &str =
    "[Game \"otrazhenie\"]\n\n1. a1-c1 h8-h7 2. h1-h6 h7-d7 3. c1-c8xd7 a8-e8 *";

/// The viewport point of ply `ply`'s place on the score graph.
async fn graph_point(page: &mut Page, ply: usize) -> (f64, f64) {
    let script = format!(
        "(() => {{ const g = document.getElementById('graph'); g.scrollIntoView({{block: 'nearest'}}); \
         const r = g.getBoundingClientRect(); const n = Math.max(1, state.moves.length); \
         return [r.left + r.width * {ply} / n, r.top + r.height / 2]; }})()"
    );
    let point = page.eval(&script).await;
    (point[0].as_f64().expect("x"), point[1].as_f64().expect("y"))
}

#[test]
fn a_review_marks_the_blunder_with_the_better_move_and_the_graph_jumps_to_a_ply() {
    run(async {
        let server = Server::start(&[]);
        let (_browser, mut page) = launch("review").await;
        page.open(&server).await;
        import_record(&mut page, BLUNDERED).await;
        page.wait("document.querySelectorAll('#moves [data-move]').length === 6", "the game").await;
        page.click("#analysis-box summary").await;
        page.eval("document.getElementById('review-time').value = '100'").await;
        page.click("#review-start").await;
        page.wait(
            "document.getElementById('review-progress').innerText === 'Reviewed.'",
            "the review",
        )
        .await;
        let judged = page
            .eval(
                "[...document.querySelectorAll('#moves [data-judgement]')].map(e => \
                 [Number(e.dataset.ply), e.dataset.judgement, e.querySelector('.glyph').innerText, e.title])",
            )
            .await;
        let judged = judged.as_array().expect("a list").clone();
        let last = judged.iter().find(|j| j[0] == json!(4)).unwrap_or_else(|| panic!("{judged:?}"));
        assert_eq!((&last[1], &last[2]), (&json!("blunder"), &json!("??")), "{last}");
        let title = last[3].as_str().unwrap_or_default();
        let best = title.split("Best was ").nth(1).expect("a better move").trim_end_matches('.');
        assert_ne!(best, "h7-d7");
        // Every mark has its stroke on the graph; the summary counts Black's blunder.
        let marks = page.eval("document.querySelectorAll('#graph .mark').length").await;
        assert_eq!(marks, json!(judged.len()));
        let black_blunders = judged
            .iter()
            .filter(|j| j[0].as_u64().is_some_and(|p| p % 2 == 0) && j[1] == json!("blunder"))
            .count();
        let summary = page.text("review-summary").await;
        let words = if black_blunders == 1 {
            "1 blunder,".to_owned()
        } else {
            format!("{black_blunders} blunders,")
        };
        assert!(summary.contains(&format!("Black: {words}")), "{summary}");

        // The graph is clicked: that ply is shown, with the words on its move.
        let (x, y) = graph_point(&mut page, 2).await;
        page.click_at(x, y).await;
        page.wait("document.querySelector('#moves .viewed')?.dataset.ply === '2'", "ply 2").await;
        let (x, y) = graph_point(&mut page, 4).await;
        page.click_at(x, y).await;
        page.wait("document.querySelector('#moves .viewed')?.dataset.ply === '4'", "ply 4").await;
        let note = page.text("review-note").await;
        assert!(note.starts_with("4. h7-d7?? Blunder"), "{note}");
        page.screenshot_view(&screenshot_dir().join("review.png")).await;

        // A longer review is stopped by a click.
        page.eval("document.getElementById('review-time').value = '1000'").await;
        page.click("#review-start").await;
        page.wait("!document.getElementById('review-stop').hidden", "the Stop button").await;
        page.click("#review-stop").await;
        page.wait(
            "document.getElementById('review-progress').innerText === 'Review stopped.'",
            "the stop",
        )
        .await;
    });
}

/// Issue 33, item 2: a game's address is its short link; opened in another
/// browser it shows the same game live (moves, clocks, the result),
/// read-only; spectators take no `--max-games` place; the link of a game
/// whose player has left still shows it. Photographed to
/// target/screenshots/watch-player.png and watch-spectator.png.
#[test]
fn a_game_is_watched_live_at_its_link_read_only_and_without_a_place() {
    let mut referee = Engine::start("otrazhenie", "standard");
    run(async {
        let server = Server::start(&["--max-games", "1"]);
        let (browser, mut player) = launch("watch").await;
        player.open(&server).await;
        // Five minutes each.
        player.eval("document.getElementById('clock-base').value = '5'").await;
        player.new_game("otrazhenie", "standard", ["", "alphabeta"], "1", 0, "").await;
        player.wait("document.body.dataset.phase === 'human'", "the game").await;
        player.wait("location.search.startsWith('?g=')", "the link in the address").await;
        let url = player.eval("location.href").await.as_str().expect("a url").to_owned();
        let id = url.rsplit("?g=").next().expect("an id").to_owned();
        assert!(
            url == format!("http://{}/?g={id}", server.address)
                && id.len() == 8
                && id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()),
            "{url}"
        );
        assert!(player.text("share").await.contains(&url), "{}", player.text("share").await);
        let mut spectator = browser.stranger_page().await;
        spectator.goto(&url).await;
        spectator
            .wait(
                "document.body.dataset.watching === 'true' && document.body.dataset.phase === 'human' \
                 && document.querySelectorAll('.bar .clock').length === 2",
                "the watched game",
            )
            .await;
        assert!(spectator.text("status").await.starts_with("Watching: White to move"));
        assert!(spectator.text("title").await.starts_with("Watching · otrazhenie"));
        // It cannot move: no piece is offered, a click selects nothing, the
        // player's buttons are not there.
        let start = player.eval("document.querySelector('#cells .start').dataset.cell").await;
        let start = start.as_str().expect("a start cell").to_owned();
        assert!(cells(&mut spectator, "#cells [data-cell].start").await.is_empty());
        spectator.click_cell(&start).await;
        assert!(cells(&mut spectator, "#cells [data-cell].selected").await.is_empty());
        assert!(cells(&mut spectator, "#targets [data-target]").await.is_empty());
        let shown = spectator
            .eval(
                "['takeback', 'resign', 'type-move'].map(id => document.getElementById(id).offsetParent !== null)",
            )
            .await;
        assert_eq!(shown, json!([false, false, false]));
        assert!(cells(&mut spectator, "#cells [data-cell].premove").await.is_empty());
        // The player's move and the engine's answer arrive, clocks too
        // (White's having run a few seconds).
        spectator
            .wait(
                "document.querySelector('.bar .clock[data-side=\"1\"]').innerText <= '4:58'",
                "White's clock to run on the spectator's page",
            )
            .await;
        move_and_answer(&mut player, &mut referee).await;
        spectator
            .wait("document.querySelectorAll('#moves [data-move]').length === 2", "the moves")
            .await;
        assert_eq!(spectator.moves().await, player.moves().await);
        let position = "document.getElementById('position').value";
        assert_eq!(spectator.eval(position).await, player.eval(position).await);
        for side in [1, 2] {
            let (seen, played) =
                (clock_ms(&mut spectator, side).await, clock_ms(&mut player, side).await);
            assert!(
                seen.abs_diff(played) <= 2_000,
                "side {side}: {seen} ms watched, {played} ms played"
            );
        }
        assert!(clock_ms(&mut spectator, 1).await <= 298_000, "White's clock ran");
        assert_eq!(
            spectator.eval("document.querySelector('.clock.ticking')?.dataset.side").await,
            json!("1")
        );
        spectator.call("Page.bringToFront", json!({})).await;
        // (Its last move's animation, held in the background, ends.)
        tokio::time::sleep(Duration::from_millis(400)).await;
        spectator.screenshot_view(&screenshot_dir().join("watch-spectator.png")).await;
        player.call("Page.bringToFront", json!({})).await;
        player.screenshot_view(&screenshot_dir().join("watch-player.png")).await;
        // A second spectator: the one place is the player's, and watching
        // takes none.
        let mut second = browser.stranger_page().await;
        second.goto(&url).await;
        second
            .wait("document.querySelectorAll('#moves [data-move]').length === 2", "the game")
            .await;
        // It looks back at the start, which it never saw: the player's tab
        // shows it.
        referee.send("position startpos");
        let start_fen = referee.query("fen");
        second.click("#nav-first").await;
        second
            .wait(
                &format!(
                    "document.getElementById('position').value === {start_fen:?} \
                     && document.getElementById('board').classList.contains('history')"
                ),
                "the start position, looked back at",
            )
            .await;
        second.click("#nav-last").await;
        // The player resigns: the result reaches the spectators.
        player.click("#resign").await;
        player.click("#resign").await;
        player.wait("!document.getElementById('banner').hidden", "the result").await;
        let result = player.text("result").await;
        spectator.wait("!document.getElementById('banner').hidden", "the result watched").await;
        assert_eq!(spectator.text("result").await, result);
        assert!(spectator.text("why").await.contains("resigned"));
        assert_eq!(spectator.eval("document.getElementById('banner').className").await, json!(""));
        // The player's tab closes (its engines end); the finished game's
        // link still shows it.
        player.call("Page.close", json!({})).await;
        server.wait_for_children(0);
        let mut late = browser.stranger_page().await;
        late.goto(&url).await;
        late.wait("!document.getElementById('banner').hidden", "the finished game").await;
        assert_eq!(late.text("result").await, result);
        assert_eq!(late.moves().await, spectator.moves().await);
        // Three spectators are connected and hold no place: a new game starts.
        let mut fresh = browser.stranger_page().await;
        fresh.open(&server).await;
        fresh.new_game("otrazhenie", "standard", ["", ""], "1", 0, "").await;
        fresh.wait("document.body.dataset.phase === 'human'", "a game beside the spectators").await;
    });
}

/// Issue 32, item 9: `igroteka arena --live PORT` serves a page listing the
/// games in progress, each board drawn by the page of `serve` watching the
/// game (read-only) and moving, with the clocks, the engines' depth and
/// score, and the standings so far. Photographed to
/// target/screenshots/arena-live.png.
#[test]
fn a_running_tournament_is_watched_live_with_its_boards_and_standings() {
    run(async {
        let mut arena = Command::new(BIN)
            .args(["arena", "--game", "focus", "--engine", "builtin=alphabeta", "name=Alpha"])
            .args(["--engine", "builtin=random", "name=Rand", "tc=20+0"])
            .args(["--each", "movetime=80", "--rounds", "6", "--concurrency", "2"])
            .args(["--max-plies", "60", "--quiet", "--live", "0"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("igroteka arena starts");
        let url =
            address_on_stderr(&mut arena, "http://").expect("the arena prints the page's address");
        let (_browser, mut page) = launch("arena-live").await;
        page.call("Page.navigate", json!({"url": url})).await;
        page.wait("document.querySelectorAll('#live-games iframe').length >= 1", "a game's board")
            .await;
        // The board is the page of serve, watching: pieces drawn, read-only,
        // moving.
        let frame = "document.querySelector('#live-games iframe')?.contentDocument";
        page.wait(
            &format!(
                "{frame}?.body?.dataset.watching === 'true' \
                 && {frame}.querySelectorAll('#pieces .piece').length > 0"
            ),
            "the board drawn in the card",
        )
        .await;
        assert_eq!(page.eval(&format!("'embed' in {frame}.body.dataset")).await, json!(true));
        // The first card's game may end (its card goes) while this waits:
        // the count starts again from the card shown then.
        let moved = "(() => { const f = document.querySelector('#live-games iframe'); \
             const n = f?.contentDocument?.querySelectorAll('#moves [data-move]').length; \
             if (n === undefined) return false; \
             if (window.watched !== f.src) { window.watched = f.src; window.seen = n; return false; } \
             return n > window.seen; })()";
        page.wait(moved, "the board to move").await;
        assert!(
            page.eval(&format!("{frame}.querySelectorAll('#cells .start').length")).await
                == json!(0),
            "a watched board offers no move"
        );
        // The engines' depth and score.
        page.wait(
            "[...document.querySelectorAll('.card .searched')].some(e => /Alpha: depth \\d+, (cp|win|loss) -?\\d+/.test(e.innerText))",
            "Alpha's depth and score",
        )
        .await;
        // Rand plays on a clock: the card's board shows it.
        page.wait(&format!("{frame}.querySelectorAll('.bar .clock').length === 1"), "Rand's clock")
            .await;
        // The standings so far, after a game has ended; it drops off.
        page.wait(
            "/[1-9]\\d* of 12 games played/.test(document.getElementById('title').innerText) \
             && document.getElementById('standings').innerText.includes('Alpha') \
             && document.querySelectorAll('#ended li').length >= 1",
            "the standings",
        )
        .await;
        page.wait("document.querySelectorAll('#live-games iframe').length >= 1", "the next games")
            .await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        page.screenshot_view(&screenshot_dir().join("arena-live.png")).await;
        let _ = Command::new("kill").args(["-TERM", &arena.id().to_string()]).status();
        let _ = arena.wait();
    });
}

// ----- the analysis board (issue 33, item 1) -----

/// The variation moves in the move list, in the order they are shown.
async fn variation_moves(page: &mut Page) -> Vec<String> {
    let moves = page
        .eval("[...document.querySelectorAll('#moves [data-var]')].map(e => e.dataset.var)")
        .await;
    serde_json::from_value(moves).expect("a list of moves")
}

/// The referee's position after `moves` from the start: its text and moves.
fn referee_at(referee: &mut Engine, moves: &[String]) -> (String, Vec<Value>) {
    referee.send(&format!("position startpos moves {}", moves.join(" ")));
    let paths = referee.json("movepaths");
    (referee.query("fen"), paths["moves"].as_array().expect("moves").clone())
}

/// Makes a move of `moves` other than `not` by clicks; its text.
async fn click_other_move(page: &mut Page, moves: &[Value], not: &str) -> String {
    let other = moves
        .iter()
        .find(|m| m["move"] != not && m["path"].as_array().is_some_and(|p| p.len() > 1))
        .unwrap_or_else(|| panic!("a move other than {not} in {moves:?}"));
    click_move(page, moves, other).await
}

/// A real right click on the element `selector` finds.
async fn right_click(page: &mut Page, selector: &str) {
    let script = format!(
        "(() => {{ const e = document.querySelector({selector:?}); e.scrollIntoView({{block: 'nearest'}}); \
         const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
    );
    let point = page.eval(&script).await;
    let (x, y) = (point[0].as_f64().expect("x"), point[1].as_f64().expect("y"));
    for (kind, buttons) in [("mouseMoved", 0), ("mousePressed", 2), ("mouseReleased", 0)] {
        let params = json!({"type": kind, "x": x, "y": y, "button": "right", "buttons": buttons,
            "clickCount": 1});
        page.call("Input.dispatchMouseEvent", params).await;
    }
}

/// Issue 33, item 1: from an earlier position of a running game, moves made
/// on the board try a variation, shown in the move list below the move it
/// replaces; keys walk through it, a sub-variation is promoted and one
/// deleted; an engine searches the position on screen in three lines, best
/// first, its best move an arrow from cell to cell; a click on a move of a
/// line plays the line to it. The game is never changed: its moves, its
/// state and what its link shows stay the same, and a spectator at the link
/// tries variations of its own; a finished game is explored too. Photographed to target/screenshots/analysis.png.
#[test]
fn the_analysis_board_tries_variations_and_shows_an_engines_lines_without_changing_the_game() {
    let mut referee = Engine::start("focus", "standard");
    run(async {
        let server = Server::start(&[]);
        let (browser, mut page) = launch("analysis").await;
        page.open(&server).await;
        page.new_game("focus", "standard", ["", "alphabeta"], "1", 0, "").await;
        page.wait("document.body.dataset.phase === 'human'", "the game").await;
        move_and_answer(&mut page, &mut referee).await;
        move_and_answer(&mut page, &mut referee).await;
        let game = page.moves().await;
        assert_eq!(game.len(), 4);
        let (now, _) = referee_at(&mut referee, &game);

        // Back to move 2; another move than the game's third starts a variation.
        page.click("#moves [data-ply='2']").await;
        page.wait(
            "document.querySelector('#moves .viewed')?.dataset.ply === '2' && !!document.querySelector('#cells .start')",
            "move 2, its moves offered",
        )
        .await;
        let (_, at_two) = referee_at(&mut referee, &game[..2]);
        let first = click_other_move(&mut page, &at_two, &game[2]).await;
        page.wait("document.querySelectorAll('#moves [data-var]').length === 1", "the variation")
            .await;
        let mut line = game[..2].to_vec();
        line.push(first.clone());
        let (fen, after_first) = referee_at(&mut referee, &line);
        page.wait(
            &format!("document.getElementById('position').value === {fen:?}"),
            "its position",
        )
        .await;
        // Shown below the move it replaces, the game going on after it.
        let rows = page
            .eval("[...document.querySelectorAll('#moves li')].map(li => li.className + ':' + li.innerText.replace(/\\s+/g, ' ').trim())")
            .await;
        let rows: Vec<String> = serde_json::from_value(rows).expect("rows");
        let wanted = [
            format!(":1. {} {}", game[0], game[1]),
            format!(":2. {}", game[2]),
            format!("variations:2. {first}"),
            format!(":2. … {}", game[3]),
        ];
        assert_eq!(rows, wanted);
        assert!(page.text("status").await.starts_with("Variation after move 2"));
        let second = click_other_move(&mut page, &after_first, "").await;
        page.wait("document.querySelectorAll('#moves [data-var]').length === 2", "move 2 of it")
            .await;
        line.push(second.clone());
        let (deeper, _) = referee_at(&mut referee, &line);
        let position = "document.getElementById('position').value";
        assert_eq!(page.eval(position).await, json!(deeper));

        // Keys: back, back to the game's move 2, its end, the start, the game now.
        page.click("#moves").await;
        page.key("ArrowLeft", "ArrowLeft", 37).await;
        page.wait(&format!("{position} === {fen:?}"), "back in the variation").await;
        page.key("ArrowLeft", "ArrowLeft", 37).await;
        page.wait("document.querySelector('#moves .viewed')?.dataset.ply === '2'", "move 2").await;
        page.key("ArrowRight", "ArrowRight", 39).await;
        page.wait(
            "document.querySelector('#moves .viewed')?.dataset.ply === '3'",
            "the game's move 3",
        )
        .await;
        page.click(&format!("#moves [data-var='{first}']")).await;
        page.key("ArrowDown", "ArrowDown", 40).await;
        page.wait(&format!("{position} === {deeper:?}"), "the variation's end").await;
        page.key("ArrowUp", "ArrowUp", 38).await;
        page.wait("document.getElementById('position').value !== '' && !document.querySelector('#moves .viewed')", "the start").await;
        assert!(page.text("status").await.starts_with("Move 0 of 4"));
        page.key("End", "End", 35).await;
        page.wait(&format!("{position} === {now:?}"), "the game now").await;

        // A sub-variation: shown in parentheses after the move it replaces;
        // promoted by the context menu; one deleted from a move on.
        page.click(&format!("#moves [data-var='{first}']")).await;
        page.wait(&format!("{position} === {fen:?}"), "the variation's first move").await;
        let third = click_other_move(&mut page, &after_first, &second).await;
        page.wait("document.querySelectorAll('#moves [data-var]').length === 3", "a sub-variation")
            .await;
        assert_eq!(variation_moves(&mut page).await, [first.as_str(), &second, &third]);
        let text = page.eval("document.querySelector('#moves .variations').innerText").await;
        let wanted = format!("2. {first} {second} (2... {third})");
        assert_eq!(text.as_str().map(str::trim), Some(wanted.as_str()));
        right_click(&mut page, &format!("#moves [data-var='{third}']")).await;
        page.wait("!document.getElementById('move-menu').hidden", "the context menu").await;
        page.click("#menu-promote").await;
        page.wait("document.getElementById('move-menu').hidden", "the menu to close").await;
        assert_eq!(variation_moves(&mut page).await, [first.as_str(), &third, &second]);
        page.click(&format!("#moves [data-var='{second}']")).await;
        page.click("#delete-variation").await;
        page.wait("document.querySelectorAll('#moves [data-var]').length === 2", "the deletion")
            .await;
        assert_eq!(variation_moves(&mut page).await, [first.as_str(), &third]);
        page.wait(&format!("{position} === {fen:?}"), "the move before the deleted one").await;

        // The engine's three lines of the position on screen, best first.
        page.click("#analysis-box summary").await;
        page.eval("(() => { const t = document.getElementById('analyse-time'); t.value = '1000'; t.dispatchEvent(new Event('change')); })()").await;
        page.click("#analyse").await;
        page.wait(
            "document.querySelectorAll('#analyse-list li').length === 3 && document.getElementById('analyse-status').innerText.endsWith('done')",
            "three lines",
        )
        .await;
        let lines = page
            .eval("[...document.querySelectorAll('#analyse-list li')].map(li => [Number(li.dataset.line), Number(li.dataset.value), [...li.querySelectorAll('[data-pv]')].map(m => m.innerText)])")
            .await;
        let lines = lines.as_array().expect("lines").clone();
        assert_eq!(
            lines.iter().map(|l| l[0].as_u64()).collect::<Vec<_>>(),
            [Some(1), Some(2), Some(3)]
        );
        // Scores from the side to move's view: best first.
        let values: Vec<i64> = lines.iter().map(|l| l[1].as_i64().expect("a value")).collect();
        assert!(values.windows(2).all(|v| v[0] >= v[1]), "{lines:?}");
        let best = lines[0][2][0].as_str().expect("a best move").to_owned();
        let legal: Vec<&str> = after_first.iter().filter_map(|m| m["move"].as_str()).collect();
        assert!(
            lines.iter().all(|l| legal.contains(&l[2][0].as_str().unwrap_or_default())),
            "{lines:?}"
        );
        // Its arrow: from the centre of the move's first cell, pointing at its last.
        let path: Vec<String> = after_first
            .iter()
            .find(|m| m["move"] == best.as_str())
            .and_then(|m| serde_json::from_value(m["path"].clone()).ok())
            .expect("the best move's path");
        let arrow = page
            .eval(
                "(() => { const l = document.querySelector('#best line.best-arrow'); if (!l) return null; \
                 const head = document.querySelector('#best polygon.best-arrow'); \
                 const centre = (name) => { const pts = [...document.querySelector('[data-cell=\"' + name + '\"] polygon').points]; \
                 return [pts.reduce((s, p) => s + p.x, 0) / pts.length, pts.reduce((s, p) => s + p.y, 0) / pts.length]; }; \
                 return { from: l.dataset.from, to: l.dataset.to, stroke: l.getAttribute('stroke'), \
                 start: [l.x1.baseVal.value, l.y1.baseVal.value], end: [l.x2.baseVal.value, l.y2.baseVal.value], \
                 tip: [head.points[0].x, head.points[0].y], a: centre(l.dataset.from), b: centre(l.dataset.to) }; })()",
            )
            .await;
        assert_eq!(
            (&arrow["from"], &arrow["to"]),
            (&json!(path[0]), &json!(path[path.len() - 1])),
            "{arrow}"
        );
        let point = |v: &Value| (v[0].as_f64().expect("x"), v[1].as_f64().expect("y"));
        let near =
            |p: (f64, f64), q: (f64, f64)| (p.0 - q.0).abs() < 1e-3 && (p.1 - q.1).abs() < 1e-3;
        let (a, b) = (point(&arrow["a"]), point(&arrow["b"]));
        assert!(near(point(&arrow["start"]), a) && near(point(&arrow["tip"]), b), "{arrow}");
        let end = point(&arrow["end"]);
        let cross = (end.0 - a.0) * (b.1 - a.1) - (end.1 - a.1) * (b.0 - a.0);
        assert!(cross.abs() < 1e-3, "the line points at the last cell: {arrow}");
        assert_eq!(arrow["stroke"], "#003088", "blue");

        // A click on the second move of the best line plays the line to it.
        let reply = lines[0][2][1].as_str().expect("a reply").to_owned();
        page.click("#analyse-list li[data-line='1'] [data-pv='1']").await;
        page.wait(
            &format!("document.querySelector('#moves .viewed')?.dataset.var === {reply:?}"),
            "the line played",
        )
        .await;
        let mut played = game[..2].to_vec();
        played.extend([first.clone(), best.clone(), reply]);
        let (fen_pv, _) = referee_at(&mut referee, &played);
        page.wait(&format!("{position} === {fen_pv:?}"), "the line's position").await;
        // The analysis follows the position on screen.
        page.wait(
            "document.querySelectorAll('#analyse-list li').length === 3 && document.getElementById('analyse-status').innerText.endsWith('done') && !!document.querySelector('#best .best-arrow')",
            "the lines of the new position",
        )
        .await;
        page.screenshot(&screenshot_dir().join("analysis.png")).await;

        // The game is as it was: here, on the server, and at its link.
        assert_eq!(page.moves().await, game);
        assert_eq!(page.eval("state.moves").await, json!(game));
        assert_eq!(page.phase().await, "human");
        let url = page.eval("location.href").await.as_str().expect("a url").to_owned();
        let mut spectator = browser.stranger_page().await;
        spectator.goto(&url).await;
        spectator
            .wait("document.querySelectorAll('#moves [data-move]').length === 4", "the game")
            .await;
        assert_eq!(spectator.moves().await, game);
        assert_eq!(spectator.eval(position).await, json!(now));
        assert!(variation_moves(&mut spectator).await.is_empty());
        // The spectator tries a variation of its own, its moves checked by
        // the player's tab.
        let mine = variation_moves(&mut page).await;
        spectator.click("#moves [data-ply='2']").await;
        spectator
            .wait(
                "document.querySelector('#moves .viewed')?.dataset.ply === '2' && !!document.querySelector('#cells .start')",
                "move 2 watched, its moves offered",
            )
            .await;
        let tried = click_other_move(&mut spectator, &at_two, &game[2]).await;
        spectator
            .wait(
                &format!("document.querySelector('#moves .viewed')?.dataset.var === {tried:?}"),
                "the spectator's variation",
            )
            .await;
        assert!(spectator.text("status").await.starts_with("Variation after move 2"));
        assert_eq!(spectator.moves().await, game);
        assert_eq!(variation_moves(&mut page).await, mine);
        assert_eq!(page.eval("state.moves").await, json!(game));

        // Finished: a variation from an earlier move of it, the result kept.
        page.click("#analyse").await;
        page.click("#resign").await;
        page.click("#resign").await;
        page.wait("!document.getElementById('banner').hidden", "the result").await;
        page.click("#moves [data-ply='1']").await;
        page.wait(
            "document.querySelector('#moves .viewed')?.dataset.ply === '1' && !!document.querySelector('#cells .start')",
            "move 1, its moves offered",
        )
        .await;
        let (_, at_one) = referee_at(&mut referee, &game[..1]);
        let tried = click_other_move(&mut page, &at_one, &game[1]).await;
        page.wait(&format!("[...document.querySelectorAll('#moves [data-var]')].some(e => e.dataset.var === {tried:?})"), "a variation of the finished game").await;
        assert_eq!(page.eval("[state.moves, state.game_over]").await, json!([game, true]));
        spectator.wait("!document.getElementById('banner').hidden", "the result watched").await;
        assert_eq!(spectator.moves().await, game);
    });
}
