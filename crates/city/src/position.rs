//! The position: pawns, side to move, variant; the variants and their set-ups;
//! making moves, the end of the game and the hash.

use std::fmt;

use board_core::{
    ByPlayer, Cell, Game, IllegalMoveError, Outcome, Player, PositionError, zobrist_keys,
};

use crate::board::{SQUARES, neighbours, squares_of};
use crate::{Move, MoveText, Setup, Square};

board_core::variants! {
    /// The variants of City: a set-up, named by the pawns per side, under
    /// one of the two [`Rules`]. `16c` is the default. White's pawns are
    /// listed (Black's are the same turned 180 degrees about e5); the squares
    /// are *reconstruction*.
    pub enum Variant for "city" {
        /// `16c` (the default): the `16` set-up under the playable rules
        /// (capture compulsory, the bazaar entered by one step).
        SixteenC = "16c",
        /// `8c`: the base set-up `8` under the playable rules.
        EightC = "8c",
        /// `22c`: the `22` set-up under the playable rules.
        TwentyTwoC = "22c",
        /// `24c`: the `24` set-up under the playable rules.
        TwentyFourC = "24c",
        /// `16`, literal rules: the base game's 8 pawns plus c4 d4 f3 g3 c6
        /// d6 f7 g7, the town squares off the two lines through e5.
        Sixteen = "16",
        /// `8`, the base game, literal rules: a1 b1 c1 d1 f1 g1 h1 i1, the
        /// first rank without e1.
        Eight = "8",
        /// `22`, literal rules: the `16` set-up plus b2 c2 b3 h2 g2 h3, the
        /// wall corners on White's side and their neighbours.
        TwentyTwo = "22",
        /// `24`, literal rules: the `22` set-up plus d2 f2 (the other reading
        /// of the source's misprint).
        TwentyFour = "24",
    }
}

/// The two rule sets a [`Variant`] plays under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// The literal reconstruction (variants `8`, `16`, `22`, `24`): capture
    /// is optional and a slide along rank 5 or file e may run into the
    /// bazaar. Every set-up is a shallow forced win for White.
    Literal,
    /// The playable rule set (variants `8c`, `16c`, `22c`, `24c`): the
    /// literal rules plus **compulsory capture** (when the side to move has a
    /// capture or a move onto the bazaar, its legal moves are exactly those)
    /// and **entry to the bazaar by one step** (from d5, f5, e4 or e6 only; a
    /// slide stops before e5).
    Playable,
}

const BASE: [&str; 8] = ["a1", "b1", "c1", "d1", "f1", "g1", "h1", "i1"];
const TOWN_EIGHT: [&str; 8] = ["c4", "d4", "f3", "g3", "c6", "d6", "f7", "g7"];
const CORNER_SIX: [&str; 6] = ["b2", "c2", "b3", "h2", "g2", "h3"];
const WALL_TWO: [&str; 2] = ["d2", "f2"];

const fn concat<const N: usize>(parts: &[&[&'static str]]) -> [&'static str; N] {
    let mut out = [""; N];
    let mut n = 0;
    let mut p = 0;
    while p < parts.len() {
        let mut i = 0;
        while i < parts[p].len() {
            out[n] = parts[p][i];
            n += 1;
            i += 1;
        }
        p += 1;
    }
    assert!(n == N, "the set-up lists do not add up");
    out
}

const WHITE_16: [&str; 16] = concat(&[&BASE, &TOWN_EIGHT]);
const WHITE_22: [&str; 22] = concat(&[&BASE, &TOWN_EIGHT, &CORNER_SIX]);
const WHITE_24: [&str; 24] = concat(&[&BASE, &TOWN_EIGHT, &CORNER_SIX, &WALL_TWO]);

impl Variant {
    /// The rule set the variant plays under.
    pub const fn rules(self) -> Rules {
        match self {
            Variant::SixteenC | Variant::EightC | Variant::TwentyTwoC | Variant::TwentyFourC => {
                Rules::Playable
            }
            Variant::Sixteen | Variant::Eight | Variant::TwentyTwo | Variant::TwentyFour => {
                Rules::Literal
            }
        }
    }

    /// The pawns each side starts with (and the most it can have): 8, 16,
    /// 22 or 24.
    pub const fn pawns_per_side(self) -> usize {
        self.white_start().len()
    }

    /// White's start squares (Black's are the same turned 180 degrees about e5).
    const fn white_start(self) -> &'static [&'static str] {
        match self {
            Variant::Sixteen | Variant::SixteenC => &WHITE_16,
            Variant::Eight | Variant::EightC => &BASE,
            Variant::TwentyTwo | Variant::TwentyTwoC => &WHITE_22,
            Variant::TwentyFour | Variant::TwentyFourC => &WHITE_24,
        }
    }
}

/// Zobrist keys: one per (colour, square), then one for Black to move.
const KEYS: [u64; 2 * SQUARES + 1] = zobrist_keys(0xC17E_5A7A_BA2A_A125);
const BLACK_TO_MOVE_KEY: u64 = KEYS[2 * SQUARES];

const fn key(player: Player, square: usize) -> u64 {
    KEYS[player.index() * SQUARES + square]
}

/// A position of City: where the pawns stand, who moves, and the variant.
///
/// Small and `Copy` (two 81-bit sets, the hash, two bytes). Built by
/// [`Position::default`], [`Game::start`], [`str::parse`], [`Game::from_text`]
/// or [`Game::from_setup`], so it is always valid: at most one pawn on the
/// bazaar (then its owner has just won), and a side without pawns only when it
/// is that side's turn (it has lost). [`Game::piece_at`] gives the owner of
/// the pawn on a square.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) pawns: ByPlayer<u128>,
    hash: u64,
    side: Player,
    variant: Variant,
}

impl Position {
    /// The pawns of `player` as a bit set (bit `i` = square index `i`).
    pub(crate) const fn pawns_of(&self, player: Player) -> u128 {
        match player {
            Player::First => self.pawns.first,
            Player::Second => self.pawns.second,
        }
    }

    /// The squares of `player`'s pawns, `a1` first, rank by rank.
    pub fn pawns(&self, player: Player) -> impl Iterator<Item = Square> + use<> {
        squares_of(self.pawns_of(player))
    }

    /// How many pawns `player` has.
    pub fn pawn_count(&self, player: Player) -> u32 {
        self.pawns_of(player).count_ones()
    }

    fn compute_hash(pawns: ByPlayer<u128>, side: Player) -> u64 {
        let mut hash = if side == Player::Second { BLACK_TO_MOVE_KEY } else { 0 };
        for player in Player::BOTH {
            for square in squares_of(pawns[player]) {
                hash ^= key(player, square.index());
            }
        }
        hash
    }

    /// The squares a tactical move ends on: the enemy pawns and the bazaar.
    pub(crate) const fn tactical_squares(&self) -> u128 {
        self.pawns_of(self.side.other()) | Square::BAZAAR.bit()
    }

    /// Whether the game has ended by the bazaar or by capture of all pawns
    /// (the cheap part of [`Game::outcome`], enough to stop move generation).
    pub(crate) const fn is_decided(&self) -> bool {
        (self.pawns.first | self.pawns.second) & Square::BAZAAR.bit() != 0
            || self.pawns_of(self.side) == 0
    }
}

board_core::default_variant!(Position);

impl Game for Position {
    type Move = Move;
    type MoveText = MoveText;
    type Setup = Setup;
    type Variant = Variant;
    type Cell = Square;
    /// The owner of the pawn on the square.
    type Piece = Player;

    const NAME: &'static str = "city";
    const PLAYER_NAMES: ByPlayer<&'static str> = ByPlayer::new("White", "Black");
    /// Games are short: the first pawn over the wall decides most of them. 300
    /// plies leaves room for slow manoeuvring; a capped game is a draw.
    const DEFAULT_MAX_PLIES: u32 = 300;
    const RULES: &'static str = include_str!("../RULES.md");
    const NOTATION: &'static str = "from-to, captures too: d1-d2 (onto the wall), \
        c2-h5 (along the wall), a1-a9 (a slide that captures on a9); reach the bazaar e5 to win \
        (variants 8c 16c 22c 24c: capturing is compulsory, e5 is entered by one step)";

    fn start(variant: Variant) -> Self {
        let mut pawns = ByPlayer::new(0u128, 0u128);
        for name in variant.white_start() {
            if let Ok(square) = name.parse::<Square>() {
                pawns.first |= square.bit();
                pawns.second |= 1 << (SQUARES - 1 - square.index());
            }
        }
        let side = Player::First;
        Position { pawns, hash: Self::compute_hash(pawns, side), side, variant }
    }

    fn from_setup(setup: Setup, variant: Variant) -> Result<Self, PositionError> {
        let mut pawns = ByPlayer::new(0u128, 0u128);
        for (i, owner) in setup.board.iter().enumerate() {
            if let Some(player) = owner {
                pawns[*player] |= 1 << i;
            }
        }
        let colour = |p: Player| Self::PLAYER_NAMES[p];
        let max = variant.pawns_per_side();
        for player in Player::BOTH {
            let count = pawns[player].count_ones() as usize;
            if count > max {
                return Err(PositionError::new(format!(
                    "{} has {count} pawns, at most {max} in variant {variant}",
                    colour(player)
                )));
            }
        }
        let side = setup.side_to_move;
        let mover = side.other();
        if pawns[mover] == 0 {
            let message = if pawns[side] == 0 {
                "there are no pawns at all".to_owned()
            } else {
                format!(
                    "{} has no pawns, so the game ended before {} could be to move",
                    colour(mover),
                    colour(side)
                )
            };
            return Err(PositionError::new(message));
        }
        let bazaar = Square::BAZAAR.bit();
        if pawns[side] & bazaar != 0 {
            return Err(PositionError::new(format!(
                "{} stands on the bazaar e5 and has won, so {} cannot be to move",
                colour(side),
                colour(side)
            )));
        }
        if pawns[mover] & bazaar != 0 && pawns[side] == 0 {
            return Err(PositionError::new(format!(
                "{} has no pawns although {} entered the bazaar e5, which captures nothing",
                colour(side),
                colour(mover)
            )));
        }
        Ok(Position { pawns, hash: Self::compute_hash(pawns, side), side, variant })
    }

    fn to_setup(&self) -> Setup {
        let mut setup = Setup::empty(self.side);
        for square in Square::all() {
            setup.board[square.index()] = self.piece_at(square);
        }
        setup
    }

    fn variant(&self) -> Variant {
        self.variant
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    /// Who has a pawn on `square`, if anyone.
    fn piece_at(&self, square: Square) -> Option<Player> {
        Player::BOTH.into_iter().find(|&p| self.pawns_of(p) & square.bit() != 0)
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        self.generate(moves);
    }

    fn play_unchecked(&mut self, mv: Move) {
        let (from, to) = (mv.from.index(), mv.to.index());
        let (side, enemy) = (self.side, self.side.other());
        self.pawns[side] ^= (1 << from) | (1 << to);
        self.hash ^= key(side, from) ^ key(side, to) ^ BLACK_TO_MOVE_KEY;
        if self.pawns[enemy] & (1 << to) != 0 {
            self.pawns[enemy] ^= 1 << to;
            self.hash ^= key(enemy, to);
        }
        self.side = enemy;
    }

    fn outcome(&self) -> Option<Outcome> {
        let bazaar = Square::BAZAAR.bit();
        for player in Player::BOTH {
            if self.pawns[player] & bazaar != 0 {
                return Some(Outcome::win(player, "bazaar reached"));
            }
        }
        let own = self.pawns[self.side];
        if own == 0 {
            return Some(Outcome::win(self.side.other(), "all pawns captured"));
        }
        // Every orthogonally adjacent square is one move away (slide, climb,
        // step along the wall, climb down), so a side is stuck exactly when
        // all its pawns' neighbours hold its own pawns.
        if neighbours(own) & !own == 0 {
            return Some(Outcome::win(self.side.other(), "no legal move"));
        }
        None
    }

    fn zobrist(&self) -> u64 {
        self.hash
    }

    fn zobrist_from_scratch(&self) -> u64 {
        Self::compute_hash(self.pawns, self.side)
    }

    fn resolve_move(&self, text: &MoveText) -> Result<Move, IllegalMoveError> {
        let mv = Move::new(text.from, text.to);
        let mut moves = Vec::new();
        self.generate(&mut moves);
        if moves.contains(&mv) {
            Ok(mv)
        } else {
            Err(IllegalMoveError::not_legal(text.to_string(), self.why_illegal(mv)))
        }
    }

    /// Captures and entering the bazaar. Under the playable rules these are
    /// compulsory: when there is one, every legal move is tactical.
    fn is_tactical(&self, mv: Move) -> bool {
        self.tactical_squares() & mv.to.bit() != 0
    }

    fn generate_tactical(&self, moves: &mut Vec<Move>) {
        self.generate_tactical_moves(moves);
    }

    const MOVE_INDEX_BOUND: usize = SQUARES * SQUARES;

    /// From and to squares.
    fn move_index(&self, mv: Move) -> usize {
        mv.from.index() * SQUARES + mv.to.index()
    }

    /// Captures are compulsory (under the playable rules).
    const COMPULSORY_TACTICAL: bool = true;

    // Staged generation and move codes for search (stages.rs).
    const TACTICAL_GENERATOR: bool = true;

    fn generate_quiet(&self, moves: &mut Vec<Move>) {
        self.generate_quiet_moves(moves);
    }

    fn generate_tactical_forced(&self, moves: &mut Vec<Move>) -> bool {
        self.generate_tactical_moves_forced(moves)
    }

    /// From and to squares, as the move index.
    fn move_code(&self, mv: Move) -> u32 {
        Self::code_of(mv)
    }

    fn move_from_code(&self, code: u32) -> Option<Move> {
        self.move_of_code(code)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({:?}, variant {})", self.to_string(), self.variant)
    }
}
