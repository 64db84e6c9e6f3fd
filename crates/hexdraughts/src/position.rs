//! The position, the rules of play and the end of the game.

use board_core::Cell as _;
use board_core::{ByPlayer, Game, IllegalMoveError, Outcome, Player, PositionError, zobrist_keys};

use crate::board::{
    ALL_FIELDS, Bits, Direction, FIELD_COUNT, FIELDS, Field, bit, bits_of, line_direction, ray,
    row_bits,
};
use crate::movegen::Sides;
use crate::moves::{Move, MoveText};
use crate::text::{Kind, Piece, Setup};

board_core::variants! {
    /// The rule variants.
    pub enum Variant for "hexdraughts" {
        /// Article 1.2: the side to move without a legal move loses.
        Standard = "standard",
        /// Article 4.0(c): the side to move without a legal move draws.
        BlockedDraw = "blocked-draw",
    }
}

/// Zobrist keys: four piece kinds times 128 padded bits, then the side to move
/// and the variant.
const KEYS: [u64; 4 * 128 + 2] = zobrist_keys(0x4845_5844_5241_5547);
const BLACK_TO_MOVE: usize = 4 * 128;
const BLOCKED_DRAW: usize = 4 * 128 + 1;

const fn piece_key(owner: Player, king: bool, field: u8) -> u64 {
    KEYS[(owner as usize * 2 + king as usize) * 128 + field as usize]
}

/// The row where `player`'s men become kings: A (0) for White, K (10) for Black.
pub const fn promotion_row(player: Player) -> usize {
    match player {
        Player::First => 0,
        Player::Second => 10,
    }
}

/// White's promotion row and Black's.
const PROMOTION: ByPlayer<Bits> =
    ByPlayer::new(row_bits(promotion_row(Player::First)), row_bits(promotion_row(Player::Second)));

/// A position of hexagonal draughts: the pieces, the side to move and the
/// variant. Small and `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pieces: ByPlayer<Bits>,
    kings: Bits,
    side: Player,
    variant: Variant,
    hash: u64,
}

impl Position {
    /// Every piece with its field, in field order (A1 first).
    pub fn occupied(&self) -> impl Iterator<Item = (Field, Piece)> + '_ {
        FIELDS.into_iter().filter_map(|f| self.piece_at(f).map(|p| (f, p)))
    }

    /// How many men and kings `player` has.
    pub fn count(&self, player: Player) -> ByKind {
        let own = self.pieces[player];
        ByKind { men: (own & !self.kings).count_ones(), kings: (own & self.kings).count_ones() }
    }

    /// Whether `mv` moves a man that reaches the far row on its way.
    pub(crate) fn promotes(&self, mv: Move) -> bool {
        mv.promotes()
    }

    /// The quiet move of the side to move named by the code `code` (start
    /// and end field), when it is legal here.
    fn quiet_move_of_code(&self, code: u32) -> Option<Move> {
        if code >> 14 != 0 {
            return None;
        }
        let (from, to) = ((code & 0x7f) as u8, (code >> 7) as u8);
        let sides = self.sides(self.side);
        let empty = ALL_FIELDS & !(self.pieces.first | self.pieces.second);
        let (from_bit, to_bit) = (bit(from), bit(to));
        if to_bit & empty == 0 {
            return None;
        }
        let promotes = if sides.men & from_bit != 0 {
            // A man steps forward onto an adjacent field.
            if !sides.forward.iter().any(|&dir| dir.step(from_bit) == to_bit) {
                return None;
            }
            PROMOTION[self.side] & to_bit != 0
        } else if sides.kings & from_bit != 0 {
            // A king slides along a line over empty fields.
            let dir = line_direction(from, to)?;
            if ray(from, dir) & ray(to, dir.opposite()) & !empty != 0 {
                return None;
            }
            false
        } else {
            return None;
        };
        (!sides.can_capture()).then_some(Move::quiet(from, to, promotes))
    }

    pub(crate) fn bits(&self, player: Player) -> Bits {
        self.pieces[player]
    }

    pub(crate) fn king_bits(&self) -> Bits {
        self.kings
    }

    /// The pieces as seen by `player`, as if it were to move.
    pub(crate) fn sides(&self, player: Player) -> Sides {
        let own = self.pieces[player];
        Sides {
            men: own & !self.kings,
            kings: own & self.kings,
            opp: self.pieces[player.other()],
            forward: forward(player),
            promotion: PROMOTION[player],
        }
    }

    fn validate(setup: &Setup, variant: Variant) -> Result<Position, PositionError> {
        let mut pieces = ByPlayer::new(0, 0);
        let mut kings = 0;
        for &(field, piece) in &setup.pieces {
            let b = bit(field.bit_index());
            if (pieces.first | pieces.second) & b != 0 {
                return Err(PositionError::new(format!("{field} is listed twice")));
            }
            if piece.kind == Kind::Man && PROMOTION[piece.owner] & b != 0 {
                return Err(PositionError::new(format!(
                    "{} man on {field} must be a king (row {} is where {} promotes)",
                    player_name(piece.owner),
                    field.row_letter(),
                    player_name(piece.owner),
                )));
            }
            pieces[piece.owner] |= b;
            if piece.kind == Kind::King {
                kings |= b;
            }
        }
        for player in Player::BOTH {
            let total = pieces[player].count_ones();
            let men = (pieces[player] & !kings).count_ones();
            let name = player_name(player);
            if total > 21 {
                return Err(PositionError::new(format!("{name} has {total} pieces (at most 21)")));
            }
            if men > 19 {
                return Err(PositionError::new(format!("{name} has {men} men (at most 19)")));
            }
        }
        let last = setup.side_to_move.other();
        if pieces[last] == 0 {
            return Err(PositionError::new(format!(
                "{} has no pieces but made the last move",
                player_name(last)
            )));
        }
        let mut pos = Position { pieces, kings, side: setup.side_to_move, variant, hash: 0 };
        pos.hash = pos.zobrist_from_scratch();
        Ok(pos)
    }
}

/// A count of men and kings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByKind {
    /// Men.
    pub men: u32,
    /// Kings.
    pub kings: u32,
}

/// The field opposite `field` (the board turned half a circle).
pub(crate) fn rotate(field: Field) -> Field {
    let row = 10 - field.row();
    let number = crate::board::row_len(row) as u8 + 1 - field.number();
    Field::new(row, number).unwrap_or(field)
}

/// White moves towards row A, Black towards row K.
const fn forward(player: Player) -> [Direction; 2] {
    match player {
        Player::First => [Direction::UpLeft, Direction::UpRight],
        Player::Second => [Direction::DownLeft, Direction::DownRight],
    }
}

pub(crate) const fn player_name(player: Player) -> &'static str {
    match player {
        Player::First => Position::PLAYER_NAMES.first,
        Player::Second => Position::PLAYER_NAMES.second,
    }
}

board_core::default_variant!(Position);

impl Game for Position {
    type Move = Move;
    type MoveText = MoveText;
    type Setup = Setup;
    type Variant = Variant;
    type Cell = Field;
    type Piece = Piece;

    const NAME: &'static str = "hexdraughts";
    const PLAYER_NAMES: ByPlayer<&'static str> = ByPlayer::new("White", "Black");
    /// 400 plies: a full game rarely needs half of it, but kings are on the
    /// board from the start and a king ending can shuffle for a long time.
    const DEFAULT_MAX_PLIES: u32 = 400;
    const RULES: &'static str = include_str!("../RULES.md");
    const NOTATION: &'static str = "fields A1..K5 (rows A-K, numbered from the left); quiet move H8-G9; capture: start and every landing field joined by ':', I3:G3:E4 (or I3:E4 when only one capture fits)";

    /// The start position (an interpretation, see the crate docs).
    fn start(variant: Variant) -> Self {
        let mut setup = Setup::empty(Player::First);
        let black_men = ["B1", "B2", "B5", "B6"]
            .into_iter()
            .filter_map(|name| name.parse::<Field>().ok())
            .chain(FIELDS.into_iter().filter(|f| matches!(f.row(), 2 | 3)));
        for field in black_men {
            setup.pieces.push((field, Piece::new(Player::Second, Kind::Man)));
            setup.pieces.push((rotate(field), Piece::new(Player::First, Kind::Man)));
        }
        for field in ["A2", "A4"].into_iter().filter_map(|name| name.parse::<Field>().ok()) {
            setup.pieces.push((field, Piece::new(Player::Second, Kind::King)));
            setup.pieces.push((rotate(field), Piece::new(Player::First, Kind::King)));
        }
        match Position::validate(&setup, variant) {
            Ok(pos) => pos,
            Err(e) => unreachable!("the start position is valid: {e}"),
        }
    }

    fn from_setup(setup: Setup, variant: Variant) -> Result<Self, PositionError> {
        Position::validate(&setup, variant)
    }

    /// The pieces in field order (A1 first).
    fn to_setup(&self) -> Setup {
        Setup { side_to_move: self.side, pieces: self.occupied().collect() }
    }

    fn variant(&self) -> Variant {
        self.variant
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn piece_at(&self, field: Field) -> Option<Piece> {
        let b = bit(field.bit_index());
        let kind = if self.kings & b != 0 { Kind::King } else { Kind::Man };
        Player::BOTH
            .into_iter()
            .find(|&owner| self.pieces[owner] & b != 0)
            .map(|owner| Piece::new(owner, kind))
    }

    // Inlined into the caller's loop (random play, perft, search): the
    // sides are built in registers and generation needs no call (random
    // play 957 -> 899 instructions a ply with `play_unchecked`'s).
    #[inline]
    fn generate_moves(&self, moves: &mut Vec<Move>) {
        self.sides(self.side).generate(moves);
    }

    #[inline]
    fn play_unchecked(&mut self, mv: Move) {
        // (Inlined like `generate_moves`: random play 957 -> 941 a ply.)
        let us = self.side;
        let them = us.other();
        let (from, to) = (mv.start_bit(), mv.end_bit());
        let (from_bit, to_bit) = (bit(from), bit(to));
        let was_king = self.kings & from_bit != 0;
        let king = was_king || mv.promotes();
        if mv.is_capture() {
            // The fields between each landing and the next: the taken pieces
            // and empty fields (and the start field, the mover's own).
            let mut taken = 0;
            let mut at = from;
            for (dir, distance) in mv.steps() {
                let landing = (i32::from(at) + dir.delta() * distance as i32) as u8;
                taken |= ray(at, dir) & ray(landing, dir.opposite());
                at = landing;
            }
            taken &= self.pieces[them];
            for f in bits_of(taken) {
                self.hash ^= piece_key(them, self.kings & bit(f) != 0, f);
            }
            self.pieces[them] &= !taken;
            self.kings &= !taken;
        }
        // A king's capture may end on its start field.
        self.pieces[us] = (self.pieces[us] & !from_bit) | to_bit;
        self.kings &= !from_bit;
        self.hash ^= piece_key(us, was_king, from);
        if king {
            self.kings |= to_bit;
        }
        self.hash ^= piece_key(us, king, to);
        self.side = them;
        self.hash ^= KEYS[BLACK_TO_MOVE];
    }

    fn outcome(&self) -> Option<Outcome> {
        let us = self.side;
        let them = us.other();
        if self.sides(us).has_move() {
            return None;
        }
        Some(if self.pieces[us] == 0 {
            Outcome::win(them, "all pieces captured")
        } else if !self.sides(them).has_move() {
            Outcome::draw("neither side can move")
        } else {
            match self.variant {
                Variant::Standard => Outcome::win(them, "no legal move"),
                Variant::BlockedDraw => Outcome::draw("no legal move"),
            }
        })
    }

    fn zobrist(&self) -> u64 {
        self.hash
    }

    fn zobrist_from_scratch(&self) -> u64 {
        let mut hash = 0;
        for player in Player::BOTH {
            for f in bits_of(self.pieces[player]) {
                hash ^= piece_key(player, self.kings & bit(f) != 0, f);
            }
        }
        if self.side == Player::Second {
            hash ^= KEYS[BLACK_TO_MOVE];
        }
        if self.variant == Variant::BlockedDraw {
            hash ^= KEYS[BLOCKED_DRAW];
        }
        hash
    }

    fn resolve_move(&self, text: &MoveText) -> Result<Move, IllegalMoveError> {
        crate::resolve::resolve(self, text)
    }

    const TACTICAL_GENERATOR: bool = true;

    fn generate_tactical(&self, moves: &mut Vec<Move>) {
        self.sides(self.side).generate_tactical(moves);
    }

    /// No quiet move when there is a capture, else the quiet moves but a
    /// man's onto its promotion row, in generation order.
    fn generate_quiet(&self, moves: &mut Vec<Move>) {
        self.sides(self.side).generate_quiet(moves);
    }

    /// Captures are forced; a promotion is when no other quiet move is left.
    fn generate_tactical_forced(&self, moves: &mut Vec<Move>) -> bool {
        self.sides(self.side).generate_tactical_forced(moves)
    }

    /// A quiet move's code is its start and end field (padded bits, below
    /// 2^14), a capture's a hash of its path with bit 31 set.
    fn move_code(&self, mv: Move) -> u32 {
        let bits = mv.to_bits();
        if mv.is_capture() {
            let folded = (bits as u64 ^ (bits >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            (folded >> 33) as u32 | 1 << 31
        } else {
            (bits & 0x3fff) as u32
        }
    }

    /// Quiet moves only, checked by their fields and that nothing can be
    /// captured; a capture (whose code is a hash) is found by generating.
    fn move_from_code(&self, code: u32) -> Option<Move> {
        self.quiet_move_of_code(code)
    }

    /// Captures (compulsory when there is one) and moves that promote a man.
    fn is_tactical(&self, mv: Move) -> bool {
        mv.is_capture() || self.promotes(mv)
    }

    /// Captures are compulsory (under the rules).
    const COMPULSORY_TACTICAL: bool = true;

    const MOVE_INDEX_BOUND: usize = FIELD_COUNT * FIELD_COUNT;

    /// From and to fields.
    fn move_index(&self, mv: Move) -> usize {
        mv.from().index() * FIELD_COUNT + mv.to().index()
    }

    /// Perft with the last ply counted without listing its quiet moves.
    fn perft(&self, depth: u32) -> u64 {
        let mut buffers = vec![Vec::new(); depth as usize];
        count_leaves(self, &mut buffers)
    }
}

/// Perft below `pos` with one move buffer per remaining ply.
fn count_leaves(pos: &Position, buffers: &mut [Vec<Move>]) -> u64 {
    let Some((moves, deeper)) = buffers.split_first_mut() else {
        return 1;
    };
    let sides = pos.sides(pos.side);
    if deeper.is_empty() {
        return sides.count(moves);
    }
    moves.clear();
    sides.generate(moves);
    let mut leaves = 0;
    for &mv in moves.iter() {
        let mut child = *pos;
        child.play_unchecked(mv);
        leaves += count_leaves(&child, deeper);
    }
    leaves
}
