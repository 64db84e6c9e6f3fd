//! A deliberately simple, slow move generator written straight from the rules
//! text (rows of 5..10..5 fields, horizontal positions `x = i - (n+1)/2`,
//! neighbours where `x` differs by 1/2), with no bitboards and no tricks. The
//! fast generator must produce exactly the same moves (as text) over many
//! random positions; this is what gives the perft numbers their credibility.

use std::collections::{BTreeMap, BTreeSet};

use board_core::{Game, Rng};
use hexdraughts::Position;

const LEN: [i32; 11] = [5, 6, 7, 8, 9, 10, 9, 8, 7, 6, 5];
const LETTERS: &str = "ABCDEFGHIJK";

/// A field as (row 0..=10, number 1..=n).
type Field = (i32, i32);

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Piece {
    white: bool,
    king: bool,
}

#[derive(Clone, Debug)]
struct Board {
    white_to_move: bool,
    pieces: BTreeMap<Field, Piece>,
}

fn name((row, i): Field) -> String {
    format!("{}{i}", LETTERS.as_bytes()[row as usize] as char)
}

fn field_of(name: &str) -> Field {
    let row = LETTERS.find(name.chars().next().unwrap()).unwrap() as i32;
    (row, name[1..].parse().unwrap())
}

/// Twice the horizontal position: x = i - (n+1)/2.
fn x2((row, i): Field) -> i32 {
    2 * i - (LEN[row as usize] + 1)
}

/// The field one row up (`dr = -1`) or down (`dr = 1`) whose x differs by
/// `dx / 2`.
fn step(f: Field, dr: i32, dx: i32) -> Option<Field> {
    let row = f.0 + dr;
    if !(0..11).contains(&row) {
        return None;
    }
    let target = x2(f) + dx;
    (1..=LEN[row as usize]).map(|i| (row, i)).find(|&g| x2(g) == target)
}

const DIRECTIONS: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

impl Board {
    fn parse(text: &str) -> Board {
        let parts: Vec<&str> = text.split(':').collect();
        let mut pieces = BTreeMap::new();
        for list in &parts[1..] {
            let white = list.starts_with('W');
            for entry in list[1..].split(',').filter(|e| !e.is_empty()) {
                let king = entry.len() > 2
                    && entry.starts_with('K')
                    && !entry[1..].starts_with(|c: char| c.is_ascii_digit());
                let field = field_of(if king { &entry[1..] } else { entry });
                pieces.insert(field, Piece { white, king });
            }
        }
        Board { white_to_move: parts[0] == "W", pieces }
    }

    fn far_row(&self) -> i32 {
        if self.white_to_move { 0 } else { 10 }
    }

    /// Complete continuations (lists of landing fields) of a capture by a
    /// piece standing on `at`; empty when it cannot capture. `start` counts as
    /// empty, `taken` pieces stay on the board and may not be jumped again.
    fn continuations(
        &self,
        start: Field,
        at: Field,
        king: bool,
        taken: &[Field],
    ) -> Vec<Vec<Field>> {
        let empty = |f: Field| f == start || !self.pieces.contains_key(&f);
        let enemy = |f: Field| {
            f != start
                && !taken.contains(&f)
                && self.pieces.get(&f).is_some_and(|p| p.white != self.white_to_move)
        };
        let mut result = Vec::new();
        for (dr, dx) in DIRECTIONS {
            // Find the piece to jump.
            let mut victim = step(at, dr, dx);
            if king {
                while let Some(f) = victim.filter(|&f| empty(f)) {
                    victim = step(f, dr, dx);
                }
            }
            let Some(victim) = victim.filter(|&f| enemy(f)) else { continue };
            let mut landings = Vec::new();
            let mut next = step(victim, dr, dx);
            while let Some(f) = next.filter(|&f| empty(f)) {
                landings.push(f);
                if !king {
                    break;
                }
                next = step(f, dr, dx);
            }
            let mut now_taken = taken.to_vec();
            now_taken.push(victim);
            let mut ending = Vec::new();
            let mut going_on = Vec::new();
            for landing in landings {
                let promoted = king || landing.0 == self.far_row();
                let more = self.continuations(start, landing, promoted, &now_taken);
                if more.is_empty() {
                    ending.push(vec![landing]);
                }
                for rest in more {
                    let mut seq = vec![landing];
                    seq.extend(rest);
                    going_on.push(seq);
                }
            }
            // A capture that can go on must (for a king: land where it can).
            result.extend(if going_on.is_empty() { ending } else { going_on });
        }
        result
    }

    fn moves(&self) -> BTreeSet<String> {
        let own: Vec<(Field, Piece)> = self
            .pieces
            .iter()
            .filter(|(_, p)| p.white == self.white_to_move)
            .map(|(&f, &p)| (f, p))
            .collect();
        let mut captures = BTreeSet::new();
        for &(from, piece) in &own {
            for seq in self.continuations(from, from, piece.king, &[]) {
                let mut text = name(from);
                for f in seq {
                    text += &format!(":{}", name(f));
                }
                captures.insert(text);
            }
        }
        if !captures.is_empty() {
            return captures;
        }
        let mut quiet = BTreeSet::new();
        let forward = if self.white_to_move { -1 } else { 1 };
        for &(from, piece) in &own {
            for (dr, dx) in DIRECTIONS {
                if !piece.king && dr != forward {
                    continue;
                }
                let mut next = step(from, dr, dx);
                while let Some(f) = next.filter(|f| !self.pieces.contains_key(f)) {
                    quiet.insert(format!("{}-{}", name(from), name(f)));
                    if !piece.king {
                        break;
                    }
                    next = step(f, dr, dx);
                }
            }
        }
        quiet
    }

    /// Plays a move given as text: the piece goes to the last field, every
    /// enemy piece between two landing fields is removed, and a man that
    /// touched its far row is a king.
    fn play(&self, text: &str) -> Board {
        let capture = text.contains(':');
        let fields: Vec<Field> = text.split([':', '-']).map(field_of).collect();
        let mut next = self.clone();
        let mut piece = next.pieces.remove(&fields[0]).unwrap();
        if capture {
            for pair in fields.windows(2) {
                let dr = (pair[1].0 - pair[0].0).signum();
                let dx = (x2(pair[1]) - x2(pair[0])).signum();
                let mut f = step(pair[0], dr, dx).unwrap();
                while f != pair[1] {
                    next.pieces.remove(&f);
                    f = step(f, dr, dx).unwrap();
                }
            }
        }
        piece.king |= fields.iter().any(|f| f.0 == self.far_row());
        next.pieces.insert(*fields.last().unwrap(), piece);
        next.white_to_move = !self.white_to_move;
        next
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves().iter().map(|mv| self.play(mv).perft(depth - 1)).sum()
    }
}

fn fast_moves(pos: &Position) -> BTreeSet<String> {
    let moves = pos.legal_moves();
    let texts: BTreeSet<String> = moves.iter().map(ToString::to_string).collect();
    assert_eq!(texts.len(), moves.len(), "duplicate moves in {pos}");
    texts
}

fn compare(pos: &Position) {
    let reference = Board::parse(&pos.to_string()).moves();
    assert_eq!(fast_moves(pos), reference, "move sets differ in {pos}");
}

/// A random legal setup: a few men and kings per side on random fields.
fn random_position(rng: &mut Rng) -> Position {
    loop {
        let mut fields: Vec<String> = Vec::new();
        let mut lists = [Vec::new(), Vec::new()];
        for (side, list) in lists.iter_mut().enumerate() {
            let most = if rng.below(2) == 0 { 6 } else { 18 };
            let count = 1 + rng.below(most);
            for _ in 0..count {
                let row = rng.below(11);
                let field = name((row as i32, 1 + rng.below(LEN[row] as usize) as i32));
                if fields.contains(&field) {
                    continue;
                }
                let far = if side == 0 { 0 } else { 10 };
                let king = row == far || rng.below(4) == 0;
                list.push(if king { format!("K{field}") } else { field.clone() });
                fields.push(field);
            }
        }
        let side = if rng.below(2) == 0 { "W" } else { "B" };
        let text = format!("{side}:W{}:B{}", lists[0].join(","), lists[1].join(","));
        if let Ok(pos) = text.parse::<Position>() {
            return pos;
        }
    }
}

#[test]
fn same_moves_in_random_setups_and_their_playouts() {
    let mut rng = Rng::new(2024);
    let mut captures = 0;
    for _ in 0..400 {
        let mut pos = random_position(&mut rng);
        for _ in 0..12 {
            compare(&pos);
            let moves = pos.legal_moves();
            let Some(&mv) = rng.choose(&moves) else { break };
            captures += usize::from(mv.is_capture());
            pos.play_unchecked(mv);
        }
    }
    assert!(captures > 500, "too few captures exercised: {captures}");
}

#[test]
fn same_moves_along_random_games_from_the_start() {
    let mut rng = Rng::new(77);
    for _ in 0..20 {
        let mut pos = Position::default();
        for _ in 0..200 {
            compare(&pos);
            let moves = pos.legal_moves();
            let Some(&mv) = rng.choose(&moves) else { break };
            pos.play_unchecked(mv);
        }
    }
}

#[test]
fn same_positions_after_every_move() {
    let mut rng = Rng::new(5);
    for _ in 0..200 {
        let mut pos = random_position(&mut rng);
        for _ in 0..10 {
            let reference = Board::parse(&pos.to_string());
            let moves = pos.legal_moves();
            let Some(&mv) = rng.choose(&moves) else { break };
            pos.play_unchecked(mv);
            let expected = reference.play(&mv.to_string());
            assert_eq!(Board::parse(&pos.to_string()).pieces, expected.pieces, "after {mv}");
        }
    }
}

#[test]
fn same_perft_from_the_start_and_a_position_with_kings() {
    let start = Position::default();
    assert_eq!(Board::parse(&start.to_string()).perft(3), start.perft(3));
    let kings: Position = "W:WKG2,KK4,H5,I3:BKB3,E5,F8,H4,D2".parse().unwrap();
    assert_eq!(Board::parse(&kings.to_string()).perft(3), kings.perft(3));
}
