//! Field names, move text and position text: round trips and error messages.

use board_core::{Cell, Game, IllegalMoveError, MoveError, Variant as _};
use hexdraughts::{FIELD_COUNT, Field, MoveText, Position, Setup, Variant};

fn position(text: &str) -> Position {
    text.parse::<Position>().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn position_error(text: &str) -> String {
    match text.parse::<Position>() {
        Ok(pos) => panic!("{text} was accepted as {pos}"),
        Err(e) => e.to_string(),
    }
}

fn move_error(pos: &Position, text: &str) -> String {
    match pos.parse_move(text) {
        Ok(mv) => panic!("{text} was accepted as {mv}"),
        Err(e) => e.to_string(),
    }
}

fn assert_mentions(message: &str, parts: &[&str]) {
    for part in parts {
        assert!(message.contains(part), "{message:?} does not mention {part:?}");
    }
}

#[test]
fn field_names_in_either_case_print_upper_case() {
    for field in Field::all() {
        let name = field.to_string();
        assert_eq!(name.parse::<Field>(), Ok(field));
        assert_eq!(name.to_lowercase().parse::<Field>(), Ok(field));
    }
    for bad in ["", "G", "G0", "G10", "A6", "F11", "L1", "g+1", "Ж1", "G08x", "1G"] {
        assert!(bad.parse::<Field>().is_err(), "{bad}");
    }
    let error = "F11".parse::<Field>().unwrap_err();
    assert_eq!(error.text(), "F11");
    assert_mentions(&error.to_string(), &["'F11'", "no such field"]);
    assert_mentions(&"L1".parse::<Field>().unwrap_err().to_string(), &["A..K"]);
}

#[test]
fn fields_are_numbered_densely_in_row_order() {
    let names: Vec<String> = Field::all().map(|f| f.to_string()).collect();
    assert_eq!(names.len(), FIELD_COUNT);
    assert_eq!(Field::INDEX_BOUND, FIELD_COUNT);
    assert_eq!(names[..7], ["A1", "A2", "A3", "A4", "A5", "B1", "B2"]);
    assert_eq!(names[35], "F1");
    assert_eq!(names[79], "K5");
    for (index, field) in Field::all().enumerate() {
        assert_eq!(field.index(), index);
        assert_eq!(Field::from_index(index), Some(field));
    }
    assert_eq!(Field::from_index(FIELD_COUNT), None);
}

#[test]
fn variants_by_name() {
    assert_eq!(Variant::ALL, [Variant::Standard, Variant::BlockedDraw]);
    assert_eq!(Variant::default(), Variant::Standard);
    assert_eq!("blocked-draw".parse::<Variant>(), Ok(Variant::BlockedDraw));
    assert_eq!("Standard".parse::<Variant>(), Ok(Variant::Standard));
    assert_eq!(Variant::BlockedDraw.to_string(), "blocked-draw");
    let unknown = "russian".parse::<Variant>().unwrap_err().to_string();
    assert_mentions(&unknown, &["hexdraughts", "'russian'", "standard, blocked-draw"]);
    let blocked = Position::from_text("W:WJ1:BI1,I2,H1,H3", Variant::BlockedDraw).unwrap();
    assert_eq!(blocked.variant(), Variant::BlockedDraw);
    assert_eq!(position("W:WJ1:BI1,I2,H1,H3").variant(), Variant::Standard);
}

#[test]
fn move_text_round_trips() {
    for text in ["G8-F8", "I3:G3:E4", "K4:G4:C5:H8"] {
        let parsed: MoveText = text.parse().unwrap();
        assert_eq!(parsed.to_string(), text);
        let lower: MoveText = text.to_lowercase().parse().unwrap();
        assert_eq!(lower.to_string(), text);
    }
}

#[test]
fn move_syntax_errors_say_what_is_wrong() {
    let error = |text: &str| text.parse::<MoveText>().unwrap_err().to_string();
    assert_mentions(&error("G8"), &["'-'", "':'"]);
    assert_mentions(&error("G8-Z9"), &["Z9", "not a field"]);
    assert_mentions(&error("G8-F8-E8"), &["exactly two fields"]);
    assert_mentions(&error("I3:G3-E4"), &["mixes"]);
    assert_mentions(&error("I3:"), &["missing"]);
    let long = vec!["A1"; 30].join(":");
    assert_mentions(&error(&long), &["more than 22"]);
}

#[test]
fn moves_are_resolved_with_clear_reasons() {
    let start = Position::default();
    assert_mentions(&move_error(&start, "C3-D3"), &["no piece of White on C3"]);
    assert_mentions(&move_error(&start, "E5-D5"), &["no piece of White on E5"]);
    assert_mentions(&move_error(&start, "H1-F1"), &["man on H1 cannot move to F1"]);
    assert_mentions(&move_error(&start, "H1:F1"), &["no capture"]);
    assert_eq!(start.parse_move("h8-g9").map(|m| m.to_string()), Ok("H8-G9".to_owned()));

    let capture = position("W:WE5,H8:BD5,A1");
    assert_mentions(&move_error(&capture, "H8-G8"), &["compulsory", "E5:C5"]);
    assert_mentions(&move_error(&capture, "E5:A1"), &["man on E5 has no capture E5:A1"]);

    let double = position("W:WI3:BH3,F4");
    assert_mentions(&move_error(&double, "I3:G3"), &["must continue", "I3:G3:E4"]);
}

#[test]
fn a_capture_may_be_given_by_start_and_end_when_unique() {
    let double = position("W:WI3:BH3,F4");
    assert_eq!(double.parse_move("I3:E4").map(|m| m.to_string()), Ok("I3:G3:E4".to_owned()));
    // The exact path wins over a longer capture with the same ends.
    let loops = position("W:WKF5:BD5,B4,C3,H5");
    assert_eq!(loops.parse_move("F5:K5").map(|m| m.to_string()), Ok("F5:K5".to_owned()));
    let king = position("W:WKD3:BF5,F7,D6,H3");
    assert_eq!(king.parse_move("D3:B4").map(|m| m.to_string()), Ok("D3:H5:E7:B4".to_owned()));
}

#[test]
fn a_short_capture_that_fits_several_is_ambiguous() {
    // The king may stop on F6 or G6 between E5 and H6: two moves.
    let pos = position("W:WKC3:BE5,H6");
    match pos.parse_move("C3:I6") {
        Err(MoveError::Illegal(IllegalMoveError::Ambiguous { candidates, .. })) => {
            assert_eq!(candidates, ["C3:F6:I6", "C3:G6:I6"]);
        }
        other => panic!("C3:I6 should be ambiguous, got {other:?}"),
    }
    assert_mentions(&move_error(&pos, "C3:I6"), &["ambiguous", "C3:F6:I6", "C3:G6:I6"]);
}

#[test]
fn finished_games_refuse_moves() {
    let over = position("B:WE4:B");
    assert!(matches!(
        over.parse_move("E4-D4"),
        Err(MoveError::Illegal(IllegalMoveError::GameOver { .. }))
    ));
}

#[test]
fn position_text_round_trips_and_accepts_lower_case() {
    let start = Position::default();
    assert_eq!(position(&start.to_string()), start);
    let text = "B:WKE9,F5,G3:BKA4,B1,KB3";
    assert_eq!(position(text).to_string(), text);
    assert_eq!(position("b:bka4, b1 ,kb3:wke9,f5,g3").to_string(), text);
    let setup: Setup = text.parse().unwrap();
    assert_eq!(setup.to_string(), text);
    assert_eq!(position(text).to_setup().to_string(), text);
}

#[test]
fn position_errors_say_what_is_wrong() {
    assert_mentions(&position_error(""), &["3 parts"]);
    assert_mentions(&position_error("W:WG8"), &["3 parts"]);
    assert_mentions(&position_error("X:WG8:BA1"), &["side to move", "'X'"]);
    assert_mentions(&position_error("W:WG8:WA1"), &["White has two lists"]);
    assert_mentions(&position_error("W:G8:BA1"), &["start with W or B"]);
    assert_mentions(&position_error("W:WG8,Z1:BA1"), &["'Z1'", "not a field"]);
    assert_mentions(&position_error("W:WG8,:BA1"), &["''"]);
    assert_mentions(&position_error("W:WG8:BG8"), &["G8 is listed twice"]);
    assert_mentions(&position_error("W:WA3:BG8"), &["White man on A3 must be a king"]);
    assert_mentions(&position_error("W:WG8:BK3"), &["Black man on K3 must be a king"]);
    assert_mentions(&position_error("W:WG8:B"), &["Black has no pieces"]);
    let many: Vec<String> = Field::all().skip(30).take(22).map(|f| format!("K{f}")).collect();
    assert_mentions(&position_error(&format!("W:W{}:BA1", many.join(","))), &["22 pieces"]);
    let men: Vec<String> = Field::all().skip(30).take(20).map(|f| f.to_string()).collect();
    assert_mentions(&position_error(&format!("W:W{}:BA1", men.join(","))), &["20 men"]);
}

#[test]
fn board_picture_shows_the_hexagon_with_offset_rows() {
    let picture = format!("{:#}", position("W:WKK4,G8:BA1"));
    let lines: Vec<&str> = picture.lines().collect();
    assert_eq!(lines.len(), 12, "{picture}");
    let indent = |line: &str| line[1..].len() - line[1..].trim_start().len();
    let indents: Vec<usize> = lines[..11].iter().map(|l| indent(l)).collect();
    assert_eq!(indents, [13, 11, 9, 7, 5, 3, 5, 7, 9, 11, 13], "{picture}");
    assert!(lines[0].starts_with('A') && lines[0].ends_with('A'), "{picture}");
    assert!(lines[0].contains(" 1b "), "{picture}");
    assert!(lines[6].contains(" 8w "), "{picture}");
    assert!(lines[10].contains(" 4W "), "{picture}");
    assert!(lines[11].starts_with("White to move"), "{picture}");
}
