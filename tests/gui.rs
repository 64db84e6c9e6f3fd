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
    let mut stderr = BufReader::new(child.stderr.take().expect("piped stderr")).lines();
    let url = stderr
        .by_ref()
        .map_while(Result::ok)
        .find_map(|line| line.find("ws://").map(|at| line[at..].trim().to_owned()));
    // Keep reading, so that Chromium never writes into a closed pipe.
    std::thread::spawn(move || stderr.for_each(drop));
    let browser = Browser { child, profile };
    let url = url.expect("chromium prints its DevTools address");
    let ws = tokio_tungstenite::connect_async(url).await.expect("DevTools connects").0;
    let mut page = Page { ws, session: String::new(), next_id: 0 };
    let target = page.call("Target.createTarget", json!({"url": "about:blank"})).await;
    let attached = page
        .call("Target.attachToTarget", json!({"targetId": target["targetId"], "flatten": true}))
        .await;
    page.session = attached["sessionId"].as_str().expect("a session").to_owned();
    (browser, page)
}

impl Page {
    /// A DevTools command; its result.
    async fn call(&mut self, method: &str, params: Value) -> Value {
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
                assert!(answer["error"].is_null(), "{method}: {}", answer["error"]);
                return answer["result"].clone();
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
        while self.eval(condition).await != json!(true) {
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

    /// A real mouse click at a point of the viewport.
    async fn click_at(&mut self, x: f64, y: f64) {
        for kind in ["mouseMoved", "mousePressed", "mouseReleased"] {
            let params = json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1});
            self.call("Input.dispatchMouseEvent", params).await;
        }
    }

    /// Clicks the middle of the element `selector` finds.
    async fn click(&mut self, selector: &str) {
        let script = format!(
            "(() => {{ const e = document.querySelector({selector:?}); if (!e) return null; \
             e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect(); \
             return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        );
        let point = self.eval(&script).await;
        let (Some(x), Some(y)) = (point[0].as_f64(), point[1].as_f64()) else {
            panic!("nothing to click at {selector}");
        };
        self.click_at(x, y).await;
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
            page.screenshot(&screenshot_dir().join(format!("{label}.png"))).await;
            let mut referee = Engine::start(game, variant);
            let played = click_first_move(&mut page, &mut referee, "").await;
            page.wait(
                "document.querySelectorAll('#moves [data-move]').length === 2 && \
                 document.body.dataset.phase !== 'thinking'",
                &format!("{game}: the engine's answer to {played}"),
            )
            .await;
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
            let replayed = replay(game, variant, record.as_str().unwrap_or(""));
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

/// `igroteka replay` of `record` on stdin: what it prints.
fn replay(game: &str, variant: &str, record: &str) -> String {
    use std::io::Write;
    let mut child = Command::new(BIN)
        .args(["replay", "--game", game, "--variant", variant])
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
