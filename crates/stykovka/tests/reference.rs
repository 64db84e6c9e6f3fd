//! A deliberately simple, slow reference implementation written straight from
//! the rules (`RULES.md`; a grid of cells, walking squares one by one, no bitboards, no
//! tables), compared with the fast generator over many positions: the move
//! lists (as text), the position after every move, and the outcome.

use std::collections::BTreeSet;

use board_core::{Game, Player, Rng};
use stykovka::{Position, Setup, Variant};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Empty,
    White,
    Black,
}

#[derive(Clone, PartialEq, Eq, Debug)]
struct Model {
    /// `cells[file][rank]`, zero-based.
    cells: [[Cell; 8]; 8],
    white_to_move: bool,
}

const DIRECTIONS: [(i32, i32); 8] =
    [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)];
const DIAGONALS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn on_board(file: i32, rank: i32) -> bool {
    (0..8).contains(&file) && (0..8).contains(&rank)
}

fn name(file: i32, rank: i32) -> String {
    format!("{}{}", char::from(b'a' + file as u8), rank + 1)
}

impl Model {
    /// Reads the position text of the crate docs, independently of the crate.
    fn parse(text: &str) -> Model {
        let (board, side) = text.split_once(' ').expect("two fields");
        let mut cells = [[Cell::Empty; 8]; 8];
        for (i, row) in board.split('/').enumerate() {
            let rank = 7 - i;
            let mut file = 0;
            for c in row.chars() {
                match c {
                    'W' => cells[file][rank] = Cell::White,
                    'B' => cells[file][rank] = Cell::Black,
                    _ => file += c.to_digit(10).expect("digit") as usize - 1,
                }
                file += 1;
            }
        }
        Model { cells, white_to_move: side == "w" }
    }

    fn text(&self) -> String {
        let mut out = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let c = match self.cells[file][rank] {
                    Cell::Empty => {
                        empty += 1;
                        continue;
                    }
                    Cell::White => 'W',
                    Cell::Black => 'B',
                };
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                out.push(c);
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push_str(if self.white_to_move { " w" } else { " b" });
        out
    }

    fn at(&self, file: i32, rank: i32) -> Cell {
        self.cells[file as usize][rank as usize]
    }

    /// Every move of `me` (no passes) as `(text, position after)`.
    fn slides(&self, me: Cell) -> Vec<(String, Model)> {
        let enemy = if me == Cell::White { Cell::Black } else { Cell::White };
        let mut out = Vec::new();
        for file in 0..8 {
            for rank in 0..8 {
                if self.at(file, rank) != me {
                    continue;
                }
                for (df, dr) in DIRECTIONS {
                    // Rule 2: checkers ahead in the direction of the move, plus the mover.
                    let mut distance = 1;
                    let (mut f, mut r) = (file + df, rank + dr);
                    while on_board(f, r) {
                        if self.at(f, r) != Cell::Empty {
                            distance += 1;
                        }
                        f += df;
                        r += dr;
                    }
                    let (tf, tr) = (file + df * distance, rank + dr * distance);
                    if !on_board(tf, tr) {
                        continue;
                    }
                    // Rule 3: never over an enemy checker.
                    if (1..distance).any(|k| self.at(file + df * k, rank + dr * k) == enemy) {
                        continue;
                    }
                    let mut after = self.clone();
                    after.cells[file as usize][rank as usize] = Cell::Empty;
                    after.cells[tf as usize][tr as usize] = me;
                    after.white_to_move = !self.white_to_move;
                    let text = format!("{}-{}", name(file, rank), name(tf, tr));
                    match self.at(tf, tr) {
                        Cell::Empty => out.push((text, after)),
                        // Rule 4.
                        c if c == me => {}
                        // Rule 5: any diagonal with 4 empty squares, origin counting as empty.
                        _ => {
                            for (ef, er) in DIAGONALS {
                                let free = (1..=4).all(|k| {
                                    let (f, r) = (tf + ef * k, tr + er * k);
                                    on_board(f, r)
                                        && (self.at(f, r) == Cell::Empty || (f, r) == (file, rank))
                                });
                                if free {
                                    let (rf, rr) = (tf + ef * 4, tr + er * 4);
                                    let mut displaced = after.clone();
                                    displaced.cells[rf as usize][rr as usize] = enemy;
                                    out.push((format!("{text}/{}", name(rf, rr)), displaced));
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    }

    fn side(&self) -> (Cell, Cell) {
        if self.white_to_move { (Cell::White, Cell::Black) } else { (Cell::Black, Cell::White) }
    }

    /// Rule 6: a pass when only the opponent can move; nothing when neither can.
    fn moves(&self) -> Vec<(String, Model)> {
        if self.winner().is_some() {
            return Vec::new();
        }
        let (me, them) = self.side();
        let mine = self.slides(me);
        if !mine.is_empty() || self.slides(them).is_empty() {
            return mine;
        }
        let mut after = self.clone();
        after.white_to_move = !after.white_to_move;
        vec![("pass".to_owned(), after)]
    }

    fn crashed(&self, who: Cell) -> bool {
        (0..8).any(|file| {
            (0..8).any(|rank| {
                self.at(file, rank) == who
                    && [(1, 0), (-1, 0), (0, 1), (0, -1)].iter().all(|&(df, dr)| {
                        on_board(file + df, rank + dr)
                            && self.at(file + df, rank + dr) != who
                            && self.at(file + df, rank + dr) != Cell::Empty
                    })
            })
        })
    }

    fn docked(&self, who: Cell) -> bool {
        let all: Vec<(i32, i32)> = (0..8)
            .flat_map(|f| (0..8).map(move |r| (f, r)))
            .filter(|&(f, r)| self.at(f, r) == who)
            .collect();
        let mut seen = vec![all[0]];
        let mut i = 0;
        while i < seen.len() {
            let (f, r) = seen[i];
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let next = (f + df, r + dr);
                if all.contains(&next) && !seen.contains(&next) {
                    seen.push(next);
                }
            }
            i += 1;
        }
        seen.len() == all.len()
    }

    /// The end checks, with the side not to move as the player who just moved.
    fn winner(&self) -> Option<Cell> {
        let (opponent, mover) = self.side();
        if self.crashed(opponent) {
            Some(mover)
        } else if self.crashed(mover) {
            Some(opponent)
        } else if self.docked(mover) {
            Some(mover)
        } else if self.docked(opponent) {
            Some(opponent)
        } else {
            None
        }
    }
}

/// Compares the fast position with the model; returns the model's moves.
fn compare(pos: &Position) -> Vec<(String, Model)> {
    let text = pos.to_string();
    let model = Model::parse(&text);
    assert_eq!(model.text(), text, "the model reads the position text differently");
    let moves = model.moves();
    let expected: BTreeSet<&str> = moves.iter().map(|(t, _)| t.as_str()).collect();
    let fast: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    let got: BTreeSet<&str> = fast.iter().map(String::as_str).collect();
    assert_eq!(got.len(), fast.len(), "duplicate moves in {text}");
    assert_eq!(got, expected, "move lists differ in {text}");
    let winner =
        model.winner().map(|c| if c == Cell::White { Player::First } else { Player::Second });
    let outcome = pos.outcome();
    assert_eq!(outcome.and_then(|o| o.winner), winner, "winners differ in {text}");
    assert_eq!(outcome.is_some(), moves.is_empty(), "the end differs in {text}");
    for (mv, after) in &moves {
        let mut child = *pos;
        child.play_text(mv).expect("a reference move is accepted");
        assert_eq!(child.to_string(), after.text(), "{mv} gives different positions from {text}");
    }
    moves
}

fn random_position(rng: &mut Rng) -> Option<Position> {
    let mut board = [None; 64];
    let mut squares: Vec<usize> = (0..64).collect();
    // Sometimes crowd the checkers into part of the board, for more docking,
    // displacement and crash situations.
    let room = [64, 40, 28][rng.below(3)];
    let offset = rng.below(64 - room + 1);
    squares.drain(..offset);
    squares.truncate(room);
    for i in 0..16 {
        let j = i + rng.below(squares.len() - i);
        squares.swap(i, j);
        board[squares[i]] = Some(if i < 8 { Player::First } else { Player::Second });
    }
    let side_to_move = if rng.below(2) == 0 { Player::First } else { Player::Second };
    Position::from_setup(Setup { board, side_to_move }, Variant::Standard).ok()
}

#[test]
fn random_positions_agree_with_the_reference() {
    let mut rng = Rng::new(0x5717);
    let (mut positions, mut docks, mut ends) = (0, 0, 0);
    while positions < 2000 {
        let Some(pos) = random_position(&mut rng) else { continue };
        let moves = compare(&pos);
        positions += 1;
        docks += moves.iter().filter(|(t, _)| t.contains('/')).count();
        ends += usize::from(moves.is_empty());
    }
    assert!(docks > 1000 && ends > 10, "too few displacements ({docks}) or ends ({ends})");
}

#[test]
fn random_games_agree_with_the_reference() {
    let mut rng = Rng::new(0xD0C);
    let mut plies = 0;
    for _ in 0..40 {
        let mut pos = Position::default();
        for _ in 0..150 {
            let moves = compare(&pos);
            let Some((mv, _)) = rng.choose(&moves) else { break };
            pos.play_text(mv).expect("legal");
            plies += 1;
        }
    }
    assert!(plies > 2000, "games too short: {plies} plies");
}

/// The constructed positions of tests/rules.rs (with a pass and every kind of
/// end), and every position one move after them.
#[test]
fn constructed_positions_agree_with_the_reference() {
    for text in [
        "W3B1WW/6BW/8/3B3B/B3B3/8/WB6/WW1B3W w",
        "BBBBBBB1/8/8/4W2W/8/W1W1B1W1/8/W1W3W1 w",
        "BBBBBBB1/8/8/8/8/4BWWW/7W/2W2WWW w",
        "1B1B2B1/W7/4W3/3WBW2/B1B4B/8/2W3B1/W3W2W w",
        "W1W2B2/3B3W/8/1W2B3/3B1B2/B3B2B/2W3W1/W6W w",
        "W1W2B2/3B4/8/4BW2/3B1BW1/B3BW1B/2W5/W6W w",
        "B1B1B1B1/8/1B1B1B1B/1W6/8/8/1WWWWWWW/8 w",
        "B1B1B2W/8/W1W5/8/W2B3B/2W3W1/1B2B2B/4W1W1 w",
    ] {
        let pos = text.parse::<Position>().expect("valid");
        for (mv, _) in compare(&pos) {
            let mut child = pos;
            child.play_text(&mv).expect("legal");
            compare(&child);
        }
    }
}
