//! Race: a second tiny game for the protocol tests, with two variants, a score
//! and a score-based adjudication (like adiyukh).
//!
//! The players add 1 or 2 (moves `s1`, `s2`) to a shared total and as many
//! points to their own score; the game ends when the total reaches the goal
//! (10 in `short`, 30 in `long`) and the higher score wins.
//! Position text: `<total> <p1 points> <p2 points> <1|2>`.

use std::fmt;
use std::str::FromStr;

use board_core::view::{Board, Pieces};
use board_core::{
    ByPlayer, Cell, CellError, Describe, Evaluate, Game, IllegalMoveError, MoveSyntaxError,
    Outcome, Player, PositionError,
};

board_core::variants! {
    /// How far the race goes.
    pub enum Variant for "race" {
        /// To 10.
        Short = "short",
        /// To 30.
        Long = "long",
    }
}

/// A cell of the track, `t0`..`t30`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Track(u32);

impl fmt::Display for Track {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "t{}", self.0)
    }
}

impl FromStr for Track {
    type Err = CellError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let n = s.strip_prefix(['t', 'T']).and_then(|n| n.parse::<u32>().ok());
        n.filter(|&n| n <= 30).map(Track).ok_or_else(|| CellError::new(s, "expected t0..t30"))
    }
}

impl Cell for Track {
    const INDEX_BOUND: usize = 31;
    fn index(self) -> usize {
        self.0 as usize
    }
    fn from_index(index: usize) -> Option<Self> {
        u32::try_from(index).ok().filter(|&n| n <= 30).map(Track)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step(u32);

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "s{}", self.0)
    }
}

impl FromStr for Step {
    type Err = MoveSyntaxError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "s1" => Ok(Step(1)),
            "s2" => Ok(Step(2)),
            _ => Err(MoveSyntaxError::new(s, "expected s1 or s2")),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Race {
    goal: u32,
    total: u32,
    points: ByPlayer<u32>,
    turn: Player,
}

#[derive(Debug)]
pub struct Setup {
    total: u32,
    points: ByPlayer<u32>,
    turn: Player,
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let turn = if self.turn == Player::First { 1 } else { 2 };
        write!(f, "{} {} {} {turn}", self.total, self.points.first, self.points.second)
    }
}

impl FromStr for Setup {
    type Err = PositionError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let fields: Vec<&str> = s.split_whitespace().collect();
        let [total, p1, p2, turn] = fields[..] else {
            return Err(PositionError::new("expected '<total> <p1> <p2> <1|2>'"));
        };
        let number = |t: &str| t.parse::<u32>().map_err(|_| PositionError::new("bad number"));
        let turn = match turn {
            "1" => Player::First,
            "2" => Player::Second,
            _ => return Err(PositionError::new("side to move must be 1 or 2")),
        };
        Ok(Setup { total: number(total)?, points: ByPlayer::new(number(p1)?, number(p2)?), turn })
    }
}

fn goal(variant: Variant) -> u32 {
    match variant {
        Variant::Short => 10,
        Variant::Long => 30,
    }
}

impl fmt::Display for Race {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.to_setup().fmt(f)
    }
}

board_core::default_variant!(Race);

impl Game for Race {
    type Move = Step;
    type MoveText = Step;
    type Setup = Setup;
    type Variant = Variant;
    type Cell = Track;
    type Piece = Player;
    const NAME: &'static str = "race";
    const PLAYER_NAMES: ByPlayer<&'static str> = ByPlayer::new("Red", "Blue");
    const NOTATION: &'static str = "s1 or s2: add 1 or 2 to the total";

    fn start(variant: Variant) -> Self {
        Race { goal: goal(variant), total: 0, points: ByPlayer::new(0, 0), turn: Player::First }
    }
    fn from_setup(setup: Setup, variant: Variant) -> Result<Self, PositionError> {
        let goal = goal(variant);
        if setup.total > goal || setup.points.first + setup.points.second != setup.total {
            return Err(PositionError::new("the points must add up to a total within the goal"));
        }
        Ok(Race { goal, total: setup.total, points: setup.points, turn: setup.turn })
    }
    fn to_setup(&self) -> Setup {
        Setup { total: self.total, points: self.points, turn: self.turn }
    }
    fn variant(&self) -> Variant {
        if self.goal == 10 { Variant::Short } else { Variant::Long }
    }
    fn side_to_move(&self) -> Player {
        self.turn
    }
    fn piece_at(&self, cell: Track) -> Option<Player> {
        (cell.0 == self.total).then_some(Player::First)
    }
    fn generate_moves(&self, moves: &mut Vec<Step>) {
        moves.extend((1..=2).filter(|s| self.total + s <= self.goal).map(Step));
    }
    fn play_unchecked(&mut self, mv: Step) {
        self.total += mv.0;
        self.points[self.turn] += mv.0;
        self.turn = self.turn.other();
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.total == self.goal).then(|| self.adjudicate())
    }
    fn zobrist(&self) -> u64 {
        u64::from(self.total) << 40 | u64::from(self.points.first) << 8 | self.turn.index() as u64
    }
    fn resolve_move(&self, text: &Step) -> Result<Step, IllegalMoveError> {
        if self.is_legal(*text) {
            Ok(*text)
        } else {
            Err(IllegalMoveError::not_legal(text.to_string(), "past the goal"))
        }
    }
    fn adjudicate(&self) -> Outcome {
        let (a, b) = (self.points.first, self.points.second);
        let end = match a.cmp(&b) {
            std::cmp::Ordering::Greater => Outcome::win(Player::First, "more points"),
            std::cmp::Ordering::Less => Outcome::win(Player::Second, "more points"),
            std::cmp::Ordering::Equal => Outcome::draw("equal points"),
        };
        end.with_score(self.points)
    }
}

impl Evaluate for Race {
    fn evaluate(&self) -> i32 {
        let own = self.points[self.turn];
        let other = self.points[self.turn.other()];
        (i32::try_from(own).unwrap_or(0) - i32::try_from(other).unwrap_or(0)) * 100
    }
}

/// A track of cells `t0`..`t<goal>` with a counter on the total.
impl Describe for Race {
    fn board(&self) -> Board {
        let cells = u8::try_from(self.goal + 1).unwrap_or(u8::MAX);
        let mut board = Board::squares(cells, 1, &[("track", "#dddddd")], |_, _| Some("track"));
        for (total, cell) in board.cells.iter_mut().enumerate() {
            cell.name = format!("t{total}");
        }
        board.labels.clear();
        board.colours = ByPlayer::new("#c62828", "#1565c0");
        board
    }
    fn pieces(&self) -> Pieces {
        Pieces {
            score: Some(self.points),
            ..Pieces::singles([(format!("t{}", self.total), Some(Player::First))], "counter")
        }
    }
    fn move_path(&self, mv: Step) -> Vec<String> {
        vec![format!("t{}", self.total + mv.0)]
    }
}
