//! The PGN-style and JSONL records, and standings computed from records.

use arena::{GameRecord, Standings, Termination};

fn record(id: u64, p1: &str, p2: &str, result: &str) -> GameRecord {
    GameRecord {
        id,
        round: 1,
        pair: id / 2,
        game: "tictactoe".into(),
        variant: "standard".into(),
        tournament: "00000000000000aa".into(),
        max_plies: Some(9),
        pairing: None,
        colours: ["X".into(), "O".into()],
        p1: p1.into(),
        p2: p2.into(),
        opening: "startpos moves c4".into(),
        fen: None,
        opening_plies: 1,
        second_moves_first: false,
        moves: ["c4", "c0", "c2", "c6", "c3", "c5", "c1", "c7", "c8"].map(String::from).to_vec(),
        result: result.into(),
        score: None,
        termination: Termination::Normal,
        reason: "board full".into(),
        disagreements: Vec::new(),
        duration_ms: 12,
        evals: Vec::new(),
    }
}

#[test]
fn pgn_record() {
    let mut game = record(0, "alpha", "beta", "1/2-1/2");
    game.score = Some([13, 11]);
    let pgn = game.pgn("igroteka arena");
    assert_eq!(
        pgn,
        "[Event \"igroteka arena\"]\n[Game \"tictactoe\"]\n[Variant \"standard\"]\n[Round \"1\"]\n\
         [P1 \"alpha\"]\n[P2 \"beta\"]\n[X \"alpha\"]\n[O \"beta\"]\n[White \"alpha\"]\n[Black \"beta\"]\n\
         [Result \"1/2-1/2\"]\n\
         [Score \"13-11\"]\n[Termination \"normal\"]\n[PlyCount \"9\"]\n[MaxPlies \"9\"]\n[Opening \"startpos moves c4\"]\n\n\
         1. c4 c0 2. c2 c6 3. c3 c5 4. c1 c7 5. c8 {normal: board full} 1/2-1/2\n\n"
    );
}

/// Issue 30, item 9: standard PGN tools read `[White]`, `[Black]` and
/// `[Result]` from White's side; where the first player is Black (focus),
/// the PGN result is the record's turned round.
#[test]
fn pgn_result_is_from_whites_side_where_the_first_player_is_black() {
    let mut game = record(0, "alpha", "beta", "1-0");
    game.colours = ["Black".into(), "White".into()];
    let pgn = game.pgn("e");
    assert!(pgn.contains("[White \"beta\"]\n[Black \"alpha\"]\n[Result \"0-1\"]\n"), "{pgn}");
    assert!(pgn.trim_end().ends_with("} 0-1"), "{pgn}");
    assert!(!pgn.contains("[Black \"alpha\"]\n[White"), "one White and one Black tag: {pgn}");
    game.colours = ["White".into(), "Black".into()];
    let pgn = game.pgn("e");
    assert!(pgn.contains("[White \"alpha\"]\n[Black \"beta\"]\n[Result \"1-0\"]\n"), "{pgn}");
    assert_eq!(pgn.matches("[White ").count(), 1, "{pgn}");
    game.result = "1/2-1/2".into();
    game.colours = ["Black".into(), "White".into()];
    assert!(game.pgn("e").contains("[Result \"1/2-1/2\"]"));
}

/// Issue 32, item 6: each engine move's score (from the mover's side, in
/// pawns; proven results as `+M`/`-M` moves), depth and time as a comment,
/// as cutechess-cli writes them; the opening's moves have none.
#[test]
fn pgn_comments_give_each_moves_score_depth_and_time() {
    use arena::MoveEval;
    use board_core::Score;
    let mut game = record(0, "alpha", "beta", "1/2-1/2");
    let eval = |score, depth, ms| MoveEval { score, depth, ms };
    game.evals = vec![
        eval(Some(Score::Cp(35)), Some(12), 105),
        eval(Some(Score::Cp(-120)), Some(9), 2000),
        eval(Some(Score::Cp(0)), None, 7),
        eval(Some(Score::Win(5)), Some(5), 1),
        eval(Some(Score::Loss(4)), Some(4), 0),
        eval(None, Some(3), 1234),
        eval(Some(Score::Cp(-5)), Some(1), 10),
        eval(Some(Score::Win(1)), Some(1), 10),
    ];
    let pgn = game.pgn("e");
    let movetext = pgn.split("\n\n").nth(1).unwrap().replace('\n', " ");
    assert_eq!(
        movetext,
        "1. c4 c0 {+0.35/12 0.105s} 2. c2 {-1.20/9 2.000s} c6 {0.00/0 0.007s} 3. c3 \
         {+M3/5 0.001s} c5 {-M2/4 0.000s} 4. c1 {1.234s} c7 {-0.05/1 0.010s} 5. c8 \
         {+M1/1 0.010s} {normal: board full} 1/2-1/2"
    );
    // The records say the same in JSON, and read back.
    let json = serde_json::to_string(&game).unwrap();
    assert!(json.contains(r#""evals":[{"score":"cp 35","depth":12,"ms":105}"#), "{json}");
    assert!(json.contains(r#"{"depth":3,"ms":1234}"#), "{json}");
    assert_eq!(serde_json::from_str::<GameRecord>(&json).unwrap(), game);
    let bad = json.replace("cp 35", "cp many");
    let error = serde_json::from_str::<GameRecord>(&bad).unwrap_err().to_string();
    assert!(error.contains("score 'cp many' is not cp N, win N or loss N"), "{error}");
}

#[test]
fn pgn_quotes_and_positions() {
    let mut game = record(0, "say \"hi\"", "b", "0-1");
    game.fen = Some("x........ o".into());
    game.opening = "fen x........ o".into();
    game.termination = Termination::TimeForfeit;
    let pgn = game.pgn("e");
    assert!(pgn.contains("[P1 \"say \\\"hi\\\"\"]"), "{pgn}");
    assert!(pgn.contains("[SetUp \"1\"]\n[FEN \"x........ o\"]"), "{pgn}");
    assert!(pgn.contains("[Termination \"time forfeit\"]"), "{pgn}");
}

#[test]
fn jsonl_round_trip_and_names() {
    let mut game = record(3, "a", "b", "1-0");
    game.termination = Termination::GarbageOutput;
    let line = serde_json::to_string(&game).unwrap();
    assert!(line.contains("\"termination\":\"garbage output\""), "{line}");
    assert!(!line.contains("\"fen\""), "{line}");
    assert!(!line.contains('\n'));
    assert_eq!(serde_json::from_str::<GameRecord>(&line).unwrap(), game);
    let names: Vec<&str> = Termination::ALL.iter().map(|t| t.name()).collect();
    assert_eq!(
        names,
        [
            "normal",
            "max plies",
            "time forfeit",
            "illegal move",
            "disconnect",
            "stall",
            "garbage output",
            "adjudication"
        ]
    );
    for t in Termination::ALL {
        assert_eq!(serde_json::to_string(&t).unwrap(), format!("\"{}\"", t.name()));
    }
}

#[test]
fn standings_from_records() {
    let names = vec!["a".to_owned(), "b".to_owned()];
    let records = vec![
        record(0, "a", "b", "1-0"),
        record(1, "b", "a", "1/2-1/2"),
        record(2, "a", "b", "0-1"),
        record(3, "b", "a", "0-1"),
        record(4, "a", "b", "1-0"),
    ];
    let s = Standings::new(&names, &records);
    assert_eq!((s.totals[0].wins, s.totals[0].draws, s.totals[0].losses), (3, 1, 1));
    assert_eq!(s.totals[1], s.totals[0].flipped());
    assert_eq!(s.versus[0][1], s.totals[0]);
    // Pairs: 1 + 0.5 = 1.5, 0 + 1 = 1; the lone game 4 makes no pair.
    assert_eq!(s.pentanomial.unwrap().0, [0, 0, 1, 1, 0]);
    let report = s.report(None);
    assert!(report.contains("Games: 5 (normal 5)"), "{report}");
    assert!(report.contains("3.5/5"), "{report}");
    assert!(report.contains("Pentanomial of a vs b"), "{report}");
}

#[test]
fn an_even_score_is_plus_zero_elo() {
    let names = vec!["a".to_owned(), "b".to_owned()];
    let records = vec![record(0, "a", "b", "1-0"), record(1, "b", "a", "1-0")];
    let report = Standings::new(&names, &records).report(None);
    assert!(!report.contains("-0.0"), "{report}");
    assert!(report.contains("+0.0"), "{report}");
}

#[test]
fn pgn_of_an_opening_with_the_second_player_to_move_starts_with_an_ellipsis() {
    let mut game = record(0, "alpha", "beta", "1/2-1/2");
    game.second_moves_first = true;
    game.fen = Some("x........ o".into());
    game.moves = ["c4", "c0", "c2"].map(String::from).to_vec();
    let pgn = game.pgn("igroteka arena");
    assert!(pgn.contains("\n1... c4 2. c0 c2 {"), "{pgn}");
    game.second_moves_first = false;
    assert!(game.pgn("igroteka arena").contains("\n1. c4 c0 2. c2 {"));
}

#[test]
fn more_than_two_engines_get_a_rating_list_under_the_standings() {
    let names: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
    let records = vec![
        record(0, "a", "b", "1-0"),
        record(1, "b", "a", "1/2-1/2"),
        record(2, "a", "c", "1-0"),
        record(3, "c", "a", "1-0"),
        record(4, "b", "c", "1-0"),
        record(5, "c", "b", "1/2-1/2"),
    ];
    let s = Standings::new(&names, &records);
    let report = s.report(None);
    let table = report.find("Rank Name").unwrap();
    let ratings = report.find("Ratings (maximum likelihood").unwrap();
    assert!(table < ratings && ratings < report.find("Crosstable").unwrap(), "{report}");
    // a (3/4) above b (2/4) above c (1/4), symmetric about the average.
    let list = s.ratings().unwrap();
    assert!(list[0].elo > list[1].elo && list[1].elo > list[2].elo, "{list:?}");
    assert!((list[0].elo + list[2].elo).abs() < 1e-9 && list[1].elo.abs() < 1e-9, "{list:?}");
    let lines: Vec<&str> = report[ratings..].lines().skip(2).take(3).collect();
    assert!(lines[0].split_whitespace().nth(1) == Some("a"), "{report}");
    assert!(lines[2].split_whitespace().nth(1) == Some("c"), "{report}");
    // Two engines: the standings say it all.
    let two = Standings::new(&names[..2], &records[..2]).report(None);
    assert!(!two.contains("Ratings"), "{two}");
    // An engine that lost every game: said, not a number.
    let lost =
        vec![record(0, "a", "b", "1-0"), record(1, "c", "a", "0-1"), record(2, "b", "c", "1-0")];
    let report = Standings::new(&names, &lost).report(None);
    assert!(report.contains("no finite ratings"), "{report}");
    assert!(report.contains("(a won every game, c lost every game)"), "{report}");
}

#[test]
fn the_sprt_line_says_what_it_counted() {
    use arena::Sprt;
    let names = vec!["a".to_owned(), "b".to_owned()];
    // Pairs: (1-0, b-a 0-1) = 2 points, (1/2, 1-0 for b) = 0.5, (1-0, 1/2) = 1.5.
    let records = vec![
        record(0, "a", "b", "1-0"),
        record(1, "b", "a", "0-1"),
        record(2, "a", "b", "1/2-1/2"),
        record(3, "b", "a", "1-0"),
        record(4, "a", "b", "1-0"),
        record(5, "b", "a", "1/2-1/2"),
    ];
    let s = Standings::new(&names, &records);
    assert_eq!(s.pentanomial.unwrap().0, [0, 1, 0, 1, 1]);
    let penta = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05, pentanomial: true };
    let trinomial = Sprt { pentanomial: false, ..penta };
    // By hand: pairs 1/4, 3/4, 1 (mean 2/3, variance 7/72); games 3 wins,
    // 2 draws, 1 loss (mean 2/3, variance 5/36). The same score, but the
    // pairs vary more than independent games would (5/72): this pair count
    // is the more cautious.
    let (s0, s1) = (0.5, arena::score_from_elo(10.0));
    let by_pairs = 3.0 * (s1 - s0) * (2.0 * (2.0 / 3.0) - s0 - s1) / (2.0 * (7.0 / 72.0));
    let by_games = 6.0 * (s1 - s0) * (2.0 * (2.0 / 3.0) - s0 - s1) / (2.0 * (5.0 / 36.0));
    assert!((s.sprt_llr(&penta) - by_pairs).abs() < 1e-12, "{}", s.sprt_llr(&penta));
    assert!((s.sprt_llr(&trinomial) - by_games).abs() < 1e-12, "{}", s.sprt_llr(&trinomial));
    let line = s.sprt_line(&penta);
    assert!(line.starts_with("SPRT elo0=0 elo1=10 alpha=0.05 beta=0.05: LLR "), "{line}");
    assert!(line.ends_with("no decision yet [pentanomial, 3 pairs]"), "{line}");
    assert!(s.sprt_line(&trinomial).ends_with("[trinomial, 6 games]"));
    assert!(by_pairs < by_games);
}
