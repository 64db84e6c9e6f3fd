//! A deliberately simple, slow move generator written straight from the rules
//! text (`RULES.md`; a grid of characters, the zones from its square lists, no bit
//! sets, no tables), compared with the crate's fast generator on many random
//! positions. This is what gives the perft table its credibility. Both rule
//! sets: the literal one (variants `8` ... `24`) and the playable one (`8c`
//! ... `24c`: compulsory capture, the bazaar entered by one step), told apart
//! by the variant's name alone.

use std::collections::BTreeSet;

use board_core::{Game, Player, Rng, Variant as _};
use city::{Position, Variant};

/// The wall in the rules' ring order.
const RING: [&str; 24] = [
    "b2", "c2", "d2", "e2", "f2", "g2", "h2", "h3", "h4", "h5", "h6", "h7", "h8", "g8", "f8", "e8",
    "d8", "c8", "b8", "b7", "b6", "b5", "b4", "b3",
];
/// The town as the rules list it.
const TOWN: [&str; 24] = [
    "c3", "d3", "e3", "f3", "g3", "c4", "d4", "e4", "f4", "g4", "c5", "d5", "f5", "g5", "c6", "d6",
    "e6", "f6", "g6", "c7", "d7", "e7", "f7", "g7",
];

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Outside,
    Wall,
    Town,
    Bazaar,
}

fn name(file: i32, rank: i32) -> String {
    format!("{}{}", char::from(b'a' + file as u8), rank + 1)
}

fn kind(file: i32, rank: i32) -> Kind {
    let n = name(file, rank);
    if n == "e5" {
        Kind::Bazaar
    } else if RING.contains(&n.as_str()) {
        Kind::Wall
    } else if TOWN.contains(&n.as_str()) {
        Kind::Town
    } else {
        Kind::Outside
    }
}

/// The board as characters, `grid[rank][file]`: 'W', 'B' or '.'; the side
/// to move; whether the playable rules apply.
struct Board {
    grid: [[char; 9]; 9],
    side: char,
    playable: bool,
}

impl Board {
    /// The position `pos` as the reference sees it: its text (checked
    /// separately by the round-trip tests), so both generators see the same
    /// position, and the rule set from the variant's name (`16c`: playable).
    fn of(pos: &Position) -> Board {
        let mut board = Board::from_text(&pos.to_string());
        board.playable = Game::variant(pos).to_string().ends_with('c');
        board
    }

    fn from_text(text: &str) -> Board {
        let mut grid = [['.'; 9]; 9];
        let (board, side) = text.split_once(' ').expect("board and side");
        for (row, rank_text) in board.split('/').enumerate() {
            let mut file = 0;
            for c in rank_text.chars() {
                if let Some(n) = c.to_digit(10) {
                    file += n as usize;
                } else {
                    grid[8 - row][file] = c;
                    file += 1;
                }
            }
        }
        Board { grid, side: side.chars().next().expect("side"), playable: false }
    }

    fn at(&self, file: i32, rank: i32) -> char {
        self.grid[rank as usize][file as usize]
    }

    /// Every legal move as `from-to`, following the rules one by one.
    fn moves(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let me = self.side;
        let enemy = if me == 'W' { 'B' } else { 'W' };
        let all: Vec<(i32, i32)> = (0..9).flat_map(|r| (0..9).map(move |f| (f, r))).collect();
        // End: a pawn on the bazaar, or no pawn of the side to move.
        if all.iter().any(|&(f, r)| kind(f, r) == Kind::Bazaar && self.at(f, r) != '.') {
            return out;
        }
        if !all.iter().any(|&(f, r)| self.at(f, r) == me) {
            return out;
        }
        let on_board = |f: i32, r: i32| (0..9).contains(&f) && (0..9).contains(&r);
        let steps = [(0, 1), (1, 0), (0, -1), (-1, 0)];
        for &(f, r) in &all {
            if self.at(f, r) != me {
                continue;
            }
            let from = name(f, r);
            if kind(f, r) == Kind::Wall {
                // Rule 4: climb down one step onto an adjacent non-wall square.
                for (df, dr) in steps {
                    let (tf, tr) = (f + df, r + dr);
                    if on_board(tf, tr) && kind(tf, tr) != Kind::Wall && self.at(tf, tr) != me {
                        out.insert(format!("{from}-{}", name(tf, tr)));
                    }
                }
                // Rule 3: along the ring, both directions, over empty squares.
                let start = RING.iter().position(|s| *s == from).expect("on the ring");
                for dir in [1, 23] {
                    let mut i = start;
                    loop {
                        i = (i + dir) % 24;
                        if i == start {
                            break;
                        }
                        let sq = RING[i];
                        let (sf, sr) = (
                            i32::from(sq.as_bytes()[0] - b'a'),
                            i32::from(sq.as_bytes()[1] - b'1'),
                        );
                        let c = self.at(sf, sr);
                        if c == me {
                            break;
                        }
                        out.insert(format!("{from}-{sq}"));
                        if c == enemy {
                            break;
                        }
                    }
                }
            } else {
                // Rule 2: climb onto an adjacent wall square.
                for (df, dr) in steps {
                    let (tf, tr) = (f + df, r + dr);
                    if on_board(tf, tr) && kind(tf, tr) == Kind::Wall && self.at(tf, tr) != me {
                        out.insert(format!("{from}-{}", name(tf, tr)));
                    }
                }
                // Rule 1: rook slide, never onto or over the wall, stopping at
                // an enemy (capture) or on the bazaar. Playable rules: e5 only
                // by one orthogonal step, and a slide never enters or crosses it.
                for (df, dr) in steps {
                    let (mut tf, mut tr) = (f + df, r + dr);
                    let mut first = true;
                    while on_board(tf, tr) && kind(tf, tr) != Kind::Wall {
                        let c = self.at(tf, tr);
                        if c == me {
                            break;
                        }
                        let bazaar = kind(tf, tr) == Kind::Bazaar;
                        if !(bazaar && self.playable && !first) {
                            out.insert(format!("{from}-{}", name(tf, tr)));
                        }
                        if c == enemy || bazaar {
                            break;
                        }
                        tf += df;
                        tr += dr;
                        first = false;
                    }
                }
            }
        }
        // Playable rules: when a move captures or ends on the bazaar, only
        // such moves are legal.
        if self.playable {
            let forced: BTreeSet<String> = out
                .iter()
                .filter(|mv| {
                    let to = mv.split('-').nth(1).expect("from-to").as_bytes();
                    let (tf, tr) = (i32::from(to[0] - b'a'), i32::from(to[1] - b'1'));
                    self.at(tf, tr) == enemy || kind(tf, tr) == Kind::Bazaar
                })
                .cloned()
                .collect();
            if !forced.is_empty() {
                return forced;
            }
        }
        out
    }
}

fn fast_moves(pos: &Position) -> BTreeSet<String> {
    let moves = pos.legal_moves();
    let set: BTreeSet<String> = moves.iter().map(ToString::to_string).collect();
    assert_eq!(set.len(), moves.len(), "duplicate moves in {pos}");
    set
}

fn assert_same_moves(pos: &Position) {
    let reference = Board::of(pos).moves();
    let fast = fast_moves(pos);
    assert_eq!(
        fast,
        reference,
        "move sets differ in {pos}: only fast {:?}, only reference {:?}",
        fast.difference(&reference).collect::<Vec<_>>(),
        reference.difference(&fast).collect::<Vec<_>>()
    );
}

/// A random position of `variant`: random pawns on random squares (never the
/// bazaar, at least one each), random side to move.
fn random_position(rng: &mut Rng, variant: Variant) -> Position {
    let max = Position::start(variant).pawn_count(Player::First) as usize;
    let mut grid = ['.'; 81];
    for colour in ['W', 'B'] {
        let count = 1 + rng.below(max);
        let mut placed = 0;
        while placed < count {
            let i = rng.below(81);
            if i != 40 && grid[i] == '.' {
                grid[i] = colour;
                placed += 1;
            }
        }
    }
    let ranks: Vec<String> = (0..9)
        .rev()
        .map(|rank| {
            let mut text = String::new();
            let mut empty = 0;
            for &c in &grid[rank * 9..rank * 9 + 9] {
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(c);
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            text
        })
        .collect();
    let side = if rng.below(2) == 0 { 'W' } else { 'B' };
    let text = format!("{} {side}", ranks.join("/"));
    Position::from_text(&text, variant).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn same_moves_as_the_reference_on_random_positions() {
    let mut rng = Rng::new(0xC17E);
    for i in 0..2000 {
        let variant = Variant::ALL[i % Variant::ALL.len()];
        assert_same_moves(&random_position(&mut rng, variant));
    }
}

#[test]
fn same_moves_as_the_reference_along_random_games() {
    let mut rng = Rng::new(0x5EED);
    let mut positions = 0;
    for &variant in Variant::ALL {
        for _ in 0..12 {
            let mut pos = Position::start(variant);
            loop {
                assert_same_moves(&pos);
                positions += 1;
                let moves = pos.legal_moves();
                let Some(&mv) = rng.choose(&moves) else { break };
                pos.play_unchecked(mv);
            }
        }
    }
    assert!(positions > 500, "only {positions} positions");
}

/// Perft with the reference generator, playing moves through the crate (the
/// move texts are the same, as the tests above check).
fn reference_perft(pos: &Position, depth: u32) -> u64 {
    let moves = Board::of(pos).moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|text| {
            let mut child = *pos;
            child.play_text(text).unwrap_or_else(|e| panic!("{text} in {pos}: {e}"));
            reference_perft(&child, depth - 1)
        })
        .sum()
}

#[test]
fn reference_perft_agrees_from_every_start() {
    for (variant, depth) in [
        (Variant::Sixteen, 2),
        (Variant::Eight, 3),
        (Variant::TwentyTwo, 2),
        (Variant::TwentyFour, 2),
        (Variant::SixteenC, 4),
        (Variant::EightC, 6),
        (Variant::TwentyTwoC, 3),
        (Variant::TwentyFourC, 3),
    ] {
        let start = Position::start(variant);
        assert_eq!(reference_perft(&start, depth), start.perft(depth), "variant {variant}");
    }
}

/// The reconstruction's perft figures for the playable rule set ("a win ends the
/// line"), from the reference generator alone.
#[test]
fn reference_perft_gives_the_spec_figures_of_the_playable_starts() {
    for (variant, counts) in [
        (Variant::SixteenC, &[14, 192, 2544][..]),
        (Variant::TwentyTwoC, &[20, 386, 7164][..]),
        (Variant::EightC, &[2, 4, 6, 8, 62][..]),
    ] {
        let start = Position::start(variant);
        for (depth, &count) in (1..).zip(counts) {
            assert_eq!(reference_perft(&start, depth), count, "variant {variant} depth {depth}");
        }
    }
}
