//! One test per rule and per worked example of the rules text, each on a small
//! constructed position, asserting the exact legal moves or the exact result.
//!
//! Every position holds 12 pieces of each colour. Spare pieces are buried at
//! the bottom of a column that takes part, or parked under a king in a corner
//! (a1 or h8): a corner column can never be jumped, and a king there only
//! looks along the long diagonal, which the tests keep clear.

use adiyukh::{Color, Column, Piece, Position, Square};
use board_core::Cell;
use board_core::{ByPlayer, Game, Outcome, Player};

fn pos(text: &str) -> Position {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves(p: &Position) -> Vec<String> {
    let mut list: Vec<String> = p.legal_moves().iter().map(ToString::to_string).collect();
    list.sort();
    list
}

fn after(text: &str, mv: &str) -> String {
    let mut p = pos(text);
    p.play_text(mv).unwrap_or_else(|e| panic!("{mv} in {text}: {e}"));
    p.to_string()
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

#[test]
fn start_position_and_first_moves() {
    let start = Position::default();
    assert_eq!(
        start.to_string(),
        "w a1:w c1:w e1:w g1:w b2:w d2:w f2:w h2:w a3:w c3:w e3:w g3:w \
         b6:b d6:b f6:b h6:b a7:b c7:b e7:b g7:b b8:b d8:b f8:b h8:b"
    );
    assert_eq!(start.side_to_move(), Player::First);
    let white_man = Column::single(Piece::man(Color::White));
    assert_eq!(start.piece_at(sq("c3")), Some(white_man));
    assert_eq!(start.piece_at(sq("H8")), Some(Column::single(Piece::man(Color::Black))));
    assert_eq!(start.piece_at(sq("d4")), None);
    assert_eq!(start.column(sq("d4")), Column::EMPTY);
    let occupied: Vec<String> =
        Square::all().filter(|&s| start.piece_at(s).is_some()).map(|s| s.to_string()).collect();
    assert_eq!(occupied.len(), 24);
    assert_eq!(start.to_string().split(' ').skip(1).map(|c| &c[..2]).collect::<Vec<_>>(), occupied);
    assert_eq!(moves(&start), ["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"]);
}

#[test]
fn a_man_topped_column_steps_forward_as_a_whole() {
    // White's c3 column (a White man over two Black men) steps forward only;
    // the Black-topped e3 column is not White's.
    let text = "w a1:bbbbbbbbB c3:bbw e3:wb h8:wwwwwwwwwW";
    assert_eq!(moves(&pos(text)), ["c3-b4", "c3-d4"]);
    assert_eq!(after(text, "c3-d4"), "b a1:bbbbbbbbB e3:wb d4:bbw h8:wwwwwwwwwW");
    // Black's men step towards rank 1.
    let text = "b a1:bbbbbbbbbbB e5:wb h8:wwwwwwwwwwW";
    assert_eq!(moves(&pos(text)), ["e5-d4", "e5-f4"]);
}

#[test]
fn a_man_stepping_onto_its_last_row_becomes_a_king() {
    let text = "w a1:bbbbbbbbbbbB c7:w h8:wwwwwwwwwwW";
    assert_eq!(moves(&pos(text)), ["c7-b8", "c7-d8"]);
    assert_eq!(after(text, "c7-d8"), "b a1:bbbbbbbbbbbB d8:W h8:wwwwwwwwwwW");
}

#[test]
fn kings_have_no_quiet_moves() {
    // White's king on e3 could step anywhere in ordinary draughts; here only
    // the man on c3 moves.
    let text = "w a1:bbbbbbbbbbbB c3:w e3:W h8:wwwwwwwwwW";
    assert_eq!(moves(&pos(text)), ["c3-b4", "c3-d4"]);
}

#[test]
fn kings_that_cannot_capture_leave_no_move_and_the_score_decides() {
    // White has only kings, none can capture: the game is over, 12:12 a draw.
    let text = "w a1:bbbbbbbbbbbB e5:W h8:wwwwwwwwwwW";
    let p = pos(text);
    assert!(moves(&p).is_empty());
    assert_eq!(p.outcome(), Some(Outcome::draw("no legal move").with_score(ByPlayer::new(12, 12))));
}

#[test]
fn capture_is_compulsory() {
    // The man on c3 must take d4 although g3 could step.
    let text = "w a1:bbbbbbbbbbB c3:w d4:b g3:wwwwwwwwwww";
    assert_eq!(moves(&pos(text)), ["c3:e5"]);
}

#[test]
fn men_capture_backwards_too() {
    let text = "w a1:bbbbbbbbbbB d4:wwwwwwwwwwww c3:b";
    assert_eq!(moves(&pos(text)), ["d4:b2"]);
}

#[test]
fn a_jump_takes_only_the_top_piece_and_puts_it_at_the_bottom() {
    // d4 holds two White men under a Black man: c3 takes the Black man, which
    // goes under c3's column; d4 keeps its White men (and is White's now).
    let text = "w a1:bbbbbbbbbB c3:wwwwwwwwwbw d4:wwb";
    assert_eq!(moves(&pos(text)), ["c3:e5"]);
    assert_eq!(after(text, "c3:e5"), "b a1:bbbbbbbbbB d4:ww e5:bwwwwwwwwwbw");
}

#[test]
fn no_180_degree_turn_for_a_man() {
    // After c3:e5 the d4 column still has a Black top and c3 is empty, but
    // jumping straight back is forbidden.
    let text = "w a1:bbbbbbbbbB c3:wwwwwwwwwwww d4:bb";
    assert_eq!(moves(&pos(text)), ["c3:e5"]);
    assert_eq!(after(text, "c3:e5"), "b a1:bbbbbbbbbB d4:b e5:bwwwwwwwwwwww");
}

#[test]
fn no_180_degree_turn_for_a_king_even_to_jump_another_column() {
    // The king on f4 takes d6 towards b8; turning straight back to take g3
    // (over the now empty d6 and f4) is forbidden, so it cannot continue and
    // may land on c7 or b8. Taking g3 first, it cannot turn back for d6.
    let text = "w a1:bbbbbbbbbB f4:wwwwwwwwwwwW d6:b g3:b";
    assert_eq!(moves(&pos(text)), ["f4:b8", "f4:c7", "f4:h2"]);
    // A king capture that ends on the promotion row keeps the king; elsewhere
    // the top piece becomes a man again.
    assert_eq!(after(text, "f4:b8"), "b a1:bbbbbbbbbB g3:b b8:bwwwwwwwwwwwW");
    assert_eq!(after(text, "f4:c7"), "b a1:bbbbbbbbbB g3:b c7:bwwwwwwwwwwww");
    assert_eq!(after(text, "f4:h2"), "b a1:bbbbbbbbbB h2:bwwwwwwwwwwww d6:b");
}

#[test]
fn a_king_must_land_where_the_capture_goes_on() {
    // After taking e3 the king could land on f4, g5 or h6, but only from g5
    // can it take f6; then it may land on e7 or d8.
    let text = "w a1:bbbbbbbbbB c1:wwwwwwwwwwwW e3:b f6:b";
    assert_eq!(moves(&pos(text)), ["c1:g5:d8", "c1:g5:e7"]);
    // Ending on d8 (rank 8) it stays a king; on e7 it becomes a man again.
    assert_eq!(after(text, "c1:g5:d8"), "b a1:bbbbbbbbbB d8:bbwwwwwwwwwwwW");
    assert_eq!(after(text, "c1:g5:e7"), "b a1:bbbbbbbbbB e7:bbwwwwwwwwwwww");
}

#[test]
fn a_king_ending_its_capture_on_its_promotion_row_stays_a_king() {
    let text = "b c3:bbbbbbbbbbbB d2:w h8:wwwwwwwwwwW";
    assert_eq!(moves(&pos(text)), ["c3:e1"]);
    let p = pos(&after(text, "c3:e1"));
    assert_eq!(p.column(sq("e1")).top(), Some(Piece::king(Color::Black)));
}

#[test]
fn a_man_promoted_during_a_capture_goes_on_as_a_king_then_is_demoted() {
    // The worked example of the rules text: the Black man on c5 takes d4 and
    // d2, becomes a king on c1, goes round b2, e7, g7 and d2 twice (each
    // column jumped again while its top is White), ends on a3 and becomes a
    // man again. Black then has every piece on White's half: 23:1.
    let text = "b d2:www b2:www d4:w c5:bbbbbbbbbbbb e7:ww g7:ww h8:W";
    let line = "c5:e3:c1:a3:f8:h6:c1:a3:f8:h6:c1:a3";
    assert_eq!(moves(&pos(text)), [line]);
    let end = after(text, line);
    assert_eq!(end, "w a3:wwwwwwwwwwwbbbbbbbbbbbb h8:W");
    assert_eq!(
        pos(&end).outcome(),
        Some(Outcome::win(Player::Second, "no legal move").with_score(ByPlayer::new(1, 23)))
    );
}

#[test]
fn a_column_whose_new_top_is_an_own_piece_cannot_be_jumped_again() {
    // The same example with a Black man under d2's two White men: after two
    // jumps d2 is Black's, so on h6 the capture cannot take d2 a third time
    // and ends there (a man again).
    let text = "b d2:bww b2:ww d4:w c5:bbbbbbbbbbb e7:ww g7:ww h8:wwW";
    let line = "c5:e3:c1:a3:f8:h6:c1:a3:f8:h6";
    assert_eq!(moves(&pos(text)), [line]);
    let end = after(text, line);
    assert_eq!(end, "w d2:b h6:wwwwwwwwwbbbbbbbbbbb h8:wwW");
    assert_eq!(
        pos(&end).outcome(),
        Some(Outcome::win(Player::First, "no legal move").with_score(ByPlayer::new(23, 1)))
    );
}

#[test]
fn the_start_square_is_empty_during_a_capture_and_two_paths_are_two_moves() {
    // The man on c3 goes round d4, f4, f2 and d2 and lands on its own start
    // square; either way round it reaches the same position, and both paths
    // are moves of their own.
    let text = "w c3:wwwwwwwwwwww d4:b f4:b f2:b d2:b h8:bbbbbbbb";
    assert_eq!(moves(&pos(text)), ["c3:e1:g3:e5:c3", "c3:e5:g3:e1:c3"]);
    let end = "b c3:bbbbwwwwwwwwwwww h8:bbbbbbbb";
    assert_eq!(after(text, "c3:e5:g3:e1:c3"), end);
    assert_eq!(after(text, "c3:e1:g3:e5:c3"), end);
    assert_eq!(pos(text).perft(1), 2);
}

#[test]
fn the_twelve_jump_king_capture_of_the_sample_is_one_move() {
    // A position built for the sample b8:e5:c3:e1:h4:e7:a3:c1:e3:c5:a3:c1:h6:
    // d2, d4 and b2 are jumped again while their tops are Black; g5, emptied
    // by the fifth jump, is flown over by the last. All 12 Black pieces end
    // under the White column, which becomes a man again on h6: 24:0.
    let text = "w b8:wwwwwwwwwwwW c7:b d4:bb d2:bbb b2:bb f2:b g5:b b4:bb";
    let sample = "b8:e5:c3:e1:h4:e7:a3:c1:e3:c5:a3:c1:h6";
    let p = pos(text);
    let legal = moves(&p);
    assert!(legal.iter().any(|m| m == sample), "{legal:?}");
    assert_eq!(p.parse_move(sample).unwrap().len(), 12);
    // Only continuing landings after the first jump: h2 (beyond c7) goes nowhere.
    assert!(!legal.iter().any(|m| m.starts_with("b8:h2")), "{legal:?}");
    let end = after(text, sample);
    assert_eq!(end, "b h6:bbbbbbbbbbbbwwwwwwwwwwww");
    assert_eq!(
        pos(&end).outcome(),
        Some(Outcome::win(Player::First, "no legal move").with_score(ByPlayer::new(24, 0)))
    );
}

#[test]
fn a_man_reaching_its_last_row_by_capture_ends_there_as_a_king() {
    let text = "w a1:bbbbbbbbbbB b6:wwwwwwwwwwww c7:b";
    assert_eq!(moves(&pos(text)), ["b6:d8"]);
    assert_eq!(after(text, "b6:d8"), "b a1:bbbbbbbbbbB d8:bwwwwwwwwwwwW");
}

#[test]
fn a_buried_king_surfaces_as_a_king() {
    // c3 takes the Black man off d4 and uncovers a White king, which then has
    // no quiet move but captures b6.
    let text = "w a1:bbbbbbbbB c3:wwwwwwwwwww d4:Wb b6:b h6:b";
    assert_eq!(moves(&pos(text)), ["c3:e5"]);
    let mut p = pos(text);
    p.play_text("c3:e5").unwrap();
    assert_eq!(p.column(sq("d4")).top(), Some(Piece::king(Color::White)));
    p.play_text("h6-g5").unwrap();
    assert_eq!(moves(&p), ["d4:a7"]);
}

#[test]
fn free_choice_among_captures_no_majority_rule() {
    // One jump with c3 or two with g3: both are legal.
    let text = "w a1:bbbbbbbbB c3:w b4:b g3:wwwwwwwwwww f4:b d6:b";
    assert_eq!(moves(&pos(text)), ["c3:a5", "g3:e5:c7"]);
}

#[test]
fn the_scoring_example_of_the_rules_text_is_a_white_win_13_11() {
    // a7 (1) + b8 (2) + e5 (3 White + 3 Black) + g5 (2 + 2) = 13 for White;
    // b4 (1 White on 3 Black) + g1 (a Black king on 4 Black and 3 White) = 11.
    // Black to move: the king on g1 cannot capture, so Black has no move.
    let p = pos("b g1:wwwbbbB b4:bbbw e5:bbbwww g5:bbww a7:w b8:ww");
    assert_eq!(p.score(), ByPlayer::new(13, 11));
    assert!(moves(&p).is_empty());
    let end = p.outcome().unwrap();
    assert_eq!(end, Outcome::win(Player::First, "no legal move").with_score(ByPlayer::new(13, 11)));
    assert_eq!(end.to_string(), "1-0 score 13-11 reason no legal move");
}

#[test]
fn the_ply_cap_scores_the_position_as_it_stands() {
    let start = Position::default();
    assert_eq!(start.adjudicate(), Outcome::draw("ply limit").with_score(ByPlayer::new(12, 12)));
    let p = pos("w a1:bbbbbbbbbbbB c3:w e5:wwwwwwwwwwW");
    assert_eq!(p.outcome(), None);
    assert_eq!(
        p.adjudicate(),
        Outcome::win(Player::Second, "ply limit").with_score(ByPlayer::new(11, 13))
    );
}
