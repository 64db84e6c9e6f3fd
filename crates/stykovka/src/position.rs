//! The position and its [`Game`] implementation.

use std::fmt;

use board_core::{
    ByPlayer, Cell, Game, IllegalMoveError, Outcome, Player, PositionError, zobrist_keys,
};

use crate::rules::{
    WinReason, could_win_at_once, count_moves, crashing_landings, docking_landings, end_after,
    for_each_move, for_each_move_from, has_move, wins_at_once,
};
use crate::{Move, MoveText, Setup, Square};

board_core::variants! {
    /// The variants of stykovka: there is one.
    pub enum Variant for "stykovka" {
        /// The 8x8 game from the Lines-of-Action-style start.
        Standard = "standard",
    }
}

/// Checkers per side; nothing is ever captured.
pub const CHECKERS_PER_SIDE: u32 = 8;

/// Zobrist keys: 64 for White's checkers, 64 for Black's, one for Black to move.
const KEYS: [u64; 129] = zobrist_keys(0x5157_0BA7);
const BLACK_TO_MOVE_KEY: u64 = KEYS[128];

#[inline]
fn key(player: Player, square: Square) -> u64 {
    KEYS[player.index() * 64 + square.index()]
}

/// The start (an interpretation): White c1 d1 e1 f1 c8 d8 e8 f8,
/// Black a3 a4 a5 a6 h3 h4 h5 h6.
const START: [u64; 2] = [0x3C00_0000_0000_003C, 0x0000_8181_8181_0000];

/// A stykovka position: the checkers, the side to move, and the result of the
/// end checks after the last move. Small and `Copy`.
///
/// Display gives the position text (see the crate docs); `{:#}` draws the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Checkers by [`Player::index`]: White's, then Black's.
    pieces: [u64; 2],
    side: Player,
    /// The winner and why, from the end checks after the last move.
    win: Option<(Player, WinReason)>,
    /// Whether some move of the side to move might win at once
    /// ([`could_win_at_once`]): when not, ordering and the tactical
    /// generator need not try the moves.
    may_win: bool,
    hash: u64,
}

impl Position {
    /// The squares of `player`'s checkers, `a1` = bit 0.
    pub const fn checkers(&self, player: Player) -> u64 {
        self.pieces[player.index()]
    }

    /// The checkers of the side to move and of its opponent.
    pub(crate) const fn own_and_enemy(&self) -> (u64, u64) {
        let us = self.side.index();
        (self.pieces[us], self.pieces[us ^ 1])
    }

    /// A position with these checkers, `side` to move, judged as if
    /// `side`'s opponent had just moved.
    pub(crate) fn with_pieces(pieces: [u64; 2], side: Player) -> Position {
        let mut pos = Position { pieces, side, win: None, may_win: true, hash: 0 };
        pos.win = pos.judge_last_move(true);
        pos.may_win = pos.judge_may_win();
        pos.hash = pos.zobrist_from_scratch();
        pos
    }

    /// The end checks for the move that led here (made by the player not to
    /// move); the side to move's docking only if that move moved one of its
    /// checkers (`opponent_moved`).
    fn judge_last_move(&self, opponent_moved: bool) -> Option<(Player, WinReason)> {
        let mover = self.side.other();
        let (opponent_bits, mover_bits) = self.own_and_enemy();
        end_after(mover_bits, opponent_bits, opponent_moved)
            .map(|(mover_wins, reason)| (if mover_wins { mover } else { self.side }, reason))
    }

    /// The pre-test of a win at once for the side to move.
    fn judge_may_win(&self) -> bool {
        let (own, enemy) = self.own_and_enemy();
        self.win.is_none() && could_win_at_once(own, enemy)
    }

    /// Whether some move here might win at once: `false` means no move is
    /// tactical.
    pub(crate) const fn may_win(&self) -> bool {
        self.may_win
    }

    /// Whether neither side has a move (the game is then drawn).
    fn nobody_can_move(&self) -> bool {
        let (own, enemy) = self.own_and_enemy();
        !has_move(own, enemy) && !has_move(enemy, own)
    }

    /// Perft by callbacks, without move lists; the last ply is counted, not played.
    fn perft_count(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.win.is_some() {
            return 0;
        }
        let (own, enemy) = self.own_and_enemy();
        let mut nodes = 0;
        if depth == 1 {
            nodes = count_moves(own, enemy);
        } else {
            for_each_move(own, enemy, |mv| {
                let mut child = *self;
                child.play_unchecked(mv);
                nodes += child.perft_count(depth - 1);
                true
            });
        }
        if nodes == 0 && !has_move(own, enemy) && has_move(enemy, own) {
            let mut child = *self;
            child.play_unchecked(Move::Pass);
            nodes = child.perft_count(depth - 1);
        }
        nodes
    }
}

board_core::default_variant!(Position);

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position(\"{self}\")")
    }
}

impl Game for Position {
    type Move = Move;
    type MoveText = MoveText;
    type Setup = Setup;
    type Variant = Variant;
    type Cell = Square;
    /// The owner of the checker on the square.
    type Piece = Player;

    const NAME: &'static str = "stykovka";
    const PLAYER_NAMES: ByPlayer<&'static str> = ByPlayer::new("White", "Black");
    /// 300 plies (150 moves each). The rules have no draw by repetition and
    /// checkers are never captured, so play can circle; games between
    /// sensible players end (docking or crash) far sooner.
    const DEFAULT_MAX_PLIES: u32 = 300;
    const RULES: &'static str = include_str!("../RULES.md");
    const NOTATION: &'static str = "from-to: d1-d3; landing on an enemy checker, add where it \
                                    retreats: c1-e3/a7; pass only when no other move exists: pass";

    fn start(_variant: Variant) -> Self {
        Position::with_pieces(START, Player::First)
    }

    fn from_setup(setup: Setup, _variant: Variant) -> Result<Self, PositionError> {
        let mut pieces = [0u64; 2];
        for (index, cell) in setup.board.iter().enumerate() {
            if let Some(player) = cell {
                pieces[player.index()] |= 1 << index;
            }
        }
        for player in Player::BOTH {
            let count = pieces[player.index()].count_ones();
            if count != CHECKERS_PER_SIDE {
                return Err(PositionError::new(format!(
                    "{} has {count} checkers, expected {CHECKERS_PER_SIDE}",
                    Self::PLAYER_NAMES[player]
                )));
            }
        }
        Ok(Position::with_pieces(pieces, setup.side_to_move))
    }

    fn to_setup(&self) -> Setup {
        let mut board = [None; 64];
        for (square, cell) in Square::all().zip(board.iter_mut()) {
            *cell = self.piece_at(square);
        }
        Setup { board, side_to_move: self.side }
    }

    fn variant(&self) -> Variant {
        Variant::Standard
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    /// Whose checker stands on `square`.
    fn piece_at(&self, square: Square) -> Option<Player> {
        if self.pieces[0] & square.bit() != 0 {
            Some(Player::First)
        } else if self.pieces[1] & square.bit() != 0 {
            Some(Player::Second)
        } else {
            None
        }
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        if self.win.is_some() {
            return;
        }
        let (own, enemy) = self.own_and_enemy();
        let before = moves.len();
        moves.reserve(64);
        for_each_move(own, enemy, |mv| {
            moves.push(mv);
            true
        });
        if moves.len() == before && has_move(enemy, own) {
            moves.push(Move::Pass);
        }
    }

    fn play_unchecked(&mut self, mv: Move) {
        let us = self.side;
        let them = us.other();
        match mv {
            Move::Slide { from, to } => {
                self.pieces[us.index()] ^= from.bit() | to.bit();
                self.hash ^= key(us, from) ^ key(us, to);
            }
            Move::Dock { from, to, retreat } => {
                self.pieces[us.index()] ^= from.bit() | to.bit();
                self.pieces[them.index()] ^= to.bit() | retreat.bit();
                self.hash ^= key(us, from) ^ key(us, to) ^ key(them, to) ^ key(them, retreat);
            }
            Move::Pass => {}
        }
        self.side = them;
        self.hash ^= BLACK_TO_MOVE_KEY;
        // A slide leaves the opponent's checkers (not docked before it) alone.
        self.win = self.judge_last_move(!matches!(mv, Move::Slide { .. }));
        self.may_win = self.judge_may_win();
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.win {
            Some((winner, reason)) => Some(Outcome::win(winner, reason.text())),
            None if self.nobody_can_move() => Some(Outcome::draw("neither side can move")),
            None => None,
        }
    }

    fn zobrist(&self) -> u64 {
        self.hash
    }

    fn zobrist_from_scratch(&self) -> u64 {
        let mut hash = if self.side == Player::Second { BLACK_TO_MOVE_KEY } else { 0 };
        for player in Player::BOTH {
            let mut bits = self.pieces[player.index()];
            while bits != 0 {
                hash ^= key(player, Square::lowest(bits));
                bits &= bits - 1;
            }
        }
        hash
    }

    fn resolve_move(&self, text: &MoveText) -> Result<Move, IllegalMoveError> {
        crate::notation::resolve(self, text)
    }

    /// Moves that win at once: a crash of an enemy checker, or docking
    /// (nothing is ever captured in this game).
    fn is_tactical(&self, mv: Move) -> bool {
        let (own, enemy) = self.own_and_enemy();
        self.may_win && wins_at_once(own, enemy, mv).is_some()
    }

    const TACTICAL_GENERATOR: bool = true;

    /// The moves that win at once, straight from the move rules (a pass
    /// never wins): of each checker only the moves landing where a crash or
    /// a docking is possible are tried.
    fn generate_tactical(&self, moves: &mut Vec<Move>) {
        if self.win.is_some() || !self.may_win {
            return;
        }
        let (own, enemy) = self.own_and_enemy();
        let crashing = crashing_landings(own, enemy);
        let mut pieces = own;
        while pieces != 0 {
            let from = Square::lowest(pieces);
            pieces &= pieces - 1;
            let landings = crashing | docking_landings(own, from);
            if landings == 0 {
                continue;
            }
            for_each_move_from(from, own, enemy, |mv| {
                if mv.to().is_some_and(|to| to.bit() & landings != 0)
                    && wins_at_once(own, enemy, mv).is_some()
                {
                    moves.push(mv);
                }
                true
            });
        }
    }

    /// Slides and docks by their from and to squares; the pass last.
    const MOVE_INDEX_BOUND: usize = 64 * 64 + 1;

    fn move_index(&self, mv: Move) -> usize {
        match (mv.from(), mv.to()) {
            (Some(from), Some(to)) => from.index() * 64 + to.index(),
            _ => 64 * 64,
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        self.perft_count(depth)
    }
}
