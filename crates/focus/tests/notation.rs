//! Move notation and position text: round trips and error messages.

use board_core::{Cell, Game, MoveError, Player, Rng, Variant as _};
use focus::{Move, MoveText, Position, Setup, Square, Stack, Variant};

fn syntax_error(text: &str) -> String {
    match text.parse::<Move>() {
        Ok(mv) => panic!("{text:?} parsed as {mv}"),
        Err(e) => e.to_string(),
    }
}

fn illegal(pos: &Position, text: &str) -> String {
    match pos.parse_move(text) {
        Err(MoveError::Illegal(e)) => e.to_string(),
        other => panic!("{text:?} in {pos}: expected an illegal-move error, got {other:?}"),
    }
}

fn position_error(text: &str) -> String {
    match text.parse::<Position>() {
        Ok(pos) => panic!("{text:?} read as {pos}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn every_square_and_move_round_trips() {
    assert_eq!(Square::all().count(), 52);
    for sq in Square::all() {
        assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        let drop = Move::Drop { to: sq };
        assert_eq!(drop.to_string().parse::<Move>(), Ok(drop));
    }
    for text in ["c5-c1", "c1-c5", "a3-e3", "h6-h5", "@e5", "@c8"] {
        assert_eq!(text.parse::<Move>().map(|mv| mv.to_string()), Ok(text.to_owned()));
    }
    assert_eq!("c5-c1".parse::<Move>().map(Move::piece_count), Ok(4));
    assert_eq!("C5-C1".parse::<Move>().map(|mv| mv.to_string()), Ok("c5-c1".to_owned()));
    assert_eq!("c5-c1".parse::<MoveText>(), "c5-c1".parse::<Move>());
}

/// The cell contract: names in any case, index `rank * 8 + file`, the cut-off
/// corners as holes, every square in index order.
#[test]
fn squares_index_by_rank_and_file_with_holes_at_the_corners() {
    assert_eq!(Square::INDEX_BOUND, 64);
    let mut previous = None;
    for sq in Square::all() {
        assert_eq!(sq.index(), usize::from(sq.rank()) * 8 + usize::from(sq.file()));
        assert_eq!(Square::from_index(sq.index()), Some(sq));
        assert_eq!(sq.to_string().to_uppercase().parse::<Square>(), Ok(sq));
        assert!(previous < Some(sq.index()), "{sq} out of order");
        previous = Some(sq.index());
    }
    let holes = (0..64).filter(|&i| Square::from_index(i).is_none()).count();
    assert_eq!(holes, 12);
    assert_eq!(Square::from_index(64), None);
    assert_eq!(Square::from_index(usize::MAX), None);
    assert_eq!("c1".parse::<Square>().map(Square::index), Ok(2));
    assert_eq!("f8".parse::<Square>().map(Square::index), Ok(61));
    let error = "a8".parse::<Square>().unwrap_err();
    assert_eq!(error.text(), "a8");
    assert!(error.to_string().contains("cut-off corner"), "{error}");
}

#[test]
fn piece_at_gives_the_stack_and_setup_prints_the_text() {
    let text = "4/6/8/8/3,bwbww,4/8/6/4 b reserve 1 0 captured 15 15";
    let pos: Position = text.parse().expect("position");
    let d4: Square = "d4".parse().unwrap();
    let stack = pos.piece_at(d4).expect("a stack on d4");
    assert_eq!(stack.to_string(), "bwbww");
    use Player::{First as B, Second as W};
    assert_eq!(Some(stack), Stack::from_bottom_up(&[B, W, B, W, W]));
    assert_eq!(Square::all().filter(|&sq| pos.piece_at(sq).is_some()).count(), 1);
    let setup = pos.to_setup();
    assert_eq!(setup.to_string(), text);
    assert_eq!(text.parse::<Setup>(), Ok(setup));
    assert_eq!(Position::default().to_setup().to_string(), Position::default().to_string());
    assert_eq!(Position::default().variant(), Variant::Standard);
    assert_eq!(Variant::NAMES, ["standard"]);
    assert_eq!(Variant::ALL, [Variant::Standard]);
    assert_eq!(Variant::default().to_string(), "standard");
    assert_eq!(
        Position::NOTATION,
        "move the top pieces of a stack as many squares as pieces: c5-c1 (4 pieces), \
         e4-e5 (1 piece); drop a reserve piece: @e5"
    );
}

#[test]
fn move_syntax_errors_say_what_is_wrong() {
    assert!(syntax_error("f9-f8").contains("cell 'f9': not a square"));
    assert!(syntax_error("a1-a2").contains("cell 'a1': a cut-off corner"));
    assert!(syntax_error("@h8").contains("cell 'h8': a cut-off corner"));
    assert!(syntax_error("c5-d6").contains("not on one file or rank"));
    assert!(syntax_error("c1-c8").contains("moving 7 squares"));
    assert!(syntax_error("c5-c5").contains("must leave its square"));
    assert!(syntax_error("c5").contains("expected a stack move like c5-c1 or a drop like @e5"));
    assert!(syntax_error("").contains("expected a stack move"));
    assert!(syntax_error("@").contains("cell '': not a square"));
    assert!(syntax_error("c5-").contains("cell '': not a square"));
    assert!(syntax_error("Жc5-c1").contains("cell 'Жc5': not a square"));
}

#[test]
fn illegal_moves_say_why() {
    let start = Position::default();
    assert!(illegal(&start, "a4-a5").contains("a4 is empty"));
    assert!(illegal(&start, "b2-b3").contains("the stack on b2 is not Black's"));
    assert!(
        illegal(&start, "d4-d6")
            .contains("the stack on d4 is 1 high, moving 2 squares takes 2 pieces")
    );
    assert!(illegal(&start, "@e5").contains("Black has no piece in reserve"));
    assert!(start.parse_move("d4-d5").is_ok());
}

#[test]
fn position_text_round_trips() {
    let mut rng = Rng::new(66);
    let mut pos = Position::default();
    for _ in 0..300 {
        let text = pos.to_string();
        let back = text.parse::<Position>().expect("own text reads back");
        assert_eq!(back, pos);
        assert_eq!(back.to_string(), text);
        let moves = pos.legal_moves();
        let Some(&mv) = rng.choose(&moves) else { break };
        pos.play_unchecked(mv);
    }
}

#[test]
fn setup_reads_every_field() {
    let setup: Setup =
        "4/6/8/8/3,bwbww,4/8/6/4 b reserve 1 0 captured 15 15".parse().expect("setup");
    let d4: Square = "d4".parse().unwrap();
    assert_eq!(setup.stacks.len(), 1);
    assert_eq!(setup.stacks[0].0, d4);
    assert_eq!(setup.stacks[0].1.to_string(), "bwbww");
    assert_eq!(setup.stacks[0].1.owner(), Player::Second);
    assert_eq!(setup.side_to_move, Player::First);
    assert_eq!((setup.reserve.first, setup.reserve.second), (1, 0));
    assert_eq!((setup.captured.first, setup.captured.second), (15, 15));
}

#[test]
fn position_errors_say_what_is_wrong() {
    let ok = "4/6/8/4,w,3/3,b,4/8/6/4 b reserve 0 0 captured 17 17";
    assert!(ok.parse::<Position>().is_ok());
    let cases = [
        ("", "empty position text"),
        ("4/6/8/4,w,3/3,b,4/8/6 b reserve 0 0 captured 17 17", "7 ranks"),
        ("4/6/8/4,w,3/3,b,4/8/6/5 b reserve 0 0 captured 17 17", "rank 1: 5 empty squares"),
        ("4/6/8/4,w,3/3,b,4/8/7/4 b reserve 0 0 captured 17 17", "rank 2: 7 empty squares"),
        ("4/6/8/4,w,3/3,b,3/8/6/4 b reserve 0 0 captured 17 17", "rank 4 describes 7 squares"),
        ("4/6/8/4,w,3/3,b,4,b/8/6/4 b reserve 0 0 captured 17 17", "more than its 8"),
        ("4/6/8/4,x,3/3,b,4/8/6/4 b reserve 0 0 captured 17 17", "e5: 'x' is not a piece"),
        ("4/6/8/4,wwbbww,3/3,b,4/8/6/4 b reserve 0 0 captured 17 17", "1 to 5 pieces"),
        ("4/6/8/4,,3/3,b,4/8/6/4 b reserve 0 0 captured 17 17", "empty entry"),
        ("4/6/8/4,w,3/3,b,4/8/6/4 x reserve 0 0 captured 17 17", "side to move"),
        ("4/6/8/4,w,3/3,b,4/8/6/4 b", "missing 'reserve'"),
        ("4/6/8/4,w,3/3,b,4/8/6/4 b reserve 0", "missing White's reserve"),
        ("4/6/8/4,w,3/3,b,4/8/6/4 b reserve 0 19 captured 17 17", "0..=18"),
        ("4/6/8/4,w,3/3,b,4/8/6/4 b store 0 0 captured 17 17", "expected 'reserve'"),
        ("4/6/8/4,w,3/3,b,4/8/6/4 b reserve 0 0 captured 17 17 x", "unexpected \"x\""),
        ("4/6/8/4,w,3/3,b,4/8/6/4 b reserve 1 0 captured 17 17", "Black has 1 on the board"),
        ("4/6/8/4,w,3/3,b,4/8/6/4 b reserve 0 0 captured 16 17", "White has 1 on the board"),
        ("4/6/8/4,b,3/3,b,4/8/6/4 b reserve 0 1 captured 17 16", "White owns no stack"),
    ];
    for (text, expected) in cases {
        let message = position_error(text);
        assert!(message.contains(expected), "{text:?}: {message:?} lacks {expected:?}");
    }
    assert!(Position::from_text(ok, Variant::Standard).is_ok());
    assert!("giant".parse::<Variant>().unwrap_err().to_string().contains("no variant"));
}

#[test]
fn board_picture_shows_stacks_reserves_and_side() {
    let pos = Position::from_text(
        "4/6/8/8/3,bwbww,4/8/6/4 b reserve 1 0 captured 15 15",
        Variant::Standard,
    )
    .expect("position");
    let picture = format!("{pos:#}");
    assert!(picture.contains(" 4 .     .     .     bwbww .     .     .     ."), "{picture}");
    assert!(picture.contains("Black: reserve  1, captured 15"), "{picture}");
    assert!(picture.ends_with("Black to move"), "{picture}");
}

/// `Move`'s fields are public: a stack move built in code that no text could
/// give (diagonal, standing still) must not pass the legality check.
#[test]
fn resolve_move_refuses_moves_built_off_the_lines() {
    let pos = Position::from_text(
        "4/6/8/7,w/3,wbbbb,4/8/6/4 b reserve 0 0 captured 16 14",
        Variant::Standard,
    )
    .expect("position");
    let sq = |name: &str| name.parse::<Square>().unwrap();
    for (from, to) in [("d4", "e5"), ("d4", "d4"), ("d4", "f6")] {
        let mv = Move::Stack { from: sq(from), to: sq(to) };
        let error = pos.resolve_move(&mv).expect_err("not a move");
        assert!(error.to_string().contains("not 1 to 5 squares along one file"), "{error}");
    }
    assert!(pos.resolve_move(&Move::Stack { from: sq("d4"), to: sq("h4") }).is_ok());
}

#[test]
fn the_sources_cyrillic_drop_notation_is_read() {
    let drop: Move = "@e5".parse().expect("drop");
    assert_eq!("Рe5".parse::<Move>(), Ok(drop));
    assert_eq!("рe5".parse::<Move>(), Ok(drop));
    assert_eq!(drop.to_string(), "@e5", "printed the canonical way");
    // A Latin P is not the Cyrillic letter.
    assert!("Pe5".parse::<Move>().is_err());
}
