//! The game record: where every tool decides that a game has ended.

use board_core::tictactoe::TicTacToe;
use board_core::{GameRecord, Player, RecordError};

fn record(max_plies: u32) -> GameRecord<TicTacToe> {
    GameRecord::new(Box::new(TicTacToe::default()), max_plies)
}

#[test]
fn the_cap_ends_the_game_with_the_adjudication_and_refuses_more_moves() {
    let mut game = record(2);
    assert_eq!((game.plies_left(), game.outcome()), (Some(2), None));
    assert_eq!(game.play("c4"), Ok("c4".to_owned()));
    assert_eq!(game.play(" c0 "), Ok("c0".to_owned()));
    assert_eq!(game.plies_left(), Some(0));
    let end = game.outcome().expect("capped");
    assert_eq!((end.winner, end.reason), (None, "ply limit"));
    assert!(game.ended_at_cap());
    let refused = game.play("c8").unwrap_err();
    assert!(matches!(refused, RecordError::Ended { ply: 3, .. }), "{refused:?}");
    assert_eq!(refused.to_string(), "move 3 (c8) comes after the end (1/2-1/2 reason ply limit)");
    assert_eq!(game.moves(), ["c4", "c0"]);
}

#[test]
fn no_cap_lets_the_rules_end_the_game() {
    let mut game = record(0);
    for mv in ["c0", "c3", "c1", "c4", "c2"] {
        assert_eq!(game.plies_left(), None);
        game.play(mv).expect("legal");
    }
    let end = game.outcome().expect("three in a row");
    assert_eq!(end.winner, Some(Player::First));
    assert!(!game.ended_at_cap());
    assert!(matches!(game.play("c5"), Err(RecordError::Ended { .. })));
}

#[test]
fn a_result_by_the_rules_at_the_cap_is_the_rules_result() {
    let mut game = record(5);
    for mv in ["c0", "c3", "c1", "c4", "c2"] {
        game.play(mv).expect("legal");
    }
    assert_eq!(game.outcome().map(|end| end.reason), Some("three in a row"));
    assert!(!game.ended_at_cap());
}

#[test]
fn an_illegal_move_leaves_the_record_unchanged_and_undo_replays() {
    let mut game = record(0);
    game.play("c4").expect("legal");
    let error = game.play("c4").unwrap_err();
    assert!(matches!(error, RecordError::Move { ply: 2, .. }), "{error:?}");
    assert!(error.to_string().starts_with("move 2: illegal move 'c4'"), "{error}");
    assert!(game.play("c9").unwrap_err().to_string().starts_with("move 2: cannot read move"));
    assert_eq!(game.moves(), ["c4"]);
    game.play("c0").expect("legal");
    assert_eq!(game.undo(), Some("c0".to_owned()));
    assert_eq!(game.position().to_string(), "....x.... o");
    assert_eq!(game.undo(), Some("c4".to_owned()));
    assert_eq!(game.undo(), None);
    assert_eq!(*game.position(), *game.start());
}

#[test]
fn changing_the_cap_keeps_the_moves() {
    let mut game = record(0);
    game.play("c4").expect("legal");
    game.set_max_plies(1);
    assert!(game.ended_at_cap());
    game.set_max_plies(3);
    assert_eq!(game.plies_left(), Some(2));
    assert_eq!(game.restarted().moves().len(), 0);
}
