//! Move and position text: round trips, and errors that say what is wrong.

use stykovka::prelude::*;

fn syntax_error(text: &str) -> String {
    match text.parse::<MoveText>() {
        Ok(parsed) => panic!("{text:?} parsed as {parsed}"),
        Err(e) => e.to_string(),
    }
}

fn position_error(text: &str) -> String {
    match text.parse::<Position>() {
        Ok(pos) => panic!("{text:?} read as {pos}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn move_text_round_trips() {
    for text in ["c1-c4", "c1-e3/a7", "pass", "h8-d4/h8"] {
        let parsed: MoveText = text.parse().expect("valid");
        assert_eq!(parsed.to_string(), text);
    }
    let loud: MoveText = "C1-E3/A7".parse().expect("upper case squares");
    assert_eq!(loud.to_string(), "c1-e3/a7");
    assert_eq!("PASS".parse::<MoveText>(), Ok(MoveText::Pass));
}

#[test]
fn every_generated_move_prints_and_parses_back() {
    let mut pos = Position::default();
    for _ in 0..30 {
        let moves = pos.legal_moves();
        for &mv in &moves {
            assert_eq!(pos.parse_move(&mv.to_string()), Ok(mv));
        }
        let Some(&mv) = moves.iter().find(|m| matches!(m, Move::Dock { .. })).or(moves.last())
        else {
            break;
        };
        pos.play_unchecked(mv);
    }
}

#[test]
fn move_syntax_errors_say_what_is_wrong() {
    assert!(syntax_error("c1c4").contains("expected 'from-to'"));
    assert!(syntax_error("z9-a1").contains("'z9' is not a square"));
    assert!(syntax_error("c1-c9").contains("'c9' is not a square"));
    assert!(syntax_error("c1-").contains("landing square is missing"));
    assert!(syntax_error("-c1").contains("starting square is missing"));
    assert!(syntax_error("c1-e3/").contains("retreat square is missing"));
    assert!(syntax_error("c1-e3/a7/b6").contains("'a7/b6' is not a square"));
    assert!(syntax_error("Жж-a1").contains("'Жж' is not a square"));
    assert!(syntax_error("").contains("expected"));
}

#[test]
fn illegal_moves_say_why() {
    let start = Position::default();
    let reason = |text: &str| match start.parse_move(text) {
        Err(MoveError::Illegal(e)) => e.to_string(),
        other => panic!("{text}: {other:?}"),
    };
    assert!(reason("a3-a2").contains("no White checker on a3"));
    assert!(reason("c3-c4").contains("no White checker on c3"));
    assert!(reason("c1-d3").contains("not on one straight line"));
    assert!(
        reason("c1-c2")
            .contains("exactly 2 squares that way (1 checker ahead, plus itself): to c3, not 1")
    );
    assert!(reason("c1-a3/b4").contains("retreats to e7, not b4"));
    assert!(reason("pass").contains("White has a move, so cannot pass"));
}

#[test]
fn position_text_round_trips() {
    for text in [
        "2WWWW2/8/B6B/B6B/B6B/B6B/8/2WWWW2 w",
        "4WW1B/5B2/8/2B4B/BW5B/W4BW1/3WW3/2WB4 b",
        "BBBBBBBB/8/8/8/8/8/8/WWWWWWWW w",
    ] {
        let pos = text.parse::<Position>().expect("valid");
        assert_eq!(pos.to_string(), text);
        assert_eq!(pos.to_setup().to_string(), text);
        assert_eq!(pos.to_setup().to_string().parse::<Setup>(), Ok(pos.to_setup()));
    }
    let dotted = "..WWWW../......../B......B/B......B/B......B/B......B/......../..WWWW.. w";
    assert_eq!(dotted.parse::<Position>(), Ok(Position::default()));
}

#[test]
fn setup_fields_are_plain_data() {
    let setup: Setup = "2WWWW2/8/B6B/B6B/B6B/B6B/8/2WWWW2 b".parse().expect("valid");
    assert_eq!(setup.side_to_move, Player::Second);
    let c1: Square = "c1".parse().expect("square");
    assert_eq!(setup.board[c1.index()], Some(Player::First));
    let pos = Position::from_setup(setup, Variant::Standard).expect("valid");
    assert_eq!(pos.piece_at(c1), Some(Player::First));
    assert_eq!(pos.piece_at("a3".parse().expect("square")), Some(Player::Second));
    assert_eq!(pos.piece_at("d4".parse().expect("square")), None);
}

#[test]
fn position_errors_say_what_is_wrong() {
    assert!(position_error("").contains("expected two fields"));
    assert!(position_error("2WWWW2/8/B6B/B6B/B6B/B6B/8/2WWWW2").contains("expected two fields"));
    assert!(position_error("2WWWW2/8/B6B/B6B/B6B/B6B/2WWWW2 w").contains("found 7"));
    assert!(position_error("2WWWW2/8/B6B/B6B/B6B/B6B/8/2WWWW2 x").contains("not 'x'"));
    assert!(position_error("2WWWW3/8/B6B/B6B/B6B/B6B/8/2WWWW2 w").contains("rank 8 has more"));
    assert!(position_error("2WWWW2/8/B6B/B6B/B6B/B5B/8/2WWWW2 w").contains("rank 3 has 7"));
    assert!(position_error("2WWWX2/8/B6B/B6B/B6B/B6B/8/2WWWW2 w").contains("unexpected 'X'"));
    assert!(position_error("2WWWW2/8/B6B/B6B/B6B/B6B/8/2WWW3 w").contains("White has 7 checkers"));
    assert!(position_error("2WWWW2/8/B6B/B6B/B6B/B6B/B7/2WWWW2 w").contains("Black has 9"));
    assert!("loa".parse::<Variant>().is_err_and(|e| e.to_string().contains("no variant 'loa'")));
    assert_eq!("Standard".parse::<Variant>(), Ok(Variant::Standard));
}

#[test]
fn the_board_picture_has_coordinates() {
    let picture = format!("{:#}", Position::default());
    assert!(picture.starts_with("8  . . W W W W . ."));
    assert!(picture.contains("3  B . . . . . . B"));
    assert!(picture.contains("   a b c d e f g h"));
    assert!(picture.ends_with("White to move"));
}

#[test]
fn squares_read_in_any_case_and_index_rank_by_rank() {
    let c5: Square = "c5".parse().expect("square");
    assert_eq!("C5".parse::<Square>(), Ok(c5));
    assert_eq!((c5.file(), c5.rank(), c5.index()), (2, 4, 34));
    assert_eq!(c5.to_string(), "c5");
    assert_eq!("a1".parse::<Square>().map(Cell::index), Ok(0));
    assert_eq!("h8".parse::<Square>().map(Cell::index), Ok(63));
    assert_eq!(Square::INDEX_BOUND, 64);
    assert_eq!(Square::all().count(), 64);
    assert_eq!(Square::from_index(64), None);
    for bad in ["i1", "a9", "a0", "", "c", "5", "c5 "] {
        let e = bad.parse::<Square>().expect_err(bad);
        assert!(e.to_string().contains("no such square (a1 to h8)"), "{e}");
    }
}

#[test]
fn the_notation_help_shows_every_kind_of_move() {
    for example in ["d1-d3", "c1-e3/a7", "pass"] {
        assert!(Position::NOTATION.contains(example), "{example}");
        assert!(example.parse::<MoveText>().is_ok());
    }
}
