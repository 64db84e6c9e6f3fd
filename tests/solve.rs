//! Otrazhenie's perfect-play table as users meet it: `igroteka solve` (and
//! its cache file), and the engine's players, which must keep every won and
//! drawn position and win in the fewest plies.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::AtomicBool;

use std::sync::OnceLock;

use board_core::{Game, Proven, Rng};
use otrazhenie::{Position, Tablebase};
use search::{DynTable, EngineKind, Limits, Memory, Score, SearchGame, Think};

/// One table for the whole test binary.
fn table() -> &'static Tablebase {
    static TABLE: OnceLock<Tablebase> = OnceLock::new();
    TABLE.get_or_init(Tablebase::build)
}

/// An engine's memory holding the table, as `igroteka engine` gives it.
fn memory() -> Memory {
    let mut memory = Memory::default();
    memory.set_endgame_table(Some(DynTable::new::<Position>(table())));
    memory
}

fn solve(cache: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_igroteka"))
        .arg("solve")
        .args(args)
        .env("IGROTEKA_CACHE", cache)
        .output()
        .expect("igroteka runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("igroteka-solve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn solve_prints_the_value_then_every_move_best_first_and_caches_the_table() {
    let cache = temp_dir("cache");
    let win_in_1 = ["--game", "otrazhenie", "--fen", "8/8/8/3B4/8/8/8/W7 w"];
    let first = solve(&cache, &win_in_1);
    assert!(first.status.success(), "{}", text(&first.stderr));
    assert!(text(&first.stderr).contains("tablebase: built"), "{}", text(&first.stderr));
    let file = cache.join("otrazhenie-table.bin");
    assert!(file.exists());
    let out = text(&first.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "value win 1");
    // Over h1 or over a8: both take the last checker, and come first.
    let winning: Vec<&str> = lines[1..]
        .iter()
        .map(|line| line.split_whitespace().collect::<Vec<_>>())
        .take_while(|words| words[0] == "move" && words[2..] == ["win", "1"])
        .map(|words| words[1])
        .collect();
    assert_eq!(winning.len(), 2, "{out}");
    assert!(winning.contains(&"a1-h1xd5") && winning.contains(&"a1-a8xd5"), "{out}");
    // Every legal move is listed once.
    let pos = win_in_1[3].parse::<Position>().expect("position");
    assert_eq!(lines.len(), 1 + pos.legal_moves().len(), "{out}");

    let second = solve(&cache, &win_in_1);
    assert!(text(&second.stderr).contains("tablebase: read"), "{}", text(&second.stderr));
    assert_eq!(text(&second.stdout), out);

    // A damaged file is rebuilt, not trusted.
    let mut bytes = std::fs::read(&file).expect("the table file");
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x10;
    std::fs::write(&file, bytes).expect("damaged");
    let third = solve(&cache, &win_in_1);
    let err = text(&third.stderr);
    assert!(err.contains("tablebase: built") && err.contains("checksum"), "{err}");
    assert_eq!(text(&third.stdout), out);
}

#[test]
fn solve_reads_the_table_named_by_tablebase_and_values_hand_built_positions() {
    let cache = temp_dir("unused");
    let file = temp_dir("named").join("table.bin");
    let file_arg = file.to_str().expect("utf-8 path");
    let cases = [
        ("8/1WB5/1B6/8/8/8/8/8 w", "value loss 2"),
        ("8/8/2WW4/2B5/8/8/8/8 w", "value win 3"),
        ("8/8/8/8/8/8/8/B7 w", "value loss 0"),
        ("B6B/8/8/8/8/8/8/W6W w", "value draw"),
    ];
    for (fen, value) in cases {
        let out = solve(&cache, &["--game", "otrazhenie", "--tablebase", file_arg, "--fen", fen]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(text(&out.stdout).lines().next(), Some(value), "{fen}");
    }
    assert!(file.exists());
    assert!(!cache.exists(), "--tablebase replaces the cache directory");
}

#[test]
fn solve_refuses_games_without_a_table_and_bad_positions() {
    let cache = temp_dir("refused");
    let out = solve(&cache, &["--game", "focus"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("focus has no perfect-play table"), "{}", text(&out.stderr));
    let out = solve(&cache, &["--game", "otrazhenie", "--fen", "WWW5/8/8/8/8/8/8/B7 w"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("at most 2"), "{}", text(&out.stderr));
}

/// What `igroteka engine --game otrazhenie` writes for `script`, its table
/// cached in `cache`.
fn engine_session(cache: &Path, script: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_igroteka"))
        .args(["engine", "--game", "otrazhenie"])
        .env("IGROTEKA_CACHE", cache)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    child.stdin.take().expect("stdin").write_all(script.as_bytes()).expect("written");
    text(&child.wait_with_output().expect("the engine ends").stdout)
}

/// Through the protocol: the table is read (or built in memory) on
/// `isready`, never written, and `info` carries the exact distance, for
/// alpha-beta and MCTS alike.
#[test]
fn the_engine_process_reports_the_tables_distance() {
    let cache = temp_dir("engine");
    let script = "ugi\nisready\n\
        position fen 8/8/2WW4/2B5/8/8/8/8 w\ngo nodes 1\nisready\n\
        setoption name Engine value mcts\n\
        position fen 8/1WB5/1B6/8/8/8/8/8 w\ngo nodes 1\nisready\n\
        position startpos\ngo nodes 1\nisready\nquit\n";
    let out = engine_session(&cache, script);
    assert!(!cache.join("otrazhenie-table.bin").exists(), "isready wrote a file");
    let answers: Vec<&str> =
        out.lines().filter(|l| l.starts_with("info") || l.starts_with("bestmove")).collect();
    assert_eq!(answers.len(), 6, "{out}");
    // The table's line to the end: three plies for a win in 3.
    assert!(answers[0].starts_with("info depth 3 seldepth 3 score win 3 "), "{out}");
    let pv = answers[0].split(" pv ").nth(1).unwrap_or_default();
    assert_eq!(pv.split_whitespace().count(), 3, "{out}");
    assert!(pv.starts_with("d6-d5 "), "{out}");
    assert_eq!(answers[1], "bestmove d6-d5");
    assert!(answers[2].contains(" score loss 2 "), "{out}");
    assert!(answers[4].contains(" score cp 0 "), "{out}");
}

/// An engine reads the table `igroteka solve` wrote and leaves the file as
/// it was; a damaged file is not repaired by the engine (only by `solve`).
#[test]
fn the_engine_reads_the_cached_table_and_never_writes_it() {
    let cache = temp_dir("engine-reads");
    let written = solve(&cache, &["--game", "otrazhenie"]);
    assert!(written.status.success(), "{}", text(&written.stderr));
    let file = cache.join("otrazhenie-table.bin");
    let before = std::fs::read(&file).expect("solve wrote the table");
    let win = "isready\nposition fen 8/8/2WW4/2B5/8/8/8/8 w\ngo nodes 1\nisready\nquit\n";
    let out = engine_session(&cache, win);
    assert!(out.contains("score win 3 "), "{out}");
    assert_eq!(std::fs::read(&file).expect("still there"), before, "the engine changed the file");
    std::fs::write(&file, b"damaged").expect("written");
    let out = engine_session(&cache, win);
    assert!(out.contains("score win 3 "), "built in memory instead: {out}");
    assert_eq!(std::fs::read(&file).expect("still there"), b"damaged");
}

#[test]
fn tablebase_false_makes_the_engine_search_instead() {
    let cache = temp_dir("engine-off");
    let session = |script: &str| {
        let out = engine_session(&cache, script);
        out.lines().filter(|l| l.starts_with("info")).map(str::to_owned).collect::<Vec<_>>()
    };
    // A win in 3 by the table: the search reports each iteration, the table
    // one line with its whole line to the end.
    let win = "position fen 8/8/2WW4/2B5/8/8/8/8 w\ngo depth 2\n";
    let searched = session(&format!("setoption name Tablebase value false\n{win}"));
    assert_eq!(searched.len(), 2, "{searched:?}");
    assert!(searched[0].starts_with("info depth 1 "), "{searched:?}");
    assert!(searched[1].starts_with("info depth 2 "), "{searched:?}");
    let table = session(&format!(
        "setoption name Tablebase value false\nsetoption name Tablebase value maybe\n\
         setoption name tablebase value TRUE\n{win}"
    ));
    assert_eq!(table[0], "info string error: Tablebase: bad value 'maybe' (true or false)");
    assert_eq!(table.len(), 2, "{table:?}");
    assert!(table[1].starts_with("info depth 3 seldepth 3 score win 3 "), "{table:?}");
}

/// Positions met in random games from the start: mostly drawn early on, won
/// and lost near the end.
fn positions_of_random_games(games: u64) -> Vec<Position> {
    let mut positions = Vec::new();
    for seed in 0..games {
        let mut rng = Rng::new(seed);
        let mut pos = Position::default();
        for _ in 0..Position::DEFAULT_MAX_PLIES {
            let Some(&mv) = rng.choose(&pos.legal_moves()) else { break };
            positions.push(pos);
            pos.play_unchecked(mv);
        }
    }
    positions
}

/// The score the engine must report for a table value.
fn score_of(value: Proven) -> Score {
    match value {
        Proven::Win(n) => Score::Win(n),
        Proven::Loss(n) => Score::Loss(n),
        Proven::Draw => Score::Cp(0),
    }
}

/// Alpha-beta and MCTS, with the smallest budget, on hundreds of won, drawn
/// and lost positions: the move keeps the value (a win in n goes to a loss in
/// n - 1 for the opponent, a draw to a draw, a loss in n to a win in n - 1)
/// and the reported score is the table's, distance included.
#[test]
fn the_engine_plays_the_tables_best_move_and_reports_its_distance() {
    let table = table();
    let mut kept = [0u32; 3];
    let stop = AtomicBool::new(false);
    for (i, pos) in positions_of_random_games(150).into_iter().enumerate() {
        let value = table.value(&pos);
        let kind = match value {
            Proven::Win(_) => 0,
            Proven::Draw => 1,
            Proven::Loss(_) => 2,
        };
        if kept[kind] >= 300 || (kind == 1 && i % 7 != 0) {
            continue;
        }
        for engine in [EngineKind::AlphaBeta, EngineKind::Mcts] {
            let think = Think { engine, limits: Limits::nodes(1), ..Think::default() };
            let (best, info) = pos.think(&think, &mut memory(), &stop, &mut |_| {});
            let mut child = pos;
            child.play_text(&best.expect("a move")).expect("a legal move");
            let after = table.value(&child);
            let expected = match value {
                Proven::Win(n) => Proven::Loss(n - 1),
                Proven::Loss(n) => Proven::Win(n - 1),
                Proven::Draw => Proven::Draw,
            };
            assert_eq!(after, expected, "{engine} in {pos} ({value:?})");
            assert_eq!(info.score, score_of(value), "{engine} in {pos}");
        }
        kept[kind] += 1;
    }
    assert!(kept[0] >= 200 && kept[1] >= 200 && kept[2] >= 50, "too few positions: {kept:?}");
}

/// Played out by the engine on both sides, a won position ends exactly when
/// the table says, with the side that was to move winning.
#[test]
fn won_positions_played_out_end_in_exactly_the_tables_distance() {
    let table = table();
    let stop = AtomicBool::new(false);
    let think = Think { limits: Limits::depth(1), ..Think::default() };
    let mut longest = 0;
    let won = positions_of_random_games(40)
        .into_iter()
        .filter(|pos| matches!(table.value(pos), Proven::Win(n) if n >= 3))
        .step_by(5)
        .take(60);
    let mut memory = memory();
    for start in won {
        let Proven::Win(n) = table.value(&start) else { unreachable!("filtered") };
        let mut pos = start;
        let mut plies = 0;
        while !pos.is_over() {
            let (best, _) = pos.think(&think, &mut memory, &stop, &mut |_| {});
            pos.play_text(&best.expect("a move")).expect("legal");
            plies += 1;
            assert!(plies <= n, "{start}: not over after {n} plies");
        }
        assert_eq!(plies, n, "{start}");
        assert_eq!(pos.outcome().and_then(|o| o.winner), Some(start.side_to_move()), "{start}");
        longest = longest.max(n);
    }
    assert!(longest >= 7, "only short wins were tried (longest {longest})");
}

/// Drawn positions are played for the opponent's mistakes: from the (drawn)
/// start, the engine playing from the table beats a random player by the
/// rules, as the searching engine did before the table (the first drawing
/// move alone let random hold every game to the ply cap).
#[test]
fn the_table_player_wins_drawn_games_against_random() {
    let stop = AtomicBool::new(false);
    let think = Think { limits: Limits::depth(1), ..Think::default() };
    let mut wins = 0;
    for seed in 0..6 {
        let mut rng = Rng::new(seed);
        let mut pos = Position::default();
        let mut memory = memory();
        for _ in 0..Position::DEFAULT_MAX_PLIES {
            if pos.is_over() {
                break;
            }
            let mv = if pos.side_to_move() == board_core::Player::First {
                pos.think(&think, &mut memory, &stop, &mut |_| {}).0.expect("a move")
            } else {
                search::random_move(&pos, &mut rng).expect("a move").to_string()
            };
            pos.play_text(&mv).expect("a legal move");
        }
        if pos.outcome().is_some_and(|end| end.winner == Some(board_core::Player::First)) {
            wins += 1;
        }
    }
    assert!(wins >= 5, "the table player won {wins} of 6 games against random");
}

/// Issue 32, item 1: what the arena's referee asks of any position behind
/// the dynamic layer (`SearchGame::probe_table`): the table's value for
/// the side to move when the table is the position's game's; `None` for a
/// position of another game.
#[test]
fn any_position_asks_its_games_table_through_the_dynamic_layer() {
    let dyn_table = DynTable::new::<Position>(table());
    let won: Box<dyn SearchGame> =
        Box::new("8/8/8/3B4/8/8/8/W7 w".parse::<Position>().expect("a position"));
    assert_eq!(won.probe_table(&dyn_table), Some(Proven::Win(1)));
    let start: Box<dyn SearchGame> = Box::new(Position::default());
    assert_eq!(start.probe_table(&dyn_table), Some(Proven::Draw));
    let focus: Box<dyn SearchGame> = Box::new(focus::Position::default());
    assert_eq!(focus.probe_table(&dyn_table), None);
}
