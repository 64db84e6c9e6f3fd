//! Move notation and position text: round trips and the error messages.

use otrazhenie::prelude::*;

fn sq(name: &str) -> Square {
    name.parse().unwrap_or_else(|e| panic!("{name} is a square: {e}"))
}

fn syntax_error(text: &str) -> String {
    match text.parse::<Move>() {
        Ok(mv) => panic!("{text:?} should not parse, got {mv}"),
        Err(e) => e.to_string(),
    }
}

fn position_error(text: &str) -> String {
    match text.parse::<Position>() {
        Ok(pos) => panic!("{text:?} should not be a position, got {pos}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn moves_print_and_parse_in_the_rules_notation() {
    let quiet = Move::Quiet { from: sq("a1"), to: sq("a5") };
    let capture = Move::Capture { from: sq("a1"), edge: sq("h1"), target: sq("d5") };
    assert_eq!(quiet.to_string(), "a1-a5");
    assert_eq!(capture.to_string(), "a1-h1xd5");
    assert_eq!("a1-a5".parse::<Move>(), Ok(quiet));
    assert_eq!("a1-h1xd5".parse::<Move>(), Ok(capture));
    assert_eq!("A1-H1Xd5".parse::<Move>(), Ok(capture));
    assert_eq!((capture.from(), capture.to(), capture.is_capture()), (sq("a1"), sq("d5"), true));
    assert_eq!((quiet.from(), quiet.to(), quiet.is_capture()), (sq("a1"), sq("a5"), false));
    // The one-line help shows both forms.
    assert!(Position::NOTATION.contains("a1-a5") && Position::NOTATION.contains("a1-h1xd5"));
}

#[test]
fn every_square_name_round_trips() {
    for index in 0..64 {
        let square = Square::from_index(index).expect("on the board");
        assert_eq!(square.to_string().parse::<Square>(), Ok(square));
        assert_eq!(square.to_string().to_uppercase().parse::<Square>(), Ok(square));
        assert_eq!(Square::new(square.file(), square.rank()), Some(square));
        assert_eq!(square.index(), index);
    }
    assert_eq!(Square::from_index(64), None);
    assert_eq!(Square::INDEX_BOUND, 64);
    assert_eq!(Square::all().count(), 64);
    assert_eq!(sq("c5").index(), 34);
    for bad in ["", "i1", "a0", "a9", "a10", "c", "5"] {
        let error = bad.parse::<Square>().expect_err(bad);
        assert!(error.to_string().contains("not a square"), "{bad:?}: {error}");
    }
}

#[test]
fn move_syntax_errors_say_what_is_wrong() {
    assert!(syntax_error("").contains("expected '-'"));
    assert!(syntax_error("a1a5").contains("expected '-'"));
    assert!(syntax_error("a1-").contains("square name is missing"));
    assert!(syntax_error("-a5").contains("square name is missing"));
    assert!(syntax_error("a1-h1x").contains("square name is missing"));
    assert!(syntax_error("a1-i1").contains("i1 is not a square"));
    assert!(syntax_error("a9-a1").contains("a9 is not a square"));
    assert!(syntax_error("a1-h1xd5xc3").contains("d5xc3 is not a square"));
    assert!(syntax_error("a1-a10").contains("a10 is not a square"));
    assert!(syntax_error("ж1-a1").contains("ж1 is not a square"));
}

#[test]
fn position_text_round_trips_and_builds_from_a_setup() {
    for text in
        [START_TEXT, "5WB1/7W/2B5/8/8/8/8/8 w", "B6W/8/8/8/8/8/8/3B4 b", "8/8/8/3B4/8/8/8/8 w"]
    {
        let pos = Position::from_text(text, Variant::Standard).expect("valid");
        assert_eq!(pos.to_string(), text);
        assert_eq!(pos.to_setup().to_string(), text);
        assert_eq!(text.parse::<Setup>().map(|s| s.to_string()).as_deref(), Ok(text));
    }
    // Runs of digits are read; the printed text is the canonical one.
    let loose: Position = "B33B/44/8/8/8/8/8/W6W W".parse().expect("valid");
    assert_eq!(loose.to_string(), START_TEXT);

    let mut setup = Setup { board: [None; 64], side_to_move: Player::Second };
    setup.board[sq("d5").index()] = Some(Player::First);
    setup.board[sq("e2").index()] = Some(Player::Second);
    let pos = Position::from_setup(setup, Variant::Standard).expect("valid");
    assert_eq!(pos.to_string(), "8/8/8/3W4/8/8/4B3/8 b");
    assert_eq!(pos.piece_at(sq("d5")), Some(Player::First));
    assert_eq!(pos.checkers(Player::Second).collect::<Vec<_>>(), [sq("e2")]);
    assert_eq!(pos.checker_count(Player::First), 1);
}

#[test]
fn position_errors_say_what_is_wrong() {
    assert!(position_error("").contains("expected the 8 ranks and the side to move"));
    assert!(position_error("B6B/8/8/8/8/8/8/W6W").contains("the side to move"));
    assert!(position_error("B6B/8/8/8/8/8/8/W6W x").contains("'w' or 'b', not 'x'"));
    assert!(position_error("B6B/8/8/8/8/8/8/W6W w 1").contains("unexpected text '1'"));
    assert!(position_error("B6B/8/8/8/8/8/W6W w").contains("expected 8 ranks"));
    assert!(position_error("B6B/8/8/8/8/8/8/W6WW w").contains("rank 1 has more than 8"));
    assert!(position_error("B6B/8/8/8/8/8/8/W5W w").contains("rank 1 has 7 squares"));
    assert!(position_error("K6B/8/8/8/8/8/8/W6W w").contains("unexpected 'K' in rank 8"));
    assert!(position_error("B6B/8/8/0/8/8/8/W6W w").contains("unexpected '0' in rank 5"));
    assert!(position_error("BBB5/8/8/8/8/8/8/W6W w").contains("Black has 3 checkers"));
    assert!(position_error("B6B/8/8/8/8/8/8/8 b").contains("White has no checker"));
    assert!(position_error("8/8/8/8/8/8/8/8 w").contains("has no checker"));
    let unknown = "mini".parse::<Variant>().expect_err("no such variant");
    assert!(unknown.to_string().contains("no variant 'mini'"));
    assert_eq!("Standard".parse::<Variant>(), Ok(Variant::Standard));
}

#[test]
fn board_picture_has_coordinates_and_the_side_to_move() {
    let picture = format!("{:#}", Position::default());
    assert!(picture.starts_with("8  B . . . . . . B\n"));
    assert!(picture.contains("\n1  W . . . . . . W\n   a b c d e f g h\n"));
    assert!(picture.ends_with("White to move"));
    let over: Position = "8/8/8/8/8/8/B7/WB6 w".parse().expect("valid");
    assert!(format!("{over:#}").ends_with("game over: 0-1 (no legal move)"));
}
