//! `check-engine`'s conformance script against the fake engine (tic-tac-toe,
//! `examples/fake-engine.rs`): a well-behaved one passes every check; each
//! misbehaviour fails its own check, named, with why.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use arena::{CheckArgs, check_engine};
use board_core::tictactoe::TicTacToe;
use clap::Parser;
use search::GameEntry;

/// `fake-engine` of this crate's `examples/`, which `cargo test -p
/// igroteka-arena` builds next to the test binaries.
fn fake() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let path = exe
        .ancestors()
        .nth(2)
        .unwrap()
        .join("examples")
        .join(format!("fake-engine{}", std::env::consts::EXE_SUFFIX));
    assert!(path.exists(), "{} is missing: run `cargo test -p igroteka-arena`", path.display());
    path
}

fn games() -> &'static [GameEntry] {
    Box::leak(Box::new([GameEntry::of::<TicTacToe>()]))
}

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    check: CheckArgs,
}

/// Runs the checks against the fake engine in `mode` (acting at its
/// `at`-th `go`): whether all passed, and the output lines.
fn check(mode: &str, at: u32) -> (bool, Vec<String>) {
    let fake = fake().display().to_string();
    let at = at.to_string();
    let args = [
        "check-engine",
        "--timeout",
        "500",
        "--start-timeout",
        "1000",
        "--positions",
        "6",
        "--",
        &fake,
        "--mode",
        mode,
        "--at",
        &at,
    ];
    let cli = Cli::try_parse_from(args).unwrap();
    let mut out = Vec::new();
    let passed = check_engine(games(), &cli.check, &mut out).unwrap();
    (passed, String::from_utf8(out).unwrap().lines().map(str::to_owned).collect())
}

/// The line of check `name`.
fn line<'a>(lines: &'a [String], name: &str) -> &'a str {
    lines
        .iter()
        .find(|l| l.get(5..).is_some_and(|rest| rest.starts_with(name)))
        .unwrap_or_else(|| panic!("no check '{name}' in {lines:#?}"))
}

const CHECKS: [&str; 17] = [
    "ugi",
    "options",
    "isready",
    "uginewgame",
    "go depth 1",
    "go nodes 100",
    "go movetime 100",
    "go p1time p2time p1inc p2inc (player 2 to move)",
    "go p1time p2time movestogo 4",
    "position startpos moves",
    "position fen moves",
    "isready during search",
    "stop",
    "stop with no search",
    "query gameover, p1turn, result",
    "legal bestmove in 6 random positions",
    "quit",
];

#[test]
fn a_well_behaved_engine_passes_every_check() {
    let (passed, lines) = check("normal", 1);
    assert!(passed, "{lines:#?}");
    for name in CHECKS {
        assert!(line(&lines, name).starts_with("ok   "), "{lines:#?}");
    }
    let summary = lines.last().unwrap();
    assert!(
        summary.starts_with("17 checks of ") && summary.ends_with(": 17 ok, 0 FAIL"),
        "{summary}"
    );
}

/// Runs `mode` and asserts that exactly the checks `failing` fail, each
/// with a reason containing its text; the others pass.
fn fails(mode: &str, at: u32, failing: &[(&str, &str)]) {
    let (passed, lines) = check(mode, at);
    assert!(!passed, "{mode}: {lines:#?}");
    for name in CHECKS {
        let text = line(&lines, name);
        match failing.iter().find(|(f, _)| *f == name) {
            Some((_, why)) => assert!(
                text.starts_with(&format!("FAIL {name}: ")) && text.contains(why),
                "{mode}: '{name}' should fail with '{why}': {lines:#?}"
            ),
            None => assert!(text.starts_with("ok   "), "{mode}: '{name}' should pass: {lines:#?}"),
        }
    }
    let summary = lines.last().unwrap();
    assert!(summary.ends_with(&format!(" {} FAIL", failing.len())), "{summary}");
}

#[test]
fn no_ugiok_fails_the_handshake_and_runs_nothing_else() {
    let (passed, lines) = check("no-ugiok", 1);
    assert!(!passed);
    assert_eq!(line(&lines, "ugi"), "FAIL ugi: no 'ugiok' within 1000 ms");
    for name in &CHECKS[1..] {
        let text = line(&lines, name);
        let want = format!("FAIL {name}: not run: the engine does not start (no 'ugiok'");
        assert!(text.starts_with(&want), "{lines:#?}");
    }
}

/// Runs `mode`, which misbehaves at the `at`-th `go` of each engine
/// process: the checks before `name` pass, `name` fails with `why`. (A
/// failed check kills the engine and the next one starts a fresh process,
/// whose `at`-th `go` misbehaves again.)
fn fails_first(mode: &str, at: u32, name: &str, why: &str) -> Vec<String> {
    let (passed, lines) = check(mode, at);
    assert!(!passed, "{mode}: {lines:#?}");
    let index = CHECKS.iter().position(|c| *c == name).unwrap();
    for earlier in &CHECKS[..index] {
        assert!(line(&lines, earlier).starts_with("ok   "), "{mode}: {lines:#?}");
    }
    let text = line(&lines, name);
    assert!(
        text.starts_with(&format!("FAIL {name}: ")) && text.contains(why),
        "{mode}: '{name}' should fail with '{why}': {lines:#?}"
    );
    lines
}

#[test]
fn no_readyok_during_a_search_is_named() {
    fails("deaf-search", 1, &[("isready during search", "no 'readyok' within 500 ms")]);
}

#[test]
fn a_search_that_ignores_stop_is_named() {
    fails(
        "ignore-stop",
        1,
        &[
            ("isready during search", "no 'bestmove' within 500 ms"),
            ("stop", "no 'bestmove' within 500 ms"),
        ],
    );
}

#[test]
fn an_illegal_bestmove_is_named() {
    fails_first("illegal", 1, "go depth 1", "bestmove 'c");
    // In a random position given as a position text (the 11th go).
    fails_first("illegal", 11, "legal bestmove in 6 random positions", "after 'fen ");
}

#[test]
fn an_engine_that_ignores_quit_is_killed_and_named() {
    let started = Instant::now();
    fails("ignore-quit", 1, &[("quit", "still running 500 ms after 'quit' (killed)")]);
    assert!(started.elapsed() < Duration::from_secs(60));
}

#[test]
fn an_engine_that_dies_mid_search_is_named_and_the_next_check_restarts_it() {
    let lines = fails_first("crash", 2, "go nodes 100", "the engine is gone");
    assert!(line(&lines, "go nodes 100").contains("crashing on purpose at go 2"), "{lines:#?}");
    // A fresh engine for the next check: its first go is fine.
    assert!(line(&lines, "go movetime 100").starts_with("ok   "), "{lines:#?}");
}

#[test]
fn a_flood_of_output_is_named() {
    fails_first("flood", 3, "go movetime 100", "more than 10000 lines without 'bestmove'");
}

#[test]
fn a_command_that_cannot_start_is_one_error() {
    let args = ["check-engine", "--", "/nonexistent/engine"];
    let cli = Cli::try_parse_from(args).unwrap();
    let error = check_engine(games(), &cli.check, &mut Vec::new()).unwrap_err().to_string();
    assert!(error.starts_with("cannot start '/nonexistent/engine'"), "{error}");
    assert!(!error.contains('\n'), "{error}");
}
