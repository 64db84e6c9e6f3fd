//! Whole tournaments over tic-tac-toe with the fake engine: built-ins through
//! the `igroteka engine` path, misbehaving engines, shard + merge, kill and
//! resume.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use arena::{ArenaArgs, GameRecord, Standings, Termination, read_records};
use board_core::tictactoe::TicTacToe;
use clap::Parser;
use search::GameEntry;

/// A test program of this crate's `examples/`, which `cargo test -p igroteka-arena`
/// builds next to the test binaries (`target/<profile>/examples`).
fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let path = exe
        .ancestors()
        .nth(2)
        .unwrap()
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing: run `cargo test -p igroteka-arena`, which builds it",
        path.display()
    );
    path
}

fn fake() -> String {
    example("fake-engine").display().to_string()
}

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    arena: ArenaArgs,
}

fn games() -> &'static [GameEntry] {
    Box::leak(Box::new([GameEntry::of::<TicTacToe>()]))
}

/// A test's scratch directory, removed when the test passes (kept for a
/// look when it fails).
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn scratch(name: &str) -> Scratch {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("arena-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

fn arena(args: &[String]) -> anyhow::Result<()> {
    let cli = Cli::try_parse_from(std::iter::once("arena".to_owned()).chain(args.iter().cloned()))?;
    arena::run(games(), example("fake-engine"), cli.arena)
}

fn args(text: &[&str]) -> Vec<String> {
    text.iter().map(|s| (*s).to_owned()).collect()
}

fn records(path: &Path) -> Vec<GameRecord> {
    read_records(games(), &[path.to_owned()]).unwrap()
}

const DETERMINISTIC: &[&str] = &[
    "--engine",
    "builtin=alphabeta",
    "--engine",
    "builtin=mcts",
    "--engine",
    "builtin=random",
    "--each",
    "depth=3",
    "nodes=60",
    "--rounds",
    "2",
    "--openings",
    "random:2",
    "--seed",
    "7",
    "--concurrency",
    "2",
    "--quiet",
];

#[test]
fn built_ins_play_a_round_robin() {
    let dir = scratch("builtins");
    let jsonl = dir.join("games.jsonl");
    let pgn = dir.join("games.pgn");
    let mut a = args(DETERMINISTIC);
    a.extend(args(&[
        "--jsonl",
        jsonl.to_str().unwrap(),
        "--pgnout",
        pgn.to_str().unwrap(),
        "--query-result",
    ]));
    arena(&a).unwrap();
    let games = records(&jsonl);
    assert_eq!(games.len(), 12);
    for g in &games {
        assert_eq!(g.termination, Termination::Normal, "{g:?}");
        assert!(g.disagreements.is_empty(), "{g:?}");
        assert_eq!(g.opening_plies, 2);
        let mut pos = GameEntry::of::<TicTacToe>().start("standard").unwrap();
        for mv in &g.moves {
            pos.play_move_text(mv).unwrap();
        }
        assert_eq!(pos.outcome().unwrap().result_text(), g.result);
    }
    let pgn = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), 12);
    assert_eq!(pgn.matches("[Termination \"normal\"]").count(), 12);
}

#[test]
fn misbehaving_engines_lose_with_the_right_termination() {
    let dir = scratch("faults");
    let jsonl = dir.join("games.jsonl");
    let engine = |name: &str, mode: &str| {
        args(&[
            "--engine",
            &format!("name={name}"),
            &format!("cmd={} --mode {mode} --at 2 --delay 1500", fake()),
        ])
    };
    let mut a = args(&["--engine", "name=good", "builtin=random"]);
    for (name, mode) in [
        ("crasher", "crash"),
        ("hanger", "hang"),
        ("sleeper", "late"),
        ("cheat", "illegal"),
        ("babbler", "garbage"),
    ] {
        a.extend(engine(name, mode));
    }
    a.extend(args(&[
        "--gauntlet",
        "--rounds",
        "1",
        "--each",
        "movetime=300",
        "--stall-timeout",
        "700",
        "--concurrency",
        "4",
        "--quiet",
        "--jsonl",
        jsonl.to_str().unwrap(),
    ]));
    arena(&a).unwrap();
    let games = records(&jsonl);
    assert_eq!(games.len(), 10);
    let expected = [
        ("crasher", Termination::Disconnect),
        ("hanger", Termination::Stall),
        ("sleeper", Termination::TimeForfeit),
        ("cheat", Termination::IllegalMove),
        ("babbler", Termination::GarbageOutput),
    ];
    for g in &games {
        let bad = if g.p1 == "good" { &g.p2 } else { &g.p1 };
        let (_, termination) = expected.iter().find(|(n, _)| n == bad).unwrap();
        assert_eq!(g.termination, *termination, "{g:?}");
        let good_won = if g.p1 == "good" { "1-0" } else { "0-1" };
        assert_eq!(g.result, good_won, "{g:?}");
        assert!(g.reason.starts_with(bad.as_str()), "{g:?}");
    }
}

#[test]
fn a_result_disagreement_is_reported() {
    let dir = scratch("liar");
    let jsonl = dir.join("games.jsonl");
    arena(&args(&[
        "--engine",
        "name=honest",
        "builtin=random",
        "--engine",
        "name=liar",
        &format!("cmd={} --mode liar", fake()),
        "--rounds",
        "3",
        "--each",
        "nodes=1",
        "--query-result",
        "--quiet",
        "--jsonl",
        jsonl.to_str().unwrap(),
    ]))
    .unwrap();
    let games = records(&jsonl);
    assert_eq!(games.len(), 6);
    for g in &games {
        assert_eq!(g.disagreements.is_empty(), g.result == "1-0", "{g:?}");
        if g.result != "1-0" {
            assert_eq!(g.disagreements, ["liar: p1win"]);
        }
    }
}

#[test]
fn max_plies_adjudicates() {
    let dir = scratch("maxplies");
    let jsonl = dir.join("games.jsonl");
    arena(&args(&[
        "--engine",
        "builtin=random",
        "--engine",
        "name=other",
        "builtin=random",
        "--max-plies",
        "3",
        "--each",
        "nodes=1",
        "--quiet",
        "--jsonl",
        jsonl.to_str().unwrap(),
    ]))
    .unwrap();
    for g in records(&jsonl) {
        assert_eq!(
            (g.termination, g.result.as_str(), g.plies()),
            (Termination::MaxPlies, "1/2-1/2", 3)
        );
    }
}

#[test]
fn shards_merge_into_the_unsharded_tournament() {
    let dir = scratch("shards");
    let whole = dir.join("whole.jsonl");
    let mut a = args(DETERMINISTIC);
    a.extend(args(&["--jsonl", whole.to_str().unwrap()]));
    arena(&a).unwrap();
    let shards: Vec<PathBuf> = (1..=3).map(|i| dir.join(format!("shard{i}.jsonl"))).collect();
    for (i, path) in shards.iter().enumerate() {
        let mut a = args(DETERMINISTIC);
        a.extend(args(&["--shard", &format!("{}/3", i + 1), "--jsonl", path.to_str().unwrap()]));
        arena(&a).unwrap();
    }
    let sizes: Vec<usize> = shards.iter().map(|p| records(p).len()).collect();
    assert_eq!(sizes.iter().sum::<usize>(), 12, "{sizes:?}");
    let strip = |mut games: Vec<GameRecord>| {
        for g in &mut games {
            g.duration_ms = 0;
            g.evals.iter_mut().for_each(|e| e.ms = 0);
        }
        games
    };
    let merged = strip(read_records(games(), &shards).unwrap());
    let unsharded = strip(records(&whole));
    assert_eq!(merged, unsharded);
    assert_eq!(
        Standings::new(&[], &merged).report(None),
        Standings::new(&[], &unsharded).report(None)
    );
    arena(
        &[vec!["merge".to_owned()], shards.iter().map(|p| p.display().to_string()).collect()]
            .concat(),
    )
    .unwrap();
}

#[test]
fn kill_and_resume_lose_nothing() {
    let dir = scratch("resume");
    let state = dir.join("state.jsonl");
    let jsonl = dir.join("games.jsonl");
    let pgn = dir.join("games.pgn");
    let command = || {
        let mut c = Command::new(example("tictactoe-arena"));
        c.args(["--rounds", "8", "--each", "nodes=1", "--concurrency", "2", "--quiet"])
            .arg("--state")
            .arg(&state)
            .arg("--jsonl")
            .arg(&jsonl)
            .arg("--pgnout")
            .arg(&pgn)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        c
    };
    let mut child = command().spawn().unwrap();
    let started = Instant::now();
    let finished_lines =
        || std::fs::read_to_string(&state).map_or(0, |s| s.lines().count().saturating_sub(1));
    while finished_lines() < 6 {
        assert!(started.elapsed() < Duration::from_secs(60), "no progress");
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    wait_until_unlocked(&state);
    let before = read_records(games(), std::slice::from_ref(&state)).unwrap();
    assert!(before.len() >= 6 && before.len() < 48, "{}", before.len());
    assert!(command().status().unwrap().success());
    let after = read_records(games(), std::slice::from_ref(&state)).unwrap();
    assert_eq!(after.len(), 48);
    let ids: HashSet<u64> = after.iter().map(|g| g.id).collect();
    assert_eq!(ids, (0..48).collect());
    for game in &before {
        assert!(after.contains(game), "game {} was replayed", game.id);
    }
    let lines = std::fs::read_to_string(&jsonl).unwrap().lines().count();
    assert_eq!(lines, 48);
    assert_eq!(std::fs::read_to_string(&pgn).unwrap().matches("[Event ").count(), 48);
    let other = command().arg("--seed").arg("99").status().unwrap();
    assert!(!other.success(), "a state file of another tournament must be refused");
}

#[test]
fn no_arguments_runs_the_built_ins() {
    arena(&args(&["--quiet"])).unwrap();
}

#[test]
fn bad_flags_are_refused() {
    for bad in [
        &["--game", "chess"][..],
        &["--variant", "huge"],
        &["--engine", "builtin=mcts"],
        &["--engine", "builtin=mcts", "--engine", "builtin=mcts"],
        &["--sprt"],
        &["--rounds", "0"],
        &["--openings", "book"],
        &["--shard", "3/2"],
        &["--games", "0"],
        &["--repeat", "--games", "3"],
        &["--restart", "sometimes"],
    ] {
        assert!(arena(&args(bad)).is_err(), "{bad:?}");
    }
}

#[test]
fn sprt_stops_a_decided_match() {
    let dir = scratch("sprt");
    let jsonl = dir.join("games.jsonl");
    arena(&args(&[
        "--engine",
        "name=perfect",
        "builtin=alphabeta",
        "depth=9",
        "--engine",
        "builtin=random",
        "nodes=1",
        "--rounds",
        "100",
        "--openings",
        "random:1",
        "--sprt",
        "elo0=0",
        "elo1=20",
        "--concurrency",
        "2",
        "--quiet",
        "--jsonl",
        jsonl.to_str().unwrap(),
    ]))
    .unwrap();
    let games = records(&jsonl);
    assert!(games.len() >= 4 && games.len() < 200, "{}", games.len());
    let standings = Standings::new(&["perfect".to_owned(), "random".to_owned()], &games);
    assert_eq!(standings.totals[0].losses, 0);
    let sprt = arena::Sprt { elo0: 0.0, elo1: 20.0, alpha: 0.05, beta: 0.05, pentanomial: true };
    assert_eq!(sprt.verdict(standings.sprt_llr(&sprt)), arena::SprtVerdict::H1);
}

/// Two random players `a` and `b` at one node a move, quiet, then `extra`.
fn two_randoms(extra: &[&str]) -> Vec<String> {
    let mut a = args(&[
        "--engine",
        "name=a",
        "builtin=random",
        "--engine",
        "name=b",
        "builtin=random",
        "--each",
        "nodes=1",
        "--quiet",
    ]);
    a.extend(args(extra));
    a
}

/// A four-game tournament of two random players, with every output in `dir`.
fn small(dir: &Path) -> Vec<String> {
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    two_randoms(&[
        "--concurrency",
        "1",
        "--state",
        &path("state.jsonl"),
        "--jsonl",
        &path("games.jsonl"),
        "--pgnout",
        &path("games.pgn"),
    ])
}

/// `record` (a finished game of [`small`]) cut after three plies and made a
/// time forfeit of the first player, who is not to move there.
fn forfeit_by_the_side_not_to_move(record: &serde_json::Value) -> String {
    let mut forged = record.clone();
    forged["moves"] = serde_json::json!(record["moves"].as_array().unwrap()[..3]);
    forged["termination"] = "time forfeit".into();
    forged["result"] = "0-1".into();
    forged["reason"] =
        format!("{} (X): no bestmove within 100 ms", record["p1"].as_str().unwrap()).into();
    forged.as_object_mut().unwrap().remove("score");
    forged.to_string()
}

fn error_of(a: &[String]) -> String {
    format!("{:#}", arena(a).expect_err("refused"))
}

#[test]
fn a_resumed_state_is_checked_against_the_schedule_and_the_rules() {
    let dir = scratch("checked");
    let state = dir.join("state.jsonl");
    arena(&small(&dir)).unwrap();
    let good = std::fs::read_to_string(&state).unwrap();
    let lines: Vec<&str> = good.lines().collect();
    assert_eq!(lines.len(), 5, "a header and four games: {good}");
    // A repeated record is counted once and not kept twice.
    std::fs::write(&state, format!("{good}{}\n", lines[2])).unwrap();
    arena(&small(&dir)).unwrap();
    assert_eq!(std::fs::read_to_string(&state).unwrap(), good);
    let record: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
    let bad = |field: &str, value: serde_json::Value| {
        let mut changed = record.clone();
        changed[field] = value;
        changed.to_string()
    };
    let first_move = record["moves"][0].as_str().unwrap().to_owned();
    let replies = record["moves"][1].clone();
    for (text, expected) in [
        (bad("id", 999.into()), "not in the schedule"),
        (bad("result", "2-0".into()), "result 2-0"),
        (bad("p1", "nobody".into()), "nobody vs"),
        (bad("moves", serde_json::json!([first_move, first_move])), "move 2"),
        (bad("moves", serde_json::json!([replies])), "where the moves do not end so"),
        (bad("opening", "startpos moves c4".into()), "opening 'startpos moves c4'"),
        (bad("pair", 5.into()), "pair 5"),
        (bad("colours", serde_json::json!(["O", "X"])), "colours"),
        (bad("score", serde_json::json!([1, 0])), "score 1-0"),
        (bad("reason", "resigned".into()), "reason 'resigned'"),
        (bad("max_plies", 5.into()), "ply cap"),
        (bad("tournament", "0123456789abcdef".into()), "tournament 0123456789abcdef"),
        (forfeit_by_the_side_not_to_move(&record), "who was not to move"),
    ] {
        let text = format!("{}\n{text}\n{}\n", lines[0], lines[2]);
        std::fs::write(&state, &text).unwrap();
        let err = error_of(&small(&dir));
        assert!(err.contains("state.jsonl:2") && err.contains(expected), "{expected}: {err}");
    }
    // A header of another format version.
    let header = lines[0].replace("\"arena_state\":3", "\"arena_state\":99");
    assert_ne!(header, lines[0]);
    std::fs::write(&state, format!("{header}\n{}\n", lines[1])).unwrap();
    let err = error_of(&small(&dir));
    assert!(err.contains("version 99"), "{err}");
    // A state file of another tournament is refused with a way forward.
    std::fs::write(&state, &good).unwrap();
    let mut other = small(&dir);
    other.extend(args(&["--seed", "99"]));
    let err = error_of(&other);
    assert!(err.contains("another tournament") && err.contains("another --state"), "{err}");
}

#[test]
fn outputs_are_appended_and_a_resume_completes_them_once() {
    let dir = scratch("append");
    let (jsonl, pgn) = (dir.join("games.jsonl"), dir.join("games.pgn"));
    std::fs::write(&pgn, "[Event \"earlier\"]\n\n*\n\n").unwrap();
    arena(&small(&dir)).unwrap();
    let (all_jsonl, all_pgn) =
        (std::fs::read_to_string(&jsonl).unwrap(), std::fs::read_to_string(&pgn).unwrap());
    assert!(all_pgn.starts_with("[Event \"earlier\"]"), "appended: {all_pgn}");
    assert_eq!(all_pgn.matches("[Event ").count(), 5);
    assert_eq!(all_jsonl.lines().count(), 4);
    // A kill after the state line of the last game, in the middle of its
    // JSONL line and before its PGN: the resume completes both, once.
    let cut = all_pgn.rfind("[Event ").unwrap();
    std::fs::write(&pgn, &all_pgn[..cut]).unwrap();
    std::fs::write(&jsonl, &all_jsonl[..all_jsonl.len() - 10]).unwrap();
    arena(&small(&dir)).unwrap();
    assert_eq!(std::fs::read_to_string(&jsonl).unwrap(), all_jsonl);
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), all_pgn);
    // A complete resume adds nothing.
    arena(&small(&dir)).unwrap();
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), all_pgn);
}

#[test]
fn an_engine_that_cannot_start_stops_the_tournament_before_any_output() {
    let dir = scratch("nostart");
    for (engine, named) in
        [("cmd=/no/such/engine", "/no/such/engine"), ("dir=/no/such/dir", "/no/such/dir")]
    {
        let mut a = small(&dir);
        a.extend(args(&["--engine", "name=broken", engine]));
        if engine.starts_with("dir") {
            a.push(format!("cmd={}", fake()));
        }
        let err = error_of(&a);
        assert!(err.contains("broken") && err.contains(named), "{err}");
        for file in ["state.jsonl", "games.jsonl", "games.pgn"] {
            assert!(!dir.join(file).exists(), "{file} written");
        }
    }
}

#[test]
fn max_plies_zero_is_no_cap_and_a_finished_opening_is_refused() {
    let dir = scratch("nocap");
    let jsonl = dir.join("games.jsonl");
    let mut a = args(&["--engine", "builtin=random", "--engine", "name=b", "builtin=random"]);
    a.extend(args(&["--each", "nodes=1", "--quiet", "--max-plies", "0"]));
    a.extend(args(&["--jsonl", jsonl.to_str().unwrap()]));
    arena(&a).unwrap();
    for g in records(&jsonl) {
        assert_eq!(g.termination, Termination::Normal, "{g:?}");
        assert!(g.plies() >= 5, "{g:?}");
    }
    let book = dir.join("book.txt");
    std::fs::write(&book, "c0 c3 c1 c4 c2\n").unwrap();
    a.extend(args(&["--openings", &format!("file={}", book.display())]));
    assert!(error_of(&a).contains("already over"), "{}", error_of(&a));
}

#[test]
fn opening_lines_take_move_numbers_and_bad_ones_say_both_reasons() {
    let entry = GameEntry::of::<TicTacToe>();
    let dir = scratch("book");
    let book = dir.join("book.txt");
    std::fs::write(&book, "1. c4 c0! 2. c8\n").unwrap();
    let spec = format!("file={}", book.display());
    let openings = arena::Openings::parse(&spec, &entry, "standard", 10).unwrap();
    let first = openings.for_round(1, 0, &entry, "standard").unwrap();
    assert_eq!(first.moves, ["c4", "c0", "c8"]);
    std::fs::write(&book, "c4 zz\n").unwrap();
    let err = format!("{:#}", arena::Openings::parse(&spec, &entry, "standard", 10).unwrap_err());
    assert!(err.contains("move 2 (zz)") && err.contains("nor a position text ("), "{err}");
}

/// Issue 30, item 10: a PGN file given as `--openings file=` is refused in
/// one line naming it, not read as start positions (a tag line read as an
/// empty move list).
#[test]
fn a_pgn_file_as_openings_is_refused() {
    let dir = scratch("pgn-book");
    let pgn = dir.join("games.pgn");
    arena(&args(&[
        "--engine",
        "builtin=random",
        "--engine",
        "name=b",
        "builtin=random",
        "--each",
        "nodes=1",
        "--rounds",
        "1",
        "--quiet",
        "--concurrency",
        "1",
        "--pgnout",
        pgn.to_str().unwrap(),
        "--jsonl",
        dir.join("source.jsonl").to_str().unwrap(),
    ]))
    .unwrap();
    let book = format!("file={}", pgn.display());
    let mut a = args(&["--engine", "builtin=random", "--engine", "name=b", "builtin=random"]);
    a.extend(args(&["--each", "nodes=1", "--quiet", "--openings", &book]));
    let err = error_of(&a);
    assert!(
        err.contains("games.pgn:1 is a PGN tag ([Event \"igroteka arena\"])")
            && err.contains("not a PGN file")
            && !err.contains('\n'),
        "{err}"
    );
    // With format=pgn, the arena's own records are a book: each game's
    // first plies=N moves an opening, one game per round (the games were
    // written in the order of their ids: one at a time).
    let source = records(&dir.join("source.jsonl"));
    let jsonl = dir.join("replayed.jsonl");
    let mut a = args(&["--engine", "builtin=random", "--engine", "name=b", "builtin=random"]);
    a.extend(args(&["--each", "nodes=1", "--quiet", "--rounds", "2", "--jsonl"]));
    a.extend([jsonl.display().to_string(), "--openings".to_owned(), book.clone()]);
    a.extend(args(&["format=pgn", "plies=2"]));
    arena(&a).unwrap();
    for game in records(&jsonl) {
        let from = &source[game.round as usize - 1];
        assert_eq!(game.moves[..2], from.moves[..2], "{game:?}");
        assert_eq!(game.opening, format!("startpos moves {}", from.moves[..2].join(" ")));
    }
    // A move list in brackets' company is still a move list.
    std::fs::write(&pgn, "# [Event \"a comment\"]\nc4 c0\n").unwrap();
    let entry = GameEntry::of::<TicTacToe>();
    arena::Openings::parse(&book, &entry, "standard", 1).unwrap();
}

#[test]
fn endless_or_unwritable_files_and_huge_schedules_are_clear_errors() {
    let mut a = args(&["--engine", "builtin=random", "--engine", "name=b", "builtin=random"]);
    a.extend(args(&["--each", "nodes=1", "--quiet"]));
    let with = |extra: &[&str]| [a.clone(), args(extra)].concat();
    let err = error_of(&with(&["--jsonl", "/dev/full"]));
    assert!(err.contains("/dev/full"), "{err}");
    let err = error_of(&with(&["--state", "/dev/full"]));
    assert!(err.contains("longer than 1048576 bytes"), "{err}");
    let err = error_of(&with(&["--openings", "file=/dev/zero"]));
    assert!(err.contains("longer than 1048576 bytes"), "{err}");
    let err = error_of(&args(&["merge", "/dev/zero"]));
    assert!(err.contains("longer than 1048576 bytes"), "{err}");
    let err = error_of(&with(&["--rounds", "4294967295"]));
    assert!(err.contains("at most 1000000"), "{err}");
}

/// The moves of every game, in id order.
fn move_lists(games: &[GameRecord]) -> Vec<Vec<String>> {
    games.iter().map(|g| g.moves.clone()).collect()
}

#[test]
fn every_engine_that_declares_a_seed_gets_one_per_game() {
    // The fake engine declares `Seed` 0..1000000000 and, as the real one,
    // refuses a value outside it: each game must still get its own seed.
    let dir = scratch("seeds");
    let run = |seed: &str| {
        let jsonl = dir.join(format!("{seed}.jsonl"));
        let mut a = args(&["--engine", "builtin=random", "--engine", "name=b", "builtin=random"]);
        a.extend(args(&["--each", "nodes=1", "--rounds", "4", "--seed", seed, "--quiet"]));
        a.extend(args(&["--jsonl", jsonl.to_str().unwrap()]));
        arena(&a).unwrap();
        records(&jsonl)
    };
    let games = run("1");
    assert_eq!(games.len(), 8);
    let distinct: HashSet<Vec<String>> = move_lists(&games).into_iter().collect();
    assert!(distinct.len() >= 6, "{} distinct of 8", distinct.len());
    assert_eq!(arena::repeated_games(&games), 8 - distinct.len());
    assert_ne!(move_lists(&run("2")), move_lists(&games), "another --seed, other games");
}

#[test]
fn an_option_an_engine_refuses_stops_the_tournament_before_any_output() {
    let dir = scratch("refused");
    let mut a = small(&dir);
    a.extend(args(&["--engine", "name=c", "builtin=random", "option.Bogus=1"]));
    let err = error_of(&a);
    assert!(err.contains("engine 'c' refused its options: error: unknown option 'Bogus'"), "{err}");
    for file in ["state.jsonl", "games.jsonl", "games.pgn"] {
        assert!(!dir.join(file).exists(), "{file} written");
    }
    // A seed given by hand that the engine refuses, too.
    let mut a = small(&dir);
    a.extend(args(&["--engine", "name=c", "builtin=random", "option.Seed=-1"]));
    assert!(error_of(&a).contains("Seed: bad value '-1'"), "{}", error_of(&a));
}

/// `tictactoe-arena ARGS`: its status and stderr.
fn arena_process(a: &[&str]) -> (bool, String) {
    let out = Command::new(example("tictactoe-arena")).args(a).output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn deterministic_engines_from_one_opening_are_warned_about() {
    let deterministic =
        ["--engine", "builtin=alphabeta", "--engine", "name=b", "builtin=alphabeta"];
    let rest = ["--each", "depth=2", "--rounds", "2", "--quiet"];
    let (ok, err) = arena_process(&[&deterministic[..], &rest].concat());
    assert!(ok, "{err}");
    assert!(err.contains("alphabeta and b are deterministic here"), "{err}");
    assert!(err.contains("2 of 4 games repeat an earlier game"), "{err}");
    // Seeded players, or one opening per round: no warning.
    let seeded = ["--engine", "builtin=mcts", "--engine", "name=b", "builtin=random"];
    let (ok, err) = arena_process(&[&seeded[..], &rest].concat());
    assert!(ok && !err.contains("warning"), "{err}");
    let (ok, err) =
        arena_process(&[&deterministic[..], &rest, &["--openings", "random:3"]].concat());
    assert!(ok && !err.contains("deterministic here"), "{err}");
}

#[test]
fn no_cap_is_warned_about() {
    let a = ["--engine", "builtin=random", "--engine", "name=b", "builtin=random", "--quiet"];
    let (ok, err) = arena_process(&[&a[..], &["--each", "nodes=1", "--max-plies", "0"]].concat());
    assert!(ok, "{err}");
    assert!(
        err.contains("warning: no ply cap (--max-plies 0)") && err.contains("for ever"),
        "{err}"
    );
    let (ok, err) = arena_process(&[&a[..], &["--each", "nodes=1"]].concat());
    assert!(ok && !err.contains("no ply cap"), "{err}");
    // A cap that leaves the engines no move after the opening is refused.
    let (ok, err) = arena_process(
        &[&a[..], &["--each", "nodes=1", "--max-plies", "3", "--openings", "random:3"]].concat(),
    );
    assert!(!ok && err.contains("leaves no move"), "{err}");
}

/// Waits (at most 10 s) until no process holds the lock on `state`. A run
/// killed while it started an engine leaves a forked child that shares its
/// files until it executes the engine, a moment later (longer on a loaded
/// machine); until then the state still reads as in use.
fn wait_until_unlocked(state: &Path) {
    let started = Instant::now();
    let file = std::fs::File::open(state).unwrap();
    while file.try_lock().is_err() {
        assert!(started.elapsed() < Duration::from_secs(10), "{} stays locked", state.display());
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_second_run_on_a_state_in_use_is_refused() {
    let dir = scratch("lock");
    let state = dir.join("state.jsonl");
    let mut first = Command::new(example("tictactoe-arena"))
        .args(["--rounds", "400", "--each", "nodes=1", "--concurrency", "1", "--quiet"])
        .arg("--state")
        .arg(&state)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::fs::read_to_string(&state).map_or(0, |s| s.lines().count()) < 2 {
        assert!(started.elapsed() < Duration::from_secs(60), "no progress");
        std::thread::sleep(Duration::from_millis(10));
    }
    // `small` keeps its state in the same file.
    let second = arena(&small(&dir)).map_err(|e| format!("{e:#}"));
    first.kill().unwrap();
    first.wait().unwrap();
    wait_until_unlocked(&state);
    let err = second.expect_err("refused");
    assert!(err.contains("is in use by another run"), "{err}");
    // Once the first run has gone (even killed), the state is free again:
    // this run is refused for being another tournament, not for the lock.
    let err = error_of(&small(&dir));
    assert!(err.contains("another tournament"), "{err}");
}

/// A small tournament's JSONL records, as lines.
fn small_jsonl(dir: &Path, extra: &[&str]) -> Vec<String> {
    let mut a = small(dir);
    a.extend(args(extra));
    arena(&a).unwrap();
    // Another test's engine, forked at that moment, may share the state's
    // lock until it executes.
    wait_until_unlocked(&dir.join("state.jsonl"));
    let text = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    text.lines().map(str::to_owned).collect()
}

#[test]
fn merge_replays_every_record_and_refuses_other_tournaments() {
    let dir = scratch("merge");
    let (one, two, three) = (dir.join("one"), dir.join("two"), dir.join("three"));
    for d in [&one, &two, &three] {
        std::fs::create_dir_all(d).unwrap();
    }
    let lines = small_jsonl(&one, &[]);
    let merge = |files: &[&Path]| {
        let mut a = vec!["merge".to_owned()];
        a.extend(files.iter().map(|f| f.display().to_string()));
        arena(&a).map_err(|e| format!("{e:#}"))
    };
    let forged = |field: &str, value: serde_json::Value| {
        let mut record: serde_json::Value = serde_json::from_str(&lines[1]).unwrap();
        record[field] = value;
        let path = dir.join(format!("forged-{field}.jsonl"));
        std::fs::write(&path, format!("{}\n{record}\n", lines[0])).unwrap();
        path
    };
    let moves = serde_json::from_str::<serde_json::Value>(&lines[1]).unwrap()["moves"].clone();
    let first = moves[0].clone();
    let flipped = match serde_json::from_str::<serde_json::Value>(&lines[1]).unwrap()["result"]
        .as_str()
        .unwrap()
    {
        "1-0" => "0-1",
        _ => "1-0",
    };
    for (path, expected) in [
        (forged("moves", serde_json::json!([first, first])), ":2: game 1: move 2"),
        (forged("result", flipped.into()), &format!(":2: game 1: result {flipped}")),
        (
            forged("p2", "renamed".into()),
            ":2: game 1: b vs renamed in round 1, where the schedule has b vs a in round 1",
        ),
    ] {
        let err = merge(&[&path]).unwrap_err();
        assert!(err.contains(expected), "{expected}: {err}");
    }
    // Shards of another seed, or with an engine renamed: another tournament.
    small_jsonl(&two, &["--seed", "5"]);
    let mut renamed = small(&three);
    renamed[4] = "name=c".to_owned();
    arena(&renamed).unwrap();
    for other in [&two, &three] {
        let err = merge(&[&one.join("games.jsonl"), &other.join("games.jsonl")]).unwrap_err();
        assert!(err.contains("different tournaments"), "{err}");
    }
    // The state file and the JSONL of one run hold the same games: merged
    // together, each would be there twice.
    let err = merge(&[&one.join("games.jsonl"), &one.join("state.jsonl")]).unwrap_err();
    assert!(err.contains("game 0 is also at"), "{err}");
    assert_eq!(
        read_records(games(), &[one.join("state.jsonl")]).unwrap(),
        read_records(games(), &[one.join("games.jsonl")]).unwrap()
    );
}

/// Engines brought from elsewhere, however broken (issue 19): a move that
/// never comes under a depth limit, a crash that says why on stderr, logs.
#[test]
fn a_missing_bestmove_forfeits_at_the_move_timeout_and_crashes_say_why() {
    let dir = scratch("move-timeout");
    let jsonl = dir.join("games.jsonl");
    let logs = dir.join("logs");
    arena(&args(&[
        "--engine",
        "name=good",
        "builtin=random",
        "--engine",
        "name=silent",
        &format!("cmd={} --mode no-bestmove --at 2", fake()),
        "--engine",
        "name=crasher",
        &format!("cmd={} --mode crash --at 2", fake()),
        "--gauntlet",
        "--rounds",
        "1",
        "--each",
        "depth=2",
        "--move-timeout",
        "600",
        "--stall-timeout",
        "300",
        "--quiet",
        "--jsonl",
        jsonl.to_str().unwrap(),
        "--engine-log",
        logs.to_str().unwrap(),
    ]))
    .unwrap();
    let games = records(&jsonl);
    assert_eq!(games.len(), 4);
    for g in &games {
        let bad = if g.p1 == "good" { &g.p2 } else { &g.p1 };
        if bad == "silent" {
            assert_eq!(g.termination, Termination::Stall, "{g:?}");
            assert!(g.reason.contains("no bestmove within 600 ms (--move-timeout)"), "{g:?}");
        } else {
            assert_eq!(g.termination, Termination::Disconnect, "{g:?}");
            assert!(g.reason.contains("exit status: 3"), "{g:?}");
            assert!(
                g.reason.ends_with("stderr: fake-engine: crashing on purpose at go 2"),
                "{g:?}"
            );
        }
    }
    let logs: Vec<PathBuf> = std::fs::read_dir(&logs).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(logs.len(), 8, "{logs:?}");
    // A crasher's log of a game it was started for (its first game may be
    // played by the process the arena checked it with, kept: no `ugi` there).
    let crash = logs
        .iter()
        .filter(|p| p.to_string_lossy().contains("crasher"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .find(|text| text.lines().any(|l| l == "> ugi"))
        .expect("a crasher's log with its start");
    for line in ["> ugi", "< ugiok", "! fake-engine: crashing on purpose at go 2"] {
        assert!(crash.lines().any(|l| l == line), "{line:?} not in {crash}");
    }
}

#[test]
fn an_engine_whose_game_option_lacks_the_game_is_refused_before_playing() {
    let dir = scratch("other-game");
    let jsonl = dir.join("games.jsonl");
    let error = arena(&args(&[
        "--engine",
        "builtin=random",
        "--engine",
        "name=chess-only",
        &format!("cmd={} --mode other-game", fake()),
        "--quiet",
        "--jsonl",
        jsonl.to_str().unwrap(),
    ]))
    .unwrap_err();
    let text = format!("{error:#}");
    assert!(text.contains("engine 'chess-only'"), "{text}");
    assert!(text.contains("its Game option cannot be 'tictactoe' (it offers chess)"), "{text}");
    assert!(!jsonl.exists() || std::fs::read_to_string(&jsonl).unwrap().is_empty());
}

/// An engine behind a wrapper script that ignores `quit`, the end of its
/// input and SIGTERM leaves nothing running after the tournament.
#[test]
fn wrapped_engines_that_ignore_quit_leave_nothing_running() {
    let dir = scratch("wrapped");
    let marker = format!("arena-wrapped-{}", std::process::id());
    let wrapper = dir.join("wrapper.sh");
    std::fs::write(
        &wrapper,
        format!("trap '' TERM\n{} \"$@\"\nexec -a {marker} sleep 600\n", fake()),
    )
    .unwrap();
    arena(&args(&[
        "--engine",
        "builtin=random",
        "--engine",
        "name=wrapped",
        &format!("cmd=sh {}", wrapper.display()),
        "--rounds",
        "1",
        "--each",
        "depth=1",
        "--quiet",
    ]))
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let left: Vec<String> = std::fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
            .map(|c| String::from_utf8_lossy(&c).into_owned())
            .filter(|c| c.contains(&marker))
            .collect();
        if left.is_empty() {
            break;
        }
        assert!(Instant::now() < deadline, "still running: {left:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Issue 30, item 7: state files whose names differ only after the last dot
/// (`st.1` ... `st.4`, as `state.{}` in GNU parallel) each have a temporary
/// file of their own, and a file of the user's that shares their stem
/// (`st.tmp`) is left alone.
#[test]
fn shards_started_together_keep_their_state_files_apart() {
    let dir = scratch("tmp-names");
    let mine = dir.join("st.tmp");
    std::fs::write(&mine, "the user's own file\n").unwrap();
    let children: Vec<_> = (1..=4)
        .map(|i| {
            Command::new(example("tictactoe-arena"))
                .args(["--rounds", "4", "--each", "nodes=1", "--concurrency", "1", "--quiet"])
                .args(["--shard", &format!("{i}/4")])
                .arg("--state")
                .arg(dir.join(format!("st.{i}")))
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    for i in 1..=4 {
        let text = std::fs::read_to_string(dir.join(format!("st.{i}"))).unwrap();
        let header: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(header["shard"], format!("{i}/4"), "st.{i}: {text}");
    }
    assert_eq!(std::fs::read_to_string(&mine).unwrap(), "the user's own file\n");
}

/// Issue 30, item 8: `merge` checks each game's engines against the
/// schedule (a pair with the engines swapped in both games is refused, as
/// resume refuses it), refuses a game given twice, and refuses missing games
/// unless `--partial`.
#[test]
fn merge_checks_assignments_and_refuses_duplicate_or_missing_games() {
    let dir = scratch("merge-whole");
    let lines = small_jsonl(&dir, &[]);
    assert_eq!(lines.len(), 4);
    let jsonl = dir.join("games.jsonl");
    let merge = |files: &[&Path], extra: &[&str]| {
        let mut a = vec!["merge".to_owned()];
        a.extend(args(extra));
        a.extend(files.iter().map(|f| f.display().to_string()));
        arena(&a).map_err(|e| format!("{e:#}"))
    };
    merge(&[&jsonl], &[]).unwrap();
    // Both games of pair 0 with the engines swapped: still a pair, but not
    // the schedule's, and each win would go to the other engine.
    let swapped: Vec<String> = lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let mut record: serde_json::Value = serde_json::from_str(line).unwrap();
            if i < 2 {
                let (p1, p2) = (record["p1"].clone(), record["p2"].clone());
                record["p1"] = p2;
                record["p2"] = p1;
            }
            record.to_string()
        })
        .collect();
    let path = dir.join("swapped.jsonl");
    std::fs::write(&path, swapped.join("\n") + "\n").unwrap();
    let err = merge(&[&path], &[]).unwrap_err();
    assert!(
        err.contains("swapped.jsonl:1: game 0: b vs a in round 1, where the schedule has a vs b"),
        "{err}"
    );
    // A file given twice.
    let err = merge(&[&jsonl, &jsonl], &[]).unwrap_err();
    assert!(
        err.contains("games.jsonl:1: game 0 is also at") && err.contains("give each game once"),
        "{err}"
    );
    // A record deleted: refused, or merged with a warning under --partial.
    let path = dir.join("three.jsonl");
    std::fs::write(&path, lines[..3].join("\n") + "\n").unwrap();
    let err = merge(&[&path], &[]).unwrap_err();
    assert!(
        err.contains("1 of the tournament's 4 games is missing (game 3)")
            && err.contains("--partial"),
        "{err}"
    );
    merge(&[&path], &["--partial"]).unwrap();
    // Shards: one alone is missing the other's games; one given twice is a
    // duplicate; both merge.
    let shards: Vec<PathBuf> = (1..=2)
        .map(|i| {
            let shard_dir = dir.join(format!("shard{i}"));
            std::fs::create_dir_all(&shard_dir).unwrap();
            small_jsonl(&shard_dir, &["--shard", &format!("{i}/2")]);
            shard_dir.join("games.jsonl")
        })
        .collect();
    let err = merge(&[&shards[0]], &[]).unwrap_err();
    assert!(err.contains("2 of the tournament's 4 games are missing (games 2, 3)"), "{err}");
    let err = merge(&[&shards[0], &shards[0]], &[]).unwrap_err();
    assert!(err.contains("is also at"), "{err}");
    merge(&[&shards[0], &shards[1]], &[]).unwrap();
}

/// Issue 30, item 10: `--engine-log` files stop at `--engine-log-limit`
/// (default 16 MiB) with a note; an engine that floods its output (here
/// 900 long `info` lines before each session) fills no disk.
#[test]
fn engine_logs_stop_at_their_limit_with_a_note() {
    let dir = scratch("log-limit");
    let logs = dir.join("logs");
    let flood = format!(
        "cmd=sh -c 'yes info string a flood {} | head -n 900; exec {}'",
        "x".repeat(150),
        fake()
    );
    let run = |limit: &[&str]| {
        let _ = std::fs::remove_dir_all(&logs);
        let mut a =
            args(&["--engine", "name=flood", &flood, "--engine", "name=b", "builtin=random"]);
        // A process per game, each flooding its own log.
        a.extend(args(&["--restart", "on", "--rounds", "1", "--each", "nodes=1", "--quiet"]));
        a.push("--engine-log".to_owned());
        a.push(logs.display().to_string());
        a.extend(args(limit));
        arena(&a).unwrap();
        let mut texts: Vec<String> = std::fs::read_dir(&logs)
            .unwrap()
            .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
            .collect();
        texts.sort_by_key(String::len);
        texts
    };
    let texts = run(&["--engine-log-limit", "20K"]);
    assert_eq!(texts.len(), 4);
    let flooded: Vec<&String> = texts.iter().filter(|t| t.contains("a flood xxx")).collect();
    assert_eq!(flooded.len(), 2);
    for text in flooded {
        assert!(text.len() < 20 * 1024 + 200, "{} bytes", text.len());
        let note = text.lines().last().unwrap();
        assert!(note.starts_with("# log cut here: it reached its limit of 20480 bytes"), "{note}");
    }
    // Without the flag, 16 MiB: the whole flood (about 160 KB) is kept.
    let texts = run(&[]);
    assert!(texts.iter().all(|t| !t.contains("# log cut")));
    assert!(texts.last().unwrap().len() > 900 * 160, "{}", texts.last().unwrap().len());
    let err = error_of(&args(&["--engine-log-limit", "lots"]));
    assert!(err.contains("'lots' is not a size in bytes"), "{err}");
}

/// Issue 30, item 10: the forfeit rules (`--timemargin`, `--stall-timeout`,
/// `--move-timeout`) are part of the tournament: a resume or a merge under
/// other ones is refused; a state file of the previous format says so.
#[test]
fn forfeit_rules_are_part_of_the_tournament() {
    let dir = scratch("forfeit-rules");
    let lines = small_jsonl(&dir, &[]);
    for other in [["--timemargin", "500"], ["--stall-timeout", "20000"], ["--move-timeout", "1000"]]
    {
        let mut a = small(&dir);
        a.extend(args(&other));
        let err = error_of(&a);
        assert!(err.contains("holds another tournament"), "{other:?}: {err}");
        assert!(
            err.contains(&format!("{}={}", &other[0][2..].replace('-', "_"), other[1])),
            "{err}"
        );
    }
    let other = dir.join("other");
    std::fs::create_dir_all(&other).unwrap();
    small_jsonl(&other, &["--timemargin", "500"]);
    let err = format!(
        "{:#}",
        read_records(games(), &[dir.join("games.jsonl"), other.join("games.jsonl")]).unwrap_err()
    );
    assert!(err.contains("different tournaments"), "{err}");
    // A state file of the format before (version 2) is refused in one line.
    let state = dir.join("state.jsonl");
    let text =
        std::fs::read_to_string(&state).unwrap().replace("\"arena_state\":3", "\"arena_state\":2");
    std::fs::write(&state, text).unwrap();
    let err = error_of(&small(&dir));
    assert!(err.contains("a state file of version 2; this arena reads version 3"), "{err}");
    assert_eq!(lines.len(), 4);
}

/// Issue 30, item 10: the lock is on the state file itself, so deleting a
/// `.lock` file (as earlier arenas kept) or anything else beside the state
/// lets no second run in while the first one plays.
#[test]
fn a_second_run_is_refused_even_with_the_lock_file_deleted() {
    let dir = scratch("lock-deleted");
    let state = dir.join("state.jsonl");
    let command = || {
        let mut c = Command::new(example("tictactoe-arena"));
        c.args(["--rounds", "400", "--each", "nodes=1", "--concurrency", "1", "--quiet"])
            .arg("--state")
            .arg(&state);
        c
    };
    let mut first = command().stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let started = Instant::now();
    while std::fs::read_to_string(&state).map_or(0, |s| s.lines().count()) < 3 {
        assert!(started.elapsed() < Duration::from_secs(60), "no progress");
        std::thread::sleep(Duration::from_millis(10));
    }
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path != state {
            std::fs::remove_file(&path).unwrap();
        }
    }
    let second = command().output().unwrap();
    first.kill().unwrap();
    first.wait().unwrap();
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success() && err.contains("is in use by another run"), "{err}");
    // The first run's games are all there, each once.
    let games = read_records(games(), std::slice::from_ref(&state)).unwrap();
    assert!(games.len() >= 2, "{}", games.len());
}

/// `--games 3 --reverse`: three games per encounter from the round's
/// opening, the second-listed engine first in the first; the records say
/// so (merge and resume rebuild that schedule), and a state of another
/// schedule is another tournament.
#[test]
fn games_per_encounter_are_recorded_and_checked() {
    let dir = scratch("games");
    let jsonl = dir.join("games.jsonl");
    let state = dir.join("state.jsonl");
    let run = |extra: &[&str]| {
        let mut a = two_randoms(&[
            "--rounds",
            "2",
            "--openings",
            "random:1",
            "--concurrency",
            "2",
            "--jsonl",
            jsonl.to_str().unwrap(),
            "--state",
            state.to_str().unwrap(),
        ]);
        a.extend(args(extra));
        arena(&a)
    };
    run(&["--games", "3", "--reverse"]).unwrap();
    let games = records(&jsonl);
    let sides: Vec<(&str, &str)> = games.iter().map(|g| (g.p1.as_str(), g.p2.as_str())).collect();
    assert_eq!(sides, [("b", "a"), ("a", "b"), ("b", "a")].repeat(2));
    let pairs: Vec<u64> = games.iter().map(|g| g.pair).collect();
    assert_eq!(pairs, [0, 0, 1, 2, 2, 3]);
    for round in games.chunks(3) {
        assert!(round.iter().all(|g| g.opening == round[0].opening), "{round:?}");
    }
    assert_eq!(games[0].pairing.as_ref().unwrap().games, 3);
    // Resuming the finished state with the same flags plays nothing more.
    run(&["--games", "3", "--reverse"]).unwrap();
    assert_eq!(records(&jsonl).len(), 6);
    let other = format!("{:#}", run(&["--games", "3"]).unwrap_err());
    assert!(other.contains("holds another tournament"), "{other}");
    let err = error_of(&two_randoms(&["--sprt", "--games", "3"]));
    assert!(err.contains("give an even --games, or --sprt penta=false"), "{err}");
    arena(&two_randoms(&["--sprt", "penta=false", "--games", "1", "--rounds", "1"])).unwrap();
    let noswap = dir.join("noswap.jsonl");
    arena(&two_randoms(&[
        "--repeat",
        "--noswap",
        "--rounds",
        "1",
        "--jsonl",
        noswap.to_str().unwrap(),
    ]))
    .unwrap();
    let sides: Vec<(String, String)> = records(&noswap).into_iter().map(|g| (g.p1, g.p2)).collect();
    assert_eq!(sides, [("a".to_owned(), "b".to_owned()), ("a".to_owned(), "b".to_owned())]);
}

/// The `(process, game of that process)` the fake engine announced in each
/// `--engine-log` of engine `name` in `logs`, by game id.
fn processes(logs: &Path, name: &str) -> Vec<(u64, (u32, u32))> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(logs).unwrap() {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_str().unwrap().to_owned();
        if !file.ends_with(&format!("-{name}.log")) {
            continue;
        }
        let id: u64 =
            file.strip_prefix("game").unwrap().split('-').next().unwrap().parse().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let announced = text
            .lines()
            .filter_map(|l| l.strip_prefix("< info string fake-engine: process "))
            .next_back()
            .unwrap_or_else(|| panic!("no announcement in {file}: {text}"));
        let (pid, game) = announced.split_once(" game ").unwrap();
        found.push((id, (pid.parse().unwrap(), game.parse().unwrap())));
    }
    found.sort_unstable();
    found
}

/// Issue 32, item 4: with `--restart off` (the default) an engine's process
/// plays game after game (`uginewgame`, `isready`), one log per game still;
/// a crashed one is replaced for its next game, which it plays until it
/// crashes again; `--restart on` starts every game afresh.
#[test]
fn engine_processes_are_kept_between_games_and_a_crashed_one_is_replaced() {
    let dir = scratch("reuse");
    let logs = dir.join("logs");
    let jsonl = dir.join("games.jsonl");
    let run = |restart: &str| {
        let _ = std::fs::remove_dir_all(&logs);
        let _ = std::fs::remove_file(&jsonl);
        arena(&args(&[
            "--engine",
            "name=good",
            "builtin=random",
            "--engine",
            "name=crasher",
            &format!("cmd={} --mode crash --at 2", fake()),
            "--rounds",
            "3",
            "--each",
            "nodes=1",
            "--concurrency",
            "1",
            "--quiet",
            "--restart",
            restart,
            "--jsonl",
            jsonl.to_str().unwrap(),
            "--engine-log",
            logs.to_str().unwrap(),
        ]))
        .unwrap();
        let games = records(&jsonl);
        assert_eq!(games.len(), 6);
        for g in &games {
            assert_eq!(g.termination, Termination::Disconnect, "{g:?}");
            assert!(g.reason.ends_with("crashing on purpose at go 2"), "{g:?}");
        }
        (processes(&logs, "good"), processes(&logs, "crasher"))
    };
    let (good, crasher) = run("off");
    assert_eq!(good.len(), 6);
    let pids: HashSet<u32> = good.iter().map(|(_, (pid, _))| *pid).collect();
    assert_eq!(pids.len(), 1, "one process for all of good's games: {good:?}");
    let counts: Vec<u32> = good.iter().map(|(_, (_, game))| *game).collect();
    assert!(counts.windows(2).all(|w| w[1] == w[0] + 1), "{counts:?}");
    let pids: HashSet<u32> = crasher.iter().map(|(_, (pid, _))| *pid).collect();
    assert_eq!(pids.len(), 6, "a new process after each crash: {crasher:?}");
    let (good, crasher) = run("on");
    for (id, (_, game)) in good.iter().chain(&crasher) {
        assert_eq!(*game, 1, "game {id} was not a new process's first");
    }
    let pids: HashSet<u32> = good.iter().map(|(_, (pid, _))| *pid).collect();
    assert_eq!(pids.len(), 6);
}

/// Kept processes play the games new ones would: the same records with
/// `--restart on` and `off` where the engines are deterministic.
#[test]
fn results_are_the_same_with_and_without_restarts() {
    let dir = scratch("restart-same");
    let run = |restart: &str| {
        let jsonl = dir.join(format!("{restart}.jsonl"));
        let mut a = args(DETERMINISTIC);
        a.extend(args(&["--restart", restart, "--jsonl", jsonl.to_str().unwrap()]));
        arena(&a).unwrap();
        let mut games = records(&jsonl);
        for g in &mut games {
            g.duration_ms = 0;
            g.evals.iter_mut().for_each(|e| e.ms = 0);
        }
        games
    };
    assert_eq!(run("off"), run("on"));
}

/// A fake engine `name` that reports `score` (`cp -700`, `loss 4`, ...)
/// with every move.
fn scoring(name: &str, score: &str) -> Vec<String> {
    args(&["--engine", &format!("name={name}"), &format!("cmd={} --score '{score}'", fake())])
}

/// Plays one round (two games, colours swapped) of `engines` with `extra`
/// flags; returns the records (checked as `merge` checks them) and the PGN.
fn adjudicated(name: &str, engines: &[Vec<String>], extra: &[&str]) -> (Vec<GameRecord>, String) {
    let dir = scratch(name);
    let (jsonl, pgn) = (dir.join("games.jsonl"), dir.join("games.pgn"));
    let mut a: Vec<String> = engines.concat();
    a.extend(args(&["--rounds", "1", "--each", "nodes=1", "--quiet", "--jsonl"]));
    a.extend([jsonl.display().to_string(), "--pgnout".into(), pgn.display().to_string()]);
    a.extend(args(extra));
    arena(&a).unwrap();
    let games = records(&jsonl);
    let pgn = std::fs::read_to_string(&pgn).unwrap();
    (games, pgn)
}

/// Under `MultiPV` a move's score is its best line's (`multipv 1`), not
/// that of the worse alternatives reported after it.
#[test]
fn a_multipv_engine_is_scored_by_its_best_line() {
    let multipv =
        args(&["--engine", "name=multi", &format!("cmd={} --mode multipv --score 'cp 0'", fake())]);
    let engines = [multipv, scoring("calm", "cp 0")];
    let (games, pgn) = adjudicated("multipv", &engines, &["--resign", "movecount=1", "score=600"]);
    assert!(games.iter().all(|g| g.termination == Termination::Normal), "{games:?}");
    assert!(!pgn.contains("-9.00"), "{pgn}");
}

/// Issue 32, item 1: `--resign movecount=N score=CP`: an engine whose own
/// score is -CP or worse for N of its moves in a row loses, `Termination
/// "adjudication"` with the reason; proven losses count beyond any
/// threshold; with `twosided=true` its opponent must agree.
#[test]
fn an_engine_that_scores_itself_lost_resigns() {
    let engines = [scoring("hopeful", "cp 700"), scoring("gloomy", "cp -700")];
    let (games, pgn) = adjudicated("resign", &engines, &["--resign", "movecount=2", "score=600"]);
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g.termination, Termination::Adjudication, "{g:?}");
        // gloomy's second move: ply 3 when it moves first, else ply 4.
        let (result, plies) = if g.p1 == "gloomy" { ("0-1", 3) } else { ("1-0", 4) };
        assert_eq!((g.result.as_str(), g.moves.len()), (result, plies), "{g:?}");
        assert_eq!(
            g.reason, "gloomy resigns: a score of -600 cp or worse for 2 moves in a row",
            "{g:?}"
        );
        assert_eq!(g.evals.len(), plies);
    }
    assert_eq!(pgn.matches("[Termination \"adjudication\"]").count(), 2, "{pgn}");
    assert!(pgn.contains("{adjudication: gloomy resigns: a score of -600 cp"), "{pgn}");
    assert!(pgn.contains("{-7.00/1 0.0") && pgn.contains("{+7.00/1 0.0"), "{pgn}");
    // A record whose resignation is credited to the wrong side is refused.
    let dir = scratch("resign-edited");
    let edited = dir.join("edited.jsonl");
    let mut turned = games[0].clone();
    let registry = self::games();
    turned.result = if turned.result == "1-0" { "0-1" } else { "1-0" }.to_owned();
    std::fs::write(&edited, serde_json::to_string(&turned).unwrap() + "\n").unwrap();
    let error = format!("{:#}", read_records(registry, &[edited]).unwrap_err());
    assert!(error.contains("'gloomy resigns: a score of -600 cp"), "{error}");
    let _ = std::fs::remove_dir_all(&dir);

    // A proven loss is beyond any threshold: resigned at its first move.
    let engines = [scoring("hopeful", "cp 0"), scoring("doomed", "loss 4")];
    let (games, _) =
        adjudicated("resign-proven", &engines, &["--resign", "movecount=1", "score=1000000"]);
    for g in &games {
        assert_eq!(g.termination, Termination::Adjudication, "{g:?}");
        assert_eq!(g.moves.len(), if g.p1 == "doomed" { 1 } else { 2 }, "{g:?}");
    }

    // Two-sided: gloomy alone thinks it is lost, so the rules end the games.
    let engines = [scoring("calm", "cp 0"), scoring("gloomy", "cp -700")];
    let flags = ["--resign", "movecount=1", "score=600", "twosided=true"];
    let (games, _) = adjudicated("resign-two-sided", &engines, &flags);
    assert!(games.iter().all(|g| g.termination == Termination::Normal), "{games:?}");
    let engines = [scoring("hopeful", "cp 700"), scoring("gloomy", "cp -700")];
    let (games, _) = adjudicated("resign-agreed", &engines, &flags);
    for g in &games {
        assert_eq!(g.termination, Termination::Adjudication, "{g:?}");
        assert!(g.reason.ends_with("in a row, its opponent agreeing"), "{g:?}");
        assert_eq!(g.moves.len(), 2, "one move each: {g:?}");
    }
}

/// Issue 32, item 1: `--draw movenumber=N movecount=N score=CP`: after
/// move N, both engines within ±CP for N moves each in a row; a game whose
/// scores leave the window is played out.
#[test]
fn engines_that_agree_on_a_level_game_are_adjudicated_a_draw() {
    let engines = [scoring("a", "cp 5"), scoring("b", "cp -10")];
    let flags = ["--draw", "movenumber=2", "movecount=1", "score=10"];
    let (games, pgn) = adjudicated("draw", &engines, &flags);
    for g in &games {
        assert_eq!(g.termination, Termination::Adjudication, "{g:?}");
        assert_eq!((g.result.as_str(), g.moves.len()), ("1/2-1/2", 4), "after move 2: {g:?}");
        assert!(g.reason.starts_with("draw: both scores within 10 cp for 1 moves"), "{g:?}");
    }
    assert!(pgn.contains("[Result \"1/2-1/2\"]\n[Termination \"adjudication\"]"), "{pgn}");
    let engines = [scoring("a", "cp 5"), scoring("b", "cp -11")];
    let (games, _) = adjudicated("no-draw", &engines, &flags);
    assert!(games.iter().all(|g| g.termination == Termination::Normal), "{games:?}");
    // An engine that reports no score breaks every run.
    let engines = [scoring("a", "cp 0"), scoring("b", "none")];
    let (games, _) = adjudicated("no-score", &engines, &flags);
    assert!(games.iter().all(|g| g.termination == Termination::Normal), "{games:?}");
}

/// Issue 32, items 1 and 5: bad values of the new flags are one line
/// naming the flag and the value; `--tb` on a game without an exact table
/// is refused.
#[test]
fn bad_adjudication_flags_are_named() {
    let base = args(&["--rounds", "1", "--each", "nodes=1"]);
    let with = |extra: &[&str]| [base.clone(), args(extra)].concat();
    for (extra, wanted) in [
        (
            &["--draw", "movenumber=x"][..],
            "--draw: movenumber=x is not a non-negative whole number",
        ),
        (&["--draw", "moves=3"], "--draw: unknown key 'moves' (movenumber, movecount, score)"),
        (&["--resign", "movecount=3"], "--resign: give score=CP"),
        (
            &["--resign", "score=600", "twosided=maybe"],
            "--resign: twosided=maybe is not true or false",
        ),
        (&["--tb"], "--tb: tictactoe has no exact table to adjudicate by (games with one: none)"),
    ] {
        let error = error_of(&with(extra));
        assert!(error.starts_with(wanted), "{extra:?}: {error}");
        assert!(!error.contains('\n'), "{error}");
    }
    let error =
        error_of(&with(&["--engine", "builtin=random", "tc=0/10", "--engine", "builtin=mcts"]));
    assert!(error.contains("bad tc '0/10'"), "{error}");
}

/// Issue 32, item 5: a clock with moves per period sends `movestogo` and
/// adds the period's time every N moves of its player; `timemargin=` per
/// engine overrides `--timemargin`.
#[test]
fn clocks_with_periods_and_margins_per_engine() {
    let dir = scratch("periods");
    let logs = dir.join("logs");
    let mut a =
        args(&["--engine", "name=a", "builtin=random", "--engine", "name=b", "builtin=random"]);
    a.extend(args(&["--rounds", "1", "--each", "tc=2/30", "--quiet", "--engine-log"]));
    a.push(logs.display().to_string());
    arena(&a).unwrap();
    let log = std::fs::read_to_string(logs.join("game0-p1-a.log")).unwrap();
    let gos: Vec<Vec<u64>> = log
        .lines()
        .filter_map(|l| l.strip_prefix("> go "))
        .map(|go| {
            let words: Vec<&str> = go.split_whitespace().collect();
            let value = |key: &str| {
                let at = words.iter().position(|w| *w == key).unwrap();
                words[at + 1].parse().unwrap()
            };
            vec![value("p1time"), value("movestogo")]
        })
        .collect();
    assert!(gos.len() >= 3, "{log}");
    // 30 s for 2 moves: then 30 s more for the next 2.
    assert_eq!(gos[0], [30_000, 2], "{log}");
    assert!(gos[1][0] <= 30_000 && gos[1][0] > 25_000 && gos[1][1] == 1, "{log}");
    assert!(gos[2][0] > 55_000 && gos[2][1] == 2, "{log}");

    // The sleeper overruns movetime=100 by 300 ms: within its own margin
    // of 1000 ms, beyond the tournament's 50.
    let jsonl = dir.join("games.jsonl");
    let late = |name: &str, margin: &str| {
        let mut engine = args(&[
            "--engine",
            &format!("name={name}"),
            &format!("cmd={} --mode late --at 1 --delay 400", fake()),
        ]);
        engine.extend(args(&[margin]).into_iter().filter(|m| !m.is_empty()));
        engine
    };
    let mut a = [late("patient", "timemargin=1000"), late("strict", "")].concat();
    a.extend(args(&["--rounds", "1", "--each", "movetime=100", "--timemargin", "50", "--quiet"]));
    a.extend(["--jsonl".to_owned(), jsonl.display().to_string()]);
    arena(&a).unwrap();
    for g in records(&jsonl) {
        assert_eq!(g.termination, Termination::TimeForfeit, "{g:?}");
        assert!(g.reason.starts_with("strict"), "{g:?}");
    }
}

/// Issue 32, item 5: `--wait MS` pauses before every game that takes a
/// finished one's place (one at a time here: three pauses for four games).
#[test]
fn wait_pauses_between_games() {
    let started = Instant::now();
    arena(&args(&[
        "--engine",
        "builtin=random",
        "--engine",
        "builtin=mcts",
        "--rounds",
        "2",
        "--each",
        "nodes=1",
        "--concurrency",
        "1",
        "--wait",
        "400",
        "--quiet",
    ]))
    .unwrap();
    assert!(started.elapsed() >= Duration::from_millis(1200), "{:?}", started.elapsed());
}
