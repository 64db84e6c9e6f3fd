//! The engine's options: their declarations and how `setoption` changes them.

use std::time::Duration;

use search::{EngineKind, GameEntry, Think, find_game};

use crate::error::{quote, quoting};
use crate::{OptionDecl, OptionKind};

/// An integer option: name, default and range.
struct Spin {
    name: &'static str,
    default: i64,
    min: i64,
    max: i64,
}

const HASH: Spin = Spin { name: "Hash", default: 16, min: 1, max: 1024 };
const THREADS: Spin = Spin { name: "Threads", default: 1, min: 1, max: 256 };
const SEED: Spin = Spin { name: "Seed", default: 0, min: 0, max: 2_147_483_647 };
const MOVE_OVERHEAD: Spin = Spin { name: "MoveOverhead", default: 50, min: 0, max: 10_000 };
const MAX_PLIES: Spin = Spin { name: "MaxPlies", default: 0, min: 0, max: 1_000_000 };

/// The names of every option, in declaration order.
const NAMES: [&str; 9] = [
    "Game",
    "Variant",
    "Engine",
    "Hash",
    "Threads",
    "Seed",
    "MoveOverhead",
    "MaxPlies",
    "Tablebase",
];

/// The current value of every option.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Options {
    pub(crate) game: &'static GameEntry,
    /// The variant played: the one asked for if `game` has it, else the
    /// game's default.
    pub(crate) variant: &'static str,
    /// The variant last asked for (`Variant` or `--variant`), kept when the
    /// game changes, so `Variant` may come before `Game`.
    requested_variant: Option<&'static str>,
    pub(crate) engine: EngineKind,
    pub(crate) hash_mb: usize,
    pub(crate) threads: usize,
    pub(crate) seed: u64,
    pub(crate) move_overhead: Duration,
    /// Moves after the base position at which the game is adjudicated; 0 = off.
    pub(crate) max_plies: u32,
    /// Whether a game with an endgame table plays from it (Otrazhenie).
    pub(crate) tablebase: bool,
}

/// What a successful `setoption` changed beyond the value itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Effect {
    /// Nothing else.
    None,
    /// The game or variant changed: the position goes back to its start.
    NewGame,
}

impl Options {
    /// The defaults, playing `game` in the `requested_variant` (a variant of
    /// `game`) or its default variant.
    pub(crate) fn new(game: &'static GameEntry, requested_variant: Option<&'static str>) -> Self {
        let ms = |spin: &Spin| u64::try_from(spin.default).unwrap_or(0);
        Options {
            game,
            variant: requested_variant.unwrap_or_else(|| game.default_variant()),
            requested_variant,
            engine: EngineKind::default(),
            hash_mb: usize::try_from(HASH.default).unwrap_or(1),
            threads: usize::try_from(THREADS.default).unwrap_or(1),
            seed: ms(&SEED),
            move_overhead: Duration::from_millis(ms(&MOVE_OVERHEAD)),
            max_plies: 0,
            tablebase: true,
        }
    }

    /// How to think, given the limits.
    pub(crate) fn think(&self, limits: search::Limits) -> Think {
        Think {
            engine: self.engine,
            limits,
            seed: self.seed,
            hash_mb: self.hash_mb,
            threads: self.threads,
            use_table: self.tablebase,
        }
    }

    /// The `option` lines of the answer to `ugi`.
    pub(crate) fn declarations(&self, games: &[GameEntry]) -> Vec<OptionDecl> {
        let mut variants: Vec<String> = Vec::new();
        for variant in games.iter().flat_map(|g| g.variants) {
            if !variants.iter().any(|v| v == variant) {
                variants.push((*variant).to_owned());
            }
        }
        let combo = |name: &str, default: &str, vars: Vec<String>| OptionDecl {
            name: name.to_owned(),
            kind: OptionKind::Combo { default: default.to_owned(), vars },
        };
        let spin = |spin: &Spin, default: i64| OptionDecl {
            name: spin.name.to_owned(),
            kind: OptionKind::Spin { default, min: spin.min, max: spin.max },
        };
        let ms = |d: Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
        vec![
            combo("Game", self.game.name, games.iter().map(|g| g.name.to_owned()).collect()),
            combo("Variant", self.variant, variants),
            combo(
                "Engine",
                self.engine.name(),
                EngineKind::ALL.iter().map(|k| k.name().to_owned()).collect(),
            ),
            spin(&HASH, i64::try_from(self.hash_mb).unwrap_or(i64::MAX)),
            spin(&THREADS, i64::try_from(self.threads).unwrap_or(i64::MAX)),
            spin(&SEED, i64::try_from(self.seed).unwrap_or(i64::MAX)),
            spin(&MOVE_OVERHEAD, ms(self.move_overhead)),
            spin(&MAX_PLIES, i64::from(self.max_plies)),
            OptionDecl {
                name: "Tablebase".to_owned(),
                kind: OptionKind::Check { default: self.tablebase },
            },
        ]
    }

    /// Applies `setoption name <name> value <value>`; the name is matched
    /// case-insensitively.
    ///
    /// # Errors
    /// A message for an unknown option or a bad value; nothing changes then.
    pub(crate) fn set(
        &mut self,
        games: &'static [GameEntry],
        name: &str,
        value: Option<&str>,
    ) -> Result<Effect, String> {
        let Some(canonical) = NAMES.iter().find(|n| n.eq_ignore_ascii_case(name.trim())) else {
            return Err(format!(
                "unknown option '{}' (options: {})",
                quote(name),
                NAMES.join(", ")
            ));
        };
        let value = value.map(str::trim).unwrap_or_default();
        match *canonical {
            "Game" => {
                let game = find_game(games, value).ok_or_else(|| {
                    let names: Vec<&str> = games.iter().map(|g| g.name).collect();
                    format!("Game: unknown game '{}' (games: {})", quote(value), names.join(", "))
                })?;
                self.game = game;
                self.variant = self.playable_variant();
                Ok(Effect::NewGame)
            }
            "Variant" => {
                let known = games.iter().flat_map(|g| g.variants);
                let variant =
                    known.copied().find(|v| v.eq_ignore_ascii_case(value)).ok_or_else(|| {
                        format!(
                            "Variant: no game has a variant '{}' (variants of {}: {})",
                            quote(value),
                            self.game.name,
                            self.game.variants.join(", ")
                        )
                    })?;
                self.requested_variant = Some(variant);
                self.variant = self.playable_variant();
                Ok(Effect::NewGame)
            }
            "Engine" => {
                self.engine = value
                    .parse::<EngineKind>()
                    .map_err(|e| format!("Engine: {}", quoting(&e.to_string(), value)))?;
                Ok(Effect::None)
            }
            "Hash" => {
                self.hash_mb = spin_value(&HASH, value)?;
                Ok(Effect::None)
            }
            "Threads" => {
                self.threads = spin_value(&THREADS, value)?;
                Ok(Effect::None)
            }
            "Seed" => {
                self.seed = spin_value(&SEED, value)?;
                Ok(Effect::None)
            }
            "MoveOverhead" => {
                self.move_overhead = Duration::from_millis(spin_value(&MOVE_OVERHEAD, value)?);
                Ok(Effect::None)
            }
            "MaxPlies" => {
                self.max_plies = spin_value(&MAX_PLIES, value)?;
                Ok(Effect::None)
            }
            _ => {
                // The last name left: Tablebase.
                self.tablebase = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(format!(
                            "Tablebase: bad value '{}' (true or false)",
                            quote(value)
                        ));
                    }
                };
                Ok(Effect::None)
            }
        }
    }
}

impl Options {
    /// The requested variant if the game has it, else the game's default.
    fn playable_variant(&self) -> &'static str {
        match self.requested_variant {
            Some(v) if self.game.variants.contains(&v) => v,
            _ => self.game.default_variant(),
        }
    }

    /// The error of a `Variant` that the current `Game` does not have (set
    /// before another `Game`, or kept from the previous one).
    pub(crate) fn conflict(&self) -> Option<String> {
        let requested = self.requested_variant?;
        (requested != self.variant).then(|| {
            format!(
                "Variant: {} has no variant '{requested}' (variants: {}); playing {}",
                self.game.name,
                self.game.variants.join(", "),
                self.variant
            )
        })
    }
}

/// The canonical name of `name` among the variants of `game` (case-insensitive).
///
/// # Errors
/// A message listing the game's variants.
pub(crate) fn variant_of(game: &GameEntry, name: &str) -> Result<&'static str, String> {
    game.variants.iter().find(|v| v.eq_ignore_ascii_case(name.trim())).copied().ok_or_else(|| {
        format!(
            "Variant: {} has no variant '{}' (variants: {})",
            game.name,
            quote(name),
            game.variants.join(", ")
        )
    })
}

fn spin_value<T: TryFrom<i64>>(spin: &Spin, text: &str) -> Result<T, String> {
    let bad = || {
        format!(
            "{}: bad value '{}' (expected an integer from {} to {})",
            spin.name,
            quote(text),
            spin.min,
            spin.max
        )
    };
    let n: i64 = text.parse().map_err(|_| bad())?;
    if !(spin.min..=spin.max).contains(&n) {
        return Err(bad());
    }
    T::try_from(n).map_err(|_| bad())
}
