//! Opening books as fastchess reads them (issue 32, item 2): `--openings
//! file=F format=epd|pgn order=sequential|random plies=N start=N`, over
//! tic-tac-toe (cells `c0`..`c8`, position texts `x...o.... x`).

use std::path::{Path, PathBuf};

use arena::{Opening, Openings};
use board_core::tictactoe::TicTacToe;
use search::GameEntry;

/// A book file `name` holding `text`, in a scratch folder of this test.
fn book(test: &str, name: &str, text: &str) -> PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("arena-books-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The openings of `rounds` rounds read with `--openings file=<path> keys...`
/// and `--seed seed`, or the error in one line.
fn read(path: &Path, keys: &[&str], rounds: u32, seed: u64) -> Result<Vec<Opening>, String> {
    let entry = GameEntry::of::<TicTacToe>();
    let mut tokens = vec![format!("file={}", path.display())];
    tokens.extend(keys.iter().map(|k| (*k).to_owned()));
    match Openings::parse_tokens(&tokens, &entry, "standard", rounds, seed) {
        Ok(Openings::List(list)) => Ok(list),
        Ok(other) => panic!("not a list: {other:?}"),
        Err(e) => Err(format!("{e:#}")),
    }
}

/// Removes the scratch folder of `path` (a [`book`]).
fn clean(path: &Path) {
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

fn moves(list: &[Opening]) -> Vec<String> {
    list.iter().map(|o| o.moves.join(" ")).collect()
}

#[test]
fn epd_books_hold_one_position_a_line_and_nothing_else() {
    let path = book("epd", "book.epd", "# positions\nx...o.... x\n\n.x....... o\n");
    let list = read(&path, &["format=epd"], 2, 1).unwrap();
    let fens: Vec<_> = list.iter().map(|o| o.fen.clone().unwrap()).collect();
    assert_eq!(fens, ["x...o.... x", ".x....... o"]);
    assert!(list.iter().all(|o| o.moves.is_empty()));
    // A move list is no position; a PGN is never read as positions.
    let path = book("epd", "moves.epd", "x...o.... x\nc4 c0\n");
    let err = read(&path, &["format=epd"], 2, 1).unwrap_err();
    assert!(err.contains("moves.epd:2: not a position text"), "{err}");
    assert!(!err.contains('\n'), "{err}");
    let path = book("epd", "games.pgn", "[Event \"x\"]\n1. c4 c0 *\n");
    let err = read(&path, &["format=epd"], 1, 1).unwrap_err();
    assert!(err.contains("games.pgn:1 is a PGN tag") && err.contains("format=pgn"), "{err}");
    clean(&path);
}

/// A PGN book: each game one opening, its `[FEN]` the base (Cute Games'
/// `startpos` the start), moves with numbers, comments and results, cut
/// at `plies=`; a game without a result ends at the next game's tags.
#[test]
fn pgn_books_read_games_with_their_tags() {
    let text = "\u{feff}[Event \"cute\"]\n[FEN \"startpos\"]\n[SetUp \"1\"]\n\n1. c4 c0 2. c2 \
                {a comment} c6 *\n\n[Event \"arena\"]\n[Game \"tictactoe\"]\n[SetUp \"1\"]\n\
                [FEN \"x...o.... x\"]\n\n1. c8 c2 {normal: x} 1/2-1/2\n\n\
                [Event \"no result\"]\n1. c0\nc1\n[Event \"last\"]\n1. c2 c6\n";
    let path = book("pgn", "games.pgn", text);
    let list = read(&path, &["format=pgn"], 4, 1).unwrap();
    assert_eq!(moves(&list), ["c4 c0 c2 c6", "c8 c2", "c0 c1", "c2 c6"]);
    assert_eq!(list[0].fen, None);
    assert_eq!(list[1].fen.as_deref(), Some("x...o.... x"));
    assert_eq!(list[1].to_string(), "fen x...o.... x moves c8 c2");
    let cut = read(&path, &["format=pgn", "plies=1"], 4, 1).unwrap();
    assert_eq!(moves(&cut), ["c4", "c8", "c0", "c2"]);
    // Only as many games as the rounds need are read: a broken fifth
    // game is never reached.
    let broken = book("pgn", "broken.pgn", &format!("{text}[Event \"bad\"]\n1. c9 *\n"));
    assert_eq!(read(&broken, &["format=pgn"], 4, 1).unwrap().len(), 4);
    let err = read(&broken, &["format=pgn"], 5, 1).unwrap_err();
    assert!(err.contains("broken.pgn:20") && err.contains("move 1 (c9)"), "{err}");
    for (bad, says) in [
        ("[Game \"focus\"]\n1. c4 *\n", "a game of focus ([Game]), not tictactoe"),
        ("[FEN \"x\"]\n[FEN \"y\"]\n1. c4 *\n", "two [FEN] tags in one game"),
        ("[FEN \"not a position\"]\n1. c4 *\n", "its [FEN]"),
        ("1. c4 {open\n", "comment is not closed"),
    ] {
        let path = book("pgn", "bad.pgn", bad);
        let err = read(&path, &["format=pgn"], 1, 1).unwrap_err();
        assert!(err.contains(says) && err.contains("bad.pgn"), "{bad:?}: {err}");
        assert!(!err.contains('\n'), "{err}");
    }
    clean(&path);
}

#[test]
fn start_and_order_choose_the_openings_of_the_rounds() {
    let path = book("order", "book.txt", "c0\nc1\nc2\nc3\nc4\n");
    let seq = |keys: &[&str], rounds| moves(&read(&path, keys, rounds, 1).unwrap());
    assert_eq!(seq(&[], 3), ["c0", "c1", "c2"]);
    assert_eq!(seq(&["start=4"], 3), ["c3", "c4", "c0"]);
    assert_eq!(seq(&["start=2", "order=sequential"], 9), ["c1", "c2", "c3", "c4", "c0"]);
    // Shuffled with the seed: all of the book, in an order of the seed.
    let shuffled = |seed| moves(&read(&path, &["order=random"], 5, seed).unwrap());
    let one = shuffled(1);
    assert_eq!(one, shuffled(1));
    let mut sorted = one.clone();
    sorted.sort();
    assert_eq!(sorted, ["c0", "c1", "c2", "c3", "c4"]);
    let orders: std::collections::HashSet<Vec<String>> = (1..20).map(shuffled).collect();
    assert!(orders.len() > 5, "{orders:?}");
    // start= counts in the shuffled book.
    let from_two = moves(&read(&path, &["order=random", "start=2"], 2, 1).unwrap());
    assert_eq!(from_two, one[1..3]);
    for (keys, says) in [
        (&["start=6"][..], "start=6 but the book has 5 openings"),
        (&["start=0"], "start=0"),
        (&["order=shuffled"], "order=shuffled: expected sequential or random"),
        (&["format=bin"], "format=bin: expected epd or pgn"),
        (&["plies=-1"], "plies=-1: not a non-negative number"),
        (&["plies=1", "plies=2"], "plies= is given twice"),
        (&["depth=3"], "unknown key 'depth'"),
        (&["sequential"], "'sequential' is not key=value"),
    ] {
        let err = read(&path, keys, 3, 1).unwrap_err();
        assert!(err.contains(says), "{keys:?}: {err}");
    }
    let entry = GameEntry::of::<TicTacToe>();
    let random = ["random:2".to_owned(), "plies=1".to_owned()];
    let err = Openings::parse_tokens(&random, &entry, "standard", 1, 1).unwrap_err();
    assert!(err.to_string().contains("goes with file= only"), "{err}");
    clean(&path);
}
