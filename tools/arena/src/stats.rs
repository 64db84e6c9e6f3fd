//! Match statistics: Elo difference with a 95% interval, likelihood of
//! superiority, pentanomial counts and the sequential probability ratio test.
//!
//! The formulas are the usual ones of cutechess-cli and fastchess: a score
//! fraction `s` maps to the logistic Elo difference `-400 log10(1/s - 1)`; the
//! interval maps `s ± 1.959964 σ/√n` the same way, with `σ²` the variance of
//! one game's (or one pair's) score; LOS is `Φ((W - L)/√(W + L))`.

/// The two-sided 95% quantile of the normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Wdl {
    /// The counts.
    pub const fn new(wins: u32, draws: u32, losses: u32) -> Self {
        Wdl { wins, draws, losses }
    }

    /// Games played.
    pub const fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw ½.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// The score fraction, `None` without games.
    pub fn score(&self) -> Option<f64> {
        (self.games() > 0).then(|| self.points() / f64::from(self.games()))
    }

    /// The share of draws, `None` without games.
    pub fn draw_ratio(&self) -> Option<f64> {
        (self.games() > 0).then(|| f64::from(self.draws) / f64::from(self.games()))
    }

    /// The same counts from the opponent's side.
    #[must_use]
    pub const fn flipped(self) -> Self {
        Wdl { wins: self.losses, draws: self.draws, losses: self.wins }
    }

    /// The Elo difference and its 95% interval, `None` without games.
    pub fn elo(&self) -> Option<Elo> {
        let n = f64::from(self.games());
        let s = self.score()?;
        let var = (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n;
        Some(Elo::from_score(s, var, n))
    }

    /// The likelihood of superiority: the probability that this side is the
    /// stronger, from wins and losses; `None` with no decisive game.
    pub fn los(&self) -> Option<f64> {
        let decisive = f64::from(self.wins + self.losses);
        (decisive > 0.0).then(|| {
            0.5 * (1.0
                + erf((f64::from(self.wins) - f64::from(self.losses)) / (2.0 * decisive).sqrt()))
        })
    }
}

/// An Elo difference with its 95% interval (bounds may be infinite).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elo {
    /// The estimate.
    pub diff: f64,
    /// The lower bound.
    pub low: f64,
    /// The upper bound.
    pub high: f64,
}

impl Elo {
    /// From a mean score fraction, the variance of one sample of it and the
    /// number of samples.
    fn from_score(s: f64, var: f64, n: f64) -> Elo {
        let margin = Z95 * (var / n).sqrt();
        Elo {
            diff: elo_from_score(s),
            low: elo_from_score(s - margin),
            high: elo_from_score(s + margin),
        }
    }

    /// Half the width of the interval, the `±` of tables.
    pub fn margin(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// The logistic Elo difference for a score fraction (±∞ at 0 and 1).
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        // `-400 log10(1/s - 1)`, written so that s = ½ gives +0, not -0.
        400.0 * (s / (1.0 - s)).log10()
    }
}

/// The expected score fraction for an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Counts of colour-swapped game pairs by the pair's points for one side:
/// `[0, ½, 1, 1½, 2]` (LL, LD, DD or WL, WD, WW).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    /// Adds a pair worth `half_points` halves (0..=4).
    pub fn add(&mut self, half_points: usize) {
        self.0[half_points.min(4)] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// The Elo difference with the interval from the variance of pair scores,
    /// `None` without pairs.
    pub fn elo(&self) -> Option<Elo> {
        let (n, s, var) = self.moments()?;
        Some(Elo::from_score(s, var, n))
    }

    /// The pairs, the mean score of a pair (a fraction: its points / 2) and
    /// the variance of one pair's score; `None` without pairs.
    fn moments(&self) -> Option<(f64, f64, f64)> {
        let n = f64::from(self.pairs());
        if n == 0.0 {
            return None;
        }
        let x = |i: usize| i as f64 / 4.0;
        let s = self.0.iter().enumerate().map(|(i, &c)| x(i) * f64::from(c)).sum::<f64>() / n;
        let var =
            self.0.iter().enumerate().map(|(i, &c)| (x(i) - s).powi(2) * f64::from(c)).sum::<f64>()
                / n;
        Some((n, s, var))
    }
}

/// A sequential probability ratio test between two Elo hypotheses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// Whether the test counts colour-swapped pairs of games
    /// ([`llr_pentanomial`](Self::llr_pentanomial), the default, as
    /// fastchess) rather than single games ([`llr`](Self::llr), the
    /// trinomial: `penta=false`).
    pub pentanomial: bool,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    /// The LLR is between the bounds.
    Continue,
    /// The LLR crossed the lower bound: H0 (elo0) accepted.
    H0,
    /// The LLR crossed the upper bound: H1 (elo1) accepted.
    H1,
}

impl Sprt {
    /// The lower and upper bounds of the log-likelihood ratio:
    /// `ln(β/(1-α))` and `ln((1-β)/α)`.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of H1 against H0 for these results, in the
    /// normal approximation (GSPRT): `n (s1 - s0)(2 s̄ - s0 - s1) / (2 σ²)`
    /// with `s0`, `s1` the scores of `elo0`, `elo1`, `s̄` the mean game score
    /// and `σ²` its per-game variance. 0 while the variance is 0.
    pub fn llr(&self, wdl: Wdl) -> f64 {
        let n = f64::from(wdl.games());
        let Some(s) = wdl.score() else { return 0.0 };
        let var = (f64::from(wdl.wins) * (1.0 - s).powi(2)
            + f64::from(wdl.draws) * (0.5 - s).powi(2)
            + f64::from(wdl.losses) * s.powi(2))
            / n;
        self.gsprt(n, s, var)
    }

    /// The log-likelihood ratio of H1 against H0 for colour-swapped pairs
    /// (the pentanomial), in the same normal approximation with the pair as
    /// the sample: `n (s1 - s0)(2 s̄ - s0 - s1) / (2 σ²)`, `n` the pairs, `s̄`
    /// the mean score fraction of a pair (its points / 2) and `σ²` the
    /// variance of one pair's score fraction. 0 without pairs or while that
    /// variance is 0.
    pub fn llr_pentanomial(&self, pairs: Pentanomial) -> f64 {
        match pairs.moments() {
            Some((n, s, var)) => self.gsprt(n, s, var),
            None => 0.0,
        }
    }

    fn gsprt(&self, n: f64, s: f64, var: f64) -> f64 {
        if var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// The verdict for an LLR.
    pub fn verdict(&self, llr: f64) -> SprtVerdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::H1
        } else if llr <= lower {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        }
    }

    /// Reads `elo0=0 elo1=10 alpha=0.05 beta=0.05 penta=true` (any subset;
    /// these are the defaults; `penta=false`: the trinomial, game by game).
    ///
    /// # Errors
    /// An unknown key, a bad number or boolean, `elo1 <= elo0` or a rate
    /// outside (0, 1).
    pub fn parse_tokens(tokens: &[String]) -> anyhow::Result<Sprt> {
        let mut sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05, pentanomial: true };
        for token in tokens {
            let (key, value) = token.split_once('=').unwrap_or((token, ""));
            if key == "penta" {
                sprt.pentanomial = value.parse().map_err(|_| {
                    anyhow::anyhow!("--sprt {token}: '{value}' is not true or false")
                })?;
                continue;
            }
            let number: f64 = value
                .parse()
                .map_err(|_| anyhow::anyhow!("--sprt {token}: '{value}' is not a number"))?;
            match key {
                "elo0" => sprt.elo0 = number,
                "elo1" => sprt.elo1 = number,
                "alpha" => sprt.alpha = number,
                "beta" => sprt.beta = number,
                _ => anyhow::bail!("--sprt: unknown key '{key}' (elo0, elo1, alpha, beta, penta)"),
            }
        }
        if sprt.elo1 <= sprt.elo0 {
            anyhow::bail!("--sprt: elo1 must be above elo0");
        }
        if !(sprt.alpha > 0.0 && sprt.alpha < 1.0 && sprt.beta > 0.0 && sprt.beta < 1.0) {
            anyhow::bail!("--sprt: alpha and beta must lie strictly between 0 and 1");
        }
        Ok(sprt)
    }
}

/// The error function, to about 1e-14 (series near 0, continued fraction of
/// erfc far out).
pub fn erf(x: f64) -> f64 {
    if x < 0.0 {
        return -erf(-x);
    }
    if x < 2.5 {
        // Maclaurin series: 2/√π Σ (-1)^n x^(2n+1) / (n! (2n+1)).
        let mut term = x;
        let mut sum = x;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -x * x / n;
            sum += term / (2.0 * n + 1.0);
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        // Lentz's continued fraction for erfc.
        let mut f = x;
        let mut c = x;
        let mut d = 0.0;
        for k in 1..200 {
            let a = f64::from(k) / 2.0;
            let b = x;
            d = b + a * d;
            d = if d == 0.0 { 1e-300 } else { 1.0 / d };
            c = b + a / c;
            let delta = c * d;
            f *= delta;
            if (delta - 1.0).abs() < 1e-16 {
                break;
            }
        }
        1.0 - (-x * x).exp() / (f * std::f64::consts::PI.sqrt())
    }
}
