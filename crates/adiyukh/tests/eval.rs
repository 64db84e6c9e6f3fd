//! The evaluation: symmetric between the colours, bounded, counting the
//! score, and ordering captures first.

use adiyukh::Position;
use board_core::{Evaluate, Game, Player, Rng};

fn pos(text: &str) -> Position {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The same position seen from the other side: board turned round, colours
/// and the side to move swapped.
fn mirror(p: &Position) -> Position {
    let text = p.to_string();
    let mut tokens = text.split(' ');
    let side = if tokens.next() == Some("w") { "b" } else { "w" };
    let mut out = side.to_owned();
    for column in tokens {
        let (sq, pieces) = column.split_once(':').unwrap();
        let b = sq.as_bytes();
        let file = char::from(b'h' - (b[0] - b'a'));
        let rank = char::from(b'8' - (b[1] - b'1'));
        let swapped: String = pieces
            .chars()
            .map(|c| match c {
                'w' => 'b',
                'W' => 'B',
                'b' => 'w',
                _ => 'W',
            })
            .collect();
        out.push_str(&format!(" {file}{rank}:{swapped}"));
    }
    pos(&out)
}

#[test]
fn the_start_is_even_and_mirrored_positions_agree() {
    assert_eq!(Position::default().evaluate(), 0);
    let mut rng = Rng::new(5);
    for _ in 0..30 {
        let mut p = Position::default();
        for _ in 0..60 {
            let v = p.evaluate();
            assert!(v.abs() <= 20_000);
            assert_eq!(v, mirror(&p).evaluate(), "{p}");
            let moves = p.legal_moves();
            let Some(&mv) = rng.choose(&moves) else { break };
            p.play_unchecked(mv);
        }
    }
}

/// The score as it stands is a feature of its own (the side to move's
/// count less 12), weighed positively.
#[test]
fn the_evaluation_counts_the_score() {
    assert!(Position::WEIGHTS[0] > 0);
    let mut rng = Rng::new(9);
    let mut features = vec![0; Position::FEATURE_NAMES.len()];
    assert_eq!(Position::FEATURE_NAMES[0], "points");
    for _ in 0..20 {
        let mut p = Position::default();
        for _ in 0..80 {
            p.features(&mut features);
            let score = p.score();
            let (own, other) = if p.side_to_move() == Player::First {
                (score.first, score.second)
            } else {
                (score.second, score.first)
            };
            assert_eq!(features[0], own as i32 - 12, "{p}");
            assert_eq!(own + other, 24);
            let moves = p.legal_moves();
            let Some(&mv) = rng.choose(&moves) else { break };
            p.play_unchecked(mv);
        }
    }
}

/// Positions the score decides at once are decided by the rules, not the
/// evaluation (search never evaluates a finished position). The fitted
/// weights value column control above the count, so they rate these as a
/// static guess would not; see the README's "Evaluation".
#[test]
fn positions_the_score_decides_are_finished_by_the_rules() {
    // Black to move has only a king that cannot capture: 11:13, White wins.
    let p = pos("b g1:wwwbbbB b4:bbbw e5:bbbwww g5:bbww a7:w b8:ww");
    let outcome = p.outcome().expect("no Black move");
    assert_eq!(outcome.winner, Some(Player::First));
    // 23 of 24 pieces on Black's half: whatever Black plays, White has no
    // move left (a king only captures) and wins.
    let p = pos("b d2:b h6:wwwwwwwwwbbbbbbbbbbb h8:wwW");
    assert!(!p.legal_moves().is_empty());
    for mv in p.legal_moves() {
        let mut after = p;
        after.play(mv).expect("legal");
        assert_eq!(after.outcome().map(|o| o.winner), Some(Some(Player::First)), "{mv}");
    }
    let p = pos("w d2:b h6:wwwwwwwwwbbbbbbbbbbb h8:wwW");
    assert_eq!(p.outcome().map(|o| o.winner), Some(Some(Player::First)));
}

#[test]
fn captures_and_promotions_come_first() {
    let p = pos("w a1:bbbbbbbbB c3:w b4:b g3:wwwwwwwwwww f4:b d6:b");
    let long = p.parse_move("g3:e5:c7").unwrap();
    let short = p.parse_move("c3:a5").unwrap();
    assert!(p.move_priority(long) > p.move_priority(short));
    let p = pos("w a1:bbbbbbbbbbbB c7:w e3:w h8:wwwwwwwwwW");
    let promote = p.parse_move("c7-d8").unwrap();
    let step = p.parse_move("e3-f4").unwrap();
    assert!(p.move_priority(promote) > p.move_priority(step));
    assert!(p.move_priority(short) > p.move_priority(promote));
}
