//! The playable rule set (RULES.md, "The playable rules", variants
//! `8c`, `16c`, `22c`, `24c`): compulsory capture and entry to the bazaar by
//! one step, one test per point on a small constructed position.

use board_core::{Game, Outcome, Player};
use city::{Position, Variant};

fn position(text: &str) -> Position {
    Position::from_text(text, Variant::SixteenC).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn literal(text: &str) -> Position {
    Position::from_text(text, Variant::Sixteen).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The legal moves as sorted text.
fn moves(pos: &Position) -> Vec<String> {
    let mut texts: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    texts.sort();
    texts
}

fn sorted(list: &str) -> Vec<String> {
    let mut out: Vec<String> = list.split_whitespace().map(String::from).collect();
    out.sort();
    out
}

fn move_error(pos: &Position, text: &str) -> String {
    match pos.parse_move(text) {
        Ok(mv) => panic!("{text:?} was accepted as {mv} in {pos}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_capture_by_slide_is_compulsory() {
    // White a1 and c4; Black a9: the only legal move is the slide a1-a9.
    let text = "B8/9/9/9/9/2W6/9/9/W8 W";
    assert_eq!(moves(&position(text)), ["a1-a9"]);
    assert!(moves(&literal(text)).len() > 20, "optional under the literal rules");
    let err = move_error(&position(text), "c4-c5");
    assert!(err.contains("compulsory") && err.contains("a1-a9"), "{err}");
}

#[test]
fn every_kind_of_capture_is_compulsory_and_any_one_may_be_chosen() {
    // White: d1 under Black d2 (climb onto the wall), c2 on the wall with
    // Black d2 beside it and Black f2 the long way round the ring (wall
    // moves), Black c3 below it (climb down), and a1 with Black a9 up the
    // file (slide). All five captures, nothing else; no majority rule.
    let pos = position("B8/9/9/9/9/9/2B6/2WB1B3/W2W5 W");
    assert_eq!(moves(&pos), sorted("a1-a9 c2-c3 c2-d2 c2-f2 d1-d2"));
    // Without Black d2, f2 is reached both ways round: one move.
    let pos = position("B8/9/9/9/9/9/2B6/2W2B3/W2W5 W");
    assert_eq!(moves(&pos), sorted("a1-a9 c2-c3 c2-f2"));
}

#[test]
fn with_no_capture_every_move_is_free() {
    let pos = position("B8/9/9/9/9/9/9/9/1W7 W");
    assert_eq!(moves(&pos), moves(&literal("B8/9/9/9/9/9/9/9/1W7 W")));
    assert_eq!(moves(&pos).len(), 9, "b1 along the rank and onto b2");
}

#[test]
fn the_bazaar_is_entered_by_one_step_from_each_gate() {
    for (gate, rest) in [("d5", "3W5"), ("f5", "5W3")] {
        let text = format!("B8/9/9/9/{rest}/9/9/9/9 W");
        let pos = position(&text);
        let entry = format!("{gate}-e5");
        assert_eq!(moves(&pos), vec![entry.clone()], "the entry is compulsory");
        let mut won = pos;
        won.play_text(&entry).expect("the step in");
        assert_eq!(won.outcome(), Some(Outcome::win(Player::First, "bazaar reached")));
    }
    for text in ["B8/9/9/9/9/4W4/9/9/9 W", "B8/9/9/4W4/9/9/9/9/9 W"] {
        let pos = position(text);
        assert_eq!(moves(&pos).iter().filter(|m| m.ends_with("e5")).count(), 1, "{text}");
        assert_eq!(pos.legal_moves().len(), 1, "{text}: only the entry");
    }
}

#[test]
fn a_slide_stops_before_the_bazaar_and_never_crosses_it() {
    // White c5 and e3, Black e9 e7 g5: the slides end on d5 and e4.
    let text = "4B4/9/4B4/9/2W3B2/9/4W4/9/W8 W";
    let pos = position(text);
    let into: Vec<String> = moves(&pos).into_iter().filter(|m| m.ends_with("e5")).collect();
    assert!(into.is_empty(), "{into:?}");
    assert!(moves(&pos).contains(&"c5-d5".to_owned()));
    assert!(moves(&pos).contains(&"e3-e4".to_owned()));
    let err = move_error(&pos, "c5-e5");
    assert!(err.contains("entered only by one step"), "{err}");
    let err = move_error(&pos, "e3-e6");
    assert!(err.contains("bazaar"), "{err}");
    // The same slides enter under the literal rules.
    let literal = literal(text);
    assert!(literal.parse_move("c5-e5").is_ok() && literal.parse_move("e3-e5").is_ok());
}

#[test]
fn captures_and_entries_together_are_the_legal_moves() {
    // White d5 (a gate) and a1; Black a9 and g5: the entry and the capture.
    let pos = position("B8/9/9/9/3W2B2/9/9/9/W8 W");
    assert_eq!(moves(&pos), sorted("a1-a9 d5-e5"));
    // A capture on a gate by a slide is a capture like any other.
    let pos = position("B8/9/9/9/2WB5/9/9/9/9 W");
    assert_eq!(moves(&pos), ["c5-d5"]);
}

#[test]
fn the_defender_must_take_a_pawn_on_a_gate_or_lose() {
    // Black e6 on a gate threatens e6-e5; White's d6 takes it, the only
    // capture, so forced. Then White's pawn on e6 threatens in turn, and
    // Black, with no capture, cannot stop it.
    let pos = position("4B4/9/9/3WB4/9/9/2W6/9/9 W");
    assert_eq!(moves(&pos), ["d6-e6"]);
    let mut next = pos;
    next.play_text("d6-e6").expect("the capture");
    let replies = next.legal_moves();
    assert!(!replies.is_empty() && replies.iter().all(|&mv| !next.is_tactical(mv)));
    for reply in replies {
        let mut after = next;
        after.play_unchecked(reply);
        assert_eq!(after.legal_moves().len(), 1, "after {reply}: e6-e5 is forced");
        after.play_text("e6-e5").expect("the entry");
        assert_eq!(after.outcome().and_then(|o| o.winner), Some(Player::First));
    }
}

#[test]
fn the_spec_line_of_16_is_cut_short_by_the_duty_to_capture() {
    // `f3-f4` captures in 16c as in 16; Black's d7-e7 of the literal line is
    // not a capture and is refused, since Black can capture.
    let mut pos = Position::start(Variant::SixteenC);
    pos.play_text("f3-f4").expect("a capture");
    let err = move_error(&pos, "d7-e7");
    assert!(err.contains("compulsory"), "{err}");
}

#[test]
fn the_first_moves_of_8c_are_the_two_long_captures() {
    let start = Position::start(Variant::EightC);
    assert_eq!(moves(&start), sorted("a1-a9 i1-i9"));
    let start = Position::start(Variant::SixteenC);
    assert_eq!(start.legal_moves().len(), 14);
    assert!(start.legal_moves().iter().all(|&mv| start.is_tactical(mv)), "all captures");
}

#[test]
fn tactical_moves_are_all_the_moves_when_one_exists() {
    let mut tactical = Vec::new();
    let start = Position::start(Variant::SixteenC);
    start.generate_tactical(&mut tactical);
    assert_eq!(tactical.len(), start.legal_moves().len());
    let quiet = position("B8/9/9/9/9/9/9/9/1W7 W");
    tactical.clear();
    quiet.generate_tactical(&mut tactical);
    assert!(tactical.is_empty());
}
