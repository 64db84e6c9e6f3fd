//! The reconstruction's measured weakness: the base game `8` is a forced win for White
//! within 7 plies (and not within 5), found by a small negamax-style prover
//! over the `Game` impl (win / no win, no evaluation, a small table of solved
//! positions). The lead's alpha-beta test comes on top of this.

use std::collections::HashMap;

use board_core::{Evaluate, Game};
use city::{Move, Position, Variant};

/// Decides whether the side to move can force a win within a number of plies.
#[derive(Default)]
struct Prover {
    /// (hash, plies) -> whether the side to move wins within that many plies.
    solved: HashMap<(u64, u32), bool>,
    nodes: u64,
}

impl Prover {
    /// Whether the side to move can force a win within `plies` plies (odd).
    fn wins(&mut self, pos: &Position, plies: u32) -> bool {
        if let Some(&known) = self.solved.get(&(pos.zobrist(), plies)) {
            return known;
        }
        self.nodes += 1;
        let mover = pos.side_to_move();
        let mut result = false;
        for mv in ordered_moves(pos) {
            let mut child = *pos;
            child.play_unchecked(mv);
            if child.outcome().is_some_and(|o| o.winner == Some(mover)) {
                result = true;
                break;
            }
            if plies >= 3 && !self.escapes(&child, plies - 1) {
                result = true;
                break;
            }
        }
        self.solved.insert((pos.zobrist(), plies), result);
        result
    }

    /// Whether the side to move (the defender) survives `plies` plies: it wins
    /// at once, or has a move after which the attacker cannot force a win.
    fn escapes(&mut self, pos: &Position, plies: u32) -> bool {
        let mover = pos.side_to_move();
        let moves = ordered_moves(pos);
        let mut children = Vec::with_capacity(moves.len());
        for mv in moves {
            let mut child = *pos;
            child.play_unchecked(mv);
            if child.outcome().is_some_and(|o| o.winner == Some(mover)) {
                return true;
            }
            children.push(child);
        }
        children.iter().any(|child| !self.wins(child, plies - 1))
    }
}

/// The legal moves, the strongest first (the crate's move priority).
fn ordered_moves(pos: &Position) -> Vec<Move> {
    let mut moves = pos.legal_moves();
    moves.sort_by_key(|&mv| -pos.move_priority(mv));
    moves
}

#[test]
fn base_game_is_a_forced_first_player_win_in_seven_plies() {
    let start = Position::start(Variant::Eight);
    let mut prover = Prover::default();
    assert!(!prover.wins(&start, 5), "White must not have a forced win within 5 plies");
    assert!(prover.wins(&start, 7), "White must have a forced win within 7 plies");
    eprintln!("{} positions solved", prover.nodes);
}

#[test]
fn c1_c2_is_a_winning_first_move_and_a1_a9_is_not() {
    let mut prover = Prover::default();
    let after = |text: &str| {
        let mut pos = Position::start(Variant::Eight);
        pos.play_text(text).expect("legal first move");
        pos
    };
    assert!(!prover.escapes(&after("c1-c2"), 6), "Black must lose within 6 more plies");
    assert!(prover.escapes(&after("a1-a9"), 6), "a1-a9 must not win within 7 plies");
}
