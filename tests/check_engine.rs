//! `igroteka check-engine`, as a user runs it: the built-in engine passes
//! every check in every game; engines that misbehave fail the check that
//! names what they did, and the command exits non-zero.

#[path = "serve_support.rs"]
mod serve_support;

use std::process::Command;

use serve_support::{BIN, games, script};

/// `igroteka check-engine <args>`: success, stdout, stderr.
fn check_engine(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(BIN).arg("check-engine").args(args).output().expect("igroteka runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_built_in_engine_passes_every_check_in_every_game() {
    let games = games();
    assert_eq!(games.len(), 6);
    for (game, _) in games {
        // A wide margin: the machine running the tests may be busy.
        let (ok, out, err) =
            check_engine(&["--game", &game, "--timemargin", "1000", "--", BIN, "engine"]);
        assert!(ok, "{game}: {out}{err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 18, "{game}: {out}");
        assert!(lines[..17].iter().all(|l| l.starts_with("ok   ")), "{game}: {out}");
        let summary = lines[17];
        assert!(summary.contains(&format!("({game} ")), "{game}: {out}");
        assert!(summary.ends_with("): 17 ok, 0 FAIL"), "{game}: {out}");
    }
}

#[test]
fn an_engine_that_ignores_quit_fails_that_check_alone_and_is_killed() {
    // The real engine behind a wrapper that lives on after it has quit.
    let wrapper = script("quit-ignored", "");
    std::fs::write(&wrapper, format!("#!/bin/sh\n'{BIN}' engine \"$@\"\nexec sleep 60\n"))
        .expect("write the wrapper");
    let wrapper = wrapper.display().to_string();
    let started = std::time::Instant::now();
    let (ok, out, _) = check_engine(&[
        "--game",
        "city",
        "--timeout",
        "1000",
        "--timemargin",
        "1000",
        "--",
        &wrapper,
        "--game",
        "city",
    ]);
    assert!(!ok, "{out}");
    let fails: Vec<&str> = out.lines().filter(|l| l.starts_with("FAIL")).collect();
    assert_eq!(fails, ["FAIL quit: still running 1000 ms after 'quit' (killed)"], "{out}");
    assert!(out.ends_with(": 16 ok, 1 FAIL\n"), "{out}");
    // Not the wrapper's minute: it was killed.
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
}

#[test]
fn a_uci_engine_and_an_engine_without_ugiok_are_named() {
    let uci = script("uci-only", "ugi) echo 'id name uci-only'; echo uciok ;;");
    let (ok, out, _) = check_engine(&["--start-timeout", "500", "--", &uci.display().to_string()]);
    assert!(!ok);
    assert!(
        out.starts_with("FAIL ugi: answered 'ugi' with 'uciok': a UCI engine; UGI needs 'ugiok'\n"),
        "{out}"
    );
    let silent = script("no-ugiok", "ugi) echo 'id name silent' ;;");
    let (ok, out, _) =
        check_engine(&["--start-timeout", "500", "--", &silent.display().to_string()]);
    assert!(!ok);
    assert!(out.starts_with("FAIL ugi: no 'ugiok' within 500 ms\n"), "{out}");
    assert!(out.contains("FAIL go depth 1: not run: the engine does not start"), "{out}");
}

#[test]
fn an_illegal_bestmove_is_named_with_the_position() {
    let liar = script("illegal", "go*) echo 'bestmove zz99' ;;");
    let (ok, out, _) = check_engine(&["--game", "focus", "--", &liar.display().to_string()]);
    assert!(!ok);
    assert!(out.contains("FAIL go depth 1: bestmove 'zz99' after 'startpos': "), "{out}");
}

#[test]
fn a_command_that_cannot_start_is_a_one_line_error() {
    let (ok, out, err) = check_engine(&["--", "/nonexistent/engine", "--flag"]);
    assert!(!ok);
    assert!(out.is_empty(), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: cannot start '/nonexistent/engine'"), "{err}");
    let (ok, _, err) = check_engine(&["--game", "chess", "--", BIN, "engine"]);
    assert!(!ok);
    assert!(err.starts_with("error: unknown game 'chess'"), "{err}");
}
