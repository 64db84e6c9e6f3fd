//! `igroteka serve` over its WebSocket, without a browser: bad messages,
//! engines that crash, hang or cheat, the game limit, and no engine process
//! left behind.

#[path = "serve_support.rs"]
mod serve_support;

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use serve_support::{Server, fake_flag};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

async fn connect(server: &Server) -> Socket {
    let url = format!("ws://{}/ws", server.address);
    tokio_tungstenite::connect_async(url).await.expect("the WebSocket opens").0
}

/// The next JSON message (at most 60 s away: a stuck server fails the test).
async fn next(ws: &mut Socket) -> Value {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(60), ws.next())
            .await
            .expect("the server answers")
            .expect("the socket stays open")
            .expect("a good frame");
        if let Message::Text(text) = message {
            return serde_json::from_str(&text).expect("the server sends JSON");
        }
    }
}

/// Messages until one of `kind`, which is returned.
async fn until(ws: &mut Socket, kind: &str) -> Value {
    loop {
        let message = next(ws).await;
        if message["type"] == kind {
            return message;
        }
        assert_ne!(
            message["type"], "error",
            "unexpected error while waiting for {kind}: {message}"
        );
    }
}

async fn send(ws: &mut Socket, message: Value) {
    ws.send(Message::Text(message.to_string().into())).await.expect("the socket takes it");
}

fn side(engine: Option<&str>, limit: Value) -> Value {
    json!({ "engine": engine, "limit": limit })
}

fn new_game(game: &str, first: Value, second: Value) -> Value {
    json!({ "type": "new", "game": game, "sides": [first, second] })
}

#[tokio::test]
async fn malformed_messages_are_answered_and_the_session_goes_on() {
    let server = Server::start(&[]);
    let mut ws = connect(&server).await;
    let hello = until(&mut ws, "hello").await;
    assert_eq!(hello["games"].as_array().map(Vec::len), Some(serve_support::games().len()));
    let bad = [
        Message::Text("not json".into()),
        Message::Text("{\"type\":\"fly\"}".into()),
        Message::Text("{\"type\":\"move\"}".into()),
        Message::Text("{\"type\":\"new\",\"game\":\"focus\"}".into()),
        Message::Text("[1,2,3]".into()),
        Message::Binary(vec![0xff, 0x00, 0x13].into()),
        Message::Text(json!({"type": "move", "move": "a1"}).to_string().into()),
    ];
    for message in bad {
        let shown = format!("{message:?}");
        ws.send(message).await.expect("sent");
        let answer = next(&mut ws).await;
        assert_eq!(answer["type"], "error", "{shown}: {answer}");
        assert_eq!(answer["restart"], false, "{shown}: {answer}");
        assert!(!answer["message"].as_str().unwrap_or("").is_empty(), "{shown}: {answer}");
    }
    // An unknown game ends only that attempt.
    send(&mut ws, new_game("chess", side(None, Value::Null), side(None, Value::Null))).await;
    let answer = next(&mut ws).await;
    assert_eq!(answer["type"], "error");
    assert!(answer["message"].as_str().unwrap_or("").contains("unknown game 'chess'"), "{answer}");
    // So does a position text that is none.
    let mut pasted = new_game("stykovka", side(None, Value::Null), side(None, Value::Null));
    pasted["fen"] = json!("this is no position");
    send(&mut ws, pasted).await;
    let answer = next(&mut ws).await;
    assert_eq!(answer["type"], "error");
    assert_eq!(answer["restart"], false, "{answer}");
    assert!(answer["message"].as_str().unwrap_or("").contains("invalid position"), "{answer}");
    server.wait_for_children(0);
    // The same socket still plays: two people, an illegal and a legal move.
    send(&mut ws, new_game("otrazhenie", side(None, Value::Null), side(None, Value::Null))).await;
    until(&mut ws, "board").await;
    let state = until(&mut ws, "state").await;
    assert_eq!(state["human_to_move"], true);
    send(&mut ws, json!({"type": "move", "move": "zz99"})).await;
    let answer = next(&mut ws).await;
    assert_eq!(answer["type"], "error", "{answer}");
    assert!(answer["message"].as_str().unwrap_or("").contains("not a legal move"), "{answer}");
    let first = state["movepaths"]["moves"][0]["move"].as_str().expect("a legal move").to_owned();
    send(&mut ws, json!({"type": "move", "move": first})).await;
    let state = until(&mut ws, "state").await;
    assert_eq!(state["moves"], json!([first]));
    assert_eq!(state["to_move"], 2);
}

/// Starts a game where player 1 is the fake engine; returns the error notice.
async fn fake_fails(server: &Server) -> String {
    let mut ws = connect(server).await;
    until(&mut ws, "hello").await;
    let fake = side(Some("fake"), json!({"movetime": 10}));
    send(&mut ws, new_game("otrazhenie", fake, side(None, Value::Null))).await;
    until(&mut ws, "board").await;
    let state = until(&mut ws, "state").await;
    assert_eq!(state["thinking"], 1, "{state}");
    let error = until_fatal(&mut ws).await;
    assert_eq!(error["restart"], true, "{error}");
    // The game's processes (the referee and the fake) are gone.
    server.wait_for_children(0);
    error["message"].as_str().unwrap_or("").to_owned()
}

/// Messages until an error that ends the game (notes are passed over).
async fn until_fatal(ws: &mut Socket) -> Value {
    loop {
        let message = next(ws).await;
        if message["type"] == "error" && message["restart"] == true {
            return message;
        }
    }
}

#[tokio::test]
async fn an_engine_that_crashes_mid_game_is_reported() {
    let server = Server::start(&["--engine", "name=fake", &fake_flag("crash")]);
    let message = fake_fails(&server).await;
    assert!(message.contains("'fake': the engine is gone"), "{message}");
    assert!(message.contains("exit status: 3"), "{message}");
}

#[tokio::test]
async fn an_engine_that_hangs_is_reported_after_the_timeout() {
    let server = Server::start(&["--timeout", "2000", "--engine", "name=fake", &fake_flag("hang")]);
    let message = fake_fails(&server).await;
    assert!(message.contains("'fake' did not answer its move in time"), "{message}");
}

#[tokio::test]
async fn an_illegal_engine_move_is_caught_by_the_referee() {
    let server = Server::start(&["--engine", "name=fake", &fake_flag("illegal")]);
    let message = fake_fails(&server).await;
    assert!(message.contains("'fake' answered an illegal move 'zz99'"), "{message}");
}

#[tokio::test]
async fn an_engine_refusing_options_plays_with_a_note_and_must_move() {
    let server = Server::start(&["--engine", "name=fake", &fake_flag("none")]);
    let mut ws = connect(&server).await;
    until(&mut ws, "hello").await;
    let fake = side(Some("fake"), json!({"depth": 1}));
    send(&mut ws, new_game("city", fake, side(None, Value::Null))).await;
    until(&mut ws, "board").await;
    until(&mut ws, "state").await;
    let note = next(&mut ws).await;
    assert_eq!(note["restart"], false, "{note}");
    let text = note["message"].as_str().unwrap_or("");
    assert!(
        text.contains("'fake' refused options: no option 'Game'; no option 'Variant'"),
        "{note}"
    );
    let error = until_fatal(&mut ws).await;
    assert_eq!(error["restart"], true, "{error}");
    let message = error["message"].as_str().unwrap_or("");
    assert!(message.contains("'fake' answered 'bestmove (none)'"), "{error}");
    server.wait_for_children(0);
}

#[tokio::test]
async fn a_referee_without_the_board_queries_is_named() {
    let server = Server::start(&["--engine", "name=fake", &fake_flag("hang"), "--referee", "fake"]);
    let mut ws = connect(&server).await;
    until(&mut ws, "hello").await;
    send(&mut ws, new_game("focus", side(None, Value::Null), side(None, Value::Null))).await;
    let error = until(&mut ws, "error").await;
    let message = error["message"].as_str().unwrap_or("");
    assert!(
        message.contains("'fake' cannot describe the board") && message.contains("movepaths"),
        "{error}"
    );
    server.wait_for_children(0);
}

#[tokio::test]
async fn more_games_than_the_limit_are_refused() {
    let server = Server::start(&["--max-games", "1"]);
    let people = || new_game("otrazhenie", side(None, Value::Null), side(None, Value::Null));
    // Tabs without a game hold no place.
    let mut idle = Vec::new();
    for _ in 0..3 {
        let mut tab = connect(&server).await;
        until(&mut tab, "hello").await;
        idle.push(tab);
    }
    let mut first = connect(&server).await;
    until(&mut first, "hello").await;
    send(&mut first, people()).await;
    until(&mut first, "state").await;
    let mut second = connect(&server).await;
    until(&mut second, "hello").await;
    send(&mut second, people()).await;
    // Refused as a New game that did not start: nothing to restart.
    let refusal = until(&mut second, "error").await;
    assert_eq!(refusal["restart"], false, "{refusal}");
    assert_eq!(refusal["new_game"], true, "{refusal}");
    assert!(
        refusal["message"].as_str().unwrap_or("").contains("at most 1 games at once"),
        "{refusal}"
    );
    // Closing the first tab frees its place.
    first.close(None).await.expect("closed");
    let mut tries = 0;
    loop {
        send(&mut second, people()).await;
        let answer = next(&mut second).await;
        if answer["type"] != "error" {
            break;
        }
        tries += 1;
        assert!(tries < 100, "the place of a closed tab is never freed: {answer}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn engines_end_with_their_game_and_their_tab() {
    let server = Server::start(&[]);
    let mut ws = connect(&server).await;
    until(&mut ws, "hello").await;
    let engine = || side(Some("alphabeta"), json!({"movetime": 20}));
    send(&mut ws, new_game("hexdraughts", engine(), engine())).await;
    until(&mut ws, "board").await;
    until(&mut ws, "state").await;
    let before = server.wait_for_children(3);
    // A restart replaces all three processes.
    send(&mut ws, new_game("city", engine(), engine())).await;
    until(&mut ws, "board").await;
    until(&mut ws, "state").await;
    let after = server.wait_for_children(3);
    assert!(before.iter().all(|pid| !after.contains(pid)), "{before:?} still in {after:?}");
    // Closing the tab ends them.
    drop(ws);
    server.wait_for_children(0);
}

#[tokio::test]
async fn take_back_returns_to_the_person_and_engine_games_end() {
    let server = Server::start(&[]);
    let mut ws = connect(&server).await;
    until(&mut ws, "hello").await;
    let engine = side(Some("alphabeta"), json!({"depth": 1}));
    send(&mut ws, new_game("otrazhenie", side(None, Value::Null), engine)).await;
    until(&mut ws, "board").await;
    let state = until(&mut ws, "state").await;
    let first = state["movepaths"]["moves"][0]["move"].as_str().expect("a move").to_owned();
    send(&mut ws, json!({"type": "move", "move": first})).await;
    // The person's move, then the engine's answer.
    let mut state = until(&mut ws, "state").await;
    while state["moves"].as_array().map_or(0, Vec::len) < 2 {
        state = until(&mut ws, "state").await;
    }
    assert_eq!(state["human_to_move"], true, "{state}");
    send(&mut ws, json!({"type": "take_back"})).await;
    let state = until(&mut ws, "state").await;
    assert_eq!(state["moves"], json!([]), "{state}");
    assert_eq!(state["human_to_move"], true);

    // Two engines play a capped game to its end.
    let engine = || side(Some("random"), json!({"nodes": 1}));
    let mut game = new_game("focus", engine(), engine());
    game["max_plies"] = json!(12);
    send(&mut ws, game).await;
    loop {
        let state = until(&mut ws, "state").await;
        if state["pieces"]["game_over"] == true {
            assert_eq!(state["moves"].as_array().map(Vec::len), Some(12), "{state}");
            assert_eq!(state["thinking"], Value::Null);
            break;
        }
    }
}

#[test]
fn bad_flags_are_refused_before_listening() {
    let cases: [(&[&str], &str); 4] = [
        (&["--engine", "name=x"], "--engine needs cmd=COMMAND or builtin=KIND"),
        (&["--referee", "nobody"], "--referee 'nobody' is none of the --engine names"),
        (&["--max-games", "0"], "--max-games must be at least 1"),
        (&["--engine", "builtin=mcts", "--engine", "builtin=mcts"], "two engines are named 'mcts'"),
    ];
    for (args, expected) in cases {
        let out = std::process::Command::new(serve_support::BIN)
            .args(["serve", "--port", "0"])
            .args(args)
            .output()
            .expect("igroteka runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

#[tokio::test]
async fn pages_of_other_sites_are_refused() {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let server = Server::start(&[]);
    let url = format!("ws://{}/ws", server.address);
    let mut request = url.as_str().into_client_request().expect("a request");
    request.headers_mut().insert("Origin", "http://evil.example".parse().expect("a header"));
    let refused = tokio_tungstenite::connect_async(request).await;
    assert!(refused.is_err(), "a foreign page got a socket");
    // The server's own page is welcome.
    let mut request = url.as_str().into_client_request().expect("a request");
    let origin = format!("http://{}", server.address);
    request.headers_mut().insert("Origin", origin.parse().expect("a header"));
    let (mut ws, _) = tokio_tungstenite::connect_async(request).await.expect("its own page");
    until(&mut ws, "hello").await;
}

#[tokio::test]
async fn ctrl_c_ends_the_server_and_its_engines() {
    let mut server = Server::start(&[]);
    let mut ws = connect(&server).await;
    until(&mut ws, "hello").await;
    let engine = || side(Some("mcts"), json!({"movetime": 50}));
    send(&mut ws, new_game("adiyukh", engine(), engine())).await;
    until(&mut ws, "state").await;
    let engines = server.wait_for_children(3);
    let status = server.interrupt();
    assert_eq!(status.code(), Some(130), "{status}");
    serve_support::wait_gone(&engines);
}

/// Every terminating signal — SIGTERM (`kill`, systemd, container runtimes),
/// SIGHUP (a closed terminal), SIGQUIT — ends the server with the status a
/// shell gives a process the signal killed, and every engine first, even a
/// searching one behind a wrapper script that ignores `quit`, the end of its
/// input and SIGTERM itself.
#[tokio::test]
async fn every_terminating_signal_ends_the_server_and_every_engine_process() {
    let wrapped = format!("cmd=sh -c \"trap '' TERM; {} engine; sleep 600\"", serve_support::BIN);
    for (signal, number) in [("-TERM", 15), ("-HUP", 1), ("-QUIT", 3)] {
        let mut server = Server::start(&["--engine", "name=wrapped", &wrapped]);
        let mut ws = connect(&server).await;
        until(&mut ws, "hello").await;
        let engine = side(Some("wrapped"), json!({"movetime": 60_000}));
        send(&mut ws, new_game("focus", engine.clone(), engine)).await;
        until(&mut ws, "state").await;
        server.wait_for_children(3);
        let processes = serve_support::descendants(server.pid());
        assert!(processes.len() >= 5, "the wrappers' engines run too: {processes:?}");
        let status = server.signal(signal);
        assert_eq!(status.code(), Some(128 + number), "{signal}: {status}");
        serve_support::wait_gone(&processes);
    }
}

/// A DNS-rebinding page names its own host in both `Host` and `Origin`.
#[tokio::test]
async fn a_rebound_page_is_refused_whatever_host_it_names() {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let server = Server::start(&[]);
    let url = format!("ws://{}/ws", server.address);
    let port = server.address.rsplit(':').next().unwrap_or_default().to_owned();
    let mut request = url.as_str().into_client_request().expect("a request");
    let host = format!("attacker.example:{port}");
    request.headers_mut().insert("Host", host.parse().expect("a header"));
    let origin = format!("http://attacker.example:{port}");
    request.headers_mut().insert("Origin", origin.parse().expect("a header"));
    assert!(
        tokio_tungstenite::connect_async(request).await.is_err(),
        "a rebound page got a socket"
    );
    for allowed in [format!("http://localhost:{port}"), format!("http://{}", server.address)] {
        let mut request = url.as_str().into_client_request().expect("a request");
        request.headers_mut().insert("Origin", allowed.parse().expect("a header"));
        let (mut ws, _) = tokio_tungstenite::connect_async(request).await.expect("its own page");
        until(&mut ws, "hello").await;
    }
    let named = Server::start(&["--origin", "board.example:80"]);
    let url = format!("ws://{}/ws", named.address);
    let mut request = url.as_str().into_client_request().expect("a request");
    request.headers_mut().insert("Origin", "http://board.example:80".parse().expect("a header"));
    assert!(tokio_tungstenite::connect_async(request).await.is_ok(), "--origin is welcome");
}

/// A move or position text with a line break never reaches an engine as
/// two commands (it once made the referee `go infinite`).
#[tokio::test]
async fn texts_with_line_breaks_never_reach_the_engines() {
    let server = Server::start(&[]);
    let mut ws = connect(&server).await;
    until(&mut ws, "hello").await;
    send(&mut ws, new_game("otrazhenie", side(None, Value::Null), side(None, Value::Null))).await;
    until(&mut ws, "state").await;
    send(&mut ws, json!({"type": "move", "move": "a1-a2\ngo infinite"})).await;
    let refusal = until(&mut ws, "error").await;
    assert!(refusal["message"].as_str().unwrap_or("").contains("is not a move"), "{refusal}");
    assert_eq!(refusal["restart"], false, "{refusal}");
    let mut crafted = new_game("otrazhenie", side(None, Value::Null), side(None, Value::Null));
    crafted["variant"] = json!("standard\nsetoption name Threads value 5");
    send(&mut ws, crafted).await;
    let error = until(&mut ws, "error").await;
    assert!(error["message"].as_str().unwrap_or("").contains("holds a line break"), "{error}");
    // The refused game never started, and the running game's referee (its
    // only process) goes on.
    server.wait_for_children(1);
}

/// An engine that writes without line breaks costs the server at most the
/// protocol's line limit, and the game ends with a clear message.
#[tokio::test]
async fn an_engine_flooding_one_endless_line_is_cut_off() {
    let flood = "cmd=sh -c \"tr '\\\\0' x < /dev/zero\"";
    let server = Server::start(&["--engine", "name=flood", flood, "--referee", "flood"]);
    let mut ws = connect(&server).await;
    until(&mut ws, "hello").await;
    send(&mut ws, new_game("focus", side(None, Value::Null), side(None, Value::Null))).await;
    let error = until(&mut ws, "error").await;
    let message = error["message"].as_str().unwrap_or("");
    assert!(message.contains("a line longer than 1024 KiB"), "{error}");
    server.wait_for_children(0);
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.pid())).expect("status");
    let rss_kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .expect("VmRSS");
    assert!(rss_kb < 200_000, "the server holds {rss_kb} kB");
}

/// An engine flooding long `info` lines while the page reads nothing costs
/// the server a few MiB, not a thousand lines of up to 1 MiB each.
#[tokio::test]
async fn an_engine_flooding_long_info_lines_to_a_page_that_reads_nothing_is_bounded() {
    let flood = serve_support::script(
        "flood-info",
        "go*) l=$(head -c 500000 /dev/zero | tr '\\0' x); \
         while :; do printf 'info string %s\\n' \"$l\"; done ;;",
    );
    let flag = format!("cmd={}", flood.display());
    let server = Server::start(&["--engine", "name=flood", &flag]);
    let mut ws = connect(&server).await;
    until(&mut ws, "hello").await;
    let engine = side(Some("flood"), json!({"movetime": 60_000}));
    send(&mut ws, new_game("focus", engine, side(None, Value::Null))).await;
    until(&mut ws, "state").await;
    // The page reads nothing more: the server's queues fill, then hold.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.pid())).expect("status");
    let peak_kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .expect("VmHWM");
    assert!(peak_kb < 100_000, "the server held {peak_kb} kB at its peak");
}

/// A malformed `bestmove` (or a line that is not UTF-8) ends the game at
/// once, as in the arena, not after the timeout.
#[tokio::test]
async fn a_bare_bestmove_is_reported_at_once() {
    let bare =
        format!("cmd=sh -c \"{} engine | sed -u 's/^bestmove .*/bestmove/'\"", serve_support::BIN);
    let server = Server::start(&["--timeout", "20000", "--engine", "name=bare", &bare]);
    let mut ws = connect(&server).await;
    until(&mut ws, "hello").await;
    let started = std::time::Instant::now();
    let engine = side(Some("bare"), json!({"depth": 1}));
    send(&mut ws, new_game("otrazhenie", engine, side(None, Value::Null))).await;
    let error = until_fatal(&mut ws).await;
    assert!(started.elapsed() < Duration::from_secs(15), "waited for the timeout");
    let message = error["message"].as_str().unwrap_or("");
    assert!(message.contains("no valid 'bestmove'"), "{error}");
}

/// A client that sends half a request is cut off after `--header-timeout`.
#[tokio::test]
async fn half_sent_requests_are_closed() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = Server::start(&["--header-timeout", "300"]);
    let mut half = TcpStream::connect(&server.address).await.expect("connects");
    half.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").await.expect("written");
    let mut buf = Vec::new();
    let closed = tokio::time::timeout(Duration::from_secs(10), half.read_to_end(&mut buf)).await;
    assert!(closed.is_ok(), "the half-sent request is still open after 10 s");
    // A whole request is served as before.
    let mut whole = TcpStream::connect(&server.address).await.expect("connects");
    whole.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await.expect("sent");
    let mut page = Vec::new();
    whole.read_to_end(&mut page).await.expect("read");
    assert!(String::from_utf8_lossy(&page).starts_with("HTTP/1.1 200"), "no page");
}

/// An engine on a clock searches under it: `go` carries both players' time
/// and increments (`p1time p2time p1inc p2inc`, the protocol's
/// `wtime btime winc binc`), and its time shrinks from move to move.
#[tokio::test]
async fn engines_on_a_clock_get_the_time_of_both_sides() {
    let log = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("clock-go-{}.log", std::process::id()));
    let _ = std::fs::remove_file(&log);
    // Answers every go with the first legal move the test names, logging go.
    let fake = serve_support::script(
        "clock",
        &format!("go*) echo \"$line\" >> {}; echo 'bestmove a1-a2' ;;", log.display()),
    );
    let flag = format!("cmd={}", fake.display());
    let server = Server::start(&["--engine", "name=clocked", &flag, "--engine", "builtin=random"]);
    let mut ws = connect(&server).await;
    until(&mut ws, "hello").await;
    let clock = json!({"base_ms": 60_000, "inc_ms": 2_000});
    let mut game = new_game(
        "otrazhenie",
        json!({"engine": "clocked", "limit": null, "clock": clock}),
        json!({"engine": null, "limit": null, "clock": clock}),
    );
    game["fen"] = json!("B7/8/8/8/8/8/8/W7 w");
    send(&mut ws, game).await;
    // (The fake declares no options: a note, then the game.)
    let state = loop {
        let state = next(&mut ws).await;
        if state["type"] == "state" && state["human_to_move"] == true {
            break state;
        }
    };
    assert_eq!(state["moves"], json!(["a1-a2"]), "{state}");
    // White's clock: 60 s less its thinking, plus the increment.
    let white = state["clocks"][0].as_i64().expect("White's clock");
    assert!(white > 55_000 && white <= 62_000, "{state}");
    assert_eq!(state["ticking"], 2, "{state}");
    let go = std::fs::read_to_string(&log).expect("the engine logged its go");
    let words: Vec<&str> = go.split_whitespace().collect();
    for (name, value) in
        [("p1time", "60000"), ("p2time", "60000"), ("p1inc", "2000"), ("p2inc", "2000")]
    {
        let at =
            words.iter().position(|w| *w == name).unwrap_or_else(|| panic!("no {name} in {go}"));
        let given: u64 = words[at + 1].parse().expect("a number");
        let wanted: u64 = value.parse().expect("a number");
        assert!(given <= wanted && given + 5_000 > wanted, "{name} {given} in {go}");
    }
}

/// A resignation ends the game with a verdict, and the view request shows
/// earlier positions without disturbing the game.
#[tokio::test]
async fn resign_and_view() {
    let server = Server::start(&[]);
    let mut ws = connect(&server).await;
    until(&mut ws, "hello").await;
    send(&mut ws, new_game("otrazhenie", side(None, Value::Null), side(None, Value::Null))).await;
    let start = until(&mut ws, "state").await;
    let first = start["movepaths"]["moves"][0]["move"].as_str().expect("a move").to_owned();
    send(&mut ws, json!({"type": "move", "move": first})).await;
    let after = until(&mut ws, "state").await;
    send(&mut ws, json!({"type": "view", "ply": 0})).await;
    let view = until(&mut ws, "view").await;
    assert_eq!(view["fen"], start["fen"], "{view}");
    assert_eq!(view["pieces"], start["pieces"], "{view}");
    send(&mut ws, json!({"type": "view", "ply": 5})).await;
    let refused = next(&mut ws).await;
    assert_eq!(refused["type"], "error", "{refused}");
    send(&mut ws, json!({"type": "resign"})).await;
    let over = until(&mut ws, "state").await;
    // Black is to move in a game of two people: Black resigns.
    assert_eq!(over["game_over"], true, "{over}");
    assert_eq!(over["verdict"], json!({"result": "p1win", "reason": "resignation", "loser": 2}));
    assert_eq!(over["fen"], after["fen"]);
    send(&mut ws, json!({"type": "move", "move": first})).await;
    let refused = next(&mut ws).await;
    assert_eq!(refused["type"], "error", "{refused}");
}

/// A game resumed with a resignation or a flag comes back ended; a verdict
/// that is not one, or that contradicts the rules' own end, is refused.
#[tokio::test]
async fn a_resumed_game_keeps_its_verdict_unless_the_rules_ended_it() {
    let server = Server::start(&[]);
    let mut ws = connect(&server).await;
    until(&mut ws, "hello").await;
    let mut resumed = new_game("otrazhenie", side(None, Value::Null), side(None, Value::Null));
    resumed["verdict"] = json!({"result": "p2win", "reason": "time"});
    send(&mut ws, resumed.clone()).await;
    let over = until(&mut ws, "state").await;
    assert_eq!(over["game_over"], true, "{over}");
    assert_eq!(over["human_to_move"], false, "{over}");
    assert_eq!(over["verdict"], json!({"result": "p2win", "reason": "time", "loser": 1}));
    for (verdict, wanted) in [
        (json!({"result": "draw", "reason": "time"}), "p1win or p2win, not 'draw'"),
        (json!({"result": "p1win", "reason": "stalemate"}), "resignation or time, not"),
    ] {
        let mut bad = resumed.clone();
        bad["verdict"] = verdict;
        send(&mut ws, bad).await;
        let refused = until(&mut ws, "error").await;
        assert_eq!(refused["new_game"], true, "{refused}");
        assert!(refused["message"].as_str().unwrap_or("").contains(wanted), "{refused}");
    }
    // Black has nothing left: the rules ended the game, White won.
    let mut contradicted = resumed.clone();
    contradicted["fen"] = json!("W7/8/8/8/8/8/8/8 b");
    send(&mut ws, contradicted).await;
    let refused = until(&mut ws, "error").await;
    assert!(
        refused["message"].as_str().unwrap_or("").contains("the rules ended this game"),
        "{refused}"
    );
}
