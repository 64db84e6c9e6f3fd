//! `igroteka play` driven through its standard input as a person would.

use std::io::Write;
use std::process::{Command, Stdio};

/// City `8` one move before White's win: `e3-e5` enters the bazaar.
const NEAR_WIN: &str = "c1-c2 a9-a1 c2-c3 a1-b1 c3-e3 b1-d1";

/// Runs `igroteka play <args>` on `input`; returns its standard output.
fn play(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_igroteka"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("igroteka starts");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("igroteka reads its input");
    drop(stdin);
    let output = child.wait_with_output().expect("igroteka ends");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).expect("UTF-8")
}

#[test]
fn help_explains_each_games_notation_with_examples() {
    let examples = [
        ("otrazhenie", "a1-h1xd5"),
        ("adiyukh", "c5:e3:c1"),
        ("focus", "@e5"),
        ("hexdraughts", "I3:G3:E4"),
        ("stykovka", "c1-e3/a7"),
        ("city", "d1-d2"),
    ];
    for (game, example) in examples {
        let out = play(&["--game", game, "--depth", "1"], "help\nquit\n");
        assert!(out.contains(&format!("moves in {game}: ")), "{game}: {out}");
        assert!(out.contains(example), "{game}: {out}");
    }
}

#[test]
fn commands_are_case_insensitive() {
    let out = play(&["--game", "city", "--variant", "8"], "MOVES\nHelp\nBoard\nQUIT\n");
    assert!(out.contains("a1-a9 "), "MOVES lists the moves: {out}");
    assert!(out.contains("moves in city: "), "Help: {out}");
    assert!(!out.contains("illegal"), "{out}");
    assert!(!out.contains("New game?"), "Quit ends at once: {out}");
}

#[test]
fn the_city_board_has_a_legend() {
    let out = play(&["--game", "city", "--variant", "8"], "quit\n");
    assert!(out.contains("# wall") && out.contains("* bazaar"), "{out}");
}

#[test]
fn a_won_game_says_so_once_and_offers_a_new_one() {
    let args = ["--game", "city", "--variant", "8", "--moves", NEAR_WIN];
    let out = play(&args, "e3-e5\nno\n");
    assert_eq!(out.matches("bazaar reached").count(), 1, "{out}");
    assert!(out.contains("Game over: White wins (bazaar reached): you won\n"), "{out}");
    assert!(out.contains("New game? (yes/no)> "), "{out}");
    assert_eq!(out.matches("White to move> ").count(), 1, "no: the end: {out}");

    // Yes: the same start again, with the player to move.
    let out = play(&args, "e3-e5\nYES\nquit\n");
    assert_eq!(out.matches("White to move> ").count(), 2, "{out}");
}

#[test]
fn a_lost_game_names_the_winner() {
    let args = [
        "--game",
        "city",
        "--variant",
        "8",
        "--side",
        "second",
        "--depth",
        "2",
        "--moves",
        "c1-c2 a9-a1 c2-c3 a1-b1 c3-e3",
    ];
    let out = play(&args, "b1-d1\n\n");
    assert!(out.contains("White plays e3-e5"), "{out}");
    assert!(out.contains("Game over: White wins (bazaar reached): you lost\n"), "{out}");
}
