//! One test per rule and per worked example of the rules (`RULES.md`), each on a small
//! constructed position, asserting the exact moves or the exact result.

use board_core::{Game, MoveError, Player};
use stykovka::Position;

/// A position from its 8 ranks (8 down to 1, `.` empty) and the side to move.
fn position(ranks: [&str; 8], side: &str) -> Position {
    let text = format!("{} {side}", ranks.join("/"));
    text.parse::<Position>().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The legal moves starting on `from`, sorted, as text.
fn moves_from(pos: &Position, from: &str) -> Vec<String> {
    let mut moves: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .filter(|m| m.split('-').next() == Some(from))
        .collect();
    moves.sort();
    moves
}

fn illegal_reason(pos: &Position, text: &str) -> String {
    match pos.parse_move(text) {
        Ok(mv) => panic!("{text} was accepted as {mv} in {pos}"),
        Err(MoveError::Syntax(e)) => panic!("{text} is a syntax error: {e}"),
        Err(MoveError::Illegal(e)) => e.to_string(),
    }
}

fn after(pos: &Position, text: &str) -> Position {
    let mut next = *pos;
    next.play_text(text).unwrap_or_else(|e| panic!("{text} in {pos}: {e}"));
    next
}

fn result(pos: &Position) -> Option<(Option<Player>, &'static str)> {
    pos.outcome().map(|o| (o.winner, o.reason))
}

#[test]
fn start_position_is_the_lines_of_action_interpretation() {
    let start = Position::default();
    assert_eq!(start.to_string(), "2WWWW2/8/B6B/B6B/B6B/B6B/8/2WWWW2 w");
    assert_eq!(start.side_to_move(), Player::First);
    assert_eq!(start.checkers(Player::First).count_ones(), 8);
    assert_eq!(start.checkers(Player::Second).count_ones(), 8);
    assert_eq!(start.outcome(), None);
    // The rules' example from the start: c1 and the Black checker on a3 make 2
    // on the line ahead, and a3 can retreat to e7.
    assert!(start.legal_moves().iter().any(|m| m.to_string() == "c1-a3/e7"));
}

/// Rules 1, 2 and 4: 8 directions, distance = checkers ahead + 1, never onto an own checker.
#[test]
fn distance_counts_only_the_checkers_ahead() {
    let pos = position(
        [
            "......B.", "...WB..B", "..W.....", "B.....BW", "...W....", ".....B..", "W.BW...W",
            ".B...W..",
        ],
        "w",
    );
    // North: only d7 is ahead (d2 behind does not count): 2 squares, to d6.
    // South: only d2 is ahead: 2 squares, onto the own checker on d2: refused.
    // Every other direction is empty ahead: 1 square.
    assert_eq!(
        moves_from(&pos, "d4"),
        ["d4-c3", "d4-c4", "d4-c5", "d4-d6", "d4-e3", "d4-e4", "d4-e5"]
    );
    assert!(illegal_reason(&pos, "d4-d2").contains("d2 holds a White checker"));
    assert!(
        illegal_reason(&pos, "d4-d7")
            .contains("moves exactly 2 squares that way (1 checker ahead, plus itself)")
    );
    assert!(illegal_reason(&pos, "d4-d5").contains("to d6, not 1"));
    assert!(illegal_reason(&pos, "d4-f5").contains("not on one straight line"));
    assert!(illegal_reason(&pos, "e7-e6").contains("no White checker on e7"));
    assert_eq!(after(&pos, "d4-d6").to_string(), "6B1/3WB2B/2WW4/B5BW/8/5B2/W1BW3W/1B3W2 b");
}

/// Rule 3: over own checkers, never over an enemy checker.
#[test]
fn passes_over_own_checkers_but_not_over_enemy_ones() {
    let pos = position(
        [
            "...W..B.", "....B...", "..WB....", "B.....BW", "...WW...", ".....B..", "W.B....W",
            ".B...W..",
        ],
        "w",
    );
    // East: e4 is ahead, so 2 squares, over the own e4 to f4.
    // North: d6 and d8 ahead, so 3 squares to d7, over the Black d6: refused.
    assert_eq!(
        moves_from(&pos, "d4"),
        ["d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-e3", "d4-e5", "d4-f4"]
    );
    assert!(illegal_reason(&pos, "d4-d7").contains("pass over the Black checker on d6"));
}

/// Rule 2 and the edge: a move whose distance leaves the board does not exist.
#[test]
fn a_move_may_not_leave_the_board() {
    let pos = position(
        [
            "B.B.B.B.", "........", ".B.B.B.B", ".W......", "........", "........", ".WWWWWWW",
            "........",
        ],
        "w",
    );
    // b2 east: c2..h2 ahead, 7 squares: off the board. North: b5 and b6 ahead,
    // 3 squares onto the own b5. North-east: f6 ahead, 2 squares to d4.
    assert_eq!(moves_from(&pos, "b2"), ["b2-a1", "b2-a2", "b2-a3", "b2-b1", "b2-c1", "b2-d4"]);
    assert!(illegal_reason(&pos, "b2-h2").contains("leaves the board"));
    // h2 west: g2..b2 ahead, 7 squares, over own checkers to a2.
    assert!(moves_from(&pos, "h2").contains(&"h2-a2".to_owned()));
}

/// The start position from Black's side: a3 moves 4 squares north over its
/// own checkers, and docks on c1 to the south-east.
#[test]
fn moves_from_the_start_position() {
    let pos = "2WWWW2/8/B6B/B6B/B6B/B6B/8/2WWWW2 b".parse::<Position>().unwrap();
    assert_eq!(moves_from(&pos, "a3"), ["a3-a2", "a3-a7", "a3-c1/g5", "a3-c3", "a3-c5"]);
}

/// Rule 5, the rules' example `c1-e3/a7`: retreat to the north-west; and the
/// short notation without the retreat square.
#[test]
fn docking_displaces_the_enemy_checker_north_west() {
    let pos = position(
        [
            "BBBBBBB.", "........", "........", "....W..W", "........", "W.W.B.W.", "........",
            "W.W...W.",
        ],
        "w",
    );
    assert_eq!(moves_from(&pos, "c1"), ["c1-c4", "c1-e1", "c1-e3/a7"]);
    let short = pos.parse_move("c1-e3").expect("the retreat square may be left out");
    assert_eq!(short.to_string(), "c1-e3/a7");
    assert!(illegal_reason(&pos, "c1-e3/b6").contains("retreats to a7, not b6"));
    assert!(illegal_reason(&pos, "c1-e1/a5").contains("nothing to displace"));
    let next = after(&pos, "c1-e3/a7");
    assert_eq!(next.to_string(), "BBBBBBB1/B7/8/4W2W/8/W1W1W1W1/8/W5W1 b");
}

/// Rule 5, the rules' swap example `h8-d4/h8`: retreat to the north-east,
/// through the mover's origin.
#[test]
fn docking_swaps_through_the_movers_origin_north_east() {
    let pos = position(
        [
            "B.B.B..W", "........", "W.W.....", "........", "W..B...B", "..W...W.", ".B..B..B",
            "....W.W.",
        ],
        "w",
    );
    // South-west from h8: d4, c3 and b2 ahead, so 4 squares, onto d4.
    assert!(moves_from(&pos, "h8").contains(&"h8-d4/h8".to_owned()));
    let next = after(&pos, "h8-d4/h8");
    assert_eq!(next.to_string(), "B1B1B2B/8/W1W5/8/W2W3B/2W3W1/1B2B2B/4W1W1 b");
}

/// Rule 5: retreat to the south-east.
#[test]
fn docking_displaces_south_east() {
    let pos = position(
        [
            "...B.B..", ".B.....W", "........", ".W.....W", "........", "B.B.B.BW", "........",
            "W.W.W.WB",
        ],
        "w",
    );
    assert!(moves_from(&pos, "b5").contains(&"b5-b7/f3".to_owned()));
    assert_eq!(after(&pos, "b5-b7").to_string(), "3B1B2/1W5W/8/7W/8/B1B1BBBW/8/W1W1W1WB b");
}

/// Rule 5: retreat to the south-west.
#[test]
fn docking_displaces_south_west() {
    let pos = position(
        [
            ".B.B..W.", "........", "W...B.B.", "..B.....", "W......B", "......W.", ".B..B...",
            "W.W.W..W",
        ],
        "w",
    );
    assert!(moves_from(&pos, "g3").contains(&"g3-g6/c2".to_owned()));
    assert_eq!(after(&pos, "g3-g6").to_string(), "1B1B2W1/8/W3B1W1/2B5/W6B/8/1BB1B3/W1W1W2W b");
}

/// Rule 5: no diagonal with 4 empty squares, no landing.
#[test]
fn docking_is_refused_without_a_free_diagonal() {
    // As the north-west example, but d4 is taken: e3's only long diagonal is blocked.
    let pos = position(
        [
            "BBBBBBB.", "........", "........", ".......W", "...W....", "W.W.B.W.", "........",
            "W.W...W.",
        ],
        "w",
    );
    assert_eq!(moves_from(&pos, "c1"), ["c1-c4", "c1-e1"]);
    assert!(illegal_reason(&pos, "c1-e3").contains("cannot be displaced"));
}

/// End check 1: an opponent checker is crashed, the mover wins.
#[test]
fn crashing_an_enemy_checker_wins() {
    let pos = position(
        [
            ".B.B..B.", "W.......", "....W...", "...WBW..", "B.B....B", "........", "..W...B.",
            "W...W..W",
        ],
        "w",
    );
    assert_eq!(pos.outcome(), None);
    // e1 north: e5 and e6 ahead, 3 squares to e4, closing e5 in.
    let next = after(&pos, "e1-e4");
    assert_eq!(result(&next), Some((Some(Player::First), "crash")));
    assert!(next.legal_moves().is_empty());
}

/// End check 2: one of the mover's own checkers is crashed, the mover loses.
#[test]
fn moving_into_a_crash_loses() {
    let pos = position(
        [
            "W.W..B..", "...B...W", "........", ".W..B...", "...B.B..", "B...B..B", "..W...W.",
            "W......W",
        ],
        "w",
    );
    let next = after(&pos, "c2-e4");
    assert_eq!(result(&next), Some((Some(Player::Second), "crash")));
}

/// End checks 1 before 2: both crash at once, the mover wins.
#[test]
fn the_enemy_crash_is_checked_before_the_own_crash() {
    let pos = position(
        [
            "W.W..B..", "...B....", "........", "....BW..", "...B.BW.", "B...BW.B", "..W.....",
            "W......W",
        ],
        "w",
    );
    let next = after(&pos, "c2-e4");
    assert_eq!(result(&next), Some((Some(Player::First), "crash")));
}

/// End check 3: the mover docks and wins.
#[test]
fn docking_all_eight_checkers_wins() {
    let pos = position(
        [
            "B.B.B.B.", "........", ".B.B.B.B", ".W......", "........", "........", ".WWWWWWW",
            "........",
        ],
        "w",
    );
    assert_eq!(
        moves_from(&pos, "b5"),
        ["b5-a4", "b5-a5", "b5-a6", "b5-b3", "b5-c5", "b5-d3", "b5-d7"]
    );
    let next = after(&pos, "b5-b3");
    assert_eq!(result(&next), Some((Some(Player::First), "docking")));
}

/// End checks 3 before 4: the mover's docking displacement also docks the
/// opponent; the mover wins.
#[test]
fn the_movers_docking_is_checked_before_the_opponents() {
    let pos = position(
        [
            "BBBBBBB.", "........", "........", "........", "........", "....BWWW", ".......W",
            "..W..WWW",
        ],
        "w",
    );
    let next = after(&pos, "c1-e3/a7");
    assert_eq!(result(&next), Some((Some(Player::First), "docking")));
}

/// End check 4: a displacement completes the opponent's group; the opponent wins.
#[test]
fn a_displacement_can_dock_the_opponent() {
    let pos = position(
        [
            "BBBBBBB.", "........", "........", "....W..W", "........", "W.W.B.W.", "........",
            "W.W...W.",
        ],
        "w",
    );
    let next = after(&pos, "c1-e3/a7");
    assert_eq!(result(&next), Some((Some(Player::Second), "docking")));
}

/// A position text is judged as if the side not to move had just moved.
#[test]
fn a_constructed_position_is_judged_for_the_side_that_just_moved() {
    // Both sides docked: the player who just moved (Black, as White is to
    // move) wins by end check 3.
    let ranks = [
        "BBBBBBBB", "........", "........", "........", "........", "........", "........",
        "WWWWWWWW",
    ];
    assert_eq!(result(&position(ranks, "w")), Some((Some(Player::Second), "docking")));
    assert_eq!(result(&position(ranks, "b")), Some((Some(Player::First), "docking")));
}

/// Checkers on the edge never crash; only enemy checkers lock a ship in.
#[test]
fn edge_checkers_and_own_neighbours_do_not_crash() {
    // White a4 has Black on a5, a3 and b4 (and no fourth square); White e5 has
    // Black on d5, f5, e6 and its own e4.
    let pos = position(
        [
            ".......B", ".B......", "....B...", "B..BWB..", "WB..W...", "B......W", "..W...W.",
            "W...W...",
        ],
        "w",
    );
    assert_eq!(pos.outcome(), None);
}

/// Rule 6: a player with no legal move passes.
#[test]
fn a_player_without_a_move_passes() {
    // White is stuck: a1 and h1 would pass over or land on Black checkers that
    // cannot retreat (h5's diagonal is blocked by d1, d1's by h5), and so on.
    let pos = position(
        [
            "W...B.WW", "......BW", "........", "...B...B", "B...B...", "........", "WB......",
            "WW.B...W",
        ],
        "w",
    );
    assert_eq!(pos.legal_moves().iter().map(ToString::to_string).collect::<Vec<_>>(), ["pass"]);
    assert!(illegal_reason(&pos, "h1-h5").contains("cannot be displaced"));
    let next = after(&pos, "pass");
    assert_eq!(next.to_string(), "W3B1WW/6BW/8/3B3B/B3B3/8/WB6/WW1B3W b");
    assert_eq!(next.outcome(), None);
    assert_eq!(next.legal_moves().len(), 42);
    // A player with a move may not pass.
    assert!(illegal_reason(&next, "pass").contains("Black has a move, so cannot pass"));
}

/// Rule 5: the retreat may run through the mover's origin (counted empty)
/// without ending on it: g7 moves 3 squares (d4 and c3 ahead) onto d4, whose
/// checker retreats north-east over e5, f6 and the vacated g7 to h8.
#[test]
fn the_retreat_may_run_through_the_movers_origin() {
    let pos = position(
        [
            "WWB.B...", "......W.", ".B......", "W.....BB", "...B....", "B.W.....", ".......W",
            "....WB.W",
        ],
        "w",
    );
    assert!(moves_from(&pos, "g7").contains(&"g7-d4/h8".to_owned()));
    assert_eq!(after(&pos, "g7-d4").to_string(), "WWB1B2B/8/1B6/W5BB/3W4/B1W5/7W/4WB1W b");
}

/// End checks 1 before 3: the move that completes White's ring of 8 (docked)
/// also closes in the Black b2 (crashed); the reason is the crash.
#[test]
fn the_enemy_crash_is_checked_before_the_own_docking() {
    let pos = position(
        [
            "...B.B.B", "........", ".....B.B", "........", "....W..B", "WWW.....", "WB......",
            "WWW...B.",
        ],
        "w",
    );
    assert_eq!(pos.outcome(), None);
    // e4 south-west: only b1 ahead, 2 squares to c2.
    let next = after(&pos, "e4-c2");
    assert_eq!(result(&next), Some((Some(Player::First), "crash")));
}

/// End checks 2 before 4: White's displacement sends the Black g6 to c2,
/// which both completes Black's ring of 8 (docked) and closes in the White
/// b2 (crashed); Black wins, and the reason is the crash.
#[test]
fn the_own_crash_is_checked_before_the_opponents_docking() {
    let pos = position(
        [
            "...WWWWW", "........", "....W.B.", "........", ".......W", "BBB.....", "BW......",
            "BBB.....",
        ],
        "w",
    );
    assert_eq!(pos.outcome(), None);
    // g8 south: only g6 ahead, 2 squares onto g6, which retreats to c2.
    let next = after(&pos, "g8-g6/c2");
    assert_eq!(result(&next), Some((Some(Player::Second), "crash")));
}
