//! Move text (full and short forms, annotations) and position text: round
//! trips, and error messages that say what was wrong.

use adiyukh::{MoveText, Position, Variant};
use board_core::{Game, IllegalMoveError, MoveError};

fn pos(text: &str) -> Position {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn parsed(p: &Position, text: &str) -> String {
    p.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}")).to_string()
}

fn error(p: &Position, text: &str) -> String {
    match p.parse_move(text) {
        Ok(mv) => panic!("{text} was accepted as {mv}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn full_notation_round_trips() {
    let start = Position::default();
    for mv in start.legal_moves() {
        assert_eq!(parsed(&start, &mv.to_string()), mv.to_string());
    }
    let text = "b d2:www b2:www d4:w c5:bbbbbbbbbbbb e7:ww g7:ww h8:W";
    let long = "c5:e3:c1:a3:f8:h6:c1:a3:f8:h6:c1:a3";
    assert_eq!(parsed(&pos(text), long), long);
    let read: MoveText = long.parse().unwrap();
    assert_eq!(read.to_string(), long);
    // Square names in any case.
    assert_eq!(parsed(&start, "C3-D4"), "c3-d4");
}

#[test]
fn short_forms_name_one_legal_move() {
    let start = Position::default();
    assert_eq!(parsed(&start, "gh4"), "g3-h4");
    assert_eq!(parsed(&start, "cd4"), "c3-d4");
    assert_eq!(parsed(&start, "ab4"), "a3-b4");
    let mut p = start;
    p.play_text("c3-d4").unwrap();
    p.play_text("fe5").unwrap();
    assert_eq!(parsed(&p, "d:f6"), "d4:f6");
    // From the start square and the end square only.
    assert_eq!(parsed(&p, "d4:f6"), "d4:f6");
    let text = "b d2:www b2:www d4:w c5:bbbbbbbbbbbb e7:ww g7:ww h8:W";
    assert_eq!(parsed(&pos(text), "c:a3"), "c5:e3:c1:a3:f8:h6:c1:a3:f8:h6:c1:a3");
    assert_eq!(parsed(&pos(text), "c5:a3"), "c5:e3:c1:a3:f8:h6:c1:a3:f8:h6:c1:a3");
}

#[test]
fn annotations_and_move_numbers_are_ignored() {
    let start = Position::default();
    for text in ["gh4!", "gh4?", "gh4!?", "1.gh4", "1. gh4", "gh4 Д.", "g3-h4Пр.", "12...gh4 ?"]
    {
        assert_eq!(parsed(&start, text), "g3-h4", "{text}");
    }
    // Samples of published records read as move texts.
    for (text, shown) in
        [("ba1 Д.", "ba1"), ("a:h8 Пр.", "a:h8"), ("4.bc5", "bc5"), ("d:b2", "d:b2")]
    {
        let read: MoveText = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(read.to_string(), shown);
    }
}

#[test]
fn a_short_form_naming_several_moves_is_ambiguous() {
    // c3 and c7 can both take a man and end on e5.
    let p = pos("w a1:bbbbbbbbbB c3:wwwwwwwwwww c7:w d4:b d6:b");
    match p.parse_move("c:e5") {
        Err(MoveError::Illegal(IllegalMoveError::Ambiguous { candidates, .. })) => {
            assert_eq!(candidates, ["c3:e5", "c7:e5"]);
        }
        other => panic!("expected ambiguity, got {other:?}"),
    }
    assert!(error(&p, "c:e5").contains("c3:e5, c7:e5"));
    assert_eq!(parsed(&p, "c7:e5"), "c7:e5");
}

#[test]
fn syntax_errors_say_what_is_wrong() {
    let start = Position::default();
    let cases = [
        ("", "no move"),
        ("z9-a1", "'z9' is not a square"),
        ("b1-c2", "b1 is a light square"),
        ("c3-d4-e5", "'d4-e5' is not a square"),
        ("c3:", "'' is not a square"),
        ("hello", "expected a move like"),
        ("c3 d4", "one word"),
        ("Жc3", "expected a move like"),
    ];
    for (text, needle) in cases {
        let e = error(&start, text);
        assert!(e.contains(needle), "{text:?}: {e}");
    }
}

#[test]
fn illegal_moves_say_why() {
    let start = Position::default();
    let cases = [
        ("c5-d4", "no column on c5"),
        ("b6-a5", "Black's and White is to move"),
        ("c3-b2", "not a step forward"),
        ("a1-b2", "not a step forward"),
        ("gh2", "no column can step from the g-file to h2"),
        ("c3:e5", "has no capture"),
        ("c:e5", "no capture from the c-file ends on e5"),
    ];
    for (text, needle) in cases {
        let e = error(&start, text);
        assert!(e.contains(needle), "{text:?}: {e}");
    }
    // Capture is compulsory; kings only capture; a capture must go on.
    let p = pos("w a1:bbbbbbbbbB f4:wwwwwwwwwwwW d6:b g3:b");
    assert!(error(&p, "f4-g5").contains("kings only capture"));
    let p = pos("w a1:bbbbbbbbbbB c3:w d4:b g3:wwwwwwwwwww");
    assert!(error(&p, "g3-h4").contains("a capture is compulsory"));
    assert!(error(&p, "gh4").contains("a capture is compulsory"));
    let p = pos("w a1:bbbbbbbbB c3:w b4:b g3:wwwwwwwwwww f4:b d6:b");
    assert!(error(&p, "g3:e5:c7:a5").contains("no capture from g3 takes that path"));
    let e = pos("w a1:bbbbbbbbbB c1:wwwwwwwwwwwW e3:b f6:b").parse_move("c1:g5:e7:c5");
    assert!(e.is_err());
    let text = "b d2:www b2:www d4:w c5:bbbbbbbbbbbb e7:ww g7:ww h8:W";
    assert!(error(&pos(text), "c5:e3:c1:a3").contains("the capture must go on from a3"));
}

#[test]
fn position_text_round_trips() {
    for text in [
        "w a1:w c1:w e1:w g1:w b2:w d2:w f2:w h2:w a3:w c3:w e3:w g3:w b6:b d6:b f6:b h6:b a7:b c7:b e7:b g7:b b8:b d8:b f8:b h8:b",
        "b g1:wwwbbbB b4:bbbw e5:bbbwww g5:bbww a7:w b8:ww",
        "w c1:wwwW e3:bB d4:bbw f6:bb h2:bbw a5:www e7:wB g7:wB b8:bbW",
    ] {
        let p = pos(text);
        let printed = p.to_string();
        assert_eq!(pos(&printed), p);
        assert_eq!(pos(&printed).to_string(), printed);
    }
    // Read in any order, printed in square order.
    assert_eq!(
        pos("b b8:ww a7:w g5:bbww e5:bbbwww b4:bbbw g1:wwwbbbB").to_string(),
        "b g1:wwwbbbB b4:bbbw e5:bbbwww g5:bbww a7:w b8:ww"
    );
    assert_eq!(Position::default().to_string(), Position::default().to_string());
    let picture = format!("{:#}", pos("b g1:wwwbbbB b4:bbbw e5:bbbwww g5:bbww a7:w b8:ww"));
    assert!(picture.contains("B7"), "{picture}");
    assert!(picture.contains("score White 13 - Black 11"), "{picture}");
    assert!(picture.contains("g1 wwwbbbB"), "{picture}");
}

#[test]
fn position_errors_say_what_is_wrong() {
    let cases = [
        ("", "empty position text"),
        ("x a1:w", "side to move"),
        ("w a1:w a1:b", "a1 is given twice"),
        ("w a1:wwwwwwwwwwwx", "'x' in the column on a1 is not a piece"),
        ("w b1:w", "b1 is a light square"),
        ("w i9:w", "'i9' is not a square"),
        ("w a1", "'a1' is not a column"),
        ("w a1:", "the column on a1 has no pieces"),
        ("w a1:wwwwwwwwwww c3:bbbbbbbbbbbb", "White has 11 pieces, expected 12"),
        ("w a1:wwwwwwwwwwww c3:bbbbbbbbbbbbb", "Black has 13 pieces"),
        ("w a1:wwwwwwwwwwwwbbbbbbbbbbbbb", "has 25 pieces"),
    ];
    for (text, needle) in cases {
        match Position::from_text(text, Variant::Standard) {
            Ok(p) => panic!("{text:?} was accepted as {p}"),
            Err(e) => assert!(e.to_string().contains(needle), "{text:?}: {e}"),
        }
    }
    let unknown = "nope".parse::<Variant>();
    assert!(unknown.is_err_and(|e| e.to_string().contains("adiyukh has no variant 'nope'")));
    assert_eq!("Standard".parse::<Variant>(), Ok(Variant::Standard));
    assert_eq!(
        Position::from_text(&Position::default().to_string(), Variant::Standard),
        Ok(Position::default())
    );
}
