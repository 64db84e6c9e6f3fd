//! `igroteka arena` with the real built-in engines (each a spawned
//! `igroteka engine` process), as a user runs it.

use std::process::Command;

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
    let dir = std::env::temp_dir().join(format!("igroteka-arena-{}", std::process::id()));
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
    let _ = std::fs::remove_dir_all(&dir);
}

/// `docs/openings/city-16.txt` (made by `tools/scripts/balanced-openings.py`):
/// every line a legal move list the arena accepts, leading to a game not
/// over, which a shallow search does not call won or lost either.
#[test]
fn the_balanced_city_openings_are_legal_and_undecided() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;

    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/openings/city-16.txt");
    let text = std::fs::read_to_string(path).expect("the openings file");
    let openings: Vec<&str> =
        text.lines().filter(|l| !l.is_empty() && !l.starts_with('#')).collect();
    assert_eq!(openings.len(), 50);
    let mut child = Command::new(env!("CARGO_BIN_EXE_igroteka"))
        .args(["engine", "--game", "city"])
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
    assert!(ok, "{err}");
}
