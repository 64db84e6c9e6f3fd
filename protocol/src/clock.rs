//! Time management: how long one move may take.

use std::time::Duration;

use board_core::Player;

use crate::Go;

/// Moves the clock time is shared over when `go` gives no `movestogo`.
const MOVES_TO_GO: u64 = 30;

/// The wall-clock time the engine may spend on this move, or `None` for no
/// time limit (`infinite`, or neither a clock nor `movetime`).
///
/// With a clock (`p1time`/`p2time` of `mover`): the remaining time less
/// `move_overhead` and a reserve of 5% + 5 ms, shared over `movestogo` (or 30)
/// moves, plus three quarters of the increment, and never more than half of
/// what is left after the reserve. With `movetime`: that time less the
/// overhead. The smaller of the two wins; the result is at least 1 ms, so it
/// is never negative and never overruns a clock that had more than the
/// overhead and the reserve left.
///
/// ```
/// use std::time::Duration;
/// use board_core::Player;
/// use protocol::{time_budget, Go};
/// let go = Go { p1time: Some(1000), p2time: Some(1000), p1inc: Some(10), ..Go::default() };
/// let budget = time_budget(&go, Player::First, Duration::from_millis(50)).unwrap();
/// assert!(budget < Duration::from_millis(1000 - 50));
/// ```
pub fn time_budget(go: &Go, mover: Player, move_overhead: Duration) -> Option<Duration> {
    if go.infinite {
        return None;
    }
    let overhead = u64::try_from(move_overhead.as_millis()).unwrap_or(u64::MAX);
    let (time, inc) = match mover {
        Player::First => (go.p1time, go.p1inc),
        Player::Second => (go.p2time, go.p2inc),
    };
    let from_clock = time.map(|time| {
        let safe = time.saturating_sub(overhead).saturating_sub(time / 20 + 5);
        let moves = go.movestogo.map_or(MOVES_TO_GO, u64::from).max(1);
        (safe / moves).saturating_add(inc.unwrap_or(0) / 4 * 3).min(safe / 2)
    });
    let from_movetime = go.movetime.map(|ms| ms.saturating_sub(overhead));
    let budget = match (from_clock, from_movetime) {
        (Some(a), Some(b)) => a.min(b),
        (a, b) => a.or(b)?,
    };
    Some(Duration::from_millis(budget.max(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_clock_of_the_side_to_move_is_used() {
        let go = Go { p1time: Some(60_000), p2time: Some(1_000), ..Go::default() };
        let p1 = time_budget(&go, Player::First, ms(50)).unwrap();
        let p2 = time_budget(&go, Player::Second, ms(50)).unwrap();
        assert!(p1 > p2 * 10, "{p1:?} {p2:?}");
    }

    #[test]
    fn never_overruns_nor_goes_negative() {
        for time in [0, 1, 10, 49, 50, 100, 500, 1_000, 10_000, 1_000_000] {
            for inc in [0, 10, 1_000, 100_000] {
                for movestogo in [None, Some(0), Some(1), Some(40)] {
                    for overhead in [0, 50, 5_000] {
                        let go =
                            Go { p1time: Some(time), p1inc: Some(inc), movestogo, ..Go::default() };
                        let budget = time_budget(&go, Player::First, ms(overhead)).unwrap();
                        assert!(budget >= ms(1));
                        if time > overhead + time / 20 + 5 {
                            assert!(budget + ms(overhead) < ms(time), "{time} {inc} {overhead}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn movetime_infinite_and_nothing() {
        let movetime = Go { movetime: Some(300), ..Go::default() };
        assert_eq!(time_budget(&movetime, Player::Second, ms(50)), Some(ms(250)));
        let both = Go { movetime: Some(300), p2time: Some(100), ..Go::default() };
        assert!(time_budget(&both, Player::Second, ms(0)).unwrap() < ms(100));
        let infinite = Go { infinite: true, p1time: Some(100), ..Go::default() };
        assert_eq!(time_budget(&infinite, Player::First, ms(50)), None);
        assert_eq!(time_budget(&Go::default(), Player::First, ms(50)), None);
        let depth_only = Go { depth: Some(3), ..Go::default() };
        assert_eq!(time_budget(&depth_only, Player::First, ms(50)), None);
    }
}
