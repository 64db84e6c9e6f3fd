//! The position and the rules: move generation, making moves, the end.

use board_core::{
    ByPlayer, Cell, Game, IllegalMoveError, Outcome, Player, PositionError, zobrist_keys,
};

use crate::board::{EMPTY, MAX_HEIGHT, ON_BOARD, SQUARES, Square, Stack, TARGETS, height};
use crate::moves::{Move, MoveText};
use crate::text::Setup;

/// Pieces each player owns at the start.
pub const PIECES_PER_PLAYER: u8 = 18;

/// Taking over an enemy stack this tall or taller is tactical: quiescence
/// search plays it past the horizon, as it does captures.
pub(crate) const TAKEOVER_HEIGHT: usize = 3;

/// `STACK_KEYS[square * 64 + code]`; the empty square has key 0.
static STACK_KEYS: [u64; 64 * 64] = {
    let mut keys = zobrist_keys::<{ 64 * 64 }>(0xF0C5_0001);
    let mut square = 0;
    while square < 64 {
        keys[square * 64] = 0;
        keys[square * 64 + EMPTY as usize] = 0;
        square += 1;
    }
    keys
};

/// `RESERVE_KEYS[player][count]`; an empty reserve has key 0.
static RESERVE_KEYS: [[u64; PIECES_PER_PLAYER as usize + 1]; 2] = {
    let raw = zobrist_keys::<{ 2 * (PIECES_PER_PLAYER as usize + 1) }>(0xF0C5_0002);
    let mut keys = [[0; PIECES_PER_PLAYER as usize + 1]; 2];
    let mut n = 1;
    while n <= PIECES_PER_PLAYER as usize {
        keys[0][n] = raw[n];
        keys[1][n] = raw[PIECES_PER_PLAYER as usize + 1 + n];
        n += 1;
    }
    keys
};

const SECOND_TO_MOVE_KEY: u64 = zobrist_keys::<1>(0xF0C5_0003)[0];

board_core::variants! {
    /// The variants of Focus: there is one.
    pub enum Variant for "focus" {
        /// Sackson's game on the 52-square board.
        Standard = "standard",
    }
}

/// A Focus position: the stacks, both reserves, the pieces each player has
/// captured, and the side to move. Small and `Copy`.
///
/// ```
/// use focus::prelude::*;
///
/// let mut pos = Position::default();
/// assert_eq!(pos.legal_moves().len(), 68);
/// pos.play_text("e4-e5")?;
/// let e5: Square = "e5".parse()?;
/// assert_eq!(pos.piece_at(e5).map(|stack| stack.to_string()).as_deref(), Some("wb"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// Stack codes by square index (see [`Stack`]); `EMPTY` off the board too.
    stacks: [u8; 64],
    /// The squares whose top piece is each player's.
    owned: [u64; 2],
    reserve: [u8; 2],
    captured: [u8; 2],
    side: Player,
    hash: u64,
}

impl Position {
    /// The pieces in `player`'s reserve.
    pub fn reserve(&self, player: Player) -> u8 {
        self.reserve[player.index()]
    }

    /// The enemy pieces `player` has captured (removed from the game).
    pub fn captured(&self, player: Player) -> u8 {
        self.captured[player.index()]
    }

    /// The squares whose stacks `player` owns, as a bitboard over
    /// [`Cell::index`] (bit `rank * 8 + file`).
    pub fn owned(&self, player: Player) -> u64 {
        self.owned[player.index()]
    }

    /// The stack codes by square index (see [`Stack`]; the empty code off
    /// the board).
    pub(crate) fn stack_codes(&self) -> &[u8; 64] {
        &self.stacks
    }

    /// The pieces in the stacks `player` owns.
    pub(crate) fn controlled(&self, player: Player) -> u32 {
        squares(self.owned[player.index()]).map(|sq| height(self.stacks[sq.index()]) as u32).sum()
    }

    /// The number of stack moves `player`'s stacks have (drops not counted).
    pub fn stack_mobility(&self, player: Player) -> u32 {
        squares(self.owned[player.index()])
            .map(|sq| TARGETS[sq.index()][height(self.stacks[sq.index()])].len())
            .sum()
    }

    /// The pieces pushed off the bottom of the destination by landing `k`
    /// pieces on `to`, as (the mover's own, the enemy's): what
    /// [`play_unchecked`](Game::play_unchecked) sends back to the reserve
    /// and captures, found without playing the move.
    #[inline]
    pub(crate) fn pushed_off(&self, to: Square, k: usize) -> (u32, u32) {
        let code = self.stacks[to.index()];
        let tall = height(code);
        let removed = (tall + k).saturating_sub(MAX_HEIGHT);
        if removed == 0 {
            return (0, 0);
        }
        // The target's bottom pieces are the bits just below its marker.
        let second = ((code >> (tall - removed)) & ((1 << removed) - 1)).count_ones();
        let first = removed as u32 - second;
        if self.side == Player::First { (first, second) } else { (second, first) }
    }

    /// For each number of landing pieces `k` (1 to 5), the squares where
    /// landing `k` pieces is [tactical](Game::is_tactical): it captures an
    /// enemy piece, or takes over an enemy stack of [`TAKEOVER_HEIGHT`] or
    /// more.
    fn tactical_squares(&self) -> [u64; MAX_HEIGHT + 1] {
        // Landing k pieces on a stack of height h pushes off its bottom
        // h + k - 5; the enemy piece nearest the bottom, at colour bit p
        // (bit h - 1 is the bottom piece), goes when k >= 5 - p.
        let enemy_bits = if self.side == Player::First { 0 } else { 0xFF };
        let mut by_least_k = [0u64; MAX_HEIGHT + 1];
        for to in squares(self.owned[0] | self.owned[1]) {
            let code = self.stacks[to.index()];
            let enemy = (code ^ enemy_bits) & ((1 << height(code)) - 1);
            if enemy != 0 {
                let p = 7 - enemy.leading_zeros() as usize;
                by_least_k[MAX_HEIGHT - p] |= 1 << to.index();
            }
        }
        // Any number of landing pieces takes over the enemy stack it lands on.
        for to in squares(self.owned[self.side.other().index()]) {
            if height(self.stacks[to.index()]) >= TAKEOVER_HEIGHT {
                by_least_k[1] |= 1 << to.index();
            }
        }
        for k in 2..=MAX_HEIGHT {
            by_least_k[k] |= by_least_k[k - 1];
        }
        by_least_k
    }

    /// The number of legal moves, without listing them.
    pub fn count_moves(&self) -> u64 {
        let me = self.side.index();
        let drops = if self.reserve[me] > 0 { SQUARES.len() as u64 } else { 0 };
        u64::from(self.stack_mobility(self.side)) + drops
    }

    /// The position from a setup, checked: each colour's pieces on the board,
    /// in reserve and captured by the opponent add up to 18, and the player
    /// who just moved owns a stack (a move always leaves the mover on top).
    pub(crate) fn from_checked_setup(setup: &Setup) -> Result<Position, PositionError> {
        let mut pos = Position {
            stacks: [EMPTY; 64],
            owned: [0; 2],
            reserve: [setup.reserve.first, setup.reserve.second],
            captured: [setup.captured.first, setup.captured.second],
            side: setup.side_to_move,
            hash: 0,
        };
        for &(square, stack) in &setup.stacks {
            if pos.stacks[square.index()] != EMPTY {
                return Err(PositionError::new(format!("{square} is given twice")));
            }
            pos.put(square, stack.code());
        }
        for player in Player::BOTH {
            let name = Position::PLAYER_NAMES[player];
            let on_board: usize = setup.stacks.iter().map(|(_, stack)| stack.count(player)).sum();
            let total = on_board
                + usize::from(pos.reserve(player))
                + usize::from(pos.captured(player.other()));
            if total != usize::from(PIECES_PER_PLAYER) {
                return Err(PositionError::new(format!(
                    "{name} has {on_board} on the board + {} in reserve + {} captured by {} = \
                     {total} pieces, expected {PIECES_PER_PLAYER}",
                    pos.reserve(player),
                    pos.captured(player.other()),
                    Position::PLAYER_NAMES[player.other()],
                )));
            }
        }
        let last_mover = pos.side.other();
        if pos.owned(last_mover) == 0 {
            return Err(PositionError::new(format!(
                "{} owns no stack, but has just moved (a move leaves the mover on top)",
                Position::PLAYER_NAMES[last_mover]
            )));
        }
        pos.hash = pos.zobrist_from_scratch();
        Ok(pos)
    }

    /// The start position.
    fn standard_start() -> Position {
        let mut pos = Position {
            stacks: [EMPTY; 64],
            owned: [0; 2],
            reserve: [0; 2],
            captured: [0; 2],
            side: Player::First,
            hash: 0,
        };
        for rank in 1..7 {
            // Ranks 2, 4, 6 read W W B B W W from file b; ranks 3, 5, 7 the reverse.
            let row = if rank % 2 == 1 { [1, 1, 0, 0, 1, 1] } else { [0, 0, 1, 1, 0, 0] };
            for (file, colour) in (1..7).zip(row) {
                if let Some(square) = Square::new(file, rank) {
                    pos.put(square, (1 << 1) | colour);
                }
            }
        }
        pos.hash = pos.zobrist_from_scratch();
        pos
    }

    /// Sets the stack code of `square`, keeping the owner masks and the hash.
    #[inline]
    fn put(&mut self, square: Square, code: u8) {
        let index = square.index();
        self.hash ^= STACK_KEYS[index * 64 + usize::from(self.stacks[index])]
            ^ STACK_KEYS[index * 64 + usize::from(code)];
        self.stacks[index] = code;
        let bit = 1u64 << index;
        self.owned[0] &= !bit;
        self.owned[1] &= !bit;
        if code > EMPTY {
            self.owned[usize::from(code & 1)] |= bit;
        }
    }

    #[inline]
    fn set_reserve(&mut self, player: usize, count: u8) {
        self.hash ^= RESERVE_KEYS[player][usize::from(self.reserve[player])]
            ^ RESERVE_KEYS[player][usize::from(count)];
        self.reserve[player] = count;
    }

    /// Puts the `k` pieces `moved` (colour bits, top piece in bit 0) on top of
    /// `to`, then trims the stack to 5 from the bottom: the mover's own pieces
    /// go to their reserve, the enemy's are captured.
    #[inline]
    fn land(&mut self, to: Square, moved: u8, k: usize) {
        let me = self.side.index();
        let mut code = (u16::from(self.stacks[to.index()]) << k) | u16::from(moved);
        let tall = 15 - code.leading_zeros() as usize;
        if tall > MAX_HEIGHT {
            let removed = tall - MAX_HEIGHT;
            let colours = (code >> MAX_HEIGHT) & ((1 << removed) - 1);
            let second = colours.count_ones() as usize;
            let (own, enemy) =
                if me == 0 { (removed - second, second) } else { (second, removed - second) };
            self.set_reserve(me, self.reserve[me] + own as u8);
            self.captured[me] += enemy as u8;
            code = (code & ((1 << MAX_HEIGHT) - 1)) | (1 << MAX_HEIGHT);
        }
        self.put(to, code as u8);
    }
}

/// The squares of a bitboard, lowest index first.
fn squares(mut bits: u64) -> impl Iterator<Item = Square> {
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let index = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        Some(Square::from_board_index(index))
    })
}

board_core::default_variant!(Position);

impl Game for Position {
    type Move = Move;
    type MoveText = MoveText;
    type Setup = Setup;
    type Variant = Variant;
    type Cell = Square;
    type Piece = Stack;

    const NAME: &'static str = "focus";
    const PLAYER_NAMES: ByPlayer<&'static str> = ByPlayer::new("Black", "White");
    /// Focus has no draw rule, the second player can mirror forever (see the
    /// crate docs), and random games practically never end (reserves keep
    /// refilling); 400 plies (200 moves each) is room for a real game.
    const DEFAULT_MAX_PLIES: u32 = 400;
    const RULES: &'static str = include_str!("../RULES.md");
    const NOTATION: &'static str = "move the top pieces of a stack as many squares as pieces: \
                                    c5-c1 (4 pieces), e4-e5 (1 piece); drop a reserve piece: @e5";

    fn start(_variant: Variant) -> Self {
        Position::standard_start()
    }

    fn from_setup(setup: Setup, _variant: Variant) -> Result<Self, PositionError> {
        Position::from_checked_setup(&setup)
    }

    /// The stacks in position-text order (rank 8 down to rank 1, files left
    /// to right), as reading the text gives them.
    fn to_setup(&self) -> Setup {
        let stacks = (0..8)
            .rev()
            .flat_map(|rank| (0..8).filter_map(move |file| Square::new(file, rank)))
            .filter_map(|square| Some((square, self.piece_at(square)?)))
            .collect();
        Setup {
            stacks,
            side_to_move: self.side,
            reserve: ByPlayer::new(self.reserve[0], self.reserve[1]),
            captured: ByPlayer::new(self.captured[0], self.captured[1]),
        }
    }

    fn variant(&self) -> Variant {
        Variant::Standard
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    /// The stack on `square`, or `None` if it is empty.
    #[inline]
    fn piece_at(&self, square: Square) -> Option<Stack> {
        Stack::from_code(self.stacks[square.index()])
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        let me = self.side.index();
        for from in squares(self.owned[me]) {
            let targets = &TARGETS[from.index()][height(self.stacks[from.index()])];
            moves.extend(targets.as_slice().iter().map(|&to| Move::Stack { from, to }));
        }
        if self.reserve[me] > 0 {
            moves.extend(SQUARES.iter().map(|&to| Move::Drop { to }));
        }
    }

    fn play_unchecked(&mut self, mv: Move) {
        match mv {
            Move::Stack { from, to } => {
                let k = mv.piece_count();
                let code = self.stacks[from.index()];
                self.put(from, code >> k);
                self.land(to, code & ((1 << k) - 1), k);
            }
            Move::Drop { to } => {
                let me = self.side.index();
                self.set_reserve(me, self.reserve[me].saturating_sub(1));
                self.land(to, me as u8, 1);
            }
        }
        self.side = self.side.other();
        self.hash ^= SECOND_TO_MOVE_KEY;
    }

    fn outcome(&self) -> Option<Outcome> {
        let me = self.side.index();
        (self.owned[me] == 0 && self.reserve[me] == 0)
            .then(|| Outcome::win(self.side.other(), "no stack and no reserve"))
    }

    fn zobrist(&self) -> u64 {
        self.hash
    }

    fn zobrist_from_scratch(&self) -> u64 {
        let stacks = squares(ON_BOARD)
            .map(|sq| STACK_KEYS[sq.index() * 64 + usize::from(self.stacks[sq.index()])])
            .fold(0, |hash, key| hash ^ key);
        let reserves = RESERVE_KEYS[0][usize::from(self.reserve[0])]
            ^ RESERVE_KEYS[1][usize::from(self.reserve[1])];
        let side = if self.side == Player::Second { SECOND_TO_MOVE_KEY } else { 0 };
        stacks ^ reserves ^ side
    }

    fn resolve_move(&self, mv: &Move) -> Result<Move, IllegalMoveError> {
        let name = Self::PLAYER_NAMES[self.side];
        let refuse = |reason: String| Err(IllegalMoveError::not_legal(mv.to_string(), reason));
        match *mv {
            // `Move`'s fields are public, so a move built in code (not read
            // from text) may be diagonal, too long or stand still.
            Move::Stack { from, to }
                if !TARGETS[from.index()][MAX_HEIGHT].as_slice().contains(&to) =>
            {
                refuse(format!("{from}-{to} is not 1 to 5 squares along one file or rank"))
            }
            Move::Stack { from, .. } => match self.piece_at(from) {
                None => refuse(format!("{from} is empty")),
                Some(stack) if stack.owner() != self.side => {
                    refuse(format!("the stack on {from} is not {name}'s (its top piece is not)"))
                }
                Some(stack) if stack.height() < mv.piece_count() => refuse(format!(
                    "the stack on {from} is {} high, moving {} squares takes {} pieces",
                    stack.height(),
                    mv.piece_count(),
                    mv.piece_count()
                )),
                Some(_) => Ok(*mv),
            },
            Move::Drop { .. } if self.reserve(self.side) == 0 => {
                refuse(format!("{name} has no piece in reserve"))
            }
            Move::Drop { .. } => Ok(*mv),
        }
    }

    /// Stack moves and drops that capture (the destination grows past
    /// [`MAX_HEIGHT`] and an enemy piece is among those pushed off its
    /// bottom) or take over an enemy stack of three pieces or more.
    fn is_tactical(&self, mv: Move) -> bool {
        let code = self.stacks[mv.to().index()];
        let enemy_tall = self.owned[self.side.other().index()] & (1 << mv.to().index()) != 0
            && height(code) >= TAKEOVER_HEIGHT;
        enemy_tall || self.pushed_off(mv.to(), mv.piece_count()).1 > 0
    }

    const TACTICAL_GENERATOR: bool = true;

    fn generate_tactical(&self, moves: &mut Vec<Move>) {
        let tactical = self.tactical_squares();
        if tactical[MAX_HEIGHT] == 0 {
            return;
        }
        let me = self.side.index();
        for from in squares(self.owned[me]) {
            let targets = &TARGETS[from.index()];
            for k in 1..=height(self.stacks[from.index()]) {
                if tactical[k] == 0 {
                    continue;
                }
                // The targets at distance k follow those nearer.
                let at_k = &targets[k].as_slice()[targets[k - 1].len() as usize..];
                moves.extend(
                    at_k.iter()
                        .filter(|to| tactical[k] & (1 << to.index()) != 0)
                        .map(|&to| Move::Stack { from, to }),
                );
            }
        }
        if self.reserve[me] > 0 {
            moves.extend(squares(tactical[1]).map(|to| Move::Drop { to }));
        }
    }

    /// The moves [`generate_moves`](Game::generate_moves) gives, in its
    /// order, but the [tactical](Game::is_tactical) ones.
    fn generate_quiet(&self, moves: &mut Vec<Move>) {
        let tactical = self.tactical_squares();
        if tactical[MAX_HEIGHT] == 0 {
            return self.generate_moves(moves);
        }
        let me = self.side.index();
        for from in squares(self.owned[me]) {
            let targets = &TARGETS[from.index()];
            for k in 1..=height(self.stacks[from.index()]) {
                let skip = tactical[k];
                let at_k = &targets[k].as_slice()[targets[k - 1].len() as usize..];
                moves.extend(
                    at_k.iter()
                        .filter(|to| skip & (1 << to.index()) == 0)
                        .map(|&to| Move::Stack { from, to }),
                );
            }
        }
        if self.reserve[me] > 0 {
            let skip = tactical[1];
            moves.extend(
                SQUARES
                    .iter()
                    .filter(|to| skip & (1 << to.index()) == 0)
                    .map(|&to| Move::Drop { to }),
            );
        }
    }

    /// Stack moves by their from and to squares, then drops by their square.
    const MOVE_INDEX_BOUND: usize = 65 * 64;

    fn move_index(&self, mv: Move) -> usize {
        match mv {
            Move::Stack { from, to } => from.index() * 64 + to.index(),
            Move::Drop { to } => 64 * 64 + to.index(),
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        fn count(pos: &Position, buffers: &mut [Vec<Move>]) -> u64 {
            let Some((moves, deeper)) = buffers.split_first_mut() else {
                return pos.count_moves();
            };
            moves.clear();
            pos.generate_moves(moves);
            moves
                .iter()
                .map(|&mv| {
                    let mut child = *pos;
                    child.play_unchecked(mv);
                    count(&child, deeper)
                })
                .sum()
        }
        match depth {
            0 => 1,
            _ => count(self, &mut vec![Vec::new(); depth as usize - 1]),
        }
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position(\"{self}\")")
    }
}
