//! The conformance suite every game's tests run (feature `testkit`).
//!
//! ```text
//! #[test]
//! fn conformance() {
//!     board_core::testkit::Conformance::<MyGame>::new()
//!         .positions(&["<a position text with kings>"])
//!         .run();
//! }
//! ```
//!
//! It plays seeded random games from every variant's start (and from the extra
//! positions given) and checks, on positions sampled along them:
//! - generated moves are unique, each is accepted by `play` and by the
//!   two-stage text parser, and prints and parses back to itself;
//! - no moves exactly when the game is over; a finished position refuses
//!   every move;
//! - moves legal elsewhere but not here are refused and leave the position
//!   unchanged;
//! - position text round-trips, and so does the hash;
//! - the incremental hash equals the one computed from scratch;
//! - `perft(1)` is the move count, the game's `perft` agrees with the generic
//!   one and with `perft_divide`;
//! - random and mutated move and position texts give errors or legal results,
//!   never panics;
//! - every random game ends or reaches the ply cap;
//! - the shape every game crate shares ([`Game`]'s associated types): every
//!   variant prints and parses back, `Default` is the default variant's
//!   start, `FromStr` reads the default variant, the setup prints back to the
//!   position text, every cell prints, parses and indexes back to itself, and
//!   `piece_at` finds something exactly on the cells `pieces` lists, and
//!   every cell holding a piece is drawn by the view;
//! - tactical moves: `generate_tactical` gives exactly the generated moves
//!   that are tactical and `generate_quiet` the others, and every move index
//!   is below its bound;
//! - move codes: different for every legal move of a position, and
//!   `move_from_code` gives only the legal move of the code, for the codes
//!   of the legal moves and for codes of moves legal elsewhere;
//! - the view ([`Describe`]): the board of each variant has unique cell names
//!   and cells inside the drawing, pieces stand only on its cells, and each
//!   move's path runs over its cells (a drop from the reserve only in games
//!   with reserves) and starts, when it is a move of at least two cells, on
//!   a stack the mover owns.
//!
//! Failures panic with the position text and what went wrong.
//!
//! [`check_rules_page`] checks the example blocks of a game's rules page
//! (`RULES.md`), and [`perft_table`] reads a perft table.
//! [`random_positions`] and [`sorted_pattern_indices`] serve the tests of
//! pattern layouts (learned evaluations).

use std::collections::HashSet;
use std::marker::PhantomData;

use crate::perft::{perft, perft_divide};
use crate::view::{Board, RESERVE};
use crate::{Cell, Describe, Evaluate, Game, IllegalMoveError, Rng, Variant};

/// Characters mixed into mutated texts: notation, digits, separators and a few
/// troublemakers (multi-byte letters, control characters).
const NOISE: &[char] = &[
    'a', 'e', 'h', 'i', 'k', 'z', 'A', 'K', 'W', 'B', 'w', 'b', 'm', 'M', 'x', '0', '1', '5', '9',
    '-', ':', '/', '@', ',', ';', '.', ' ', '(', ')', '[', ']', '*', '+', 'Д', 'ж', '\t', '\0',
];

/// The conformance suite for one game, with its settings.
#[derive(Debug)]
#[must_use = "call .run()"]
pub struct Conformance<G: Game> {
    seed: u64,
    games: usize,
    max_plies: u32,
    samples: usize,
    extra: Vec<(G::Variant, String)>,
    game: PhantomData<G>,
}

impl<G: Describe> Default for Conformance<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Describe> Conformance<G> {
    /// Default settings: 12 random games per start position, about 300 checked
    /// positions in all.
    pub fn new() -> Self {
        Conformance {
            seed: 0x1617,
            games: 12,
            max_plies: G::DEFAULT_MAX_PLIES,
            samples: 300,
            extra: Vec::new(),
            game: PhantomData,
        }
    }

    /// The random seed.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Random games played from each start position.
    pub fn games(mut self, games: usize) -> Self {
        self.games = games;
        self
    }

    /// The ply cap of a random game.
    pub fn max_plies(mut self, plies: u32) -> Self {
        self.max_plies = plies;
        self
    }

    /// Roughly how many positions get the full set of checks.
    pub fn samples(mut self, samples: usize) -> Self {
        self.samples = samples;
        self
    }

    /// More start positions (position texts of the default variant), e.g.
    /// positions with kings, stacks or reserves that random play rarely reaches.
    ///
    /// # Panics
    /// If a text is not a valid position.
    pub fn positions(self, texts: &[&str]) -> Self {
        self.positions_in(G::Variant::default(), texts)
    }

    /// More start positions of `variant`.
    ///
    /// # Panics
    /// If a text is not a valid position.
    pub fn positions_in(mut self, variant: G::Variant, texts: &[&str]) -> Self {
        for text in texts {
            if let Err(e) = G::from_text(text, variant) {
                panic!("extra position {text:?}: {e}");
            }
            self.extra.push((variant, (*text).to_owned()));
        }
        self
    }

    /// Runs every check; panics on the first failure.
    pub fn run(self) {
        check_shape::<G>();
        let mut starts = Vec::new();
        for &variant in G::Variant::ALL {
            let pos = G::start(variant);
            assert_eq!(Game::variant(&pos), variant, "start({variant}) has another variant");
            starts.push(pos);
        }
        for (variant, text) in &self.extra {
            starts.extend(G::from_text(text, *variant).ok());
        }

        let mut rng = Rng::new(self.seed);
        let games = self.games.max(1);
        let total = starts.len() * games;
        let mut samples = Vec::new();
        let mut move_pool = Vec::new();
        for start in &starts {
            for _ in 0..games {
                let trail = self.random_game(start, &mut rng);
                let keep = (self.samples / total).max(2);
                for _ in 0..keep {
                    if let Some(pos) = rng.choose(&trail) {
                        samples.push(pos.clone());
                    }
                }
                move_pool.extend(trail.iter().flat_map(Game::legal_moves).take(64));
                samples.push(trail.last().cloned().unwrap_or_else(|| start.clone()));
            }
        }
        samples.extend(starts.iter().cloned());
        move_pool.sort_unstable_by_key(ToString::to_string);
        move_pool.dedup();

        for pos in &samples {
            check_moves(pos);
            check_tactical(pos);
            check_codes(pos, &move_pool, &mut rng);
            check_cells(pos);
            check_refusals(pos, &move_pool);
            check_text(pos);
            check_perft(pos);
            check_view(pos);
            fuzz_position_text(pos, &mut rng);
            fuzz_move_text(pos, &mut rng);
        }
    }

    /// Plays one seeded random game; returns every position on the way and
    /// checks the hash and the end contract at each.
    fn random_game(&self, start: &G, rng: &mut Rng) -> Vec<G> {
        let mut pos = start.clone();
        let mut trail = vec![pos.clone()];
        let (mut moves, mut tactical) = (Vec::new(), Vec::new());
        for _ in 0..self.max_plies {
            moves.clear();
            pos.generate_moves(&mut moves);
            assert_eq!(
                moves.is_empty(),
                pos.outcome().is_some(),
                "no moves must mean game over and back, in {pos}"
            );
            check_tactical_fast(&pos, &moves, &mut tactical);
            let Some(&mv) = rng.choose(&moves) else { break };
            pos.play_unchecked(mv);
            assert_eq!(
                pos.zobrist(),
                pos.zobrist_from_scratch(),
                "incremental hash differs from scratch after {mv} reaching {pos}"
            );
            trail.push(pos.clone());
        }
        trail
    }
}

fn check_moves<G: Game>(pos: &G) {
    let moves = pos.legal_moves();
    assert_eq!(moves.is_empty(), pos.outcome().is_some(), "no moves must mean game over in {pos}");
    let mut seen = HashSet::new();
    let mut texts = HashSet::new();
    for &mv in &moves {
        assert!(seen.insert(mv), "move {mv} generated twice in {pos}");
        let text = mv.to_string();
        assert!(texts.insert(text.clone()), "two moves print as {text} in {pos}");
        // One word, as the protocol carries it (`protocol::MoveToken`).
        assert!(
            !text.is_empty()
                && !text.contains(|c: char| c.is_whitespace() || c.is_control())
                && text != "(none)",
            "move text {text:?} must be one token"
        );
        match pos.parse_move(&text) {
            Ok(back) => assert_eq!(back, mv, "{text} parses to another move in {pos}"),
            Err(e) => panic!("generated move {text} does not parse in {pos}: {e}"),
        }
        let mut child = pos.clone();
        if let Err(e) = child.play(mv) {
            panic!("play refuses generated move {text} in {pos}: {e}");
        }
        let mut unchecked = pos.clone();
        unchecked.play_unchecked(mv);
        assert!(child == unchecked, "play and play_unchecked differ for {text} in {pos}");
        assert!(pos.is_legal(mv));
    }
}

/// The shape every game crate shares: variants, `Default`, `FromStr`, cells.
fn check_shape<G: Game>() {
    assert!(!G::Variant::ALL.is_empty(), "{}: no variants", G::NAME);
    assert_eq!(G::Variant::ALL.len(), G::Variant::NAMES.len(), "{}: variant names", G::NAME);
    assert_eq!(G::Variant::ALL[0], G::Variant::default(), "{}: the default comes first", G::NAME);
    assert_eq!(G::Variant::GAME, G::NAME, "the variants name another game");
    for (&variant, &name) in G::Variant::ALL.iter().zip(G::Variant::NAMES) {
        assert_eq!(variant.name(), name);
        assert_eq!(variant.to_string(), name, "{}: variant {name} prints otherwise", G::NAME);
        assert_eq!(name.parse::<G::Variant>(), Ok(variant), "{}: variant {name}", G::NAME);
        assert_eq!(name.to_uppercase().parse::<G::Variant>(), Ok(variant), "any case: {name}");
    }
    let unknown = "no such variant".parse::<G::Variant>();
    assert!(unknown.is_err_and(|e| e.to_string().contains("no variant")), "unknown variant");

    let default = G::default();
    assert!(default == G::start(G::Variant::default()), "{}: Default is not the start", G::NAME);
    match default.to_string().parse::<G>() {
        Ok(back) => assert!(back == default, "{}: FromStr reads another position", G::NAME),
        Err(e) => panic!("{}: FromStr refuses the start text: {e}", G::NAME),
    }

    let cells: Vec<G::Cell> = G::Cell::all().collect();
    assert!(!cells.is_empty(), "{}: no cells", G::NAME);
    let mut indexes = HashSet::new();
    for &cell in &cells {
        let index = cell.index();
        assert!(index < G::Cell::INDEX_BOUND, "{}: {cell} has index {index}", G::NAME);
        assert!(indexes.insert(index), "{}: two cells have index {index}", G::NAME);
        assert_eq!(G::Cell::from_index(index), Some(cell), "{}: from_index({index})", G::NAME);
        let name = cell.to_string();
        assert_eq!(name.parse::<G::Cell>(), Ok(cell), "{}: cell {name} reads back", G::NAME);
        assert_eq!(name.to_uppercase().parse::<G::Cell>(), Ok(cell), "any case: {name}");
        assert_eq!(name.to_lowercase().parse::<G::Cell>(), Ok(cell), "any case: {name}");
    }
    for bad in ["", " ", "z99", "a", "1", "Ж", "a1a1", "-"] {
        if let Ok(cell) = bad.parse::<G::Cell>() {
            assert!(cells.contains(&cell), "{}: {bad:?} reads as a cell that is not", G::NAME);
        }
    }
}

/// `piece_at` agrees with the view, the setup prints the position text.
fn check_cells<G: Describe>(pos: &G) {
    let pieces = pos.pieces();
    for cell in G::Cell::all() {
        let name = cell.to_string();
        let listed = pieces.stacks.iter().any(|(at, _)| *at == name);
        assert_eq!(
            pos.piece_at(cell).is_some(),
            listed,
            "piece_at({name}) and pieces() disagree in {pos}"
        );
    }
    let board = pos.board();
    for cell in G::Cell::all() {
        // A variant may use part of the cells; the view may draw more (the
        // light squares of a draughts board), never fewer than hold pieces.
        let name = cell.to_string();
        if pos.piece_at(cell).is_some() {
            assert!(board.cell(&name).is_some(), "{name} holds a piece but is not drawn in {pos}");
        }
    }
    for view in &board.cells {
        if let Ok(cell) = view.name.parse::<G::Cell>() {
            assert_eq!(
                cell.to_string(),
                view.name,
                "the board's cell {} prints otherwise",
                view.name
            );
        }
    }
    assert_eq!(pos.to_setup().to_string(), pos.to_string(), "the setup of {pos} prints otherwise");
}

/// The tactical generator against filtering `moves` (the legal moves of
/// `pos`), cheaply enough for every position of every random game.
fn check_tactical_fast<G: Game>(pos: &G, moves: &[G::Move], tactical: &mut Vec<G::Move>) {
    tactical.clear();
    pos.generate_tactical(tactical);
    let expected = moves.iter().filter(|&&mv| pos.is_tactical(mv)).count();
    assert!(
        tactical.len() == expected
            && tactical.iter().enumerate().all(|(i, mv)| {
                moves.contains(mv) && pos.is_tactical(*mv) && !tactical[..i].contains(mv)
            }),
        "generate_tactical gives {} moves where {expected} of the legal moves are tactical in {pos}",
        tactical.len()
    );
}

/// The tactical generator and the move index.
fn check_tactical<G: Game>(pos: &G) {
    let all = pos.legal_moves();
    let filtered: Vec<G::Move> = all.iter().copied().filter(|&mv| pos.is_tactical(mv)).collect();
    let mut tactical = Vec::new();
    pos.generate_tactical(&mut tactical);
    let key = |moves: &[G::Move]| {
        let mut texts: Vec<String> = moves.iter().map(ToString::to_string).collect();
        texts.sort();
        texts
    };
    assert_eq!(key(&tactical), key(&filtered), "generate_tactical in {pos}");
    let others: Vec<G::Move> = all.iter().copied().filter(|&mv| !pos.is_tactical(mv)).collect();
    let mut quiet = Vec::new();
    pos.generate_quiet(&mut quiet);
    assert_eq!(key(&quiet), key(&others), "generate_quiet in {pos}");
    let mut checked = Vec::new();
    let forced = pos.generate_tactical_forced(&mut checked);
    assert_eq!(key(&checked), key(&filtered), "generate_tactical_forced's moves in {pos}");
    let expected = !filtered.is_empty() && others.is_empty();
    assert_eq!(forced, expected, "generate_tactical_forced says forced = {forced} in {pos}");
    for &mv in &all {
        let index = pos.move_index(mv);
        assert!(index < G::MOVE_INDEX_BOUND, "{mv} has move index {index} in {pos}");
    }
}

/// Move codes name the legal moves apart, and decode only to legal moves.
fn check_codes<G: Game>(pos: &G, pool: &[G::Move], rng: &mut Rng) {
    let legal = pos.legal_moves();
    let mut codes = HashSet::new();
    for &mv in &legal {
        let code = pos.move_code(mv);
        assert!(codes.insert(code), "two legal moves have code {code}, one {mv}, in {pos}");
        if let Some(back) = pos.move_from_code(code) {
            assert_eq!(back, mv, "code {code} of {mv} decodes to another move in {pos}");
        }
    }
    let foreign = pool.iter().map(|&mv| pos.move_code(mv));
    // Small numbers too: exact codes (from and to cells) are small.
    let random =
        (0..64).map(|i| if i % 2 == 0 { rng.below(1 << 16) as u32 } else { rng.next_u64() as u32 });
    for code in foreign.chain(random) {
        if let Some(mv) = pos.move_from_code(code) {
            assert!(legal.contains(&mv), "code {code} decodes to {mv}, not legal in {pos}");
            assert_eq!(pos.move_code(mv), code, "code {code} decodes to {mv} of another code");
        }
    }
}

fn check_refusals<G: Game>(pos: &G, pool: &[G::Move]) {
    let legal = pos.legal_moves();
    let over = pos.is_over();
    for &mv in pool {
        if legal.contains(&mv) {
            continue;
        }
        let mut copy = pos.clone();
        let refused = copy.play(mv);
        assert!(refused.is_err(), "play accepts illegal move {mv} in {pos}");
        if over {
            assert!(
                matches!(refused, Err(IllegalMoveError::GameOver { .. })),
                "a finished game must refuse {mv} as game over in {pos}"
            );
        }
        assert!(copy == *pos, "a refused move {mv} changed the position {pos}");
        if let Ok(other) = pos.parse_move(&mv.to_string()) {
            assert!(legal.contains(&other), "{mv} parses to an illegal move in {pos}");
        }
    }
}

fn check_text<G: Game>(pos: &G) {
    let text = pos.to_string();
    // What `position fen <text> moves ...` can carry (`protocol::PositionText`).
    assert!(
        !text.contains(char::is_control)
            && !text.split_whitespace().any(|word| word.eq_ignore_ascii_case("moves")),
        "position text {text:?} must hold no control character and no word 'moves'"
    );
    let back = match G::from_text(&text, Game::variant(pos)) {
        Ok(back) => back,
        Err(e) => panic!("position text {text:?} does not read back: {e}"),
    };
    assert!(back == *pos, "position text {text:?} reads back as another position {back}");
    assert_eq!(back.zobrist(), pos.zobrist(), "hash changes over a text round trip of {text}");
    assert_eq!(pos.zobrist(), pos.zobrist_from_scratch(), "hash differs from scratch in {text}");
    assert!(!format!("{pos:#}").is_empty(), "empty board picture for {text}");
}

fn check_board(board: &Board, game: &str) {
    assert!(board.width > 0.0 && board.height > 0.0, "{game}: empty drawing");
    let inside =
        |(x, y): (f64, f64)| (0.0..=board.width).contains(&x) && (0.0..=board.height).contains(&y);
    let mut names = HashSet::new();
    for cell in &board.cells {
        let name = &cell.name;
        assert!(names.insert(name.as_str()), "{game}: two cells are named {name}");
        assert!(
            !name.is_empty() && name != RESERVE && !name.contains(char::is_whitespace),
            "{game}: bad cell name {name:?}"
        );
        assert!(cell.polygon.len() >= 3, "{game}: cell {name} has no outline");
        assert!(cell.polygon.iter().all(|&p| inside(p)), "{game}: cell {name} leaves the drawing");
        let (xs, ys): (Vec<f64>, Vec<f64>) = cell.polygon.iter().copied().unzip();
        let within =
            |v: f64, all: &[f64]| all.iter().any(|&a| a <= v) && all.iter().any(|&a| a >= v);
        assert!(
            within(cell.centre.0, &xs) && within(cell.centre.1, &ys),
            "{game}: the centre of {name} lies outside its outline"
        );
        assert!(
            board.classes.iter().any(|&(class, _)| class == cell.class),
            "{game}: cell {name} has class {} without a colour",
            cell.class
        );
    }
    for label in &board.labels {
        assert!(inside(label.at), "{game}: label {} leaves the drawing", label.text);
    }
}

fn check_view<G: Describe>(pos: &G) {
    let board = pos.board();
    let start = G::start(Game::variant(pos)).board();
    assert!(start == board, "the board changes from the start to {pos}");
    check_board(&board, G::NAME);
    let pieces = pos.pieces();
    assert_eq!(pieces.reserves.is_some(), board.reserves, "reserves of {pos}");
    let mut occupied = HashSet::new();
    for (cell, stack) in &pieces.stacks {
        assert!(board.cell(cell).is_some(), "a stack on {cell}, which is no cell, in {pos}");
        assert!(occupied.insert(cell.as_str()), "two stacks on {cell} in {pos}");
        assert!(!stack.is_empty(), "an empty stack on {cell} in {pos}");
    }
    let mover = pos.side_to_move();
    for mv in pos.legal_moves() {
        let path = pos.move_path(mv);
        for (i, cell) in path.iter().enumerate() {
            let drop = i == 0 && board.reserves && cell == RESERVE;
            assert!(drop || board.cell(cell).is_some(), "the path of {mv} crosses {cell} in {pos}");
        }
        if path.len() >= 2 && path[0] != RESERVE {
            let top =
                pieces.stacks.iter().find(|(cell, _)| *cell == path[0]).and_then(|(_, s)| s.last());
            assert!(
                top.is_some_and(|piece| piece.owner == mover),
                "{mv} does not start on a stack of the mover in {pos}"
            );
        }
    }
}

fn check_perft<G: Game>(pos: &G) {
    let moves = pos.legal_moves();
    assert_eq!(perft(pos, 1), moves.len() as u64, "perft(1) is not the move count in {pos}");
    assert_eq!(perft(pos, 0), 1);
    let two = perft(pos, 2);
    assert_eq!(pos.perft(2), two, "the game's perft(2) disagrees with the generic one in {pos}");
    let divided: u64 = perft_divide(pos, 2).iter().map(|&(_, n)| n).sum();
    assert_eq!(divided, two, "perft_divide(2) does not add up in {pos}");
}

fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..=rng.below(3) {
        let at = rng.below(chars.len() + 1);
        let noise = NOISE[rng.below(NOISE.len())];
        match rng.below(5) {
            0 => chars.truncate(at),
            1 => chars.insert(at, noise),
            2 if at < chars.len() => {
                chars.remove(at);
            }
            3 if at < chars.len() => chars[at] = noise,
            _ => {
                let copy: Vec<char> = chars[at..].to_vec();
                chars.extend(copy);
            }
        }
    }
    chars.into_iter().collect()
}

fn fuzz_position_text<G: Game>(pos: &G, rng: &mut Rng) {
    let text = pos.to_string();
    for _ in 0..20 {
        let bad = mutate(&text, rng);
        if let Ok(parsed) = G::from_text(&bad, Game::variant(pos)) {
            let again = parsed.to_string();
            match G::from_text(&again, Game::variant(pos)) {
                Ok(back) => {
                    assert!(back == parsed, "{bad:?} reads as {again:?}, which reads differently")
                }
                Err(e) => panic!("{bad:?} is accepted but its text {again:?} is not: {e}"),
            }
            assert_eq!(
                parsed.legal_moves().is_empty(),
                parsed.is_over(),
                "accepted position {again:?} breaks the end contract"
            );
        }
    }
    for garbage in ["", " ", "\0", "-", "/", "////////", "x", "ЖЖЖ", "99999999999999999999"] {
        let _ = G::from_text(garbage, Game::variant(pos));
    }
}

fn fuzz_move_text<G: Game>(pos: &G, rng: &mut Rng) {
    let legal = pos.legal_moves();
    let mut texts: Vec<String> = legal.iter().take(8).map(ToString::to_string).collect();
    texts.extend(
        ["", "-", ":", "a1-", "-a1", "a0-a1", "z9-z9", "pass", "@", "Ж", "a1xx"].map(String::from),
    );
    for base in texts {
        for _ in 0..6 {
            let bad = mutate(&base, rng);
            if let Ok(mv) = pos.parse_move(&bad) {
                assert!(legal.contains(&mv), "{bad:?} parses to illegal move {mv} in {pos}");
            }
        }
    }
}

/// The pattern indices of `pos` ([`Evaluate::pattern_indices`]), sorted: the
/// same for positions a layout must read alike (mirror images,
/// colour-swapped twins).
pub fn sorted_pattern_indices<G: Evaluate>(pos: &G) -> Vec<u32> {
    let mut out = vec![0; G::PATTERNS];
    pos.pattern_indices(&mut out);
    out.sort_unstable();
    out
}

/// One line of a perft table file (`tests/data/perft.txt` in every game):
/// `<position> | <variant> | <depth>:<nodes> ...`, where `<position>` is
/// `startpos` or a position text, optionally followed by `moves <m> ...` that
/// are played from it.
#[derive(Clone, Debug)]
pub struct PerftEntry<G> {
    /// The line number in the file (from 1), for messages.
    pub line: usize,
    /// The position whose counts are given.
    pub position: G,
    /// `(depth, nodes)` pairs.
    pub counts: Vec<(u32, u64)>,
}

/// Reads a perft table; blank lines and lines starting with `#` are skipped.
///
/// # Panics
/// On a malformed line, naming it: the table is test data.
pub fn perft_table<G: Game>(text: &str) -> Vec<PerftEntry<G>> {
    let mut entries = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let raw = raw.trim();
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = raw.split('|').map(str::trim).collect();
        let [spec, variant, counts] = fields[..] else {
            panic!("perft table line {line}: expected 3 fields separated by '|'");
        };
        let (base, moves) = spec.split_once(" moves ").unwrap_or((spec, ""));
        let variant: G::Variant =
            variant.parse().unwrap_or_else(|e| panic!("perft table line {line}: {e}"));
        let mut position = if base.trim() == "startpos" {
            G::start(variant)
        } else {
            G::from_text(base, variant).unwrap_or_else(|e| panic!("perft table line {line}: {e}"))
        };
        for mv in moves.split_whitespace() {
            if let Err(e) = position.play_text(mv) {
                panic!("perft table line {line}: {e}");
            }
        }
        let counts = counts
            .split_whitespace()
            .map(|pair| {
                let parsed = pair
                    .split_once(':')
                    .and_then(|(d, n)| Some((d.parse().ok()?, n.parse().ok()?)));
                parsed.unwrap_or_else(|| {
                    panic!("perft table line {line}: '{pair}' is not depth:nodes")
                })
            })
            .collect();
        entries.push(PerftEntry { line, position, counts });
    }
    entries
}

/// Checks every example block of a game's rules page (`RULES.md`, read with
/// `include_str!`) with the game itself; returns how many blocks it checked.
///
/// A game crate's `tests/rules_page.rs` is one call:
///
/// ```text
/// #[test]
/// fn rules_page_examples() {
///     board_core::testkit::check_rules_page::<focus::Position>(include_str!("../RULES.md"));
/// }
/// ```
///
/// An example block is a fenced block whose info string has `example` among
/// its comma-separated words: ```` ```text,example ````, which Markdown
/// shows as plain text and rustdoc does not compile (it takes `text` for
/// the language). Each line inside is `key: value`; blank lines and lines
/// starting with `#` are skipped. The lines are read in order:
///
/// - `variant: <name>` (optional, before `position`): the variant, else
///   the default one;
/// - `position: <position text>` (first, or right after `variant`), or
///   `position: start` for the variant's start;
/// - `legal: <move> <move> ...`: each move must be legal where it is
///   played; they are played one after the other, so the lines after see
///   the position they reach;
/// - `illegal: <move> ...`: each must read as a move (no syntax error) and
///   be refused here;
/// - `only: <move> ...`: the legal moves here are exactly these;
/// - `after: <position text>`: the position reached equals this text's;
/// - `outcome: <result>`: how the game stands here, as an `Outcome`
///   prints (`1-0 score 13-11 reason no legal move`), or `none` while it
///   goes on.
///
/// # Panics
/// On the first example that does not hold, or a malformed block, naming
/// the page's line; also when the page has no example block at all.
pub fn check_rules_page<G: Game>(page: &str) -> usize {
    let mut checked = 0;
    let mut lines = page.lines().enumerate();
    while let Some((_, line)) = lines.next() {
        let Some(info) = line.trim_start().strip_prefix("```") else {
            continue;
        };
        let is_example = info.split(',').any(|word| word.trim() == "example");
        let mut block = Vec::new();
        for (index, line) in lines.by_ref() {
            if line.trim_start().starts_with("```") {
                break;
            }
            block.push((index + 1, line));
        }
        if is_example {
            check_example::<G>(&block);
            checked += 1;
        }
    }
    assert!(checked > 0, "the rules page has no example block (```text,example)");
    checked
}

/// Checks one example block: `(line number, line)` pairs.
fn check_example<G: Game>(block: &[(usize, &str)]) {
    let mut variant = G::Variant::default();
    let mut pos: Option<G> = None;
    for &(line, raw) in block {
        let raw = raw.trim();
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let Some((key, value)) = raw.split_once(':') else {
            panic!("RULES.md line {line}: expected 'key: value', got {raw:?}");
        };
        let (key, value) = (key.trim(), value.trim());
        let read = |text: &str| {
            G::from_text(text, variant).unwrap_or_else(|e| panic!("RULES.md line {line}: {e}"))
        };
        if key == "variant" {
            assert!(pos.is_none(), "RULES.md line {line}: 'variant' must come before 'position'");
            variant = value.parse().unwrap_or_else(|e| panic!("RULES.md line {line}: {e}"));
            continue;
        }
        if key == "position" {
            assert!(pos.is_none(), "RULES.md line {line}: a second 'position' in one block");
            pos = Some(if value == "start" { G::start(variant) } else { read(value) });
            continue;
        }
        let Some(pos) = pos.as_mut() else {
            panic!("RULES.md line {line}: '{key}' before 'position'");
        };
        match key {
            "legal" => {
                for mv in value.split_whitespace() {
                    if let Err(e) = pos.play_text(mv) {
                        panic!("RULES.md line {line}: {mv} in {pos}: {e}");
                    }
                }
            }
            "illegal" => {
                for mv in value.split_whitespace() {
                    match pos.parse_move(mv) {
                        Ok(_) => panic!("RULES.md line {line}: {mv} is legal in {pos}"),
                        Err(crate::MoveError::Syntax(e)) => {
                            panic!("RULES.md line {line}: {mv} is not even a move: {e}")
                        }
                        Err(crate::MoveError::Illegal(_)) => {}
                    }
                }
            }
            "only" => {
                let mut wanted = Vec::new();
                for mv in value.split_whitespace() {
                    match pos.parse_move(mv) {
                        Ok(m) => wanted.push(m.to_string()),
                        Err(e) => panic!("RULES.md line {line}: {mv} in {pos}: {e}"),
                    }
                }
                let mut legal: Vec<String> =
                    pos.legal_moves().iter().map(ToString::to_string).collect();
                wanted.sort_unstable();
                legal.sort_unstable();
                assert_eq!(legal, wanted, "RULES.md line {line}: the legal moves of {pos}");
            }
            "after" => {
                let expected = read(value);
                assert!(
                    *pos == expected,
                    "RULES.md line {line}: the position reached is\n  {pos}\nnot\n  {expected}"
                );
            }
            "outcome" => {
                let got = pos.outcome().map_or_else(|| "none".to_owned(), |o| o.to_string());
                assert_eq!(got, value, "RULES.md line {line}: the outcome of {pos}");
            }
            _ => panic!("RULES.md line {line}: unknown key '{key}'"),
        }
    }
    assert!(pos.is_some(), "an example block without 'position' (before line {:?})", block.last());
}

/// The `main` of a criterion bench (`harness = false`) of seeded random
/// playouts ([`random_playouts`](crate::perft::random_playouts)) from the
/// start of every variant of the game `$game`, `$games` games a variant to
/// the game's [`DEFAULT_MAX_PLIES`](crate::Game::DEFAULT_MAX_PLIES), each
/// reported per generated move (criterion's elements); it prints each
/// variant's plies and generated moves first. A game crate's
/// `benches/playout.rs` is the one line
/// `board_core::playout_bench!(hexdraughts::Position, 20);` and needs
/// `criterion` among its dev-dependencies.
#[macro_export]
macro_rules! playout_bench {
    ($game:ty, $games:expr) => {
        fn bench_playouts(c: &mut criterion::Criterion) {
            use $crate::Game as _;
            use $crate::Variant as _;
            type Variant = <$game as $crate::Game>::Variant;
            let games: u32 = $games;
            let plies = <$game>::DEFAULT_MAX_PLIES;
            let mut group = c.benchmark_group("playout");
            group.sample_size(10);
            for &variant in <Variant>::ALL {
                let start = <$game>::start(variant);
                let played = $crate::perft::random_playouts(&start, 1, games, plies);
                eprintln!(
                    "playout/{variant}: {games} games, {} plies, {} generated moves",
                    played.plies, played.generated
                );
                group.throughput(criterion::Throughput::Elements(played.generated));
                group.bench_function(variant.name(), |b| {
                    b.iter(|| {
                        $crate::perft::random_playouts(
                            std::hint::black_box(&start),
                            1,
                            games,
                            plies,
                        )
                    })
                });
            }
            group.finish();
        }
        criterion::criterion_group!(benches, bench_playouts);
        criterion::criterion_main!(benches);
    };
}

/// The positions of `games` random games from the start of `G`'s default
/// variant (game `i` seeded with `i`), every position after a move, at
/// most `plies` a game: samples for tests of evaluations and pattern
/// layouts.
pub fn random_positions<G: Game>(games: u64, plies: usize) -> Vec<G> {
    let mut all = Vec::new();
    for seed in 0..games {
        let mut rng = Rng::new(seed);
        let mut pos = G::start(G::Variant::default());
        for _ in 0..plies {
            let moves = pos.legal_moves();
            let Some(&mv) = rng.choose(&moves) else { break };
            pos.play_unchecked(mv);
            all.push(pos.clone());
        }
    }
    all
}
