//! Move and position text: round trips, and errors that say what is wrong.

use board_core::{Game, MoveError};
use city::{City, Move, MoveText, Setup, Square};

fn position_error(text: &str, variant: &str) -> String {
    match City::from_text(text, variant) {
        Ok(pos) => panic!("{text:?} was accepted as {pos}"),
        Err(e) => e.to_string(),
    }
}

fn move_error(pos: &City, text: &str) -> String {
    match pos.parse_move(text) {
        Ok(mv) => panic!("{text:?} was accepted as {mv}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn start_texts_round_trip() {
    for variant in City::VARIANTS {
        let start = City::start(variant).expect("variant");
        let text = start.to_string();
        let back = City::from_text(&text, variant).expect("reads back");
        assert_eq!(back, start);
        assert_eq!(back.to_string(), text);
        assert_eq!(back.zobrist(), start.zobrist());
    }
}

#[test]
fn run_of_digits_and_surrounding_spaces_are_read_and_printed_canonically() {
    let pos = City::from_text("  B44/9/9/9/9/9/9/9/8W  W ", "8").expect("valid");
    assert_eq!(pos.to_string(), "B8/9/9/9/9/9/9/9/8W W");
}

#[test]
fn variant_names_are_case_insensitive_and_unknown_ones_are_refused() {
    assert!(City::start("16").is_ok());
    let err = City::start("12").expect_err("no such variant").to_string();
    assert!(err.contains("'12'") && err.contains("16, 8, 22, 24"), "{err}");
    let err = position_error("B8/9/9/9/9/9/9/9/W8 W", "9");
    assert!(err.contains("no variant '9'"), "{err}");
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
        let err = position_error(text, "8");
        assert!(err.contains(expected), "{text:?}: {err:?} should say {expected:?}");
    }
}

#[test]
fn setup_can_be_built_by_hand() {
    let mut setup = Setup::empty(board_core::Player::Second);
    let a1 = Square::from_name("a1").expect("square");
    let i9 = Square::from_name("i9").expect("square");
    setup.board[a1.index()] = Some(board_core::Player::First);
    setup.board[i9.index()] = Some(board_core::Player::Second);
    let pos = City::from_setup(setup.clone(), "8").expect("valid");
    assert_eq!(pos.to_string(), "8B/9/9/9/9/9/9/9/W8 B");
    assert_eq!(pos.to_setup(), setup);
}

#[test]
fn moves_round_trip_through_text() {
    let start = City::start("16").expect("variant");
    for mv in start.legal_moves() {
        let text = mv.to_string();
        let parsed: MoveText = text.parse().expect("syntax");
        assert_eq!(parsed.to_string(), text);
        assert_eq!(start.parse_move(&text), Ok(mv));
    }
    let upper = start.parse_move(" F3-F4 ").expect("case-insensitive");
    assert_eq!(upper.to_string(), "f3-f4");
    let d1 = Square::from_name("d1").expect("square");
    let d2 = Square::from_name("d2").expect("square");
    assert_eq!(Move::new(d1, d2).to_string(), "d1-d2");
}

#[test]
fn bad_move_syntax_says_what_is_wrong() {
    let start = City::start("8").expect("variant");
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
    let start = City::start("8").expect("variant");
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
    let pos = City::from_text("B8/9/9/9/9/4W4/9/1WW1W4/9 W", "8").expect("valid");
    for (text, expected) in [
        ("c2-c4", "climbs down from the wall only to an adjacent square, not c4"),
        ("c2-f2", "the way along the wall from c2 to f2 is blocked"),
        ("e4-e6", "a slide cannot pass over the bazaar e5"),
        ("e4-e2", "e2 holds a White pawn already"),
    ] {
        let err = move_error(&pos, text);
        assert!(err.contains(expected), "{text:?}: {err:?} should say {expected:?}");
    }
    let outside = City::from_text("B8/9/9/9/W8/9/9/9/9 W", "8").expect("valid");
    let err = move_error(&outside, "a5-i5");
    assert!(err.contains("a slide cannot cross the wall at b5"), "{err}");
}

#[test]
fn a_finished_game_refuses_every_move() {
    let won = City::from_text("9/9/9/9/4W1B2/9/9/9/9 B", "8").expect("valid");
    let err = move_error(&won, "g5-f5");
    assert!(err.contains("the game is over"), "{err}");
    let text: MoveText = "g5-f5".parse().expect("syntax");
    let err = won.resolve_move(&text).expect_err("over").to_string();
    assert!(err.contains("the game is over"), "{err}");
}
