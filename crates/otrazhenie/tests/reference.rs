//! A deliberately simple, slow move generator written straight from the rules
//! text (its own board array, its own text reader, moves as strings), and the
//! check that the fast bitboard generator agrees with it move for move over
//! many random positions, including the positions the moves lead to.

use std::collections::BTreeSet;

use board_core::{Game, Rng};
use otrazhenie::Position;

/// A board from the reference's point of view: `board[rank][file]`, rank 0 = rank 1.
#[derive(Clone)]
struct RefBoard {
    board: [[Option<char>; 8]; 8],
    to_move: char,
}

impl RefBoard {
    /// Reads position text (`B6B/8/8/8/8/8/8/W6W w`); the inputs are known good.
    fn parse(text: &str) -> RefBoard {
        let (placement, side) = text.split_once(' ').expect("two fields");
        let mut board = [[None; 8]; 8];
        for (row, rank_text) in placement.split('/').enumerate() {
            let rank = 7 - row;
            let mut file = 0;
            for ch in rank_text.chars() {
                if let Some(n) = ch.to_digit(10) {
                    file += n as usize;
                } else {
                    board[rank][file] = Some(ch);
                    file += 1;
                }
            }
        }
        RefBoard { board, to_move: if side == "w" { 'W' } else { 'B' } }
    }

    fn text(&self) -> String {
        let mut rows = Vec::new();
        for rank in (0..8).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for file in 0..8 {
                match self.board[rank][file] {
                    None => empty += 1,
                    Some(ch) => {
                        if empty > 0 {
                            row += &empty.to_string();
                        }
                        empty = 0;
                        row.push(ch);
                    }
                }
            }
            if empty > 0 {
                row += &empty.to_string();
            }
            rows.push(row);
        }
        format!("{} {}", rows.join("/"), if self.to_move == 'W' { "w" } else { "b" })
    }

    fn at(&self, file: i32, rank: i32) -> Option<Option<char>> {
        if (0..8).contains(&file) && (0..8).contains(&rank) {
            Some(self.board[rank as usize][file as usize])
        } else {
            None
        }
    }

    fn count(&self, colour: char) -> usize {
        self.board.iter().flatten().filter(|&&c| c == Some(colour)).count()
    }

    /// Every legal move as (text, board after it).
    fn moves(&self) -> Vec<(String, RefBoard)> {
        let me = self.to_move;
        let enemy = if me == 'W' { 'B' } else { 'W' };
        let mut out = Vec::new();
        if self.count(me) == 0 || self.count(enemy) == 0 {
            return out;
        }
        for rank in 0..8 {
            for file in 0..8 {
                if self.board[rank as usize][file as usize] != Some(me) {
                    continue;
                }
                for (df, dr) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                    // Quiet: like a rook, through empty squares onto an empty square.
                    let (mut x, mut y) = (file + df, rank + dr);
                    while self.at(x, y) == Some(None) {
                        out.push((
                            format!("{}-{}", name(file, rank), name(x, y)),
                            self.after(me, (file, rank), (x, y)),
                        ));
                        x += df;
                        y += dr;
                    }
                    // Capture: the last square before the boundary in this direction.
                    let (mut ex, mut ey) = (file, rank);
                    while self.at(ex + df, ey + dr).is_some() {
                        ex += df;
                        ey += dr;
                    }
                    if (ex, ey) == (file, rank) {
                        continue; // a slide of length zero
                    }
                    let mut clear = true;
                    let (mut x, mut y) = (file, rank);
                    while (x, y) != (ex, ey) {
                        x += df;
                        y += dr;
                        clear &= self.at(x, y) == Some(None);
                    }
                    if !clear {
                        continue;
                    }
                    // The diagonals leading away from that boundary.
                    let away = if df != 0 { [(-df, 1), (-df, -1)] } else { [(1, -dr), (-1, -dr)] };
                    for (ddf, ddr) in away {
                        let (mut x, mut y) = (ex + ddf, ey + ddr);
                        while self.at(x, y) == Some(None) {
                            x += ddf;
                            y += ddr;
                        }
                        if self.at(x, y) == Some(Some(enemy)) {
                            out.push((
                                format!("{}-{}x{}", name(file, rank), name(ex, ey), name(x, y)),
                                self.after(me, (file, rank), (x, y)),
                            ));
                        }
                    }
                }
            }
        }
        out
    }

    fn after(&self, me: char, from: (i32, i32), to: (i32, i32)) -> RefBoard {
        let mut next = self.clone();
        next.board[from.1 as usize][from.0 as usize] = None;
        next.board[to.1 as usize][to.0 as usize] = Some(me);
        next.to_move = if me == 'W' { 'B' } else { 'W' };
        next
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves().iter().map(|(_, next)| next.perft(depth - 1)).sum()
    }
}

fn name(file: i32, rank: i32) -> String {
    format!("{}{}", char::from(b'a' + file as u8), rank + 1)
}

/// A random position text: 0-2 checkers for the side to move, 1-2 for the other.
fn random_text(rng: &mut Rng) -> String {
    let mut board = RefBoard { board: [[None; 8]; 8], to_move: 'W' };
    let (mover, other) = if rng.below(2) == 0 { ('W', 'B') } else { ('B', 'W') };
    board.to_move = mover;
    let mover_count = if rng.below(20) == 0 { 0 } else { 1 + rng.below(2) };
    let pieces =
        std::iter::repeat_n(mover, mover_count).chain(std::iter::repeat_n(other, 1 + rng.below(2)));
    // Crowd the checkers near edges and each other sometimes, so traps and
    // blocked slides come up often.
    let span = [8, 8, 3][rng.below(3)];
    let base = (rng.below(9 - span), rng.below(9 - span));
    for piece in pieces {
        loop {
            let (file, rank) = (base.0 + rng.below(span), base.1 + rng.below(span));
            if board.board[rank][file].is_none() {
                board.board[rank][file] = Some(piece);
                break;
            }
        }
    }
    board.text()
}

fn compare(text: &str) -> usize {
    let fast = match text.parse::<Position>() {
        Ok(pos) => pos,
        Err(e) => panic!("{text}: {e}"),
    };
    let reference = RefBoard::parse(text);
    let expected: BTreeSet<(String, String)> =
        reference.moves().into_iter().map(|(mv, next)| (mv, next.text())).collect();
    let got: BTreeSet<(String, String)> = fast
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let mut next = fast;
            next.play_unchecked(mv);
            (mv.to_string(), next.to_string())
        })
        .collect();
    assert_eq!(got, expected, "move sets differ in {text}");
    let mut captures = Vec::new();
    fast.generate_tactical(&mut captures);
    let captures: BTreeSet<String> = captures.iter().map(ToString::to_string).collect();
    let expected_captures: BTreeSet<String> =
        expected.iter().map(|(mv, _)| mv.clone()).filter(|mv| mv.contains('x')).collect();
    assert_eq!(captures, expected_captures, "captures differ in {text}");
    assert_eq!(fast.move_count() as usize, expected.len(), "move_count in {text}");
    assert_eq!(fast.is_over(), expected.is_empty(), "game over disagrees in {text}");
    expected.len()
}

#[test]
fn fast_generator_agrees_with_reference_on_random_positions() {
    let mut rng = Rng::new(0x0D0_7A2);
    let mut moves = 0;
    for _ in 0..4_000 {
        moves += compare(&random_text(&mut rng));
    }
    assert!(moves > 20_000, "the random positions should have many moves, got {moves}");
}

#[test]
fn fast_generator_agrees_with_reference_along_random_games() {
    let mut rng = Rng::new(42);
    let mut captures = 0;
    for _ in 0..40 {
        let mut pos = Position::default();
        for _ in 0..Position::DEFAULT_MAX_PLIES {
            compare(&pos.to_string());
            let moves = pos.legal_moves();
            let Some(&mv) = rng.choose(&moves) else { break };
            captures += usize::from(mv.is_capture());
            pos.play_unchecked(mv);
        }
    }
    assert!(captures > 20, "random games should capture now and then, got {captures}");
}

#[test]
fn reference_perft_matches_from_the_start() {
    let start = RefBoard::parse(otrazhenie::START_TEXT);
    let fast = Position::default();
    for depth in 1..=4 {
        assert_eq!(fast.perft(depth), start.perft(depth), "perft({depth})");
    }
}
