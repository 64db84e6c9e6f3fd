//! What a running tournament tells an observer (the `igroteka` binary's
//! `--live` page): each game as it starts, every move with the clocks, the
//! engines' search reports, each game's end, and the standings after it.

use std::sync::Arc;

use board_core::Player;
use protocol::GuiMessage;

/// Told what happens in a tournament ([`run_observed`](crate::run_observed)).
/// Called from the tournament's tasks as things happen: it must return at
/// once (keep what it needs, wake its own task), never block or wait.
pub trait Observer: Send + Sync {
    /// Something happened.
    fn event(&self, event: Event<'_>);
}

/// One thing that happened in a tournament.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Event<'a> {
    /// Game `id` starts (both engines ready): who plays it.
    Started {
        /// The game's number in the schedule.
        id: u64,
        /// The engine of player 1, and of player 2.
        engines: [&'a str; 2],
    },
    /// The position of game `id`: its opening at the start, then after each
    /// move.
    Moved {
        /// The game's number.
        id: u64,
        /// The position as an engine is told it (base and moves).
        position: &'a GuiMessage,
        /// The moves from the base position (the opening's included).
        moves: &'a [String],
        /// Each player's time left in ms, for those on a clock.
        clocks_ms: [Option<u64>; 2],
        /// The player to move.
        to_move: Player,
    },
    /// An engine of game `id` reported its search (`info`).
    Searched {
        /// The game's number.
        id: u64,
        /// Whose engine.
        side: Player,
        /// The depth it completed.
        depth: Option<u32>,
        /// Its score (`cp 35`, `win 3` as it prints).
        score: Option<&'a board_core::Score>,
    },
    /// Game `id` ended.
    Ended {
        /// The game's number.
        id: u64,
        /// `1-0`, `0-1` or `1/2-1/2`.
        result: &'a str,
        /// Why, in words.
        reason: &'a str,
    },
    /// The standings after a game ended, as the arena prints them.
    Standings {
        /// The table.
        table: &'a str,
        /// How many games ended, and of how many.
        played: u64,
        /// The games of the tournament (or of this shard).
        total: u64,
    },
}

/// The observer of a tournament, if any (cheap to clone into game tasks).
#[derive(Clone, Default)]
pub(crate) struct Observers(pub(crate) Option<Arc<dyn Observer>>);

impl Observers {
    pub(crate) fn tell(&self, event: Event<'_>) {
        if let Some(observer) = &self.0 {
            observer.event(event);
        }
    }
}

impl std::fmt::Debug for Observers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "Observers(Some(..))" } else { "Observers(None)" })
    }
}
