//! Maximum-likelihood ratings of many engines and the pentanomial SPRT,
//! against inputs whose answer is known: symmetric results, the two-engine
//! case (the Elo of a score), a transitive order, the likelihood's gradient
//! at the solution, error bars that shrink with more games.

use arena::{NoRatings, Pentanomial, Sprt, Wdl, elo_from_score, ml_gradient, ml_ratings};

fn close(a: f64, b: f64, tolerance: f64) {
    assert!((a - b).abs() < tolerance, "{a} != {b}");
}

/// The `versus` table of `results` (`(i, j, wins of i, draws, losses of i)`).
fn versus(n: usize, results: &[(usize, usize, u32, u32, u32)]) -> Vec<Vec<Wdl>> {
    let mut table = vec![vec![Wdl::default(); n]; n];
    for &(i, j, w, d, l) in results {
        table[i][j] = Wdl::new(w, d, l);
        table[j][i] = Wdl::new(l, d, w);
    }
    table
}

/// `ln 10 / 400`.
const NATURAL: f64 = std::f64::consts::LN_10 / 400.0;

#[test]
fn symmetric_results_give_equal_ratings() {
    let table = versus(3, &[(0, 1, 3, 4, 3), (0, 2, 2, 6, 2), (1, 2, 5, 0, 5)]);
    let ratings = ml_ratings(&table).unwrap();
    for rating in &ratings {
        close(rating.elo, 0.0, 1e-9);
        assert!(rating.margin > 0.0 && rating.margin.is_finite(), "{rating:?}");
    }
}

#[test]
fn two_engines_are_rated_by_the_elo_of_their_score() {
    // 60 wins, 20 draws, 20 losses: s = 0.7, per-game variance 0.16.
    let table = versus(2, &[(0, 1, 60, 20, 20)]);
    let ratings = ml_ratings(&table).unwrap();
    close(ratings[0].elo - ratings[1].elo, elo_from_score(0.7), 1e-9);
    close(ratings[0].elo + ratings[1].elo, 0.0, 1e-9);
    // The difference's bar is the per-game interval linearised:
    // 1.96 σ/√N / (c s (1 - s)); each rating carries half of it.
    let difference = 1.959_963_984_540_054 * 0.04 / (NATURAL * 0.7 * 0.3);
    close(ratings[0].margin, difference / 2.0, 1e-9);
    close(ratings[1].margin, difference / 2.0, 1e-9);
}

#[test]
fn a_transitive_field_is_ordered_and_the_gradient_vanishes() {
    // a beats b, b beats c, a beats c by more.
    let table = versus(3, &[(0, 1, 12, 6, 6), (1, 2, 12, 6, 6), (0, 2, 16, 6, 2)]);
    let ratings = ml_ratings(&table).unwrap();
    assert!(ratings[0].elo > ratings[1].elo && ratings[1].elo > ratings[2].elo, "{ratings:?}");
    close(ratings.iter().map(|r| r.elo).sum::<f64>(), 0.0, 1e-9);
    let elo: Vec<f64> = ratings.iter().map(|r| r.elo).collect();
    for g in ml_gradient(&table, &elo) {
        close(g, 0.0, 1e-9);
    }
    // Away from the solution it does not vanish: the check can fail.
    let off: Vec<f64> =
        elo.iter().enumerate().map(|(i, e)| e + if i == 0 { 5.0 } else { 0.0 }).collect();
    assert!(ml_gradient(&table, &off)[0] < -1e-3);
    // At the maximum each engine's expected points are its points.
    for (i, rating) in ratings.iter().enumerate() {
        let expected: f64 = (0..3)
            .filter(|&j| j != i)
            .map(|j| {
                let p = 1.0 / (1.0 + 10f64.powf(-(rating.elo - ratings[j].elo) / 400.0));
                p * f64::from(table[i][j].games())
            })
            .sum();
        let points: f64 = (0..3).map(|j| table[i][j].points()).sum();
        close(expected, points, 1e-9);
    }
}

#[test]
fn error_bars_shrink_with_more_games() {
    let few = versus(
        4,
        &[
            (0, 1, 3, 2, 1),
            (0, 2, 4, 1, 1),
            (0, 3, 5, 1, 0),
            (1, 2, 2, 2, 2),
            (1, 3, 3, 2, 1),
            (2, 3, 3, 1, 2),
        ],
    );
    let many: Vec<Vec<Wdl>> = few
        .iter()
        .map(|row| row.iter().map(|w| Wdl::new(4 * w.wins, 4 * w.draws, 4 * w.losses)).collect())
        .collect();
    let (few, many) = (ml_ratings(&few).unwrap(), ml_ratings(&many).unwrap());
    for (a, b) in few.iter().zip(&many) {
        // The same scores: the same ratings, with bars half as wide.
        close(a.elo, b.elo, 1e-9);
        close(b.margin, a.margin / 2.0, 1e-9);
    }
}

#[test]
fn an_engine_that_lost_every_game_has_no_finite_rating() {
    let table = versus(3, &[(0, 1, 3, 2, 1), (0, 2, 4, 0, 0), (1, 2, 4, 0, 0)]);
    assert_eq!(ml_ratings(&table), Err(NoRatings { apart: vec![2] }));
    // Engines that never met.
    let apart = versus(4, &[(0, 1, 1, 1, 1), (2, 3, 1, 1, 1)]);
    assert_eq!(ml_ratings(&apart), Err(NoRatings { apart: vec![2, 3] }));
}

#[test]
fn pentanomial_sprt_against_worked_numbers() {
    // Computed by hand (and with Python): pairs scoring [0, ¼, ½, ¾, 1] of
    // a pair's two points, n (s1 - s0)(2 s̄ - s0 - s1) / (2 σ²).
    let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05, pentanomial: true };
    close(sprt.llr_pentanomial(Pentanomial([1, 2, 3, 4, 5])), 0.353_988_281_862_504_4, 1e-9);
    close(sprt.llr_pentanomial(Pentanomial([5, 10, 40, 30, 15])), 2.054_189_049_979_521, 1e-9);
    close(sprt.llr_pentanomial(Pentanomial([10, 20, 40, 20, 10])), -0.137_994_045_484_242_7, 1e-9);
    assert_eq!(sprt.llr_pentanomial(Pentanomial::default()), 0.0);
    assert_eq!(sprt.llr_pentanomial(Pentanomial([0, 0, 0, 0, 9])), 0.0);
}

#[test]
fn the_documented_example_against_an_independent_computation() {
    // docs/arena.md's three engines (mcts, alphabeta, random); computed
    // with Python by plain gradient ascent and a cofactor inverse.
    let table = versus(3, &[(0, 1, 1, 3, 0), (0, 2, 3, 1, 0), (1, 2, 4, 0, 0)]);
    let ratings = ml_ratings(&table).unwrap();
    let want = [
        (176.648_672_610_913_88, 168.114_189_936_900_71),
        (137.614_344_044_502_13, 108.359_890_534_129_06),
        (-314.263_016_655_416_04, 232.471_550_010_226_96),
    ];
    for (rating, (elo, margin)) in ratings.iter().zip(want) {
        close(rating.elo, elo, 1e-6);
        close(rating.margin, margin, 1e-6);
    }
}

/// Standings of three engines from a `versus` table.
fn standings(table: Vec<Vec<Wdl>>) -> arena::Standings {
    let totals: Vec<Wdl> = table
        .iter()
        .map(|row| {
            row.iter().fold(Wdl::default(), |sum, r| {
                Wdl::new(sum.wins + r.wins, sum.draws + r.draws, sum.losses + r.losses)
            })
        })
        .collect();
    let games = totals.iter().map(Wdl::games).sum::<u32>() / 2;
    arena::Standings {
        names: vec!["a".into(), "b".into(), "c".into()],
        totals,
        versus: table,
        pentanomial: None,
        terminations: Default::default(),
        games,
    }
}

#[test]
fn the_json_summary_lists_the_ratings_best_first_or_says_why_there_are_none() {
    // c beats b beats a: the list is c, b, a, with ml_ratings' numbers.
    let table = versus(3, &[(2, 1, 12, 6, 6), (1, 0, 12, 6, 6), (2, 0, 16, 6, 2)]);
    let ratings = ml_ratings(&table).unwrap();
    let json = standings(table).to_json();
    let listed = json["ratings"].as_array().expect("ratings");
    let names: Vec<&str> = listed.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["c", "b", "a"], "{json}");
    close(listed[0]["elo"].as_f64().unwrap(), ratings[2].elo, 1e-9);
    close(listed[2]["margin"].as_f64().unwrap(), ratings[0].margin, 1e-9);
    assert_eq!(json["standings"][0]["name"], "c", "{json}");
    assert_eq!(json["games"], 72, "{json}");
    assert!(json.get("ratings_error").is_none(), "{json}");

    // An engine that won every game: no list, the reason instead.
    let table = versus(3, &[(0, 1, 4, 0, 0), (0, 2, 3, 0, 0), (1, 2, 2, 2, 2)]);
    let json = standings(table).to_json();
    assert!(json.get("ratings").is_none(), "{json}");
    assert!(json["ratings_error"].as_str().unwrap().starts_with("no finite ratings"), "{json}");
}
