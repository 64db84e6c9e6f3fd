//! The real `igroteka engine` process, driven through the protocol as GUIs and
//! tournament managers drive it: for every registered game, a whole game
//! between two engine processes with the command pattern of the Cute Games
//! transcript, and thousands of garbage lines.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use board_core::Rng;

const TIMEOUT: Duration = Duration::from_secs(30);

struct Engine {
    child: Child,
    /// `None` once closed.
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn spawn(args: &[&str]) -> Engine {
        let mut command = Command::new(env!("CARGO_BIN_EXE_igroteka"));
        command.arg("engine").args(args);
        Engine::start(command)
    }

    /// The engine as `command` runs it (under a limit, say).
    fn start(mut command: Command) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin: Some(stdin), lines }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("the input is open");
        writeln!(stdin, "{line}").expect("the engine reads its input");
    }

    /// The end of input.
    fn close(&mut self) {
        self.stdin = None;
    }

    /// The next line.
    fn line(&mut self) -> String {
        match self.lines.recv_timeout(TIMEOUT) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => panic!("no line within {TIMEOUT:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the engine ended"),
        }
    }

    /// Reads lines until one starts with `prefix`; returns it.
    fn expect(&mut self, prefix: &str) -> String {
        loop {
            match self.lines.recv_timeout(TIMEOUT) {
                Ok(line) if line.starts_with(prefix) => return line,
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => panic!("no '{prefix}' line within {TIMEOUT:?}"),
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the engine died waiting for '{prefix}'")
                }
            }
        }
    }

    /// Sends a query; returns the words after `response`.
    fn query(&mut self, what: &str) -> String {
        self.send(&format!("query {what}"));
        let line = self.expect("response");
        line.strip_prefix("response").unwrap_or("").trim().to_owned()
    }

    fn handshake(&mut self) {
        self.send("ugi");
        self.expect("ugiok");
        self.send("isready");
        self.expect("readyok");
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Some(stdin) = &mut self.stdin {
            let _ = writeln!(stdin, "quit");
        }
        let _ = self.child.wait();
    }
}

fn games() -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_igroteka")).arg("games").output().expect("games");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .collect()
}

#[test]
fn the_issue_example_session_answers_and_moves_legally() {
    let mut engine = Engine::spawn(&["--game", "otrazhenie"]);
    engine.handshake();
    engine.send("position startpos");
    let legal = engine.query("moves");
    engine.send("go nodes 1000");
    let best = engine.expect("bestmove");
    let words: Vec<&str> = best.split_whitespace().collect();
    assert_eq!(words.len(), 2, "bestmove is exactly two tokens: {best}");
    assert!(legal.split_whitespace().any(|m| m == words[1]), "{best} not in {legal}");
}

/// The transcript pattern: two engine processes, one per side, a clock,
/// `query p1turn` to engine 1 each move, `position` sent twice, `query
/// gameover` before each `go`, both asked `query result` at the end.
#[test]
fn every_game_plays_through_with_the_manager_pattern() {
    for game in games() {
        let mut engines = [Engine::spawn(&["--game", &game]), Engine::spawn(&["--game", &game])];
        for engine in &mut engines {
            engine.send("ugi");
            engine.expect("ugiok");
            engine.send("setoption name hash value 1");
            engine.send("setoption name maxplies value 80");
            engine.send("isready");
            engine.expect("readyok");
            engine.send("uginewgame");
        }
        let mut moves: Vec<String> = Vec::new();
        let mut clock = [3000i64, 3000i64];
        // The loop ends with the final `position` command.
        let result = loop {
            let position = if moves.is_empty() {
                "position startpos".to_owned()
            } else {
                format!("position startpos moves {}", moves.join(" "))
            };
            engines[0].send(&position);
            let p1turn = engines[0].query("p1turn");
            assert!(p1turn == "true" || p1turn == "false", "{game}: p1turn {p1turn}");
            let mover = usize::from(p1turn == "false");
            let engine = &mut engines[mover];
            engine.send("isready");
            engine.expect("readyok");
            engine.send(&position);
            engine.send(&position);
            if engine.query("gameover") == "true" {
                break position;
            }
            let legal = engine.query("moves");
            let started = std::time::Instant::now();
            engine.send(&format!("go p1time {} p2time {} p1inc 20 p2inc 20", clock[0], clock[1]));
            let best = engine.expect("bestmove");
            let spent = i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX);
            clock[mover] += 20 - spent;
            let words: Vec<&str> = best.split_whitespace().collect();
            assert_eq!(words.len(), 2, "{game}: {best}");
            assert!(
                legal.split_whitespace().any(|m| m == words[1]),
                "{game}: {best} not legal: {legal}"
            );
            assert!(clock[mover] > 0, "{game}: engine {} overran its clock", mover + 1);
            moves.push(words[1].to_owned());
            assert!(moves.len() <= 80, "{game}: MaxPlies 80 did not end the game");
        };
        let [first, second] = engines.map(|mut engine| {
            engine.send(&result);
            engine.query("result")
        });
        assert_eq!(first, second, "{game}: the engines disagree on the result");
        assert!(["p1win", "p2win", "draw"].contains(&first.as_str()), "{game}: {first}");
    }
}

#[test]
fn garbage_never_kills_the_engine_or_stops_isready() {
    let mut engine = Engine::spawn(&["--game", "otrazhenie"]);
    engine.handshake();
    let words = [
        "go",
        "position",
        "startpos",
        "fen",
        "moves",
        "setoption",
        "name",
        "value",
        "query",
        "perft",
        "stop",
        "a1-a5",
        "h8-h6",
        "Hash",
        "-1",
        "999999999999999999999",
        "infinite",
        "depth",
        "nodes",
        "p1time",
        "ugi",
        "d",
        "\u{0416}",
        "\t",
        "",
        "x",
    ];
    let mut rng = Rng::new(99);
    for i in 0..3000 {
        let len = rng.below(6);
        let line: Vec<&str> = (0..len).map(|_| words[rng.below(words.len())]).collect();
        let line = line.join(" ");
        // Keep searches short: a bare or infinite go would wait for stop.
        let line = if line.starts_with("go") { "go depth 1".to_owned() } else { line };
        if line.starts_with("quit") || line.starts_with("perft") {
            continue;
        }
        engine.send(&line);
        if i % 500 == 0 {
            engine.send("stop");
            engine.send("isready");
            engine.expect("readyok");
        }
    }
    engine.send("stop");
    engine.send("isready");
    engine.expect("readyok");
    assert!(engine.child.try_wait().expect("status").is_none(), "the engine is still running");
}

/// Runs `igroteka engine <args>` on the whole `input`; returns its output lines.
fn session(args: &[&str], input: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_igroteka"))
        .arg("engine")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("the engine reads its input");
    drop(stdin);
    let output = child.wait_with_output().expect("the engine ends");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).expect("UTF-8").lines().map(str::to_owned).collect()
}

#[test]
fn variant_before_game_gives_the_same_game() {
    let shown = |input: &str| -> Vec<String> {
        let lines = session(&[], input);
        lines.into_iter().filter(|l| l.contains(" variant ") || l.contains("error")).collect()
    };
    let expected = ["info string game hexdraughts variant blocked-draw to move White (p1)"];
    let game_first = "setoption name Game value hexdraughts\n\
                      setoption name Variant value blocked-draw\nisready\nd\n";
    let variant_first = "setoption name Variant value blocked-draw\n\
                         setoption name Game value hexdraughts\nisready\nd\n";
    assert_eq!(shown(game_first), expected);
    assert_eq!(shown(variant_first), expected);
    let impossible = shown(
        "setoption name Variant value blocked-draw\n\
                            setoption name Game value focus\nisready\nd\n",
    );
    assert!(
        impossible[0]
            .starts_with("info string error: Variant: focus has no variant 'blocked-draw'")
    );
    assert!(
        impossible[1].starts_with("info string game focus variant standard "),
        "{impossible:?}"
    );
}

/// The sessions of docs/protocol.md: code blocks that start with
/// `$ igroteka engine <args>`, as (args, the `>`/`<` lines).
fn documented_sessions() -> Vec<(Vec<String>, Vec<String>)> {
    let doc = include_str!("../docs/protocol.md");
    doc.split("```")
        .skip(1)
        .step_by(2)
        .filter_map(|block| {
            let mut lines = block.lines().skip(1);
            let args = lines.next()?.strip_prefix("$ igroteka engine")?;
            let args = args.split_whitespace().map(str::to_owned).collect();
            Some((args, lines.map(str::to_owned).collect()))
        })
        .collect()
}

/// An `info` line without its `time` and `nps`, which vary from run to run;
/// `id name` without the version, which changes with every release.
fn steady(line: &str) -> String {
    if line.starts_with("id name igroteka ") {
        return "id name igroteka *".to_owned();
    }
    if !line.starts_with("info ") || line.starts_with("info string") {
        return line.to_owned();
    }
    let mut words: Vec<&str> = line.split(' ').collect();
    for i in 1..words.len() {
        if ["time", "nps"].contains(&words[i - 1]) {
            words[i] = "*";
        }
    }
    words.join(" ")
}

/// Each documented session, run as a GUI would: every `>` line is sent once
/// the `<` lines before it have come, the input is closed after the last
/// one, and the answers must be the `<` lines (`< ...`: any lines).
#[test]
fn every_documented_session_runs_as_written() {
    let sessions = documented_sessions();
    assert!(sessions.len() >= 5, "{sessions:?}");
    for (args, script) in sessions {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let mut engine = Engine::spawn(&args);
        let last_input = script.iter().rposition(|l| l.starts_with("> ")).unwrap_or(0);
        let mut skipping = false;
        for (i, line) in script.iter().enumerate() {
            if let Some(command) = line.strip_prefix("> ") {
                engine.send(command);
                if i == last_input {
                    engine.close();
                }
            } else if line == "< ..." {
                skipping = true;
            } else if let Some(expected) = line.strip_prefix("< ") {
                loop {
                    let answer = engine.line();
                    if steady(&answer) == steady(expected) {
                        break;
                    }
                    assert!(skipping, "{args:?}: expected '{expected}', got '{answer}'");
                }
                skipping = false;
            } else {
                assert!(line.is_empty(), "{args:?}: not a session line: '{line}'");
            }
        }
        let status = engine.child.wait().expect("the engine ends");
        assert!(status.success(), "{args:?}");
        let rest: Vec<String> = engine.lines.try_iter().collect();
        assert!(rest.is_empty() || skipping, "{args:?}: unexpected {rest:?}");
    }
}

/// The command line of City's README, run as written.
#[test]
fn the_city_readme_example_runs_as_written() {
    let readme = include_str!("../crates/city/README.md");
    let block = readme.split("$ printf '").nth(1).expect("the example");
    let (input, rest) = block.split_once("' | igroteka engine").expect("a printf pipe");
    let (args, shown) = rest.split_once('\n').expect("the output");
    let shown: Vec<&str> = shown.split("```").next().unwrap_or("").lines().collect();
    let args: Vec<&str> = args.split_whitespace().collect();
    let lines = session(&args, &input.replace("\\n", "\n"));
    assert_eq!(shown.first(), Some(&"..."));
    let tail: Vec<String> =
        lines[lines.len() - (shown.len() - 1)..].iter().map(|l| steady(l)).collect();
    let expected: Vec<String> = shown[1..].iter().map(|l| steady(l)).collect();
    assert_eq!(tail, expected);
}

/// The keys Cute Games reads from its settings file (its `get_settings`), by
/// section; `""` is the top level.
const CUTEGAMES_KEYS: [(&str, &[&str]); 8] = [
    (
        "",
        &[
            "games",
            "concurrency",
            "ratinginterval",
            "debug",
            "recover",
            "verbose",
            "tournament",
            "protocol",
            "adjudication",
            "timecontrol",
            "openings",
            "sprt",
            "options",
            "pgn",
            "engines",
        ],
    ),
    ("adjudication", &["timeoutbuffer", "maxfullmoves"]),
    ("timecontrol", &["type", "time", "increment", "nodes", "ply"]),
    ("openings", &["path", "repeat", "shuffle"]),
    ("pgn", &["enabled", "verbose", "override", "path", "event", "colour1", "colour2"]),
    ("protocol", &["askturn"]),
    ("sprt", &["enabled", "confidence", "alpha", "beta", "elo0", "elo1"]),
    ("engine", &["name", "path", "parameters", "options"]),
];

fn keys_known(section: &str, object: &serde_json::Value) {
    let known = CUTEGAMES_KEYS.iter().find(|(name, _)| *name == section).expect("a section").1;
    let object = object.as_object().unwrap_or_else(|| panic!("'{section}' is an object"));
    for key in object.keys() {
        assert!(known.contains(&key.as_str()), "Cute Games does not read '{key}' in '{section}'");
    }
}

/// docs/cutegames-settings.json: only keys Cute Games reads, in the right
/// sections, what it requires, shown verbatim in protocol.md; its options and
/// openings are accepted by the engine in any order.
#[test]
fn the_documented_cutegames_settings_are_what_cutegames_reads() {
    let text = include_str!("../docs/cutegames-settings.json");
    assert!(include_str!("../docs/protocol.md").contains(text), "protocol.md shows the file");
    let settings: serde_json::Value = serde_json::from_str(text).expect("valid JSON");
    keys_known("", &settings);
    for section in ["adjudication", "timecontrol", "openings", "pgn"] {
        keys_known(section, &settings[section]);
    }
    let openings = settings["openings"]["path"].as_str().expect("openings.path is required");
    assert_eq!(openings, "cutegames-openings.txt");
    let engines = settings["engines"].as_array().expect("engines");
    assert!(engines.len() >= 2, "at least two engines");
    let global = settings["options"].as_object().expect("options");
    for engine in engines {
        keys_known("engine", engine);
        let path = engine["path"].as_str().expect("a path");
        assert!(path.ends_with("/.cargo/bin/igroteka") && !path.contains('~'), "{path}");
        let parameters: Vec<&str> =
            engine["parameters"].as_str().expect("parameters").split_whitespace().collect();
        assert_eq!(parameters[0], "engine");
        // Per-engine options replace the global ones; the order is not fixed.
        let mut options = global.clone();
        if let Some(own) = engine.get("options") {
            options.extend(own.as_object().expect("options").clone());
        }
        let lines: Vec<String> = options
            .iter()
            .map(|(name, value)| {
                format!("setoption name {name} value {}", value.as_str().expect("a string"))
            })
            .collect();
        for order in [lines.clone(), lines.iter().rev().cloned().collect()] {
            let mut input = order.join("\n");
            input.push_str("\nisready\n");
            for opening in include_str!("../docs/cutegames-openings.txt").lines() {
                let position = if opening == "startpos" {
                    "position startpos".to_owned()
                } else {
                    format!("position fen {opening}")
                };
                input.push_str(&format!("uginewgame\n{position}\nquery gameover\n"));
            }
            input.push_str("ugi\n");
            let out = session(&parameters[1..], &input);
            let errors: Vec<&String> = out.iter().filter(|l| l.contains("error")).collect();
            assert!(errors.is_empty(), "{errors:?}");
            let gameover = out.iter().filter(|l| *l == "response false").count();
            assert_eq!(gameover, include_str!("../docs/cutegames-openings.txt").lines().count());
            for (name, value) in &options {
                let value = value.as_str().unwrap_or_default();
                let declared = out.iter().any(|l| {
                    let l = l.to_ascii_lowercase();
                    l.starts_with(&format!("option name {name} "))
                        && l.contains(&format!(" default {value} "))
                });
                assert!(declared, "{name} = {value} was not taken: {out:?}");
            }
        }
    }
}

/// `bench` measures the search, so Otrazhenie's perfect-play table (which
/// the engine plays from in games) must stay out of it: a table answer costs
/// a few dozen probes, a depth-4 search thousands of nodes.
#[test]
fn bench_searches_otrazhenie_instead_of_reading_its_table() {
    let lines = session(&["--game", "otrazhenie"], "bench 4\n");
    let first = lines
        .iter()
        .find(|l| l.starts_with("info string bench position 1 "))
        .unwrap_or_else(|| panic!("no bench line in {lines:?}"));
    let nodes: u64 = first
        .split_whitespace()
        .skip_while(|w| *w != "nodes")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no node count in {first}"));
    assert!(nodes > 500, "bench position 1 searched only {nodes} nodes: {first}");
}

/// `--option NAME=VALUE`: for managers that cannot send `setoption`.
#[test]
fn options_on_the_command_line_are_set_as_setoption_would() {
    let capped = session(
        &["--game", "otrazhenie", "--option", "maxplies=2", "--option", "Engine=random"],
        "position startpos moves a1-a2 a8-a7\nquery gameover\nquery result\n",
    );
    assert_eq!(capped, ["response true", "response draw"]);
    for (bad, error) in [
        ("MaxPlies=lots", "option MaxPlies=lots: MaxPlies: bad value 'lots'"),
        ("Colour=red", "option Colour=red: unknown option 'Colour'"),
        ("Game=chess", "option Game=chess: Game: unknown game 'chess'"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_igroteka"))
            .args(["engine", "--option", bad])
            .stdin(Stdio::null())
            .output()
            .expect("runs");
        assert!(!out.status.success(), "{bad} accepted");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(error), "{bad}: {stderr}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_igroteka"))
        .args(["engine", "--option", "novalue"])
        .output()
        .expect("runs");
    assert!(String::from_utf8_lossy(&out.stderr).contains("expected NAME=VALUE"));
}

/// Under a limit on processes (a container, a batch system) `Threads 256`
/// cannot start every helper: the engine searches with those that started
/// and says so, rather than abort.
#[test]
fn a_thread_limit_searches_with_the_threads_that_started() {
    let exe = env!("CARGO_BIN_EXE_igroteka");
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc");
    let uid = status
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|ids| ids.split_whitespace().next())
        .expect("a uid")
        .to_owned();
    let mut command;
    if uid == "0" {
        // Root is not held to RLIMIT_NPROC: run as a user with no processes.
        command = Command::new("setpriv");
        command.args(["--reuid=65534", "--regid=65534", "--clear-groups", "prlimit", "--nproc=6"]);
    } else {
        // The limit counts every thread of the user: allow a few more than now.
        let threads =
            Command::new("ps").args(["-L", "--no-headers", "-u", &uid]).output().expect("ps");
        let now = threads.stdout.iter().filter(|&&b| b == b'\n').count();
        command = Command::new("prlimit");
        command.arg(format!("--nproc={}", now + 8));
    }
    command.args([exe, "engine", "--game", "focus"]);
    let mut engine = Engine::start(command);
    engine.handshake();
    engine.send("setoption name Threads value 256");
    engine.send("position startpos");
    engine.send("go depth 3");
    let said = engine.expect("info string");
    assert!(said.starts_with("info string searched with "), "{said}");
    assert!(said.contains(" of 256 threads: no more could start ("), "{said}");
    engine.expect("bestmove");
    engine.send("quit");
    engine.close();
    let status = engine.child.wait().expect("the engine ends");
    assert!(status.success(), "{status}");
}

/// The resident memory of process `pid`, in kB (Linux's /proc).
fn resident_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc");
    let line = status.lines().find_map(|l| l.strip_prefix("VmRSS:")).expect("a VmRSS line");
    line.trim().trim_end_matches("kB").trim().parse().expect("VmRSS in kB")
}

#[test]
#[cfg(target_os = "linux")]
fn an_idle_engine_holds_no_memory_for_its_table() {
    // The table is allocated zeroed: the operating system maps its pages only
    // when searches write them, so a 256 MB table costs an idle engine
    // nothing (written at start-up it held all 256 MB).
    let mut engine = Engine::spawn(&["--game", "hexdraughts"]);
    engine.send("setoption name Hash value 256");
    engine.handshake();
    engine.send("uginewgame");
    engine.send("position startpos");
    engine.send("isready");
    engine.expect("readyok");
    let idle = resident_kb(engine.child.id());
    assert!(idle < 64 * 1024, "an idle engine with Hash 256 holds {idle} kB");
    // A search touches only the pages it stores into.
    engine.send("go depth 3");
    engine.expect("bestmove");
    let searched = resident_kb(engine.child.id());
    assert!(searched < 128 * 1024, "after a depth-3 search it holds {searched} kB");
}

/// The `info` lines up to `bestmove`, and the best move.
fn search_lines(engine: &mut Engine, go: &str) -> (Vec<String>, String) {
    engine.send(go);
    let mut infos = Vec::new();
    loop {
        let line = engine.line();
        if let Some(best) = line.strip_prefix("bestmove ") {
            return (infos, best.to_owned());
        }
        if line.starts_with("info ") && !line.starts_with("info string") {
            infos.push(line);
        }
    }
}

/// The word after `key` in an `info` line.
fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    words.find(|w| *w == key)?;
    words.next()
}

#[test]
fn multipv_reports_that_many_lines_per_depth_best_first() {
    let mut engine = Engine::spawn(&["--game", "adiyukh"]);
    engine.handshake();
    engine.send("setoption name MultiPV value 3");
    engine.send("position startpos");
    let legal: Vec<String> = engine.query("moves").split_whitespace().map(str::to_owned).collect();
    assert!(legal.len() > 3, "{legal:?}");
    let (infos, best) = search_lines(&mut engine, "go depth 4");
    assert_eq!(infos.len(), 12, "3 lines at each of 4 depths: {infos:?}");
    for (depth, lines) in infos.chunks(3).enumerate() {
        let numbers: Vec<_> = lines.iter().map(|l| field(l, "multipv")).collect();
        assert_eq!(numbers, [Some("1"), Some("2"), Some("3")], "{lines:?}");
        let depths: Vec<_> = lines.iter().map(|l| field(l, "depth")).collect();
        let depth = (depth + 1).to_string();
        assert!(depths.iter().all(|d| *d == Some(depth.as_str())), "{lines:?}");
        let firsts: Vec<&str> = lines.iter().filter_map(|l| field(l, "pv")).collect();
        assert_eq!(firsts.len(), 3, "{lines:?}");
        assert!(firsts.iter().all(|mv| legal.iter().any(|l| l == mv)), "{lines:?}");
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
        let cps: Vec<i32> =
            lines.iter().filter_map(|l| field(l, "cp").and_then(|cp| cp.parse().ok())).collect();
        if cps.len() == 3 {
            assert!(cps[0] >= cps[1] && cps[1] >= cps[2], "best first: {lines:?}");
        }
    }
    assert_eq!(Some(best.as_str()), field(&infos[9], "pv"), "bestmove is line 1's");
    // Back to one line: no `multipv` field, one line a depth.
    engine.send("setoption name MultiPV value 1");
    let (infos, _) = search_lines(&mut engine, "go depth 4");
    assert_eq!(infos.len(), 4, "{infos:?}");
    assert!(infos.iter().all(|l| field(l, "multipv").is_none()), "{infos:?}");
    // MCTS reports one line whatever `MultiPV` says.
    engine.send("setoption name MultiPV value 3");
    engine.send("setoption name Engine value mcts");
    let (infos, best) = search_lines(&mut engine, "go nodes 300");
    assert!(!infos.is_empty() && legal.contains(&best), "{infos:?} {best}");
    assert!(infos.iter().all(|l| field(l, "multipv").is_none()), "{infos:?}");
}

/// The scores of a depth-3 search of a hexdraughts position after a few
/// plies, one per depth, with the options `setup` sets first.
fn hexdraughts_scores(setup: &str) -> (Vec<String>, Vec<String>) {
    hexdraughts_scores_after(setup, "go depth 3")
}

/// As [`hexdraughts_scores`], searching with `go`.
fn hexdraughts_scores_after(setup: &str, go: &str) -> (Vec<String>, Vec<String>) {
    let mut engine = Engine::spawn(&["--game", "hexdraughts"]);
    engine.handshake();
    for line in setup.lines() {
        engine.send(line);
    }
    engine.send("isready");
    let mut notes = Vec::new();
    loop {
        let line = engine.line();
        if line == "readyok" {
            break;
        }
        notes.push(line);
    }
    engine.send("position startpos");
    let legal: Vec<String> = engine.query("moves").split_whitespace().map(str::to_owned).collect();
    engine.send(&format!("position startpos moves {}", legal[legal.len() / 2]));
    let (infos, _) = search_lines(&mut engine, go);
    let scores = infos
        .iter()
        .map(|l| format!("{} {}", field(l, "score").unwrap_or("?"), score_value(l)))
        .collect();
    (scores, notes)
}

/// The number after `score cp|win|loss` in an `info` line.
fn score_value(line: &str) -> String {
    let mut words = line.split_whitespace().skip_while(|w| *w != "score");
    words.nth(2).unwrap_or("?").to_owned()
}

/// `Evaluation learned` searches with the shipped weights (other scores
/// than the classic evaluation's), `EvalFile` with a file's (the shipped
/// file gives the shipped scores), and a file that is not the game's is
/// refused in one line, keeping the weights before it.
#[test]
fn evaluation_learned_changes_the_searchs_scores_and_evalfile_loads_weights() {
    let (classic, notes) = hexdraughts_scores("setoption name Evaluation value classic");
    assert!(notes.is_empty(), "{notes:?}");
    let (learned, notes) = hexdraughts_scores("setoption name Evaluation value learned");
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(classic.len(), 3, "{classic:?}");
    assert_eq!(learned.len(), 3, "{learned:?}");
    assert_ne!(classic, learned, "the learned evaluation gave the classic scores");
    let shipped =
        concat!(env!("CARGO_MANIFEST_DIR"), "/../crates/hexdraughts/data/learned.weights");
    let (from_file, notes) = hexdraughts_scores(&format!(
        "setoption name Evaluation value learned\nsetoption name EvalFile value {shipped}"
    ));
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(from_file, learned);
    let other = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let (kept, notes) = hexdraughts_scores(&format!(
        "setoption name Evaluation value learned\nsetoption name EvalFile value {other}"
    ));
    assert_eq!(
        notes,
        [format!(
            "info string error: EvalFile: {other}: not a weights file (it does not start with \
             IGROEVAL)"
        )]
    );
    assert_eq!(kept, learned);
}

/// MCTS follows `Evaluation` too: at a fixed number of iterations its
/// score differs between `learned` and `classic`, and the shipped weights
/// from `EvalFile` give the learned score again.
#[test]
fn mcts_searches_with_the_evaluation_option() {
    let mcts = |evaluation: &str| {
        let (scores, notes) = hexdraughts_scores_after(
            &format!(
                "setoption name Engine value mcts\nsetoption name Evaluation value {evaluation}"
            ),
            "go nodes 3000",
        );
        assert!(notes.is_empty(), "{notes:?}");
        scores.last().cloned().expect("an info line")
    };
    let (classic, learned) = (mcts("classic"), mcts("learned"));
    assert!(classic.starts_with("cp ") && learned.starts_with("cp "), "{classic} {learned}");
    assert_ne!(classic, learned, "MCTS searched classic with Evaluation learned");
    assert_eq!(mcts("classic"), classic, "not deterministic");
    let shipped =
        concat!(env!("CARGO_MANIFEST_DIR"), "/../crates/hexdraughts/data/learned.weights");
    assert_eq!(mcts(&format!("learned\nsetoption name EvalFile value {shipped}")), learned);
}

/// The `Evaluation` line of the answer to `ugi` after `setup`.
fn declared_evaluation(game: &str, setup: &str) -> String {
    let mut engine = Engine::spawn(&["--game", game]);
    for line in setup.lines() {
        engine.send(line);
    }
    engine.send("ugi");
    loop {
        let line = engine.line();
        assert_ne!(line, "ugiok", "no Evaluation option declared");
        if line.starts_with("option name Evaluation ") {
            return line;
        }
    }
}

/// Until `Evaluation` is set, the engine searches with the game's default:
/// learned in hexdraughts, adiyukh and stykovka (it won at equal time), classic in otrazhenie (no
/// weights); `ugi` declares the current game's default, which follows
/// `setoption name Game`, and a set value stays across games.
#[test]
fn the_default_evaluation_is_the_games_and_setting_it_overrides_it() {
    let (default, _) = hexdraughts_scores("");
    let (learned, _) = hexdraughts_scores("setoption name Evaluation value learned");
    let (classic, _) = hexdraughts_scores("setoption name Evaluation value classic");
    assert_eq!(default, learned);
    assert_ne!(default, classic, "the default searched with the classic evaluation");
    let line = |default: &str| {
        format!("option name Evaluation type combo default {default} var classic var learned")
    };
    assert_eq!(declared_evaluation("hexdraughts", ""), line("learned"));
    assert_eq!(declared_evaluation("otrazhenie", ""), line("classic"));
    assert_eq!(declared_evaluation("adiyukh", ""), line("learned"));
    assert_eq!(declared_evaluation("stykovka", ""), line("learned"));
    assert_eq!(declared_evaluation("focus", ""), line("classic"));
    assert_eq!(
        declared_evaluation("hexdraughts", "setoption name Game value otrazhenie"),
        line("classic")
    );
    assert_eq!(
        declared_evaluation("otrazhenie", "setoption name Game value hexdraughts"),
        line("learned")
    );
    let set = "setoption name Evaluation value classic\nsetoption name Game value hexdraughts";
    assert_eq!(declared_evaluation("otrazhenie", set), line("classic"));
}
