//! `igroteka tune train`: a learned pattern evaluation fitted to datagen
//! output by logistic regression (docs/tuning.md, "Training").
//!
//! The value of a position, side to move's view, in centipawns: the sum of
//! one weight per pattern index of the position (the game's
//! `Evaluate::pattern_indices`: stykovka, hexdraughts) plus
//! the hand evaluation's features times their (trained) weights. The
//! prediction `sigmoid((value + T) / K)`, where `T` is the side to move's
//! bonus alpha-beta adds to every static value (`Evaluate::TEMPO`, 0 but
//! in focus), is fitted to `λ · result + (1 − λ) ·
//! sigmoid(score / K)` by cross-entropy with L2 on the pattern weights,
//! minibatch Adam, all randomness from `--seed`. `K` is the hand
//! evaluation's own, fitted first. Games are held out whole.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use board_core::learned::{WeightsFile, layout_hash};
use board_core::{Rng, Valuation, dot};
use clap::Args;
use search::GameEntry;

use super::datagen::{self, Sample};
use super::tune::{for_each_line, frozen_features, minimise_scale, open, parse_json};

/// The flags of `tune train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// The game (one with a pattern layout: adiyukh, city, focus, hexdraughts, stykovka).
    #[arg(long, short)]
    game: String,
    /// Files written by `tune datagen` or `tune merge` (JSON lines or
    /// postcard, mixed).
    #[arg(long, num_args = 1.., required = true)]
    data: Vec<PathBuf>,
    /// The weights file to write.
    #[arg(long)]
    out: PathBuf,
    /// Seeds the held-out choice and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10)]
    epochs: u32,
    /// The share of games held out.
    #[arg(long, default_value_t = 0.1)]
    holdout: f64,
    /// The weight of the game's result in the target (the rest is the
    /// search's score).
    #[arg(long, default_value_t = 0.5)]
    lambda: f64,
    /// L2 regularisation: `l2 · (w / K)²` per pattern weight a minibatch
    /// touches.
    #[arg(long, default_value_t = 1e-2)]
    l2: f64,
    /// Adam's step size, in centipawns.
    #[arg(long, default_value_t = 1.0)]
    lr: f64,
    /// Positions per minibatch.
    #[arg(long, default_value_t = 256)]
    batch: usize,
    /// Hand features whose weights stay the compiled ones (comma-separated
    /// names, as `tune fit --freeze`).
    #[arg(long, value_delimiter = ',')]
    freeze: Vec<String>,
}

/// Training positions: pattern indices, hand features, target, hand value.
#[derive(Default)]
struct Rows {
    /// Pattern indices a position (the game's `PATTERNS`).
    width: usize,
    /// Features a position.
    feature_width: usize,
    patterns: Vec<u32>,
    features: Vec<f64>,
    /// The game's result for the side to move.
    results: Vec<f64>,
    /// The search's score, if the record has it.
    scores: Vec<Option<f64>>,
    /// The hand evaluation's value, with the side to move's bonus.
    hand: Vec<f64>,
    /// The game of each row: its run's fingerprint and its id.
    games: Vec<(String, u64)>,
}

impl Rows {
    fn len(&self) -> usize {
        self.results.len()
    }

    fn patterns(&self, i: usize) -> &[u32] {
        &self.patterns[i * self.width..(i + 1) * self.width]
    }

    fn features(&self, i: usize) -> &[f64] {
        let width = self.feature_width;
        &self.features[i * width..(i + 1) * width]
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of prediction `p` against target `t` (clamped off 0 and 1).
fn cross_entropy(p: f64, t: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// The target of row `i`: `λ · result + (1 − λ) · sigmoid(score / k)`; the
/// result alone without a score.
fn target(rows: &Rows, i: usize, lambda: f64, k: f64) -> f64 {
    match rows.scores[i] {
        Some(score) => lambda * rows.results[i] + (1.0 - lambda) * sigmoid(score / k),
        None => rows.results[i],
    }
}

/// The `k` minimising the cross-entropy of the hand values against the
/// results of `rows`.
fn fit_k(rows: &Rows) -> f64 {
    minimise_scale(|k| {
        (0..rows.len()).map(|i| cross_entropy(sigmoid(rows.hand[i] / k), rows.results[i])).sum()
    })
}

/// Whether the game `(run, id)` is held out: a hash of it and the seed,
/// below `share`.
fn held_out(run: &str, id: u64, seed: u64, share: f64) -> bool {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325 ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    for byte in run.bytes().chain(id.to_le_bytes()) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    // Finalise (splitmix64) so nearby ids spread.
    hash ^= hash >> 30;
    hash = hash.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    hash ^= hash >> 27;
    hash = hash.wrapping_mul(0x94d0_49bb_1331_11eb);
    hash ^= hash >> 31;
    ((hash >> 11) as f64 / (1u64 << 53) as f64) < share
}

/// The rows to train on and the rows held out: every position of a game
/// (`keys[i]` is row `i`'s `(run, id)`) on the same side.
fn split(keys: &[(String, u64)], seed: u64, share: f64) -> (Vec<usize>, Vec<usize>) {
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for (i, (run, id)) in keys.iter().enumerate() {
        if held_out(run, *id, seed, share) { held.push(i) } else { train.push(i) }
    }
    (train, held)
}

/// The model being trained, with Adam's moments.
struct Model {
    /// The pattern weights come first, this many.
    bound: usize,
    /// A constant every value gains, not trained: the game's
    /// `Evaluate::TEMPO`, which the search adds and the weights file leaves
    /// out.
    bias: f64,
    weights: Vec<f64>,
    /// The hand features whose weights stay as they started.
    frozen: Vec<bool>,
    m: Vec<f64>,
    v: Vec<f64>,
    steps: i32,
}

impl Model {
    /// `bound` pattern weights zero, then the hand features' weights (those
    /// `frozen` kept as they are); every value gains `bias`.
    fn new(bound: usize, hand: &[i32], frozen: Vec<bool>, bias: f64) -> Model {
        let mut weights = vec![0.0; bound];
        weights.extend(hand.iter().map(|&w| f64::from(w)));
        let n = weights.len();
        Model { bound, bias, weights, frozen, m: vec![0.0; n], v: vec![0.0; n], steps: 0 }
    }

    fn value(&self, rows: &Rows, i: usize) -> f64 {
        let sum: f64 =
            self.bias + rows.patterns(i).iter().map(|&p| self.weights[p as usize]).sum::<f64>();
        let dense = &self.weights[self.bound..];
        sum + dense.iter().zip(rows.features(i)).map(|(w, f)| w * f).sum::<f64>()
    }

    /// Mean cross-entropy over the rows `which`.
    fn loss(&self, rows: &Rows, which: &[usize], settings: &Settings) -> f64 {
        let total: f64 = which
            .iter()
            .map(|&i| {
                let t = target(rows, i, settings.lambda, settings.k);
                cross_entropy(sigmoid(self.value(rows, i) / settings.k), t)
            })
            .sum();
        total / which.len().max(1) as f64
    }

    /// One Adam step on the minibatch `batch`, updating only the weights it
    /// touches (`grad` zero on entry and on return; `touched` scratch).
    fn step(
        &mut self,
        rows: &Rows,
        batch: &[usize],
        settings: &Settings,
        grad: &mut [f64],
        touched: &mut Vec<usize>,
    ) {
        touched.clear();
        let free = (self.bound..self.weights.len())
            .filter(|&p| !self.frozen.get(p - self.bound).copied().unwrap_or(false));
        touched.extend(free);
        let scale = 1.0 / batch.len() as f64;
        for &i in batch {
            let t = target(rows, i, settings.lambda, settings.k);
            // The gradient per unit of `value / k` (times `k`): Adam does not
            // mind the scale, and its epsilon then does not swamp rare
            // patterns' gradients of order `1 / k`.
            let g = (sigmoid(self.value(rows, i) / settings.k) - t) * scale;
            for &p in rows.patterns(i) {
                let p = p as usize;
                if grad[p] == 0.0 {
                    touched.push(p);
                }
                grad[p] += g;
                // A gradient that cancels to exactly zero would be pushed
                // twice; keep it non-zero so it is not.
                if grad[p] == 0.0 {
                    grad[p] = f64::MIN_POSITIVE;
                }
            }
            for (p, f) in rows.features(i).iter().enumerate() {
                if !self.frozen.get(p).copied().unwrap_or(false) {
                    grad[self.bound + p] += g * f;
                }
            }
        }
        self.steps += 1;
        let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
        let (c1, c2) = (1.0 - b1.powi(self.steps), 1.0 - b2.powi(self.steps));
        for &p in touched.iter() {
            let l2 =
                if p < self.bound { 2.0 * settings.l2 * self.weights[p] / settings.k } else { 0.0 };
            let g = grad[p] + l2;
            grad[p] = 0.0;
            self.m[p] = b1 * self.m[p] + (1.0 - b1) * g;
            self.v[p] = b2 * self.v[p] + (1.0 - b2) * g * g;
            self.weights[p] -= settings.lr * (self.m[p] / c1) / ((self.v[p] / c2).sqrt() + eps);
        }
    }
}

impl Model {
    /// `epochs` passes of minibatches of `args.batch` over `train`, shuffled
    /// from `args.seed`; `each` sees the model after every pass.
    fn train(
        &mut self,
        rows: &Rows,
        train: &[usize],
        settings: &Settings,
        args: &TrainArgs,
        mut each: impl FnMut(u32, &Model),
    ) {
        let mut rng = Rng::new(args.seed);
        let mut order = train.to_vec();
        let mut grad = vec![0.0; self.weights.len()];
        let mut touched = Vec::new();
        for epoch in 1..=args.epochs {
            for i in (1..order.len()).rev() {
                order.swap(i, rng.below(i + 1));
            }
            for batch in order.chunks(args.batch) {
                self.step(rows, batch, settings, &mut grad, &mut touched);
            }
            each(epoch, self);
        }
    }
}

struct Settings {
    k: f64,
    lambda: f64,
    l2: f64,
    lr: f64,
}

/// Reads every position of `paths` (of `entry`'s game) into rows, with
/// each row's game key `(run, id)`; positions the game decides outright are
/// counted, not kept.
fn read_rows(entry: &GameEntry, paths: &[PathBuf]) -> anyhow::Result<(Rows, usize)> {
    let probe = entry.start(entry.default_variant())?;
    let (names, hand_weights) = probe.evaluation_terms();
    let tempo = probe.tempo();
    let mut rows =
        Rows { width: probe.pattern_layout().0, feature_width: names.len(), ..Rows::default() };
    let mut fixed = 0;
    let (mut features, mut indices) = (Vec::new(), Vec::new());
    for path in paths {
        let mut add = |sample: &Sample| -> anyhow::Result<()> {
            if !sample.game.eq_ignore_ascii_case(entry.name) {
                bail!("a position of {}, not {}", sample.game, entry.name);
            }
            if !(0.0..=1.0).contains(&sample.result) {
                bail!("result {} is not between 0 and 1", sample.result);
            }
            let Some(id) = sample.id else {
                bail!(
                    "a position without its game's id (tune train holds games out whole: write the data with this version's tune datagen)"
                );
            };
            let pos = entry.from_text(&sample.fen, &sample.variant)?;
            match pos.eval_features(&mut features) {
                Valuation::Fixed(_) => fixed += 1,
                Valuation::Weighted => {
                    pos.pattern_indices_into(&mut indices);
                    rows.patterns.extend_from_slice(&indices);
                    rows.features.extend(features.iter().map(|&f| f64::from(f)));
                    rows.results.push(sample.result);
                    rows.scores.push(sample.score.map(f64::from));
                    let hand = (dot(hand_weights, &features) + tempo).clamp(-20_000, 20_000);
                    rows.hand.push(f64::from(hand));
                    rows.games.push((sample.run.clone().unwrap_or_default(), id));
                }
            }
            Ok(())
        };
        if !datagen::read_postcard(path, &mut add)? {
            for_each_line(open(path)?, path, |_, line| {
                add(&parse_json(line, "a position record")?)
            })?;
        }
    }
    Ok((rows, fixed))
}

/// `tune train`.
pub fn train(args: &TrainArgs) -> anyhow::Result<()> {
    let entry = games::find(&args.game)?;
    let probe = entry.start(entry.default_variant())?;
    let (patterns, bound, layout) = probe.pattern_layout();
    if patterns == 0 {
        let with_layout: Vec<&str> = games::GAMES
            .iter()
            .filter(|g| g.start(g.default_variant()).is_ok_and(|p| p.pattern_layout().0 > 0))
            .map(|g| g.name)
            .collect();
        bail!(
            "tune train: {} has no pattern layout yet ({} have)",
            entry.name,
            with_layout.join(", ")
        );
    }
    if !(0.0..1.0).contains(&args.holdout) || args.holdout <= 0.0 {
        bail!("--holdout {}: give a share above 0 and below 1", args.holdout);
    }
    if !(0.0..=1.0).contains(&args.lambda) {
        bail!("--lambda {}: give a weight from 0 to 1", args.lambda);
    }
    if args.batch == 0 || args.lr.is_nan() || args.lr <= 0.0 || args.l2.is_nan() || args.l2 < 0.0 {
        bail!("--batch, --lr must be positive and --l2 not negative");
    }
    let frozen = frozen_features(entry.name, probe.evaluation_terms().0, &args.freeze)?;
    let (rows, fixed) = read_rows(entry, &args.data)?;
    let keys = &rows.games;
    let (train, held) = split(keys, args.seed, args.holdout);
    let games = |rows: &[usize]| {
        rows.iter().map(|&i| &keys[i]).collect::<std::collections::BTreeSet<_>>().len()
    };
    let (train_games, held_games) = (games(&train), games(&held));
    if train.is_empty() || held.is_empty() {
        bail!(
            "{} positions of {} games: too few to hold {:.0}% of the games out",
            rows.len(),
            held_games + train_games,
            args.holdout * 100.0
        );
    }
    let mut train_rows = Rows::default();
    // K: the hand evaluation's own, fitted on the training positions.
    for &i in &train {
        train_rows.hand.push(rows.hand[i]);
        train_rows.results.push(rows.results[i]);
    }
    let k = fit_k(&train_rows);
    drop(train_rows);
    let settings = Settings { k, lambda: args.lambda, l2: args.l2, lr: args.lr };
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "positions {} (games {}), held out {} (games {}), {fixed} with a fixed value skipped",
        train.len(),
        train_games,
        held.len(),
        held_games
    )?;
    writeln!(out, "K {k:.1} (the hand evaluation's, fitted on the training positions)")?;
    let hand_loss = |which: &[usize]| {
        which
            .iter()
            .map(|&i| cross_entropy(sigmoid(rows.hand[i] / k), target(&rows, i, args.lambda, k)))
            .sum::<f64>()
            / which.len() as f64
    };
    let mut model = Model::new(bound, probe.evaluation_terms().1, frozen, f64::from(probe.tempo()));
    let mut failed = Ok(());
    model.train(&rows, &train, &settings, args, |epoch, model| {
        if failed.is_ok() {
            failed = writeln!(
                out,
                "epoch {epoch}/{} train {:.6} held-out {:.6}",
                args.epochs,
                model.loss(&rows, &train, &settings),
                model.loss(&rows, &held, &settings)
            )
            .and_then(|()| out.flush());
        }
    });
    failed?;
    writeln!(
        out,
        "held-out loss learned {:.6} hand {:.6} (train learned {:.6} hand {:.6})",
        model.loss(&rows, &held, &settings),
        hand_loss(&held),
        model.loss(&rows, &train, &settings),
        hand_loss(&train)
    )?;
    let weights = WeightsFile {
        game: entry.name.to_owned(),
        layout: layout_hash(layout),
        k: k as f32,
        patterns: model.weights[..bound].iter().map(|&w| w as f32).collect(),
        features: model.weights[bound..].iter().map(|&w| w as f32).collect(),
    };
    write_weights(&args.out, &weights, probe.as_ref())?;
    writeln!(out, "wrote {}", args.out.display())?;
    Ok(())
}

/// Writes `weights` to `path` and reads them back, checked as the engine's
/// loader checks them (for the game of `probe`).
fn write_weights(
    path: &Path,
    weights: &WeightsFile,
    probe: &dyn search::SearchGame,
) -> anyhow::Result<()> {
    std::fs::write(path, weights.to_bytes())
        .with_context(|| format!("cannot write {}", path.display()))?;
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let back =
        WeightsFile::parse(&bytes).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    if back != *weights {
        bail!("{}: the weights read back differ from those written", path.display());
    }
    probe
        .learned(Some(&bytes))
        .map_err(|e| anyhow::anyhow!("{} as written: {e}", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use board_core::Evaluate;

    use super::*;

    #[test]
    fn games_are_held_out_by_seed_and_share() {
        let held = |seed| (0..2000).filter(|&id| held_out("r", id, seed, 0.1)).count();
        let (a, b) = (held(1), held(2));
        assert!((150..250).contains(&a) && (150..250).contains(&b), "{a} {b}");
        let same: Vec<u64> = (0..2000).filter(|&id| held_out("r", id, 1, 0.1)).collect();
        let other: Vec<u64> = (0..2000).filter(|&id| held_out("r", id, 2, 0.1)).collect();
        assert_ne!(same, other);
    }

    #[test]
    fn every_position_of_a_game_is_on_one_side() {
        let keys: Vec<(String, u64)> =
            (0..3000).map(|i| (format!("run{}", i % 3), (i / 3) % 400)).collect();
        let (train, held) = split(&keys, 4, 0.2);
        assert_eq!(train.len() + held.len(), keys.len());
        let side = |rows: &[usize]| {
            rows.iter().map(|&i| keys[i].clone()).collect::<std::collections::BTreeSet<_>>()
        };
        let (a, b) = (side(&train), side(&held));
        assert!(a.is_disjoint(&b), "games on both sides: {:?}", a.intersection(&b).next());
        assert!(b.len() > 100 && a.len() > 700, "{} held, {} trained", b.len(), a.len());
    }

    /// Training flags for `game` with results as the only target, no L2,
    /// and a large step: what the synthetic tests below need.
    fn results_only(game: &str, epochs: u32, k: f64) -> (TrainArgs, Settings) {
        let args = TrainArgs {
            game: game.into(),
            data: Vec::new(),
            out: PathBuf::new(),
            seed: 9,
            epochs,
            holdout: 0.1,
            lambda: 1.0,
            l2: 0.0,
            lr: 2.0,
            batch: 64,
            freeze: Vec::new(),
        };
        let settings = Settings { k, lambda: 1.0, l2: 0.0, lr: args.lr };
        (args, settings)
    }

    /// Rows whose patterns (as many as game `G` has a position) come from a
    /// pool of 60 indices of its table with known weights, results exactly
    /// `sigmoid(value / k)`: training recovers the weights.
    fn recovers_known_pattern_weights<G: Evaluate>() {
        let (k, bound, width) = (200.0, G::PATTERN_BOUND, G::FEATURE_NAMES.len());
        let mut rng = Rng::new(3);
        let pool: Vec<u32> = (0..60).map(|i| (i * 7919 % bound) as u32).collect();
        let truth: Vec<f64> = pool.iter().map(|_| rng.below(161) as f64 - 80.0).collect();
        let mut rows = Rows { width: G::PATTERNS, feature_width: width, ..Rows::default() };
        for _ in 0..4000 {
            let mut value = 0.0;
            for _ in 0..G::PATTERNS {
                let j = rng.below(pool.len());
                rows.patterns.push(pool[j]);
                value += truth[j];
            }
            rows.features.extend(std::iter::repeat_n(0.0, width));
            rows.results.push(sigmoid(value / k));
            rows.scores.push(None);
            rows.hand.push(0.0);
        }
        let (args, settings) = results_only(G::NAME, 40, k);
        let all: Vec<usize> = (0..rows.len()).collect();
        let mut model = Model::new(bound, &vec![0; width], vec![false; width], 0.0);
        let before = model.loss(&rows, &all, &settings);
        model.train(&rows, &all, &settings, &args, |_, _| {});
        let after = model.loss(&rows, &all, &settings);
        assert!(after < before, "{}: loss {before} -> {after}", G::NAME);
        for (&p, &t) in pool.iter().zip(&truth) {
            let w = model.weights[p as usize];
            assert!((w - t).abs() < 4.0, "{}: index {p}: learned {w:.1}, truth {t}", G::NAME);
        }
        // Weights no row touches stay zero.
        assert_eq!(model.weights[1], 0.0);
    }

    /// Results that the side to move's bonus alone explains: a model with
    /// the bonus leaves its pattern weights at zero, one without learns the
    /// bonus into them (so the search, adding it again, would count it
    /// twice).
    #[test]
    fn the_bonus_is_not_learned_into_the_patterns() {
        type G = focus::Position;
        let (k, bound, width, tempo) = (200.0, G::PATTERN_BOUND, G::FEATURE_NAMES.len(), 80.0);
        let mut rng = Rng::new(5);
        let mut rows = Rows { width: G::PATTERNS, feature_width: width, ..Rows::default() };
        for _ in 0..3000 {
            rows.patterns.extend((0..G::PATTERNS).map(|_| rng.below(40) as u32));
            rows.features.extend(std::iter::repeat_n(0.0, width));
            rows.results.push(sigmoid(tempo / k));
            rows.scores.push(None);
            rows.hand.push(tempo);
        }
        let (args, settings) = results_only("focus", 20, k);
        let all: Vec<usize> = (0..rows.len()).collect();
        let learned_sum = |bias: f64| {
            let mut model = Model::new(bound, &vec![0; width], vec![true; width], bias);
            model.train(&rows, &all, &settings, &args, |_, _| {});
            (0..rows.len()).map(|i| model.value(&rows, i) - bias).sum::<f64>() / rows.len() as f64
        };
        let (with, without) = (learned_sum(tempo), learned_sum(0.0));
        assert!(with.abs() < 2.0, "with the bonus the patterns sum to {with:.1}");
        assert!((without - tempo).abs() < 10.0, "without it they sum to {without:.1}");
    }

    #[test]
    fn training_recovers_known_pattern_weights() {
        recovers_known_pattern_weights::<stykovka::Position>();
        recovers_known_pattern_weights::<hexdraughts::Position>();
    }

    /// What `tune train` writes, the engine's loader reads: the same
    /// weights, and a value of the position by them.
    #[test]
    fn written_weights_load_in_the_engine() {
        let entry = games::find("hexdraughts").unwrap();
        let probe = entry.start(entry.default_variant()).unwrap();
        let (_, bound, layout) = probe.pattern_layout();
        let mut patterns = vec![0.0; bound];
        let mut indices = Vec::new();
        probe.pattern_indices_into(&mut indices);
        patterns[indices[0] as usize] = 37.4;
        let weights = WeightsFile {
            game: "hexdraughts".into(),
            layout: layout_hash(layout),
            k: 300.0,
            patterns,
            features: vec![0.0; probe.evaluation_terms().0.len()],
        };
        let dir = std::env::temp_dir().join(format!("igroteka-train-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("w.weights");
        write_weights(&path, &weights, probe.as_ref()).unwrap();
        let learned = probe.learned(Some(&std::fs::read(&path).unwrap())).unwrap();
        // The first window's weight, rounded, times how often its index occurs.
        let count = indices.iter().filter(|&&i| i == indices[0]).count() as i32;
        assert_eq!(probe.learned_value(&learned), Some(37 * count));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
