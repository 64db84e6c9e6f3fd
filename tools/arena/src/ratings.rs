//! Maximum-likelihood ratings of many engines from their results against
//! one another, as Ordo computes them from a PGN file.
//!
//! The model is Bradley-Terry on the logistic Elo scale, draws counted as
//! half a win and half a loss (Ordo's): engine `i` scores `p = 1 / (1 +
//! 10^(-(r_i - r_j)/400))` against `j` per game, and the ratings maximise
//! `Σ S_ij ln p_ij + (N_ij - S_ij) ln(1 - p_ij)` over the encounters (`S_ij`
//! the points of `i` in its `N_ij` games against `j`). At the maximum every
//! engine's expected points equal its points. The ratings are anchored at
//! an average of 0.
//!
//! Error bars: the covariance of the ratings is the sandwich `H⁺ V H⁺` of
//! the likelihood's Hessian `H` (its pseudo-inverse, the anchor fixing the
//! one free direction) and the observed variance `V` of its gradient (each
//! game's `(s - p)²`), so draws narrow the bars as they narrow the variance
//! of a score; for two engines the difference's bar is the standings'
//! per-game interval linearised. `±` is 1.96 standard deviations of a
//! rating, relative to the average.

use std::fmt;

use crate::stats::{Wdl, Z95};

/// One engine's maximum-likelihood rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Logistic Elo, the average of all engines being 0.
    pub elo: f64,
    /// Half the width of its 95% interval (1.96 standard deviations).
    pub margin: f64,
}

/// Why there are no finite ratings: some group of engines scored nothing
/// against the others (an engine that lost every game, one that won every
/// game, or engines that never met), so the likelihood has no maximum.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoRatings {
    /// Engines (indices) that scored no point against all the others, or
    /// that the others scored none against.
    pub apart: Vec<usize>,
}

impl fmt::Display for NoRatings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "no finite ratings: a group of engines has scored no point against the others, or \
             the others none against it (an engine that won or lost every game, or engines that \
             never met)",
        )
    }
}

impl std::error::Error for NoRatings {}

/// `ln 10 / 400`: one Elo in the logistic's natural units.
const NATURAL: f64 = std::f64::consts::LN_10 / 400.0;

/// The maximum-likelihood ratings of the engines of `versus` (`versus[i][j]`:
/// engine `i`'s results against engine `j`), anchored at an average of 0.
///
/// # Errors
/// [`NoRatings`] when the likelihood has no finite maximum: not every engine
/// has scored against, and conceded points to, the rest of the field
/// (counting through other engines).
pub fn ml_ratings(versus: &[Vec<Wdl>]) -> Result<Vec<Rating>, NoRatings> {
    let n = versus.len();
    let games = |i: usize, j: usize| f64::from(versus[i][j].games());
    let points = |i: usize, j: usize| versus[i][j].points();
    if let Some(apart) = apart(n, |i, j| points(i, j) > 0.0) {
        return Err(NoRatings { apart });
    }
    // Newton's method on the concave log-likelihood, in natural units, with
    // the step halved until the likelihood does not fall.
    let mut x = vec![0.0; n];
    for _ in 0..200 {
        let (gradient, hessian) = derivatives(&x, &games, &points);
        let step = solve_anchored(&hessian, &gradient);
        let before = log_likelihood(&x, &games, &points);
        let mut scale = 1.0;
        let mut next: Vec<f64>;
        loop {
            next = x.iter().zip(&step).map(|(a, d)| a + scale * d).collect();
            if log_likelihood(&next, &games, &points) >= before - 1e-12 * before.abs()
                || scale < 1e-6
            {
                break;
            }
            scale /= 2.0;
        }
        let moved = step.iter().map(|d| (scale * d).abs()).fold(0.0, f64::max);
        x = next;
        if moved < 1e-12 {
            break;
        }
    }
    let mean = x.iter().sum::<f64>() / n as f64;
    for xi in &mut x {
        *xi -= mean;
    }
    let (_, hessian) = derivatives(&x, &games, &points);
    let inverse = pseudo_inverse(&hessian);
    // The gradient's observed variance: a game of i against j adds
    // (s - p)² (e_i - e_j)(e_i - e_j)ᵀ.
    let mut meat = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i == j || versus[i][j].games() == 0 {
                continue;
            }
            let p = logistic(x[i] - x[j]);
            let w = versus[i][j];
            let squares = f64::from(w.wins) * (1.0 - p).powi(2)
                + f64::from(w.draws) * (0.5 - p).powi(2)
                + f64::from(w.losses) * p.powi(2);
            meat[i][j] -= squares;
            meat[i][i] += squares;
        }
    }
    let covariance = product(&product(&inverse, &meat), &inverse);
    Ok((0..n)
        .map(|i| Rating {
            elo: x[i] / NATURAL,
            margin: Z95 * covariance[i][i].max(0.0).sqrt() / NATURAL,
        })
        .collect())
}

/// The gradient of the log-likelihood at `elo` (Elo units, one entry per
/// engine, each `∂/∂r_i`): 0 at the maximum. For checks.
pub fn ml_gradient(versus: &[Vec<Wdl>], elo: &[f64]) -> Vec<f64> {
    let x: Vec<f64> = elo.iter().map(|r| r * NATURAL).collect();
    let (gradient, _) =
        derivatives(&x, &|i, j| f64::from(versus[i][j].games()), &|i, j| versus[i][j].points());
    gradient.into_iter().map(|g| g * NATURAL).collect()
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Engines that cannot be rated, if any: the graph "i scored against j" is
/// not strongly connected. Returns the engines that cannot reach engine 0
/// or that engine 0 cannot reach.
fn apart(n: usize, scored: impl Fn(usize, usize) -> bool) -> Option<Vec<usize>> {
    let reach = |forward: bool| {
        let mut seen = vec![false; n];
        let mut stack = vec![0];
        seen[0] = n > 0;
        while let Some(i) = stack.pop() {
            for (j, seen_j) in seen.iter_mut().enumerate() {
                let edge = if forward { scored(i, j) } else { scored(j, i) };
                if i != j && edge && !*seen_j {
                    *seen_j = true;
                    stack.push(j);
                }
            }
        }
        seen
    };
    if n < 2 {
        return Some((0..n).collect());
    }
    let (to, from) = (reach(true), reach(false));
    let apart: Vec<usize> = (0..n).filter(|&i| !(to[i] && from[i])).collect();
    (!apart.is_empty()).then_some(apart)
}

type Count<'a> = dyn Fn(usize, usize) -> f64 + 'a;

fn log_likelihood(x: &[f64], games: &Count<'_>, points: &Count<'_>) -> f64 {
    let mut sum = 0.0;
    for i in 0..x.len() {
        for j in 0..x.len() {
            let (n, s) = (games(i, j), points(i, j));
            if i != j && n > 0.0 {
                // ln p and ln (1 - p), stable far out.
                let d = x[i] - x[j];
                let ln_p = -(-d).exp().ln_1p();
                let ln_q = -d.exp().ln_1p();
                sum += s * ln_p + (n - s) * ln_q;
            }
        }
    }
    sum
}

/// The gradient of the log-likelihood and the Hessian of its negative.
fn derivatives(x: &[f64], games: &Count<'_>, points: &Count<'_>) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = x.len();
    let mut gradient = vec![0.0; n];
    let mut hessian = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            let count = games(i, j);
            if i == j || count == 0.0 {
                continue;
            }
            let p = logistic(x[i] - x[j]);
            gradient[i] += points(i, j) - count * p;
            let w = count * p * (1.0 - p);
            hessian[i][i] += w;
            hessian[i][j] -= w;
        }
    }
    (gradient, hessian)
}

/// The pseudo-inverse of a Laplacian-like `h` (symmetric, rows summing to
/// 0, its null space the constant vectors): `(h + J/n)⁻¹ - J/n`.
fn pseudo_inverse(h: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = h.len();
    let k = 1.0 / n as f64;
    let shifted: Vec<Vec<f64>> = h.iter().map(|row| row.iter().map(|v| v + k).collect()).collect();
    let mut inverse = invert(&shifted);
    for row in &mut inverse {
        for v in row.iter_mut() {
            *v -= k;
        }
    }
    inverse
}

/// The step `h⁺ g` (summing to 0; `g` sums to 0).
fn solve_anchored(h: &[Vec<f64>], g: &[f64]) -> Vec<f64> {
    let inverse = pseudo_inverse(h);
    inverse.iter().map(|row| row.iter().zip(g).map(|(a, b)| a * b).sum()).collect()
}

/// Gauss-Jordan with partial pivoting; `a` is positive definite here.
fn invert(a: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = a.len();
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let mut r = row.clone();
            r.extend((0..n).map(|j| if i == j { 1.0 } else { 0.0 }));
            r
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&p, &q| m[p][col].abs().total_cmp(&m[q][col].abs()));
        let pivot = pivot.unwrap_or(col);
        m.swap(col, pivot);
        let d = m[col][col];
        if d == 0.0 {
            continue;
        }
        for v in &mut m[col] {
            *v /= d;
        }
        let pivot_row = m[col].clone();
        for (r, row) in m.iter_mut().enumerate() {
            if r != col {
                let f = row[col];
                if f != 0.0 {
                    for (v, p) in row.iter_mut().zip(&pivot_row) {
                        *v -= f * p;
                    }
                }
            }
        }
    }
    m.into_iter().map(|row| row[n..].to_vec()).collect()
}

fn product(a: &[Vec<f64>], b: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = a.len();
    (0..n).map(|i| (0..n).map(|j| (0..n).map(|k| a[i][k] * b[k][j]).sum()).collect()).collect()
}
