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
async fn an_engine_without_the_options_plays_with_a_note_and_must_move() {
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
        text.contains(
            "engine 'fake' does not declare the options Game, Variant, MaxPlies, so they were \
             not set"
        ),
        "{note}"
    );
    let error = until_fatal(&mut ws).await;
    assert_eq!(error["restart"], true, "{error}");
    let message = error["message"].as_str().unwrap_or("");
    assert!(message.contains("'fake' answered 'bestmove (none)'"), "{error}");
    server.wait_for_children(0);
}

/// Only an option the engine declares can be refused.
#[tokio::test]
async fn an_option_the_engine_declares_and_rejects_is_told_apart_from_one_it_lacks() {
    let picky = serve_support::script(
        "picky",
        "ugi) echo 'option name Game type string default city'; echo ugiok ;;\n    \
         setoption*) echo 'info string error: no such game here' ;;",
    );
    let flag = format!("cmd={}", picky.display());
    let server = Server::start(&["--engine", "name=picky", &flag]);
    let mut ws = connect(&server).await;
    until(&mut ws, "hello").await;
    let picky = side(Some("picky"), json!({"depth": 1}));
    send(&mut ws, new_game("focus", side(None, Value::Null), picky)).await;
    until(&mut ws, "state").await;
    let mut notes = Vec::new();
    for _ in 0..2 {
        let note = next(&mut ws).await;
        notes.push(note["message"].as_str().unwrap_or_default().to_owned());
    }
    assert_eq!(
        notes,
        [
            "engine 'picky' does not declare the options Variant, MaxPlies, so they were not set",
            "engine 'picky' refused an option: no such game here",
        ]
    );
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
    let cases: [(&[&str], &str); 6] = [
        (&["--engine", "name=x"], "--engine needs cmd=COMMAND or builtin=KIND"),
        (&["--referee", "nobody"], "--referee 'nobody' is none of the --engine names"),
        (&["--max-games", "0"], "--max-games must be at least 1"),
        (&["--max-connections", "0"], "--max-connections must be from 1 to 1048576"),
        (&["--idle-timeout", "0"], "--idle-timeout must be at least 1 ms"),
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
    assert!(refusal["message"].as_str().unwrap_or("").contains("a move is one word"), "{refusal}");
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

/// Two moves in one text (a space of any kind between them) were once
/// played as two plies: the person chose the engine's reply and the engine
/// was never asked. Through `move`, `new`'s position text and `new`'s moves,
/// such a text is refused and nothing is played.
#[tokio::test]
async fn two_moves_in_one_text_are_refused_not_played() {
    let mut referee = serve_support::Engine::start("otrazhenie", "standard");
    let first = referee.query("moves").split_whitespace().next().expect("a move").to_owned();
    referee.send(&format!("position startpos moves {first}"));
    let reply = referee.query("moves").split_whitespace().next().expect("a reply").to_owned();
    let start = referee.query("fen");

    let server = Server::start(&[]);
    let mut ws = connect(&server).await;
    until(&mut ws, "hello").await;
    let engine = side(Some("alphabeta"), json!({"depth": 1}));
    send(&mut ws, new_game("otrazhenie", side(None, Value::Null), engine.clone())).await;
    let state = until(&mut ws, "state").await;
    assert_eq!(state["moves"], json!([]), "{state}");
    for space in [" ", "\u{a0}", "\u{2028}", "\u{3000}", "\t"] {
        let two = format!("{first}{space}{reply}");
        send(&mut ws, json!({"type": "move", "move": two})).await;
        let refusal = until(&mut ws, "error").await;
        let message = refusal["message"].as_str().unwrap_or("");
        assert!(message.contains("a move is one word"), "{two:?}: {refusal}");
        assert_eq!(refusal["restart"], false, "{refusal}");
    }
    // Nothing was played: the person's first move is still theirs to make,
    // and the engine answers it.
    send(&mut ws, json!({"type": "move", "move": first})).await;
    let mut state = until(&mut ws, "state").await;
    while state["moves"].as_array().map_or(0, Vec::len) < 2 {
        state = until(&mut ws, "state").await;
    }
    assert_eq!(state["moves"][0], json!(first), "{state}");

    // The same two moves smuggled through a new game's position text or
    // its list of moves: refused, the running game goes on.
    let mut smuggled = new_game("otrazhenie", side(None, Value::Null), engine.clone());
    smuggled["fen"] = json!(format!("{start} moves {first} {reply}"));
    send(&mut ws, smuggled).await;
    let error = until(&mut ws, "error").await;
    assert!(error["message"].as_str().unwrap_or("").contains("'moves'"), "{error}");
    let mut smuggled = new_game("otrazhenie", side(None, Value::Null), engine);
    smuggled["moves"] = json!([format!("{first}\u{3000}{reply}")]);
    send(&mut ws, smuggled).await;
    let error = until(&mut ws, "error").await;
    assert!(
        error["message"].as_str().unwrap_or("").contains("move 1: a move is one word"),
        "{error}"
    );
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

/// Opens `/ws` by hand on a socket with a small receive buffer, so that a
/// client that never reads fills the server's side at once; the server's
/// answer (its `101` head) is read, nothing after it.
async fn raw_websocket(server: &Server) -> TcpStream {
    try_raw_websocket(server).await.expect("the server takes the WebSocket")
}

/// As [`raw_websocket`]; `None` when the server answers anything but `101`.
async fn try_raw_websocket(server: &Server) -> Option<TcpStream> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
    socket.set_recv_buffer_size(4096).expect("a small receive buffer");
    let mut stream =
        socket.connect(server.address.parse().expect("an address")).await.expect("connects");
    let request = format!(
        "GET /ws HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
        server.address
    );
    stream.write_all(request.as_bytes()).await.expect("the request is sent");
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut byte = [0];
        stream.read_exact(&mut byte).await.ok()?;
        head.push(byte[0]);
    }
    head.starts_with(b"HTTP/1.1 101").then_some(stream)
}

/// A masked ping frame with the largest payload a control frame may carry.
fn ping_frame() -> Vec<u8> {
    let mut frame = vec![0x89, 0x80 | 125, 1, 2, 3, 4];
    frame.extend((0..125u8).map(|i| i ^ [1, 2, 3, 4][usize::from(i % 4)]));
    frame
}

/// A client that sends pings and never reads their pongs costs the server
/// a bounded amount, and is cut off.
#[tokio::test]
async fn a_ping_flood_that_never_reads_is_bounded_and_cut_off() {
    use tokio::io::AsyncWriteExt;
    let server = Server::start(&[]);
    let mut flood = raw_websocket(&server).await;
    let pings = ping_frame().repeat(512);
    let started = std::time::Instant::now();
    let mut cut_off = false;
    while started.elapsed() < Duration::from_secs(40) {
        let rss_kb = serve_support::memory_kb(server.pid(), "VmRSS");
        assert!(rss_kb < 100_000, "the server holds {rss_kb} kB after {:?}", started.elapsed());
        match tokio::time::timeout(Duration::from_millis(100), flood.write_all(&pings)).await {
            Ok(Ok(())) | Err(_) => {}
            Ok(Err(_)) => {
                cut_off = true;
                break;
            }
        }
    }
    let peak_kb = serve_support::memory_kb(server.pid(), "VmHWM");
    assert!(peak_kb < 100_000, "the server held {peak_kb} kB at its peak");
    assert!(cut_off, "the server still takes pings after {:?}", started.elapsed());
    // Others are served as before.
    let mut ws = connect(&server).await;
    until(&mut ws, "hello").await;
}

/// Idle WebSockets (a page that was opened and left) cost the server
/// little each.
#[tokio::test]
async fn idle_websockets_cost_little_each() {
    const SOCKETS: u64 = 400;
    let server = Server::start(&["--max-connections", "1000"]);
    let mut first = connect(&server).await;
    until(&mut first, "hello").await;
    let before_kb = serve_support::memory_kb(server.pid(), "VmRSS");
    let mut idle = Vec::new();
    for _ in 0..SOCKETS {
        let mut ws = connect(&server).await;
        until(&mut ws, "hello").await;
        idle.push(ws);
    }
    let after_kb = serve_support::memory_kb(server.pid(), "VmRSS");
    let each_kb = after_kb.saturating_sub(before_kb) / SOCKETS;
    assert!(each_kb < 25, "an idle WebSocket costs the server {each_kb} kB");
}

/// A plain `GET /` on a new connection: the head of the answer, or `None`
/// when none comes within `wait`.
async fn get_page(server: &Server, wait: Duration) -> Option<String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = TcpStream::connect(&server.address).await.expect("connects");
    stream.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await.ok()?;
    let mut answer = Vec::new();
    tokio::time::timeout(wait, stream.read_to_end(&mut answer)).await.ok()?.ok()?;
    let text = String::from_utf8_lossy(&answer);
    Some(text.lines().next().unwrap_or_default().to_owned())
}

/// Past `--max-connections`, a connection is answered `503` at once; when
/// one closes, the next is served.
#[tokio::test]
async fn connections_past_the_limit_are_refused_until_one_closes() {
    let server = Server::start(&["--max-connections", "3"]);
    let mut open = Vec::new();
    for _ in 0..3 {
        let mut ws = connect(&server).await;
        until(&mut ws, "hello").await;
        open.push(ws);
    }
    let refused = get_page(&server, Duration::from_secs(10)).await;
    assert_eq!(refused.as_deref(), Some("HTTP/1.1 503 Service Unavailable"));
    let url = format!("ws://{}/ws", server.address);
    assert!(tokio_tungstenite::connect_async(url).await.is_err(), "a fourth WebSocket opened");
    drop(open.pop());
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let answer = get_page(&server, Duration::from_secs(10)).await;
        if answer.as_deref() == Some("HTTP/1.1 200 OK") {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "still refused: {answer:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A tab without a game is closed after `--idle-timeout`, saying why; one
/// with a game is not. A keep-alive connection that went quiet is closed
/// after `--header-timeout`.
#[tokio::test]
async fn tabs_without_a_game_and_quiet_connections_are_closed() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = Server::start(&["--idle-timeout", "500", "--header-timeout", "500"]);
    let mut playing = connect(&server).await;
    until(&mut playing, "hello").await;
    send(&mut playing, new_game("focus", side(None, Value::Null), side(None, Value::Null))).await;
    until(&mut playing, "state").await;
    let mut idle = connect(&server).await;
    until(&mut idle, "hello").await;
    let closed = tokio::time::timeout(Duration::from_secs(10), idle.next()).await;
    let Ok(Some(Ok(Message::Close(Some(frame))))) = closed else {
        panic!("the idle tab is not closed: {closed:?}");
    };
    assert_eq!(frame.reason.as_str(), "no game for 500 ms");
    tokio::time::sleep(Duration::from_millis(1000)).await;
    send(&mut playing, json!({"type": "view", "ply": 0})).await;
    until(&mut playing, "view").await;
    let mut quiet = TcpStream::connect(&server.address).await.expect("connects");
    quiet.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n").await.expect("sent");
    let mut page = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), quiet.read_to_end(&mut page)).await;
    assert!(read.is_ok(), "the quiet keep-alive connection is still open after 10 s");
    assert!(String::from_utf8_lossy(&page).starts_with("HTTP/1.1 200"), "no page");
}

/// At the limit of open files the server waits for one to close rather
/// than retry `accept` at once for ever, and then answers.
#[tokio::test]
async fn at_the_limit_of_open_files_the_server_waits_and_then_answers() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = Server::start_with_open_files(48, &[]);
    let mut open = Vec::new();
    let waiting = loop {
        assert!(open.len() < 48, "48 WebSockets opened under a limit of 48 files");
        let mut stream = TcpStream::connect(&server.address).await.expect("connects");
        let request = format!(
            "GET /ws HTTP/1.1\r\nHost: {}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
            server.address
        );
        stream.write_all(request.as_bytes()).await.expect("the request is sent");
        let mut head = [0; 12];
        match tokio::time::timeout(Duration::from_secs(2), stream.read_exact(&mut head)).await {
            Ok(Ok(_)) => {
                assert_eq!(&head, b"HTTP/1.1 101", "{}", String::from_utf8_lossy(&head));
                open.push(stream);
            }
            Ok(Err(e)) => panic!("the server closed a connection: {e}"),
            Err(_) => break stream,
        }
    };
    let before = server.cpu_ticks();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let used = server.cpu_ticks() - before;
    assert!(
        used < 20,
        "the server used {used} hundredths of a second of processor in 2 s while out of files"
    );
    drop(open);
    let mut waiting = waiting;
    let mut head = [0; 12];
    let answered = tokio::time::timeout(Duration::from_secs(10), waiting.read_exact(&mut head));
    assert!(matches!(answered.await, Ok(Ok(_))), "the waiting client got no answer");
    assert_eq!(&head, b"HTTP/1.1 101");
}

/// One client opening many WebSockets, each with all but the last byte of
/// the largest message sent, costs the server a bounded amount: past
/// `--max-connections` it is refused.
#[tokio::test]
async fn many_sockets_each_holding_a_half_sent_message_stay_bounded() {
    use tokio::io::AsyncWriteExt;
    const LARGEST: usize = 1 << 20;
    let server = Server::start(&[]);
    let mut header = vec![0x81, 0x80 | 127];
    header.extend((LARGEST as u64).to_be_bytes());
    header.extend([0; 4]);
    let payload = vec![b' '; LARGEST - 1];
    let mut open = Vec::new();
    for _ in 0..300 {
        let Some(mut stream) = try_raw_websocket(&server).await else { continue };
        stream.write_all(&header).await.expect("the header is sent");
        stream.write_all(&payload).await.expect("the message is sent");
        open.push(stream);
        let rss_kb = serve_support::memory_kb(server.pid(), "VmRSS");
        assert!(rss_kb < 200_000, "the server holds {rss_kb} kB with {} sockets", open.len());
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let rss_kb = serve_support::memory_kb(server.pid(), "VmRSS");
    assert!(rss_kb < 200_000, "the server holds {rss_kb} kB with {} sockets", open.len());
}

/// A request's head is held up to 64 KiB (hyper reads up to twice that
/// before it looks), not hyper's 400 KiB.
#[tokio::test]
async fn a_request_head_of_200_kib_is_refused() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = Server::start(&[]);
    let mut stream = TcpStream::connect(&server.address).await.expect("connects");
    let cookie = "x".repeat(200 << 10);
    let request =
        format!("GET / HTTP/1.1\r\nHost: x\r\nCookie: {cookie}\r\nConnection: close\r\n\r\n");
    let _ = stream.write_all(request.as_bytes()).await;
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer)).await;
    let answer = String::from_utf8_lossy(&answer);
    assert!(!answer.starts_with("HTTP/1.1 200"), "a 200 KiB head was taken: {answer:.40}");
}

/// Refusals are bounded too: with 64 `503`s under way (their clients read
/// nothing), a further connection is closed without one.
#[tokio::test]
async fn past_64_refusals_under_way_a_connection_is_just_closed() {
    use tokio::io::AsyncReadExt;
    let server = Server::start(&["--max-connections", "1"]);
    let mut ws = connect(&server).await;
    until(&mut ws, "hello").await;
    let mut refused = Vec::new();
    for _ in 0..64 {
        refused.push(TcpStream::connect(&server.address).await.expect("connects"));
    }
    let mut closed = TcpStream::connect(&server.address).await.expect("connects");
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), closed.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "the connection is still open");
    assert!(answer.is_empty(), "{}", String::from_utf8_lossy(&answer));
    let mut first = Vec::new();
    let _ = refused[0].read_to_end(&mut first).await;
    assert!(first.starts_with(b"HTTP/1.1 503"), "{}", String::from_utf8_lossy(&first));
}

#[tokio::test]
async fn a_record_is_read_by_the_rules_and_a_review_searches_every_position_then_ends() {
    let server = Server::start(&[]);
    let mut ws = connect(&server).await;
    until(&mut ws, "hello").await;
    // A refused move is named; nothing starts.
    let bad = "[Game \"otrazhenie\"]\n1. a1-a5 h8-h4 2. a5-a9";
    send(&mut ws, json!({"type": "import", "text": bad})).await;
    let refused = until(&mut ws, "import_refused").await;
    let message = refused["message"].as_str().unwrap_or_default();
    assert!(message.starts_with("move 3 (a5-a9) refused: "), "{refused}");
    assert!(!message.contains('\n'), "one line: {message}");
    // No [Game] tag: the game the page names.
    let text = "[FEN \"startpos\"]\n1. a1-a5 {+0.1} h8-h4?! 2. a5-a1 *";
    send(&mut ws, json!({"type": "import", "text": text, "game": "otrazhenie"})).await;
    let imported = until(&mut ws, "imported").await;
    assert_eq!(imported["moves"], json!(["a1-a5", "h8-h4", "a5-a1"]), "{imported}");
    assert_eq!(
        (&imported["game"], &imported["variant"]),
        (&json!("otrazhenie"), &json!("standard"))
    );

    // Loaded as a game of two people: the referee alone.
    let mut game = new_game("otrazhenie", side(None, Value::Null), side(None, Value::Null));
    game["moves"] = imported["moves"].clone();
    send(&mut ws, game).await;
    until(&mut ws, "state").await;
    server.wait_for_children(1);
    send(&mut ws, json!({"type": "review", "movetime_ms": 20})).await;
    for ply in 0..=3 {
        let reviewed = until(&mut ws, "reviewed").await;
        assert_eq!(reviewed["ply"], ply, "{reviewed}");
        assert_eq!(reviewed["plies"], 3);
        assert_eq!(reviewed["to_move"], if ply % 2 == 0 { 1 } else { 2 }, "{reviewed}");
        assert!(reviewed["score"].as_str().is_some_and(|s| s.starts_with("cp ")), "{reviewed}");
        assert!(reviewed["best"].is_string(), "{reviewed}");
    }
    let done = until(&mut ws, "review_done").await;
    assert_eq!((&done["error"], &done["stopped"]), (&Value::Null, &json!(false)));
    // Its engine has ended with it.
    server.wait_for_children(1);

    // A review stopped midway ends its engine too.
    send(&mut ws, json!({"type": "review", "movetime_ms": 5000})).await;
    server.wait_for_children(2);
    send(&mut ws, json!({"type": "review_stop"})).await;
    let done = until(&mut ws, "review_done").await;
    assert_eq!(done["stopped"], true, "{done}");
    server.wait_for_children(1);
}

/// A game's link (`watch`) is followed read-only by other sockets: they get
/// its board and each position as it is played, cannot move, hold no
/// `--max-games` place and are not idle while they watch; once the player's
/// tab leaves, the link still shows the game, until more ended games than
/// `--watch-kept` push it out.
#[tokio::test]
async fn a_game_is_watched_by_its_link_read_only_and_without_a_place() {
    let server =
        Server::start(&["--max-games", "1", "--idle-timeout", "1000", "--watch-kept", "1"]);
    let mut owner = connect(&server).await;
    until(&mut owner, "hello").await;
    send(&mut owner, new_game("otrazhenie", side(None, Value::Null), side(None, Value::Null)))
        .await;
    let link = until(&mut owner, "link").await;
    let id = link["id"].as_str().expect("an id").to_owned();
    assert_eq!(id.len(), 8, "{link}");
    assert!(link["key"].as_str().is_some_and(|key| key.len() >= 16), "{link}");
    let start = until(&mut owner, "state").await;
    let mut spectator = connect(&server).await;
    until(&mut spectator, "hello").await;
    send(&mut spectator, json!({"type": "watch", "id": id})).await;
    let watch = until(&mut spectator, "watch").await;
    assert_eq!(watch["owner"], true, "{watch}");
    assert_eq!(watch["settings"]["game"], "otrazhenie", "{watch}");
    assert!(watch.get("key").is_none() && watch["settings"].get("link").is_none(), "{watch}");
    until(&mut spectator, "board").await;
    let seen = until(&mut spectator, "state").await;
    assert_eq!(seen["fen"], start["fen"]);
    // It cannot move, nor take the player's place.
    let first = start["movepaths"]["moves"][0]["move"].as_str().expect("a move").to_owned();
    send(&mut spectator, json!({"type": "move", "move": first})).await;
    let refused = next(&mut spectator).await;
    assert_eq!(refused["type"], "error", "{refused}");
    assert!(refused["message"].as_str().unwrap_or("").contains("watches a game"), "{refused}");
    // The player's move reaches it.
    send(&mut owner, json!({"type": "move", "move": first})).await;
    let after = until(&mut owner, "state").await;
    let pushed = until(&mut spectator, "state").await;
    assert_eq!(pushed["moves"], json!([first]));
    assert_eq!(pushed["fen"], after["fen"]);
    // It looks back: the player's tab answers.
    send(&mut spectator, json!({"type": "view", "ply": 0})).await;
    let view = until(&mut spectator, "view").await;
    assert_eq!(view["fen"], start["fen"], "{view}");
    assert_eq!(view["pieces"], start["pieces"], "{view}");
    // Past the idle timeout the spectator is still there (it has a game);
    // the one place is the player's.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    send(&mut spectator, new_game("focus", side(None, Value::Null), side(None, Value::Null))).await;
    let refused = next(&mut spectator).await;
    assert_eq!(refused["new_game"], true, "{refused}");
    assert!(refused["message"].as_str().unwrap_or("").contains("at most 1 games"), "{refused}");
    // An unknown link is told.
    let mut stranger = connect(&server).await;
    until(&mut stranger, "hello").await;
    send(&mut stranger, json!({"type": "watch", "id": "zzzzzzzz"})).await;
    let unknown = next(&mut stranger).await;
    assert!(unknown["message"].as_str().unwrap_or("").contains("no game 'zzzzzzzz'"), "{unknown}");
    // The player leaves: the spectator is told, and the link still shows
    // the game to a newcomer.
    drop(owner);
    let left = until(&mut spectator, "watch").await;
    assert_eq!(left["owner"], false, "{left}");
    send(&mut stranger, json!({"type": "watch", "id": id})).await;
    assert_eq!(until(&mut stranger, "watch").await["owner"], false);
    let kept = until(&mut stranger, "state").await;
    assert_eq!(kept["moves"], json!([first]), "{kept}");
    assert_eq!(kept["ticking"], Value::Null, "{kept}");
    // No tab can show earlier positions now.
    send(&mut stranger, json!({"type": "view", "ply": 0})).await;
    let refused = next(&mut stranger).await;
    assert!(refused["message"].as_str().unwrap_or("").contains("cannot be shown now"), "{refused}");
    // Another game ends: with --watch-kept 1 the first is dropped.
    let mut other = connect(&server).await;
    until(&mut other, "hello").await;
    send(&mut other, new_game("focus", side(None, Value::Null), side(None, Value::Null))).await;
    until(&mut other, "link").await;
    drop(other);
    for ws in [&mut spectator, &mut stranger] {
        let dropped = loop {
            let message = next(ws).await;
            if message["type"] == "error" {
                break message;
            }
        };
        assert!(dropped["message"].as_str().unwrap_or("").contains("no longer kept"), "{dropped}");
    }
}

/// A score as a number to compare (`cp 35`, `win 3`, `loss 4`).
fn score_value(score: &Value) -> i64 {
    let text = score.as_str().unwrap_or_else(|| panic!("a score: {score}"));
    let (kind, n) = text.split_once(' ').expect("kind and number");
    let n: i64 = n.parse().expect("a number");
    match kind {
        "cp" => n,
        "win" => 1_000_000 - n,
        "loss" => -1_000_000 + n,
        _ => panic!("an unknown score {text}"),
    }
}

/// The notices of analysis `id` until its end, which is returned last.
async fn analysis(ws: &mut Socket, id: u32) -> Vec<Value> {
    let mut notices = Vec::new();
    loop {
        let message = next(ws).await;
        assert_ne!(message["type"], "error", "{message}");
        if message["id"] != id {
            continue;
        }
        let done = message["type"] == "analysis_done";
        notices.push(message);
        if done {
            return notices;
        }
    }
}

/// Issue 33, item 1: the analysis board's positions off the game's line
/// (`explore`) and its searches of several lines (`analyse`); the game is
/// not changed by either, and bad requests are refused in one line.
#[tokio::test]
async fn variations_are_explored_and_analysed_in_several_lines_without_changing_the_game() {
    let server = Server::start(&[]);
    let mut ws = connect(&server).await;
    until(&mut ws, "hello").await;
    send(&mut ws, new_game("focus", side(None, Value::Null), side(None, Value::Null))).await;
    let link = until(&mut ws, "link").await;
    let mut played = until(&mut ws, "state").await;
    server.wait_for_children(1);
    // A spectator's positions are described by the player's tab; it
    // starts no engine.
    let mut spectator = connect(&server).await;
    until(&mut spectator, "hello").await;
    send(&mut spectator, json!({"type": "watch", "id": link["id"]})).await;
    until(&mut spectator, "watch").await;
    send(&mut spectator, json!({"type": "explore", "ply": 0})).await;
    let seen = until(&mut spectator, "explored").await;
    assert_eq!((&seen["ply"], &seen["to_move"]), (&json!(0), &json!(1)), "{seen}");
    send(&mut spectator, json!({"type": "explore", "ply": 0, "moves": ["zz9"]})).await;
    let refused = until(&mut spectator, "explore_refused").await;
    assert!(refused["message"].as_str().unwrap_or_default().contains("'zz9'"), "{refused}");
    send(&mut spectator, json!({"type": "analyse", "id": 1, "ply": 0})).await;
    let refused = loop {
        let message = next(&mut spectator).await;
        if message["type"] == "error" {
            break message;
        }
    };
    assert!(refused["message"].as_str().unwrap_or_default().starts_with("this tab watches a game"));
    server.wait_for_children(1);
    let first_move = |explored: &Value, not: &str| {
        let moves = explored["movepaths"]["moves"].as_array().expect("moves").clone();
        let found = moves.iter().map(|m| m["move"].as_str().expect("a move").to_owned());
        found.into_iter().find(|m| m != not).expect("another move")
    };
    for _ in 0..3 {
        send(&mut ws, json!({"type": "move", "move": first_move(&played, "")})).await;
        played = until(&mut ws, "state").await;
    }
    let game_moves = played["moves"].clone();
    let second = game_moves[1].as_str().expect("move 2").to_owned();

    // The position after move 1, then a variation of two moves from it.
    send(&mut ws, json!({"type": "explore", "ply": 1})).await;
    let after_one = until(&mut ws, "explored").await;
    assert_eq!((&after_one["ply"], &after_one["to_move"]), (&json!(1), &json!(2)), "{after_one}");
    send(&mut ws, json!({"type": "view", "ply": 1})).await;
    assert_eq!(until(&mut ws, "view").await["fen"], after_one["fen"]);
    let other = first_move(&after_one, &second);
    send(&mut ws, json!({"type": "explore", "ply": 1, "moves": [other]})).await;
    let branched = until(&mut ws, "explored").await;
    assert_eq!((&branched["moves"], &branched["to_move"]), (&json!([other]), &json!(1)));
    assert_ne!(branched["fen"], after_one["fen"]);
    let on = first_move(&branched, "");
    send(&mut ws, json!({"type": "explore", "ply": 1, "moves": [other, on]})).await;
    let deeper = until(&mut ws, "explored").await;
    assert_eq!(deeper["to_move"], 2, "{deeper}");

    // Bad requests are refused in one line, naming what was wrong.
    let long: Vec<&str> = vec!["a1"; 1001];
    let refusals = [
        (json!({"type": "explore", "ply": 9}), "the game has no move 9: it has 3"),
        (json!({"type": "explore", "ply": 1, "moves": [other, "zz9"]}), "'zz9'"),
        (json!({"type": "explore", "ply": 0, "moves": ["a1\nb2"]}), "variation move 1: "),
        (json!({"type": "explore", "ply": 0, "moves": long}), "a variation of 1001 moves"),
    ];
    for (request, wanted) in refusals {
        send(&mut ws, request.clone()).await;
        let refused = until(&mut ws, "explore_refused").await;
        let message = refused["message"].as_str().unwrap_or_default();
        assert!(message.contains(wanted) && !message.contains('\n'), "{request}: {refused}");
        assert_eq!(refused["ply"], request["ply"]);
    }

    // Three lines, best first, each depth; a bestmove at the end.
    let ask = json!({"type": "analyse", "id": 7, "ply": 0, "lines": 3, "movetime_ms": 300});
    send(&mut ws, ask).await;
    let notices = analysis(&mut ws, 7).await;
    let (done, lines) = notices.split_last().expect("the end");
    assert_eq!((&done["error"], &done["stopped"]), (&Value::Null, &json!(false)), "{done}");
    assert!(done["best"].is_string(), "{done}");
    let deepest = lines.iter().filter_map(|l| l["depth"].as_u64()).max().expect("a depth");
    let last: Vec<&Value> = lines.iter().filter(|l| l["depth"] == deepest).collect();
    assert!(last.len() >= 3, "{last:?}");
    let at_depth: Vec<u64> = last.iter().map(|l| l["line"].as_u64().expect("a line")).collect();
    assert_eq!(at_depth[..3], [1, 2, 3], "{last:?}");
    for pair in last[..3].windows(2) {
        assert!(score_value(&pair[0]["score"]) >= score_value(&pair[1]["score"]), "{pair:?}");
    }
    assert!(last.iter().all(|l| l["to_move"] == 1 && l["pv"][0].is_string()), "{last:?}");
    let firsts: std::collections::BTreeSet<String> =
        last[..3].iter().map(|l| l["pv"][0].to_string()).collect();
    assert_eq!(firsts.len(), 3, "three different moves: {last:?}");
    // Its engine stays for the next position.
    server.wait_for_children(2);

    // Refused analyses end at once with why.
    let refusals = [
        (
            json!({"type": "analyse", "id": 8, "ply": 1, "lines": 11}),
            "11 lines: an analysis shows 1 to 10",
        ),
        (json!({"type": "analyse", "id": 8, "ply": 1, "lines": 0}), "0 lines"),
        (json!({"type": "analyse", "id": 8, "ply": 1, "engine": "nobody"}), "no engine \"nobody\""),
        (json!({"type": "analyse", "id": 8, "ply": 4}), "the game has no move 4"),
        (json!({"type": "analyse", "id": 8, "ply": 0, "moves": ["zz9"]}), "'zz9'"),
    ];
    for (request, wanted) in refusals {
        send(&mut ws, request.clone()).await;
        let done = until(&mut ws, "analysis_done").await;
        let error = done["error"].as_str().unwrap_or_default();
        assert!(done["id"] == 8 && error.contains(wanted) && !error.contains('\n'), "{done}");
    }
    // A long search is stopped; another engine replaces the first.
    let long = json!({"type": "analyse", "id": 9, "ply": 0, "lines": 2, "engine": "mcts"});
    send(&mut ws, long).await;
    until(&mut ws, "analysis").await;
    send(&mut ws, json!({"type": "analyse_stop"})).await;
    let stopped = analysis(&mut ws, 9).await;
    assert_eq!(stopped.last().expect("the end")["stopped"], true, "{stopped:?}");
    server.wait_for_children(2);

    // The game is as it was: its moves, and the person plays on from them.
    send(&mut ws, json!({"type": "view", "ply": 3})).await;
    assert_eq!(until(&mut ws, "view").await["fen"], played["fen"]);
    let next_move = first_move(&played, "");
    send(&mut ws, json!({"type": "move", "move": next_move})).await;
    let state = until(&mut ws, "state").await;
    let mut moves = game_moves.as_array().expect("moves").clone();
    moves.push(json!(next_move));
    assert_eq!(state["moves"], json!(moves), "{state}");
    // A new game ends the analysis engine.
    send(&mut ws, new_game("focus", side(None, Value::Null), side(None, Value::Null))).await;
    until(&mut ws, "state").await;
    server.wait_for_children(1);
}

/// With `MultiPV` set on an engine, a player's search is told by its best
/// line alone (one `info` per depth, not one per line), and a review scores
/// a position by its best line.
#[tokio::test]
async fn searches_of_several_lines_are_told_by_their_best_line() {
    let multi = ["name=multi", "builtin=alphabeta", "option.MultiPV=5"];
    let mut args = vec!["--engine"];
    args.extend(multi);
    args.extend(["--engine", "builtin=random", "--referee", "multi"]);
    let server = Server::start(&args);
    let mut ws = connect(&server).await;
    until(&mut ws, "hello").await;
    // White takes Black's last piece: a win in 1, the only one.
    let mut game = new_game("otrazhenie", side(None, Value::Null), side(None, Value::Null));
    game["fen"] = json!("8/8/8/3B4/8/8/7W/W7 w");
    send(&mut ws, game).await;
    until(&mut ws, "state").await;
    send(&mut ws, json!({"type": "review", "movetime_ms": 200})).await;
    let reviewed = until(&mut ws, "reviewed").await;
    assert_eq!(reviewed["score"], "win 1", "{reviewed}");
    assert_eq!(reviewed["pv"][0], reviewed["best"], "{reviewed}");
    until(&mut ws, "review_done").await;

    // The engine with five lines plays: its infos come one per depth.
    let limit = json!({"depth": 3});
    send(
        &mut ws,
        new_game("focus", side(Some("multi"), limit.clone()), side(Some("random"), limit)),
    )
    .await;
    let mut depths: Vec<u64> = Vec::new();
    let mut searches = 0;
    while searches < 3 {
        let message = next(&mut ws).await;
        assert_ne!(message["type"], "error", "{message}");
        if message["type"] == "info" && message["side"] == 1 {
            depths.push(message["depth"].as_u64().expect("a depth"));
        }
        if message["type"] == "state" && !depths.is_empty() {
            assert!(depths.windows(2).all(|d| d[0] < d[1]), "one info per depth: {depths:?}");
            depths.clear();
            searches += 1;
        }
    }
}
