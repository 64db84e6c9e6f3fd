//! A small seeded random number generator (SplitMix64) and Zobrist keys.
//!
//! Good enough for playouts, test positions and hash keys; deterministic for a
//! given seed on every platform, and free of dependencies.

/// A SplitMix64 generator.
///
/// ```
/// use board_core::Rng;
/// let mut a = Rng::new(7);
/// let mut b = Rng::new(7);
/// assert_eq!(a.below(100), b.below(100));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator started from `seed`.
    pub const fn new(seed: u64) -> Self {
        Rng { state: seed }
    }

    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)]
    pub const fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..n` (`n > 0`), without modulo bias worth noting
    /// for the small `n` of move lists.
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// A uniform float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A uniformly chosen element, or `None` for an empty slice.
    pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() { None } else { items.get(self.below(items.len())) }
    }
}

/// `N` Zobrist keys derived from `seed`, computable at compile time:
///
/// ```
/// const KEYS: [u64; 4] = board_core::zobrist_keys(1);
/// assert_ne!(KEYS[0], KEYS[1]);
/// ```
pub const fn zobrist_keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut rng = Rng::new(seed);
    let mut keys = [0; N];
    let mut i = 0;
    while i < N {
        keys[i] = rng.next_u64();
        i += 1;
    }
    keys
}
