//! A deliberately simple, slow move generator written straight from the rules
//! text (no bitboards, no packing, no undo: every jump clones the board), and
//! the check that the fast generator agrees with it — same move texts, same
//! resulting positions — on many random positions. This is what gives the
//! perft numbers their credibility.

use adiyukh::{Position, Variant};
use board_core::{Game, Rng};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Piece {
    white: bool,
    king: bool,
}

/// The board as `board[file][rank]`, each column bottom first.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Board {
    cols: Vec<Vec<Vec<Piece>>>,
    white_to_move: bool,
}

const DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

fn name(f: i32, r: i32) -> String {
    format!("{}{}", char::from(b'a' + f as u8), r + 1)
}

fn on_board(f: i32, r: i32) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

impl Board {
    fn parse(text: &str) -> Board {
        let mut tokens = text.split_whitespace();
        let white_to_move = tokens.next() == Some("w");
        let mut cols = vec![vec![Vec::new(); 8]; 8];
        for token in tokens {
            let (sq, letters) = token.split_once(':').unwrap();
            let f = i32::from(sq.as_bytes()[0] - b'a');
            let r = i32::from(sq.as_bytes()[1] - b'1');
            cols[f as usize][r as usize] = letters
                .chars()
                .map(|c| Piece { white: c.eq_ignore_ascii_case(&'w'), king: c.is_uppercase() })
                .collect();
        }
        Board { cols, white_to_move }
    }

    fn text(&self) -> String {
        let mut out = String::from(if self.white_to_move { "w" } else { "b" });
        for r in 0..8 {
            for f in 0..8 {
                let col = &self.cols[f as usize][r as usize];
                if !col.is_empty() {
                    out.push(' ');
                    out.push_str(&name(f, r));
                    out.push(':');
                    for p in col {
                        out.push(match (p.white, p.king) {
                            (true, false) => 'w',
                            (true, true) => 'W',
                            (false, false) => 'b',
                            (false, true) => 'B',
                        });
                    }
                }
            }
        }
        out
    }

    fn col(&self, f: i32, r: i32) -> &Vec<Piece> {
        &self.cols[f as usize][r as usize]
    }

    fn col_mut(&mut self, f: i32, r: i32) -> &mut Vec<Piece> {
        &mut self.cols[f as usize][r as usize]
    }

    fn top(&self, f: i32, r: i32) -> Option<Piece> {
        self.col(f, r).last().copied()
    }

    fn empty(&self, f: i32, r: i32) -> bool {
        on_board(f, r) && self.col(f, r).is_empty()
    }

    fn enemy_top(&self, f: i32, r: i32, white: bool) -> bool {
        on_board(f, r) && self.top(f, r).is_some_and(|p| p.white != white)
    }

    /// Every legal move: its text and the board after it.
    fn moves(&self) -> Vec<(String, Board)> {
        let mut captures = Vec::new();
        for f in 0..8 {
            for r in 0..8 {
                let Some(top) = self.top(f, r) else { continue };
                if top.white != self.white_to_move {
                    continue;
                }
                let mut board = self.clone();
                // The start square counts as empty during the capture.
                let mover = std::mem::take(board.col_mut(f, r));
                board.capture(mover, (f, r), None, name(f, r), &mut captures);
            }
        }
        if !captures.is_empty() {
            return captures;
        }
        let forward = if self.white_to_move { 1 } else { -1 };
        let last_row = if self.white_to_move { 7 } else { 0 };
        let mut quiet = Vec::new();
        for f in 0..8 {
            for r in 0..8 {
                let Some(top) = self.top(f, r) else { continue };
                if top.white != self.white_to_move || top.king {
                    continue;
                }
                for df in [-1, 1] {
                    let (tf, tr) = (f + df, r + forward);
                    if !self.empty(tf, tr) {
                        continue;
                    }
                    let mut after = self.clone();
                    let mut col = std::mem::take(after.col_mut(f, r));
                    if tr == last_row {
                        col.last_mut().unwrap().king = true;
                    }
                    *after.col_mut(tf, tr) = col;
                    after.white_to_move = !after.white_to_move;
                    quiet.push((format!("{}-{}", name(f, r), name(tf, tr)), after));
                }
            }
        }
        quiet
    }

    /// The jumps a column (`mover`, lifted off the board) on `at` can make,
    /// not going straight back along `last`: (direction, jumped square, landing squares).
    #[allow(clippy::type_complexity)]
    fn jumps(
        &self,
        mover: &[Piece],
        at: (i32, i32),
        last: Option<(i32, i32)>,
    ) -> Vec<((i32, i32), (i32, i32), Vec<(i32, i32)>)> {
        let top = *mover.last().unwrap();
        let mut out = Vec::new();
        for (df, dr) in DIRS {
            if last == Some((-df, -dr)) {
                continue;
            }
            let (mut f, mut r) = (at.0 + df, at.1 + dr);
            if top.king {
                while self.empty(f, r) {
                    f += df;
                    r += dr;
                }
            }
            if !self.enemy_top(f, r, top.white) {
                continue;
            }
            let over = (f, r);
            let mut landings = Vec::new();
            let (mut lf, mut lr) = (f + df, r + dr);
            while self.empty(lf, lr) {
                landings.push((lf, lr));
                if !top.king {
                    break;
                }
                lf += df;
                lr += dr;
            }
            if !landings.is_empty() {
                out.push(((df, dr), over, landings));
            }
        }
        out
    }

    fn capture(
        &self,
        mover: Vec<Piece>,
        at: (i32, i32),
        last: Option<(i32, i32)>,
        path: String,
        out: &mut Vec<(String, Board)>,
    ) {
        let white = mover.last().unwrap().white;
        let last_row = if white { 7 } else { 0 };
        for (dir, over, landings) in self.jumps(&mover, at, last) {
            // Take the top piece of the jumped column and put it at the bottom.
            let mut board = self.clone();
            let taken = board.col_mut(over.0, over.1).pop().unwrap();
            let mut new_mover = vec![taken];
            new_mover.extend(mover.iter().copied());
            let options: Vec<((i32, i32), Vec<Piece>, bool)> = landings
                .iter()
                .map(|&l| {
                    let mut m = new_mover.clone();
                    if l.1 == last_row {
                        m.last_mut().unwrap().king = true;
                    }
                    let goes_on = !board.jumps(&m, l, Some(dir)).is_empty();
                    (l, m, goes_on)
                })
                .collect();
            let must_go_on = options.iter().any(|o| o.2);
            for (l, m, goes_on) in options {
                if must_go_on && !goes_on {
                    continue;
                }
                let path = format!("{path}:{}", name(l.0, l.1));
                if goes_on {
                    board.capture(m, l, Some(dir), path, out);
                } else {
                    let mut after = board.clone();
                    let mut m = m;
                    if l.1 != last_row {
                        m.last_mut().unwrap().king = false;
                    }
                    *after.col_mut(l.0, l.1) = m;
                    after.white_to_move = !after.white_to_move;
                    out.push((path, after));
                }
            }
        }
    }
}

/// A random legal position: 12 pieces of each colour, some kings, shuffled
/// into a random number of columns on random squares.
fn random_position(rng: &mut Rng) -> String {
    let mut pieces: Vec<char> = Vec::new();
    for color in ['w', 'b'] {
        for _ in 0..12 {
            let king = rng.below(4) == 0;
            pieces.push(if king { color.to_ascii_uppercase() } else { color });
        }
    }
    for i in (1..pieces.len()).rev() {
        pieces.swap(i, rng.below(i + 1));
    }
    let mut squares: Vec<(i32, i32)> = (0..8)
        .flat_map(|r| (0..8).map(move |f| (f, r)))
        .filter(|(f, r)| (f + r) % 2 == 0)
        .collect();
    for i in (1..squares.len()).rev() {
        squares.swap(i, rng.below(i + 1));
    }
    let columns = 3 + rng.below(18);
    let mut cols = vec![String::new(); columns];
    for (i, p) in pieces.iter().enumerate() {
        let c = if i < columns { i } else { rng.below(columns) };
        cols[c].push(*p);
    }
    let side = if rng.below(2) == 0 { "w" } else { "b" };
    let mut text = side.to_owned();
    for (c, letters) in cols.iter().enumerate() {
        let (f, r) = squares[c];
        text.push_str(&format!(" {}:{letters}", name(f, r)));
    }
    text
}

/// Compares both generators on `text`; returns the positions after each move.
fn compare(text: &str) -> Vec<String> {
    let pos = Position::from_text(text, Variant::Standard).unwrap();
    let reference = Board::parse(&pos.to_string());
    let mut expected: Vec<(String, String)> =
        reference.moves().into_iter().map(|(m, b)| (m, b.text())).collect();
    let mut actual: Vec<(String, String)> = pos
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let mut child = pos;
            child.play_unchecked(mv);
            (mv.to_string(), child.to_string())
        })
        .collect();
    expected.sort();
    actual.sort();
    let moves = |v: &[(String, String)]| v.iter().map(|(m, _)| m.clone()).collect::<Vec<_>>();
    assert_eq!(moves(&actual), moves(&expected), "move lists differ in {pos}");
    assert_eq!(actual, expected, "resulting positions differ in {pos}");
    assert_eq!(pos.is_over(), expected.is_empty());
    expected.into_iter().map(|(_, after)| after).collect()
}

#[test]
fn fast_generator_matches_the_reference_on_random_positions() {
    let mut rng = Rng::new(2008);
    let mut checked = 0;
    for _ in 0..400 {
        let mut text = random_position(&mut rng);
        // Follow a short random line from each to mix in positions after captures.
        for _ in 0..6 {
            let next = compare(&text);
            checked += 1;
            match rng.choose(&next) {
                Some(after) => text = after.clone(),
                None => break,
            }
        }
    }
    assert!(checked > 1500);
}

#[test]
fn fast_generator_matches_the_reference_along_random_games() {
    let mut rng = Rng::new(13);
    let mut captures = 0;
    for _ in 0..60 {
        let mut text = Position::default().to_string();
        for _ in 0..Position::DEFAULT_MAX_PLIES {
            let next = compare(&text);
            let pos = Position::from_text(&text, Variant::Standard).unwrap();
            captures += pos.legal_moves().iter().filter(|m| m.is_capture()).count();
            match rng.choose(&next) {
                Some(after) => text = after.clone(),
                None => break,
            }
        }
    }
    assert!(captures > 1000, "too few captures seen: {captures}");
}

#[test]
fn fast_generator_matches_the_reference_on_constructed_positions() {
    // The rule tests' positions (tests/rules.rs), where the rules bite.
    for text in [
        "w a1:bbbbbbbbbB f4:wwwwwwwwwwwW d6:b g3:b",
        "w a1:bbbbbbbbbB c1:wwwwwwwwwwwW e3:b f6:b",
        "b d2:www b2:www d4:w c5:bbbbbbbbbbbb e7:ww g7:ww h8:W",
        "b d2:bww b2:ww d4:w c5:bbbbbbbbbbb e7:ww g7:ww h8:wwW",
        "w a1:bbbbbbbbB c3:wwwwwwwwwww d4:Wb b6:b h6:b",
        "w c3:wwwwwwwwwwww d4:b f4:b f2:b d2:b h8:bbbbbbbb",
        "w b8:wwwwwwwwwwwW c7:b d4:bb d2:bbb b2:bb f2:b g5:b b4:bb",
        "b g1:wwwbbbB b4:bbbw e5:bbbwww g5:bbww a7:w b8:ww",
    ] {
        let mut frontier = vec![text.to_owned()];
        for _ in 0..3 {
            frontier = frontier.iter().flat_map(|t| compare(t)).collect();
        }
    }
}

#[test]
fn reference_perft_agrees_with_the_perft_table() {
    fn perft(board: &Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        board.moves().iter().map(|(_, b)| perft(b, depth - 1)).sum()
    }
    let data = include_str!("data/perft.txt");
    let mut checked = 0;
    for line in data.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let text = match fields[0] {
            "startpos" => Position::default().to_string(),
            text => text.to_owned(),
        };
        let board = Board::parse(&text);
        for pair in fields[2].split_whitespace() {
            let (depth, count) = pair.split_once(':').unwrap();
            let depth: u32 = depth.parse().unwrap();
            if depth <= 5 {
                assert_eq!(
                    perft(&board, depth),
                    count.parse::<u64>().unwrap(),
                    "{text} depth {depth}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 25);
}
