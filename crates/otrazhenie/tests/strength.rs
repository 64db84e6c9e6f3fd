//! The evaluation is good enough for a shallow alpha-beta search to beat
//! uniform random play, and sees the obvious: material, captures at hand,
//! threats and a trapped last checker.

use board_core::{Evaluate, Game, Player, Rng};
use otrazhenie::{Move, Position};

const MATE: i32 = 30_000;

/// A static evaluation from the side to move's view.
type Eval = fn(&Position) -> i32;

/// Material alone: what the evaluation's other terms must improve on.
fn material(pos: &Position) -> i32 {
    let me = pos.side_to_move();
    1_000 * (pos.checker_count(me) as i32 - pos.checker_count(me.other()) as i32)
}

/// A plain fixed-depth negamax with alpha-beta, ordered by `move_priority`.
fn negamax(pos: &Position, depth: u32, mut alpha: i32, beta: i32, eval: Eval) -> i32 {
    if let Some(end) = pos.outcome() {
        let won = end.winner == Some(pos.side_to_move());
        return if won { MATE + depth as i32 } else { -MATE - depth as i32 };
    }
    if depth == 0 {
        return eval(pos);
    }
    let mut moves = pos.legal_moves();
    moves.sort_by_key(|&mv| -pos.move_priority(mv));
    let mut best = -2 * MATE;
    for mv in moves {
        let mut child = *pos;
        child.play_unchecked(mv);
        let score = -negamax(&child, depth - 1, -beta, -alpha, eval);
        best = best.max(score);
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// The best move at `depth`, ties broken at random so games differ.
fn search(pos: &Position, depth: u32, eval: Eval, rng: &mut Rng) -> Move {
    let scored: Vec<(i32, Move)> = pos
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let mut child = *pos;
            child.play_unchecked(mv);
            (-negamax(&child, depth - 1, -2 * MATE, 2 * MATE, eval), mv)
        })
        .collect();
    let best = scored.iter().map(|&(s, _)| s).max().expect("a move");
    let top: Vec<Move> = scored.iter().filter(|&&(s, _)| s == best).map(|&(_, m)| m).collect();
    *rng.choose(&top).expect("a best move")
}

/// Plays 20 seeded games, `engine` taking White and Black in turn, the other
/// side choosing with `opponent` (`None`: uniformly at random); returns
/// (engine wins, engine losses).
fn match_up(engine: (u32, Eval), opponent: Option<(u32, Eval)>) -> (u32, u32) {
    let (mut wins, mut losses) = (0, 0);
    for game in 0..20u64 {
        let mut rng = Rng::new(1000 + game);
        let engine_side = if game % 2 == 0 { Player::First } else { Player::Second };
        let mut pos = Position::default();
        for _ in 0..Position::DEFAULT_MAX_PLIES {
            if pos.is_over() {
                break;
            }
            let mv = match (pos.side_to_move() == engine_side, opponent) {
                (true, _) => search(&pos, engine.0, engine.1, &mut rng),
                (false, Some((depth, eval))) => search(&pos, depth, eval, &mut rng),
                (false, None) => *rng.choose(&pos.legal_moves()).expect("a move"),
            };
            pos.play_unchecked(mv);
        }
        match pos.outcome().and_then(|end| end.winner) {
            Some(winner) if winner == engine_side => wins += 1,
            Some(_) => losses += 1,
            None => {}
        }
    }
    (wins, losses)
}

#[test]
fn shallow_alpha_beta_beats_random_play() {
    let (wins, _) = match_up((2, Position::evaluate), None);
    assert!(wins >= 19, "alpha-beta won only {wins} of 20 games against random play");
}

#[test]
fn positional_terms_beat_material_alone() {
    let (wins, losses) = match_up((1, Position::evaluate), Some((1, material)));
    assert!(wins >= 15 && losses == 0, "the evaluation scored +{wins} -{losses} of 20");
}

fn eval(text: &str) -> i32 {
    text.parse::<Position>().expect("valid").evaluate()
}

#[test]
fn evaluation_sees_material_captures_threats_and_traps() {
    // A checker down (and the last one threatened).
    assert!(eval("8/8/8/3B4/8/8/W6W/8 b") <= -1_000);
    // To move with a capture at hand is better than the same position with
    // the opponent to move and the capture threatened.
    let at_hand = eval("7B/8/8/3B4/8/8/8/W6W w");
    let threatened = eval("7B/8/8/3B4/8/8/8/W6W b");
    assert!(at_hand > 0 && threatened < 0 && at_hand > -threatened);
    // Taking the last checker is all but won.
    assert!(eval("8/8/8/3B4/8/8/8/W6W w") > 5_000);
    // A lone checker shut in the corner is lost; one hemmed in is worse off.
    assert_eq!(eval("8/8/8/8/8/8/B7/WB6 w"), -10_000);
    assert!(eval("8/8/8/8/8/8/B7/W1B5 w") < eval("8/8/8/8/3W4/8/B7/2B5 w"));
    // Bounded as the trait asks.
    for text in ["8/8/8/3W4/8/8/8/8 b", "B6B/8/8/8/8/8/8/W6W w"] {
        assert!(eval(text).abs() <= 20_000);
    }
}

#[test]
fn captures_are_tried_first() {
    let pos = "7B/8/8/3B4/8/8/8/W7 w".parse::<Position>().expect("valid");
    let mut moves = pos.legal_moves();
    moves.sort_by_key(|&mv| -pos.move_priority(mv));
    assert!(moves[0].is_capture() && moves[1].is_capture() && !moves[2].is_capture());
    let last = "8/8/8/3B4/8/8/8/W7 w".parse::<Position>().expect("valid");
    let capture = last.parse_move("a1-h1xd5").expect("legal");
    let quiet = last.parse_move("a1-a2").expect("legal");
    assert!(last.move_priority(capture) > pos.move_priority(capture));
    assert!(last.move_priority(quiet) < last.move_priority(capture));
}
