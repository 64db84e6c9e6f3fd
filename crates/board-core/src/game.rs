//! The game trait every Igroteka game implements, and the evaluation trait
//! alpha-beta search uses.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

use crate::{
    ByPlayer, Cell, IllegalMoveError, MoveError, MoveSyntaxError, Outcome, Player, PositionError,
    Variant,
};

/// A position of a two-player game, with its rules.
///
/// The required core is small: start positions, move generation, making a move,
/// the end, the hash, the two text stages, and what stands on a cell.
/// Everything else is provided and should not be overridden except where a
/// method says so.
///
/// Every game crate has the same public shape (see the crate docs'
/// checklist): `Position: Default + FromStr + Display` for the default
/// variant, which the supertraits require.
///
/// Contract (checked for every game by the `testkit` module, feature `testkit`):
/// - [`generate_moves`](Game::generate_moves) appends no move exactly when
///   [`outcome`](Game::outcome) is `Some`; a game whose rules have the side to
///   move pass (stykovka) generates a pass move.
/// - Every generated move prints (`Display`) to a text that
///   [`parse_move`](Game::parse_move) turns back into the same move.
/// - `Display` of the position is its position text; [`from_text`](Game::from_text)
///   reads it back into an equal position. `{:#}` draws the board for people.
/// - [`zobrist`](Game::zobrist) equals [`zobrist_from_scratch`](Game::zobrist_from_scratch).
/// - [`generate_tactical`](Game::generate_tactical) gives exactly the
///   generated moves that are [`is_tactical`](Game::is_tactical), and
///   [`generate_quiet`](Game::generate_quiet) exactly the others;
///   [`generate_tactical_forced`](Game::generate_tactical_forced) tells
///   whether there are tactical moves and no others.
/// - [`move_code`](Game::move_code) differs between the legal moves of a
///   position, and [`move_from_code`](Game::move_from_code) gives nothing
///   but the legal move of that code.
pub trait Game:
    Clone
    + Eq
    + fmt::Debug
    + fmt::Display
    + Default
    + FromStr<Err = PositionError>
    + Send
    + Sync
    + 'static
{
    /// A move: small and `Copy`; `Display` gives its canonical notation.
    type Move: Copy + Eq + Hash + fmt::Debug + fmt::Display + Send + Sync + 'static;
    /// A move as read from text, before it is checked against a position
    /// (first stage of move parsing). `Display` gives the text back.
    type MoveText: FromStr<Err = MoveSyntaxError> + fmt::Display;
    /// A position as read from text, not yet validated; `Display` prints it
    /// back.
    type Setup: FromStr<Err = PositionError> + fmt::Display;
    /// The game's variants.
    type Variant: Variant;
    /// A cell of the board.
    type Cell: Cell;
    /// What [`piece_at`](Game::piece_at) finds on a cell: a piece, a stack, or
    /// the player owning it.
    type Piece: Copy + Eq + fmt::Debug + Send + Sync + 'static;

    /// The game's name as used on the command line (`"otrazhenie"`).
    const NAME: &'static str;
    /// The colour names of the two players, first player first.
    const PLAYER_NAMES: ByPlayer<&'static str>;
    /// How many plies tools play before they adjudicate with
    /// [`adjudicate`](Game::adjudicate), since none of these games has a draw rule.
    const DEFAULT_MAX_PLIES: u32 = 400;
    /// How to write a move, in one line for people (a `help` command prints it).
    const NOTATION: &'static str;
    /// The rules for people: the game's full rules page, as Markdown
    /// (headings, paragraphs, lists, tables and fenced `text` blocks; the
    /// crate's `RULES.md`). GUIs show it through the protocol's `query rules`;
    /// empty when the game gives none.
    const RULES: &'static str = "";

    /// The start position of `variant`.
    fn start(variant: Self::Variant) -> Self;

    /// Validates a setup into a playable position of `variant`.
    ///
    /// # Errors
    /// [`PositionError`] saying what is wrong.
    fn from_setup(setup: Self::Setup, variant: Self::Variant) -> Result<Self, PositionError>;

    /// The setup this position was validated from: its text form.
    fn to_setup(&self) -> Self::Setup;

    /// The variant this position is played under.
    fn variant(&self) -> Self::Variant;

    /// The player to move.
    fn side_to_move(&self) -> Player;

    /// What stands on `cell`, if anything.
    fn piece_at(&self, cell: Self::Cell) -> Option<Self::Piece>;

    /// Appends every legal move to `moves` (which the caller owns and clears).
    /// Appends nothing when the game is over.
    fn generate_moves(&self, moves: &mut Vec<Self::Move>);

    /// Plays `mv`, which the caller guarantees is legal here. An illegal move
    /// may leave the position in any (memory-safe) state.
    fn play_unchecked(&mut self, mv: Self::Move);

    /// How the game ended, or `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// A 64-bit hash of the position (pieces, side to move, anything else that
    /// decides the legal moves and the result); kept incrementally or cheap.
    fn zobrist(&self) -> u64;

    /// Checks a move read from text against this position (second stage of
    /// move parsing); short notations are resolved here.
    ///
    /// # Errors
    /// [`IllegalMoveError`] when the text names no legal move or several.
    fn resolve_move(&self, text: &Self::MoveText) -> Result<Self::Move, IllegalMoveError>;

    /// Whether `mv` (legal here) is tactical by the game's rules: it
    /// captures, promotes, crashes or otherwise wins material or the game at
    /// once. Quiescence search plays only these past its horizon, and search
    /// never reduces them. Default: no move is.
    fn is_tactical(&self, _mv: Self::Move) -> bool {
        false
    }

    /// Appends the legal moves that are [tactical](Game::is_tactical), in
    /// generation order. Games with a faster way than filtering all moves
    /// override it; the conformance suite compares the two.
    fn generate_tactical(&self, moves: &mut Vec<Self::Move>) {
        let first = moves.len();
        self.generate_moves(moves);
        let mut kept = first;
        for i in first..moves.len() {
            if self.is_tactical(moves[i]) {
                moves[kept] = moves[i];
                kept += 1;
            }
        }
        moves.truncate(kept);
    }

    /// Appends the tactical moves as [`generate_tactical`](Game::generate_tactical)
    /// does and says whether there is at least one and they are all the
    /// legal moves, so that the side to move must play one (a compulsory
    /// capture): quiescence search stands on the evaluation only when not.
    /// Default: when there are tactical moves, generates the quiet ones after
    /// them to see, and removes those again. Games whose tactical moves are
    /// compulsory override it to answer without generating.
    fn generate_tactical_forced(&self, moves: &mut Vec<Self::Move>) -> bool {
        let first = moves.len();
        if !Self::TACTICAL_GENERATOR {
            self.generate_moves(moves);
            let all = moves.len();
            let mut kept = first;
            for i in first..all {
                if self.is_tactical(moves[i]) {
                    moves[kept] = moves[i];
                    kept += 1;
                }
            }
            moves.truncate(kept);
            return kept > first && kept == all;
        }
        self.generate_tactical(moves);
        let tactical = moves.len();
        if tactical == first {
            return false;
        }
        self.generate_quiet(moves);
        let forced = moves.len() == tactical;
        moves.truncate(tactical);
        forced
    }

    /// Whether the rules can oblige the side to move to play a tactical
    /// move (compulsory captures, in some variant). MCTS playouts go on past
    /// their cap only through such positions; without, they stop at the cap
    /// without generating moves there. Default: `false`.
    const COMPULSORY_TACTICAL: bool = false;

    /// Whether the game overrides [`generate_tactical`](Game::generate_tactical)
    /// with a generator of its own, much cheaper than generating every move.
    /// Search then generates tactical and quiet moves in two stages, and
    /// skips the quiet ones when a tactical move refutes the line; without
    /// one it generates every move once and sorts them by
    /// [`is_tactical`](Game::is_tactical). Default: `false`.
    const TACTICAL_GENERATOR: bool = false;

    /// Appends the legal moves that are not [tactical](Game::is_tactical),
    /// in generation order: with [`generate_tactical`](Game::generate_tactical)
    /// they make up the legal moves, so search can generate the two apart
    /// and stop after the first when a tactical move refutes the line.
    /// Games with a faster way than filtering all moves override it; the
    /// conformance suite compares the two.
    fn generate_quiet(&self, moves: &mut Vec<Self::Move>) {
        let first = moves.len();
        self.generate_moves(moves);
        let mut kept = first;
        for i in first..moves.len() {
            if !self.is_tactical(moves[i]) {
                moves[kept] = moves[i];
                kept += 1;
            }
        }
        moves.truncate(kept);
    }

    /// A number naming `mv` (legal here) among this position's legal moves,
    /// which search keeps in its transposition table instead of the move:
    /// different legal moves of one position have different codes (the
    /// conformance suite checks it on random positions; search stays correct
    /// if two ever share one, only its move ordering suffers). Default: a
    /// hash of the move; games override it with an exact numbering (from and
    /// to cells) where there is one.
    fn move_code(&self, mv: Self::Move) -> u32 {
        let mut hasher = CodeHasher(0);
        mv.hash(&mut hasher);
        let hash = hasher.finish();
        (hash ^ (hash >> 32)) as u32
    }

    /// The legal move whose [`move_code`](Game::move_code) is `code`, when
    /// the game can tell cheaply, without generating moves, that it is legal
    /// here; `None` when there is no such move or telling would cost a move
    /// generation (search then generates the moves and looks among them).
    /// Never an illegal move: a code may come from another position (a
    /// table collision). Default: `None`.
    fn move_from_code(&self, _code: u32) -> Option<Self::Move> {
        None
    }

    /// [`move_index`](Game::move_index) is always below this.
    const MOVE_INDEX_BOUND: usize = 1;

    /// A number below [`MOVE_INDEX_BOUND`](Game::MOVE_INDEX_BOUND) naming
    /// what `mv` does (e.g. its from and to cells), so that search can keep
    /// a table of how often such moves were good (history). Different moves
    /// may share an index. Default: all share 0.
    fn move_index(&self, _mv: Self::Move) -> usize {
        0
    }

    /// The hash recomputed from nothing. Games that update the hash
    /// incrementally override this; the conformance suite compares the two.
    fn zobrist_from_scratch(&self) -> u64 {
        self.zobrist()
    }

    /// The result tools give when they stop a game at their ply cap: a draw
    /// unless the game overrides it (adiyukh scores the position as it stands).
    fn adjudicate(&self) -> Outcome {
        Outcome::draw("ply limit")
    }

    /// Reads a position text of `variant` (parse into a setup, then
    /// validate). `text.parse::<Position>()` reads one of the default variant.
    ///
    /// # Errors
    /// [`PositionError`] saying what is wrong and where.
    fn from_text(text: &str, variant: Self::Variant) -> Result<Self, PositionError> {
        let setup: Self::Setup = text.trim().parse()?;
        Self::from_setup(setup, variant)
    }

    /// The legal moves in a new vector (convenient; hot paths use
    /// [`generate_moves`](Game::generate_moves) with a reused buffer).
    fn legal_moves(&self) -> Vec<Self::Move> {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        moves
    }

    /// Whether `mv` is legal here.
    fn is_legal(&self, mv: Self::Move) -> bool {
        self.legal_moves().contains(&mv)
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Plays `mv` after checking it.
    ///
    /// # Errors
    /// [`IllegalMoveError`] when the game is over or `mv` is not legal; the
    /// position is then unchanged.
    fn play(&mut self, mv: Self::Move) -> Result<(), IllegalMoveError> {
        if self.is_over() {
            return Err(IllegalMoveError::GameOver { text: mv.to_string() });
        }
        if !self.is_legal(mv) {
            return Err(IllegalMoveError::not_legal(mv.to_string(), "not a legal move here"));
        }
        self.play_unchecked(mv);
        Ok(())
    }

    /// Reads a move from text and checks it against this position.
    ///
    /// # Errors
    /// [`MoveError::Syntax`] when the text is not a move,
    /// [`MoveError::Illegal`] when it is not a legal move here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        let parsed: Self::MoveText = text.trim().parse()?;
        if self.is_over() {
            return Err(IllegalMoveError::GameOver { text: text.trim().to_owned() }.into());
        }
        Ok(self.resolve_move(&parsed)?)
    }

    /// Reads, checks and plays a move; returns it.
    ///
    /// # Errors
    /// As [`parse_move`](Game::parse_move); the position is then unchanged.
    fn play_text(&mut self, text: &str) -> Result<Self::Move, MoveError> {
        let mv = self.parse_move(text)?;
        self.play_unchecked(mv);
        Ok(mv)
    }

    /// The number of leaf positions `depth` plies ahead. Games may override it
    /// with a faster count; the conformance suite compares it with
    /// [`perft::perft`](crate::perft::perft).
    fn perft(&self, depth: u32) -> u64 {
        crate::perft::perft(self, depth)
    }
}

/// A static evaluation for alpha-beta search and MCTS playouts: heuristics
/// only. What the rules decide (which moves are tactical, the move index) is
/// in [`Game`]; exact values from a table come from an [`EndgameTable`] the
/// engine owns.
///
/// Lives here so that game crates need not depend on the search crate.
pub trait Evaluate: Game {
    /// The position's value for the side to move, roughly in hundredths of a
    /// piece; must stay within ±20 000 (search keeps larger values for proven
    /// results).
    fn evaluate(&self) -> i32;

    /// Search tries moves with a higher priority first (captures, promotions).
    fn move_priority(&self, _mv: Self::Move) -> i32 {
        0
    }

    /// Whether quiescence search keeps its nodes in the transposition table.
    /// Each probe is a likely cache miss, so the table pays only where
    /// quiescence lines transpose a lot (City's slides: a third of the
    /// nodes); elsewhere it costs a fifth to a third of the search time
    /// with hardly fewer nodes. Default `false`.
    const QUIESCENCE_TABLE: bool = false;

    /// The names of the evaluation's features, in the order
    /// [`features`](Evaluate::features) writes them (at most [`MAX_FEATURES`]).
    /// Empty for an evaluation that is not a weighted sum.
    const FEATURE_NAMES: &'static [&'static str] = &[];

    /// The weight of each feature, as many as [`FEATURE_NAMES`](Evaluate::FEATURE_NAMES).
    const WEIGHTS: &'static [i32] = &[];

    /// Writes the position's features (side to move's view) into `out`, which
    /// holds one slot per feature name, and says how the position is valued:
    /// by the weighted sum of the features, or by a fixed value (a decided
    /// position), in which case `out` means nothing.
    ///
    /// A game that overrides it implements [`evaluate`](Evaluate::evaluate)
    /// as [`weighted_evaluation`]; the default (no features) values every
    /// position by `evaluate` as it is.
    fn features(&self, _out: &mut [i32]) -> Valuation {
        Valuation::Fixed(self.evaluate())
    }

    /// The pattern indices a position has for a learned evaluation
    /// ([`crate::learned`]), at most [`MAX_PATTERNS`](crate::learned::MAX_PATTERNS);
    /// 0: the game has no pattern layout.
    const PATTERNS: usize = 0;

    /// Every pattern index is below this: the size of the pattern weights'
    /// table.
    const PATTERN_BOUND: usize = 0;

    /// The pattern layout in words; its hash
    /// ([`layout_hash`](crate::learned::layout_hash)) tells weights of
    /// another layout apart.
    const PATTERN_LAYOUT: &'static str = "";

    /// The weights file the game ships for its learned evaluation (the
    /// bytes of `IGROEVAL` file), or nothing.
    const LEARNED_WEIGHTS: &'static [u8] = &[];

    /// Whether engines value positions by the shipped learned weights unless
    /// told otherwise (the engine option `Evaluation`): set by a game whose
    /// learned evaluation beat its classic one at equal time.
    const LEARNED_BY_DEFAULT: bool = false;

    /// The learned evaluation's values are rounded toward zero to a multiple
    /// of this (1: not rounded). Alpha-beta cuts off more in a tree of
    /// coarse values: City's hand evaluation takes few distinct values, and
    /// its learned one, unrounded, needs 5 to 12 times the nodes for the
    /// same depth (docs/tuning.md, "City: the whole loop").
    const LEARNED_GRAIN: i32 = 1;

    /// A bonus alpha-beta adds to the side to move's static value (the
    /// classic or the learned one) at the horizon, in the evaluation's
    /// centipawns (0: none). A search that stops right after a move values
    /// the position as if that move could not be answered; where the side to
    /// move can nearly always gain something (focus: a take-over), its odd
    /// depths overvalue the side that moved last (docs/tuning.md, "Focus: a
    /// bonus for the side to move"). MCTS leaves it out; `tune datagen` and
    /// `tune train` count it as alpha-beta does.
    const TEMPO: i32 = 0;

    /// Writes the position's [`PATTERNS`](Evaluate::PATTERNS) pattern
    /// indices (side to move's view) into `out`, which holds that many.
    fn pattern_indices(&self, _out: &mut [u32]) {}
}

/// Exact values of a game's positions at perfect play, looked up: an
/// endgame table. An engine owns one (building or loading it is its choice,
/// and its cost) and hands it to search, which then plays the best move the
/// table knows instead of searching.
pub trait EndgameTable<G: Game>: Send + Sync {
    /// The value of `pos` for the side to move, or `None` when the table does
    /// not hold it.
    fn probe(&self, pos: &G) -> Option<Proven>;
}

impl<G: Game, T: EndgameTable<G> + ?Sized> EndgameTable<G> for &T {
    fn probe(&self, pos: &G) -> Option<Proven> {
        (**self).probe(pos)
    }
}

impl<G: Game, T: EndgameTable<G> + ?Sized> EndgameTable<G> for std::sync::Arc<T> {
    fn probe(&self, pos: &G) -> Option<Proven> {
        (**self).probe(pos)
    }
}

/// The most features an evaluation may have ([`Evaluate::FEATURE_NAMES`]).
pub const MAX_FEATURES: usize = 16;

/// How an evaluation values a position ([`Evaluate::features`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Valuation {
    /// By the weighted sum of its features.
    Weighted,
    /// By this value, whatever the weights.
    Fixed(i32),
}

/// The evaluation as the weighted sum of the features, within ±20 000; for
/// games whose [`Evaluate::features`] describes their evaluation. Allocates
/// nothing (the features go into an array on the stack).
pub fn weighted_evaluation<E: Evaluate>(pos: &E) -> i32 {
    let mut features = [0; MAX_FEATURES];
    let weights = E::WEIGHTS;
    match pos.features(&mut features[..weights.len()]) {
        Valuation::Weighted => dot(weights, &features).clamp(-20_000, 20_000),
        Valuation::Fixed(value) => value,
    }
}

/// Writes `own[i] - theirs[i]` into `out` (as many as fit): the features of
/// an evaluation that counts the same things for both sides.
pub fn write_difference<const N: usize>(out: &mut [i32], own: [i32; N], theirs: [i32; N]) {
    for ((slot, a), b) in out.iter_mut().zip(own).zip(theirs) {
        *slot = a - b;
    }
}

/// The sum of `weights[i] * features[i]` over the shorter of the two.
pub fn dot(weights: &[i32], features: &[i32]) -> i32 {
    weights.iter().zip(features).map(|(w, f)| w * f).sum()
}

/// A position's value at perfect play, for the side to move; distances in
/// plies to the end of the game. Ordered from the side to move's view: a
/// faster win is greater, then slower wins, draws, slower losses, faster losses.
///
/// ```
/// use board_core::Proven;
/// assert!(Proven::Win(1) > Proven::Win(3) && Proven::Win(3) > Proven::Draw);
/// assert!(Proven::Draw > Proven::Loss(4) && Proven::Loss(4) > Proven::Loss(2));
/// // After a move that leaves the opponent lost in 2, the mover wins in 3.
/// assert_eq!(Proven::Loss(2).one_ply_back(), Proven::Win(3));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Proven {
    /// The side to move wins: the game ends `n` plies from now (`n` odd, so
    /// with its own move), against the best defence. `Win(1)`: a winning
    /// move is at hand.
    Win(u32),
    /// The side to move loses `n` plies from now (even) at best defence;
    /// `Loss(0)`: the game is already lost.
    Loss(u32),
    /// Neither side can force a win.
    Draw,
}

impl Proven {
    /// The value one ply earlier, for the player whose move reached this
    /// position: a loss in `n` is a win in `n + 1`.
    #[must_use]
    pub const fn one_ply_back(self) -> Proven {
        match self {
            Proven::Win(n) => Proven::Loss(n + 1),
            Proven::Loss(n) => Proven::Win(n + 1),
            Proven::Draw => Proven::Draw,
        }
    }

    fn order_key(self) -> i64 {
        match self {
            Proven::Win(n) => i64::from(u32::MAX) - i64::from(n),
            Proven::Draw => 0,
            Proven::Loss(n) => i64::from(n) - i64::from(u32::MAX),
        }
    }
}

impl Ord for Proven {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.order_key().cmp(&other.order_key())
    }
}

impl PartialOrd for Proven {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The hash behind the default [`Game::move_code`]: a multiply-rotate mix
/// (as rustc's FxHash), cheap on the few words a move is made of.
struct CodeHasher(u64);

impl CodeHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for CodeHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_u16(&mut self, n: u16) {
        self.add(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_u128(&mut self, n: u128) {
        self.add(n as u64);
        self.add((n >> 64) as u64);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }
}
