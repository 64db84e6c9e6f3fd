//! The perfect-play table against positions built by hand, against a brute
//! force search of the rules for short results, and against itself: every
//! value is the best over the position's moves.

use std::sync::OnceLock;

use board_core::{EndgameTable, Game, Player, Proven, Rng};
use otrazhenie::{Position, Setup, Tablebase, Variant};

/// The table, built once for this test binary and shared by its tests.
fn table() -> &'static Tablebase {
    static TABLE: OnceLock<Tablebase> = OnceLock::new();
    TABLE.get_or_init(Tablebase::build)
}

fn pos(text: &str) -> Position {
    text.parse::<Position>().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn children(pos: &Position) -> Vec<(String, Position)> {
    pos.legal_moves()
        .into_iter()
        .map(|mv| {
            let mut child = *pos;
            child.play_unchecked(mv);
            (mv.to_string(), child)
        })
        .collect()
}

/// From the rules alone: the side to move can end the game (leave the
/// opponent without checkers or moves) within `plies` of its own plies and
/// the opponent's, whatever the opponent does.
fn wins_within(pos: &Position, plies: u32) -> bool {
    plies >= 1
        && children(pos).iter().any(|(_, child)| child.is_over() || loses_within(child, plies - 1))
}

/// From the rules alone: the side to move has lost, or loses within `plies`.
fn loses_within(pos: &Position, plies: u32) -> bool {
    pos.is_over()
        || (plies >= 2 && children(pos).iter().all(|(_, child)| wins_within(child, plies - 1)))
}

fn value(text: &str) -> Proven {
    table().value(&pos(text))
}

#[test]
fn terminal_positions_are_lost_now() {
    // White's last checker is gone.
    let none_left = pos("8/8/8/8/8/8/8/B7 w");
    assert_eq!(table().value(&none_left), Proven::Loss(0));
    assert!(none_left.is_over());
    // White's lone checker on a1 is walled in by b1 and a2: no move at all.
    let walled = pos("8/8/8/8/8/8/B7/WB6 w");
    assert_eq!(walled.outcome().map(|o| o.winner), Some(Some(Player::Second)));
    assert_eq!(table().value(&walled), Proven::Loss(0));
    // What search sees through the endgame-table trait: the same, never `None`.
    let endgame: &dyn EndgameTable<Position> = table();
    assert_eq!(endgame.probe(&walled), Some(Proven::Loss(0)));
    assert_eq!(endgame.probe(&none_left), Some(Proven::Loss(0)));
}

#[test]
fn a_capture_of_the_last_checker_is_a_win_in_1() {
    // a1 slides to h1 and reflects up-left through g2, f3, e4 onto d5.
    assert_eq!(value("8/8/8/3B4/8/8/8/W7 w"), Proven::Win(1));
    // Not there without the reflection: h1 is taken, so no capture at all.
    assert_ne!(value("8/8/8/3B4/8/8/8/W6B w"), Proven::Win(1));
}

#[test]
fn a_lone_checker_next_to_two_enemies_loses_in_2() {
    // White b7 against Black c7 and b6. White's four moves, each answered by a
    // capture of its last checker:
    // - b7-a7xb6 (slide to a7, reflect down-right): c7-a7xb6.
    // - b7-b8xc7 (slide to b8, reflect down-right): b6-b8xc7.
    // - b7-a7: b6-b8xa7 (slide to b8, reflect down-left).
    // - b7-b8: c7-a7xb8 (slide to a7, reflect up-right).
    let text = "8/1WB5/1B6/8/8/8/8/8 w";
    let moves: Vec<String> = children(&pos(text)).into_iter().map(|(mv, _)| mv).collect();
    assert_eq!(moves.len(), 4, "{moves:?}");
    for (mv, child) in children(&pos(text)) {
        assert_eq!(table().value(&child), Proven::Win(1), "after {mv}");
    }
    assert_eq!(value(text), Proven::Loss(2));
    assert!(loses_within(&pos(text), 2) && !loses_within(&pos(text), 0));
    // The same with colours swapped is the same loss for Black.
    assert_eq!(value("8/1BW5/1W6/8/8/8/8/8 b"), Proven::Loss(2));
}

#[test]
fn a_quiet_move_that_leaves_no_defence_is_a_win_in_3() {
    // White c6 and d6 against a lone Black c5: no capture at hand, but a quiet
    // move leaves Black only moves that lose at once.
    let text = "8/8/2WW4/2B5/8/8/8/8 w";
    assert_eq!(value(text), Proven::Win(3));
    assert!(wins_within(&pos(text), 3) && !wins_within(&pos(text), 1));
    // Loss in 4: every move of White b7 (with Black d7 and b3) loses within
    // four plies, and some not within two.
    let text = "8/1W1B4/8/8/8/1B6/8/8 w";
    assert_eq!(value(text), Proven::Loss(4));
    assert!(loses_within(&pos(text), 4) && !loses_within(&pos(text), 2));
}

#[test]
fn the_start_is_a_draw() {
    assert_eq!(value(otrazhenie::START_TEXT), Proven::Draw);
    // Nothing is forced within five plies either way.
    let start = Position::default();
    assert!(!wins_within(&start, 5) && !loses_within(&start, 4));
    // Two lone checkers far apart: a draw as well.
    assert_eq!(value("8/8/8/8/4B3/8/3W4/8 w"), Proven::Draw);
}

/// A random legal position with 1 or 2 checkers a side (or none for the
/// side to move), either side to move.
fn random_position(rng: &mut Rng) -> Position {
    loop {
        let mut board = [None; 64];
        let side_to_move = if rng.below(2) == 0 { Player::First } else { Player::Second };
        let mover = rng.below(3);
        let other = 1 + rng.below(2);
        let mut placed = 0;
        while placed < mover + other {
            let sq = rng.below(64);
            if board[sq].is_none() {
                let owner = if placed < mover { side_to_move } else { side_to_move.other() };
                board[sq] = Some(owner);
                placed += 1;
            }
        }
        if let Ok(pos) = Position::from_setup(Setup { board, side_to_move }, Variant::Standard) {
            return pos;
        }
    }
}

#[test]
fn every_value_is_the_best_over_the_moves_and_ends_match_the_rules() {
    let table = table();
    let mut rng = Rng::new(14);
    let mut seen = [0; 3];
    for _ in 0..50_000 {
        let pos = random_position(&mut rng);
        assert!(table.agrees_with_children(&pos), "{pos}: {:?}", table.value(&pos));
        let value = table.value(&pos);
        assert_eq!(pos.is_over(), value == Proven::Loss(0), "{pos}");
        seen[match value {
            Proven::Win(_) => 0,
            Proven::Draw => 1,
            Proven::Loss(_) => 2,
        }] += 1;
        // Odd distances win, even ones lose: the winner moves last.
        match value {
            Proven::Win(d) => assert_eq!(d % 2, 1, "{pos}"),
            Proven::Loss(d) => assert_eq!(d % 2, 0, "{pos}"),
            Proven::Draw => {}
        }
    }
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
}

/// Every 16th position in a debug run, every one under `cargo test --release`.
const STRIDE: u64 = if cfg!(debug_assertions) { 16 } else { 1 };

/// Every entry agrees with its children, which proves the table right
/// (given the move generator): the distances force each win and loss down to
/// a finished position, and a draw with a won child would not agree.
#[test]
fn the_whole_table_agrees_with_its_children() {
    let table = table();
    let mut checked = 0u64;
    for_every_position(|pos| {
        if checked.is_multiple_of(STRIDE) {
            assert!(table.agrees_with_children(pos), "{pos}: {:?}", table.value(pos));
        }
        checked += 1;
    });
    let census = table.census();
    assert_eq!(checked, census.iter().sum::<u64>());
    // The longest forced result, and the split of the 4.07 million positions.
    assert_eq!(table.longest(), 21);
    assert_eq!(census, [248_544, 3_813_328, 4_400]);
}

/// Calls `visit` with every position with White to move and at least one
/// checker a side (Black to move is the same table with colours swapped).
fn for_every_position(mut visit: impl FnMut(&Position)) {
    let sets: Vec<Vec<usize>> = (0..64)
        .map(|a| vec![a])
        .chain((0..64).flat_map(|a| (a + 1..64).map(move |b| vec![a, b])))
        .collect();
    for white in &sets {
        for black in sets.iter().filter(|black| black.iter().all(|sq| !white.contains(sq))) {
            let mut board = [None; 64];
            white.iter().for_each(|&sq| board[sq] = Some(Player::First));
            black.iter().for_each(|&sq| board[sq] = Some(Player::Second));
            let setup = Setup { board, side_to_move: Player::First };
            match Position::from_setup(setup, Variant::Standard) {
                Ok(pos) => visit(&pos),
                Err(e) => panic!("{e}"),
            }
        }
    }
}
