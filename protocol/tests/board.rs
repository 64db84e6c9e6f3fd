//! `query board`, `query pieces` and `query movepaths` for every game: valid
//! against `docs/board.schema.json`, consistent with each other and with the
//! other queries, and equal to the golden files in `tests/data/`
//! (`UPDATE_GOLDEN=1 cargo test -p igroteka-protocol --test board` rewrites them).

mod common;

use std::collections::HashSet;
use std::sync::LazyLock;

use board_core::Rng;
use pretty_assertions::assert_eq;
use protocol::EngineMessage;
use search::GameEntry;
use serde_json::{Value, json};

static GAMES: &[GameEntry] = &[
    GameEntry::of::<otrazhenie::Position>(),
    GameEntry::of::<adiyukh::Position>(),
    GameEntry::of::<focus::Position>(),
    GameEntry::of::<hexdraughts::Position>(),
    GameEntry::of::<stykovka::Position>(),
    GameEntry::of::<city::Position>(),
];

const SCHEMA_URL: &str = "https://example.invalid/igroteka/docs/board.schema.json";

/// The schema, compiled once: the three response definitions.
struct Schema {
    schemas: boon::Schemas,
    board: boon::SchemaIndex,
    pieces: boon::SchemaIndex,
    movepaths: boon::SchemaIndex,
}

static SCHEMA: LazyLock<Schema> = LazyLock::new(|| {
    // A link to `docs/board.schema.json`, so the packaged crate has it too.
    let text = include_str!("data/board.schema.json");
    let json: Value = serde_json::from_str(text).expect("the schema is JSON");
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler.add_resource(SCHEMA_URL, json).expect("the schema loads");
    let mut compile = |def: &str| {
        compiler
            .compile(&format!("{SCHEMA_URL}#/$defs/{def}"), &mut schemas)
            .unwrap_or_else(|e| panic!("schema {def}: {e}"))
    };
    let (board, pieces, movepaths) = (compile("board"), compile("pieces"), compile("movepaths"));
    Schema { schemas, board, pieces, movepaths }
});

/// Whether `value` is valid as `def`; the errors otherwise.
fn validate(value: &Value, def: &str) -> Result<(), String> {
    let schema = &*SCHEMA;
    let index = match def {
        "board" => schema.board,
        "pieces" => schema.pieces,
        _ => schema.movepaths,
    };
    schema.schemas.validate(value, index).map_err(|e| format!("{e:#}"))
}

/// Everything the engine says about one position.
#[derive(Debug)]
struct Answers {
    board: Value,
    pieces: Value,
    movepaths: Value,
    moves: Vec<String>,
    p1turn: bool,
    result: String,
    /// The words of the `d` picture.
    picture: HashSet<String>,
}

/// Sets up `variant` of `game` at `base` (`startpos` or `fen <text>`) plus
/// `moves`, after `setup` (more commands), and asks every question.
fn ask(game: &str, variant: &str, setup: &str, base: &str, moves: &[String]) -> Answers {
    let script = format!(
        "setoption name Variant value {variant}\n{setup}position {base} moves {}\n\
         query board\nquery pieces\nquery movepaths\nquery moves\nquery p1turn\nquery result\nd\n",
        moves.join(" ")
    );
    let lines = common::session(GAMES, game, script.into_bytes());
    let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
    assert!(errors.is_empty(), "{game} {variant} {base} {moves:?}: {errors:?}");
    let mut responses = lines.iter().filter_map(|line| match line.parse() {
        Ok(EngineMessage::Response(text)) => Some(text),
        _ => None,
    });
    let mut next = || responses.next().expect("a response to every query");
    let json = |text: String| -> Value {
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
    };
    Answers {
        board: json(next()),
        pieces: json(next()),
        movepaths: json(next()),
        moves: next().split_whitespace().map(str::to_owned).collect(),
        p1turn: next() == "true",
        result: next(),
        picture: lines
            .iter()
            .filter_map(|l| l.strip_prefix("info string "))
            .flat_map(str::split_whitespace)
            .map(str::to_owned)
            .collect(),
    }
}

fn strings(value: &Value) -> Vec<&str> {
    value.as_array().map_or_else(Vec::new, |a| a.iter().filter_map(Value::as_str).collect())
}

/// Validates the answers against the schema and checks they agree.
fn check(game: &str, variant: &str, answers: &Answers) {
    let Answers { board, pieces, movepaths, .. } = answers;
    for (value, def) in [(board, "board"), (pieces, "pieces"), (movepaths, "movepaths")] {
        if let Err(e) = validate(value, def) {
            panic!("{game} {variant}: query {def} does not fit the schema: {e}\n{value}");
        }
    }
    assert_eq!((board["game"].as_str(), board["variant"].as_str()), (Some(game), Some(variant)));

    let cells = board["cells"].as_array().expect("cells");
    let names: HashSet<&str> = cells.iter().filter_map(|c| c["name"].as_str()).collect();
    assert_eq!(names.len(), cells.len(), "{game}: cell names are not unique");
    let classes = board["classes"].as_object().expect("classes");
    for cell in cells {
        let class = cell["class"].as_str().unwrap_or_default();
        assert!(classes.contains_key(class), "{game}: class {class} has no colour");
    }
    for label in board["labels"].as_array().expect("labels") {
        let text = label["text"].as_str().unwrap_or_default();
        let at = (label["x"].as_f64().unwrap_or(-9.0), label["y"].as_f64().unwrap_or(-9.0));
        // A label inside a cell (hexdraughts' field numbers) names that cell.
        let within = cells.iter().find(|c| {
            let centre = (c["x"].as_f64().unwrap_or(0.0), c["y"].as_f64().unwrap_or(0.0));
            (centre.0 - at.0).hypot(centre.1 - at.1) < 0.45
        });
        match within {
            Some(cell) => {
                let name = cell["name"].as_str().unwrap_or_default();
                assert!(name.ends_with(text), "{game}: label {text} inside {name}");
            }
            None => assert!(
                answers.picture.contains(text),
                "{game}: label {text} is not in the d picture"
            ),
        }
    }

    let mut occupied = HashSet::new();
    for stack in pieces["cells"].as_array().expect("pieces") {
        let cell = stack["cell"].as_str().unwrap_or_default();
        assert!(names.contains(cell), "{game}: a piece on {cell}, which is not on the board");
        assert!(occupied.insert(cell), "{game}: {cell} listed twice");
    }
    let side = if answers.p1turn { 1 } else { 2 };
    assert_eq!(pieces["side_to_move"], json!(side), "{game}: side to move");
    let result = if answers.result == "none" { Value::Null } else { json!(answers.result) };
    assert_eq!(pieces["result"], result, "{game}: result");
    assert_eq!(pieces["game_over"], json!(!result.is_null()), "{game}: game over");
    let reserves = board["reserves"] == json!(true);
    assert_eq!(pieces["reserves"].is_array(), reserves, "{game}: reserves");

    let paths = movepaths["moves"].as_array().expect("moves");
    let listed: Vec<&str> = paths.iter().filter_map(|m| m["move"].as_str()).collect();
    assert_eq!(listed, answers.moves, "{game}: movepaths and query moves differ");
    for entry in paths {
        for (i, cell) in strings(&entry["path"]).into_iter().enumerate() {
            let drop = i == 0 && reserves && cell == "reserve";
            assert!(drop || names.contains(cell), "{game}: {entry} crosses {cell}");
        }
    }
}

/// Every variant's start and positions after seeded random play.
#[test]
fn every_game_answers_consistently_in_random_positions() {
    let mut rng = Rng::new(13);
    for entry in GAMES {
        for variant in entry.variants {
            let start = entry.start(variant).unwrap();
            for plies in [0, 7, 25, 80] {
                let mut position = start.clone();
                let moves: Vec<String> =
                    (0..plies).map_while(|_| position.play_random(&mut rng)).collect();
                let answers = ask(entry.name, variant, "", "startpos", &moves);
                check(entry.name, variant, &answers);
            }
        }
    }
}

/// The ply cap ends the game: no move paths, the adjudication in pieces.
#[test]
fn a_capped_game_has_no_move_paths_and_says_why() {
    let moves = ["a3-b4", "f6-g5", "c3-d4"].map(str::to_owned);
    let answers =
        ask("adiyukh", "standard", "setoption name MaxPlies value 3\n", "startpos", &moves);
    check("adiyukh", "standard", &answers);
    assert_eq!(answers.movepaths, json!({ "moves": [] }));
    assert_eq!(answers.pieces["game_over"], json!(true));
    assert_eq!(answers.pieces["result"], json!("draw"));
    assert_eq!(answers.pieces["reason"], json!("ply limit"));
    assert_eq!(answers.pieces["score"], json!([12, 12]));
}

/// Focus: drops start at the reserve, and a stack moves 1 to all its pieces
/// (the same start cell, a target per count).
#[test]
fn focus_drops_and_splits() {
    let text = "4/b,b,w,w,b,b/1,w,w,b,b,w,w,1/1,b,b,w,w,b,b,1/1,w,w,b,b,w,w,1/\
                1,b,b,w,w,b,b,1/1,w,1,wb,w,w/4 b reserve 1 0 captured 0 0";
    let answers = ask("focus", "standard", "", &format!("fen {text}"), &[]);
    check("focus", "standard", &answers);
    let paths = &answers.movepaths["moves"];
    let has = |mv: &str, path: &[&str]| {
        paths.as_array().unwrap().iter().any(|m| m["move"] == mv && strings(&m["path"]) == path)
    };
    assert!(has("@a3", &["reserve", "a3"]), "{paths}");
    assert!(has("e2-e3", &["e2", "e3"]) && has("e2-e4", &["e2", "e4"]), "{paths}");
    assert_eq!(answers.pieces["reserves"], json!([1, 0]));
}

/// Hexdraughts: a multi-jump clicks its start and every landing.
#[test]
fn hexdraughts_multi_jump_path() {
    let answers = ask("hexdraughts", "standard", "", "fen W:WI3:BH3,F4", &[]);
    check("hexdraughts", "standard", &answers);
    assert_eq!(
        answers.movepaths,
        json!({ "moves": [{ "move": "I3:G3:E4", "path": ["I3", "G3", "E4"] }] })
    );
}

/// The schema catches what a sloppy engine might send.
#[test]
fn the_schema_rejects_malformed_answers() {
    let answers = ask("otrazhenie", "standard", "", "startpos", &[]);
    let mut board = answers.board.clone();
    board["classes"]["dark"] = json!("brown");
    assert!(validate(&board, "board").is_err(), "a colour that is no #rrggbb");
    let mut board = answers.board;
    board["cells"][0]["polygon"] = json!([[0, 0], [1, 1]]);
    assert!(validate(&board, "board").is_err(), "a polygon of two points");
    let mut pieces = answers.pieces;
    pieces["side_to_move"] = json!(0);
    assert!(validate(&pieces, "pieces").is_err(), "player 0");
    pieces["side_to_move"] = json!(1);
    pieces["cells"][0]["stack"] = json!([]);
    assert!(validate(&pieces, "pieces").is_err(), "an empty stack");
    let path = json!({ "moves": [{ "move": "a1-a2", "path": ["a1", "a 2"] }] });
    assert!(validate(&path, "movepaths").is_err(), "a cell name with a space");
    assert!(validate(&json!({ "moves": [{ "move": "x" }] }), "movepaths").is_err(), "no path");
}

/// The three answers at a position, pretty-printed: short arrays and objects
/// on one line, so a golden file reads a cell or a move per line.
fn pretty(value: &Value, indent: usize, out: &mut String) {
    let compact = value.to_string();
    if indent + compact.len() <= 140 {
        out.push_str(&compact);
        return;
    }
    let pad = " ".repeat(indent + 2);
    let (open, close, items): (char, char, Vec<(Option<&String>, &Value)>) = match value {
        Value::Object(map) => ('{', '}', map.iter().map(|(k, v)| (Some(k), v)).collect()),
        Value::Array(items) => ('[', ']', items.iter().map(|v| (None, v)).collect()),
        _ => {
            out.push_str(&compact);
            return;
        }
    };
    out.push(open);
    for (i, (key, item)) in items.into_iter().enumerate() {
        out.push_str(if i == 0 { "\n" } else { ",\n" });
        out.push_str(&pad);
        if let Some(key) = key {
            out.push_str(&format!("{}: ", Value::from(key.as_str())));
        }
        pretty(item, indent + 2, out);
    }
    out.push('\n');
    out.push_str(&" ".repeat(indent));
    out.push(close);
}

/// Compares the answers at a position with `tests/data/<name>.json`.
fn golden(name: &str, game: &str, variant: &str, base: &str) {
    let answers = ask(game, variant, "", base, &[]);
    check(game, variant, &answers);
    let value = json!({
        "position": base,
        "board": answers.board,
        "pieces": answers.pieces,
        "movepaths": answers.movepaths,
    });
    let mut text = String::new();
    pretty(&value, 0, &mut text);
    text.push('\n');
    let path = format!("{}/tests/data/{name}.json", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e} (UPDATE_GOLDEN=1 writes it)"));
    assert_eq!(expected, text, "{path}");
}

/// Every variant's start, and positions with stacks, kings and reserves.
#[test]
fn golden_answers() {
    for entry in GAMES {
        for (i, variant) in entry.variants.iter().enumerate() {
            let name = if i == 0 {
                format!("board-{}", entry.name)
            } else {
                format!("board-{}-{variant}", entry.name)
            };
            golden(&name, entry.name, variant, "startpos");
        }
    }
    let adiyukh = "fen w a1:w c1:w e1:w g1:w b2:w d2:w f2:w h2:w a3:wbbb c3:w e3:w b6:b d6:b \
                   f6:b h6:b a7:b c7:b e7:b g7:bW b8:b";
    golden("board-adiyukh-columns", "adiyukh", "standard", adiyukh);
    golden("board-hexdraughts-capture", "hexdraughts", "standard", "fen W:WI3:BH3,F4,KA4");
    let focus = "fen 4/b,b,w,w,b,b/1,w,w,b,b,w,w,1/1,b,b,w,w,b,b,1/1,w,w,b,b,w,w,1/\
                 1,b,b,w,w,b,b,1/1,w,1,wb,w,w/4 b reserve 1 0 captured 0 0";
    golden("board-focus-reserve", "focus", "standard", focus);
}
