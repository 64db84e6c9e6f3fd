//! What a search may spend, and what it reports.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Limits of one search; the search stops at the first one reached (or when
/// its stop flag is raised). No limit at all means "until stopped" for MCTS
/// and "to the maximum depth" for alpha-beta.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Alpha-beta: the deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Nodes (alpha-beta) or iterations (MCTS).
    pub nodes: Option<u64>,
    /// Wall-clock time.
    pub time: Option<Duration>,
    /// Plies the game may still last before the ply cap ends it
    /// ([`GameRecord::plies_left`](board_core::GameRecord::plies_left)):
    /// the search judges a position that many plies ahead as the cap does
    /// ([`Game::adjudicate`](board_core::Game::adjudicate)), so it does not
    /// chase results beyond it. `None`: no cap.
    pub plies_left: Option<u32>,
}

impl Limits {
    /// Only a depth limit.
    pub fn depth(depth: u32) -> Self {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    /// Only a node (or iteration) limit.
    pub fn nodes(nodes: u64) -> Self {
        Limits { nodes: Some(nodes), ..Limits::default() }
    }

    /// Only a time limit.
    pub fn time(time: Duration) -> Self {
        Limits { time: Some(time), ..Limits::default() }
    }
}

pub use board_core::Score;

/// Progress and result of a search: what a UCI-style `info` line carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info<M> {
    /// Completed depth (alpha-beta) or the depth of the deepest tree node (MCTS).
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// The value for the side to move.
    pub score: Score,
    /// Nodes searched (MCTS: iterations).
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
    /// The principal variation, best move first.
    pub pv: Vec<M>,
    /// Which line of a multi-line search this is, best first (1, 2, ...;
    /// [`AlphaBeta::set_multi_pv`](crate::AlphaBeta::set_multi_pv));
    /// `None` when the search reports one line.
    pub multipv: Option<u32>,
}

impl<M> Info<M> {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let micros = self.time.as_micros().max(1);
        u64::try_from(u128::from(self.nodes) * 1_000_000 / micros).unwrap_or(u64::MAX)
    }

    /// The same info with the moves converted (e.g. to text).
    pub fn map_moves<N>(&self, f: impl FnMut(&M) -> N) -> Info<N> {
        Info {
            depth: self.depth,
            seldepth: self.seldepth,
            score: self.score,
            nodes: self.nodes,
            time: self.time,
            pv: self.pv.iter().map(f).collect(),
            multipv: self.multipv,
        }
    }
}

/// The clock side of a search: start time, limits and the stop flag.
pub(crate) struct Clock<'a> {
    start: Instant,
    limits: Limits,
    stop: &'a AtomicBool,
    stopped: bool,
    /// Look at the time and the flag every `period` counts.
    period: u64,
}

impl<'a> Clock<'a> {
    /// A clock that looks at the time and the flag every `period` counts:
    /// often enough to stop within a millisecond, rarely enough to be cheap.
    pub(crate) fn new(limits: Limits, stop: &'a AtomicBool, period: u64) -> Self {
        Clock { start: Instant::now(), limits, stop, stopped: false, period: period.max(1) }
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the search must stop now, given the nodes spent so far. Looks
    /// at the time and the flag only every `period` nodes, so call it per node.
    pub(crate) fn must_stop(&mut self, nodes: u64) -> bool {
        if self.stopped {
            return true;
        }
        if self.limits.nodes.is_some_and(|limit| nodes >= limit) {
            self.stopped = true;
        } else if nodes.is_multiple_of(self.period) {
            self.stopped = self.stop.load(Ordering::Relaxed)
                || self.limits.time.is_some_and(|t| self.start.elapsed() >= t);
        }
        self.stopped
    }

    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }
}
