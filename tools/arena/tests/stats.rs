//! The arithmetic against worked numbers (computed independently with
//! Python's `math` module: `-400*log10(1/s-1)`, `math.erf`).

use arena::{Pentanomial, Sprt, SprtVerdict, Wdl, elo_from_score, erf, score_from_elo};

fn close(a: f64, b: f64, tolerance: f64) {
    assert!((a - b).abs() < tolerance, "{a} != {b}");
}

#[test]
fn elo_of_a_score() {
    close(elo_from_score(0.75), 190.848_501_887_865, 1e-9);
    close(elo_from_score(0.5), 0.0, 1e-12);
    close(elo_from_score(0.25), -190.848_501_887_865, 1e-9);
    assert_eq!(elo_from_score(1.0), f64::INFINITY);
    assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    close(score_from_elo(190.848_501_887_865), 0.75, 1e-12);
}

#[test]
fn elo_interval_of_60_20_20() {
    // s = 0.7, per-game variance 0.16, margin 1.96 * 0.04.
    let elo = Wdl::new(60, 20, 20).elo().unwrap();
    close(elo.diff, 147.190_714_117_837_76, 1e-9);
    close(elo.low, 86.225_015_200_304_23, 1e-9);
    close(elo.high, 218.251_777_641_074_8, 1e-9);
    assert!(Wdl::default().elo().is_none());
}

#[test]
fn likelihood_of_superiority() {
    close(Wdl::new(60, 20, 20).los().unwrap(), 0.999_996_127_891_784_5, 1e-12);
    close(Wdl::new(10, 5, 10).los().unwrap(), 0.5, 1e-12);
    assert!(Wdl::new(0, 7, 0).los().is_none());
}

#[test]
fn error_function() {
    for (x, want) in [
        (0.1, 0.112_462_916_018_284_9),
        (1.0, 0.842_700_792_949_714_9),
        (2.0, 0.995_322_265_018_952_7),
        (2.4, 0.999_311_486_103_355),
        (2.6, 0.999_763_965_583_470_7),
        (3.0, 0.999_977_909_503_001_4),
        (4.0, 0.999_999_984_582_742_1),
    ] {
        close(erf(x), want, 1e-13);
        close(erf(-x), -want, 1e-13);
    }
}

#[test]
fn sprt_bounds_and_llr() {
    let sprt = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05, pentanomial: false };
    let (lower, upper) = sprt.bounds();
    close(lower, -2.944_438_979_166_440_3, 1e-12);
    close(upper, 2.944_438_979_166_440_3, 1e-12);
    close(sprt.llr(Wdl::new(60, 20, 20)), 1.733_713_311_929_099_7, 1e-9);
    close(sprt.llr(Wdl::new(520, 300, 480)), 0.797_619_027_615_815_9, 1e-9);
    assert_eq!(sprt.verdict(1.7), SprtVerdict::Continue);
    assert_eq!(sprt.verdict(3.0), SprtVerdict::H1);
    assert_eq!(sprt.verdict(-3.0), SprtVerdict::H0);
    assert_eq!(sprt.llr(Wdl::default()), 0.0);
    let strong = Wdl::new(300, 100, 100);
    assert_eq!(sprt.verdict(sprt.llr(strong)), SprtVerdict::H1);
    assert_eq!(sprt.verdict(sprt.llr(strong.flipped())), SprtVerdict::H0);
}

#[test]
fn sprt_tokens() {
    let tokens = |t: &[&str]| t.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    let sprt = Sprt::parse_tokens(&tokens(&["elo0=-5", "elo1=5", "alpha=0.1"])).unwrap();
    assert_eq!(sprt, Sprt { elo0: -5.0, elo1: 5.0, alpha: 0.1, beta: 0.05, pentanomial: true });
    let trinomial = Sprt::parse_tokens(&tokens(&["penta=false"])).unwrap();
    assert!(!trinomial.pentanomial);
    assert!(Sprt::parse_tokens(&tokens(&["penta=no"])).is_err());
    assert!(Sprt::parse_tokens(&tokens(&["elo0=5", "elo1=5"])).is_err());
    assert!(Sprt::parse_tokens(&tokens(&["alpha=1.5"])).is_err());
    assert!(Sprt::parse_tokens(&tokens(&["gamma=1"])).is_err());
}

#[test]
fn pentanomial_intervals() {
    let even = Pentanomial([10, 20, 40, 20, 10]).elo().unwrap();
    close(even.diff, 0.0, 1e-9);
    close(even.low, -37.442_059_735_357_54, 1e-9);
    close(even.high, 37.442_059_735_357_54, 1e-9);
    let ahead = Pentanomial([5, 10, 40, 30, 15]).elo().unwrap();
    close(ahead.diff, 70.436_503_622_272_27, 1e-9);
    close(ahead.low, 34.881_497_007_037_78, 1e-9);
    close(ahead.high, 107.514_815_142_830_88, 1e-9);
    assert!(Pentanomial::default().elo().is_none());
}
