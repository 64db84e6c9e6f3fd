#![allow(dead_code)] // each test target uses a part

//! Shared by the tests that run the docs' commands as written: the fenced
//! blocks of a page, a directory with this build's `igroteka` on `PATH`,
//! and a shell to run a block in it.

use std::path::Path;
use std::process::Command;

/// The page `docs/<name>`.
pub fn doc(name: &str) -> String {
    let path = format!("{}/../docs/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The fenced code blocks of `doc` in language `lang`.
pub fn code_blocks(doc: &str, lang: &str) -> Vec<String> {
    let fence = format!("```{lang}\n");
    doc.split(&fence)
        .skip(1)
        .filter_map(|rest| rest.split_once("\n```").map(|(block, _)| format!("{block}\n")))
        .collect()
}

/// `dir/bin` holding a link to this build's `igroteka`; the `PATH` with it
/// first.
pub fn igroteka_on_path(dir: &Path) -> String {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).expect("bin dir");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_igroteka"), bin.join("igroteka"))
        .expect("igroteka linked");
    format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default())
}

/// Runs `script` with `shell -c` in `dir`, with `PATH` and `env`, asserting
/// success; its stdout.
pub fn run_script(
    shell: &str,
    script: &str,
    dir: &Path,
    path: &str,
    env: &[(&str, String)],
) -> String {
    let out = Command::new(shell)
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .env("PATH", path)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .output()
        .expect("the shell runs");
    let (stdout, stderr) =
        (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{script}\nstdout: {stdout}\nstderr: {stderr}");
    stdout.into_owned()
}
