//! Move and position text: round trips, and errors that say what is wrong.

use board_core::{Cell, Game, MoveError, Variant as _};
use city::{Move, MoveText, Position, Setup, Square, Variant};

fn position_error(text: &str, variant: Variant) -> String {
    match Position::from_text(text, variant) {
        Ok(pos) => panic!("{text:?} was accepted as {pos}"),
        Err(e) => e.to_string(),
    }
}

fn move_error(pos: &Position, text: &str) -> String {
    match pos.parse_move(text) {
        Ok(mv) => panic!("{text:?} was accepted as {mv}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn start_texts_round_trip() {
    for &variant in Variant::ALL {
        let start = Position::start(variant);
        let text = start.to_string();
        let back = Position::from_text(&text, variant).expect("reads back");
        assert_eq!(back, start);
        assert_eq!(back.to_string(), text);
        assert_eq!(back.zobrist(), start.zobrist());
    }
}

#[test]
fn run_of_digits_and_surrounding_spaces_are_read_and_printed_canonically() {
    let pos = Position::from_text("  B44/9/9/9/9/9/9/9/8W  W ", Variant::Eight).expect("valid");
    assert_eq!(pos.to_string(), "B8/9/9/9/9/9/9/9/8W W");
}

#[test]
fn variant_names_are_case_insensitive_and_unknown_ones_are_refused() {
    assert_eq!("16".parse::<Variant>(), Ok(Variant::Sixteen));
    assert_eq!(" 24 ".parse::<Variant>(), Ok(Variant::TwentyFour));
    assert_eq!("16C".parse::<Variant>(), Ok(Variant::SixteenC));
    let err = "12".parse::<Variant>().expect_err("no such variant").to_string();
    assert!(err.contains("'12'") && err.contains("16c, 8c, 22c, 24c, 16, 8, 22, 24"), "{err}");
    let err = "9".parse::<Variant>().expect_err("no such variant").to_string();
    assert!(err.contains("no variant '9'"), "{err}");
    // A variant name error still reads as a position error.
    let err = board_core::PositionError::from("9".parse::<Variant>().expect_err("unknown"));
    assert!(err.to_string().contains("no variant '9'"), "{err}");
}

#[test]
fn bad_position_texts_say_what_is_wrong() {
    let cases = [
        ("", "expected the board and the side to move"),
        ("B8/9/9/9/9/9/9/9/W8", "expected the board and the side to move"),
        ("B8/9/9/9/9/9/9/9/W8 W extra", "expected the board and the side to move"),
        ("B8/9/9/9/9/9/9/9/W8 X", "must be W or B, not 'X'"),
        ("B8/9/9/9/9/9/9/W8 W", "expected 9 ranks"),
        ("B8/9/9/9/9/9/9/9/W8/9 W", "expected 9 ranks"),
        ("B8/9/9/9/9/9/9/9/W7 W", "rank 1 has 8 squares"),
        ("B9/9/9/9/9/9/9/9/W8 W", "rank 9 has more than 9 squares"),
        ("B8/9/9/9/9/9/9/9/W0W7 W", "unexpected '0' in rank 1"),
        ("B8/9/9/9/9/9/9/9/Wx7 W", "unexpected 'x' in rank 1"),
        ("9/9/9/9/9/9/9/9/9 W", "there are no pawns at all"),
        ("B8/9/9/9/9/9/9/9/9 B", "White has no pawns, so the game ended before Black"),
        ("9/9/9/9/4W4/9/9/9/B8 W", "White stands on the bazaar e5"),
        ("9/9/9/9/4B4/9/9/9/9 W", "White has no pawns although Black entered the bazaar"),
        ("B8/9/9/9/9/9/9/9/WWWWWWWWW W", "White has 9 pawns, at most 8 in variant 8"),
    ];
    for (text, expected) in cases {
        let err = position_error(text, Variant::Eight);
        assert!(err.contains(expected), "{text:?}: {err:?} should say {expected:?}");
    }
}

#[test]
fn setup_can_be_built_by_hand() {
    let mut setup = Setup::empty(board_core::Player::Second);
    let a1: Square = "a1".parse().expect("square");
    let i9: Square = "I9".parse().expect("square");
    assert_eq!((a1.index(), i9.index()), (0, 80));
    setup.board[a1.index()] = Some(board_core::Player::First);
    setup.board[i9.index()] = Some(board_core::Player::Second);
    let pos = Position::from_setup(setup.clone(), Variant::Eight).expect("valid");
    assert_eq!(pos.to_string(), "8B/9/9/9/9/9/9/9/W8 B");
    assert_eq!(pos.to_setup(), setup);
    assert_eq!(setup.to_string(), pos.to_string());
}

#[test]
fn moves_round_trip_through_text() {
    let start = Position::start(Variant::Sixteen);
    for mv in start.legal_moves() {
        let text = mv.to_string();
        let parsed: MoveText = text.parse().expect("syntax");
        assert_eq!(parsed.to_string(), text);
        assert_eq!(start.parse_move(&text), Ok(mv));
    }
    let upper = start.parse_move(" F3-F4 ").expect("case-insensitive");
    assert_eq!(upper.to_string(), "f3-f4");
    let d1: Square = "d1".parse().expect("square");
    let d2: Square = "D2".parse().expect("square");
    assert_eq!(Move::new(d1, d2).to_string(), "d1-d2");
}

#[test]
fn bad_move_syntax_says_what_is_wrong() {
    let start = Position::start(Variant::Eight);
    let cases = [
        ("", "expected two squares like d1-d2"),
        ("d1", "expected two squares like d1-d2"),
        ("d1d2", "expected two squares like d1-d2"),
        ("d1-", "a square is missing"),
        ("j1-d2", "'j1' is not a square"),
        ("d1-d10", "'d10' is not a square"),
        ("d1-d2-d3", "'d2-d3' is not a square"),
        ("d0-d1", "'d0' is not a square"),
        ("Ж1-d2", "'Ж1' is not a square"),
        ("d1-d1", "starts and ends on d1"),
    ];
    for (text, expected) in cases {
        let err = move_error(&start, text);
        assert!(
            matches!(start.parse_move(text), Err(MoveError::Syntax(_))),
            "{text:?} should be a syntax error"
        );
        assert!(err.contains(expected), "{text:?}: {err:?} should say {expected:?}");
    }
}

#[test]
fn illegal_moves_say_why() {
    let start = Position::start(Variant::Eight);
    let cases = [
        ("e1-e2", "there is no pawn on e1"),
        ("a9-a8", "the pawn on a9 is Black's, and White is to move"),
        ("a1-b1", "b1 holds a White pawn already"),
        ("d1-d3", "a slide cannot cross the wall (d1 is outside, d3 is town)"),
        ("a1-b2", "a pawn climbs onto the wall only from an adjacent square, not from a1"),
        ("a1-e1", "the slide from a1 to e1 is blocked on b1"),
        ("a1-i9", "a1 and i9 are not on one rank or file"),
    ];
    for (text, expected) in cases {
        let err = move_error(&start, text);
        assert!(
            matches!(start.parse_move(text), Err(MoveError::Illegal(_))),
            "{text:?} should be illegal, not bad syntax"
        );
        assert!(err.contains(expected), "{text:?}: {err:?} should say {expected:?}");
    }
    // On the wall and in the town.
    let pos = Position::from_text("B8/9/9/9/9/4W4/9/1WW1W4/9 W", Variant::Eight).expect("valid");
    for (text, expected) in [
        ("c2-c4", "climbs down from the wall only to an adjacent square, not c4"),
        ("c2-f2", "the way along the wall from c2 to f2 is blocked"),
        ("e4-e6", "a slide cannot pass over the bazaar e5"),
        ("e4-e2", "e2 holds a White pawn already"),
    ] {
        let err = move_error(&pos, text);
        assert!(err.contains(expected), "{text:?}: {err:?} should say {expected:?}");
    }
    let outside = Position::from_text("B8/9/9/9/W8/9/9/9/9 W", Variant::Eight).expect("valid");
    let err = move_error(&outside, "a5-i5");
    assert!(err.contains("a slide cannot cross the wall at b5"), "{err}");
}

#[test]
fn a_finished_game_refuses_every_move() {
    let won = Position::from_text("9/9/9/9/4W1B2/9/9/9/9 B", Variant::Eight).expect("valid");
    let err = move_error(&won, "g5-f5");
    assert!(err.contains("the game is over"), "{err}");
    let text: MoveText = "g5-f5".parse().expect("syntax");
    let err = won.resolve_move(&text).expect_err("over").to_string();
    assert!(err.contains("the game is over"), "{err}");
}

#[test]
fn squares_read_in_any_case_and_index_rank_by_rank() {
    let e5: Square = "E5".parse().expect("square");
    assert_eq!(e5, Square::BAZAAR);
    assert_eq!(e5.to_string(), "e5");
    assert_eq!(e5.index(), 4 * 9 + 4);
    assert_eq!(Square::from_index(80).map(|s| s.to_string()), Some("i9".to_owned()));
    assert_eq!(Square::from_index(81), None);
    assert_eq!(Square::all().count(), Square::INDEX_BOUND);
    for bad in ["", "j1", "e0", "e10", "5e", "Ж1", "e5 "] {
        let err = bad.parse::<Square>().expect_err("no square").to_string();
        assert!(err.contains("no such square"), "{bad:?}: {err}");
    }
}

#[test]
fn notation_help_names_the_spec_examples_in_one_line() {
    assert!(!Position::NOTATION.contains('\n'));
    assert_eq!(
        Position::NOTATION,
        "from-to, captures too: d1-d2 (onto the wall), c2-h5 (along the wall), \
         a1-a9 (a slide that captures on a9); reach the bazaar e5 to win \
         (variants 8c 16c 22c 24c: capturing is compulsory, e5 is entered by one step)"
    );
}
