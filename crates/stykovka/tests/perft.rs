//! Checks every entry of `tests/data/perft.txt`, and that the mid-game
//! positions are the ones their recorded move lists reach.

use board_core::Game;
use board_core::perft::perft;
use board_core::testkit;
use stykovka::Position;

const TABLE: &str = include_str!("data/perft.txt");

/// The table's entries: position and `(depth, nodes)` pairs.
fn entries() -> Vec<(Position, Vec<(u32, u64)>)> {
    testkit::perft_table::<Position>(TABLE).into_iter().map(|e| (e.position, e.counts)).collect()
}

#[test]
fn perft_table() {
    let entries = entries();
    assert_eq!(entries.len(), 6);
    for (pos, counts) in entries {
        for (depth, nodes) in counts {
            assert_eq!(pos.perft(depth), nodes, "perft({depth}) of {pos}");
            if nodes <= 100_000 {
                assert_eq!(perft(&pos, depth), nodes, "generic perft({depth}) of {pos}");
            }
        }
    }
}

#[test]
fn mid_game_positions_follow_their_move_lists() {
    let mut lines =
        TABLE.lines().map(str::trim).skip_while(|l| !l.starts_with("# Mid-game")).skip(1);
    let mut checked = 0;
    while let (Some(moves), Some(entry)) = (lines.next(), lines.next()) {
        let mut pos = Position::default();
        for mv in moves.trim_start_matches('#').split_whitespace() {
            pos.play_text(mv).unwrap_or_else(|e| panic!("{mv} in {pos}: {e}"));
        }
        assert_eq!(entry.split('|').next().map(str::trim), Some(pos.to_string().as_str()));
        checked += 1;
    }
    assert_eq!(checked, 4);
}

#[test]
fn positions_and_moves_are_small() {
    // Perft copies the position for every move.
    assert!(size_of::<Position>() <= 32, "{}", size_of::<Position>());
    assert!(size_of::<stykovka::Move>() <= 4, "{}", size_of::<stykovka::Move>());
}
