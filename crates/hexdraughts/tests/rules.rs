//! One test per rule and per worked example of the rules text, each on a
//! small constructed position, asserting the exact legal moves or the exact
//! result.

use board_core::{Cell as _, Game, Outcome, Player, Variant as _};
use hexdraughts::{Direction, Field, Kind, Piece, Position, Variant};

fn position(text: &str) -> Position {
    position_in(text, Variant::Standard)
}

fn position_in(text: &str, variant: Variant) -> Position {
    Position::from_text(text, variant).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves(text: &str) -> Vec<String> {
    let mut moves: Vec<String> =
        position(text).legal_moves().iter().map(ToString::to_string).collect();
    moves.sort();
    moves
}

fn after(text: &str, mv: &str) -> Position {
    let mut pos = position(text);
    pos.play_text(mv).unwrap_or_else(|e| panic!("{mv} in {text}: {e}"));
    pos
}

fn field(name: &str) -> Field {
    name.parse().unwrap_or_else(|e| panic!("{name} is not a field: {e}"))
}

fn line(from: &str, dir: Direction) -> Vec<String> {
    let mut fields = vec![field(from)];
    while let Some(next) = fields.last().and_then(|f| f.neighbour(dir)) {
        fields.push(next);
    }
    fields.iter().map(ToString::to_string).collect()
}

// Board

#[test]
fn rows_have_5_to_10_to_5_fields() {
    let lengths: Vec<usize> =
        (0..11).map(|row| Field::all().filter(|f| f.row() == row).count()).collect();
    assert_eq!(lengths, [5, 6, 7, 8, 9, 10, 9, 8, 7, 6, 5]);
    assert_eq!(Field::all().count(), 80);
    let all: Vec<Field> = Field::all().collect();
    assert_eq!(all[0].to_string(), "A1");
    assert_eq!(all[79].to_string(), "K5");
}

#[test]
fn worked_example_lines_through_g2() {
    assert_eq!(line("G2", Direction::DownRight), ["G2", "H2", "I2", "J2", "K2"]);
    assert_eq!(line("G2", Direction::UpLeft), ["G2", "F2", "E1"]);
    assert_eq!(line("G2", Direction::UpRight), ["G2", "F3", "E3", "D3", "C3", "B3", "A3"]);
    assert_eq!(line("G2", Direction::DownLeft), ["G2", "H1"]);
}

#[test]
fn slanted_sides_have_six_fields_and_are_lines() {
    assert_eq!(line("A1", Direction::DownLeft), ["A1", "B1", "C1", "D1", "E1", "F1"]);
    assert_eq!(line("F1", Direction::DownRight), ["F1", "G1", "H1", "I1", "J1", "K1"]);
    assert_eq!(line("A5", Direction::DownRight), ["A5", "B6", "C7", "D8", "E9", "F10"]);
    assert_eq!(line("F10", Direction::DownLeft), ["F10", "G9", "H8", "I7", "J6", "K5"]);
}

#[test]
fn fields_touch_where_rows_grow_and_shrink() {
    // Rows A..F: X_i touches X+1_i and X+1_(i+1); rows F..K: X+1_(i-1) and X+1_i.
    assert_eq!(field("C3").neighbour(Direction::DownLeft), Some(field("D3")));
    assert_eq!(field("C3").neighbour(Direction::DownRight), Some(field("D4")));
    assert_eq!(field("H3").neighbour(Direction::DownLeft), Some(field("I2")));
    assert_eq!(field("H3").neighbour(Direction::DownRight), Some(field("I3")));
    assert_eq!(field("F1").neighbour(Direction::UpLeft), None);
    assert_eq!(field("A3").neighbour(Direction::UpRight), None);
}

// Start

#[test]
fn start_position_interpretation() {
    let start = Position::default();
    assert_eq!(
        start.to_string(),
        "W:WH1,H2,H3,H4,H5,H6,H7,H8,I1,I2,I3,I4,I5,I6,I7,J1,J2,J5,J6,KK2,KK4\
         :BKA2,KA4,B1,B2,B5,B6,C1,C2,C3,C4,C5,C6,C7,D1,D2,D3,D4,D5,D6,D7,D8"
    );
    assert_eq!(start.side_to_move(), Player::First);
    for player in Player::BOTH {
        let count = start.count(player);
        assert_eq!((count.men, count.kings), (19, 2));
    }
    assert_eq!(start.legal_moves().len(), 18);
}

// Moves of men

#[test]
fn worked_example_man_steps_forward_g8_to_f8_or_f9() {
    assert_eq!(moves("W:WG8:BA1"), ["G8-F8", "G8-F9"]);
}

#[test]
fn men_step_only_forward_never_along_a_row() {
    assert_eq!(moves("W:WF5:BA3"), ["F5-E4", "F5-E5"]);
    assert_eq!(moves("B:WK3:BF5"), ["F5-G4", "F5-G5"]);
}

#[test]
fn worked_example_man_captures_i3_over_h3_to_g3_then_e4() {
    assert_eq!(moves("W:WI3:BH3,F4"), ["I3:G3:E4"]);
    assert_eq!(after("W:WI3:BH3,F4", "I3:G3:E4").to_string(), "B:WE4:B");
}

#[test]
fn men_capture_backward() {
    assert_eq!(moves("W:WE5:BF5,A1"), ["E5:G4"]);
    assert_eq!(moves("B:WD4,K1:BE5"), ["E5:C3"]);
}

#[test]
fn men_capture_kings_and_need_an_empty_field_beyond() {
    assert_eq!(moves("W:WE5:BKD5,A1"), ["E5:C5"]);
    assert_eq!(moves("W:WE5:BF5,G4"), ["E5-D4", "E5-D5"]);
}

// Moves of kings

#[test]
fn worked_example_king_on_g2_reaches_k2_e1_and_b3() {
    assert_eq!(
        moves("W:WKG2:BA5"),
        [
            "G2-A3", "G2-B3", "G2-C3", "G2-D3", "G2-E1", "G2-E3", "G2-F2", "G2-F3", "G2-H1",
            "G2-H2", "G2-I2", "G2-J2", "G2-K2"
        ]
    );
}

#[test]
fn kings_stop_before_any_piece() {
    assert_eq!(
        moves("W:WKG2,I2,E3:BA5"),
        ["E3-D2", "E3-D3", "G2-E1", "G2-F2", "G2-F3", "G2-H1", "G2-H2", "I2-H2", "I2-H3"]
    );
}

#[test]
fn worked_example_king_on_k4_takes_h4_e5_f8_and_ends_on_g8_or_h8() {
    // The only landing after H4 from which the capture goes on is G4, and after
    // E5 only C5: the king must land there.
    assert_eq!(moves("W:WKK4:BH4,E5,F8"), ["K4:G4:C5:G8", "K4:G4:C5:H8"]);
    let end = after("W:WKK4:BH4,E5,F8", "K4:G4:C5:H8");
    assert_eq!(end.to_string(), "B:WKH8:B");
}

#[test]
fn flying_king_may_land_on_any_field_beyond_and_each_is_a_move() {
    assert_eq!(moves("W:WKK2:BH2,A5"), ["K2:E1", "K2:F2", "K2:G2"]);
}

#[test]
fn start_field_counts_as_empty_during_the_capture() {
    // The king leaves F5 and passes over it again on its way to take H5.
    assert_eq!(
        moves("W:WKF5:BD5,B4,C3,H5"),
        ["F5:C5:A3:D3:I5", "F5:C5:A3:D3:J5", "F5:C5:A3:D3:K5", "F5:I5", "F5:J5", "F5:K5"]
    );
    assert_eq!(after("W:WKF5:BD5,B4,C3,H5", "F5:C5:A3:D3:K5").to_string(), "B:WKK5:B");
}

#[test]
fn a_king_jumps_neither_two_pieces_in_a_row_nor_its_own() {
    // Up-left from K2: J2, I2, H2, G2. Two enemy pieces back to back stop it;
    // so does its own man; with a gap it takes both, landing between them.
    assert!(position("W:WKK2:BI2,H2,A5").legal_moves().iter().all(|mv| !mv.is_capture()));
    assert!(position("W:WKK2,J2:BH2,A5").legal_moves().iter().all(|mv| !mv.is_capture()));
    assert_eq!(moves("W:WKK2:BI2,G2,A5"), ["K2:H2:E1", "K2:H2:F2"]);
}

#[test]
fn captures_with_different_landings_are_different_moves() {
    // Both take E5 and H6 and end on I6 (or J6); the stop between them differs.
    let pos = position("W:WKC3:BE5,H6");
    assert_eq!(moves("W:WKC3:BE5,H6"), ["C3:F6:I6", "C3:F6:J6", "C3:G6:I6", "C3:G6:J6"]);
    assert_eq!(pos.perft(1), 4);
}

// Capture rules

#[test]
fn capturing_is_compulsory() {
    assert_eq!(moves("W:WE5,H8:BD5,A1"), ["E5:C5"]);
}

#[test]
fn a_king_capture_is_compulsory_over_quiet_moves_of_men_and_kings() {
    // The king on K2 sees G2 up-left with F2 empty beyond; H8 could step.
    assert_eq!(moves("W:WKK2,H8:BG2,A5"), ["K2:E1", "K2:F2"]);
    // Its own man on J2 blocks that line: quiet moves only, the king's too.
    let blocked = moves("W:WKK2,J2,H8:BG2,A5");
    assert!(blocked.iter().all(|mv| mv.contains('-')), "{blocked:?}");
    assert!(blocked.iter().any(|mv| mv.starts_with("K2-")), "{blocked:?}");
    // A man's capture and the king's are both listed, the man's first.
    let both = position("W:WKK2,E5:BG2,D5,A1");
    let listed: Vec<String> = both.legal_moves().iter().map(ToString::to_string).collect();
    assert_eq!(listed, ["E5:C5", "K2:F2", "K2:E1"]);
}

#[test]
fn a_capture_must_continue_while_possible() {
    let pos = position("W:WI3:BH3,F4");
    let refused = pos.parse_move("I3:G3").unwrap_err().to_string();
    assert!(refused.contains("must continue"), "{refused}");
}

#[test]
fn free_choice_among_captures_no_majority_rule() {
    assert_eq!(moves("W:WI3,E5:BH3,F4,D5"), ["E5:C5", "I3:G3:E4"]);
}

#[test]
fn taken_pieces_block_until_the_move_ends_and_are_taken_once() {
    // After taking F5, F7 and D6 the king lands on C5: H3 lies beyond F5 on
    // that line, but F5 is still on the board, so the capture stops.
    let text = "W:WKD3:BF5,F7,D6,H3";
    assert_eq!(moves(text), ["D3:G5:B6", "D3:G5:C6", "D3:H5:E7:A3", "D3:H5:E7:B4", "D3:H5:E7:C5"]);
    assert_eq!(after(text, "D3:H5:E7:C5").to_string(), "B:WKC5:BH3");
}

#[test]
fn a_man_may_land_on_its_own_start_field() {
    // F5 jumps E4, C3, C4 and E5 round a rhombus and comes back to F5.
    assert_eq!(moves("W:WF5:BE4,E5,C3,C4"), ["F5:D3:B3:D5:F5", "F5:D5:B3:D3:F5"]);
    assert_eq!(after("W:WF5:BE4,E5,C3,C4", "F5:D3:B3:D5:F5").to_string(), "B:WF5:B");
}

// Promotion

#[test]
fn a_man_reaching_the_far_row_becomes_a_king() {
    assert_eq!(after("W:WB2:BJ1", "B2-A1").to_string(), "B:WKA1:BJ1");
    assert_eq!(after("B:WKA3:BJ2", "J2-K2").to_string(), "W:WKA3:BKK2");
}

#[test]
fn promotion_during_a_capture_continues_as_a_king() {
    // C3 takes B3 landing on A3, becomes a king and flies on over D6.
    let text = "W:WC3,J5:BB3,D6,F5,KA5";
    assert_eq!(moves(text), ["C3:A3:E7", "C3:A3:F8", "C3:A3:G8", "C3:A3:H8"]);
    let end = after(text, "C3:A3:H8");
    assert_eq!(end.piece_at(field("H8")), Some(Piece::new(Player::First, Kind::King)));
    assert_eq!(end.to_string(), "B:WKH8,J5:BKA5,F5");
}

#[test]
fn a_capture_ending_on_the_far_row_promotes() {
    // From A3 the new king has nothing more to take: the move ends there.
    assert_eq!(moves("W:WC3:BB3,KA5"), ["C3:A3"]);
    assert_eq!(after("W:WC3:BB3,KA5", "C3:A3").to_string(), "B:WKA3:BKA5");
    // Black's men promote on row K the same way (mirror of the above).
    assert_eq!(after("B:WJ4,KK1:BI5", "I5:K3").to_string(), "W:WKK1:BKK3");
}

// End of the game

#[test]
fn capturing_every_enemy_piece_wins() {
    let end = after("W:WI3:BH3,F4", "I3:G3:E4");
    assert_eq!(end.outcome(), Some(Outcome::win(Player::First, "all pieces captured")));
}

#[test]
fn the_side_to_move_without_a_move_loses() {
    let blocked = position("W:WJ1:BI1,I2,H1,H3");
    assert!(blocked.legal_moves().is_empty());
    assert_eq!(blocked.outcome(), Some(Outcome::win(Player::Second, "no legal move")));
}

#[test]
fn blocked_draw_variant_draws_instead() {
    let blocked = position_in("W:WJ1:BI1,I2,H1,H3", Variant::BlockedDraw);
    assert_eq!(blocked.outcome(), Some(Outcome::draw("no legal move")));
    let captured = position_in("B:WE4:B", Variant::BlockedDraw);
    assert_eq!(captured.outcome(), Some(Outcome::win(Player::First, "all pieces captured")));
}

#[test]
fn neither_side_able_to_move_is_a_draw() {
    let wall = ":WC1,C2,C3,C4,C5,C6,C7,D1,D2,D3,D4,D5,D6,D7,D8:BA1,A2,A3,A4,A5,B1,B2,B3,B4,B5,B6";
    for &variant in Variant::ALL {
        for side in ["W", "B"] {
            let pos = position_in(&format!("{side}{wall}"), variant);
            assert_eq!(pos.outcome(), Some(Outcome::draw("neither side can move")));
        }
    }
}
