//! The evaluation as a weighted sum of features, and `igroteka tune`.

#[path = "doc_support.rs"]
mod doc_support;

use std::path::PathBuf;
use std::process::{Command, Output};

use board_core::{Evaluate, Game, MAX_FEATURES, Rng, Valuation, dot};

fn igroteka<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_igroteka")).args(args).output().expect("run igroteka")
}

fn temp_file(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("igroteka-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

/// Along random games of every variant of `G`: `evaluate()` is the weighted
/// sum of the features (clamped), or the fixed value `features` gives.
fn weighted_sum_is_the_evaluation<G: Evaluate>() {
    let width = G::FEATURE_NAMES.len();
    assert!(width > 0 && width <= MAX_FEATURES, "{}: {width} features", G::NAME);
    assert_eq!(G::WEIGHTS.len(), width, "{}: one weight per feature", G::NAME);
    let mut rng = Rng::new(11);
    let (mut weighted, mut moves, mut features) = (0, Vec::new(), vec![0; width]);
    for &variant in <G::Variant as board_core::Variant>::ALL {
        for _ in 0..20 {
            let mut pos = G::start(variant);
            for _ in 0..200 {
                let expected = match pos.features(&mut features) {
                    Valuation::Weighted => {
                        weighted += 1;
                        dot(G::WEIGHTS, &features).clamp(-20_000, 20_000)
                    }
                    Valuation::Fixed(value) => value,
                };
                assert_eq!(pos.evaluate(), expected, "{} {features:?} at {pos}", G::NAME);
                moves.clear();
                pos.generate_moves(&mut moves);
                let Some(&mv) = rng.choose(&moves) else { break };
                pos.play_unchecked(mv);
            }
        }
    }
    assert!(weighted > 100, "{}: only {weighted} positions valued by features", G::NAME);
}

#[test]
fn every_evaluation_is_its_weighted_features() {
    weighted_sum_is_the_evaluation::<otrazhenie::Position>();
    weighted_sum_is_the_evaluation::<adiyukh::Position>();
    weighted_sum_is_the_evaluation::<focus::Position>();
    weighted_sum_is_the_evaluation::<hexdraughts::Position>();
    weighted_sum_is_the_evaluation::<stykovka::Position>();
    weighted_sum_is_the_evaluation::<city::Position>();
}

/// Whether `fen` is a position of `game`'s `variant`.
fn loads(game: &str, variant: &str, fen: &str) -> bool {
    fn ok<G: Game>(variant: &str, fen: &str) -> bool {
        variant.parse().is_ok_and(|variant| G::from_text(fen, variant).is_ok())
    }
    match game {
        "otrazhenie" => ok::<otrazhenie::Position>(variant, fen),
        "adiyukh" => ok::<adiyukh::Position>(variant, fen),
        "focus" => ok::<focus::Position>(variant, fen),
        "hexdraughts" => ok::<hexdraughts::Position>(variant, fen),
        "stykovka" => ok::<stykovka::Position>(variant, fen),
        "city" => ok::<city::Position>(variant, fen),
        _ => false,
    }
}

/// How many positions `path` holds; each line must be a position of `game`
/// that loads, with a result of 1, ½ or 0.
fn checked_positions(game: &str, path: &std::path::Path) -> usize {
    let text = std::fs::read_to_string(path).expect("output");
    let lines: Vec<&str> = text.lines().collect();
    assert!(!lines.is_empty(), "{game}: no position written");
    for line in &lines {
        let value: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        assert_eq!(value["game"], game, "{line}");
        let variant = value["variant"].as_str().expect("variant");
        let fen = value["fen"].as_str().expect("fen");
        assert!(loads(game, variant, fen), "{game}: {fen} does not load");
        let result = value["result"].as_f64().expect("result");
        assert!([0.0, 0.5, 1.0].contains(&result), "{line}");
    }
    lines.len()
}

#[test]
fn datagen_reads_arena_records() {
    let records = temp_file("arena.jsonl");
    let records_text = records.to_str().expect("utf-8 path");
    let engines = ["--engine", "name=ab", "builtin=alphabeta", "depth=2"];
    let arena = igroteka(
        &[
            &["arena", "--game", "otrazhenie", "--quiet", "--rounds", "2", "--max-plies", "40"][..],
            &engines,
            &["--engine", "name=rnd", "builtin=random", "--jsonl", records_text],
        ]
        .concat(),
    );
    assert!(arena.status.success(), "{}", String::from_utf8_lossy(&arena.stderr));
    let out = temp_file("from-arena.jsonl");
    let out_text = out.to_str().expect("utf-8 path");
    let args = ["tune", "datagen", "--game", "otrazhenie", "--from-arena", records_text];
    let run = igroteka(
        &[&args[..], &["--depth", "1", "--max-swing", "100000", "--out", out_text]].concat(),
    );
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(String::from_utf8_lossy(&run.stdout).contains("from 4 games"));
    assert!(checked_positions("otrazhenie", &out) <= 4 * 16);
    // Records of another game are refused, naming the line.
    let wrong = igroteka(&[
        "tune",
        "datagen",
        "--game",
        "focus",
        "--from-arena",
        records_text,
        "--out",
        out_text,
    ]);
    let stderr = String::from_utf8_lossy(&wrong.stderr);
    assert!(!wrong.status.success());
    assert!(stderr.contains("line 1: a game of otrazhenie, not focus"), "{stderr}");
}

#[test]
fn datagen_writes_positions_that_load_and_fit_reads_them() {
    for game in ["otrazhenie", "adiyukh", "focus", "hexdraughts", "stykovka", "city"] {
        let out = temp_file(&format!("{game}.jsonl"));
        let out_text = out.to_str().expect("utf-8 path");
        let args = [
            "tune",
            "datagen",
            "--game",
            game,
            "--games",
            "3",
            "--depth",
            "1",
            "--random-plies",
            "2",
        ];
        let args = [&args[..], &["--max-swing", "100000"]].concat();
        let run = igroteka(&[&args[..], &["--max-plies", "40", "--out", out_text]].concat());
        assert!(run.status.success(), "{game}: {}", String::from_utf8_lossy(&run.stderr));
        let lines = checked_positions(game, &out);
        let fit = igroteka(&["tune", "fit", "--game", game, "--data", out_text]);
        let stdout = String::from_utf8_lossy(&fit.stdout);
        if lines >= 5 && fit.status.success() {
            assert!(stdout.contains("pub const WEIGHTS: ["), "{game}: {stdout}");
        } else {
            let stderr = String::from_utf8_lossy(&fit.stderr);
            assert!(stderr.contains("too few to fit"), "{game}: {stderr}");
        }
    }
}

#[test]
fn bad_lines_are_reported_with_their_number() {
    let good = r#"{"game":"otrazhenie","variant":"standard","fen":"FEN","result":1.0}"#;
    let cases = [
        ("not json", "line 2"),
        (
            r#"{"game":"focus","variant":"standard","fen":"x","result":1.0}"#,
            "line 2: a position of focus",
        ),
        (r#"{"game":"otrazhenie","variant":"standard","fen":"zz","result":1.0}"#, "line 2"),
        (
            r#"{"game":"otrazhenie","variant":"standard","fen":"FEN","result":2.0}"#,
            "line 2: result 2",
        ),
    ];
    let fen = start_fen();
    for (bad, expected) in cases {
        let path = temp_file("bad.jsonl");
        let text = format!("{}\n{}\n", good.replace("FEN", &fen), bad.replace("FEN", &fen));
        std::fs::write(&path, text).expect("write");
        let run = igroteka(&[
            "tune",
            "fit",
            "--game",
            "otrazhenie",
            "--data",
            path.to_str().expect("utf-8"),
        ]);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(!run.status.success(), "{bad}");
        assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
        assert!(stderr.contains(expected), "{bad}: {stderr}");
    }
}

/// The start position text of otrazhenie.
fn start_fen() -> String {
    otrazhenie::Position::default().to_string()
}

/// `tune` writing into a closed pipe (`| head -0`) ends with the status of a
/// broken pipe, never a panic (exit 101).
#[test]
fn a_closed_stdout_is_no_panic() {
    let out = temp_file("closed-stdout.jsonl");
    let out_text = out.to_str().expect("utf-8 path");
    let closed = |args: &[&str]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_igroteka"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("runs");
        drop(child.stdout.take());
        let output = child.wait_with_output().expect("ends");
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_ne!(output.status.code(), Some(101), "{args:?}: {stderr}");
        output.status
    };
    let datagen = [
        "tune",
        "datagen",
        "--game",
        "focus",
        "--games",
        "4",
        "--depth",
        "1",
        "--random-plies",
        "4",
        "--max-swing",
        "100000",
        "--max-plies",
        "60",
        "--out",
        out_text,
    ];
    assert_eq!(closed(&datagen).code(), Some(141));
    closed(&["tune", "fit", "--game", "focus", "--data", out_text]);
}

// ---- datagen at scale: shards, merge, resume, postcard ---------------------

/// `tune datagen` on focus at depth 1, `games` games, with `extra` flags,
/// into `out`; returns stderr, asserting success.
fn datagen(out: &std::path::Path, games: &str, extra: &[&str]) -> String {
    let run = igroteka(&datagen_args(out, games, extra));
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    assert!(run.status.success(), "{extra:?}: {stderr}");
    stderr
}

fn datagen_args(out: &std::path::Path, games: &str, extra: &[&str]) -> Vec<String> {
    let base = ["tune", "datagen", "--game", "focus", "--games", games, "--max-plies", "30"];
    let base = [&base[..], &["--max-swing", "100000", "--out", out.to_str().expect("utf-8")]];
    base.concat().into_iter().chain(extra.iter().copied()).map(str::to_owned).collect()
}

/// The game ids of a JSON-lines file, one per line, each line checked: the
/// fields datagen writes, the side to move's result, ply order in a game.
fn ids_of(path: &std::path::Path) -> Vec<u64> {
    let text = std::fs::read_to_string(path).expect("output");
    let mut ids = Vec::new();
    let mut last = (u64::MAX, 0);
    for line in text.lines() {
        let value: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let id = value["id"].as_u64().expect("id");
        let ply = value["ply"].as_u64().expect("ply");
        assert!([1, 2].contains(&value["side"].as_u64().expect("side")), "{line}");
        assert!(value["score"].is_i64() && value["nodes"].as_u64() > Some(0), "{line}");
        assert_eq!(value["run"].as_str().map(str::len), Some(16), "{line}");
        if id == last.0 {
            assert!(ply > last.1, "plies of a game in order: {line}");
        }
        last = (id, ply);
        ids.push(id);
    }
    ids
}

fn stderr_of(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The results (first player's view) of the games of a JSON-lines file of
/// hexdraughts, by game id.
fn first_player_results(path: &std::path::Path) -> std::collections::BTreeMap<u64, f64> {
    let text = std::fs::read_to_string(path).expect("output");
    let mut results = std::collections::BTreeMap::new();
    for line in text.lines() {
        let value: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let result = value["result"].as_f64().expect("result");
        let first = if value["side"] == 1 { result } else { 1.0 - result };
        let kept = *results.entry(value["id"].as_u64().expect("id")).or_insert(first);
        assert_eq!(kept, first, "one result a game: {line}");
    }
    results
}

/// Hexdraughts stopped at 24 plies is a draw by its rules; with
/// `--adjudicate` the side the search finds ahead wins, and a margin no
/// position reaches changes nothing (but the run's fingerprint).
#[test]
fn adjudicate_decides_games_stopped_at_the_cap_by_the_search() {
    let run = |name: &str, extra: &[&str]| {
        let out = temp_file(name);
        let args =
            ["tune", "datagen", "--game", "hexdraughts", "--games", "8", "--max-plies", "24"];
        let out_arg = ["--depth", "1", "--max-swing", "100000", "--out", out.to_str().unwrap()];
        let all: Vec<&str> = [&args[..], &out_arg, extra].concat();
        let output = igroteka(&all);
        assert!(output.status.success(), "{}", stderr_of(&output));
        (first_player_results(&out), std::fs::read_to_string(&out).unwrap())
    };
    let (drawn, plain) = run("adj-none.jsonl", &[]);
    assert!(drawn.len() >= 6 && drawn.values().all(|&r| r == 0.5), "{drawn:?}");
    let (decided, _) = run("adj-1.jsonl", &["--adjudicate", "1"]);
    assert_eq!(decided.keys().collect::<Vec<_>>(), drawn.keys().collect::<Vec<_>>());
    assert!(decided.values().filter(|&&r| r != 0.5).count() >= 4, "{decided:?}");
    let (unreached, text) = run("adj-huge.jsonl", &["--adjudicate", "15000"]);
    assert_eq!(unreached, drawn);
    let fingerprint =
        |text: &str| text.lines().next().unwrap().rsplit("\"run\":").next().unwrap().to_owned();
    assert_ne!(fingerprint(&text), fingerprint(&plain));
}

#[test]
fn shards_merge_into_the_unsharded_run_in_either_format() {
    let whole = temp_file("whole.jsonl");
    datagen(&whole, "7", &["--depth", "1", "--concurrency", "2"]);
    let ids = ids_of(&whole);
    let mut distinct = ids.clone();
    distinct.dedup();
    assert_eq!(distinct, (0..7).collect::<Vec<_>>(), "every game, in order");
    for format in ["jsonl", "postcard"] {
        let shards: Vec<PathBuf> =
            (1..=3).map(|i| temp_file(&format!("shard-{i}.{format}"))).collect();
        for (i, shard) in shards.iter().enumerate() {
            let slice = format!("{}/3", i + 1);
            let flags = ["--depth", "1", "--concurrency", "1", "--shard", &slice];
            datagen(shard, "7", &[&flags[..], &["--format", format]].concat());
        }
        let merged = temp_file(&format!("merged-from-{format}.jsonl"));
        let mut args = vec!["tune", "merge", "--format", "jsonl", "--out"];
        args.push(merged.to_str().expect("utf-8"));
        // In any order.
        args.extend(shards.iter().rev().map(|s| s.to_str().expect("utf-8")));
        let run = igroteka(&args);
        assert!(run.status.success(), "{}", stderr_of(&run));
        assert_eq!(
            std::fs::read_to_string(&merged).expect("merged"),
            std::fs::read_to_string(&whole).expect("whole"),
            "{format}: the shards' union is the unsharded run"
        );
    }
    // The shard's games are its own: game k in shard k mod 3 + 1.
    let ids = ids_of(&temp_file("shard-2.jsonl"));
    assert!(!ids.is_empty() && ids.iter().all(|id| id % 3 == 1), "{ids:?}");
}

#[test]
fn merge_refuses_a_game_twice_and_another_runs_positions() {
    let (a, b) = (temp_file("m-a.jsonl"), temp_file("m-b.jsonl"));
    datagen(&a, "4", &["--depth", "1", "--shard", "1/2"]);
    datagen(&b, "4", &["--depth", "1", "--shard", "2/2", "--seed", "9"]);
    let out = temp_file("m-out.jsonl");
    let merge = |files: &[&PathBuf]| {
        let mut args = vec!["tune", "merge", "--out", out.to_str().expect("utf-8")];
        args.extend(files.iter().map(|f| f.to_str().expect("utf-8")));
        igroteka(&args)
    };
    for (files, expected) in
        [(vec![&a, &a], "game 0 is in"), (vec![&a, &b], "merge only the shards of one datagen run")]
    {
        let run = merge(&files);
        let stderr = stderr_of(&run);
        assert!(!run.status.success(), "{files:?}");
        assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
        assert!(stderr.contains(expected), "{stderr}");
    }
    assert!(!out.exists(), "nothing written by a refused merge");
}

/// Kills `tune datagen` (SIGKILL) once `out` holds a game, then runs the same
/// command again; `cut` bytes are cut off the end first (a write torn by the
/// kill). The result equals `whole`, an uninterrupted run's.
fn killed_and_resumed(format: &str, whole: &[u8], cut: u64) {
    let out = temp_file(&format!("killed-{cut}.{format}"));
    let flags = ["--depth", "1", "--concurrency", "1", "--format", format];
    if format == "postcard" {
        // A header cut short (an earlier run killed at once) is written
        // again. Written before the run starts: written while it runs, it
        // would cut the run's own header under its feet.
        std::fs::write(&out, &whole[..20]).expect("a torn header");
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_igroteka"))
        .args(datagen_args(&out, "4", &flags))
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("runs");
    // The header of a postcard file (about 150 bytes) is written at the
    // start; a game takes more than a kilobyte: wait for one.
    let header = if format == "postcard" { 400 } else { 0 };
    let started = std::time::Instant::now();
    while std::fs::metadata(&out).map_or(0, |m| m.len()) <= header
        && started.elapsed() < std::time::Duration::from_secs(60)
    {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().expect("kill");
    child.wait().expect("ends");
    let len = std::fs::metadata(&out).expect("written").len();
    assert!(len < whole.len() as u64, "the kill came before the end ({len} bytes)");
    std::fs::File::options().write(true).open(&out).expect("open").set_len(len - cut).expect("cut");
    let stderr = datagen(&out, "4", &flags);
    // A cut tail is always found; without one, the kill itself may have
    // torn the last write (a game is written whole, but a kill can land
    // between the writes of a large one), and then it is found too.
    if cut > 0 {
        assert!(stderr.contains("cut short"), "{stderr}");
    }
    assert!(
        std::fs::read(&out).expect("resumed") == whole,
        "{format}, cut {cut}: resumed != whole"
    );
}

#[test]
fn a_killed_run_resumes_without_losing_or_repeating_a_game() {
    for (format, cuts) in [("jsonl", &[0, 5][..]), ("postcard", &[3])] {
        let whole = temp_file(&format!("uninterrupted.{format}"));
        datagen(&whole, "4", &["--depth", "1", "--concurrency", "1", "--format", format]);
        let whole = std::fs::read(&whole).expect("whole");
        for &cut in cuts {
            killed_and_resumed(format, &whole, cut);
        }
    }
}

#[test]
fn an_output_in_use_or_of_another_run_is_refused() {
    let out = temp_file("in-use.jsonl");
    let file = std::fs::File::create(&out).expect("create");
    file.try_lock().expect("lock");
    let run = igroteka(&datagen_args(&out, "2", &["--depth", "1"]));
    let stderr = stderr_of(&run);
    assert!(!run.status.success() && stderr.contains("in use by another run"), "{stderr}");
    drop(file);
    datagen(&out, "2", &["--depth", "1"]);
    for (flags, expected) in [
        (&["--depth", "2"][..], "another datagen run"),
        (&["--depth", "1", "--shard", "2/2"], "not one of shard 2/2's"),
        (&["--depth", "1", "--format", "postcard"], "give --format jsonl"),
    ] {
        let run = igroteka(&datagen_args(&out, "2", flags));
        let stderr = stderr_of(&run);
        assert!(!run.status.success(), "{flags:?}");
        assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
        assert!(stderr.contains(expected), "{flags:?}: {stderr}");
    }
}

#[test]
fn fit_reads_postcard_as_it_reads_json_lines_and_refuses_a_cut_file() {
    let (json, binary) = (temp_file("fit.jsonl"), temp_file("fit.postcard"));
    datagen(&json, "4", &["--depth", "1"]);
    datagen(&binary, "4", &["--depth", "1", "--format", "postcard"]);
    let (json_len, binary_len) = (
        std::fs::metadata(&json).expect("json").len(),
        std::fs::metadata(&binary).expect("postcard").len(),
    );
    assert!(binary_len * 2 < json_len, "postcard {binary_len} bytes, JSON {json_len}");
    let fit = |path: &PathBuf| {
        let args = ["tune", "fit", "--game", "focus", "--iterations", "3", "--data"];
        igroteka(&[&args[..], &[path.to_str().expect("utf-8")]].concat())
    };
    let (a, b) = (fit(&json), fit(&binary));
    assert!(a.status.success(), "{}", stderr_of(&a));
    // The last line names the command (the file), the others are the fit's.
    let lines = |o: &Output| {
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        text.lines().filter(|l| !l.starts_with("//")).map(str::to_owned).collect::<Vec<_>>()
    };
    assert_eq!(lines(&a), lines(&b));
    let len = binary_len - 2;
    std::fs::File::options().write(true).open(&binary).expect("open").set_len(len).expect("cut");
    let cut = fit(&binary);
    let stderr = stderr_of(&cut);
    assert!(!cut.status.success() && stderr.contains("cut short"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn file_openings_are_used_in_turn() {
    let seed_run = temp_file("openings-source.jsonl");
    datagen(&seed_run, "1", &["--depth", "1"]);
    let text = std::fs::read_to_string(&seed_run).expect("positions");
    let fens: Vec<String> = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("json")["fen"].to_string())
        .map(|quoted| quoted.trim_matches('"').to_owned())
        .take(2)
        .collect();
    assert_eq!(fens.len(), 2, "{text}");
    let openings = temp_file("openings.txt");
    std::fs::write(&openings, format!("# two positions\n{}\n\n{}\n", fens[0], fens[1]))
        .expect("write");
    let file = format!("file={}", openings.display());
    let out = temp_file("from-openings.jsonl");
    let flags = ["--depth", "1", "--random-plies", "0", "--per-game", "1000", "--openings", &file];
    datagen(&out, "3", &flags);
    // Games 0 and 2 start from the first opening, game 1 from the second:
    // with no random plies, alpha-beta plays games 0 and 2 alike (and all
    // their quiet positions are kept).
    let by_game = |id: u64| -> Vec<String> {
        std::fs::read_to_string(&out)
            .expect("out")
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("json"))
            .filter(|v| v["id"].as_u64() == Some(id))
            .map(|v| format!("{} {} {}", v["fen"], v["score"], v["ply"]))
            .collect()
    };
    assert!(!by_game(0).is_empty());
    assert_eq!(by_game(0), by_game(2));
    assert_ne!(by_game(0), by_game(1));
    for (bad, expected) in [
        ("random:4".to_owned(), "expected file=PATH"),
        (format!("file={}", temp_file("no-such-file").display()), "no-such-file"),
    ] {
        let run =
            igroteka(&datagen_args(&temp_file("bad-openings.jsonl"), "2", &["--openings", &bad]));
        let stderr = stderr_of(&run);
        assert!(!run.status.success(), "{bad}");
        assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
        assert!(stderr.contains(expected), "{bad}: {stderr}");
    }
}

// ---- tune train ------------------------------------------------------------

/// `tune train` on stykovka with `extra` flags.
fn train(data: &[&std::path::Path], out: &std::path::Path, extra: &[&str]) -> Output {
    let mut args: Vec<String> = ["tune", "train", "--game", "stykovka", "--epochs", "2"]
        .into_iter()
        .map(str::to_owned)
        .collect();
    args.extend(["--out".to_owned(), out.to_str().expect("utf-8").to_owned(), "--data".to_owned()]);
    args.extend(data.iter().map(|p| p.to_str().expect("utf-8").to_owned()));
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    igroteka(&args)
}

/// A few stykovka games at depth 1, as `format`.
fn stykovka_data(name: &str, format: &str) -> PathBuf {
    let out = temp_file(name);
    let args = ["tune", "datagen", "--game", "stykovka", "--games", "12", "--depth", "1"];
    let more = ["--per-game", "1000", "--format", format, "--out", out.to_str().expect("utf-8")];
    let run = igroteka(&[&args[..], &more[..]].concat());
    assert!(run.status.success(), "{}", stderr_of(&run));
    out
}

#[test]
fn train_is_reproducible_from_its_seed_and_reports_both_losses() {
    let (json, binary) =
        (stykovka_data("train.jsonl", "jsonl"), stykovka_data("train.pcd", "postcard"));
    let (a, b, c) = (temp_file("a.weights"), temp_file("b.weights"), temp_file("c.weights"));
    let run = train(&[&json], &a, &["--seed", "3", "--holdout", "0.3"]);
    let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(run.status.success(), "{}", stderr_of(&run));
    assert_eq!(stdout.lines().filter(|l| l.starts_with("epoch ")).count(), 2, "{stdout}");
    let last = stdout.lines().find(|l| l.starts_with("held-out loss learned ")).expect(&stdout);
    let losses: Vec<f64> =
        last.split_whitespace().filter_map(|w| w.trim_end_matches(')').parse().ok()).collect();
    assert_eq!(losses.len(), 4, "{last}");
    assert!(losses.iter().all(|l| l.is_finite() && *l > 0.0), "{last}");
    // The same data read from postcard, the same seed: the same file.
    assert!(train(&[&binary], &b, &["--seed", "3", "--holdout", "0.3"]).status.success());
    let (wa, wb) = (std::fs::read(&a).expect("a"), std::fs::read(&b).expect("b"));
    // The magic, then every pattern weight as an f32.
    let patterns = 4 * stykovka::patterns::INDEX_BOUND;
    assert!(wa.starts_with(b"IGROEVAL") && wa.len() > patterns, "{} bytes", wa.len());
    assert_eq!(wa, wb, "same data and seed, different weights");
    // Another seed holds out other games and shuffles otherwise.
    assert!(train(&[&json], &c, &["--seed", "4", "--holdout", "0.3"]).status.success());
    assert_ne!(wa, std::fs::read(&c).expect("c"));
}

/// `--freeze` keeps the named hand weights at the compiled ones; the
/// others are trained.
#[test]
fn train_freezes_the_hand_weights_it_is_told_to() {
    let data = stykovka_data("train-freeze.jsonl", "jsonl");
    let out = temp_file("freeze.weights");
    let run = train(&[&data], &out, &["--freeze", "Groups,crash_threats", "--lr", "5"]);
    assert!(run.status.success(), "{}", stderr_of(&run));
    let file = board_core::learned::WeightsFile::parse(&std::fs::read(&out).expect("read"))
        .expect("a weights file");
    let compiled = <stykovka::Position as Evaluate>::WEIGHTS;
    let same: Vec<bool> =
        file.features.iter().zip(compiled).map(|(&a, &b)| a == b as f32).collect();
    assert_eq!(same, [true, false, true, false, false], "{:?}", file.features);
}

#[test]
fn train_refuses_bad_data_in_one_line() {
    let out = temp_file("bad.weights");
    let refused = |data: &std::path::Path, extra: &[&str]| {
        let run = train(&[data], &out, extra);
        let stderr = stderr_of(&run);
        assert!(!run.status.success(), "{stderr}");
        assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
        stderr
    };
    // Another game's positions.
    let focus = temp_file("train-focus.jsonl");
    datagen(&focus, "2", &["--depth", "1"]);
    assert!(refused(&focus, &[]).contains("a position of focus, not stykovka"));
    // Records without a game id (the original format).
    let old = temp_file("train-old.jsonl");
    let fen = {
        let pos = <stykovka::Position as Game>::start(Default::default());
        pos.to_string()
    };
    let line = format!(r#"{{"game":"stykovka","variant":"standard","fen":"{fen}","result":1.0}}"#);
    std::fs::write(&old, format!("{line}\n")).expect("write");
    assert!(refused(&old, &[]).contains("without its game's id"));
    // A line that is not a record, a postcard file cut short, a bad flag.
    std::fs::write(&old, "{\"game\":\n").expect("write");
    assert!(refused(&old, &[]).contains("line 1"));
    let binary = stykovka_data("train-cut.pcd", "postcard");
    let len = std::fs::metadata(&binary).expect("len").len() - 3;
    std::fs::File::options().write(true).open(&binary).expect("open").set_len(len).expect("cut");
    assert!(refused(&binary, &[]).contains("cut short"));
    let json = stykovka_data("train-ok.jsonl", "jsonl");
    assert!(refused(&json, &["--holdout", "1.5"]).contains("--holdout"));
    assert!(refused(&json, &["--freeze", "tempo,nothing"]).contains("no feature 'nothing'"));
    let run = igroteka(&["tune", "train", "--game", "otrazhenie", "--out", "x", "--data", "y"]);
    assert!(stderr_of(&run).contains("no pattern layout"), "{}", stderr_of(&run));
}

// ---- each game's whole loop in docs/tuning.md, run as written ---------------

/// The "whole loop" sections of docs/tuning.md: the game each names and its
/// first `sh` block, in the page's order.
fn whole_loops(doc: &str) -> Vec<(String, String)> {
    const GAMES: [&str; 5] = ["adiyukh", "city", "focus", "hexdraughts", "stykovka"];
    let mut loops = Vec::new();
    for section in doc.split("\n### ").skip(1) {
        let heading = section.lines().next().unwrap_or_default().to_lowercase();
        if !heading.contains("the whole loop") {
            continue;
        }
        let game = GAMES.iter().find(|g| heading.contains(*g)).expect(&heading);
        let block = doc_support::code_blocks(section, "sh").into_iter().next().expect(&heading);
        loops.push(((*game).to_owned(), block));
    }
    loops
}

/// `text` with the value after every `flag ` set to `value`; the flag must
/// be there, so a change of the documented commands is noticed here.
fn set_flag(text: &str, flag: &str, value: &str) -> String {
    let pattern = format!("{flag} ");
    let mut parts = text.split(&pattern);
    let mut out = parts.next().unwrap_or_default().to_owned();
    let mut found = false;
    for part in parts {
        found = true;
        let rest = part.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '.');
        out.push_str(&format!("{pattern}{value}{rest}"));
    }
    assert!(found, "'{flag}' is no longer in:\n{text}");
    out
}

/// A loop made small for a debug build: 20 games at depth 1 (no longer
/// stopped by SIGTERM), benches to depth 2, and an arena of one pair of
/// games at depth 1 capped at 80 plies. `nice` and `/usr/bin/time` (Debian's
/// `time` package, not on every machine) go; the rest runs as written.
fn small_loop(block: &str) -> String {
    let mut text = block.to_owned();
    for prefix in ["nice -n 19 ", "nice -n -5 ", "/usr/bin/time -f '%U s' "] {
        text = text.replace(prefix, "");
    }
    text = set_flag(&set_flag(&text, "--games", "20"), "--depth", "1");
    text = set_flag(&text, "bench", "2");
    if text.contains("igroteka arena") {
        text = set_flag(&text, "--rounds", "1 --max-plies 80");
        text = text.replace("movetime=100", "depth=1");
    }
    text
}

/// Every game's "whole loop" in docs/tuning.md runs as written, from no
/// data at all, with this build as `igroteka` (made small by `small_loop`):
/// the data file is written, training reports both held-out losses and
/// writes a weights file, the engines load it without an error, and where
/// the loop has its arena step, the learned engine plays both games.
#[test]
fn each_documented_loop_retrains_its_game_from_scratch() {
    let loops = whole_loops(&doc_support::doc("tuning.md"));
    let games: Vec<&str> = loops.iter().map(|(game, _)| game.as_str()).collect();
    assert_eq!(games, ["hexdraughts", "focus", "adiyukh", "city", "stykovka"]);
    for (game, block) in &loops {
        let dir = temp_file(&format!("loop-{game}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("loop dir");
        let path = doc_support::igroteka_on_path(&dir);
        let script = format!("set -e\n{}", small_loop(block));
        let stdout = doc_support::run_script("sh", &script, &dir, &path, &[]);
        let context = format!("{game}:\n{script}\n{stdout}");
        assert!(stdout.contains("held-out loss learned "), "{context}");
        assert!(stdout.contains(" nodes "), "no bench: {context}");
        assert!(!stdout.contains("error"), "{context}");
        // The files the loop names: its data, then its weights.
        let named = |suffix: &str| {
            let name = block.split_whitespace().find(|w| w.ends_with(suffix)).expect(&context);
            dir.join(name)
        };
        assert!(std::fs::metadata(named(".pcd")).expect(&context).len() > 0, "{context}");
        let weights = std::fs::read(named(".weights")).expect(&context);
        assert!(weights.starts_with(b"IGROEVAL"), "{game}: {} bytes", weights.len());
        if block.contains("igroteka arena") {
            assert!(block.contains("EvalFile="), "{context}");
            assert!(stdout.contains("Games: 2 "), "{context}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
