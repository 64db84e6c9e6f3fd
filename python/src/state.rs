//! A game state as Python sees it, written once for every game: the
//! position, the ply cap, the actions played, and a route being chosen.
//!
//! # Actions
//! With `B` = the game's cell index bound (`Cell::INDEX_BOUND`), a move from
//! cell `f` (or from the reserve, `f = B`) to cell `t` (the first and last
//! cells of its [`move_path`](board_core::Describe::move_path)) is action
//! `f * B + t`; a pass is the action after all of those. When one action
//! names several legal moves (captures with the same start and end but
//! different routes), it plays nothing yet: the same player then picks the
//! route landing by landing, each pick an action `c * B + n` (from the last
//! cell `c` fixed so far to the next landing `n`), only where the routes
//! differ, until one move is left, which is played.

use std::sync::Arc;

use board_core::view::{Board, Pieces};
use board_core::{Cell, Game, MoveError, Outcome, Player, Rng};

use crate::encode::{Encode, Ends};
use crate::interrupt::Stop;

/// The fixed shape of a game's variant: actions and observation planes.
#[derive(Debug)]
pub struct Spec {
    pub game: &'static str,
    pub variant: &'static str,
    /// The cell index bound `B`.
    pub cells: usize,
    /// Whether moves may start from the reserve (drops).
    pub reserve: bool,
    /// Whether there is a pass action.
    pub pass: bool,
    pub num_actions: usize,
    /// Every plane's name, in order.
    pub planes: Vec<String>,
    /// `[planes, ranks, files]` on a grid, else `[planes, cells]`.
    pub shape: Vec<usize>,
    /// The cell names by index (`None` for a hole).
    pub cell_names: Vec<Option<String>>,
    /// The most actions one ply can take (1 + route picks).
    pub actions_per_ply: usize,
    pub default_max_plies: u32,
    piece_planes: usize,
    count_planes: usize,
    /// The board-class planes, ready to copy.
    class_planes: Vec<f32>,
}

impl Spec {
    /// The spec of `G`'s `variant`.
    pub fn of<G: Encode>(variant: G::Variant) -> Spec {
        let cells = G::Cell::INDEX_BOUND;
        let board = G::start(variant).board();
        let mut cell_names = vec![None; cells];
        for cell in G::Cell::all() {
            cell_names[cell.index()] = Some(cell.to_string());
        }
        // One plane per class of the board view that some cell has (a drawn
        // square that is no cell, as Adiyukh's light ones, marks nothing).
        let mut classes: Vec<&str> = Vec::new();
        let mut class_planes = Vec::new();
        for (class, _) in &board.classes {
            let mut plane = vec![0.0; cells];
            for drawn in board.cells.iter().filter(|drawn| drawn.class == *class) {
                if let Ok(cell) = drawn.name.parse::<G::Cell>() {
                    plane[cell.index()] = 1.0;
                }
            }
            if plane.contains(&1.0) {
                classes.push(class);
                class_planes.extend(plane);
            }
        }
        let piece_planes = G::piece_planes();
        let count_planes = G::count_planes();
        let (n_pieces, n_counts) = (piece_planes.len(), count_planes.len());
        let mut planes = piece_planes;
        planes.extend(count_planes);
        planes.push("observer to move".to_owned());
        planes.push("observer is the first player".to_owned());
        planes.extend(classes.iter().map(|name| format!("cell class {name}")));
        planes.push("route so far".to_owned());
        planes.push("route end".to_owned());
        let shape = match G::GRID {
            Some((ranks, files)) => vec![planes.len(), ranks, files],
            None => vec![planes.len(), cells],
        };
        let from_slots = cells + usize::from(board.reserves);
        let route_picks = if G::MAX_PATH > 2 { G::MAX_PATH - 1 } else { 0 };
        Spec {
            game: G::NAME,
            variant: board_core::Variant::name(variant),
            cells,
            reserve: board.reserves,
            pass: G::PASS,
            num_actions: from_slots * cells + usize::from(G::PASS),
            planes,
            shape,
            cell_names,
            actions_per_ply: 1 + route_picks,
            default_max_plies: G::DEFAULT_MAX_PLIES,
            piece_planes: n_pieces,
            count_planes: n_counts,
            class_planes,
        }
    }

    /// The number of floats of one observation.
    pub fn observation_len(&self) -> usize {
        self.planes.len() * self.cells
    }

    fn pass_action(&self) -> u32 {
        to_u32((self.cells + usize::from(self.reserve)) * self.cells)
    }

    fn action(&self, from: u16, to: u16) -> u32 {
        to_u32(usize::from(from) * self.cells + usize::from(to))
    }

    fn name(&self, slot: u16) -> &str {
        match self.cell_names.get(usize::from(slot)) {
            Some(Some(name)) => name,
            Some(None) => "?",
            None => "reserve",
        }
    }

    /// A text for an action id that is not legal here: its cells.
    pub fn describe(&self, action: u32) -> String {
        let action = action as usize;
        if self.pass && action == self.pass_action() as usize {
            return "pass".to_owned();
        }
        let (from, to) = (action / self.cells, action % self.cells);
        let slot = |n: usize| u16::try_from(n).unwrap_or(u16::MAX);
        format!("{}>{}", self.name(slot(from)), self.name(slot(to)))
    }
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).expect("action ids fit in 32 bits")
}

/// Why an action or a move cannot be played.
#[derive(Debug)]
pub enum PlayError {
    /// The game is over.
    Over,
    /// The action is not legal here (any integer Python gave).
    Action(i64),
    /// A route is being picked, and the move is not one of it.
    Routing,
    /// The move text is not a legal move.
    Move(MoveError),
}

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayError::Over => f.write_str("the game is over"),
            PlayError::Action(action) => write!(f, "action {action} is not legal here"),
            PlayError::Routing => f.write_str(
                "a capture's route is being picked and this move is not one of it: \
                 play the route's actions, or undo",
            ),
            PlayError::Move(error) => write!(f, "{error}"),
        }
    }
}

/// How random playouts ended.
#[derive(Clone, Copy, Debug, Default)]
pub struct Playouts {
    pub games: u64,
    pub plies: u64,
    /// Wins of the first and the second player.
    pub wins: [u64; 2],
    pub draws: u64,
}

impl Playouts {
    fn record(&mut self, outcome: Outcome, plies: u64) {
        self.games += 1;
        self.plies += plies;
        match outcome.winner {
            Some(player) => self.wins[player.index()] += 1,
            None => self.draws += 1,
        }
    }

    pub fn add(&mut self, other: Playouts) {
        self.games += other.games;
        self.plies += other.plies;
        self.wins[0] += other.wins[0];
        self.wins[1] += other.wins[1];
        self.draws += other.draws;
    }
}

/// Plays `n` uniformly random games from `start` (`plies_left` plies at
/// most, adjudicated there; `None`: no cap), with one move buffer; fewer
/// when `stop` says so.
pub fn playouts<G: Game>(
    start: &G,
    n: u64,
    seed: u64,
    plies_left: Option<u32>,
    stop: &mut Stop<'_>,
) -> Playouts {
    let mut rng = Rng::new(seed);
    let mut moves = Vec::with_capacity(256);
    let mut result = Playouts::default();
    for _ in 0..n {
        if stop.now() {
            break;
        }
        let mut pos = start.clone();
        let mut plies = 0;
        let outcome = loop {
            if plies_left.is_some_and(|cap| plies >= cap) {
                break pos.outcome().unwrap_or_else(|| pos.adjudicate());
            }
            moves.clear();
            pos.generate_moves(&mut moves);
            let Some(&mv) = rng.choose(&moves) else {
                break pos.outcome().expect("a position without moves is over");
            };
            pos.play_unchecked(mv);
            plies += 1;
        };
        result.record(outcome, u64::from(plies));
    }
    result
}

/// Perft below each legal move of `pos` at `depth` (`depth >= 1`), in
/// generation order, stopping when `stop` says so (`None`): the subtrees
/// three plies from the leaves are counted by the game's own perft.
pub fn perft_divide<G: Game>(
    pos: &G,
    depth: u32,
    stop: &mut Stop<'_>,
) -> Option<Vec<(G::Move, u64)>> {
    pos.legal_moves()
        .into_iter()
        .map(|mv| {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            Some((mv, perft(&child, depth.saturating_sub(1), stop)?))
        })
        .collect()
}

/// Perft of `pos` at `depth`, stopping when `stop` says so (`None`).
pub fn perft<G: Game>(pos: &G, depth: u32, stop: &mut Stop<'_>) -> Option<u64> {
    if stop.now() {
        return None;
    }
    if depth <= 3 {
        return Some(pos.perft(depth));
    }
    perft_divide(pos, depth, stop).map(|counts| counts.iter().map(|&(_, n)| n).sum())
}

/// The legal moves of a position and their actions.
#[derive(Clone, Debug)]
struct Legal<M> {
    moves: Vec<M>,
    /// Each move's action.
    keys: Vec<u32>,
}

/// A route being picked: the moves (by their place in `Legal::moves`) that
/// share the action played, with their paths, and the cells fixed so far.
#[derive(Clone, Debug)]
struct Route {
    key: u32,
    candidates: Vec<(usize, Vec<u16>)>,
    chosen: Vec<u16>,
}

/// A path's cell after the first `fixed`, or `None` when it ends there.
fn next_cell(path: &[u16], fixed: usize) -> Option<u16> {
    path.get(fixed).copied()
}

impl Route {
    /// Fixes the cells every candidate has in common, up to where they differ.
    fn advance(&mut self) {
        loop {
            let fixed = self.chosen.len();
            let first = next_cell(&self.candidates[0].1, fixed);
            let agree = self.candidates.iter().all(|(_, path)| next_cell(path, fixed) == first);
            match first {
                Some(cell) if agree => self.chosen.push(cell),
                _ => return,
            }
        }
    }

    /// The hop a candidate's path takes next: to its next cell, or to the
    /// last fixed cell itself when it ends here.
    fn hop(&self, path: &[u16]) -> (u16, u16) {
        let last = *self.chosen.last().expect("a route starts at its first cell");
        (last, next_cell(path, self.chosen.len()).unwrap_or(last))
    }
}

/// One game in progress: the position, what led to it, the cap.
#[derive(Clone, Debug)]
pub struct Native<G: Encode> {
    spec: Arc<Spec>,
    start: G,
    pos: G,
    max_plies: u32,
    moves: Vec<G::Move>,
    actions: Vec<u32>,
    route: Option<Route>,
    legal: Legal<G::Move>,
}

impl<G: Encode> Native<G> {
    /// A game from `start`, stopped after `max_plies` moves (0: never).
    pub fn new(spec: Arc<Spec>, start: G, max_plies: u32) -> Self {
        let legal = Legal { moves: Vec::new(), keys: Vec::new() };
        let mut state = Native {
            spec,
            pos: start.clone(),
            start,
            max_plies,
            moves: Vec::new(),
            actions: Vec::new(),
            route: None,
            legal,
        };
        state.refresh();
        state
    }

    pub fn spec(&self) -> &Arc<Spec> {
        &self.spec
    }

    pub fn position(&self) -> &G {
        &self.pos
    }

    pub fn start(&self) -> &G {
        &self.start
    }

    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    pub fn actions(&self) -> &[u32] {
        &self.actions
    }

    pub fn max_plies(&self) -> u32 {
        self.max_plies
    }

    fn at_cap(&self) -> bool {
        self.max_plies > 0 && self.moves.len() >= self.max_plies as usize
    }

    /// How the game ended: by the rules, or at the cap by the game's
    /// adjudication (as `board_core::GameRecord` decides).
    pub fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome().or_else(|| self.at_cap().then(|| self.pos.adjudicate()))
    }

    /// Whether the game stopped at the ply cap rather than by the rules.
    pub fn ended_at_cap(&self) -> bool {
        self.pos.outcome().is_none() && self.at_cap()
    }

    /// The player to act, `None` at the end.
    pub fn current_player(&self) -> Option<Player> {
        (!self.legal.keys.is_empty() || self.route.is_some()).then(|| self.pos.side_to_move())
    }

    /// Plies left before the cap (`None`: no cap).
    pub fn plies_left(&self) -> Option<u32> {
        (self.max_plies > 0).then(|| self.max_plies.saturating_sub(self.moves.len() as u32))
    }

    fn refresh(&mut self) {
        let at_cap = self.at_cap();
        let legal = &mut self.legal;
        legal.moves.clear();
        legal.keys.clear();
        if at_cap {
            return;
        }
        self.pos.generate_moves(&mut legal.moves);
        for &mv in &legal.moves {
            let key = match self.pos.ends(mv) {
                Ends::Cells { from, to } => self.spec.action(from, to),
                Ends::Pass => self.spec.pass_action(),
            };
            legal.keys.push(key);
        }
    }

    /// The legal actions, sorted.
    pub fn legal_actions(&self) -> Vec<u32> {
        match &self.route {
            None => {
                let mut actions = self.legal.keys.clone();
                actions.sort_unstable();
                actions.dedup();
                actions
            }
            Some(route) => {
                let mut hops: Vec<u32> = route
                    .candidates
                    .iter()
                    .map(|(_, path)| {
                        let (from, to) = route.hop(path);
                        self.spec.action(from, to)
                    })
                    .collect();
                hops.sort_unstable();
                hops.dedup();
                hops
            }
        }
    }

    /// Writes 1 at every legal action of `mask` (zeroed by the caller).
    pub fn write_mask(&self, mask: &mut [u8]) {
        match &self.route {
            None => {
                for &action in &self.legal.keys {
                    mask[action as usize] = 1;
                }
            }
            Some(_) => {
                for action in self.legal_actions() {
                    mask[action as usize] = 1;
                }
            }
        }
    }

    /// The legal moves, whole (whatever route is being picked).
    pub fn legal_moves(&self) -> &[G::Move] {
        &self.legal.moves
    }

    /// A text for a legal action: the move's notation, or what is left to
    /// pick of a route.
    pub fn action_text(&self, action: u32) -> Option<String> {
        match &self.route {
            None => {
                let mut group = self.group(action);
                let first = group.next()?;
                let rest = group.count();
                Some(if rest == 0 {
                    self.legal.moves[first].to_string()
                } else {
                    let (from, to) =
                        (action as usize / self.spec.cells, action as usize % self.spec.cells);
                    format!(
                        "{}..{} ({} routes)",
                        self.spec.name(from as u16),
                        self.spec.name(to as u16),
                        rest + 1
                    )
                })
            }
            Some(route) => {
                let (_, path) = route.candidates.iter().find(|(_, path)| {
                    let (from, to) = route.hop(path);
                    self.spec.action(from, to) == action
                })?;
                let mut text: Vec<&str> = route.chosen.iter().map(|&c| self.spec.name(c)).collect();
                match next_cell(path, route.chosen.len()) {
                    Some(cell) => text.push(self.spec.name(cell)),
                    None => text.push("(end)"),
                }
                Some(format!("{}..", text.join(":")))
            }
        }
    }

    fn group(&self, action: u32) -> impl Iterator<Item = usize> + '_ {
        self.legal.keys.iter().enumerate().filter(move |&(_, &key)| key == action).map(|(i, _)| i)
    }

    /// Whether `action` can be played, without playing it.
    ///
    /// # Errors
    /// As [`apply`](Native::apply).
    pub fn check(&self, action: u32) -> Result<(), PlayError> {
        if self.current_player().is_none() {
            return Err(PlayError::Over);
        }
        let legal = match &self.route {
            None => self.group(action).next().is_some(),
            Some(route) => route.candidates.iter().any(|(_, path)| {
                let (from, to) = route.hop(path);
                self.spec.action(from, to) == action
            }),
        };
        if legal { Ok(()) } else { Err(PlayError::Action(action.into())) }
    }

    /// Plays `action`.
    ///
    /// # Errors
    /// [`PlayError`] when it is not legal; the state is then unchanged.
    pub fn apply(&mut self, action: u32) -> Result<(), PlayError> {
        if self.current_player().is_none() {
            return Err(PlayError::Over);
        }
        match self.route.take() {
            None => {
                let (first, second) = {
                    let mut group = self.group(action);
                    (group.next(), group.next())
                };
                match (first, second) {
                    (None, _) => return Err(PlayError::Action(action.into())),
                    (Some(only), None) => self.play(self.legal.moves[only]),
                    _ => {
                        let group: Vec<usize> = self.group(action).collect();
                        let mut path = Vec::new();
                        let candidates = group
                            .into_iter()
                            .map(|i| {
                                self.pos.path(self.legal.moves[i], &mut path);
                                (i, path.clone())
                            })
                            .collect::<Vec<_>>();
                        let chosen = vec![candidates[0].1[0]];
                        let mut route = Route { key: action, candidates, chosen };
                        route.advance();
                        self.route = Some(route);
                    }
                }
            }
            Some(mut route) => {
                let before = route.clone();
                let spec = &self.spec;
                let hop_of = |route: &Route, path: &[u16]| {
                    let (from, to) = route.hop(path);
                    spec.action(from, to)
                };
                let kept: Vec<(usize, Vec<u16>)> = route
                    .candidates
                    .iter()
                    .filter(|(_, path)| hop_of(&route, path) == action)
                    .cloned()
                    .collect();
                match kept.len() {
                    0 => {
                        self.route = Some(before);
                        return Err(PlayError::Action(action.into()));
                    }
                    1 => self.play(self.legal.moves[kept[0].0]),
                    _ => match next_cell(&kept[0].1, route.chosen.len()) {
                        Some(cell) => {
                            route.chosen.push(cell);
                            route.candidates = kept;
                            route.advance();
                            self.route = Some(route);
                        }
                        // Only a path that ends here takes this hop; paths differ.
                        None => self.play(self.legal.moves[kept[0].0]),
                    },
                }
            }
        }
        self.actions.push(action);
        Ok(())
    }

    fn play(&mut self, mv: G::Move) {
        self.pos.play_unchecked(mv);
        self.moves.push(mv);
        self.route = None;
        self.refresh();
    }

    /// The actions that play `mv` from here: usually one; while a route is
    /// being picked, the picks left if `mv` is one of its moves. Empty when
    /// `mv` cannot be played from here.
    pub fn actions_for(&self, mv: G::Move) -> Vec<u32> {
        let Some(i) = self.legal.moves.iter().position(|&m| m == mv) else { return Vec::new() };
        let mut actions = Vec::new();
        let mut probe = self.clone();
        match &self.route {
            None => {
                let key = self.legal.keys[i];
                actions.push(key);
                if self.group(key).nth(1).is_none() || probe.apply(key).is_err() {
                    return actions;
                }
            }
            Some(route) if route.candidates.iter().any(|&(j, _)| j == i) => {}
            Some(_) => return Vec::new(),
        }
        let mut path = Vec::new();
        self.pos.path(mv, &mut path);
        while let Some(route) = &probe.route {
            let (from, to) = route.hop(&path);
            let hop = self.spec.action(from, to);
            actions.push(hop);
            if probe.apply(hop).is_err() {
                return Vec::new();
            }
        }
        actions
    }

    /// Reads a legal move and the actions that play it from here.
    ///
    /// # Errors
    /// [`PlayError`] when it is not a legal move, or not one of the route
    /// being picked.
    pub fn move_actions(&self, text: &str) -> Result<Vec<u32>, PlayError> {
        if self.at_cap() && self.pos.outcome().is_none() {
            return Err(PlayError::Over);
        }
        let mv = self.pos.parse_move(text).map_err(PlayError::Move)?;
        let actions = self.actions_for(mv);
        if actions.is_empty() {
            return Err(PlayError::Routing);
        }
        Ok(actions)
    }

    /// Plays a move given as text; returns its actions.
    ///
    /// # Errors
    /// As [`move_actions`](Native::move_actions); the state is then unchanged.
    pub fn apply_text(&mut self, text: &str) -> Result<Vec<u32>, PlayError> {
        let actions = self.move_actions(text)?;
        for &action in &actions {
            self.apply(action)?;
        }
        Ok(actions)
    }

    /// Takes back the last action; `false` at the start.
    pub fn undo(&mut self) -> bool {
        let Some(_) = self.actions.pop() else { return false };
        let actions = std::mem::take(&mut self.actions);
        self.pos = self.start.clone();
        self.moves.clear();
        self.route = None;
        self.refresh();
        for &action in &actions {
            if self.apply(action).is_err() {
                unreachable!("a recorded action is legal where it was played");
            }
        }
        true
    }

    /// The observation of `observer` into `out` (`spec.observation_len()`
    /// floats, any content).
    pub fn observe(&self, observer: Player, out: &mut [f32]) {
        let spec = &self.spec;
        let cells = spec.cells;
        out.fill(0.0);
        for cell in G::Cell::all() {
            let Some(piece) = self.pos.piece_at(cell) else { continue };
            let at = cell.index();
            G::encode_piece(piece, observer, &mut |plane| out[plane * cells + at] = 1.0);
        }
        let mut plane = spec.piece_planes;
        let mut counts = [0.0; 8];
        self.pos.encode_counts(observer, &mut counts[..spec.count_planes]);
        for &count in &counts[..spec.count_planes] {
            out[plane * cells..(plane + 1) * cells].fill(count);
            plane += 1;
        }
        if self.pos.side_to_move() == observer {
            out[plane * cells..(plane + 1) * cells].fill(1.0);
        }
        plane += 1;
        if observer == Player::First {
            out[plane * cells..(plane + 1) * cells].fill(1.0);
        }
        plane += 1;
        out[plane * cells..plane * cells + spec.class_planes.len()]
            .copy_from_slice(&spec.class_planes);
        plane += spec.class_planes.len() / cells;
        if let Some(route) = &self.route {
            for &cell in &route.chosen {
                if usize::from(cell) < cells {
                    out[plane * cells + usize::from(cell)] = 1.0;
                }
            }
            out[(plane + 1) * cells + route.key as usize % cells] = 1.0;
        }
    }

    /// Random games from here (the route being picked is ignored).
    pub fn playouts(&self, n: u64, seed: u64, stop: &mut Stop<'_>) -> Playouts {
        playouts(&self.pos, n, seed, self.plies_left(), stop)
    }

    /// Bytes of one more state like this one, roughly (for a batch).
    pub fn footprint(&self) -> usize {
        std::mem::size_of::<Self>()
            + self.legal.moves.capacity() * std::mem::size_of::<G::Move>()
            + self.legal.keys.capacity() * std::mem::size_of::<u32>()
    }

    /// A fresh game from the same start and cap.
    pub fn restart(&mut self) {
        self.pos = self.start.clone();
        self.moves.clear();
        self.actions.clear();
        self.route = None;
        self.refresh();
    }

    /// The first action of a uniformly random legal move (while a route is
    /// being picked: a uniformly random legal action).
    pub fn random_action(&self, rng: &mut Rng) -> Option<u32> {
        match &self.route {
            None => rng.choose(&self.legal.keys).copied(),
            Some(_) => rng.choose(&self.legal_actions()).copied(),
        }
    }

    pub fn board(&self) -> Board {
        self.pos.board()
    }

    pub fn pieces(&self) -> Pieces {
        self.pos.pieces()
    }

    /// The move paths of the legal moves.
    pub fn move_paths(&self) -> Vec<(String, Vec<String>)> {
        self.legal.moves.iter().map(|&mv| (mv.to_string(), self.pos.move_path(mv))).collect()
    }

    /// The cells of the route fixed so far and its end cell, when a route is
    /// being picked.
    pub fn route(&self) -> Option<(Vec<String>, String)> {
        let route = self.route.as_ref()?;
        let names = route.chosen.iter().map(|&c| self.spec.name(c).to_owned()).collect();
        let end = self.spec.name((route.key as usize % self.spec.cells) as u16).to_owned();
        Some((names, end))
    }

    /// The moves still possible in the route being picked.
    pub fn route_moves(&self) -> Vec<G::Move> {
        self.route
            .as_ref()
            .map(|route| route.candidates.iter().map(|&(i, _)| self.legal.moves[i]).collect())
            .unwrap_or_default()
    }
}
