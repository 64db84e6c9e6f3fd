//! `igroteka tune`: evaluation weights fitted to game results (docs/tuning.md).
//!
//! `datagen` plays games (or reads arena records) and writes quiet positions
//! with the game's result as JSON lines or postcard (see the `datagen`
//! module; `merge` joins its shards); `fit` fits the weights of the game's
//! evaluation to them, Texel-style: the scale `K` of `sigmoid(eval / K)` first,
//! then the weights by local search, minimising the mean squared error between
//! `sigmoid(eval / K)` and the result.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use board_core::{Valuation, dot};
use clap::{Args, Subcommand};
use search::GameEntry;

pub use super::datagen::Sample;
use super::datagen::{self, DatagenArgs, MergeArgs};
use super::train::{self, TrainArgs};

/// `igroteka tune datagen ...` or `igroteka tune fit ...`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    #[command(subcommand)]
    step: TuneStep,
}

#[derive(Subcommand, Debug)]
enum TuneStep {
    /// Write quiet positions with their game's result and search score
    /// (JSON lines or postcard; resumable, shardable).
    Datagen(DatagenArgs),
    /// Fit the evaluation's weights to the positions of `datagen`.
    Fit(FitArgs),
    /// Concatenate the files of `datagen` shards, each game once.
    Merge(MergeArgs),
    /// Train a learned pattern evaluation on the positions of `datagen`
    /// (adiyukh, city, hexdraughts, stykovka).
    Train(TrainArgs),
}

/// The flags of `tune fit`.
#[derive(Args, Debug)]
pub struct FitArgs {
    /// The game.
    #[arg(long, short)]
    game: String,
    /// Positions written by `tune datagen`.
    #[arg(long)]
    data: PathBuf,
    /// Passes of the local search over all weights at most.
    #[arg(long, default_value_t = 200)]
    iterations: u32,
    /// Start from these weights (comma-separated, one per feature) instead
    /// of the compiled ones.
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    start: Option<Vec<i32>>,
    /// Features whose weights stay as they are (comma-separated names).
    #[arg(long, value_delimiter = ',')]
    freeze: Vec<String>,
}

pub fn run(args: &TuneArgs) -> anyhow::Result<()> {
    match &args.step {
        TuneStep::Datagen(args) => datagen::datagen(args),
        TuneStep::Fit(args) => fit_command(args),
        TuneStep::Merge(args) => datagen::merge(args),
        TuneStep::Train(args) => train::train(args),
    }
}

/// Reads `reader` line by line through [`protocol::Lines`] (1 MiB a line at
/// most), calling `each` with the 1-based line number and the trimmed line;
/// blank lines are skipped. An over-long line, invalid UTF-8 or an error of
/// `each` stops the reading with an error naming the line.
pub(crate) fn for_each_line(
    reader: impl BufRead,
    name: &Path,
    mut each: impl FnMut(usize, &str) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    for (number, line) in (1..).zip(protocol::Lines::new(reader)) {
        let line = line.with_context(|| format!("reading {}", name.display()))?;
        let line = line.trim();
        if !line.is_empty() {
            each(number, line).with_context(|| format!("{} line {number}", name.display()))?;
        }
    }
    Ok(())
}

/// One JSON record of type `T` from a line; the error gives serde's reason
/// and the column.
pub(crate) fn parse_json<T: serde::de::DeserializeOwned>(
    line: &str,
    what: &str,
) -> anyhow::Result<T> {
    serde_json::from_str(line).map_err(|e| {
        let text = e.to_string();
        let reason = text.split(" at line ").next().unwrap_or(&text);
        anyhow::anyhow!("not {what} (column {}: {reason})", e.column())
    })
}

pub(crate) fn open(path: &Path) -> anyhow::Result<BufReader<File>> {
    Ok(BufReader::new(File::open(path).with_context(|| format!("cannot open {}", path.display()))?))
}

// ---- fit ----------------------------------------------------------------

/// Positions as feature rows with their results.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dataset {
    /// How many features a row has.
    pub width: usize,
    /// The rows, one after another.
    pub features: Vec<i32>,
    /// One result per row, for the side to move.
    pub results: Vec<f64>,
}

impl Dataset {
    fn new(width: usize) -> Self {
        Dataset { width, ..Dataset::default() }
    }

    fn push(&mut self, features: &[i32], result: f64) {
        self.features.extend_from_slice(features);
        self.results.push(result);
    }

    fn rows(&self) -> impl Iterator<Item = (&[i32], f64)> {
        self.features.chunks_exact(self.width.max(1)).zip(self.results.iter().copied())
    }

    /// Mean squared error of `sigmoid(eval / k)` against the results, the
    /// evaluation clamped as the engine's is.
    pub fn error(&self, weights: &[i32], k: f64) -> f64 {
        if self.results.is_empty() {
            return 0.0;
        }
        let total: f64 = self
            .rows()
            .map(|(row, result)| {
                let eval = f64::from(dot(weights, row).clamp(-20_000, 20_000));
                let p = 1.0 / (1.0 + (-eval / k).exp());
                (p - result) * (p - result)
            })
            .sum();
        total / self.results.len() as f64
    }
}

/// The `k` in `[1, 100 000]` that minimises the error of `weights`.
pub fn fit_scale(data: &Dataset, weights: &[i32]) -> f64 {
    minimise_scale(|k| data.error(weights, k))
}

/// The `k` in `[1, 100 000]` that minimises `loss(k)`: a scan of `log10 k`
/// in steps of 0.05, then golden-section refinement around the best.
pub(crate) fn minimise_scale(loss: impl Fn(f64) -> f64) -> f64 {
    let error = |log_k: f64| loss(10f64.powf(log_k));
    let step = 0.05;
    let best = (0..=100).map(|i| f64::from(i) * step).fold((0.0, f64::INFINITY), |best, x| {
        let e = error(x);
        if e < best.1 { (x, e) } else { best }
    });
    let (mut lo, mut hi) = (best.0 - step, best.0 + step);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let (a, b) = (hi - ratio * (hi - lo), lo + ratio * (hi - lo));
        if error(a) < error(b) { hi = b } else { lo = a }
    }
    10f64.powf((lo + hi) / 2.0)
}

/// Local search on the weights with `k` fixed: each pass tries every weight a
/// step up and down and keeps what lowers the error; a weight's step starts
/// at a tenth of it and halves when neither direction helps. Stops after
/// `passes` passes or when no unit step helps. Weights marked in `frozen`
/// keep their value.
pub fn fit_weights(
    data: &Dataset,
    start: &[i32],
    frozen: &[bool],
    k: f64,
    passes: u32,
) -> Vec<i32> {
    let mut weights = start.to_vec();
    let mut steps: Vec<i32> = start
        .iter()
        .enumerate()
        .map(|(i, w)| if frozen.get(i) == Some(&true) { 0 } else { (w.abs() / 10).max(1) })
        .collect();
    let mut best = data.error(&weights, k);
    for _ in 0..passes {
        let mut improved = false;
        for i in 0..weights.len() {
            if steps[i] == 0 {
                continue;
            }
            let mut moved = false;
            for delta in [steps[i], -steps[i]] {
                weights[i] += delta;
                let e = data.error(&weights, k);
                if e < best {
                    best = e;
                    moved = true;
                    break;
                }
                weights[i] -= delta;
            }
            if moved {
                improved = true;
            } else if steps[i] > 1 {
                steps[i] /= 2;
                improved = true;
            }
        }
        if !improved {
            break;
        }
    }
    weights
}

/// What `tune fit` found.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The fitted scale.
    pub k: f64,
    /// The fitted weights.
    pub weights: Vec<i32>,
    /// Error of the old and the new weights on the training rows.
    pub train: [f64; 2],
    /// Error of the old and the new weights on the held-out rows.
    pub held_out: [f64; 2],
}

/// Fits `k` then the weights not `frozen` on the rows not held out (every
/// fifth row is).
pub fn fit(data: &Dataset, start: &[i32], frozen: &[bool], passes: u32) -> Fit {
    let (mut train, mut held) = (Dataset::new(data.width), Dataset::new(data.width));
    for (i, (row, result)) in data.rows().enumerate() {
        if i % 5 == 4 { held.push(row, result) } else { train.push(row, result) }
    }
    let k = fit_scale(&train, start);
    let weights = fit_weights(&train, start, frozen, k, passes);
    Fit {
        k,
        train: [train.error(start, k), train.error(&weights, k)],
        held_out: [held.error(start, k), held.error(&weights, k)],
        weights,
    }
}

/// Reads the samples of `entry`'s game into feature rows; positions with a
/// fixed value are counted, not kept.
fn read_samples(entry: &GameEntry, name: &Path) -> anyhow::Result<(Dataset, usize)> {
    let probe = entry.start(entry.default_variant())?;
    let width = probe.evaluation_terms().0.len();
    if width == 0 {
        bail!("{}'s evaluation has no features to tune", entry.name);
    }
    let mut data = Dataset::new(width);
    let mut fixed = 0;
    let mut features = Vec::new();
    let mut add = |sample: &Sample| -> anyhow::Result<()> {
        if !sample.game.eq_ignore_ascii_case(entry.name) {
            bail!("a position of {}, not {}", sample.game, entry.name);
        }
        if !(0.0..=1.0).contains(&sample.result) {
            bail!("result {} is not between 0 and 1", sample.result);
        }
        let pos = entry.from_text(&sample.fen, &sample.variant)?;
        match pos.eval_features(&mut features) {
            Valuation::Weighted => data.push(&features, sample.result),
            Valuation::Fixed(_) => fixed += 1,
        }
        Ok(())
    };
    if !datagen::read_postcard(name, &mut add)? {
        for_each_line(open(name)?, name, |_, line| add(&parse_json(line, "a position record")?))?;
    }
    Ok((data, fixed))
}

fn fit_command(args: &FitArgs) -> anyhow::Result<()> {
    let entry = games::find(&args.game)?;
    let (data, fixed) = read_samples(entry, &args.data)?;
    let rows = data.results.len();
    if rows < 5 {
        bail!("{}: {rows} positions with features, too few to fit", args.data.display());
    }
    let (names, weights) = entry.start(entry.default_variant())?.evaluation_terms();
    let weights = match &args.start {
        Some(start) if start.len() != names.len() => {
            bail!("--start: {} weights for {} features", start.len(), names.len())
        }
        Some(start) => start.as_slice(),
        None => weights,
    };
    let mut frozen = vec![false; names.len()];
    for name in &args.freeze {
        let Some(i) = names.iter().position(|n| n.eq_ignore_ascii_case(name.trim())) else {
            bail!(
                "--freeze: {} has no feature '{name}' (features: {})",
                entry.name,
                names.join(", ")
            );
        };
        frozen[i] = true;
    }
    let found = fit(&data, weights, &frozen, args.iterations);
    let mut out = io::stdout().lock();
    writeln!(out, "positions {rows} (held out {}), {fixed} with a fixed value skipped", rows / 5)?;
    writeln!(out, "K {:.1}", found.k)?;
    writeln!(out, "error old train {:.6} held-out {:.6}", found.train[0], found.held_out[0])?;
    writeln!(out, "error new train {:.6} held-out {:.6}", found.train[1], found.held_out[1])?;
    for ((name, old), new) in names.iter().zip(weights).zip(&found.weights) {
        writeln!(out, "{name:<16} {old:>6} -> {new:>6}")?;
    }
    let command: Vec<String> = std::env::args().skip(1).collect();
    writeln!(out, "// igroteka {}", command.join(" "))?;
    let list: Vec<String> = found.weights.iter().map(i32::to_string).collect();
    writeln!(out, "pub const WEIGHTS: [i32; {}] = [{}];", list.len(), list.join(", "))?;
    drop(out);
    io::stdout().flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use board_core::Rng;

    /// Rows of random features with results drawn from known weights:
    /// `sigmoid(w·f / k)` exactly (`noisy` false) or a win/loss drawn with
    /// that probability.
    fn synthetic(weights: &[i32], k: f64, rows: usize, noisy: bool) -> Dataset {
        let mut rng = Rng::new(7);
        let mut data = Dataset::new(weights.len());
        for _ in 0..rows {
            let row: Vec<i32> = weights.iter().map(|_| rng.below(13) as i32 - 6).collect();
            let p = 1.0 / (1.0 + (-f64::from(dot(weights, &row)) / k).exp());
            let result = if !noisy {
                p
            } else if rng.unit() < p {
                1.0
            } else {
                0.0
            };
            data.push(&row, result);
        }
        data
    }

    /// The fit finds weights proportional to the true ones (the scale is
    /// shared with `k`), starting from wrong ones.
    fn recovers(noisy: bool, rows: usize, tolerance: f64) {
        let truth = [100, 30, -50, 8];
        let data = synthetic(&truth, 150.0, rows, noisy);
        let start = [100, 10, -10, 40];
        let found = fit(&data, &start, &[], 400);
        assert!(found.train[1] < found.train[0], "{found:?}");
        assert!(found.held_out[1] < found.held_out[0], "{found:?}");
        let scale = f64::from(found.weights[0]) / 100.0;
        for (w, t) in found.weights.iter().zip(truth) {
            let expected = f64::from(t) * scale;
            assert!(
                (f64::from(*w) - expected).abs() <= tolerance * 100.0 * scale,
                "weights {:?}, truth {truth:?} (scale {scale})",
                found.weights
            );
        }
    }

    #[test]
    fn fit_recovers_known_weights_from_exact_results() {
        recovers(false, 2000, 0.03);
    }

    #[test]
    fn fit_recovers_known_weights_from_game_results() {
        recovers(true, 6000, 0.15);
    }

    #[test]
    fn frozen_weights_keep_their_value() {
        let truth = [100, 30, -50, 8];
        let data = synthetic(&truth, 150.0, 2000, false);
        let found = fit(&data, &[100, 10, -10, 40], &[false, true, false, false], 400);
        assert_eq!(found.weights[1], 10);
        assert_ne!(found.weights[2], -10);
    }

    #[test]
    fn fit_scale_finds_the_k_of_the_data() {
        let truth = [100, 30, -50, 8];
        let k = fit_scale(&synthetic(&truth, 150.0, 2000, false), &truth);
        assert!((k - 150.0).abs() < 1.0, "k {k}");
    }

    #[test]
    fn lines_are_bounded_and_numbered() {
        let long = format!("ok\n\n{}\n", "x".repeat(protocol::MAX_LINE_BYTES + 1));
        let mut seen = Vec::new();
        let err = for_each_line(long.as_bytes(), Path::new("f"), |n, line| {
            seen.push((n, line.to_owned()));
            Ok(())
        })
        .unwrap_err();
        assert_eq!(seen, [(1, "ok".to_owned())]);
        let limit = protocol::MAX_LINE_BYTES;
        assert_eq!(format!("{err:#}"), format!("reading f: line 3 is longer than {limit} bytes"));
    }
}
