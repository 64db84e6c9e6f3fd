//! A deliberately simple, slow reference implementation written straight from
//! the rules text (no bitboards, no tables, its own text reader and writer),
//! compared with the fast one over many random positions: the same legal moves
//! (as text), the same position after every move, the same end.

use std::collections::BTreeMap;

use board_core::{Cell, Game, Player, Rng};
use focus::{Position, Square, Variant};

/// The cut-off corners, as the rules list them.
const HOLES: [&str; 12] = ["a1", "b1", "a2", "g1", "h1", "h2", "a7", "a8", "b8", "g8", "h8", "h7"];

fn name(file: i32, rank: i32) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

fn exists(file: i32, rank: i32) -> bool {
    (0..8).contains(&file) && (0..8).contains(&rank) && !HOLES.contains(&name(file, rank).as_str())
}

/// Stacks as strings of `b`/`w` bottom to top, keyed by (file, rank).
#[derive(Clone, Debug, PartialEq)]
struct Reference {
    stacks: BTreeMap<(i32, i32), String>,
    side: char,
    reserve: [u32; 2],
    captured: [u32; 2],
}

fn colour_index(colour: char) -> usize {
    if colour == 'b' { 0 } else { 1 }
}

impl Reference {
    fn read(text: &str) -> Reference {
        let fields: Vec<&str> = text.split(' ').collect();
        let mut stacks = BTreeMap::new();
        for (rank_text, rank) in fields[0].split('/').zip((0..8).rev()) {
            let mut file = (0..8).find(|&f| exists(f, rank)).unwrap();
            for entry in rank_text.split(',') {
                match entry.parse::<i32>() {
                    Ok(run) => file += run,
                    Err(_) => {
                        stacks.insert((file, rank), entry.to_owned());
                        file += 1;
                    }
                }
            }
        }
        let number = |i: usize| fields[i].parse::<u32>().unwrap();
        Reference {
            stacks,
            side: fields[1].chars().next().unwrap(),
            reserve: [number(3), number(4)],
            captured: [number(6), number(7)],
        }
    }

    fn write(&self) -> String {
        let mut ranks = Vec::new();
        for rank in (0..8).rev() {
            let mut entries = Vec::new();
            let mut empty = 0;
            for file in (0..8).filter(|&f| exists(f, rank)) {
                match self.stacks.get(&(file, rank)) {
                    Some(stack) => {
                        if empty > 0 {
                            entries.push(empty.to_string());
                            empty = 0;
                        }
                        entries.push(stack.clone());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                entries.push(empty.to_string());
            }
            ranks.push(entries.join(","));
        }
        format!(
            "{} {} reserve {} {} captured {} {}",
            ranks.join("/"),
            self.side,
            self.reserve[0],
            self.reserve[1],
            self.captured[0],
            self.captured[1]
        )
    }

    fn owns_a_stack(&self) -> bool {
        self.stacks.values().any(|s| s.ends_with(self.side))
    }

    fn moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        if !self.owns_a_stack() && self.reserve[colour_index(self.side)] == 0 {
            return moves;
        }
        for (&(file, rank), stack) in &self.stacks {
            if !stack.ends_with(self.side) {
                continue;
            }
            for k in 1..=stack.len() as i32 {
                for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                    let (to_file, to_rank) = (file + df * k, rank + dr * k);
                    if exists(to_file, to_rank) {
                        moves.push(format!("{}-{}", name(file, rank), name(to_file, to_rank)));
                    }
                }
            }
        }
        if self.reserve[colour_index(self.side)] > 0 {
            for rank in 0..8 {
                for file in 0..8 {
                    if exists(file, rank) {
                        moves.push(format!("@{}", name(file, rank)));
                    }
                }
            }
        }
        moves.sort();
        moves
    }

    fn square(text: &str) -> (i32, i32) {
        let bytes = text.as_bytes();
        (i32::from(bytes[0] - b'a'), i32::from(bytes[1] - b'1'))
    }

    fn play(&mut self, mv: &str) {
        let me = colour_index(self.side);
        let (to, moving) = if let Some(to) = mv.strip_prefix('@') {
            self.reserve[me] -= 1;
            (Self::square(to), self.side.to_string())
        } else {
            let (from, to) = mv.split_once('-').unwrap();
            let (from, to) = (Self::square(from), Self::square(to));
            let k = ((from.0 - to.0).abs() + (from.1 - to.1).abs()) as usize;
            let stack = self.stacks.remove(&from).unwrap();
            let (stays, moving) = stack.split_at(stack.len() - k);
            if !stays.is_empty() {
                self.stacks.insert(from, stays.to_owned());
            }
            (to, moving.to_owned())
        };
        let mut tall = self.stacks.remove(&to).unwrap_or_default() + &moving;
        while tall.len() > 5 {
            let bottom = tall.remove(0);
            if bottom == self.side {
                self.reserve[me] += 1;
            } else {
                self.captured[me] += 1;
            }
        }
        self.stacks.insert(to, tall);
        self.side = if self.side == 'b' { 'w' } else { 'b' };
    }
}

impl Reference {
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .iter()
            .map(|mv| {
                let mut child = self.clone();
                child.play(mv);
                child.perft(depth - 1)
            })
            .sum()
    }
}

/// The same move list, and when `with_play`, the same position after each move.
fn compare(pos: &Position, with_play: bool) {
    let text = pos.to_string();
    let reference = Reference::read(&text);
    assert_eq!(reference.write(), text, "the reference reads and writes {text} differently");
    let mut fast: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
    fast.sort();
    assert_eq!(fast, reference.moves(), "move lists differ in {text}");
    assert_eq!(fast.is_empty(), pos.is_over());
    if !with_play {
        return;
    }
    for mv in pos.legal_moves() {
        let mut after = *pos;
        after.play_unchecked(mv);
        let mut expected = reference.clone();
        expected.play(&mv.to_string());
        assert_eq!(after.to_string(), expected.write(), "{mv} from {text}");
    }
}

/// The positions of `tests/data/perft.txt` with their counts.
fn table() -> Vec<(Position, Vec<(u32, u64)>)> {
    include_str!("data/perft.txt")
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split('|').map(str::trim).collect();
            let pos = match fields[0] {
                "startpos" => Position::start(fields[1].parse::<Variant>().unwrap()),
                text => Position::from_text(text, fields[1].parse::<Variant>().unwrap()).unwrap(),
            };
            let counts = fields[2]
                .split_whitespace()
                .map(|pair| {
                    let (depth, leaves) = pair.split_once(':').unwrap();
                    (depth.parse().unwrap(), leaves.parse().unwrap())
                })
                .collect();
            (pos, counts)
        })
        .collect()
}

/// The reference recomputes the first two depths of every line of the perft table.
#[test]
fn reference_perft_matches_the_table() {
    for (pos, counts) in table() {
        let reference = Reference::read(&pos.to_string());
        for (depth, leaves) in counts.into_iter().filter(|&(d, _)| d <= 2) {
            assert_eq!(reference.perft(depth), leaves, "reference perft({depth}) of {pos}");
        }
    }
}

/// Seeded random games from every position of the perft table; every
/// position on the way has its move list compared, every third also the
/// result of each of its moves.
#[test]
fn fast_generator_agrees_with_the_reference() {
    let starts: Vec<Position> = table().into_iter().map(|(pos, _)| pos).collect();
    let mut rng = Rng::new(0xF0C5);
    let mut positions = 0;
    let mut tallest = 0;
    let mut with_reserve = 0;
    let mut with_captures = 0;
    for game in 0..2 * starts.len() {
        let mut pos = starts[game % starts.len()];
        for ply in 0..150 {
            compare(&pos, ply % 3 == 0);
            positions += 1;
            let tallest_here = Square::all().filter_map(|sq| pos.piece_at(sq)).map(|s| s.height());
            tallest = tallest.max(tallest_here.max().unwrap_or(0));
            with_reserve += usize::from(pos.reserve(pos.side_to_move()) > 0);
            with_captures += usize::from(pos.captured(Player::First) > 0);
            let moves = pos.legal_moves();
            let Some(&mv) = rng.choose(&moves) else { break };
            pos.play_unchecked(mv);
        }
    }
    assert!(positions > 1000, "only {positions} positions compared");
    assert_eq!(tallest, 5, "random play never built a 5-stack");
    assert!(
        with_reserve > 25 && with_captures > 500,
        "reserves ({with_reserve}) and captures ({with_captures}) too rare in {positions}"
    );
}
