//! The `igroteka` binary driven as a user would: perft, replay, show, play,
//! match, for every registered game.

use std::io::Write;
use std::process::{Child, Command, Output, Stdio};

use pretty_assertions::assert_eq;

fn igroteka(args: &[&str]) -> Output {
    igroteka_with_input(args, "")
}

/// `igroteka args` with every standard stream a pipe.
fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_igroteka"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("igroteka starts")
}

fn igroteka_with_input(args: &[&str], input: &str) -> Output {
    let mut child = spawn(args);
    // A command that refuses its input may stop reading before it is all written.
    let _ = child.stdin.take().expect("stdin").write_all(input.as_bytes());
    child.wait_with_output().expect("igroteka runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The registered game names, from `igroteka games`.
fn games() -> Vec<String> {
    let out = igroteka(&["games"]);
    assert!(out.status.success());
    stdout(&out).lines().filter_map(|l| l.split_whitespace().next().map(String::from)).collect()
}

/// The start-position perft entries of a game's data file: (variant, depth, nodes).
fn start_perft(game: &str) -> Vec<(String, u32, u64)> {
    let path = format!("{}/../crates/{game}/tests/data/perft.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut entries = Vec::new();
    for line in text.lines().filter(|l| !l.trim_start().starts_with('#')) {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        if let [pos, variant, counts] = fields[..] {
            if pos != "startpos" {
                continue;
            }
            for pair in counts.split_whitespace() {
                let (d, n) = pair.split_once(':').expect("depth:nodes");
                entries.push((
                    variant.to_owned(),
                    d.parse().expect("depth"),
                    n.parse().expect("nodes"),
                ));
            }
        }
    }
    entries
}

#[test]
fn perft_prints_one_line_per_depth_matching_the_data_files() {
    for game in games() {
        let entries = start_perft(&game);
        assert!(!entries.is_empty(), "{game} has start perft data");
        let variant = entries[0].0.clone();
        let expected: Vec<(u32, u64)> = entries
            .iter()
            .filter(|(v, d, n)| *v == variant && *d <= 3 && *n < 2_000_000)
            .map(|&(_, d, n)| (d, n))
            .collect();
        let depth = expected.iter().map(|&(d, _)| d).max().expect("a depth");
        let out = igroteka(&[
            "perft",
            "--game",
            &game,
            "--variant",
            &variant,
            "--depth",
            &depth.to_string(),
        ]);
        assert!(out.status.success(), "{game}: {}", stderr(&out));
        let got: Vec<(u32, u64)> = stdout(&out)
            .lines()
            .map(|line| {
                let words: Vec<&str> = line.split_whitespace().collect();
                assert_eq!(words[0], "depth", "{line}");
                assert_eq!(words[2], "nodes", "{line}");
                (words[1].parse().expect("depth"), words[3].parse().expect("nodes"))
            })
            .collect();
        assert_eq!(got, expected, "{game}");
    }
}

#[test]
fn perft_divide_lists_each_move_and_adds_up() {
    let out = igroteka(&["perft", "--game", "otrazhenie", "--depth", "2", "--divide"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let last = lines.last().expect("a depth line");
    let total: u64 = last.split_whitespace().nth(3).and_then(|n| n.parse().ok()).expect("total");
    let divided: Vec<u64> = lines[1..lines.len() - 1]
        .iter()
        .map(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()).expect("count"))
        .collect();
    let moves = lines[0].split_whitespace().nth(3).and_then(|n| n.parse::<usize>().ok());
    assert_eq!(Some(divided.len()), moves, "one divide line per legal move");
    assert_eq!(divided.iter().sum::<u64>(), total);
}

/// Every game: a random game from `match`, replayed, ends with the same result.
#[test]
fn replay_reproduces_match_results_for_every_game() {
    for game in games() {
        let out = igroteka(&[
            "match",
            "--game",
            &game,
            "--p1",
            "random",
            "--p2",
            "random",
            "--quiet",
            "--max-plies",
            "400",
        ]);
        assert!(out.status.success(), "{game}: {}", stderr(&out));
        let text = stdout(&out);
        let moves: Vec<&str> = text
            .lines()
            .filter(|l| l.trim_start().chars().next().is_some_and(|c| c.is_ascii_digit()))
            .map(|l| l.split_whitespace().nth(2).expect("a move"))
            .collect();
        let result = text.lines().last().expect("a result line");
        let mut args = vec!["replay", "--game", game.as_str(), "--max-plies", "400"];
        args.extend(&moves);
        let replay = igroteka(&args);
        assert!(replay.status.success(), "{game}: {}", stderr(&replay));
        let replayed = stdout(&replay);
        let replay_result = replayed.lines().last().expect("result line");
        assert_eq!(replay_result, result, "{game}");
        assert!(replayed.starts_with("position "), "{game}: {replayed}");
    }
}

#[test]
fn replay_refuses_the_first_illegal_move_with_its_number() {
    let out = igroteka(&["replay", "--game", "otrazhenie", "a1-a5", "h8-h6", "a5-a8"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("move 3 (a5-a8)"), "{err}");
    let text = stdout(&out);
    assert!(text.contains("result *"), "{text}");
    let ok = igroteka(&["replay", "--game", "otrazhenie", "a1-a5", "h8-h6"]);
    let position = stdout(&ok).lines().next().map(String::from);
    assert_eq!(
        text.lines().next().map(String::from),
        position,
        "the position before the refused move"
    );
}

#[test]
fn replay_reads_a_numbered_annotated_record_from_stdin() {
    let direct = igroteka(&["replay", "--game", "otrazhenie", "a1-a5", "h8-h6", "h1-h2"]);
    let piped =
        igroteka_with_input(&["replay", "--game", "otrazhenie"], "1. a1-a5! h8-h6?\n2. h1-h2 !?\n");
    assert!(piped.status.success(), "{}", stderr(&piped));
    assert_eq!(stdout(&piped), stdout(&direct));
}

#[test]
fn bad_input_gets_one_clear_line_and_a_failure_status() {
    let out = igroteka(&["show", "--game", "chess"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("unknown game 'chess'"), "{}", stderr(&out));
    assert!(stderr(&out).contains("otrazhenie"));
    let out = igroteka(&["show", "--game", "otrazhenie", "--fen", "nonsense"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("invalid position"), "{}", stderr(&out));
    let out = igroteka(&["perft", "--game", "otrazhenie", "--variant", "huge", "--depth", "1"]);
    assert!(stderr(&out).contains("no variant 'huge'"), "{}", stderr(&out));
    let out = igroteka(&["show", "--game", "otrazhenie", "--moves", "a1-a5 z9"]);
    assert!(stderr(&out).contains("move 2 (z9)"), "{}", stderr(&out));
}

#[test]
fn show_draws_the_board_and_names_the_side_to_move() {
    for game in games() {
        let out = igroteka(&["show", "--game", &game]);
        assert!(out.status.success(), "{game}: {}", stderr(&out));
        let text = stdout(&out);
        assert!(text.lines().count() >= 5, "{game}: a board, not a line: {text}");
        assert!(text.contains("position "), "{game}");
        assert!(text.contains("to move: "), "{game}");
    }
}

#[test]
fn play_accepts_moves_reports_errors_and_keeps_going() {
    let out = igroteka_with_input(
        &["play", "--game", "otrazhenie", "--engine", "random"],
        "moves\nz9-z1\na1-a5\nquit\n",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("a1-a2"), "lists legal moves: {text}");
    assert!(text.contains("cannot read move 'z9-z1'") || text.contains("z9"), "{text}");
    assert!(text.contains("plays "), "the engine answered: {text}");
}

#[test]
fn replay_accepts_adiyukh_short_notation_as_published() {
    let full = igroteka(&["replay", "--game", "adiyukh", "g3-h4", "f6-g5", "h4:f6", "e7:g5"]);
    let short = igroteka_with_input(&["replay", "--game", "adiyukh"], "1.gh4 fg5 2.h:f6 e:g5 Д.\n");
    assert!(short.status.success(), "{}", stderr(&short));
    assert_eq!(stdout(&short), stdout(&full));
    // c:? fits no legal move: refused with its number.
    let bad = igroteka(&["replay", "--game", "adiyukh", "gh4", "c:e5"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(stderr(&bad).contains("move 2 (c:e5)"), "{}", stderr(&bad));
}

/// Runs `args` with stdout a pipe whose reader has closed; returns the status
/// code and stderr.
fn with_closed_stdout(args: &[&str], input: &str) -> (Option<i32>, String) {
    let mut child = spawn(args);
    drop(child.stdout.take());
    // The command may stop reading before the input is all written.
    let _ = child.stdin.take().expect("stdin").write_all(input.as_bytes());
    let out = child.wait_with_output().expect("igroteka runs");
    (out.status.code(), stderr(&out))
}

/// A scratch directory for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("igroteka-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A two-game tournament of random players on Otrazhenie, with its records.
fn small_arena(dir: &std::path::Path) -> Vec<String> {
    let path = |name: &str| dir.join(name).to_str().expect("utf-8 path").to_owned();
    let words = [
        "arena",
        "--game",
        "otrazhenie",
        "--engine",
        "name=a",
        "builtin=random",
        "--engine",
        "name=b",
        "builtin=random",
        "--rounds",
        "1",
        "--max-plies",
        "30",
        "--pgnout",
        &path("games.pgn"),
        "--jsonl",
        &path("games.jsonl"),
    ];
    words.iter().map(|w| (*w).to_owned()).collect()
}

#[test]
fn every_command_stops_quietly_when_its_reader_goes_away() {
    let dir = scratch("pipe");
    let arena: Vec<String> = small_arena(&dir);
    let arena: Vec<&str> = arena.iter().map(String::as_str).collect();
    let jsonl = dir.join("games.jsonl");
    let runs: Vec<(Vec<&str>, &str)> = vec![
        (vec!["games"], ""),
        (vec!["show", "--game", "city"], ""),
        (vec!["perft", "--game", "otrazhenie", "--depth", "2", "--divide"], ""),
        (vec!["replay", "--game", "otrazhenie", "a1-a5"], ""),
        (vec!["match", "--game", "otrazhenie", "--p1", "random", "--p2", "random"], ""),
        (vec!["play", "--game", "otrazhenie", "--engine", "random"], "moves\nquit\n"),
        (vec!["engine", "--game", "otrazhenie"], "ugi\nisready\nquit\n"),
        (arena, ""),
        (vec!["arena", "merge", jsonl.to_str().expect("utf-8 path")], ""),
    ];
    for (args, input) in runs {
        let (code, err) = with_closed_stdout(&args, input);
        assert!(matches!(code, Some(0 | 1 | 141)), "{args:?}: status {code:?}: {err}");
        assert!(!err.contains("panicked") && !err.contains("failed printing"), "{args:?}: {err}");
    }
    assert!(jsonl.exists(), "the arena played before its output closed");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_line_without_end_is_refused_not_buffered() {
    let endless = "x".repeat(2 << 20);
    let out = igroteka_with_input(&["replay", "--game", "otrazhenie"], &endless);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("line 1 is longer than 1048576 bytes"), "{}", stderr(&out));
    let out =
        igroteka_with_input(&["play", "--game", "otrazhenie", "--engine", "random"], &endless);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("line 1 is longer than 1048576 bytes"), "{}", stderr(&out));
    // The engine answers the long line with an error and goes on.
    let out =
        igroteka_with_input(&["engine", "--game", "otrazhenie"], &format!("{endless}\nisready\n"));
    let text = stdout(&out);
    assert!(text.contains("info string error: line 1 is longer than 1048576 bytes"), "{text}");
    assert!(text.contains("readyok"), "{text}");
    assert!(text.len() < 1000, "no echo of the long line: {} bytes", text.len());
}

#[test]
fn replay_reads_the_arena_pgn_and_refuses_tokens_that_are_not_moves() {
    let dir = scratch("pgn");
    let args = small_arena(&dir);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = igroteka(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).expect("pgn written");
    let games: Vec<&str> = pgn.split("[Event ").skip(1).collect();
    assert_eq!(games.len(), 2, "{pgn}");
    for game in games {
        let record = format!("[Event {game}");
        let replay = igroteka_with_input(&["replay", "--game", "otrazhenie"], &record);
        assert!(replay.status.success(), "{record}\n{}", stderr(&replay));
        let result = record
            .lines()
            .find_map(|l| l.strip_prefix("[Result \""))
            .and_then(|r| r.strip_suffix("\"]"))
            .expect("a Result tag");
        // The record's `MaxPlies` tag ends a capped game as the arena did.
        let last = stdout(&replay).lines().last().unwrap_or_default().to_owned();
        assert!(last.starts_with(&format!("result {result}")), "{last} for {record}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    // A move typed in full-width letters is refused with its number, not dropped.
    for bad in ["ｈ8-ｈ6", "һ8-һ6"] {
        let out = igroteka(&["replay", "--game", "otrazhenie", "a1-a5", bad, "h1-h2"]);
        assert_eq!(out.status.code(), Some(1), "{bad}");
        assert!(stderr(&out).contains(&format!("move 2 ({bad})")), "{}", stderr(&out));
    }
}

#[test]
fn perft_depth_zero_counts_the_position_itself() {
    let out = igroteka(&["perft", "--game", "otrazhenie", "--depth", "0"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("depth 0 nodes 1 time "), "{text}");
    assert_eq!(text.lines().count(), 1, "{text}");
}

#[test]
fn arena_progress_lines_number_games_as_the_jsonl_ids() {
    let dir = scratch("ids");
    let args = small_arena(&dir);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = igroteka(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    let mut progress: Vec<&str> = err
        .lines()
        .filter_map(|l| l.split("Finished game ").nth(1))
        .filter_map(|rest| rest.split_whitespace().next())
        .collect();
    let records = std::fs::read_to_string(dir.join("games.jsonl")).expect("jsonl written");
    let mut ids: Vec<&str> = records
        .lines()
        .filter_map(|l| l.strip_prefix("{\"id\":"))
        .filter_map(|rest| rest.split(',').next())
        .collect();
    progress.sort_unstable();
    ids.sort_unstable();
    assert_eq!(ids.len(), 2, "{records}");
    assert_eq!(progress, ids, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn perft_refuses_a_depth_beyond_the_engines_limit() {
    let out = igroteka(&["perft", "--game", "otrazhenie", "--depth", "70"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("70 is not in 0..=64"), "{}", stderr(&out));
}

/// `yes a1-a2 | igroteka replay`: the record is checked as it is read, so the
/// refused second move ends the command before much of the input is read.
#[test]
fn replay_stops_reading_at_the_first_refused_move() {
    let mut child = spawn(&["replay", "--game", "otrazhenie"]);
    let mut input = child.stdin.take().expect("stdin");
    let total = 256 << 20;
    let writer = std::thread::spawn(move || {
        let chunk = "a1-a2\n".repeat(1 << 14);
        let mut written = 0;
        while written < total && input.write_all(chunk.as_bytes()).is_ok() {
            written += chunk.len();
        }
        written
    });
    let out = child.wait_with_output().expect("igroteka runs");
    let written = writer.join().expect("the writer ends");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("move 2 (a1-a2) refused"), "{}", stderr(&out));
    assert!(written < 16 << 20, "{written} bytes read before the refusal");
}

/// A record as Cute Games writes it for a game from the start position:
/// `[FEN "startpos"]`; a byte-order mark before the first tag; a second
/// `FEN` tag is refused, not ignored.
#[test]
fn replay_reads_cute_games_records_and_refuses_two_fen_tags() {
    let direct = igroteka(&["replay", "--game", "otrazhenie", "a1-a5", "h8-h6"]);
    let record =
        "\u{feff}[Event \"cute\"]\n[FEN \"startpos\"]\n[SetUp \"1\"]\n\n1. a1-a5 h8-h6 *\n";
    let cute = igroteka_with_input(&["replay", "--game", "otrazhenie"], record);
    assert!(cute.status.success(), "{}", stderr(&cute));
    assert_eq!(stdout(&cute), stdout(&direct));
    let bom_before_a_move =
        igroteka_with_input(&["replay", "--game", "otrazhenie"], "\u{feff}a1-a5");
    assert!(bom_before_a_move.status.success(), "{}", stderr(&bom_before_a_move));
    let two = "[FEN \"startpos\"]\n[FEN \"B7/8/8/8/8/8/8/7W w\"]\na1-a5\n";
    let out = igroteka_with_input(&["replay", "--game", "otrazhenie"], two);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("two [FEN] tags"), "{}", stderr(&out));
}

/// A ply cap in the record (`[MaxPlies "N"]`, as the arena's PGN writes it)
/// or on the command line ends the game where it ended: adjudicated, and no
/// move after it.
#[test]
fn replay_honours_the_ply_cap_of_the_record() {
    let moves = "1. a1-a5 h8-h6 2. h1-h2 *";
    let capped = igroteka_with_input(
        &["replay", "--game", "otrazhenie"],
        &format!("[MaxPlies \"2\"]\n{moves}"),
    );
    assert_eq!(capped.status.code(), Some(1));
    assert!(stdout(&capped).ends_with("result 1/2-1/2 reason ply limit\n"), "{}", stdout(&capped));
    assert!(stderr(&capped).contains("move 3 (h1-h2) comes after the end"), "{}", stderr(&capped));
    let flag = igroteka(&["replay", "--game", "otrazhenie", "--max-plies", "2", "a1-a5", "h8-h6"]);
    assert!(flag.status.success());
    assert_eq!(stdout(&flag).lines().last(), Some("result 1/2-1/2 reason ply limit"));
    // 0, as everywhere: no cap; the flag wins over the tag.
    let uncapped = igroteka_with_input(
        &["replay", "--game", "otrazhenie", "--max-plies", "0"],
        &format!("[MaxPlies \"2\"]\n{moves}"),
    );
    assert!(uncapped.status.success(), "{}", stderr(&uncapped));
    assert_eq!(stdout(&uncapped).lines().last(), Some("result *"));
}

/// `--max-plies 0` means no cap everywhere; where a game may then go on for
/// ever, the command says so before it starts: `tune datagen` here (the
/// arena's own test is in `tools/arena`).
#[test]
fn a_self_play_without_a_ply_cap_is_warned_about() {
    use std::io::BufRead;

    let dir = scratch("nocap");
    let out = dir.join("positions.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_igroteka"))
        .args(["tune", "datagen", "--game", "focus", "--games", "1", "--max-plies", "0"])
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("igroteka starts");
    let stderr = std::io::BufReader::new(child.stderr.take().expect("stderr"));
    let (found, warning) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let line = stderr.lines().map_while(Result::ok).find(|l| l.contains("no ply cap"));
        let _ = found.send(line);
    });
    let warning = warning.recv_timeout(std::time::Duration::from_secs(30));
    let _ = child.kill();
    let _ = child.wait();
    let warning = warning.ok().flatten().expect("a warning before the games");
    assert!(warning.contains("for ever") && warning.contains("400 plies"), "{warning}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `match --max-plies 0` says that a game may go on for ever, as the arena does.
#[test]
fn match_without_a_ply_cap_is_warned_about() {
    let out = Command::new(env!("CARGO_BIN_EXE_igroteka"))
        .args(["match", "--game", "otrazhenie", "--p1", "random", "--p2", "alphabeta", "--quiet"])
        .args(["--max-plies", "0", "--depth", "1"])
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("warning: no ply cap (--max-plies 0)"), "{stderr}");
    assert!(out.status.success(), "{stderr}");
}

/// `tools/scripts/cpu-seconds.sh GAME DEPTH BIN...`, with this binary twice.
fn cpu_seconds(args: &[&str]) -> Output {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../tools/scripts/cpu-seconds.sh");
    Command::new("bash").arg(script).args(args).output().expect("bash runs the script")
}

#[test]
fn cpu_seconds_compares_binaries_by_the_bench_they_run() {
    let bin = env!("CARGO_BIN_EXE_igroteka");
    let output = cpu_seconds(&["focus", "2", "--repeat", "2", bin, bin]);
    assert!(output.status.success(), "{}", stderr(&output));
    let lines: Vec<Vec<String>> =
        stdout(&output).lines().map(|l| l.split_whitespace().map(String::from).collect()).collect();
    assert_eq!(lines.len(), 2, "one line per binary: {lines:?}");
    let field = |line: &[String], name: &str| {
        let at =
            line.iter().position(|w| w == name).unwrap_or_else(|| panic!("{name} in {line:?}"));
        line[at + 1].clone()
    };
    // The same binary searches the same tree.
    let nodes: Vec<u64> =
        lines.iter().map(|l| field(l, "nodes").parse().expect("a count")).collect();
    assert!(nodes[0] > 0);
    assert_eq!(nodes[0], nodes[1]);
    assert_eq!(field(&lines[0], "ratio"), "1.000");
    for line in &lines {
        assert_eq!(field(line, "bin"), bin);
        let median: f64 = field(line, "cpu_median").parse().expect("seconds");
        let least: f64 = field(line, "cpu_min").parse().expect("seconds");
        assert!(least <= median, "{line:?}");
    }
}

#[test]
fn cpu_seconds_start_searches_the_start_position_to_the_depth() {
    let bin = env!("CARGO_BIN_EXE_igroteka");
    let output = cpu_seconds(&["adiyukh", "4", "--start", "--repeat", "1", bin]);
    assert!(output.status.success(), "{}", stderr(&output));
    // The nodes of `go depth 4` from the start, as the engine reports them.
    let session = Command::new(bin)
        .args(["engine", "--game", "adiyukh"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().expect("stdin").write_all(b"position startpos\ngo depth 4\n")?;
            child.wait_with_output()
        })
        .expect("the engine runs");
    let text = String::from_utf8_lossy(&session.stdout).into_owned();
    let nodes = text
        .lines()
        .filter(|l| l.starts_with("info depth"))
        .filter_map(|l| l.split(" nodes ").nth(1)?.split_whitespace().next())
        .next_back()
        .expect("info lines")
        .to_owned();
    let line = stdout(&output);
    assert!(line.starts_with(&format!("bin {bin} nodes {nodes} cpu_min ")), "{line} / {nodes}");
}

#[test]
fn cpu_seconds_refuses_bad_arguments_in_one_line() {
    let bin = env!("CARGO_BIN_EXE_igroteka");
    let output = cpu_seconds(&["focus", "deep", bin]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stderr(&output), "cpu-seconds.sh: depth must be a number, not 'deep'\n");
    let output = cpu_seconds(&["focus", "2", "--repeat", "0", bin]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stderr(&output), "cpu-seconds.sh: --repeat must be a positive number, not '0'\n");
    let output = cpu_seconds(&["focus", "2", bin, "--threads"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(stderr(&output), "cpu-seconds.sh: --threads needs a value\n");
    let output = cpu_seconds(&["focus", "2", "/nonexistent/igroteka"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stderr(&output), "cpu-seconds.sh: no binary at /nonexistent/igroteka\n");
}

/// The subcommands `igroteka --help` lists, but clap's `help`.
fn subcommands() -> Vec<String> {
    let out = igroteka(&["--help"]);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
        .lines()
        .skip_while(|line| *line != "Commands:")
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_man_page_lists_every_subcommand_and_each_has_a_page() {
    let names = subcommands();
    assert!(names.len() >= 12, "{names:?}");
    let out = igroteka(&["generate", "man"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let page = stdout(&out);
    assert!(page.contains(".TH igroteka 1"), "{page}");
    for name in &names {
        // roff writes every hyphen as `\-` (`igroteka\-check\-engine(1)`).
        let escaped = name.replace('-', "\\-");
        assert!(page.contains(&format!("igroteka\\-{escaped}(1)")), "{name} missing:\n{page}");
    }

    let dir = scratch("man");
    let out = igroteka(&["generate", "man", dir.to_str().expect("utf-8 path")]);
    assert!(out.status.success(), "{}", stderr(&out));
    for name in names.iter().map(|name| format!("igroteka-{name}")).chain(["igroteka".into()]) {
        let page = std::fs::read_to_string(dir.join(format!("{name}.1")))
            .unwrap_or_else(|e| panic!("{name}.1: {e}"));
        assert!(page.contains(&format!(".TH {name} 1")), "{name}.1:\n{page}");
    }
    std::fs::remove_dir_all(&dir).expect("scratch removed");
}

/// What bash completes for the words `line` (the last one being completed),
/// with the completion script `igroteka generate bash` writes sourced.
fn bash_completes(line: &[&str]) -> Vec<String> {
    let dir = scratch(&format!("bash-{}", line.len()));
    let out = igroteka(&["generate", "bash", dir.to_str().expect("utf-8 path")]);
    assert!(out.status.success(), "{}", stderr(&out));
    let script = dir.join("igroteka.bash");
    let words: Vec<String> = line.iter().map(|word| format!("'{word}'")).collect();
    let program = format!(
        "source '{}'; COMP_WORDS=({}); COMP_CWORD={}; _igroteka igroteka '{}' '{}'; \
         printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        words.join(" "),
        line.len() - 1,
        line[line.len() - 1],
        line[line.len() - 2],
    );
    let out = Command::new("bash").args(["--norc", "-c", &program]).output().expect("bash runs");
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).expect("scratch removed");
    stdout(&out).lines().map(str::to_owned).collect()
}

#[test]
fn bash_completes_subcommands_and_their_options() {
    let offered = bash_completes(&["igroteka", ""]);
    for name in subcommands() {
        assert!(offered.contains(&name), "{name} not offered: {offered:?}");
    }
    assert_eq!(bash_completes(&["igroteka", "per"]), ["perft"]);
    let offered = bash_completes(&["igroteka", "perft", "--"]);
    for option in ["--game", "--depth", "--divide"] {
        assert!(offered.iter().any(|o| o == option), "{option} not offered: {offered:?}");
    }
}

#[test]
fn every_shell_gets_a_completion_script_naming_the_subcommands() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let out = igroteka(&["generate", shell]);
        assert!(out.status.success(), "{shell}: {}", stderr(&out));
        let script = stdout(&out);
        for name in subcommands() {
            assert!(script.contains(&name), "{shell}: {name} missing");
        }
    }
}
