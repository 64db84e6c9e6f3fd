//! The evaluation: symmetric between the colours, bounded, aware of the
//! score, and ordering captures first.

use adiyukh::Position;
use board_core::{Evaluate, Game, Rng};

fn pos(text: &str) -> Position {
    Position::from_text(text, "standard").unwrap_or_else(|e| panic!("{text}: {e}"))
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
    assert_eq!(Position::default_start().evaluate(), 0);
    let mut rng = Rng::new(5);
    for _ in 0..30 {
        let mut p = Position::default_start();
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

#[test]
fn the_evaluation_follows_the_score() {
    // Black to move and losing 11:13.
    let p = pos("b g1:wwwbbbB b4:bbbw e5:bbbwww g5:bbww a7:w b8:ww");
    assert!(p.evaluate() < -100, "{}", p.evaluate());
    // 23 of 24 pieces on Black's half, under a Black man that could step
    // back: White stays well ahead either way.
    let black_to_move = pos("b d2:b h6:wwwwwwwwwbbbbbbbbbbb h8:wwW");
    let white_to_move = pos("w d2:b h6:wwwwwwwwwbbbbbbbbbbb h8:wwW");
    assert!(black_to_move.evaluate() < -500, "{}", black_to_move.evaluate());
    assert!(white_to_move.evaluate() > 500, "{}", white_to_move.evaluate());
    assert!(mirror(&white_to_move).evaluate() > 500);
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
