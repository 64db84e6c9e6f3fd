//! The built-in searchers against the random player on Otrazhenie: alpha-beta
//! and MCTS must each win at least 19 of 20 seeded games, colours alternating.

use std::sync::atomic::AtomicBool;

use board_core::{Game, Player, Rng};
use otrazhenie::Position;
use search::{AlphaBeta, Limits, Mcts, random_move};

#[derive(Clone, Copy, Debug)]
enum Searcher {
    AlphaBeta,
    Mcts,
}

/// Plays one game; returns whether the searcher won.
fn searcher_wins(searcher: Searcher, seed: u64, searcher_side: Player) -> bool {
    let stop = AtomicBool::new(false);
    let mut rng = Rng::new(seed);
    let mut alphabeta = AlphaBeta::<Position>::new(4);
    let mut pos = Position::default();
    for ply in 0..Position::DEFAULT_MAX_PLIES {
        if pos.is_over() {
            break;
        }
        let mv = if pos.side_to_move() == searcher_side {
            match searcher {
                Searcher::AlphaBeta => {
                    alphabeta.search(&pos, Limits::depth(3), &stop, &mut |_| {}).0
                }
                Searcher::Mcts => {
                    Mcts::new(seed ^ u64::from(ply))
                        .search(&pos, Limits::nodes(300), &stop, &mut |_| {})
                        .0
                }
            }
        } else {
            random_move(&pos, &mut rng)
        };
        pos.play(mv.expect("a move in an unfinished game")).expect("a legal move");
    }
    pos.outcome().is_some_and(|o| o.winner == Some(searcher_side))
}

fn wins(searcher: Searcher) -> usize {
    (0..20u64)
        .filter(|&seed| {
            let side = if seed % 2 == 0 { Player::First } else { Player::Second };
            searcher_wins(searcher, seed, side)
        })
        .count()
}

#[test]
fn alphabeta_beats_random_in_19_of_20_games() {
    let won = wins(Searcher::AlphaBeta);
    assert!(won >= 19, "alpha-beta won only {won} of 20");
}

#[test]
fn mcts_beats_random_in_19_of_20_games() {
    let won = wins(Searcher::Mcts);
    assert!(won >= 19, "MCTS won only {won} of 20");
}

/// Random playouts of focus almost never end, so plain MCTS sees only draws;
/// with playouts judged by the evaluation it must win material from random
/// play, colours alternating.
#[test]
fn mcts_with_evaluation_outplays_random_at_focus() {
    let stop = AtomicBool::new(false);
    for seed in 0..4u64 {
        let searcher = if seed % 2 == 0 { Player::First } else { Player::Second };
        let mut rng = Rng::new(seed);
        let mut pos = focus::Position::default();
        for ply in 0..200u64 {
            if pos.is_over() {
                break;
            }
            let mv = if pos.side_to_move() == searcher {
                Mcts::new(seed ^ ply)
                    .search_with_evaluation(&pos, Limits::nodes(200), &stop, &mut |_| {})
                    .0
            } else {
                random_move(&pos, &mut rng)
            };
            pos.play(mv.expect("a move in an unfinished game")).expect("a legal move");
        }
        let (won, lost) = (pos.captured(searcher), pos.captured(searcher.other()));
        assert!(
            pos.outcome().is_some_and(|o| o.winner == Some(searcher)) || won > lost,
            "seed {seed}: captured {won}, lost {lost}"
        );
    }
}
