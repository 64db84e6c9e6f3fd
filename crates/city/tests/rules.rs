//! One test per rule and per worked example of the rules (`RULES.md`), each
//! on a small constructed position.

use board_core::{Game, Outcome, Player, Variant as _};
use city::{Position, Rules, Square, Variant, Zone};

fn position(text: &str) -> Position {
    Position::from_text(text, Variant::Sixteen).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The legal moves as sorted text.
fn moves(pos: &Position) -> Vec<String> {
    let mut texts: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    texts.sort();
    texts
}

/// The legal moves of the pawn on `from`, sorted.
fn moves_from(pos: &Position, from: &str) -> Vec<String> {
    moves(pos).into_iter().filter(|m| m.split('-').next() == Some(from)).collect()
}

fn sorted(list: &str) -> Vec<String> {
    let mut out: Vec<String> = list.split_whitespace().map(String::from).collect();
    out.sort();
    out
}

fn after(text: &str, mv: &str) -> Position {
    let mut pos = position(text);
    if let Err(e) = pos.play_text(mv) {
        panic!("{mv} in {text}: {e}");
    }
    pos
}

#[test]
fn worked_check_base_game_has_24_first_moves() {
    let start = Position::start(Variant::Eight);
    assert_eq!(start.to_string(), "BBBB1BBBB/9/9/9/9/9/9/9/WWWW1WWWW W");
    let expected = sorted(
        "a1-a2 a1-a3 a1-a4 a1-a5 a1-a6 a1-a7 a1-a8 a1-a9 b1-b2 c1-c2 d1-d2 d1-e1 \
         i1-i2 i1-i3 i1-i4 i1-i5 i1-i6 i1-i7 i1-i8 i1-i9 h1-h2 g1-g2 f1-f2 f1-e1",
    );
    assert_eq!(moves(&start), expected);
}

#[test]
fn outside_slide_stops_before_the_wall_and_climbs_instead() {
    // White a5 and i5; Black e9. From a5 the a-file is open both ways; east
    // of a5 is the wall b5, reachable only by the climb.
    let pos = position("4B4/9/9/9/W7W/9/9/9/9 W");
    assert_eq!(
        moves_from(&pos, "a5"),
        sorted("a5-a1 a5-a2 a5-a3 a5-a4 a5-a6 a5-a7 a5-a8 a5-a9 a5-b5")
    );
}

#[test]
fn outside_slide_goes_round_no_corner_and_captures_the_first_enemy() {
    // White b1; Black e1 and g1: the slide east stops on e1 (capture); the
    // wall b2 above is reached only by the climb.
    let pos = position("9/9/9/9/9/9/9/9/1W2B1B2 W");
    assert_eq!(moves_from(&pos, "b1"), sorted("b1-a1 b1-c1 b1-d1 b1-e1 b1-b2"));
    let played = after("9/9/9/9/9/9/9/9/1W2B1B2 W", "b1-e1");
    assert_eq!(played.to_string(), "9/9/9/9/9/9/9/9/4W1B2 B");
}

#[test]
fn town_slide_stays_inside_the_walls() {
    // White c4 alone in the town, Black a9: it slides to c3 and up to c7 (not
    // the wall c8), east to g4 (not h4), and climbs only onto b4.
    let pos = position("B8/9/9/9/9/2W6/9/9/9 W");
    assert_eq!(
        moves_from(&pos, "c4"),
        sorted("c4-c3 c4-c5 c4-c6 c4-c7 c4-d4 c4-e4 c4-f4 c4-g4 c4-b4")
    );
}

#[test]
fn town_corner_pawn_climbs_onto_either_neighbouring_wall_square() {
    // White g7: the wall squares h7 and g8 are both adjacent.
    let pos = position("B8/9/6W2/9/9/9/9/9/9 W");
    assert_eq!(
        moves_from(&pos, "g7"),
        sorted("g7-g8 g7-h7 g7-f7 g7-e7 g7-d7 g7-c7 g7-g6 g7-g5 g7-g4 g7-g3")
    );
}

#[test]
fn climb_onto_the_wall_can_capture_and_ends_the_move() {
    // White d1, Black d2 (and a9): d1-d2 captures; d1 cannot go on to d3.
    let text = "B8/9/9/9/9/9/9/3B5/3W5 W";
    let pos = position(text);
    assert_eq!(
        moves_from(&pos, "d1"),
        sorted("d1-d2 d1-a1 d1-b1 d1-c1 d1-e1 d1-f1 d1-g1 d1-h1 d1-i1")
    );
    assert_eq!(after(text, "d1-d2").to_string(), "B8/9/9/9/9/9/9/3W5/9 B");
    let err = pos.parse_move("d1-d3").expect_err("a climb is one step");
    assert!(err.to_string().contains("cannot cross the wall"), "{err}");
}

#[test]
fn along_the_wall_round_a_corner_with_capture() {
    // White c2 on the wall, Black b4 on the wall (and i9). Round the corner
    // b2, b3 it captures b4; the long way round reaches b5 and stops before
    // b4 again, so b4 is one move. Climb down: c1, c3.
    let text = "8B/9/9/9/9/1B7/9/2W6/9 W";
    let pos = position(text);
    let wall = "b2 d2 e2 f2 g2 h2 h3 h4 h5 h6 h7 h8 g8 f8 e8 d8 c8 b8 b7 b6 b5 b3 b4";
    let mut expected: Vec<String> = wall.split(' ').map(|to| format!("c2-{to}")).collect();
    expected.extend(["c2-c1".to_owned(), "c2-c3".to_owned()]);
    expected.sort();
    assert_eq!(moves_from(&pos, "c2"), expected);
    assert_eq!(after(text, "c2-b4").to_string(), "8B/9/9/9/9/1W7/9/9/9 B");
}

#[test]
fn along_the_wall_stops_on_the_first_enemy_each_way() {
    // White c2; Black e2 and b4 on the wall (and i9): d2, e2 one way, b2, b3,
    // b4 the other; nothing beyond either capture.
    let pos = position("8B/9/9/9/9/1B7/9/2W1B4/9 W");
    assert_eq!(moves_from(&pos, "c2"), sorted("c2-d2 c2-e2 c2-b2 c2-b3 c2-b4 c2-c1 c2-c3"));
}

#[test]
fn along_the_wall_is_blocked_by_own_pawns() {
    // White d2 between White c2 and White f2 (Black a9): only e2 along the
    // wall, and the climbs down d1, d3.
    let pos = position("B8/9/9/9/9/9/9/2WW1W3/9 W");
    assert_eq!(moves_from(&pos, "d2"), sorted("d2-e2 d2-d1 d2-d3"));
}

#[test]
fn wall_corner_pawn_climbs_down_only_to_the_outside() {
    // White h2 (corner) with White g2 and h3 beside it (Black a9): no wall
    // move, and the corner touches no town square.
    let pos = position("B8/9/9/9/9/9/7W1/6WW1/9 W");
    assert_eq!(moves_from(&pos, "h2"), sorted("h2-h1 h2-i2"));
}

#[test]
fn climb_down_into_the_town_ends_the_move() {
    // White e8 on the wall (Black a1): e7 in the town, e9 outside; no further.
    let text = "9/4W4/9/9/9/9/9/9/B8 W";
    let pos = position(text);
    let off_wall: Vec<String> = moves_from(&pos, "e8")
        .into_iter()
        .filter(|m| m[3..].parse::<Square>().is_ok_and(|to| to.zone() != Zone::Wall))
        .collect();
    assert_eq!(off_wall, sorted("e8-e7 e8-e9"));
    assert_eq!(moves_from(&pos, "e8").len(), 23 + 2, "the other 23 wall squares and two steps");
    assert_eq!(after(text, "e8-e7").to_string(), "9/9/4W4/9/9/9/9/9/B8 B");
    let err = pos.parse_move("e8-e6").expect_err("climbing down is one step");
    assert!(err.to_string().contains("climbs down"), "{err}");
}

#[test]
fn climb_down_onto_an_enemy_captures() {
    let text = "9/4W4/4B4/9/9/9/9/9/B8 W";
    assert_eq!(after(text, "e8-e7").to_string(), "9/9/4W4/9/9/9/9/9/B8 B");
}

#[test]
fn slide_into_the_bazaar_wins_at_once() {
    // White c5, Black g5: c5 reaches d5 and e5, never crosses to f5.
    let text = "B8/9/9/9/2W3B2/9/9/9/9 W";
    let pos = position(text);
    assert_eq!(moves_from(&pos, "c5"), sorted("c5-b5 c5-c3 c5-c4 c5-c6 c5-c7 c5-d5 c5-e5"));
    let won = after(text, "c5-e5");
    assert_eq!(won.to_string(), "B8/9/9/9/4W1B2/9/9/9/9 B");
    assert_eq!(won.outcome(), Some(Outcome::win(Player::First, "bazaar reached")));
    assert!(won.legal_moves().is_empty());
    // Black's g5 could capture at once, but there is no reply.
    assert!(won.parse_move("g5-e5").is_err());
}

#[test]
fn a_slide_cannot_cross_the_bazaar() {
    let pos = position("B8/9/9/9/9/4W4/9/9/9 W");
    assert_eq!(moves_from(&pos, "e4").iter().filter(|m| m.ends_with('6')).count(), 0);
    let err = pos.parse_move("e4-e6").expect_err("e5 is in the way");
    assert!(err.to_string().contains("bazaar"), "{err}");
}

#[test]
fn capturing_the_last_pawn_wins() {
    let won = after("B8/9/9/9/9/9/9/9/W8 W", "a1-a9");
    assert_eq!(won.to_string(), "W8/9/9/9/9/9/9/9/9 B");
    assert_eq!(won.outcome(), Some(Outcome::win(Player::First, "all pawns captured")));
    assert!(won.legal_moves().is_empty());
}

#[test]
fn black_wins_the_same_ways() {
    let won = after("9/9/9/4B4/9/9/9/9/W8 B", "e6-e5");
    assert_eq!(won.outcome(), Some(Outcome::win(Player::Second, "bazaar reached")));
    let won = after("B8/9/9/9/9/9/9/9/W8 B", "a9-a1");
    assert_eq!(won.outcome(), Some(Outcome::win(Player::Second, "all pawns captured")));
}

#[test]
fn set_ups_are_symmetric_and_have_the_spec_counts() {
    for (variant, count, text) in [
        (Variant::Eight, 8, "BBBB1BBBB/9/9/9/9/9/9/9/WWWW1WWWW W"),
        (Variant::Sixteen, 16, "BBBB1BBBB/9/2BB1WW2/2WW1BB2/9/2WW1BB2/2BB1WW2/9/WWWW1WWWW W"),
        (
            Variant::TwentyTwo,
            22,
            "BBBB1BBBB/1BB3BB1/1BBB1WWB1/2WW1BB2/9/2WW1BB2/1WBB1WWW1/1WW3WW1/WWWW1WWWW W",
        ),
        (
            Variant::TwentyFour,
            24,
            "BBBB1BBBB/1BBB1BBB1/1BBB1WWB1/2WW1BB2/9/2WW1BB2/1WBB1WWW1/1WWW1WWW1/WWWW1WWWW W",
        ),
    ] {
        let start = Position::start(variant);
        assert_eq!(start.to_string(), text, "variant {variant}");
        assert_eq!(start.pawn_count(Player::First), count);
        assert_eq!(start.pawn_count(Player::Second), count);
        for sq in start.pawns(Player::First) {
            let turned = Square::new(8 - sq.file(), 8 - sq.rank()).expect("on the board");
            assert_eq!(start.piece_at(turned), Some(Player::Second), "{variant}: {sq}");
        }
    }
}

#[test]
fn variants_are_the_spec_names_with_16c_the_default() {
    assert_eq!(Variant::NAMES, ["16c", "8c", "22c", "24c", "16", "8", "22", "24"]);
    assert_eq!(
        Variant::ALL,
        [
            Variant::SixteenC,
            Variant::EightC,
            Variant::TwentyTwoC,
            Variant::TwentyFourC,
            Variant::Sixteen,
            Variant::Eight,
            Variant::TwentyTwo,
            Variant::TwentyFour
        ]
    );
    assert_eq!(Game::variant(&Position::default()), Variant::SixteenC);
    assert_eq!(Variant::default(), Variant::SixteenC);
    let start = Position::start(Variant::Sixteen).to_string();
    assert_eq!(start.parse::<Position>().map(|p| Game::variant(&p)), Ok(Variant::SixteenC));
    // Each playable variant has the set-up of its literal one.
    for (playable, literal) in [
        (Variant::SixteenC, Variant::Sixteen),
        (Variant::EightC, Variant::Eight),
        (Variant::TwentyTwoC, Variant::TwentyTwo),
        (Variant::TwentyFourC, Variant::TwentyFour),
    ] {
        assert_eq!(playable.to_string(), format!("{literal}c"));
        assert_eq!(playable.rules(), Rules::Playable);
        assert_eq!(literal.rules(), Rules::Literal);
        assert_eq!(playable.pawns_per_side(), literal.pawns_per_side());
        assert_eq!(Position::start(playable).to_string(), Position::start(literal).to_string());
        assert_ne!(Position::start(playable), Position::start(literal), "the variant differs");
    }
}

#[test]
fn spec_line_in_16_ends_with_white_on_the_bazaar_on_ply_eleven() {
    let line = "f3-f4 d7-e7 f7-e7 c7-e7 g7-e7 f6-e6 d6-e6 g6-e6 c6-e6 c3-c4 e6-e5";
    let mut pos = Position::start(Variant::Sixteen);
    for (ply, mv) in line.split(' ').enumerate() {
        assert!(pos.outcome().is_none(), "over before ply {}", ply + 1);
        if let Err(e) = pos.play_text(mv) {
            panic!("ply {} {mv} in {pos}: {e}", ply + 1);
        }
    }
    assert_eq!(pos.outcome(), Some(Outcome::win(Player::First, "bazaar reached")));
}

#[test]
fn nobody_is_ever_stuck_while_holding_a_pawn() {
    // Every adjacent square is one move away, so a side is stuck only if its
    // pawns fill a set closed under adjacency: the whole board. A dense
    // 24-pawn block in a corner still moves.
    let pos = Position::from_text("B8/9/9/9/9/WWWWW4/WWWWW4/WWWWW4/WWWWW4 W", Variant::TwentyFour)
        .expect("valid");
    assert!(pos.outcome().is_none());
    assert!(!pos.legal_moves().is_empty());
}

#[test]
fn set_ups_are_exactly_the_spec_square_lists() {
    // The rules' lists, copied verbatim for both colours (not derived by
    // turning White's squares).
    let base = ("a1 b1 c1 d1 f1 g1 h1 i1", "a9 b9 c9 d9 f9 g9 h9 i9");
    let town = ("c4 d4 f3 g3 c6 d6 f7 g7", "c3 d3 f4 g4 c7 d7 f6 g6");
    let corners = ("b2 c2 b3 h2 g2 h3", "h8 g8 h7 b8 c8 b7");
    let two = ("d2 f2", "f8 d8");
    let join = |parts: &[(&str, &str)]| {
        let white: Vec<&str> = parts.iter().map(|p| p.0).collect();
        let black: Vec<&str> = parts.iter().map(|p| p.1).collect();
        (sorted(&white.join(" ")), sorted(&black.join(" ")))
    };
    for (variant, lists) in [
        (Variant::Eight, join(&[base])),
        (Variant::Sixteen, join(&[base, town])),
        (Variant::TwentyTwo, join(&[base, town, corners])),
        (Variant::TwentyFour, join(&[base, town, corners, two])),
    ] {
        let start = Position::start(variant);
        assert_eq!(start.side_to_move(), Player::First, "White moves first in {variant}");
        let squares = |player| {
            let mut names: Vec<String> = start.pawns(player).map(|s| s.to_string()).collect();
            names.sort();
            names
        };
        assert_eq!(squares(Player::First), lists.0, "White in {variant}");
        assert_eq!(squares(Player::Second), lists.1, "Black in {variant}");
    }
    // The 16 set-up leaves the cross through e5 empty.
    let start = Position::start(Variant::Sixteen);
    for name in ["e3", "e4", "e5", "e6", "e7", "c5", "d5", "f5", "g5"] {
        let square: Square = name.parse().expect("square");
        assert_eq!(start.piece_at(square), None, "{name}");
    }
    assert_eq!(Position::default(), Position::start(Variant::SixteenC));
}

#[test]
fn town_pawn_climb_captures_and_ends_the_move() {
    // White c3 in the town corner; Black on the wall at b3 (and a9). The climb
    // onto b3 captures; it cannot go on along the wall (b4, b2), over it (a3)
    // or down again (c2 is a separate climb).
    let text = "B8/9/9/9/9/9/1BW6/9/9 W";
    let pos = position(text);
    assert_eq!(
        moves_from(&pos, "c3"),
        sorted("c3-b3 c3-c2 c3-c4 c3-c5 c3-c6 c3-c7 c3-d3 c3-e3 c3-f3 c3-g3")
    );
    assert_eq!(after(text, "c3-b3").to_string(), "B8/9/9/9/9/9/1W7/9/9 B");
    for illegal in ["c3-a3", "c3-b4", "c3-b2", "c3-c1", "c3-d2"] {
        assert!(pos.parse_move(illegal).is_err(), "{illegal} must be illegal");
    }
    let err = pos.parse_move("c3-b4").expect_err("a climb is one step").to_string();
    assert!(err.contains("climbs onto the wall only from an adjacent square"), "{err}");
}

#[test]
fn outside_pawn_climbs_only_where_the_wall_is_adjacent() {
    // a1 touches no wall square; a2 touches b2; i5 touches h5.
    let pos = position("B8/9/9/9/8W/9/9/W8/W8 W");
    assert!(moves_from(&pos, "a1").iter().all(|m| !m.ends_with("b2")));
    assert_eq!(moves_from(&pos, "a1"), sorted("a1-b1 a1-c1 a1-d1 a1-e1 a1-f1 a1-g1 a1-h1 a1-i1"));
    assert!(moves_from(&pos, "a2").contains(&"a2-b2".to_owned()));
    assert!(moves_from(&pos, "i5").contains(&"i5-h5".to_owned()));
    assert!(pos.parse_move("i5-g5").is_err(), "no climbing over the wall into the town");
}

#[test]
fn climb_down_to_the_outside_ends_the_move() {
    // White b5 on the wall (Black i9): down to a5 only, not along a4/a6 or a
    // slide on from a5.
    let text = "8B/9/9/9/1W7/9/9/9/9 W";
    let pos = position(text);
    let off_wall: Vec<String> = moves_from(&pos, "b5")
        .into_iter()
        .filter(|m| m[3..].parse::<Square>().is_ok_and(|to| to.zone() != Zone::Wall))
        .collect();
    assert_eq!(off_wall, sorted("b5-a5 b5-c5"));
    assert_eq!(after(text, "b5-a5").to_string(), "8B/9/9/9/W8/9/9/9/9 B");
    for illegal in ["b5-a4", "b5-a6", "b5-a1", "b5-d5", "b5-e5"] {
        assert!(pos.parse_move(illegal).is_err(), "{illegal} must be illegal");
    }
}

#[test]
fn along_the_wall_every_way_round_a_corner_is_one_move_per_square() {
    // White h2 alone on the wall with Black h8 on the far corner: h8 is
    // reached both ways (round two corners each way) and is one capture.
    let text = "9/7B1/9/9/9/9/9/7W1/9 W";
    let pos = position(text);
    let wall: Vec<String> = moves_from(&pos, "h2")
        .into_iter()
        .filter(|m| m[3..].parse::<Square>().is_ok_and(|to| to.zone() == Zone::Wall))
        .collect();
    assert_eq!(wall.len(), 23, "{wall:?}");
    assert_eq!(wall.iter().filter(|m| *m == "h2-h8").count(), 1);
    assert_eq!(pos.legal_moves().len(), 23 + 2, "and the climbs down h1, i2");
    // The capture of Black's only pawn by a wall move wins.
    let won = after(text, "h2-h8");
    assert_eq!(won.outcome(), Some(Outcome::win(Player::First, "all pawns captured")));
}

#[test]
fn spec_notation_examples_are_legal_moves() {
    // d1-d2 (climb), d2-d3 (climb down), c2-h5 (along the wall), a1-a9
    // (a slide capturing on a9), each in a position where it is legal.
    let mut pos = position("B8/9/9/9/9/9/9/2W6/W2W5 W");
    for (mv, reply) in [("d1-d2", "a9-a8"), ("d2-d3", "a8-a9"), ("c2-h5", "a9-a8")] {
        pos.play_text(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        pos.play_text(reply).unwrap_or_else(|e| panic!("{reply}: {e}"));
    }
    let before = pos.pawn_count(Player::Second);
    pos.play_text("a1-a8").expect("a slide that captures");
    assert_eq!(pos.pawn_count(Player::Second), before - 1);
    let start = Position::start(Variant::Eight);
    let mut capture = start;
    capture.play_text("a1-a9").expect("the worked check's capture a1-a9");
    assert_eq!(capture.pawn_count(Player::Second), 7);
}
