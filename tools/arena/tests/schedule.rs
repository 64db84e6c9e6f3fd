//! Pairings, shards, openings and the command-line tokens of engines.

use std::collections::HashSet;

use arena::{
    EngineSpec, Limit, Opening, Openings, Pairing, Program, Shard, TimeControl, encounters,
    schedule, split_command,
};
use board_core::tictactoe::TicTacToe;
use search::{EngineKind, GameEntry};

fn tokens(t: &[&str]) -> Vec<String> {
    t.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn round_robin_and_gauntlet_encounters() {
    assert_eq!(encounters(3, false), [(0, 1), (0, 2), (1, 2)]);
    assert_eq!(encounters(4, true), [(0, 1), (0, 2), (0, 3)]);
    assert_eq!(encounters(5, false).len(), 10);
}

#[test]
fn every_encounter_twice_per_round_with_colours_swapped() {
    let games = schedule(3, 2, false);
    assert_eq!(games.len(), 12);
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g.id, i as u64);
        assert_eq!(g.pair, g.id / 2);
        assert_eq!(g.round, 1 + (i / 6) as u32);
    }
    for pair in games.chunks(2) {
        assert_eq!((pair[0].p1, pair[0].p2), (pair[1].p2, pair[1].p1));
    }
    let per_engine_as_p1: Vec<usize> =
        (0..3).map(|e| games.iter().filter(|g| g.p1 == e).count()).collect();
    assert_eq!(per_engine_as_p1, [4, 4, 4]);
}

#[test]
fn shards_partition_the_schedule_and_keep_pairs_together() {
    let games = schedule(4, 3, false);
    for n in 1..=7 {
        let mut seen = HashSet::new();
        for i in 1..=n {
            let shard = Shard::parse(&format!("{i}/{n}")).unwrap();
            for g in games.iter().filter(|g| shard.contains(g)) {
                assert!(seen.insert(g.id), "game {} in two shards", g.id);
                let partner = g.id ^ 1;
                assert!(shard.contains(&games[partner as usize]));
            }
        }
        assert_eq!(seen.len(), games.len());
    }
    for bad in ["0/3", "4/3", "1", "a/b", "1/0"] {
        assert!(Shard::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn random_openings_are_seeded_per_round() {
    let entry = GameEntry::of::<TicTacToe>();
    let openings = Openings::parse("random:3", &entry, "standard", 20).unwrap();
    let a = openings.for_round(1, 42, &entry, "standard").unwrap();
    assert_eq!(a, openings.for_round(1, 42, &entry, "standard").unwrap());
    assert_eq!(a.moves.len(), 3);
    assert!(a.position(&entry, "standard").unwrap().outcome().is_none());
    let rounds: HashSet<Vec<String>> =
        (1..=20).map(|r| openings.for_round(r, 42, &entry, "standard").unwrap().moves).collect();
    assert!(rounds.len() > 5);
}

#[test]
fn opening_files_hold_move_lists_and_positions() {
    let entry = GameEntry::of::<TicTacToe>();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("arena-openings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("book.txt");
    std::fs::write(&path, "# a comment\nc4 c0\n\nx...o.... x\n").unwrap();
    let openings =
        Openings::parse(&format!("file={}", path.display()), &entry, "standard", 3).unwrap();
    let first = openings.for_round(1, 0, &entry, "standard").unwrap();
    assert_eq!(first, Opening { fen: None, moves: tokens(&["c4", "c0"]) });
    assert_eq!(first.to_string(), "startpos moves c4 c0");
    let second = openings.for_round(2, 0, &entry, "standard").unwrap();
    assert_eq!(second.fen.as_deref(), Some("x...o.... x"));
    assert_eq!(second.to_string(), "fen x...o.... x");
    assert_eq!(openings.for_round(3, 0, &entry, "standard").unwrap(), first);
    std::fs::write(&path, "c4 zz\n").unwrap();
    let err =
        Openings::parse(&format!("file={}", path.display()), &entry, "standard", 3).unwrap_err();
    assert!(format!("{err:#}").contains("book.txt:1"), "{err:#}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_openings_file_is_read_only_as_far_as_the_rounds_need_and_a_mark_is_no_move() {
    let entry = GameEntry::of::<TicTacToe>();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("arena-openings-far-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("book.txt");
    // A byte-order mark before line 1; line 4 is never read for 2 rounds.
    std::fs::write(&path, "\u{feff}# a book\nc4 c0\nc8\nnot an opening\n").unwrap();
    let spec = format!("file={}", path.display());
    let Openings::List(list) = Openings::parse(&spec, &entry, "standard", 2).unwrap() else {
        panic!("a list")
    };
    assert_eq!(list.len(), 2);
    assert!(Openings::parse(&spec, &entry, "standard", 3).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An openings file of endless short lines (a pipe here) stops the reading
/// at [`arena::openings_budget`] instead of keeping the arena reading.
#[test]
fn an_endless_openings_file_is_refused_at_its_byte_limit() {
    use std::io::Write;

    let entry = GameEntry::of::<TicTacToe>();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("arena-openings-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("endless.txt");
    let _ = std::fs::remove_file(&fifo);
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut file = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
            let line = format!("{}\n", " ".repeat(1023));
            // Blank lines: no opening among them, ever; more than the limit.
            for _ in 0..(arena::openings_budget(5) / 1024 + 64) {
                if file.write_all(line.as_bytes()).is_err() {
                    break; // the reader stopped
                }
            }
        })
    };
    let spec = format!("file={}", fifo.display());
    let err = format!("{:#}", Openings::parse(&spec, &entry, "standard", 5).unwrap_err());
    assert!(err.contains(&format!("more than {} bytes", arena::openings_budget(5))), "{err}");
    writer.join().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn engine_tokens() {
    let spec = EngineSpec::parse_tokens(&tokens(&[
        "name=A",
        "cmd=./my-engine --flag 'two words' \"say \\\"hi\\\"\"",
        "option.Hash=64",
        "option.Threads=2",
        "tc=10+0.1",
        "depth=6",
    ]))
    .unwrap();
    assert_eq!(spec.name, "A");
    assert_eq!(
        spec.program,
        Program::External(tokens(&["./my-engine", "--flag", "two words", "say \"hi\""]))
    );
    assert_eq!(
        spec.options,
        [("Hash".to_owned(), "64".to_owned()), ("Threads".to_owned(), "2".to_owned())]
    );
    assert_eq!(spec.limit.tc, Some(TimeControl { base_ms: 10_000, inc_ms: 100, moves: None }));
    assert_eq!(spec.limit.depth, Some(6));

    let mcts = EngineSpec::parse_tokens(&tokens(&["builtin=mcts", "iterations=500"])).unwrap();
    assert_eq!((mcts.name.as_str(), &mcts.program), ("mcts", &Program::Builtin(EngineKind::Mcts)));
    assert_eq!(mcts.limit.nodes, Some(500));

    // The tournament fingerprint's encoding of an engine, fixed so that a
    // state file stays resumable across builds.
    assert_eq!(
        spec.canonical(),
        r#"["A",["./my-engine","--flag","two words","say \"hi\""],null,[["Hash","64"],["Threads","2"]],"tc=10+0.1 depth=6"]"#
    );
    assert_eq!(mcts.canonical(), r#"["mcts",["builtin","mcts"],null,[],"nodes=500"]"#);

    for bad in [
        &["name=x"][..],
        &["builtin=chess"],
        &["cmd=a", "builtin=mcts"],
        &["builtin=mcts", "speed=3"],
        &["cmd='open"],
    ] {
        assert!(EngineSpec::parse_tokens(&tokens(bad)).is_err(), "{bad:?}");
    }
}

/// Issue 32, item 5: moves per period as cutechess-cli and fastchess write
/// them, the base also as minutes:seconds; bad ones named.
#[test]
fn time_controls_with_moves_per_period() {
    let tc = |text: &str| TimeControl::parse(text).map_err(|e| format!("{e:#}"));
    assert_eq!(tc("40/60+0.6"), Ok(TimeControl { base_ms: 60_000, inc_ms: 600, moves: Some(40) }));
    assert_eq!(tc("40/1:30"), Ok(TimeControl { base_ms: 90_000, inc_ms: 0, moves: Some(40) }));
    assert_eq!(tc("2:00+1"), Ok(TimeControl { base_ms: 120_000, inc_ms: 1000, moves: None }));
    assert_eq!(tc("40/60+0.6").unwrap().to_string(), "40/60+0.6");
    assert_eq!(tc("60+0.6").unwrap().to_string(), "60+0.6");
    for (bad, why) in [
        ("0/60", "'0' is not a number of moves (1 or more)"),
        ("x/60", "'x' is not a number of moves"),
        ("40/", "'' is not seconds"),
        ("40/a:10", "'a' is not whole minutes"),
        ("40/60+-1", "'-1' is out of range"),
    ] {
        let error = tc(bad).unwrap_err();
        assert!(error.starts_with(&format!("bad tc '{bad}'")), "{bad}: {error}");
        assert!(error.contains(why), "{bad}: {error}");
    }
}

/// Issue 32, item 5: `timemargin=` per engine, in the fingerprint only when
/// given (engines without one keep their encoding); `--each` refuses it
/// with a pointer to `--timemargin`.
#[test]
fn a_time_margin_per_engine() {
    let spec = EngineSpec::parse_tokens(&tokens(&["builtin=mcts", "timemargin=250"])).unwrap();
    assert_eq!(spec.time_margin, Some(250));
    assert_eq!(spec.canonical(), r#"["mcts",["builtin","mcts"],null,[],"",{"timemargin":250}]"#);
    let error = EngineSpec::parse_tokens(&tokens(&["builtin=mcts", "timemargin=soon"]))
        .unwrap_err()
        .to_string();
    assert_eq!(error, "timemargin=soon: not a non-negative number");
    let error = Limit::parse_tokens(&tokens(&["timemargin=5"])).unwrap_err().to_string();
    assert!(error.contains("--timemargin MS"), "{error}");
}

#[test]
fn limits_merge_field_by_field() {
    let each = Limit::parse_tokens(&tokens(&["tc=5", "nodes=100"])).unwrap();
    assert_eq!(each.tc, Some(TimeControl { base_ms: 5000, inc_ms: 0, moves: None }));
    let own = Limit { nodes: Some(7), ..Limit::default() };
    let merged = own.or(each);
    assert_eq!((merged.tc, merged.nodes), (each.tc, Some(7)));
    assert_eq!(merged.to_string(), "tc=5+0 nodes=7");
    assert!(Limit::parse_tokens(&tokens(&["tc=-1"])).is_err());
    assert!(Limit::parse_tokens(&tokens(&["foo=1"])).is_err());
}

#[test]
fn shell_words() {
    assert_eq!(
        split_command("  a  b\\ c 'd e' \"f\\\\g\" ").unwrap(),
        tokens(&["a", "b c", "d e", "f\\g"])
    );
    assert_eq!(split_command("''").unwrap(), tokens(&[""]));
    assert!(split_command("\"open").is_err());
    assert!(split_command("end\\").is_err());
}

/// `merge` finds a record's game in the schedule by its id alone: the same
/// game as the whole schedule has, for any number of engines.
#[test]
fn a_pairing_finds_each_game_by_its_id() {
    for engines in 2..7 {
        for rounds in 1..4 {
            for gauntlet in [false, true] {
                for (games, noswap, reverse) in
                    [(2, false, false), (1, false, false), (3, true, false), (4, false, true)]
                {
                    let pairing = Pairing {
                        engines: (0..engines).map(|i| format!("e{i}")).collect(),
                        rounds,
                        gauntlet,
                        games,
                        noswap,
                        reverse,
                    };
                    let fixtures = pairing.fixtures();
                    assert_eq!(fixtures.len() as u64, pairing.games());
                    let found: Vec<_> =
                        (0..pairing.games()).map(|id| pairing.fixture(id).unwrap()).collect();
                    assert_eq!(found, fixtures, "{pairing:?}");
                    assert_eq!(pairing.fixture(pairing.games()), None);
                }
            }
        }
    }
}

/// `--games N`: N games per encounter and round, colours alternating from
/// the first-listed engine; `--noswap` keeps them, `--reverse` turns them
/// round; pairs are games `2k`, `2k + 1` of one encounter.
#[test]
fn games_per_encounter_noswap_and_reverse() {
    let pairing = |games, noswap, reverse| Pairing {
        engines: ["a", "b", "c"].map(str::to_owned).to_vec(),
        rounds: 2,
        gauntlet: false,
        games,
        noswap,
        reverse,
    };
    let sides = |p: &Pairing| -> Vec<(usize, usize)> {
        p.fixtures().iter().take(p.games as usize * 2).map(|f| (f.p1, f.p2)).collect()
    };
    assert_eq!(
        pairing(2, false, false),
        Pairing { engines: pairing(2, false, false).engines, rounds: 2, ..Pairing::default() }
    );
    assert_eq!(sides(&pairing(2, false, false)), [(0, 1), (1, 0), (0, 2), (2, 0)]);
    assert_eq!(sides(&pairing(3, false, false)), [(0, 1), (1, 0), (0, 1), (0, 2), (2, 0), (0, 2)]);
    assert_eq!(sides(&pairing(2, true, false)), [(0, 1), (0, 1), (0, 2), (0, 2)]);
    assert_eq!(sides(&pairing(2, false, true)), [(1, 0), (0, 1), (2, 0), (0, 2)]);
    assert_eq!(sides(&pairing(2, true, true)), [(1, 0), (1, 0), (2, 0), (2, 0)]);
    assert_eq!(sides(&pairing(1, false, false)), [(0, 1), (0, 2)]);
    let three = pairing(3, false, false);
    assert_eq!(three.games(), 3 * 3 * 2);
    let fixtures = three.fixtures();
    let pairs: Vec<u64> = fixtures.iter().take(7).map(|f| f.pair).collect();
    assert_eq!(pairs, [0, 0, 1, 2, 2, 3, 4]);
    let rounds: Vec<u32> = fixtures.iter().map(|f| f.round).collect();
    assert_eq!(rounds, [[1; 9], [2; 9]].concat());
    // Shards keep both games of a pair together whatever the games per encounter.
    for n in 1..=4 {
        for f in &fixtures {
            let shard = (1..=n)
                .map(|i| Shard::parse(&format!("{i}/{n}")).unwrap())
                .find(|s| s.contains(f))
                .unwrap();
            for other in fixtures.iter().filter(|o| o.pair == f.pair) {
                assert!(shard.contains(other));
            }
        }
    }
    // The default schedule's records are written as before: no new fields.
    let json = serde_json::to_string(&pairing(2, false, false)).unwrap();
    assert_eq!(json, r#"{"engines":["a","b","c"],"rounds":2}"#);
    let json = serde_json::to_string(&pairing(3, true, true)).unwrap();
    assert_eq!(
        json,
        r#"{"engines":["a","b","c"],"rounds":2,"games":3,"noswap":true,"reverse":true}"#
    );
    assert_eq!(serde_json::from_str::<Pairing>(&json).unwrap(), pairing(3, true, true));
}
