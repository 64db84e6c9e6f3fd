//! The position and its `Game` implementation.

use board_core::{
    ByPlayer, Cell, Game, IllegalMoveError, Outcome, Player, PositionError, zobrist_keys,
};

use crate::rules::{Captures, Collect, Tally, Visit, has_move, walk_moves, why_illegal};
use crate::square::squares;
use crate::{Move, MoveText, Setup, Square};

board_core::variants! {
    /// The variants of Otrazhenie: there is one.
    pub enum Variant for "otrazhenie" {
        /// The 8x8 game, two checkers a side.
        Standard = "standard",
    }
}

/// Zobrist keys: 64 per player, then one for Black to move.
const KEY_TABLE: [u64; 129] = zobrist_keys(0x07_4A_2E_E1);
static KEYS: [u64; 129] = KEY_TABLE;
const BLACK_TO_MOVE_KEY: u64 = KEY_TABLE[128];

fn piece_key(player: Player, sq: Square) -> u64 {
    KEYS[player.index() * 64 + sq.index()]
}

/// The start position's text.
pub const START_TEXT: &str = "B6B/8/8/8/8/8/8/W6W w";

/// An Otrazhenie position: where the checkers stand and who moves.
///
/// Small and `Copy` (two bitboards, the side to move and the incrementally
/// kept Zobrist hash). Built by [`Position::default`], [`Game::start`],
/// `text.parse()`, [`Game::from_text`] or [`Game::from_setup`], so it always
/// holds at most two checkers a side and the player who moved last still has
/// a checker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The checkers of each player, indexed by [`Player::index`].
    checkers: [u64; 2],
    side: Player,
    hash: u64,
}

impl Position {
    /// The squares of `player`'s checkers, a1 first.
    pub fn checkers(&self, player: Player) -> impl Iterator<Item = Square> + use<> {
        squares(self.checkers[player.index()])
    }

    /// How many checkers `player` has left (0 to 2).
    pub const fn checker_count(&self, player: Player) -> u32 {
        self.checkers[player.index()].count_ones()
    }

    /// Calls `visit` with every legal move, in generation order, without
    /// building a list.
    pub fn for_each_move(&self, visit: impl FnMut(Move)) {
        let (own, enemy) = self.sides();
        walk_moves(own, enemy, &mut Visit(visit));
    }

    /// The number of legal moves, counted without generating them.
    pub fn move_count(&self) -> u32 {
        let (own, enemy) = self.sides();
        Tally::of(own, enemy).moves()
    }

    #[cfg(feature = "cache")]
    /// White to move with the checkers `own` against Black's `enemy` (which
    /// must not overlap, at most two each, `enemy` not empty).
    pub(crate) fn from_sides(own: u64, enemy: u64) -> Position {
        let mut pos = Position { checkers: [own, enemy], side: Player::First, hash: 0 };
        pos.hash = pos.compute_hash();
        pos
    }

    /// The checkers of the side to move, then the opponent's.
    pub(crate) const fn sides(&self) -> (u64, u64) {
        let mover = self.side.index();
        (self.checkers[mover], self.checkers[1 - mover])
    }

    fn compute_hash(&self) -> u64 {
        let mut hash = if self.side == Player::Second { BLACK_TO_MOVE_KEY } else { 0 };
        for player in Player::BOTH {
            for sq in self.checkers(player) {
                hash ^= piece_key(player, sq);
            }
        }
        hash
    }
}

board_core::default_variant!(Position);

impl Game for Position {
    type Move = Move;
    type MoveText = MoveText;
    type Setup = Setup;
    type Variant = Variant;
    type Cell = Square;
    type Piece = Player;

    const NAME: &'static str = "otrazhenie";
    const PLAYER_NAMES: ByPlayer<&'static str> = ByPlayer::new("White", "Black");
    /// 200 plies (100 moves a side); a game stopped there is adjudicated a
    /// draw (the provided [`Game::adjudicate`]), as the rules define no draw.
    const DEFAULT_MAX_PLIES: u32 = 200;
    const RULES: &'static str = include_str!("../RULES.md");
    const NOTATION: &'static str =
        "quiet move from-to: a1-a5; capture from-edge square x captured square: a1-h1xd5";

    fn start(variant: Variant) -> Self {
        let setup: Setup = match START_TEXT.parse() {
            Ok(setup) => setup,
            Err(e) => unreachable!("the start text is valid: {e}"),
        };
        match Self::from_setup(setup, variant) {
            Ok(pos) => pos,
            Err(e) => unreachable!("the start position is valid: {e}"),
        }
    }

    fn from_setup(setup: Setup, _variant: Variant) -> Result<Self, PositionError> {
        let mut checkers = [0u64; 2];
        for (index, owner) in setup.board.iter().enumerate() {
            if let Some(player) = owner {
                checkers[player.index()] |= 1 << index;
            }
        }
        for player in Player::BOTH {
            let count = checkers[player.index()].count_ones();
            if count > 2 {
                let name = Self::PLAYER_NAMES[player];
                return Err(PositionError::new(format!(
                    "{name} has {count} checkers, at most 2 are allowed"
                )));
            }
        }
        let last_mover = setup.side_to_move.other();
        if checkers[last_mover.index()] == 0 {
            let (name, to_move) =
                (Self::PLAYER_NAMES[last_mover], Self::PLAYER_NAMES[setup.side_to_move]);
            return Err(PositionError::new(format!(
                "{name} has no checker, but only the side to move ({to_move}) can have lost \
                 its last one"
            )));
        }
        let mut pos = Position { checkers, side: setup.side_to_move, hash: 0 };
        pos.hash = pos.compute_hash();
        Ok(pos)
    }

    /// The unvalidated setup of this position (what the position text shows).
    fn to_setup(&self) -> Setup {
        let mut board = [None; 64];
        for (square, sq) in board.iter_mut().zip(Square::all()) {
            *square = self.piece_at(sq);
        }
        Setup { board, side_to_move: self.side }
    }

    fn variant(&self) -> Variant {
        Variant::Standard
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    /// The owner of the checker on `sq`, if any.
    fn piece_at(&self, sq: Square) -> Option<Player> {
        Player::BOTH.into_iter().find(|&p| self.checkers[p.index()] & sq.bit() != 0)
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        let (own, enemy) = self.sides();
        walk_moves(own, enemy, &mut Collect(moves));
    }

    /// Captures.
    fn is_tactical(&self, mv: Move) -> bool {
        mv.is_capture()
    }

    /// The captures, found by the move walk without listing the quiet moves.
    fn generate_tactical(&self, moves: &mut Vec<Move>) {
        let (own, enemy) = self.sides();
        walk_moves(own, enemy, &mut Captures(moves));
    }

    /// The captures have a generator of their own (above).
    const TACTICAL_GENERATOR: bool = true;

    const MOVE_INDEX_BOUND: usize = 64 * 64;

    /// From and to squares.
    fn move_index(&self, mv: Move) -> usize {
        mv.from().index() * 64 + mv.to().index()
    }

    fn play_unchecked(&mut self, mv: Move) {
        let mover = self.side;
        let (from, to) = (mv.from(), mv.to());
        self.checkers[mover.index()] ^= from.bit() | to.bit();
        self.hash ^= piece_key(mover, from) ^ piece_key(mover, to);
        if mv.is_capture() {
            let victim = mover.other();
            self.checkers[victim.index()] &= !to.bit();
            self.hash ^= piece_key(victim, to);
        }
        self.side = mover.other();
        self.hash ^= BLACK_TO_MOVE_KEY;
    }

    fn outcome(&self) -> Option<Outcome> {
        let (own, enemy) = self.sides();
        let winner = self.side.other();
        if own == 0 {
            Some(Outcome::win(winner, "captured both checkers"))
        } else if !has_move(own, enemy) {
            Some(Outcome::win(winner, "no legal move"))
        } else {
            None
        }
    }

    fn zobrist(&self) -> u64 {
        self.hash
    }

    fn zobrist_from_scratch(&self) -> u64 {
        self.compute_hash()
    }

    fn resolve_move(&self, text: &MoveText) -> Result<Move, IllegalMoveError> {
        let mv = *text;
        if self.is_over() {
            return Err(IllegalMoveError::GameOver { text: mv.to_string() });
        }
        let mut legal = false;
        self.for_each_move(|m| legal |= m == mv);
        if legal {
            return Ok(mv);
        }
        let (own, enemy) = self.sides();
        let reason = why_illegal(
            mv,
            own,
            enemy,
            Self::PLAYER_NAMES[self.side],
            Self::PLAYER_NAMES[self.side.other()],
        );
        Err(IllegalMoveError::not_legal(mv.to_string(), reason))
    }

    /// Counts the last ply without generating its moves.
    fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => u64::from(self.move_count()),
            _ => {
                let mut nodes = 0;
                self.for_each_move(|mv| {
                    let mut child = *self;
                    child.play_unchecked(mv);
                    nodes += child.perft(depth - 1);
                });
                nodes
            }
        }
    }
}
