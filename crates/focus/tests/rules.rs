//! One test per rule and per worked example of the rules text, on small
//! positions read from position text.

use board_core::{Cell, Game, IllegalMoveError, MoveError, Outcome, Player, Rng};
use focus::{Move, Position, Square, Stack};

fn position(text: &str) -> Position {
    text.parse::<Position>().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn sorted_moves(pos: &Position) -> Vec<String> {
    let mut moves: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    moves.sort();
    moves
}

fn after(text: &str, moves: &[&str]) -> Position {
    let mut pos = position(text);
    for mv in moves {
        pos.play_text(mv).unwrap_or_else(|e| panic!("{mv} in {pos}: {e}"));
    }
    pos
}

fn stack_at(pos: &Position, square: &str) -> String {
    pos.piece_at(square.parse().unwrap()).map_or_else(String::new, |s| s.to_string())
}

#[test]
fn start_position_fills_the_centre_and_black_moves_first() {
    let start = Position::default();
    assert_eq!(
        start.to_string(),
        "4/b,b,w,w,b,b/1,w,w,b,b,w,w,1/1,b,b,w,w,b,b,1/1,w,w,b,b,w,w,1/1,b,b,w,w,b,b,1/w,w,b,b,w,w/4 b reserve 0 0 captured 0 0"
    );
    assert_eq!(start.side_to_move(), Player::First);
    assert_eq!(Position::PLAYER_NAMES.first, "Black");
    // 18 single pieces, 4 steps each, except b7 and g7 which have two holes beside them.
    assert_eq!(start.legal_moves().len(), 18 * 4 - 4);
}

/// "a1 b1 a2, g1 h1 h2, a7 a8 b8, g8 h8 h7 do not exist. 52 squares remain."
#[test]
fn the_board_is_the_8x8_grid_without_three_squares_in_each_corner() {
    let holes = ["a1", "b1", "a2", "g1", "h1", "h2", "a7", "a8", "b8", "g8", "h8", "h7"];
    let mut names = Vec::new();
    for rank in 1..=8 {
        for file in 'a'..='h' {
            let name = format!("{file}{rank}");
            let square = name.parse::<Square>();
            assert_eq!(square.is_err(), holes.contains(&name.as_str()), "{name}: {square:?}");
            if square.is_ok() {
                names.push(name);
            }
        }
    }
    assert_eq!(names.len(), 52);
    let all: Vec<String> = Square::all().map(|sq| sq.to_string()).collect();
    assert_eq!(all, names);
    // A 5-stack on an arm reaches exactly the squares 1 to 5 away that exist:
    // from a4, e.g., not a2 / a1 (holes) nor a9 (off the grid).
    let arm = position("4/6/8/7,w/bbbbb,7/8/6/4 b reserve 0 0 captured 17 13");
    assert_eq!(
        sorted_moves(&arm),
        ["a4-a3", "a4-a5", "a4-a6", "a4-b4", "a4-c4", "a4-d4", "a4-e4", "a4-f4"]
    );
}

#[test]
fn a_single_piece_moves_one_square_orthogonally() {
    let pos = position("4/6/8/4,w,3/3,b,4/8/6/4 b reserve 0 0 captured 17 17");
    assert_eq!(sorted_moves(&pos), ["d4-c4", "d4-d3", "d4-d5", "d4-e4"]);
}

#[test]
fn the_top_k_pieces_move_exactly_k_squares() {
    let pos = position("4/6/8/4,w,3/3,wbb,4/8/6/4 b reserve 0 0 captured 16 16");
    assert_eq!(
        sorted_moves(&pos),
        [
            "d4-a4", "d4-b4", "d4-c4", "d4-d1", "d4-d2", "d4-d3", "d4-d5", "d4-d6", "d4-d7",
            "d4-e4", "d4-f4", "d4-g4"
        ]
    );
    // Two squares: the top two pieces go; the White piece left behind owns d4.
    let moved = after(&pos.to_string(), &["d4-d6"]);
    assert_eq!(moved.to_string(), "4/6/3,bb,4/4,w,3/3,w,4/8/6/4 w reserve 0 0 captured 16 16");
    assert_eq!(moved.piece_at("d4".parse().unwrap()).map(Stack::owner), Some(Player::Second));
}

#[test]
fn squares_passed_over_do_not_matter() {
    let pos = after("4/6/3,ww,4/3,w,4/3,wbb,4/8/6/4 b reserve 0 0 captured 14 16", &["d4-d7"]);
    assert_eq!(pos.to_string(), "4/2,wbb,3/3,ww,4/3,w,4/8/8/6/4 w reserve 0 0 captured 14 16");
}

#[test]
fn moves_never_land_on_the_cut_off_corners() {
    let pos = position("4/b,5/8/8/8/8/5,w/4 b reserve 0 0 captured 17 17");
    assert_eq!(sorted_moves(&pos), ["b7-b6", "b7-c7"]);
    let arm = position("4/6/8/8/8/8/5,w/bbbbb,3 b reserve 0 0 captured 17 13");
    assert_eq!(
        sorted_moves(&arm),
        ["c1-c2", "c1-c3", "c1-c4", "c1-c5", "c1-c6", "c1-d1", "c1-e1", "c1-f1"]
    );
}

#[test]
fn a_five_stack_onto_a_five_stack_keeps_the_top_five() {
    let pos = position("4/6/8/8/8/2,wwwwb,4,bbwww/6/4 b reserve 0 0 captured 11 15");
    assert_eq!(pos.legal_moves().len(), 14);
    // Ten high: the bottom five (h3's b b w w w) go: two Black to Black's
    // reserve, three White captured. White then owns nothing and loses.
    let done = after(&pos.to_string(), &["c3-h3"]);
    assert_eq!(done.to_string(), "4/6/8/8/8/7,wwwwb/6/4 w reserve 2 0 captured 14 15");
    assert_eq!(done.outcome(), Some(Outcome::win(Player::First, "no stack and no reserve")));
}

#[test]
fn a_drop_onto_a_five_stack_captures_an_enemy_bottom_piece() {
    let pos = after("4/6/8/8/3,bwbwb,4/8/6/4 w reserve 0 1 captured 15 15", &["@d4"]);
    assert_eq!(pos.to_string(), "4/6/8/8/3,wbwbw,4/8/6/4 b reserve 0 0 captured 15 16");
    assert_eq!(pos.outcome(), Some(Outcome::win(Player::Second, "no stack and no reserve")));
}

#[test]
fn a_drop_onto_a_five_stack_returns_an_own_bottom_piece_to_the_reserve() {
    let pos = after("4/6/8/8/3,bwbww,4/8/6/4 b reserve 1 0 captured 15 15", &["@d4"]);
    assert_eq!(pos.to_string(), "4/6/8/8/3,wbwwb,4/8/6/4 w reserve 1 0 captured 15 15");
}

#[test]
fn a_player_without_stacks_can_only_drop() {
    let pos = position("4/6/5,bw,2/8/8/8/6/4 b reserve 1 0 captured 17 16");
    let expected: Vec<String> = {
        let mut all: Vec<String> = Square::all().map(|sq| format!("@{sq}")).collect();
        all.sort();
        all
    };
    assert_eq!(sorted_moves(&pos), expected);
    assert_eq!(expected.len(), 52);
    assert!(pos.outcome().is_none());
}

#[test]
fn a_player_with_nothing_left_loses() {
    let pos = position("4/6/5,w,2/8/8/8/6/4 b reserve 0 0 captured 17 18");
    assert!(pos.legal_moves().is_empty());
    assert_eq!(pos.outcome(), Some(Outcome::win(Player::Second, "no stack and no reserve")));
    assert!(matches!(
        pos.clone().play_text("@d4"),
        Err(MoveError::Illegal(IllegalMoveError::GameOver { .. }))
    ));
}

#[test]
fn a_player_owning_a_stack_but_no_reserve_cannot_drop() {
    let pos = position("4/6/8/4,w,3/3,b,4/8/6/4 b reserve 0 0 captured 17 17");
    assert!(pos.legal_moves().iter().all(|mv| matches!(mv, Move::Stack { .. })));
}

/// The source's game: Black e4-e5 (onto White's e5: a 2-stack, Black on top);
/// White d5-c5; Black f3-e3; White d3-c3; Black e6-e7; White b2-b3.
#[test]
fn worked_check_first_six_moves() {
    let start = Position::default().to_string();
    let first = after(&start, &["e4-e5"]);
    assert_eq!(stack_at(&first, "e5"), "wb");
    assert_eq!(first.piece_at("e5".parse().unwrap()).map(Stack::owner), Some(Player::First));
    let six = after(&start, &["e4-e5", "d5-c5", "f3-e3", "d3-c3", "e6-e7", "b2-b3"]);
    assert_eq!(
        six.to_string(),
        "4/b,b,w,wb,b,b/1,w,w,b,1,w,w,1/1,b,bw,1,wb,b,b,1/1,w,w,b,1,w,w,1/1,bw,bw,1,wb,1,b,1/1,w,b,b,w,w/4 b reserve 0 0 captured 0 0"
    );
}

/// "A later Black move c5-e5, moving the top two pieces of a 3-stack onto a
/// 4-stack, makes 6 pieces: the bottom one, a White piece, is captured." The
/// source does not give the moves in between; these (e3-e5 f2-f1 b5-c5 c2-c1)
/// build exactly that situation.
#[test]
fn worked_check_later_capture_c5_e5() {
    let start = Position::default().to_string();
    let opening = ["e4-e5", "d5-c5", "f3-e3", "d3-c3", "e6-e7", "b2-b3"];
    let later = ["e3-e5", "f2-f1", "b5-c5", "c2-c1"];
    let before = after(&start, &[&opening[..], &later[..]].concat());
    assert_eq!(stack_at(&before, "c5"), "bwb");
    assert_eq!(stack_at(&before, "e5"), "wbwb");
    let pos = after(&before.to_string(), &["c5-e5"]);
    assert_eq!(stack_at(&pos, "e5"), "bwbwb");
    assert_eq!(stack_at(&pos, "c5"), "b");
    assert_eq!(pos.captured(Player::First), 1);
    assert_eq!(pos.reserve(Player::First), 0);
}

/// The swap of colours that the reflection through the centre makes.
fn is_mirror_symmetric(pos: &Position) -> bool {
    let swapped = |stack: Stack| {
        let pieces: Vec<Player> = stack.bottom_up().map(Player::other).collect();
        Stack::from_bottom_up(&pieces)
    };
    Square::all().all(|sq| pos.piece_at(sq).and_then(swapped) == pos.piece_at(sq.mirrored()))
        && pos.reserve(Player::First) == pos.reserve(Player::Second)
        && pos.captured(Player::First) == pos.captured(Player::Second)
}

/// The note in the crate docs: the second player can always answer with the
/// move reflected through the centre, so they never run out of moves.
#[test]
fn the_second_player_can_always_mirror() {
    let mut rng = Rng::new(6);
    for _ in 0..20 {
        let mut pos = Position::default();
        assert!(is_mirror_symmetric(&pos));
        for _ in 0..150 {
            let moves = pos.legal_moves();
            let Some(&mv) = rng.choose(&moves) else {
                assert_eq!(pos.outcome().and_then(|o| o.winner), Some(Player::Second));
                break;
            };
            pos.play_unchecked(mv);
            let answer = mv.mirrored();
            assert!(pos.is_legal(answer), "{answer} (mirroring {mv}) is not legal in {pos}");
            pos.play_unchecked(answer);
            assert!(is_mirror_symmetric(&pos), "not symmetric after {mv} {answer}: {pos}");
        }
    }
}
