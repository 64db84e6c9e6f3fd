//! Learned evaluations: pattern weights trained from self-play
//! (`igroteka tune train`, docs/tuning.md), read from a weights file.
//!
//! A game offers pattern features through [`Evaluate::PATTERNS`],
//! [`Evaluate::PATTERN_BOUND`], [`Evaluate::PATTERN_LAYOUT`] and
//! [`Evaluate::pattern_indices`]; the learned value of a position is one
//! weight per pattern index plus the hand evaluation's features times
//! weights of their own. [`Learned`] holds the weights of one game, read
//! once ([`Learned::from_bytes`], [`Learned::shipped`]), and values
//! positions without allocating.
//!
//! **The weights file.** The 8 bytes `IGROEVAL`, a version (u32
//! little-endian, now 1), then the body in postcard's encoding: the game's
//! name (a varint length and UTF-8), the layout hash (a varint u64), `K`
//! (f32 little-endian), the pattern weights and the feature weights (each a
//! varint count and that many f32 little-endian), in centipawns.
//!
//! ```
//! use board_core::learned::{WeightsFile, layout_hash};
//!
//! let file = WeightsFile {
//!     game: "tictactoe".into(),
//!     layout: layout_hash("none"),
//!     k: 150.0,
//!     patterns: vec![1.0, -2.5],
//!     features: vec![3.0],
//! };
//! assert_eq!(WeightsFile::parse(&file.to_bytes()), Ok(file));
//! ```

use std::fmt;
use std::marker::PhantomData;

use crate::game::{Evaluate, MAX_FEATURES, Valuation, dot};

/// The most pattern indices a position may have ([`Evaluate::PATTERNS`]).
pub const MAX_PATTERNS: usize = 64;
/// The first bytes of a weights file, then its version.
pub const WEIGHTS_MAGIC: &[u8; 8] = b"IGROEVAL";
/// The weights file's version.
pub const WEIGHTS_VERSION: u32 = 1;

/// A 64-bit FNV-1a hash of a pattern layout's description
/// ([`Evaluate::PATTERN_LAYOUT`]): weights files carry it, so that weights
/// of another layout are refused.
pub const fn layout_hash(layout: &str) -> u64 {
    let bytes = layout.as_bytes();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    hash
}

/// Why a weights file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    /// It does not start with `IGROEVAL`.
    NotWeights,
    /// Another version (`None`: the file ends before it).
    Version(Option<u32>),
    /// The body does not decode: what was being read.
    Decode(&'static str),
    /// Weights of another game.
    Game {
        /// The file's game.
        found: String,
        /// The game asked for.
        expected: &'static str,
    },
    /// Weights of another pattern layout.
    Layout {
        /// The file's layout hash.
        found: u64,
        /// This build's.
        expected: u64,
    },
    /// Tables of other sizes (patterns, features).
    Sizes {
        /// The file's.
        found: (usize, usize),
        /// The game's.
        expected: (usize, usize),
    },
    /// The game has no pattern layout or no shipped weights.
    NoPatterns(&'static str),
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::NotWeights => {
                f.write_str("not a weights file (it does not start with IGROEVAL)")
            }
            WeightsError::Version(v) => match v {
                Some(v) => {
                    write!(f, "weights file version {v}, this build reads {WEIGHTS_VERSION}")
                }
                None => write!(f, "weights file without its version (it ends after the magic)"),
            },
            WeightsError::Decode(what) => write!(f, "the weights do not decode ({what})"),
            WeightsError::Game { found, expected } => {
                write!(f, "weights for {found}, not {expected}")
            }
            WeightsError::Layout { found, expected } => {
                write!(f, "weights for pattern layout {found:016x}, this build has {expected:016x}")
            }
            WeightsError::Sizes { found, expected } => write!(
                f,
                "{} pattern and {} feature weights, expected {} and {}",
                found.0, found.1, expected.0, expected.1
            ),
            WeightsError::NoPatterns(game) => write!(f, "{game} has no learned evaluation"),
        }
    }
}

impl std::error::Error for WeightsError {}

/// A weights file's contents, as written and read.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightsFile {
    /// The game's name.
    pub game: String,
    /// The hash of the pattern layout ([`layout_hash`]).
    pub layout: u64,
    /// The scale `K` of `sigmoid(value / K)` they were trained with.
    pub k: f32,
    /// One weight per pattern index, centipawns.
    pub patterns: Vec<f32>,
    /// One weight per hand-written feature, centipawns.
    pub features: Vec<f32>,
}

/// Reads postcard's varints, strings and f32 sequences from a byte slice.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn varint(&mut self, what: &'static str) -> Result<u64, WeightsError> {
        let mut value: u64 = 0;
        for shift in (0..64).step_by(7) {
            let (&byte, rest) = self.0.split_first().ok_or(WeightsError::Decode(what))?;
            self.0 = rest;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(WeightsError::Decode(what))
    }

    fn bytes(&mut self, n: u64, what: &'static str) -> Result<&[u8], WeightsError> {
        let n = usize::try_from(n).map_err(|_| WeightsError::Decode(what))?;
        if n > self.0.len() {
            return Err(WeightsError::Decode(what));
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }

    fn f32(&mut self, what: &'static str) -> Result<f32, WeightsError> {
        let b = self.bytes(4, what)?;
        Ok(f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn f32s(&mut self, what: &'static str) -> Result<Vec<f32>, WeightsError> {
        let n = self.varint(what)?;
        let bytes = self.bytes(n.checked_mul(4).ok_or(WeightsError::Decode(what))?, what)?;
        Ok(bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect())
    }
}

fn push_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8 & 0x7f) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn push_f32s(out: &mut Vec<u8>, values: &[f32]) {
    push_varint(out, values.len() as u64);
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
}

impl WeightsFile {
    /// The file's bytes: magic, version, body.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = WEIGHTS_MAGIC.to_vec();
        out.extend_from_slice(&WEIGHTS_VERSION.to_le_bytes());
        push_varint(&mut out, self.game.len() as u64);
        out.extend_from_slice(self.game.as_bytes());
        push_varint(&mut out, self.layout);
        out.extend_from_slice(&self.k.to_le_bytes());
        push_f32s(&mut out, &self.patterns);
        push_f32s(&mut out, &self.features);
        out
    }

    /// Reads a weights file's bytes (any game).
    ///
    /// # Errors
    /// [`WeightsError`] when the bytes are not a whole weights file of this
    /// version.
    pub fn parse(bytes: &[u8]) -> Result<WeightsFile, WeightsError> {
        let rest = bytes.strip_prefix(WEIGHTS_MAGIC).ok_or(WeightsError::NotWeights)?;
        let version = rest.get(..4).map(|v| u32::from_le_bytes([v[0], v[1], v[2], v[3]]));
        if version != Some(WEIGHTS_VERSION) {
            return Err(WeightsError::Version(version));
        }
        let mut r = Reader(&rest[4..]);
        let len = r.varint("the game's name")?;
        let game = std::str::from_utf8(r.bytes(len, "the game's name")?)
            .map_err(|_| WeightsError::Decode("the game's name"))?
            .to_owned();
        let layout = r.varint("the layout hash")?;
        let k = r.f32("K")?;
        let patterns = r.f32s("the pattern weights")?;
        let features = r.f32s("the feature weights")?;
        if !r.0.is_empty() {
            return Err(WeightsError::Decode("bytes after the feature weights"));
        }
        Ok(WeightsFile { game, layout, k, patterns, features })
    }

    /// Checks that the weights are for `game` with pattern layout hash
    /// `layout` and tables of `sizes` (patterns, features).
    ///
    /// # Errors
    /// The first difference, as a [`WeightsError`].
    pub fn check(
        &self,
        game: &'static str,
        layout: u64,
        sizes: (usize, usize),
    ) -> Result<(), WeightsError> {
        if !self.game.eq_ignore_ascii_case(game) {
            return Err(WeightsError::Game { found: self.game.clone(), expected: game });
        }
        if self.layout != layout {
            return Err(WeightsError::Layout { found: self.layout, expected: layout });
        }
        let found = (self.patterns.len(), self.features.len());
        if found != sizes {
            return Err(WeightsError::Sizes { found, expected: sizes });
        }
        Ok(())
    }
}

/// The learned evaluation of game `G`: its weights, rounded to whole
/// centipawns (pattern weights as `i16`, so the table is half the cache).
pub struct Learned<G> {
    patterns: Box<[i16]>,
    features: Box<[i32]>,
    k: f32,
    game: PhantomData<fn() -> G>,
}

impl<G> fmt::Debug for Learned<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Learned")
            .field("patterns", &self.patterns.len())
            .field("features", &self.features)
            .field("k", &self.k)
            .finish()
    }
}

impl<G: Evaluate> Learned<G> {
    /// The weights of a weights file, checked against `G`'s name, pattern
    /// layout and feature count.
    ///
    /// # Errors
    /// [`WeightsError`]: not a weights file of this version, or not `G`'s.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, WeightsError> {
        let file = WeightsFile::parse(bytes)?;
        if G::PATTERNS == 0 {
            return Err(WeightsError::NoPatterns(G::NAME));
        }
        let sizes = (G::PATTERN_BOUND, G::FEATURE_NAMES.len());
        file.check(G::NAME, layout_hash(G::PATTERN_LAYOUT), sizes)?;
        let round = |w: f32| w.round().clamp(f32::from(i16::MIN), f32::from(i16::MAX));
        Ok(Learned {
            patterns: file.patterns.iter().map(|&w| round(w) as i16).collect(),
            features: file.features.iter().map(|&w| round(w) as i32).collect(),
            k: file.k,
            game: PhantomData,
        })
    }

    /// The weights the game crate ships ([`Evaluate::LEARNED_WEIGHTS`]).
    ///
    /// # Errors
    /// [`WeightsError::NoPatterns`] when the game ships none; otherwise as
    /// [`from_bytes`](Learned::from_bytes).
    pub fn shipped() -> Result<Self, WeightsError> {
        if G::LEARNED_WEIGHTS.is_empty() {
            return Err(WeightsError::NoPatterns(G::NAME));
        }
        Learned::from_bytes(G::LEARNED_WEIGHTS)
    }

    /// The scale `K` the weights were trained with ([`WeightsFile::k`]):
    /// a value `v` predicts the side to move's score `1 / (1 + exp(-v / K))`.
    pub fn k(&self) -> f32 {
        self.k
    }

    /// The value of `pos` for the side to move, within ±20 000: the pattern
    /// weights of its indices plus its features times their weights; a
    /// position the game values outright ([`Valuation::Fixed`]) keeps that
    /// value. Rounded toward zero to a multiple of
    /// [`Evaluate::LEARNED_GRAIN`]. Allocates nothing.
    pub fn evaluate(&self, pos: &G) -> i32 {
        let mut features = [0; MAX_FEATURES];
        let features = &mut features[..G::FEATURE_NAMES.len().min(MAX_FEATURES)];
        if let Valuation::Fixed(value) = pos.features(features) {
            return value;
        }
        let mut indices = [0; MAX_PATTERNS];
        let indices = &mut indices[..G::PATTERNS.min(MAX_PATTERNS)];
        pos.pattern_indices(indices);
        let patterns: i32 = indices
            .iter()
            .map(|&i| i32::from(self.patterns.get(i as usize).copied().unwrap_or(0)))
            .sum();
        let value = (patterns + dot(&self.features, features)).clamp(-20_000, 20_000);
        if G::LEARNED_GRAIN > 1 { value / G::LEARNED_GRAIN * G::LEARNED_GRAIN } else { value }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> WeightsFile {
        WeightsFile {
            game: "stykovka".into(),
            layout: 7,
            k: 150.0,
            patterns: vec![1.0, -2.5],
            features: vec![3.0],
        }
    }

    #[test]
    fn weights_round_trip_and_refuse_what_is_not_theirs() {
        let bytes = sample().to_bytes();
        let file = WeightsFile::parse(&bytes).unwrap();
        assert_eq!(file, sample());
        assert_eq!(file.check("stykovka", 7, (2, 1)), Ok(()));
        let refused =
            |game, layout, sizes| file.check(game, layout, sizes).unwrap_err().to_string();
        assert_eq!(refused("focus", 7, (2, 1)), "weights for stykovka, not focus");
        assert!(refused("stykovka", 8, (2, 1)).contains("pattern layout"));
        assert!(refused("stykovka", 7, (3, 1)).contains("expected 3 and 1"));
        let parse = |bytes: &[u8]| WeightsFile::parse(bytes).unwrap_err().to_string();
        assert!(parse(b"IGRODATA....").starts_with("not a weights file"));
        let mut other = bytes.clone();
        other[8] = 9;
        assert!(parse(&other).contains("version 9"));
        assert!(parse(&bytes[..10]).contains("version"));
        assert!(parse(&bytes[..bytes.len() - 2]).contains("do not decode"));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(parse(&longer).contains("bytes after"));
        // A count beyond the file is refused, not allocated.
        let mut huge = bytes[..12].to_vec();
        huge.extend_from_slice(&[0xff; 12]);
        assert!(parse(&huge).contains("do not decode"));
    }

    #[test]
    fn varints_round_trip() {
        for value in [0, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX] {
            let mut out = Vec::new();
            push_varint(&mut out, value);
            assert_eq!(Reader(&out).varint("v"), Ok(value), "{out:?}");
        }
    }
}
