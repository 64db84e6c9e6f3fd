//! The engine's options: their declarations and how `setoption` changes them.

use std::fmt;
use std::time::Duration;

use board_core::{UnknownGame, UnknownVariant};
use search::{EngineKind, GameEntry, Think, UnknownEngine, find_game};

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
// 31 bits, as GUIs that keep spins in 32-bit integers (cutechess) can read;
// the arena brings its 64-bit per-game seeds into the declared range.
const SEED: Spin = Spin { name: "Seed", default: 0, min: 0, max: 2_147_483_647 };
const MOVE_OVERHEAD: Spin = Spin { name: "MoveOverhead", default: 50, min: 0, max: 10_000 };
const MAX_PLIES: Spin = Spin { name: "MaxPlies", default: 0, min: 0, max: 1_000_000 };
/// Lines reported (alpha-beta): more than the legal moves reports them all.
const MULTI_PV: Spin = Spin { name: "MultiPV", default: 1, min: 1, max: 64 };

/// Every option the engine declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OptionName {
    Game,
    Variant,
    Engine,
    Hash,
    Threads,
    Seed,
    MoveOverhead,
    MaxPlies,
    Tablebase,
    MultiPv,
    Evaluation,
    EvalFile,
}

impl OptionName {
    /// Every option, in declaration order.
    const ALL: [OptionName; 12] = [
        OptionName::Game,
        OptionName::Variant,
        OptionName::Engine,
        OptionName::Hash,
        OptionName::Threads,
        OptionName::Seed,
        OptionName::MoveOverhead,
        OptionName::MaxPlies,
        OptionName::Tablebase,
        OptionName::MultiPv,
        OptionName::Evaluation,
        OptionName::EvalFile,
    ];

    /// The name as declared.
    const fn name(self) -> &'static str {
        match self {
            OptionName::Game => "Game",
            OptionName::Variant => "Variant",
            OptionName::Engine => "Engine",
            OptionName::Hash => HASH.name,
            OptionName::Threads => THREADS.name,
            OptionName::Seed => SEED.name,
            OptionName::MoveOverhead => MOVE_OVERHEAD.name,
            OptionName::MaxPlies => MAX_PLIES.name,
            OptionName::Tablebase => "Tablebase",
            OptionName::MultiPv => MULTI_PV.name,
            OptionName::Evaluation => "Evaluation",
            OptionName::EvalFile => "EvalFile",
        }
    }

    /// The option named `name` (trimmed, any case).
    fn find(name: &str) -> Option<OptionName> {
        OptionName::ALL.into_iter().find(|o| o.name().eq_ignore_ascii_case(name.trim()))
    }
}

/// Why a `setoption` changed nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum OptionError {
    /// No option has this name.
    Unknown(String),
    /// `Game` names no registered game.
    Game(UnknownGame, String),
    /// `Variant` names a variant of no registered game.
    Variant { value: String, game: &'static str, known: &'static [&'static str] },
    /// `Engine` names no engine.
    Engine(UnknownEngine, String),
    /// An integer option out of its range or not an integer.
    Spin { name: &'static str, value: String, min: i64, max: i64 },
    /// A check option that is neither `true` nor `false`.
    Check { name: &'static str, value: String },
    /// `Evaluation` is neither `classic` nor `learned`.
    Evaluation(String),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(name) => {
                let names: Vec<&str> = OptionName::ALL.iter().map(|o| o.name()).collect();
                write!(f, "unknown option '{}' (options: {})", quote(name), names.join(", "))
            }
            OptionError::Game(e, value) => write!(f, "Game: {}", quoting(&e.to_string(), value)),
            OptionError::Variant { value, game, known } => write!(
                f,
                "Variant: no game has a variant '{}' (variants of {game}: {})",
                quote(value),
                known.join(", ")
            ),
            OptionError::Engine(e, value) => {
                write!(f, "Engine: {}", quoting(&e.to_string(), value))
            }
            OptionError::Spin { name, value, min, max } => write!(
                f,
                "{name}: bad value '{}' (expected an integer from {min} to {max})",
                quote(value)
            ),
            OptionError::Check { name, value } => {
                write!(f, "{name}: bad value '{}' (true or false)", quote(value))
            }
            OptionError::Evaluation(value) => {
                write!(f, "Evaluation: bad value '{}' (classic or learned)", quote(value))
            }
        }
    }
}

impl std::error::Error for OptionError {}

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
    /// Lines reported by alpha-beta (`MultiPV`).
    pub(crate) multi_pv: usize,
    /// Alpha-beta's evaluation as set by `Evaluation`; `None`: the game's
    /// default ([`GameEntry::learned_by_default`]).
    evaluation: Option<Evaluation>,
}

/// Which evaluation alpha-beta uses (`Evaluation`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Evaluation {
    /// The game's hand-written evaluation.
    Classic,
    /// The learned pattern evaluation (the game's weights or `EvalFile`'s).
    Learned,
}

impl Evaluation {
    const ALL: [Evaluation; 2] = [Evaluation::Classic, Evaluation::Learned];

    const fn name(self) -> &'static str {
        match self {
            Evaluation::Classic => "classic",
            Evaluation::Learned => "learned",
        }
    }
}

/// What a successful `setoption` changed beyond the value itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Effect {
    /// Nothing else.
    None,
    /// The game or variant changed: the position goes back to its start.
    NewGame,
    /// The ply cap changed.
    MaxPlies,
    /// The evaluation changed: load the learned one if it is asked for.
    Evaluation,
    /// `EvalFile` was given this path (empty: the game's own weights).
    EvalFile(String),
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
            multi_pv: usize::try_from(MULTI_PV.default).unwrap_or(1),
            evaluation: None,
        }
    }

    /// Alpha-beta's evaluation: as set, or the game's default (learned
    /// where the game's learned evaluation won at equal time).
    pub(crate) fn evaluation(&self) -> Evaluation {
        self.evaluation.unwrap_or(if self.game.learned_by_default {
            Evaluation::Learned
        } else {
            Evaluation::Classic
        })
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
            searchmoves: Vec::new(),
            multi_pv: self.multi_pv,
        }
    }

    /// The `option` lines of the answer to `ugi`.
    /// `eval_file` is `EvalFile`'s value (kept by the engine, not here).
    pub(crate) fn declarations(
        &self,
        games: &[GameEntry],
        eval_file: Option<&str>,
    ) -> Vec<OptionDecl> {
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
            spin(&MULTI_PV, i64::try_from(self.multi_pv).unwrap_or(i64::MAX)),
            combo(
                "Evaluation",
                self.evaluation().name(),
                Evaluation::ALL.iter().map(|e| e.name().to_owned()).collect(),
            ),
            OptionDecl {
                name: "EvalFile".to_owned(),
                kind: OptionKind::String { default: eval_file.unwrap_or("<empty>").to_owned() },
            },
        ]
    }

    /// Applies `setoption name <name> value <value>`; the name is matched
    /// case-insensitively.
    ///
    /// # Errors
    /// [`OptionError`] for an unknown option or a bad value; nothing changes then.
    pub(crate) fn set(
        &mut self,
        games: &'static [GameEntry],
        name: &str,
        value: Option<&str>,
    ) -> Result<Effect, OptionError> {
        let option = OptionName::find(name).ok_or_else(|| OptionError::Unknown(name.to_owned()))?;
        let value = value.map(str::trim).unwrap_or_default();
        match option {
            OptionName::Game => {
                self.game =
                    find_game(games, value).map_err(|e| OptionError::Game(e, value.to_owned()))?;
                self.variant = self.playable_variant();
                Ok(Effect::NewGame)
            }
            OptionName::Variant => {
                let known = games.iter().flat_map(|g| g.variants);
                let variant =
                    known.copied().find(|v| v.eq_ignore_ascii_case(value)).ok_or_else(|| {
                        OptionError::Variant {
                            value: value.to_owned(),
                            game: self.game.name,
                            known: self.game.variants,
                        }
                    })?;
                self.requested_variant = Some(variant);
                self.variant = self.playable_variant();
                Ok(Effect::NewGame)
            }
            OptionName::Engine => {
                self.engine = value
                    .parse::<EngineKind>()
                    .map_err(|e| OptionError::Engine(e, value.to_owned()))?;
                Ok(Effect::None)
            }
            OptionName::Hash => {
                self.hash_mb = spin_value(&HASH, value)?;
                Ok(Effect::None)
            }
            OptionName::Threads => {
                self.threads = spin_value(&THREADS, value)?;
                Ok(Effect::None)
            }
            OptionName::Seed => {
                self.seed = spin_value(&SEED, value)?;
                Ok(Effect::None)
            }
            OptionName::MoveOverhead => {
                self.move_overhead = Duration::from_millis(spin_value(&MOVE_OVERHEAD, value)?);
                Ok(Effect::None)
            }
            OptionName::MaxPlies => {
                self.max_plies = spin_value(&MAX_PLIES, value)?;
                Ok(Effect::MaxPlies)
            }
            OptionName::Tablebase => {
                self.tablebase = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        let name = option.name();
                        return Err(OptionError::Check { name, value: value.to_owned() });
                    }
                };
                Ok(Effect::None)
            }
            OptionName::MultiPv => {
                self.multi_pv = spin_value(&MULTI_PV, value)?;
                Ok(Effect::None)
            }
            OptionName::Evaluation => {
                self.evaluation = Some(
                    Evaluation::ALL
                        .into_iter()
                        .find(|e| e.name().eq_ignore_ascii_case(value))
                        .ok_or_else(|| OptionError::Evaluation(value.to_owned()))?,
                );
                Ok(Effect::Evaluation)
            }
            OptionName::EvalFile => {
                let path = if value == "<empty>" { "" } else { value };
                Ok(Effect::EvalFile(path.to_owned()))
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
            let unknown = UnknownVariant {
                game: self.game.name,
                variant: requested.to_owned(),
                known: self.game.variants,
            };
            format!("Variant: {unknown}; playing {}", self.variant)
        })
    }
}

fn spin_value<T: TryFrom<i64>>(spin: &Spin, text: &str) -> Result<T, OptionError> {
    let bad = || OptionError::Spin {
        name: spin.name,
        value: text.to_owned(),
        min: spin.min,
        max: spin.max,
    };
    let n: i64 = text.parse().map_err(|_| bad())?;
    if !(spin.min..=spin.max).contains(&n) {
        return Err(bad());
    }
    T::try_from(n).map_err(|_| bad())
}
