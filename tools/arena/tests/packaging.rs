//! What a normal build of the arena (and so of `igroteka`) compiles: no test
//! code. The test engines live in `examples/`, board-core's `testkit` only in
//! the dev-dependencies.

/// The lines of `[section]` in the arena's manifest.
fn section(manifest: &str, name: &str) -> Vec<String> {
    let header = format!("[{name}]");
    manifest
        .lines()
        .skip_while(|line| line.trim() != header)
        .skip(1)
        .take_while(|line| !line.trim_start().starts_with('['))
        .map(str::to_owned)
        .collect()
}

#[test]
fn normal_builds_take_no_testkit_and_ship_no_test_engines() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let manifest = std::fs::read_to_string(format!("{dir}/Cargo.toml")).unwrap();
    let dependencies = section(&manifest, "dependencies");
    assert!(!dependencies.is_empty(), "{manifest}");
    assert!(dependencies.iter().all(|l| !l.contains("testkit")), "{dependencies:?}");
    assert!(section(&manifest, "dev-dependencies").iter().any(|l| l.contains("testkit")));
    let binaries = std::fs::read_dir(format!("{dir}/src/bin")).map_or(0, Iterator::count);
    assert_eq!(binaries, 0, "binaries in src/bin");
    for example in ["fake-engine", "tictactoe-arena"] {
        assert!(std::path::Path::new(&format!("{dir}/examples/{example}.rs")).exists());
    }
}

#[test]
fn the_arena_speaks_the_protocol_without_its_engine() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let arena = std::fs::read_to_string(format!("{dir}/Cargo.toml")).unwrap();
    let uses = section(&arena, "dependencies");
    let mut protocol =
        uses.iter().find(|l| l.starts_with("protocol")).expect("depends on protocol").clone();
    if protocol.contains("workspace = true") {
        let root = std::fs::read_to_string(format!("{dir}/../../Cargo.toml")).unwrap();
        let shared = section(&root, "workspace.dependencies");
        protocol = shared.into_iter().find(|l| l.starts_with("protocol")).expect("protocol");
    }
    assert!(protocol.contains("default-features = false"), "{protocol}");
    let manifest = std::fs::read_to_string(format!("{dir}/../../protocol/Cargo.toml")).unwrap();
    let search = section(&manifest, "dependencies");
    let search = search.iter().find(|l| l.starts_with("search")).expect("protocol uses search");
    assert!(search.contains("optional = true"), "{search}");
    let features = section(&manifest, "features");
    let engine = features.iter().find(|l| l.starts_with("engine =")).expect("an engine feature");
    assert!(engine.contains("\"dep:search\""), "{engine}");
}
