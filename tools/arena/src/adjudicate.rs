//! Adjudication: ending a game before the rules do, by the scores the engines
//! report (`--draw`, `--resign`, as fastchess has them) or by the game's exact
//! table (`--tb`).

use std::fmt;

use anyhow::{Context, Result, bail};
use board_core::{Player, Proven, Score};

/// `--draw movenumber=N movecount=N score=CP`: a draw once the game has
/// `movenumber` full moves and both engines' scores have stayed within
/// `±score` centipawns for `movecount` moves each in a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// Full moves (two plies each, from the base position) before a draw may
    /// be adjudicated.
    pub move_number: u32,
    /// Consecutive moves of each engine within the window.
    pub move_count: u32,
    /// The window, in centipawns.
    pub score: i32,
}

/// `--resign movecount=N score=CP [twosided=true]`: an engine whose score has
/// been `-score` centipawns or worse for `movecount` of its moves in a row
/// loses; with `twosided`, only when its opponent's score has been `+score`
/// or better over the same moves too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive moves (of each engine, with `twosided`).
    pub move_count: u32,
    /// The threshold, in centipawns.
    pub score: i32,
    /// Both engines must agree.
    pub two_sided: bool,
}

/// Which of the table's results end a game (`--tbadjudicate`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TableResults {
    /// Wins, losses and draws (fastchess's `BOTH`).
    #[default]
    Both,
    /// Wins and losses only (`WIN_LOSS`): drawn positions are played on.
    WinLoss,
    /// Draws only (`DRAW`).
    Draw,
}

impl TableResults {
    /// Reads `both`, `win_loss` or `draw` (any case; `-` for `_`).
    ///
    /// # Errors
    /// Any other word, named.
    pub fn parse(text: &str) -> Result<Self> {
        match text.trim().to_ascii_lowercase().replace('-', "_").as_str() {
            "both" => Ok(TableResults::Both),
            "win_loss" => Ok(TableResults::WinLoss),
            "draw" => Ok(TableResults::Draw),
            _ => bail!("--tbadjudicate: '{text}' is not both, win_loss or draw"),
        }
    }

    fn name(self) -> &'static str {
        match self {
            TableResults::Both => "both",
            TableResults::WinLoss => "win_loss",
            TableResults::Draw => "draw",
        }
    }
}

/// Every adjudication rule of a tournament.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// `--draw`.
    pub draw: Option<DrawRule>,
    /// `--resign`.
    pub resign: Option<ResignRule>,
    /// `--tb` (with `--tbadjudicate`).
    pub table: Option<TableResults>,
}

impl Adjudication {
    /// Whether any rule is set.
    pub fn is_empty(&self) -> bool {
        *self == Adjudication::default()
    }
}

/// The rules as the tournament's description (and so its fingerprint) has
/// them: empty when none is set, so tournaments without adjudication keep
/// their fingerprints.
impl fmt::Display for Adjudication {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(d) = self.draw {
            write!(
                f,
                " draw=movenumber:{},movecount:{},score:{}",
                d.move_number, d.move_count, d.score
            )?;
        }
        if let Some(r) = self.resign {
            write!(
                f,
                " resign=movecount:{},score:{},twosided:{}",
                r.move_count, r.score, r.two_sided
            )?;
        }
        if let Some(t) = self.table {
            write!(f, " tb={}", t.name())?;
        }
        Ok(())
    }
}

/// The `key=value` tokens of `flag`, each key checked against `keys`.
fn tokens<'a>(flag: &str, tokens: &'a [String], keys: &[&str]) -> Result<Vec<(&'a str, &'a str)>> {
    tokens
        .iter()
        .map(|token| {
            let (key, value) = token
                .split_once('=')
                .with_context(|| format!("{flag}: '{token}' is not key=value"))?;
            if !keys.contains(&key) {
                bail!("{flag}: unknown key '{key}' ({})", keys.join(", "));
            }
            Ok((key, value))
        })
        .collect()
}

fn number<T: std::str::FromStr>(flag: &str, key: &str, value: &str) -> Result<T> {
    value
        .trim()
        .parse()
        .ok()
        .with_context(|| format!("{flag}: {key}={value} is not a non-negative whole number"))
}

impl DrawRule {
    /// Reads the tokens of `--draw` (defaults as fastchess: `movenumber=0
    /// movecount=1 score=0`).
    ///
    /// # Errors
    /// An unknown key or a bad value, named with the flag.
    pub fn parse_tokens(given: &[String]) -> Result<Self> {
        const FLAG: &str = "--draw";
        let mut rule = DrawRule { move_number: 0, move_count: 1, score: 0 };
        for (key, value) in tokens(FLAG, given, &["movenumber", "movecount", "score"])? {
            match key {
                "movenumber" => rule.move_number = number(FLAG, key, value)?,
                "movecount" => rule.move_count = number(FLAG, key, value)?,
                _ => rule.score = centipawns(FLAG, value)?,
            }
        }
        if rule.move_count == 0 {
            bail!("{FLAG}: movecount=0: at least 1");
        }
        Ok(rule)
    }
}

impl ResignRule {
    /// Reads the tokens of `--resign` (`movecount` 1 and `twosided=false` by
    /// default, as fastchess; `score=` must be given: fastchess's default of
    /// 0 would have an engine that reports `cp 0` resign).
    ///
    /// # Errors
    /// An unknown key or a bad value, named with the flag; no `score=`.
    pub fn parse_tokens(given: &[String]) -> Result<Self> {
        const FLAG: &str = "--resign";
        let mut rule = ResignRule { move_count: 1, score: 0, two_sided: false };
        let mut scored = false;
        for (key, value) in tokens(FLAG, given, &["movecount", "score", "twosided"])? {
            match key {
                "movecount" => rule.move_count = number(FLAG, key, value)?,
                "score" => {
                    rule.score = centipawns(FLAG, value)?;
                    scored = true;
                }
                _ => {
                    rule.two_sided = match value.trim() {
                        "true" => true,
                        "false" => false,
                        _ => bail!("{FLAG}: twosided={value} is not true or false"),
                    }
                }
            }
        }
        if !scored || rule.score == 0 {
            bail!("{FLAG}: give score=CP, the threshold in centipawns (at least 1)");
        }
        if rule.move_count == 0 {
            bail!("{FLAG}: movecount=0: at least 1");
        }
        Ok(rule)
    }
}

fn centipawns(flag: &str, value: &str) -> Result<i32> {
    let cp: u32 = number(flag, "score", value)?;
    i32::try_from(cp)
        .ok()
        .filter(|&cp| cp <= 1_000_000)
        .with_context(|| format!("{flag}: score={value} is out of range (0 to 1000000 centipawns)"))
}

/// How a score stands against a threshold: proven results are beyond any.
fn at_least(score: Score, threshold: i32) -> bool {
    match score {
        Score::Cp(cp) => cp >= threshold,
        Score::Win(_) => true,
        Score::Loss(_) => false,
    }
}

fn at_most(score: Score, threshold: i32) -> bool {
    match score {
        Score::Cp(cp) => cp <= threshold,
        Score::Win(_) => false,
        Score::Loss(_) => true,
    }
}

/// An adjudicated end: the winner (`None`: a draw) and why, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Verdict {
    pub(crate) winner: Option<Player>,
    pub(crate) reason: String,
}

/// The running counts of one game's score adjudication, fed the score each
/// engine gave with its move.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tracker {
    /// Plies in a row whose mover's score was within the draw window.
    draw_plies: u32,
    /// Per side, its own moves in a row at `-score` or worse.
    losing: [u32; 2],
    /// With `twosided`: the side both engines call lost, and for how many
    /// plies in a row they have.
    agreed: Option<(Player, u32)>,
}

impl Tracker {
    /// Counts the move `mover` just made with `score` (its own view; `None`
    /// when it reported none, which breaks every run, as in fastchess), and
    /// says whether the rules end the game now, `plies` plies from the base
    /// position played (opening included). Resignation is checked before
    /// the draw, as fastchess does.
    pub(crate) fn update(
        &mut self,
        rules: &Adjudication,
        mover: Player,
        score: Option<Score>,
        plies: usize,
        names: [&str; 2],
    ) -> Option<Verdict> {
        let Some(score) = score else {
            *self = Tracker::default();
            return None;
        };
        if let Some(resign) = rules.resign {
            let own = &mut self.losing[mover.index()];
            *own = if at_most(score, -resign.score) { *own + 1 } else { 0 };
            let lost = if at_most(score, -resign.score) {
                Some(mover)
            } else if at_least(score, resign.score) {
                Some(mover.other())
            } else {
                None
            };
            self.agreed = match (lost, self.agreed) {
                (Some(side), Some((seen, n))) if side == seen => Some((side, n + 1)),
                (Some(side), _) => Some((side, 1)),
                (None, _) => None,
            };
            let loser = if resign.two_sided {
                self.agreed.filter(|&(_, n)| n >= 2 * resign.move_count).map(|(side, _)| side)
            } else {
                (self.losing[mover.index()] >= resign.move_count).then_some(mover)
            };
            if let Some(loser) = loser {
                let both = if resign.two_sided { ", its opponent agreeing" } else { "" };
                return Some(Verdict {
                    winner: Some(loser.other()),
                    reason: format!(
                        "{} resigns: a score of -{} cp or worse for {} moves in a row{both}",
                        names[loser.index()],
                        resign.score,
                        resign.move_count
                    ),
                });
            }
        }
        if let Some(draw) = rules.draw {
            let within = matches!(score, Score::Cp(cp) if cp.abs() <= draw.score);
            self.draw_plies = if within { self.draw_plies + 1 } else { 0 };
            if plies as u64 >= 2 * u64::from(draw.move_number)
                && self.draw_plies >= 2 * draw.move_count
            {
                return Some(Verdict {
                    winner: None,
                    reason: format!(
                        "draw: both scores within {} cp for {} moves each in a row, after \
                         move {}",
                        draw.score, draw.move_count, draw.move_number
                    ),
                });
            }
        }
        None
    }
}

/// The table's verdict on a position, `to_move` to move, if `results` lets
/// it end the game.
pub(crate) fn table_verdict(
    value: Proven,
    to_move: Player,
    results: TableResults,
    colours: [&str; 2],
) -> Option<Verdict> {
    let (winner, how) = match value {
        Proven::Win(n) => {
            (Some(to_move), format!("{} to move wins in {n} plies", colours[to_move.index()]))
        }
        Proven::Loss(n) => (
            Some(to_move.other()),
            format!("{} to move loses in {n} plies", colours[to_move.index()]),
        ),
        Proven::Draw => (None, "drawn".to_owned()),
    };
    let wanted = match results {
        TableResults::Both => true,
        TableResults::WinLoss => winner.is_some(),
        TableResults::Draw => winner.is_none(),
    };
    wanted.then(|| Verdict { winner, reason: format!("table: {how} at perfect play") })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    const NAMES: [&str; 2] = ["a", "b"];

    /// Feeds `scores` (alternating movers, first player first) and returns
    /// the ply at which a verdict came, with it.
    fn run(rules: &Adjudication, scores: &[Option<Score>]) -> Option<(usize, Verdict)> {
        let mut tracker = Tracker::default();
        let mut mover = Player::First;
        for (i, &score) in scores.iter().enumerate() {
            if let Some(v) = tracker.update(rules, mover, score, i + 1, NAMES) {
                return Some((i + 1, v));
            }
            mover = mover.other();
        }
        None
    }

    #[test]
    fn flags_parse_with_fastchess_defaults_and_name_bad_values() {
        assert_eq!(
            DrawRule::parse_tokens(&words("movenumber=40 movecount=8 score=10")).unwrap(),
            DrawRule { move_number: 40, move_count: 8, score: 10 }
        );
        assert_eq!(
            DrawRule::parse_tokens(&[]).unwrap(),
            DrawRule { move_number: 0, move_count: 1, score: 0 }
        );
        assert_eq!(
            ResignRule::parse_tokens(&words("movecount=3 score=600 twosided=true")).unwrap(),
            ResignRule { move_count: 3, score: 600, two_sided: true }
        );
        for (tokens, wanted) in [
            ("movenumber=x", "--draw: movenumber=x is not a non-negative whole number"),
            ("score=-5", "--draw: score=-5 is not a non-negative whole number"),
            ("moves=3", "--draw: unknown key 'moves' (movenumber, movecount, score)"),
            ("movecount", "--draw: 'movecount' is not key=value"),
            ("movecount=0", "--draw: movecount=0: at least 1"),
        ] {
            let error = DrawRule::parse_tokens(&words(tokens)).unwrap_err().to_string();
            assert_eq!(error, wanted);
        }
        for (tokens, wanted) in [
            ("movecount=3", "--resign: give score=CP, the threshold in centipawns (at least 1)"),
            ("score=600 twosided=yes", "--resign: twosided=yes is not true or false"),
            ("score=9999999", "--resign: score=9999999 is out of range (0 to 1000000 centipawns)"),
        ] {
            let error = ResignRule::parse_tokens(&words(tokens)).unwrap_err().to_string();
            assert_eq!(error, wanted);
        }
        assert_eq!(TableResults::parse("WIN_LOSS").unwrap(), TableResults::WinLoss);
        assert!(TableResults::parse("wins").unwrap_err().to_string().contains("'wins'"));
    }

    #[test]
    fn a_one_sided_resignation_needs_movecount_own_moves_in_a_row() {
        let rules = Adjudication {
            resign: Some(ResignRule { move_count: 3, score: 600, two_sided: false }),
            ..Adjudication::default()
        };
        let (cp, loss) = (|n| Some(Score::Cp(n)), Some(Score::Loss(4)));
        // b (second) is at -600 or worse on its 1st, 2nd and 3rd move: plies 2, 4, 6.
        let (ply, verdict) = run(&rules, &[cp(0), cp(-600), cp(0), loss, cp(0), cp(-700)]).unwrap();
        assert_eq!((ply, verdict.winner), (6, Some(Player::First)));
        assert!(verdict.reason.starts_with("b resigns"), "{}", verdict.reason);
        // Broken by a better score, or by a move without a score.
        assert_eq!(run(&rules, &[cp(0), cp(-600), cp(0), cp(-599), cp(0), cp(-700)]), None);
        assert_eq!(run(&rules, &[cp(0), cp(-600), cp(0), None, cp(0), cp(-700)]), None);
        // A proven win of the opponent does not count as the loser's view.
        assert_eq!(run(&rules, &[Some(Score::Win(3)), cp(0), Some(Score::Win(3))]), None);
    }

    #[test]
    fn a_two_sided_resignation_needs_both_engines_to_agree() {
        let rules = Adjudication {
            resign: Some(ResignRule { move_count: 2, score: 500, two_sided: true }),
            ..Adjudication::default()
        };
        let cp = |n| Some(Score::Cp(n));
        // a says it wins, b says it loses, twice each: b loses at ply 4.
        let (ply, verdict) =
            run(&rules, &[cp(500), cp(-500), Some(Score::Win(9)), cp(-900)]).unwrap();
        assert_eq!((ply, verdict.winner), (4, Some(Player::First)));
        // b alone thinks it is lost: no resignation.
        assert_eq!(run(&rules, &[cp(0), cp(-900), cp(0), cp(-900), cp(0), cp(-900)]), None);
    }

    #[test]
    fn a_draw_needs_the_move_number_and_both_engines_in_the_window() {
        let rules = Adjudication {
            draw: Some(DrawRule { move_number: 3, move_count: 2, score: 10 }),
            ..Adjudication::default()
        };
        let cp = |n| Some(Score::Cp(n));
        // Within the window from ply 1, but not before move 3 (ply 6).
        let (ply, verdict) = run(&rules, &[cp(0); 10]).unwrap();
        assert_eq!((ply, verdict.winner), (6, None));
        assert!(verdict.reason.starts_with("draw: both scores within 10 cp"), "{}", verdict.reason);
        // Proven results and scores outside the window break the run.
        let scores =
            [cp(0), cp(0), cp(0), cp(11), cp(0), cp(-10), Some(Score::Win(5)), cp(0), cp(0), cp(0)];
        assert_eq!(run(&rules, &scores).map(|(ply, _)| ply), None);
        let scores = [cp(0), cp(0), cp(0), cp(11), cp(0), cp(-10), cp(3), cp(0)];
        assert_eq!(run(&rules, &scores).map(|(ply, _)| ply), Some(8));
    }

    #[test]
    fn the_table_ends_the_games_it_is_asked_to() {
        let colours = ["White", "Black"];
        let win =
            table_verdict(Proven::Win(3), Player::Second, TableResults::Both, colours).unwrap();
        assert_eq!(win.winner, Some(Player::Second));
        assert_eq!(win.reason, "table: Black to move wins in 3 plies at perfect play");
        let loss = table_verdict(Proven::Loss(2), Player::Second, TableResults::WinLoss, colours);
        assert_eq!(loss.unwrap().winner, Some(Player::First));
        assert_eq!(
            table_verdict(Proven::Draw, Player::First, TableResults::WinLoss, colours),
            None
        );
        assert_eq!(table_verdict(Proven::Win(1), Player::First, TableResults::Draw, colours), None);
        let draw = table_verdict(Proven::Draw, Player::First, TableResults::Draw, colours).unwrap();
        assert_eq!((draw.winner, draw.reason.as_str()), (None, "table: drawn at perfect play"));
    }
}
