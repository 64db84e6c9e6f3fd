//! One test per rule and worked example of the rules (`RULES.md`), each
//! on a small position given as text.

use board_core::{Game, Outcome, Player};
use otrazhenie::{Position, START_TEXT};

fn pos(text: &str) -> Position {
    text.parse::<Position>().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves(text: &str) -> Vec<String> {
    let mut list: Vec<String> = pos(text).legal_moves().iter().map(ToString::to_string).collect();
    list.sort();
    list
}

fn captures(text: &str) -> Vec<String> {
    moves(text).into_iter().filter(|mv| mv.contains('x')).collect()
}

fn after(text: &str, line: &[&str]) -> Position {
    let mut position = pos(text);
    for mv in line {
        position.play_text(mv).unwrap_or_else(|e| panic!("{mv} in {position}: {e}"));
    }
    position
}

fn illegal(text: &str, mv: &str) -> String {
    match pos(text).parse_move(mv) {
        Ok(_) => panic!("{mv} should be illegal in {text}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn start_position_two_checkers_each_white_first() {
    let start = Position::default();
    assert_eq!(start.to_string(), START_TEXT);
    assert_eq!(start.to_string(), "B6B/8/8/8/8/8/8/W6W w");
    assert_eq!(start.side_to_move(), Player::First);
    assert_eq!(Position::PLAYER_NAMES.first, "White");
    let expected = [
        "a1-a2", "a1-a3", "a1-a4", "a1-a5", "a1-a6", "a1-a7", "a1-b1", "a1-c1", "a1-d1", "a1-e1",
        "a1-f1", "a1-g1", "h1-b1", "h1-c1", "h1-d1", "h1-e1", "h1-f1", "h1-g1", "h1-h2", "h1-h3",
        "h1-h4", "h1-h5", "h1-h6", "h1-h7",
    ];
    assert_eq!(moves(START_TEXT), expected);
}

#[test]
fn no_first_move_of_white_allows_a_capture_in_reply() {
    let start = Position::default();
    for mv in start.legal_moves() {
        let mut reply = start;
        reply.play_unchecked(mv);
        assert!(
            reply.legal_moves().iter().all(|m| !m.is_capture()),
            "Black can capture after {mv}"
        );
    }
}

#[test]
fn quiet_move_slides_like_a_rook_through_empty_squares_onto_an_empty_square() {
    // b2 is boxed in by its own d2 and Black's b4; d2 stops before b2.
    let text = "8/8/8/8/1B6/8/1W1W4/8 w";
    let expected = [
        "b2-a2", "b2-b1", "b2-b3", "b2-c2", "d2-c2", "d2-d1", "d2-d3", "d2-d4", "d2-d5", "d2-d6",
        "d2-d7", "d2-d8", "d2-e2", "d2-f2", "d2-g2", "d2-h2",
    ];
    assert_eq!(moves(text), expected);
    assert_eq!(after(text, &["b2-b3"]).to_string(), "8/8/8/8/1B6/1W6/3W4/8 b");
    assert!(illegal(text, "b2-b4").contains("b4 is occupied"));
    assert!(illegal(text, "b2-b5").contains("blocked at b4"));
    assert!(illegal(text, "d2-a2").contains("blocked at b2"));
    assert!(illegal(text, "d2-e3").contains("not on one rank or file"));
    assert!(illegal(text, "d2-d2").contains("at least one square"));
}

#[test]
fn worked_example_a1_slides_to_h1_and_captures_on_d5() {
    let text = "7B/8/8/3B4/8/8/8/W7 w";
    let expected = [
        "a1-a2", "a1-a3", "a1-a4", "a1-a5", "a1-a6", "a1-a7", "a1-a8", "a1-a8xd5", "a1-b1",
        "a1-c1", "a1-d1", "a1-e1", "a1-f1", "a1-g1", "a1-h1", "a1-h1xd5",
    ];
    assert_eq!(moves(text), expected);
    let next = after(text, &["a1-h1xd5"]);
    assert_eq!(next.to_string(), "7B/8/8/3W4/8/8/8/8 b");
    assert_eq!(next.outcome(), None);
}

#[test]
fn capturing_is_optional() {
    let text = "7B/8/8/3B4/8/8/8/W7 w";
    assert!(captures(text).contains(&"a1-h1xd5".to_owned()));
    assert_eq!(after(text, &["a1-a2"]).to_string(), "7B/8/8/3B4/8/8/W7/8 b");
}

#[test]
fn the_edge_square_must_be_empty() {
    // h1 is taken, so the slide east cannot reach the edge; the one over a8 remains.
    let text = "8/8/8/3B4/8/8/8/W6B w";
    assert_eq!(captures(text), ["a1-a8xd5"]);
    assert!(illegal(text, "a1-h1xd5").contains("edge square h1 is occupied"));
    assert!(illegal("8/8/8/3B4/8/8/8/W3B3 w", "a1-h1xd5").contains("blocked at e1"));
}

#[test]
fn a_checker_on_the_edge_cannot_capture_that_way() {
    // From h4 a zero-length slide east would turn onto g5-f6-e7: not allowed.
    let text = "1B6/4B3/8/8/7W/8/8/8 w";
    assert_eq!(captures(text), Vec::<String>::new());
    assert!(illegal(text, "h4-h4xe7").contains("at least one square"));
    // One square further in, the slide to h4 makes the same capture legal.
    assert_eq!(captures("1B6/4B3/8/8/6W1/8/8/8 w"), ["g4-h4xe7"]);
}

#[test]
fn reflection_turns_onto_either_diagonal_leading_away_from_the_boundary() {
    // Sliding east into h2: north-west towards c7 or south-west onto g1.
    assert_eq!(captures("8/2B5/8/8/8/8/W7/6B1 w"), ["a2-h2xc7", "a2-h2xg1"]);
    // In the corner h1 only the north-west diagonal exists.
    assert_eq!(captures("8/8/8/8/8/8/6B1/2W5 w"), ["c1-h1xg2"]);
    let text = "8/8/8/3B4/8/8/8/W6B w";
    assert!(illegal(text, "a1-a8xh8").contains("not on a diagonal leading away"));
    assert!(illegal(text, "a1-a7xd5").contains("not at the board edge"));
}

#[test]
fn the_first_checker_met_on_the_diagonal_is_the_one_captured() {
    let text = "8/8/8/3B4/4B3/8/8/W7 w";
    assert_eq!(captures(text), ["a1-a8xd5", "a1-h1xe4"]);
    assert!(illegal(text, "a1-h1xd5").contains("blocked at e4"));
}

#[test]
fn an_own_checker_on_the_diagonal_blocks_the_capture() {
    let text = "8/8/8/3B4/4W3/8/8/W7 w";
    assert_eq!(captures(text), ["a1-a8xd5"]);
    assert!(illegal(text, "a1-h1xd5").contains("blocked at e4"));
}

#[test]
fn a_diagonal_running_off_the_board_captures_nothing() {
    // Every reflection from c1 misses a7 and h7 and leaves the board.
    let text = "8/B6B/8/8/8/8/8/2W5 w";
    assert_eq!(captures(text), Vec::<String>::new());
    assert_eq!(moves(text).len(), 14);
    assert!(illegal(text, "c1-h1xa8").contains("no Black checker on a8"));
}

#[test]
fn quiet_moves_never_capture() {
    let text = "8/8/8/3B4/8/8/8/W2B4 w";
    assert!(illegal(text, "a1-d1").contains("d1 is occupied"));
}

#[test]
fn two_checkers_may_capture_the_same_checker_over_the_same_edge_square() {
    let text = "B6W/8/8/8/8/8/8/3B4 b";
    assert_eq!(captures(text), ["a8-a1xh8", "d1-a1xh8"]);
    assert_eq!(after(text, &["d1-a1xh8"]).to_string(), "B6B/8/8/8/8/8/8/8 w");
}

#[test]
fn capturing_both_enemy_checkers_wins() {
    let end = after("7B/8/8/3B4/8/8/8/W7 w", &["a1-h1xd5", "h8-a8xd5"]);
    assert_eq!(end.to_string(), "8/8/8/3B4/8/8/8/8 w");
    assert_eq!(end.outcome(), Some(Outcome::win(Player::Second, "captured both checkers")));
    assert!(end.legal_moves().is_empty());
    assert!(illegal("8/8/8/3B4/8/8/8/8 w", "d5-d6").contains("game is over"));
}

#[test]
fn a_player_with_no_legal_move_loses() {
    let end = after("8/8/8/8/8/8/B7/W1B5 b", &["c1-b1"]);
    assert_eq!(end.to_string(), "8/8/8/8/8/8/B7/WB6 w");
    assert!(end.legal_moves().is_empty());
    assert_eq!(end.outcome(), Some(Outcome::win(Player::Second, "no legal move")));
}

#[test]
fn capped_games_are_drawn_after_200_plies() {
    assert_eq!(Position::DEFAULT_MAX_PLIES, 200);
    assert_eq!(Position::default().adjudicate().winner, None);
}

#[test]
fn wrong_side_and_empty_squares_are_named() {
    assert!(illegal(START_TEXT, "a8-a7").contains("no White checker on a8"));
    assert!(illegal(START_TEXT, "c3-c4").contains("no White checker on c3"));
    assert!(illegal(START_TEXT, "a2-h2xc7").contains("no White checker on a2"));
}

#[test]
fn exactly_one_reflection() {
    // From c2 over h2 the north-west diagonal ends on b8 and takes a checker there ...
    assert_eq!(captures("1B6/8/8/8/8/8/2W5/8 w"), ["c2-h2xb8"]);
    // ... but does not bounce a second time off the top edge at b8 onto a7.
    let text = "8/B7/8/8/8/8/2W5/8 w";
    assert_eq!(captures(text), Vec::<String>::new());
    assert!(illegal(text, "c2-h2xa7").contains("not on a diagonal leading away"));
}

#[test]
fn a_capture_naming_its_start_as_the_edge_square_is_explained() {
    // On the edge: the slide would have length zero.
    let text = "8/4B3/8/8/7W/8/8/8 w";
    assert!(illegal(text, "h4-h4xe7").contains("already at the edge"));
    // In mid-board the square is no edge square at all.
    let text = "8/8/8/4B3/3W4/8/8/8 w";
    let message = illegal(text, "d4-d4xe5");
    assert!(message.contains("d4 is not at the board edge"), "{message}");
    assert!(!message.contains("already at the edge"), "{message}");
}

#[test]
fn a_capture_naming_a_wrong_edge_square_gets_the_real_one() {
    // From h1 the edge square north is h8, but Black stands there: nothing is
    // reflected on h8, so the message must not claim it.
    let message = illegal(START_TEXT, "h1-h7xf6");
    assert!(message.contains("h7 is not at the board edge"), "{message}");
    assert!(message.contains("from h1 through h7 the edge square is h8"), "{message}");
    assert!(!message.contains("reflected on h8"), "{message}");
}
