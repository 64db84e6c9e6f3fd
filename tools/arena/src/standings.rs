//! Standings, crosstable and pentanomial counts computed from game records.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::ratings::{NoRatings, Rating, ml_ratings};
use crate::record::{GameRecord, Termination};
use crate::stats::{Pentanomial, Sprt, SprtVerdict, Wdl};

/// Results of a set of games, per engine and per encounter.
#[derive(Clone, Debug, PartialEq)]
pub struct Standings {
    /// Engine names, in the order given (tables sort by score).
    pub names: Vec<String>,
    /// Each engine's results against the field.
    pub totals: Vec<Wdl>,
    /// `versus[i][j]`: engine `i`'s results against engine `j`.
    pub versus: Vec<Vec<Wdl>>,
    /// For two engines: pairs of colour-swapped games from the first engine's side.
    pub pentanomial: Option<Pentanomial>,
    /// How many games ended each way.
    pub terminations: BTreeMap<&'static str, u32>,
    /// Games counted.
    pub games: u32,
}

impl Standings {
    /// Counts `records`; engines not in `names` are added in order of appearance.
    pub fn new(names: &[String], records: &[GameRecord]) -> Standings {
        let mut names = names.to_vec();
        for record in records {
            for name in [&record.p1, &record.p2] {
                if !names.contains(name) {
                    names.push(name.clone());
                }
            }
        }
        let index = |name: &str| names.iter().position(|n| n == name).unwrap_or(0);
        let n = names.len();
        let mut totals = vec![Wdl::default(); n];
        let mut versus = vec![vec![Wdl::default(); n]; n];
        let mut terminations = BTreeMap::new();
        let mut pairs: BTreeMap<u64, Vec<&GameRecord>> = BTreeMap::new();
        for record in records {
            let (a, b) = (index(&record.p1), index(&record.p2));
            let (for_a, for_b) = match record.result.as_str() {
                "1-0" => (Wdl::new(1, 0, 0), Wdl::new(0, 0, 1)),
                "0-1" => (Wdl::new(0, 0, 1), Wdl::new(1, 0, 0)),
                _ => (Wdl::new(0, 1, 0), Wdl::new(0, 1, 0)),
            };
            add(&mut totals[a], for_a);
            add(&mut totals[b], for_b);
            add(&mut versus[a][b], for_a);
            add(&mut versus[b][a], for_b);
            *terminations.entry(record.termination.name()).or_insert(0) += 1;
            pairs.entry(record.pair).or_default().push(record);
        }
        let pentanomial = (n == 2).then(|| {
            let mut penta = Pentanomial::default();
            for games in pairs.values().filter(|g| g.len() == 2) {
                let halves: f64 = games
                    .iter()
                    .map(|r| if r.p1 == names[0] { r.p1_points() } else { 1.0 - r.p1_points() })
                    .sum::<f64>()
                    * 2.0;
                penta.add(halves.round() as usize);
            }
            penta
        });
        Standings { names, totals, versus, pentanomial, terminations, games: records.len() as u32 }
    }

    /// Engine indices by points (then name).
    fn ranking(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by(|&a, &b| {
            self.totals[b]
                .points()
                .total_cmp(&self.totals[a].points())
                .then_with(|| self.names[a].cmp(&self.names[b]))
        });
        order
    }

    /// The standings table: rank, name, Elo ± 95%, LOS, score, games, W/D/L, draws.
    pub fn table(&self) -> String {
        let width = self.names.iter().map(String::len).max().unwrap_or(4).max(4);
        let mut out = format!(
            "{:>4} {:<width$} {:>7} {:>7} {:>6} {:>13} {:>5} {:>4} {:>4} {:>4} {:>6}\n",
            "Rank", "Name", "Elo", "+/-", "LOS", "Score", "Games", "W", "D", "L", "Draw"
        );
        for (rank, i) in self.ranking().into_iter().enumerate() {
            let t = self.totals[i];
            let elo = t.elo();
            let _ = writeln!(
                out,
                "{:>4} {:<width$} {:>7} {:>7} {:>6} {:>13} {:>5} {:>4} {:>4} {:>4} {:>6}",
                rank + 1,
                self.names[i],
                elo.map_or("-".into(), |e| signed(e.diff)),
                elo.map_or("-".into(), |e| number(e.margin())),
                t.los().map_or("-".into(), |l| format!("{:.1}%", l * 100.0)),
                t.score().map_or("-".into(), |s| format!(
                    "{}/{} {:.1}%",
                    half(t.points()),
                    t.games(),
                    s * 100.0
                )),
                t.games(),
                t.wins,
                t.draws,
                t.losses,
                t.draw_ratio().map_or("-".into(), |d| format!("{:.1}%", d * 100.0)),
            );
        }
        out
    }

    /// The crosstable: the row engine's points against each column engine.
    pub fn crosstable(&self) -> String {
        let order = self.ranking();
        let width = self.names.iter().map(String::len).max().unwrap_or(4).max(9);
        let mut out = format!("{:<width$}", "");
        for &j in &order {
            let _ = write!(out, " {:>width$}", self.names[j]);
        }
        out.push('\n');
        for &i in &order {
            let _ = write!(out, "{:<width$}", self.names[i]);
            for &j in &order {
                let cell = if i == j {
                    "-".to_owned()
                } else {
                    let v = self.versus[i][j];
                    if v.games() == 0 {
                        ".".to_owned()
                    } else {
                        format!("{}/{}", half(v.points()), v.games())
                    }
                };
                let _ = write!(out, " {cell:>width$}");
            }
            out.push('\n');
        }
        out
    }

    /// Everything: games and terminations, standings, crosstable, and for
    /// two engines the pentanomial line and an SPRT line when one is given.
    pub fn report(&self, sprt: Option<&Sprt>) -> String {
        let mut out = format!("Games: {}", self.games);
        let ends: Vec<String> = Termination::ALL
            .iter()
            .filter_map(|t| self.terminations.get(t.name()).map(|n| format!("{} {n}", t.name())))
            .collect();
        if !ends.is_empty() {
            let _ = write!(out, " ({})", ends.join(", "));
        }
        out.push_str("\n\n");
        out.push_str(&self.table());
        out.push_str(&self.ratings_table());
        out.push('\n');
        out.push_str("Crosstable (row's points against column)\n");
        out.push_str(&self.crosstable());
        if let Some(penta) = self.pentanomial {
            let _ = writeln!(
                out,
                "\nPentanomial of {} vs {} [0, 0.5, 1, 1.5, 2]: {:?}{}",
                self.names[0],
                self.names[1],
                penta.0,
                penta.elo().map_or(String::new(), |e| format!(
                    " (Elo {} +/- {})",
                    signed(e.diff),
                    number(e.margin())
                )),
            );
            if let Some(sprt) = sprt {
                out.push_str(&self.sprt_line(sprt));
                out.push('\n');
            }
        }
        out
    }

    /// The log-likelihood ratio of `sprt` for the first engine against the
    /// second: on the pentanomial (complete pairs) unless the test is
    /// trinomial, then on every game.
    pub fn sprt_llr(&self, sprt: &Sprt) -> f64 {
        if sprt.pentanomial {
            sprt.llr_pentanomial(self.pentanomial.unwrap_or_default())
        } else {
            sprt.llr(self.totals.first().copied().unwrap_or_default())
        }
    }

    /// The standings as one JSON object (what `arena merge --json` prints):
    /// `games`, `terminations` (how many games ended each way), `standings`
    /// (best first: `name`, `points`, `games`, `wins`, `draws`, `losses`,
    /// `score`, and `elo`/`elo_margin` against the field when finite), and
    /// for more than two engines either `ratings` (best first: `name`,
    /// `elo`, `margin`, the maximum-likelihood list of [`ratings`](Self::ratings))
    /// or `ratings_error` (why there are none); for two engines the
    /// `pentanomial` counts of colour-swapped pairs, `[LL, LD, DD/WL, WD, WW]`.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::{Value, json};
        let finite = |x: f64| if x.is_finite() { json!(x) } else { Value::Null };
        let standings: Vec<Value> = self
            .ranking()
            .into_iter()
            .map(|i| {
                let t = &self.totals[i];
                let mut entry = json!({
                    "name": self.names[i],
                    "points": t.points(),
                    "games": t.games(),
                    "wins": t.wins,
                    "draws": t.draws,
                    "losses": t.losses,
                    "score": t.score(),
                });
                if let Some(elo) = t.elo().filter(|e| e.diff.is_finite()) {
                    entry["elo"] = finite(elo.diff);
                    entry["elo_margin"] = finite(elo.margin());
                }
                entry
            })
            .collect();
        let mut out = json!({
            "games": self.games,
            "terminations": self.terminations,
            "standings": standings,
        });
        if self.names.len() > 2 {
            match self.ratings() {
                Ok(ratings) => {
                    let mut order: Vec<usize> = (0..ratings.len()).collect();
                    order.sort_by(|&a, &b| ratings[b].elo.total_cmp(&ratings[a].elo));
                    out["ratings"] = order
                        .into_iter()
                        .map(|i| {
                            json!({
                                "name": self.names[i],
                                "elo": ratings[i].elo,
                                "margin": ratings[i].margin,
                            })
                        })
                        .collect();
                }
                Err(none) => out["ratings_error"] = json!(none.to_string()),
            }
        }
        if let Some(penta) = &self.pentanomial {
            out["pentanomial"] = json!(penta.0);
        }
        out
    }

    /// The maximum-likelihood ratings (see [`ml_ratings`]), one per engine
    /// in [`names`](Self::names) order.
    ///
    /// # Errors
    /// [`NoRatings`] when the results give no finite ratings.
    pub fn ratings(&self) -> Result<Vec<Rating>, NoRatings> {
        ml_ratings(&self.versus)
    }

    /// For more than two engines, a blank line and the maximum-likelihood
    /// rating list, best first (a line saying why there is none when the
    /// results give no finite ratings); empty for two engines, whose
    /// standings say it all.
    pub fn ratings_table(&self) -> String {
        if self.names.len() <= 2 {
            return String::new();
        }
        let mut out = "\nRatings (maximum likelihood, logistic Elo, draws as half points, average \
                       0, 95% error bars)\n"
            .to_owned();
        let ratings = match self.ratings() {
            Ok(ratings) => ratings,
            Err(none) => {
                let mut why = Vec::new();
                for (name, t) in self.names.iter().zip(&self.totals) {
                    match t.score() {
                        None => why.push(format!("{name} has played no game")),
                        Some(s) if s >= 1.0 => why.push(format!("{name} won every game")),
                        Some(s) if s <= 0.0 => why.push(format!("{name} lost every game")),
                        Some(_) => {}
                    }
                }
                let why =
                    if why.is_empty() { String::new() } else { format!(" ({})", why.join(", ")) };
                let _ = writeln!(out, "{none}{why}");
                return out;
            }
        };
        let width = self.names.iter().map(String::len).max().unwrap_or(4).max(4);
        let _ = writeln!(
            out,
            "{:>4} {:<width$} {:>7} {:>7} {:>5}",
            "Rank", "Name", "Elo", "+/-", "Games"
        );
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by(|&a, &b| {
            ratings[b]
                .elo
                .total_cmp(&ratings[a].elo)
                .then_with(|| self.names[a].cmp(&self.names[b]))
        });
        for (rank, i) in order.into_iter().enumerate() {
            let _ = writeln!(
                out,
                "{:>4} {:<width$} {:>7} {:>7} {:>5}",
                rank + 1,
                self.names[i],
                signed(ratings[i].elo),
                number(ratings[i].margin),
                self.totals[i].games()
            );
        }
        out
    }

    /// The SPRT line for the first engine against the second.
    pub fn sprt_line(&self, sprt: &Sprt) -> String {
        let llr = self.sprt_llr(sprt);
        let (lower, upper) = sprt.bounds();
        let verdict = match sprt.verdict(llr) {
            SprtVerdict::Continue => "no decision yet".to_owned(),
            SprtVerdict::H0 => format!("H0 accepted (elo0 = {})", sprt.elo0),
            SprtVerdict::H1 => format!("H1 accepted (elo1 = {})", sprt.elo1),
        };
        let counted = if sprt.pentanomial {
            format!("pentanomial, {} pairs", self.pentanomial.unwrap_or_default().pairs())
        } else {
            format!("trinomial, {} games", self.totals.first().copied().unwrap_or_default().games())
        };
        format!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} ({:.2}, {:.2}): {verdict} [{counted}]",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta, llr, lower, upper
        )
    }
}

fn add(total: &mut Wdl, one: Wdl) {
    total.wins += one.wins;
    total.draws += one.draws;
    total.losses += one.losses;
}

fn half(points: f64) -> String {
    if points.fract() == 0.0 { format!("{points:.0}") } else { format!("{points:.1}") }
}

fn signed(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+inf".into() } else { "-inf".into() }
    } else {
        format!("{x:+.1}")
    }
}

fn number(x: f64) -> String {
    if x.is_finite() { format!("{x:.1}") } else { "inf".into() }
}
