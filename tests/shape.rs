//! The shape every game crate shares (board-core's checklist), as far as the
//! compiler does not enforce it: no inherent method of a game type is named
//! like a method of a shared trait that type implements (an inherent method
//! shadows the trait's, or makes calls ambiguous), and every game crate has
//! a prelude and re-exports board-core.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const GAMES: [&str; 6] = ["adiyukh", "city", "focus", "hexdraughts", "otrazhenie", "stykovka"];
/// The shared traits and the board-core files that declare them.
const TRAITS: [(&str, &str); 6] = [
    ("Game", "game.rs"),
    ("Evaluate", "game.rs"),
    ("EndgameTable", "game.rs"),
    ("Describe", "view.rs"),
    ("Cell", "cell.rs"),
    ("Variant", "variant.rs"),
];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn sources(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut files: Vec<(PathBuf, String)> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
        .map(|path| {
            let text = fs::read_to_string(&path).expect("a readable source file");
            (path, text)
        })
        .collect();
    files.sort();
    files
}

/// The name after `fn ` on a line, if it declares a function.
fn fn_name(line: &str) -> Option<&str> {
    let rest = &line[line.find("fn ")? + 3..];
    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    Some(&rest[..end])
}

/// The items of each block opened by a line for which `opens` gives a key,
/// up to the closing brace at the same indentation.
fn blocks(text: &str, opens: impl Fn(&str) -> Option<String>) -> Vec<(String, Vec<&str>)> {
    let mut found = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some(key) = opens(line) else { continue };
        if line.trim_end().ends_with('}') {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let close = format!("{}}}", " ".repeat(indent));
        let body: Vec<&str> = lines.by_ref().take_while(|l| l.trim_end() != close).collect();
        found.push((key, body));
    }
    found
}

/// The methods each shared trait declares.
fn trait_methods() -> BTreeMap<&'static str, BTreeSet<String>> {
    let core = workspace().join("crates/board-core/src");
    TRAITS
        .iter()
        .map(|&(name, file)| {
            let text = fs::read_to_string(core.join(file)).expect("board-core source");
            let opener = format!("pub trait {name}");
            let declared: BTreeSet<String> =
                blocks(&text, |line| line.starts_with(&opener).then(String::new))
                    .into_iter()
                    .flat_map(|(_, body)| body)
                    .filter(|line| line.starts_with("    fn ") || line.starts_with("    const fn "))
                    .filter_map(fn_name)
                    .map(str::to_owned)
                    .collect();
            assert!(!declared.is_empty(), "found no methods of {name} in {file}");
            (name, declared)
        })
        .collect()
}

/// The type an `impl` line is for, and the shared trait it implements (`None`
/// for an inherent impl); `None` for other lines.
fn impl_line(line: &str) -> Option<(String, Option<&'static str>)> {
    let rest = line.strip_prefix("impl")?;
    let rest = if rest.starts_with('<') { &rest[rest.find('>')? + 1..] } else { rest };
    let rest = rest.trim_start().trim_end_matches('{').trim();
    let last_word = |s: &str| {
        let s = s.split('<').next().unwrap_or(s);
        s.rsplit("::").next().unwrap_or(s).trim().to_owned()
    };
    match rest.split_once(" for ") {
        Some((tr, ty)) => {
            let tr = last_word(tr);
            let shared = TRAITS.iter().map(|&(name, _)| name).find(|name| *name == tr)?;
            Some((last_word(ty), Some(shared)))
        }
        None => Some((last_word(rest), None)),
    }
}

#[test]
fn no_inherent_method_is_named_like_a_shared_trait_method() {
    let methods = trait_methods();
    assert!(methods["Game"].contains("perft") && methods["Describe"].contains("pieces"));
    let mut clashes = Vec::new();
    for game in GAMES {
        let files = sources(&workspace().join("crates").join(game).join("src"));
        let mut implemented: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
        for (_, text) in &files {
            for (ty, shared) in text.lines().filter_map(impl_line) {
                if let Some(shared) = shared {
                    implemented.entry(ty).or_default().insert(shared);
                }
            }
            if text.contains("variants! {") {
                // The macro implements Variant for the enum it declares.
                implemented.entry("Variant".to_owned()).or_default().insert("Variant");
            }
        }
        for (path, text) in &files {
            let inherent = |line: &str| match impl_line(line) {
                Some((ty, None)) => Some(ty),
                _ => None,
            };
            for (ty, body) in blocks(text, inherent) {
                let Some(traits) = implemented.get(&ty) else { continue };
                for name in body
                    .iter()
                    .filter(|l| l.trim_start().starts_with("pub"))
                    .filter_map(|l| fn_name(l))
                {
                    for tr in traits {
                        if methods[tr].contains(name) {
                            clashes
                                .push(format!("{}: {ty}::{name} (a {tr} method)", path.display()));
                        }
                    }
                }
            }
        }
    }
    assert!(
        clashes.is_empty(),
        "inherent methods named like trait methods:\n{}",
        clashes.join("\n")
    );
}

#[test]
fn every_game_crate_has_a_prelude_and_re_exports_board_core() {
    for game in GAMES {
        let lib = fs::read_to_string(workspace().join("crates").join(game).join("src/lib.rs"))
            .expect("lib.rs");
        assert!(lib.contains("pub mod prelude {"), "{game} has no prelude");
        assert!(lib.contains("pub use board_core;"), "{game} does not re-export board_core");
        let readme = fs::read_to_string(workspace().join("crates").join(game).join("README.md"))
            .expect("README");
        let example = readme.split("```rust").nth(1).unwrap_or_default();
        for step in [
            "use ",
            "Position::default()",
            "legal_moves()",
            "play_text(",
            ".parse()?",
            "piece_at(",
            "parse::<Position>()",
            "{pos:#}",
            "board()",
        ] {
            assert!(example.contains(step), "{game}: the README's first example lacks {step}");
        }
        assert!(example.contains(&format!("use {game}::prelude::*;")), "{game}: example imports");
    }
}
