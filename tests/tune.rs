//! The evaluation as a weighted sum of features, and `igroteka tune`.

use std::path::PathBuf;
use std::process::{Command, Output};

use board_core::{Evaluate, Game, MAX_FEATURES, Rng, Valuation, dot};

fn igroteka(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_igroteka")).args(args).output().expect("run igroteka")
}

fn temp_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("igroteka-tune-{}", std::process::id()));
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
