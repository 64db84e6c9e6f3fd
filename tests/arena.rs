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
