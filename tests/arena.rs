//! `igroteka arena` with the real built-in engines (each a spawned
//! `igroteka engine` process), as a user runs it.

#[path = "doc_support.rs"]
mod doc_support;
#[path = "serve_support.rs"]
mod serve_support;

use doc_support::{code_blocks, igroteka_on_path, run_script};

use std::process::Command;
use std::time::{Duration, Instant};

fn arena(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_igroteka"))
        .arg("arena")
        .args(args)
        .output()
        .expect("igroteka runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_small_round_robin_of_built_ins_completes_with_standings_and_records() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("igroteka-arena-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let pgn = dir.join("games.pgn");
    let jsonl = dir.join("games.jsonl");
    let (ok, out, err) = arena(&[
        "--game",
        "otrazhenie",
        "--engine",
        "name=ab",
        "builtin=alphabeta",
        "depth=2",
        "--engine",
        "name=rnd",
        "builtin=random",
        "--engine",
        "name=mc",
        "builtin=mcts",
        "nodes=200",
        "--rounds",
        "1",
        "--concurrency",
        "2",
        "--pgnout",
        pgn.to_str().expect("utf-8 path"),
        "--jsonl",
        jsonl.to_str().expect("utf-8 path"),
    ]);
    assert!(ok, "{err}");
    let all = format!("{out}{err}");
    for name in ["ab", "rnd", "mc"] {
        assert!(all.contains(name), "{name} missing from {all}");
    }
    assert!(all.contains("Crosstable"), "{all}");
    // Three engines: the maximum-likelihood list under the standings.
    assert!(out.contains("\nRatings (maximum likelihood"), "{out}");
    // 3 engines, 1 round: 3 encounters, each played twice with colours swapped.
    let records = std::fs::read_to_string(&jsonl).expect("jsonl written");
    assert_eq!(records.lines().count(), 6, "{records}");
    let games = std::fs::read_to_string(&pgn).expect("pgn written");
    assert_eq!(games.matches("[Event ").count(), 6, "{games}");
    assert!(games.contains("[Termination "), "{games}");
    assert!(
        !games.contains("illegal") && !games.contains("disconnect"),
        "built-ins misbehaved: {games}"
    );
    // `merge --json`: the same standings as one JSON object, with the rating
    // list (or why there is none) of the three engines.
    let (ok, json, err) = arena(&["merge", "--json", jsonl.to_str().expect("utf-8 path")]);
    assert!(ok, "{err}");
    let summary: serde_json::Value = serde_json::from_str(json.trim()).expect("one JSON object");
    assert_eq!(summary["games"], 6, "{json}");
    let points: std::collections::BTreeMap<String, f64> = summary["standings"]
        .as_array()
        .expect("standings")
        .iter()
        .map(|e| {
            (e["name"].as_str().expect("name").to_owned(), e["points"].as_f64().expect("points"))
        })
        .collect();
    assert_eq!(points, standings_points(&out), "{json}\n{out}");
    let terminations: u64 = summary["terminations"]
        .as_object()
        .expect("terminations")
        .values()
        .filter_map(|v| v.as_u64())
        .sum();
    assert_eq!(terminations, 6, "{json}");
    match summary["ratings"].as_array() {
        Some(ratings) => {
            assert_eq!(ratings.len(), 3, "{json}");
            let sum: f64 = ratings.iter().map(|r| r["elo"].as_f64().expect("elo")).sum();
            assert!(sum.abs() < 1e-6, "ratings average 0: {json}");
            assert!(ratings.iter().all(|r| r["margin"].as_f64().expect("margin") > 0.0), "{json}");
        }
        None => assert!(summary["ratings_error"].as_str().is_some(), "{json}"),
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The balanced City books in docs/openings (made by
/// `tools/scripts/balanced-openings.py`): `city-16.txt` for variant `16`,
/// `city-16c.txt` for `16c`. Every line is a legal move list the arena
/// accepts, leading to a game not over, which a shallow search does not call
/// won or lost either.
#[test]
fn the_balanced_city_openings_are_legal_and_undecided() {
    check_balanced_book("city-16.txt", "16", 50);
    check_balanced_book("city-16c.txt", "16c", 100);
}

fn check_balanced_book(file: &str, variant: &str, count: usize) {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;

    let path = format!("{}/../docs/openings/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the openings file");
    let openings: Vec<&str> =
        text.lines().filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
    assert_eq!(openings.len(), count, "{file}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_igroteka"))
        .args(["engine", "--game", "city", "--variant", variant])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    let mut input = child.stdin.take().expect("stdin");
    let mut output = BufReader::new(child.stdout.take().expect("stdout")).lines();
    for moves in &openings {
        // One search at a time: the next position waits for the bestmove.
        write!(input, "position startpos moves {moves}\nquery result\ngo depth 3\n")
            .expect("written");
        input.flush().expect("flushed");
        let mut lines = Vec::new();
        for line in output.by_ref() {
            let line = line.expect("a line");
            let done = line.starts_with("bestmove");
            lines.push(line);
            if done {
                break;
            }
        }
        assert!(!lines.iter().any(|l| l.contains("error")), "{moves}: {lines:?}");
        assert!(lines.contains(&"response none".to_owned()), "{moves}: {lines:?}");
        let last = lines.iter().rev().find(|l| l.starts_with("info depth")).expect("a report");
        assert!(last.contains(" score cp "), "{moves}: {last}");
    }
    drop(input);
    child.wait().expect("the engine ends");

    // And the arena plays from the file.
    let (ok, _, err) = arena(&[
        "--game",
        "city",
        "--variant",
        variant,
        "--engine",
        "name=a",
        "builtin=random",
        "--engine",
        "name=b",
        "builtin=random",
        "--openings",
        &format!("file={path}"),
        "--rounds",
        "2",
        "--quiet",
    ]);
    assert!(ok, "{file}: {err}");
}

/// The moves of each game of a JSONL file.
/// The moves of every game in `jsonl`, in the order of the games' ids.
fn move_lists(jsonl: &std::path::Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(jsonl).expect("jsonl written");
    let mut games: Vec<(u64, Vec<String>)> = text
        .lines()
        .map(|line| {
            let record: serde_json::Value = serde_json::from_str(line).expect("a record");
            let id = record["id"].as_u64().expect("an id");
            (id, serde_json::from_value(record["moves"].clone()).expect("moves"))
        })
        .collect();
    games.sort_unstable();
    games.into_iter().map(|(_, moves)| moves).collect()
}

/// The built-ins take a seed per game: random against random and MCTS
/// against MCTS play distinct games, and another `--seed` other games.
#[test]
fn built_in_players_play_distinct_games_seeded_by_the_tournament() {
    let dir = scratch("seeds");
    for (kind, limit) in [("random", "nodes=1"), ("mcts", "nodes=50")] {
        let run = |seed: &str| {
            let jsonl = dir.join(format!("{kind}-{seed}.jsonl"));
            let (ok, _, err) = arena(&[
                "--game",
                "focus",
                "--engine",
                &format!("builtin={kind}"),
                "--engine",
                "name=other",
                &format!("builtin={kind}"),
                "--each",
                limit,
                "--max-plies",
                "60",
                "--rounds",
                "2",
                "--seed",
                seed,
                "--quiet",
                "--jsonl",
                jsonl.to_str().expect("utf-8 path"),
            ]);
            assert!(ok, "{err}");
            move_lists(&jsonl)
        };
        let games = run("1");
        let distinct: std::collections::HashSet<&Vec<String>> = games.iter().collect();
        assert_eq!((games.len(), distinct.len()), (4, 4), "{kind}: {games:?}");
        assert_ne!(run("2"), games, "{kind}: another --seed, other games");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 32, item 4: a kept `igroteka engine` process (`--restart off`,
/// the default) plays each game as a new one would: its table and tree
/// cleared by `uginewgame`, its seed the game's. The same games with
/// `--restart on`.
#[test]
fn kept_engine_processes_play_the_games_new_ones_play() {
    let dir = scratch("restart");
    let run = |restart: &str| {
        let jsonl = dir.join(format!("{restart}.jsonl"));
        let (ok, _, err) = arena(&[
            "--game",
            "stykovka",
            "--engine",
            "builtin=alphabeta",
            "depth=3",
            "--engine",
            "builtin=mcts",
            "nodes=100",
            "--engine",
            "builtin=random",
            "nodes=1",
            "--max-plies",
            "40",
            "--rounds",
            "2",
            "--openings",
            "random:2",
            "--concurrency",
            "2",
            "--quiet",
            "--restart",
            restart,
            "--jsonl",
            jsonl.to_str().expect("utf-8 path"),
        ]);
        assert!(ok, "{err}");
        move_lists(&jsonl)
    };
    let kept = run("off");
    assert_eq!(kept.len(), 12);
    assert_eq!(kept, run("on"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A scratch directory for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("igroteka-arena-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

// ---- the recipes of docs/arena.md, run as written ----------------------------

/// docs/arena.md.
fn arena_doc() -> String {
    doc_support::doc("arena.md")
}

/// The one block of `blocks` that contains `marker`.
fn block_with<'a>(blocks: &'a [String], marker: &str) -> &'a str {
    let found: Vec<&String> = blocks.iter().filter(|b| b.contains(marker)).collect();
    assert_eq!(found.len(), 1, "one block with '{marker}': {found:?}");
    found[0]
}

/// The block of the recipes' common flags: `ARGS='...'` alone.
fn args_block(blocks: &[String]) -> &str {
    let found: Vec<&String> = blocks.iter().filter(|b| b.starts_with("ARGS='")).collect();
    assert_eq!(found.len(), 1, "one block of common flags: {found:?}");
    found[0]
}

/// The recipes' tournament made small: the clock becomes 20 nodes a move, 200
/// rounds two, and games stop at 60 plies. Every replacement must apply, so
/// a change of the documented flags is noticed here.
fn small_settings(text: &str) -> String {
    let mut text = text.to_owned();
    for (from, to) in [("tc=10+0.1", "nodes=20"), ("--rounds 200", "--rounds 2 --max-plies 60")] {
        assert!(text.contains(from), "'{from}' is no longer in:\n{text}");
        text = text.replace(from, to);
    }
    text
}

/// A directory for a recipe, with `igroteka` (this build) and `srun` (which
/// runs its command here, as a one-node Slurm would) on `PATH` first.
fn recipe_dir(name: &str) -> (std::path::PathBuf, String) {
    use std::os::unix::fs::PermissionsExt;

    let dir = scratch(name);
    let path = igroteka_on_path(&dir);
    let srun = dir.join("bin").join("srun");
    std::fs::write(&srun, "#!/bin/sh\nexec \"$@\"\n").expect("srun written");
    std::fs::set_permissions(&srun, std::fs::Permissions::from_mode(0o755)).expect("srun mode");
    (dir, path)
}

/// The standings the recipes' tournament must reach: the same tournament
/// unsharded, merged (played once for all the recipes' tests).
fn unsharded_standings() -> &'static str {
    static STANDINGS: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    STANDINGS.get_or_init(play_unsharded)
}

fn play_unsharded() -> String {
    let blocks = code_blocks(&arena_doc(), "sh");
    let args = args_block(&blocks);
    let (dir, path) = recipe_dir("unsharded");
    let script = format!(
        "{}igroteka arena $ARGS --concurrency 2 --jsonl whole.jsonl --quiet >/dev/null\n\
         igroteka arena merge whole.jsonl",
        small_settings(args)
    );
    let standings = run_script("bash", &script, &dir, &path, &[]);
    assert!(standings.starts_with("Games: 4 "), "{standings}");
    standings
}

/// The GNU parallel recipe, as written (GNU parallel from Debian, which
/// `tools/scripts/test.sh` installs), after the common `ARGS`.
#[test]
fn the_gnu_parallel_recipe_runs_as_written() {
    let parallel = Command::new("parallel").arg("--version").output();
    assert!(
        parallel.is_ok_and(|out| out.status.success()),
        "this test runs the documented GNU parallel recipe: install GNU parallel \
         (apt-get install parallel), as `bash tools/scripts/test.sh` does"
    );
    let blocks = code_blocks(&arena_doc(), "sh");
    let args = args_block(&blocks);
    assert_eq!(args.lines().count(), 1, "ARGS on one line: {args}");
    let recipe = block_with(&blocks, "| parallel ");
    let (dir, path) = recipe_dir("parallel");
    let script = format!("set -e\n{}{recipe}", small_settings(args));
    let merged = run_script("bash", &script, &dir, &path, &[]);
    for i in 1..=8 {
        assert!(dir.join(format!("shard-{i}.jsonl")).exists(), "shard {i} written");
    }
    let joblog = std::fs::read_to_string(dir.join("arena.joblog")).expect("a job log");
    assert_eq!(joblog.lines().count(), 9, "a header and 8 jobs: {joblog}");
    // Each job prints its shard's standings; the merge's come last.
    assert!(merged.ends_with(unsharded_standings()), "{merged}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Slurm script: its `#SBATCH` lines ask for what any node has, and its
/// commands, run for every array index (`srun` running its command here),
/// then the merge, give the unsharded tournament; a requeued task resumes.
#[test]
fn the_slurm_recipe_runs_as_written() {
    let doc = arena_doc();
    let blocks = code_blocks(&doc, "sh");
    let script = block_with(&blocks, "#SBATCH");
    assert!(script.starts_with("#!/bin/bash\n"), "{script}");
    let mut tasks = 0;
    for line in script.lines().filter(|l| l.starts_with("#SBATCH")) {
        let (key, value) = line
            .strip_prefix("#SBATCH --")
            .and_then(|rest| rest.split_once('='))
            .unwrap_or_else(|| panic!("'{line}' is not #SBATCH --key=value"));
        match key {
            "array" => {
                let (first, last) = value.split_once('-').expect("--array=1-N");
                assert_eq!(first, "1");
                tasks = last.parse().expect("N");
            }
            "cpus-per-task" => assert_eq!(value, "1", "one CPU, which every node has"),
            "job-name" | "time" | "output" => {}
            other => panic!("an #SBATCH option this test does not know: {other}"),
        }
    }
    assert!(script.contains(&format!("--shard ${{SLURM_ARRAY_TASK_ID}}/{tasks}")), "{script}");
    assert!(script.contains(args_block(&blocks)), "the common flags: {script}");
    let (dir, path) = recipe_dir("slurm");
    let script = small_settings(script);
    let task = |index: u32| {
        let env =
            [("SLURM_ARRAY_TASK_ID", index.to_string()), ("SLURM_CPUS_PER_TASK", "1".to_owned())];
        run_script("bash", &format!("set -e\n{script}"), &dir, &path, &env)
    };
    std::thread::scope(|scope| {
        let task = &task;
        let runs: Vec<_> = (1..=tasks).map(|i| scope.spawn(move || task(i))).collect();
        runs.into_iter().for_each(|run| drop(run.join().expect("a task ran")));
    });
    task(1);
    let merge = block_with(&blocks, "igroteka arena merge results/");
    assert_eq!(run_script("bash", merge, &dir, &path, &[]), unsharded_standings());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The Kubernetes job: an indexed job of N pods asking for one CPU each,
/// whose command, run for every `JOB_COMPLETION_INDEX` by `/bin/sh -c` as
/// the pod runs it (the volume a directory here), then the documented
/// merge, give the unsharded tournament.
#[test]
fn the_kubernetes_recipe_runs_as_written() {
    let doc = arena_doc();
    let yaml = code_blocks(&doc, "yaml");
    assert_eq!(yaml.len(), 1, "{yaml:?}");
    let yaml = &yaml[0];
    let field = |name: &str| {
        yaml.lines()
            .find_map(|l| l.trim().strip_prefix(&format!("{name}: ")))
            .unwrap_or_else(|| panic!("no {name} in {yaml}"))
            .trim()
            .to_owned()
    };
    let pods: u32 = field("completions").parse().expect("completions: N");
    assert_eq!(field("parallelism"), pods.to_string());
    assert_eq!(field("completionMode"), "Indexed");
    assert_eq!(field("command"), r#"["/bin/sh", "-c"]"#);
    assert_eq!(field("requests"), r#"{ cpu: "1" }"#, "one CPU, which every node has");
    // `args: - >` folds the more indented lines below it into one line.
    let mut lines = yaml.lines().skip_while(|l| l.trim() != "- >").skip(1);
    let first = lines.next().expect("the folded command");
    let indent = first.len() - first.trim_start().len();
    let folded: Vec<&str> = std::iter::once(first)
        .chain(lines.take_while(|l| l.len() - l.trim_start().len() >= indent))
        .map(str::trim)
        .collect();
    let command = folded.join(" ");
    assert!(command.contains(&format!("--shard $I/{pods}")), "{command}");
    let (dir, path) = recipe_dir("kubernetes");
    let volume = dir.join("results");
    std::fs::create_dir_all(&volume).expect("the volume");
    let command = small_settings(&command).replace("/results", &volume.display().to_string());
    std::thread::scope(|scope| {
        let runs: Vec<_> = (0..pods)
            .map(|index| {
                let (command, dir, path) = (&command, &dir, &path);
                scope.spawn(move || {
                    let env = [("JOB_COMPLETION_INDEX", index.to_string())];
                    run_script("/bin/sh", command, dir, path, &env)
                })
            })
            .collect();
        runs.into_iter().for_each(|run| drop(run.join().expect("a pod ran")));
    });
    let merge = "igroteka arena merge /results/shard-*.jsonl";
    assert!(doc.contains(&format!("`{merge}`")), "the documented merge");
    let merge = merge.replace("/results", &volume.display().to_string());
    assert_eq!(run_script("/bin/sh", &merge, &dir, &path, &[]), unsharded_standings());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Points per engine as a standard PGN tool (Ordo, BayesElo, pgn-extract)
/// reads a PGN file: only the tags, `[White]` and `[Black]` naming the
/// players and `[Result]` from White's side ("1-0": White won).
fn pgn_points(pgn: &str) -> std::collections::BTreeMap<String, f64> {
    let mut points = std::collections::BTreeMap::new();
    for (white, black, white_points) in pgn_games(pgn) {
        *points.entry(white).or_insert(0.0) += white_points;
        *points.entry(black).or_insert(0.0) += 1.0 - white_points;
    }
    points
}

/// Each game of a PGN file as rating tools read it: `[White]`, `[Black]`
/// and White's points by `[Result]`.
fn pgn_games(pgn: &str) -> Vec<(String, String, f64)> {
    let mut games = Vec::new();
    for game in pgn.split("[Event ").skip(1) {
        let tag = |name: &str| {
            game.lines()
                .find_map(|l| l.strip_prefix(&format!("[{name} \"")))
                .and_then(|v| v.strip_suffix("\"]"))
                .unwrap_or_else(|| panic!("no [{name}] in {game}"))
                .to_owned()
        };
        let white = match tag("Result").as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            "1/2-1/2" => 0.5,
            other => panic!("result {other} in {game}"),
        };
        games.push((tag("White"), tag("Black"), white));
    }
    games
}

/// Points per engine in the arena's own standings (the `Score` column).
fn standings_points(out: &str) -> std::collections::BTreeMap<String, f64> {
    out.lines()
        .skip_while(|l| !l.starts_with("Rank "))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let (points, _) = words[5].split_once('/').expect("a score x/n");
            (words[1].to_owned(), points.parse().expect("points"))
        })
        .collect()
}

/// Ratings as Ordo and BayesElo compute them from a PGN's tags: the
/// Bradley-Terry model's maximum likelihood (a draw half a win for each
/// side), found by the MM iteration, with one virtual draw between every
/// two players as the prior (so a player with every game won or lost still
/// has a finite rating), in Elo around 0.
fn ml_ratings(pgn: &str) -> std::collections::BTreeMap<String, f64> {
    let games = pgn_games(pgn);
    let names: Vec<String> = pgn_points(pgn).into_keys().collect();
    let at = |name: &str| names.iter().position(|n| n == name).expect("a player");
    let n = names.len();
    let (mut wins, mut meetings) = (vec![0.0; n], vec![vec![0.0; n]; n]);
    for i in 0..n {
        for j in (0..n).filter(|&j| j != i) {
            wins[i] += 0.5;
            meetings[i][j] += 1.0;
        }
    }
    for (white, black, points) in &games {
        let (w, b) = (at(white), at(black));
        wins[w] += points;
        wins[b] += 1.0 - points;
        meetings[w][b] += 1.0;
        meetings[b][w] += 1.0;
    }
    let mut gamma = vec![1.0_f64; n];
    for _ in 0..10_000 {
        let next: Vec<f64> = (0..n)
            .map(|i| {
                let sum: f64 = (0..n)
                    .filter(|&j| j != i)
                    .map(|j| meetings[i][j] / (gamma[i] + gamma[j]))
                    .sum();
                wins[i] / sum
            })
            .collect();
        let mean = next.iter().map(|g| g.ln()).sum::<f64>() / n as f64;
        gamma = next.iter().map(|g| (g.ln() - mean).exp()).collect();
    }
    names.into_iter().zip(gamma).map(|(name, g)| (name, 400.0 * g.log10())).collect()
}

/// The engines in the order of the arena's standings table.
fn standings_order(out: &str) -> Vec<String> {
    out.lines()
        .skip_while(|l| !l.starts_with("Rank "))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().nth(1).expect("a name").to_owned())
        .collect()
}

/// Issue 30, item 9 and issue 32, item 6: the PGN of every game, focus
/// (where player 1 is Black) and City included, read as rating tools read
/// PGN (the tags `White`, `Black` and `Result` only), gives each of three
/// engines the points the arena gives it, and the maximum-likelihood
/// ratings that Ordo and BayesElo compute from it rank the engines in the
/// arena's order (engines level on points level in rating).
#[test]
fn the_pgn_reads_as_the_standings_in_every_game() {
    let dir = scratch("pgn-results");
    for game in ["otrazhenie", "adiyukh", "focus", "hexdraughts", "stykovka", "city"] {
        let pgn = dir.join(format!("{game}.pgn"));
        let (ok, out, err) = arena(&[
            "--game",
            game,
            "--engine",
            "name=ab",
            "builtin=alphabeta",
            "depth=2",
            "--engine",
            "name=mc",
            "builtin=mcts",
            "nodes=40",
            "--engine",
            "name=rnd",
            "builtin=random",
            "--rounds",
            "1",
            "--openings",
            "random:2",
            "--max-plies",
            "120",
            "--concurrency",
            "2",
            "--quiet",
            "--pgnout",
            pgn.to_str().expect("utf-8 path"),
        ]);
        assert!(ok, "{game}: {err}");
        let arena = standings_points(&out);
        assert_eq!(arena.len(), 3, "{game}: {out}");
        let pgn = std::fs::read_to_string(&pgn).expect("pgn written");
        assert_eq!(pgn.matches("[Event ").count(), 6, "{game}");
        assert_eq!(
            pgn_points(&pgn),
            arena,
            "{game}: the PGN read as rating tools do\n{pgn}\n{out}"
        );
        let ratings = ml_ratings(&pgn);
        let order = standings_order(&out);
        for pair in order.windows(2) {
            let (above, below) = (&pair[0], &pair[1]);
            let gap = ratings[above] - ratings[below];
            if arena[above] > arena[below] {
                assert!(gap > 1e-6, "{game}: {above} above {below}: {ratings:?}\n{out}");
            } else {
                assert!(gap.abs() < 1e-6, "{game}: {above} level with {below}: {ratings:?}\n{out}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every terminating signal — SIGTERM (`kill`, `timeout`, systemd), SIGHUP (a
/// closed terminal), SIGINT (Ctrl-C), SIGQUIT — ends the arena with the status
/// a shell gives a process the signal killed, and every engine first: a
/// built-in one searching to depth 40, and one behind a wrapper script that
/// ignores SIGTERM and leaves a child of its own.
#[test]
fn every_terminating_signal_ends_the_arena_and_every_engine_process() {
    let wrapped = format!("cmd=sh -c \"trap '' TERM; {} engine; sleep 600\"", serve_support::BIN);
    let dir = scratch("signals");
    let jsonl = dir.join("games.jsonl");
    for (signal, number) in [("-TERM", 15), ("-HUP", 1), ("-INT", 2), ("-QUIT", 3)] {
        let mut arena = Command::new(serve_support::BIN)
            .args(["arena", "--game", "focus", "--rounds", "1", "--concurrency", "2"])
            .arg("--jsonl")
            .arg(&jsonl)
            .args(["--engine", "name=ab", "builtin=alphabeta", "depth=40"])
            .args(["--engine", "name=wrapped", &wrapped, "depth=40"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("igroteka runs");
        let pid = arena.id();
        // Until both games' engines (the wrapped ones with their shells) search.
        let deadline = Instant::now() + Duration::from_secs(20);
        while serve_support::descendants(pid).len() < 6 {
            assert!(Instant::now() < deadline, "no game started");
            std::thread::sleep(Duration::from_millis(50));
        }
        std::thread::sleep(Duration::from_millis(500));
        let processes = serve_support::descendants(pid);
        let status = Command::new("kill").args([signal, &pid.to_string()]).status();
        assert!(status.expect("kill runs").success());
        let deadline = Instant::now() + Duration::from_secs(20);
        let status = loop {
            if let Some(status) = arena.try_wait().expect("wait") {
                break status;
            }
            assert!(Instant::now() < deadline, "the arena ignores {signal}");
            std::thread::sleep(Duration::from_millis(50));
        };
        assert_eq!(status.code(), Some(128 + number), "{signal}: {status}");
        serve_support::wait_gone(&processes);
        // No game ended: none is scored as lost by the engines ended.
        let records = std::fs::read_to_string(&jsonl).unwrap_or_default();
        assert!(records.is_empty(), "{signal}: {records}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An engine that crashes on `go` while a child in a session of its own
/// (out of reach of its group) holds its output loses by `disconnect` with
/// its exit status, at once, not when the next `isready` finds its input
/// closed a stall time-out (10 s) later.
#[test]
fn a_crash_is_a_disconnect_with_its_status_while_an_escaped_child_holds_the_output() {
    let dir = scratch("escaped-child");
    let pids = dir.join("pids");
    let crash = serve_support::script(
        "escaping",
        &format!(
            "position*) setsid sleep 600 & echo $! >> {} ;;\n    go*) exit 5 ;;",
            pids.display()
        ),
    );
    let jsonl = dir.join("games.jsonl");
    let started = Instant::now();
    let (_, _, err) = arena(&[
        "--game",
        "focus",
        "--rounds",
        "1",
        "--engine",
        "name=crash",
        &format!("cmd={}", crash.display()),
        "depth=3",
        "--engine",
        "name=rnd",
        "builtin=random",
        "--jsonl",
        jsonl.to_str().expect("utf-8 path"),
    ]);
    let elapsed = started.elapsed();
    for pid in std::fs::read_to_string(&pids).unwrap_or_default().lines() {
        let _ = Command::new("kill").arg(pid).status();
    }
    let records = std::fs::read_to_string(&jsonl).expect("jsonl written");
    assert_eq!(records.lines().count(), 2, "{records}{err}");
    for record in records.lines() {
        assert!(record.contains(r#""termination":"disconnect""#), "{record}");
        assert!(record.contains("exit status: 5"), "{record}");
    }
    assert!(elapsed < Duration::from_secs(5), "{elapsed:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The JSONL records of `path`, as JSON values.
fn json_records(path: &std::path::Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path).expect("jsonl written");
    text.lines().map(|line| serde_json::from_str(line).expect("a JSON record")).collect()
}

/// Issue 32, item 1: `--tb` on Otrazhenie, whose exact table holds every
/// position: after each engine move the table is asked (through the
/// dynamic layer, as for any game), and a position it decides ends the
/// game with its result, `Termination "adjudication"` and the table's
/// reason. With `both` (fastchess's default) the first engine move ends
/// every game; with `win_loss` drawn positions are played on. `merge`
/// checks each verdict against the table, and refuses one turned round.
#[test]
fn the_exact_table_adjudicates_otrazhenie() {
    use search::{DynTable, SearchGame};
    let dir = scratch("tb");
    let table = DynTable::new::<otrazhenie::Position>(otrazhenie::Tablebase::build());
    let entry = games::find("otrazhenie").expect("registered");
    for results in ["both", "win_loss"] {
        let jsonl = dir.join(format!("{results}.jsonl"));
        let flags = format!(
            "--game otrazhenie --engine name=a builtin=random --engine name=b builtin=random \
             --rounds 2 --tb --tbadjudicate {results} --concurrency 2 --quiet --jsonl {}",
            jsonl.display()
        );
        let (ok, _, err) = arena(&flags.split_whitespace().collect::<Vec<_>>());
        assert!(ok, "{results}: {err}");
        let records = json_records(&jsonl);
        assert_eq!(records.len(), 4);
        let adjudicated: Vec<&serde_json::Value> =
            records.iter().filter(|r| r["termination"] == "adjudication").collect();
        if results == "both" {
            assert_eq!(adjudicated.len(), 4, "{records:?}");
        } else {
            // Random players may shuffle in a drawn position up to the cap.
            assert!(!adjudicated.is_empty(), "{records:?}");
            let capped = records.iter().filter(|r| r["termination"] == "max plies").count();
            assert_eq!(adjudicated.len() + capped, 4, "{records:?}");
        }
        for record in adjudicated {
            let moves = record["moves"].as_array().expect("moves");
            if results == "both" {
                assert_eq!(moves.len(), 1, "the first engine move: {record}");
            }
            let mut pos: Box<dyn SearchGame> = entry.start("standard").expect("start");
            for mv in moves {
                pos.play_move_text(mv.as_str().expect("a move")).expect("legal");
            }
            let value = pos.probe_table(&table).expect("every position is in the table");
            let to_move = pos.side_to_move();
            let result = match value {
                board_core::Proven::Draw => "1/2-1/2",
                board_core::Proven::Win(_) if to_move == board_core::Player::First => "1-0",
                board_core::Proven::Loss(_) if to_move == board_core::Player::Second => "1-0",
                _ => "0-1",
            };
            assert_eq!(record["result"], result, "{record}");
            if results == "win_loss" {
                assert_ne!(value, board_core::Proven::Draw, "{record}");
            }
            let reason = record["reason"].as_str().expect("a reason");
            assert!(
                reason.starts_with("table: ") && reason.ends_with(" at perfect play"),
                "{reason}"
            );
        }
        let merged = Command::new(env!("CARGO_BIN_EXE_igroteka"))
            .args(["arena", "merge"])
            .arg(&jsonl)
            .output()
            .expect("merge runs");
        assert!(merged.status.success(), "{}", String::from_utf8_lossy(&merged.stderr));
    }
    // A table verdict turned round is refused.
    let jsonl = dir.join("win_loss.jsonl");
    let text = std::fs::read_to_string(&jsonl).expect("jsonl");
    let first = text
        .lines()
        .find(|l| l.contains("\"termination\":\"adjudication\""))
        .expect("an adjudicated game");
    let turned = if first.contains("\"result\":\"1-0\"") {
        first.replace("\"result\":\"1-0\"", "\"result\":\"0-1\"")
    } else {
        first.replace("\"result\":\"0-1\"", "\"result\":\"1-0\"")
    };
    let edited = dir.join("edited.jsonl");
    std::fs::write(&edited, format!("{turned}\n")).expect("written");
    let merged = Command::new(env!("CARGO_BIN_EXE_igroteka"))
        .args(["arena", "merge", "--partial"])
        .arg(&edited)
        .output()
        .expect("merge runs");
    let err = String::from_utf8_lossy(&merged.stderr);
    assert!(!merged.status.success() && err.contains("where the table says"), "{err}");
    // A game without a table refuses --tb in one line.
    let (ok, _, err) = arena(&["--game", "focus", "--tb"]);
    assert!(
        !ok && err.contains(
            "--tb: focus has no exact table to adjudicate by (games with one: otrazhenie)"
        ),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
