//! Whole engine sessions over in-memory I/O: scripted, interactive (through
//! pipes, for commands sent while a search runs), fuzzed, and the command
//! pattern of a UGI tournament manager (Cute Games: `uci`/`ugi`, `isready`,
//! `position ... moves`, `go`, `query`).

mod common;
mod race;

use std::io::{self, BufReader, Cursor, Write};
use std::sync::LazyLock;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use board_core::Rng;
use board_core::tictactoe::TicTacToe;
use pretty_assertions::assert_eq;
use protocol::{EngineMessage, EngineSettings, GuiMessage, run_engine};
use search::{GameEntry, find_game};

use common::{Shared, settings};
use race::Race;

static GAMES: LazyLock<Vec<GameEntry>> =
    LazyLock::new(|| vec![GameEntry::of::<TicTacToe>(), GameEntry::of::<Race>()]);

const WAIT: Duration = Duration::from_secs(20);

/// Runs `script` (then the end of input) through a tic-tac-toe engine.
fn run(script: &str) -> Vec<String> {
    run_game("tictactoe", script)
}

fn run_game(game: &str, script: &str) -> Vec<String> {
    run_bytes(game, script.as_bytes().to_vec())
}

fn run_bytes(game: &str, input: Vec<u8>) -> Vec<String> {
    common::session(&GAMES, game, input)
}

/// The lines that are not search `info` lines.
fn answers(lines: &[String]) -> Vec<&str> {
    lines
        .iter()
        .map(String::as_str)
        .filter(|l| !l.starts_with("info") || l.starts_with("info string"))
        .collect()
}

/// Writes each line to a channel.
struct LineSender {
    partial: Vec<u8>,
    lines: Sender<String>,
}

impl Write for LineSender {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.partial.extend_from_slice(buf);
        while let Some(end) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=end).collect();
            let _ = self.lines.send(String::from_utf8_lossy(&line).trim_end().to_owned());
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// An engine running on its own thread, fed through a pipe.
struct Live {
    input: Option<io::PipeWriter>,
    lines: Receiver<String>,
    engine: JoinHandle<io::Result<()>>,
}

impl Live {
    fn start(game: &str) -> Self {
        let (reader, writer) = io::pipe().unwrap();
        let (sender, lines) = mpsc::channel();
        let output = LineSender { partial: Vec::new(), lines: sender };
        let settings = settings(game);
        let engine =
            thread::spawn(move || run_engine(&GAMES, settings, BufReader::new(reader), output));
        Live { input: Some(writer), lines, engine }
    }

    fn send(&mut self, line: &str) {
        let input = self.input.as_mut().unwrap();
        writeln!(input, "{line}").unwrap();
        input.flush().unwrap();
    }

    /// The next line that is not a search `info` line, within `WAIT`.
    fn answer(&self) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            let line = self
                .lines
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
                .expect("the engine did not answer");
            if !line.starts_with("info") || line.starts_with("info string") {
                return line;
            }
        }
    }

    fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.answer()
    }

    /// No line at all for `wait`.
    fn silent_for(&self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut seen = Vec::new();
        loop {
            match self.lines.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(line) => seen.push(line),
                Err(RecvTimeoutError::Timeout) => return seen,
                Err(RecvTimeoutError::Disconnected) => panic!("the engine ended"),
            }
        }
    }

    /// Closes the input; returns the remaining lines.
    fn finish(mut self) -> Vec<String> {
        self.input = None;
        self.engine.join().unwrap().unwrap();
        self.lines.try_iter().collect()
    }
}

#[test]
fn ugi_identifies_and_declares_every_option() {
    let lines = run("ugi\nuci\n");
    let options = [
        "option name Game type combo default tictactoe var tictactoe var race",
        "option name Variant type combo default standard var standard var short var long",
        "option name Engine type combo default alphabeta var alphabeta var mcts var random",
        "option name Hash type spin default 16 min 1 max 1024",
        "option name Threads type spin default 1 min 1 max 256",
        "option name Seed type spin default 0 min 0 max 2147483647",
        "option name MoveOverhead type spin default 50 min 0 max 10000",
        "option name MaxPlies type spin default 0 min 0 max 1000000",
        "option name Tablebase type check default true",
        "option name MultiPV type spin default 1 min 1 max 64",
        "option name Evaluation type combo default classic var classic var learned",
        "option name EvalFile type string default <empty>",
    ];
    let mut expected = vec!["id name Test Engine", "id author Tester"];
    expected.extend(options);
    expected.push("ugiok");
    expected.extend(["id name Test Engine", "id author Tester"]);
    expected.extend(options);
    expected.push("uciok");
    assert_eq!(lines, expected);
    for line in &lines {
        assert_eq!(line.parse::<EngineMessage>().unwrap().to_string(), *line);
    }
}

#[test]
fn the_command_line_game_and_variant_are_the_initial_values() {
    let mut settings = settings("RACE");
    settings.variant = Some("Long".to_owned());
    let out = Shared::default();
    run_engine(&GAMES, settings, Cursor::new("ugi\nquery fen\n"), out.clone()).unwrap();
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    assert!(text.contains("option name Game type combo default race "), "{text}");
    assert!(text.contains("option name Variant type combo default long "), "{text}");
    assert!(text.ends_with("response 0 0 0 1\n"), "{text}");

    let default = EngineSettings::default();
    assert!(default.name.starts_with("Igroteka"));
    let out = Shared::default();
    run_engine(&GAMES, default, Cursor::new("query fen\n"), out.clone()).unwrap();
    assert_eq!(out.0.lock().unwrap().as_slice(), b"response ......... x\n");
}

#[test]
fn unknown_game_or_variant_in_the_settings_is_an_error() {
    let error = run_engine(&GAMES, settings("chess"), Cursor::new(""), io::sink()).unwrap_err();
    assert_eq!(error.to_string(), "unknown game 'chess' (games: tictactoe, race)");
    let mut bad_variant = settings("race");
    bad_variant.variant = Some("medium".to_owned());
    let error = run_engine(&GAMES, bad_variant, Cursor::new(""), io::sink()).unwrap_err();
    assert!(error.to_string().contains("no variant 'medium'"), "{error}");
    assert!(run_engine(&[], settings(""), Cursor::new(""), io::sink()).is_err());
}

#[test]
fn isready_stop_and_newgame() {
    assert_eq!(run("isready\nstop\nuginewgame\nucinewgame\nisready\n"), ["readyok", "readyok"]);
}

#[test]
fn queries_at_the_start() {
    let lines = run("query gameover\nquery p1turn\nquery result\nquery score\nquery moves\n\
                     query islegal c4\nquery islegal c9\nquery islegal zz\nquery fen\n");
    assert_eq!(
        lines,
        [
            "response false",
            "response true",
            "response none",
            "response none",
            "response c0 c1 c2 c3 c4 c5 c6 c7 c8",
            "response true",
            "response false",
            "response false",
            "response ......... x",
        ]
    );
}

/// `query islegal` with two words was answered for the first and the rest
/// ignored, so a client checking "c4 c0" played two moves (issue 30).
#[test]
fn islegal_with_two_words_is_an_error_not_a_yes() {
    let lines = run("query islegal c4 c0\nquery islegal c4\u{a0}c0\nquery islegal c4\n");
    assert_eq!(
        lines,
        [
            "info string error: query islegal: expected one move, found 2 words 'c4 c0'",
            "response error query islegal: expected one move, found 2 words 'c4 c0'",
            "info string error: query islegal: expected one move, found 2 words 'c4 c0'",
            "response error query islegal: expected one move, found 2 words 'c4 c0'",
            "response true",
        ]
    );
}

#[test]
fn position_startpos_and_fen_with_moves() {
    let lines = run("position startpos moves c4\nquery p1turn\nquery fen\n\
                     position startpos moves c4\nposition startpos moves c4 c0 c8\nquery fen\n\
                     position startpos moves c1\nquery fen\n\
                     position fen xo....... x moves c4 c8\nquery fen\nquery p1turn\n\
                     position FEN x o x\nquery fen\n");
    assert_eq!(
        lines,
        [
            "response false",
            "response ....x.... o",
            "response o...x...x o",
            "response .x....... o",
            "response xo..x...o x",
            "response true",
            "info string error: invalid position: expected 9 cells ('x o x')",
            "response xo..x...o x",
        ]
    );
}

#[test]
fn player_one_is_fixed_when_the_other_side_is_to_move() {
    let lines = run("position fen x........ o\nquery p1turn\nposition fen xo.xo.... x \
                     moves c6\nquery gameover\nquery result\nposition fen xx.oo.... o \
                     moves c5\nquery result\n");
    assert_eq!(lines, ["response false", "response true", "response p1win", "response p2win"]);
}

#[test]
fn go_answers_info_lines_and_exactly_one_legal_bestmove() {
    let lines = run("position startpos moves c0 c4\ngo depth 3\nisready\n");
    let info = lines.iter().find(|l| l.starts_with("info depth")).expect("an info line");
    for field in [" seldepth ", " score ", " nodes ", " nps ", " time ", " pv "] {
        assert!(info.contains(field), "{info}");
    }
    assert!(matches!(info.parse::<EngineMessage>(), Ok(EngineMessage::Info(_))));
    let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(best.len(), 1, "{lines:?}");
    let mv = best[0].strip_prefix("bestmove ").unwrap();
    assert!(["c1", "c2", "c3", "c5", "c6", "c7", "c8"].contains(&mv), "{mv}");
    assert_eq!(best[0].split_whitespace().count(), 2);
}

#[test]
fn a_proven_win_is_scored_in_plies() {
    let mut live = Live::start("tictactoe");
    live.send("position fen xx.oo.... x");
    live.send("go depth 4");
    let mut lines = Vec::new();
    loop {
        let line = live.lines.recv_timeout(WAIT).unwrap();
        lines.push(line.clone());
        if line.starts_with("bestmove") {
            break;
        }
    }
    assert!(lines.iter().any(|l| l.contains(" score win 1 ")), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "bestmove c2");
    live.finish();
}

#[test]
fn every_engine_kind_and_limit_answers() {
    for engine in ["alphabeta", "mcts", "random"] {
        for go in ["go nodes 200", "go movetime 30", "go p1time 500 p2time 500 p1inc 5 p2inc 5"] {
            let lines = run(&format!(
                "setoption name engine value {engine}\nposition startpos\n\
                                      {go}\nisready\n"
            ));
            let best = lines.iter().filter(|l| l.starts_with("bestmove c")).count();
            assert_eq!(best, 1, "{engine} {go}: {lines:?}");
        }
    }
}

#[test]
fn go_on_a_finished_game_answers_bestmove_none() {
    let lines = run("position startpos moves c0 c3 c1 c4 c2\nquery gameover\ngo depth 2\n\
                     go infinite\nquery moves\n");
    assert_eq!(lines, ["response true", "bestmove (none)", "bestmove (none)", "response"]);
}

#[test]
fn go_infinite_holds_its_bestmove_until_stop() {
    let mut live = Live::start("tictactoe");
    live.send("position startpos");
    live.send("go infinite");
    let early = live.silent_for(Duration::from_millis(300));
    assert!(early.iter().all(|l| !l.starts_with("bestmove")), "{early:?}");
    assert_eq!(live.ask("isready"), "readyok");
    assert_eq!(live.ask("query p1turn"), "response true");
    let best = live.ask("stop");
    assert!(best.starts_with("bestmove c"), "{best}");
    assert_eq!(live.ask("isready"), "readyok");
    assert!(live.finish().is_empty());
}

#[test]
fn isready_and_stop_during_a_long_mcts_search() {
    let mut live = Live::start("race");
    live.send("setoption name Variant value long");
    live.send("setoption name Engine value mcts");
    // Infinite: a plain `go` may end early once MCTS-Solver proves the race.
    live.send("go infinite");
    thread::sleep(Duration::from_millis(50));
    let start = Instant::now();
    assert_eq!(live.ask("isready"), "readyok");
    assert!(start.elapsed() < Duration::from_millis(500));
    let best = live.ask("stop");
    assert!(best == "bestmove s1" || best == "bestmove s2", "{best}");
    live.finish();
}

#[test]
fn uci_clock_words_are_honoured() {
    // MCTS without a limit runs until `stop`: only the clock can end it
    // before `answer` gives up.
    let mut live = Live::start("race");
    live.send("uci");
    while live.answer() != "uciok" {}
    live.send("setoption name Variant value long");
    live.send("setoption name Engine value mcts");
    for go in ["go wtime 300 btime 100000 winc 0 binc 0", "go btime 300 wtime 100000 movestogo 1"] {
        // The first go is for p1 (UCI's white), the second for p2.
        assert!(live.ask(go).starts_with("bestmove s"), "{go}");
        live.send("position startpos moves s1");
    }
    live.finish();
}

#[test]
fn a_new_go_ends_the_running_search_with_its_bestmove() {
    let mut live = Live::start("tictactoe");
    live.send("go infinite");
    live.send("go depth 1");
    let first = live.answer();
    let second = live.answer();
    assert!(first.starts_with("bestmove c") && second.starts_with("bestmove c"));
    live.finish();
}

#[test]
fn quit_and_end_of_input_stop_the_search_and_answer_it() {
    let mut live = Live::start("tictactoe");
    live.send("go infinite");
    live.send("quit");
    let rest = live.finish();
    assert_eq!(rest.iter().filter(|l| l.starts_with("bestmove c")).count(), 1, "{rest:?}");

    let lines = run("go infinite\n");
    assert_eq!(answers(&lines).iter().filter(|l| l.starts_with("bestmove c")).count(), 1);
    assert_eq!(run("quit\nisready\n"), Vec::<String>::new());
}

#[test]
fn an_illegal_history_move_ends_the_game_for_its_player() {
    let lines = run("position startpos moves c4 c0 c4 c1\nquery gameover\nquery result\n\
                     query p1turn\nquery fen\nquery moves\nquery islegal c2\ngo depth 3\n\
                     position startpos moves c4 zz\nquery result\n\
                     position startpos moves c4 c0\nquery gameover\n");
    assert_eq!(
        lines,
        [
            "info string error: move 3 of the history, 'c4', is illegal (illegal move 'c4': \
             cell taken); the game is over: p2 wins",
            "response true",
            "response p2win",
            "response true",
            "response o...x.... x",
            "response",
            "response false",
            "bestmove (none)",
            "info string error: move 2 of the history, 'zz', is illegal (cannot read move \
             'zz': expected c0..c8); the game is over: p1 wins",
            "response p1win",
            "response false",
        ]
    );
}

#[test]
fn moves_after_the_end_are_illegal_too() {
    let lines = run("position startpos moves c0 c3 c1 c4 c2 c5\nquery result\n");
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].contains("move 6 of the history, 'c5'"), "{}", lines[0]);
    assert_eq!(lines[1], "response p1win");
}

#[test]
fn max_plies_adjudicates() {
    let lines = run("setoption name MaxPlies value 2\nposition startpos moves c0\n\
                     query gameover\nposition startpos moves c0 c1\nquery gameover\n\
                     query result\ngo depth 1\nquery moves\nquery islegal c2\n\
                     setoption name maxplies value 0\nquery gameover\n\
                     setoption name MaxPlies value 1\nposition fen x........ o\nquery gameover\n");
    assert_eq!(
        lines,
        [
            "response false",
            "response true",
            "response draw",
            "bestmove (none)",
            "response",
            "response false",
            "response false",
            "response false",
        ]
    );
    let race = run_game(
        "race",
        "setoption name MaxPlies value 3\nposition startpos moves s2 s1 s2\n\
         query gameover\nquery result\nquery score\n",
    );
    assert_eq!(race, ["response true", "response p1win", "response 4 1"]);
}

/// The search is told the plies left before `MaxPlies`: a win in 5 is
/// reported with no cap and is no win when the cap comes first.
#[test]
fn the_search_sees_the_ply_cap() {
    let win = "position fen x.......o x\ngo depth 9\n";
    let last_info = |script: &str| {
        let lines = run(script);
        lines.iter().rev().find(|l| l.starts_with("info depth ")).cloned().unwrap_or_default()
    };
    let free = last_info(win);
    assert!(free.contains(" score win 5 "), "{free}");
    let capped = last_info(&format!("setoption name MaxPlies value 4\n{win}"));
    assert!(capped.starts_with("info depth 9 ") && capped.contains(" score cp 0 "), "{capped}");
}

#[test]
fn a_finished_game_with_a_score() {
    let lines = run_game(
        "race",
        "position fen 9 4 5 1 moves s1\nquery gameover\nquery result\nquery score\n",
    );
    assert_eq!(lines, ["response true", "response draw", "response 5 5"]);
}

#[test]
fn pieces_tell_the_running_score_the_result_and_a_forfeit() {
    let lines = run_game("race", "position fen 6 2 4 1\nquery pieces\nquery movepaths\n");
    assert_eq!(
        lines,
        [
            r#"response {"captured":null,"cells":[{"cell":"t6","stack":[{"kind":"counter","owner":1}]}],"game_over":false,"reason":null,"reserves":null,"result":null,"score":[2,4],"side_to_move":1}"#,
            r#"response {"moves":[{"move":"s1","path":["t7"]},{"move":"s2","path":["t8"]}]}"#,
        ]
    );
    let lines = run_game("race", "position fen 9 4 5 1 moves s1\nquery pieces\nquery movepaths\n");
    assert!(lines[0].contains(r#""game_over":true,"reason":"equal points""#), "{}", lines[0]);
    assert!(lines[0].contains(r#""result":"draw","score":[5,5],"side_to_move":2"#), "{}", lines[0]);
    assert_eq!(lines[1], r#"response {"moves":[]}"#);
    let lines = run("position startpos moves c4 c4\nquery pieces\n");
    assert!(lines[1].contains(r#""game_over":true,"reason":"illegal move""#), "{}", lines[1]);
    assert!(lines[1].contains(r#""result":"p1win""#), "{}", lines[1]);
}

#[test]
fn tictactoe_board() {
    let lines = run("query board\n");
    let expected = [
        r#"response {"cells":["#,
        r#"{"class":"cell","name":"c6","polygon":[[0.5,2.5],[1.5,2.5],[1.5,3.5],[0.5,3.5]],"x":1.0,"y":3.0},"#,
    ];
    assert!(lines[0].starts_with(&expected.concat()), "{}", lines[0]);
    assert!(lines[0].ends_with(
            r##""players":[{"colour":"#c62828","name":"X"},{"colour":"#1565c0","name":"O"}],"reserves":false,"variant":"standard","width":4.0}"##
        ), "{}", lines[0]);
}

#[test]
fn multipv_takes_1_to_64_lines_and_says_what_is_wrong() {
    let lines = run("setoption name MultiPV value 0\nsetoption name MultiPV value 65\n\
                     setoption name multipv value three\nsetoption name MultiPV value 3\n\
                     setoption name MultiPV value\nugi\n");
    let error = |value: &str| {
        format!(
            "info string error: MultiPV: bad value '{value}' (expected an integer from 1 to 64)"
        )
    };
    assert_eq!(answers(&lines)[..4], [error("0"), error("65"), error("three"), error("")]);
    assert!(
        lines.contains(&"option name MultiPV type spin default 3 min 1 max 64".to_owned()),
        "{lines:?}"
    );
}

/// `Evaluation learned` for a game without learned weights, a bad value,
/// and an `EvalFile` that cannot be read or is no weights file: one line
/// each, and the search goes on with the classic evaluation.
#[test]
fn a_learned_evaluation_that_does_not_load_is_refused_in_one_line() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("igroteka-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let garbage = dir.join("garbage.weights");
    std::fs::write(&garbage, b"IGRODATA not weights").unwrap();
    let missing = dir.join("missing.weights");
    let lines = run(&format!(
        "setoption name Evaluation value deep\nsetoption name Evaluation value learned\n\
         setoption name EvalFile value {}\nsetoption name EvalFile value {}\n\
         go depth 2\n",
        missing.display(),
        garbage.display()
    ));
    let answers = answers(&lines);
    assert_eq!(answers[0], "info string error: Evaluation: bad value 'deep' (classic or learned)");
    assert!(
        answers[1].starts_with(&format!("info string error: EvalFile: {}: ", missing.display())),
        "{}",
        answers[1]
    );
    assert_eq!(
        answers[2],
        format!(
            "info string error: EvalFile: {}: not a weights file (it does not start with IGROEVAL)",
            garbage.display()
        )
    );
    // Judged with the other options when the GUI is done (here at `go`).
    assert_eq!(
        answers[3],
        "info string error: Evaluation: tictactoe has no learned evaluation; searching with classic"
    );
    assert!(answers[4].starts_with("bestmove "), "{answers:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `Evaluation` is judged with the other options at `isready` (they may
/// come in any order: an `EvalFile` may follow it), once: a value set and
/// taken back says nothing, one that stands is reported once.
#[test]
fn evaluation_is_judged_when_the_options_are_done() {
    let lines = run("setoption name Evaluation value learned\n\
                     setoption name Evaluation value classic\nisready\n\
                     setoption name Evaluation value learned\nisready\nisready\ngo depth 1\n");
    let answers = answers(&lines);
    assert_eq!(answers[0], "readyok");
    assert_eq!(
        answers[1],
        "info string error: Evaluation: tictactoe has no learned evaluation; searching with classic"
    );
    assert_eq!(answers[2..4], ["readyok", "readyok"]);
    assert!(answers[4].starts_with("bestmove "), "{answers:?}");
}

#[test]
fn options_are_case_insensitive_and_bad_ones_change_nothing() {
    let lines = run("setoption name HASH value 2\nsetoption name hash value 0\n\
                     setoption name Hash value lots\nsetoption name Ponder value true\n\
                     setoption name engine value Random\nsetoption name Engine value deep\n\
                     setoption name seed value 7\nsetoption name MOVEOVERHEAD value 20\n\
                     setoption name threads value 4\nsetoption name Threads value 0\nugi\n");
    assert_eq!(
        answers(&lines)[..6],
        [
            "info string error: Hash: bad value '0' (expected an integer from 1 to 1024)",
            "info string error: Hash: bad value 'lots' (expected an integer from 1 to 1024)",
            "info string error: unknown option 'Ponder' (options: Game, Variant, Engine, Hash, \
             Threads, Seed, MoveOverhead, MaxPlies, Tablebase, MultiPV, Evaluation, EvalFile)",
            "info string error: Engine: unknown engine 'deep' (engines: alphabeta, mcts, random)",
            "info string error: Threads: bad value '0' (expected an integer from 1 to 256)",
            "id name Test Engine",
        ]
    );
    for expected in [
        "option name Engine type combo default random ",
        "option name Hash type spin default 2 ",
        "option name Seed type spin default 7 ",
        "option name MoveOverhead type spin default 20 ",
        "option name Threads type spin default 4 ",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(expected)), "{expected}: {lines:?}");
    }
}

#[test]
fn game_and_variant_options_switch_the_game() {
    let lines = run("position startpos moves c4\nsetoption name game value RACE\nquery fen\n\
                     query moves\nsetoption name variant value LONG\nposition startpos moves \
                     s2\nquery fen\nsetoption name Variant value huge\n\
                     setoption name Game value chess\nquery fen\nsetoption name Game value \
                     tictactoe\nquery fen\n");
    assert_eq!(
        lines,
        [
            "response 0 0 0 1",
            "response s1 s2",
            "response 2 2 0 2",
            "info string error: Variant: no game has a variant 'huge' (variants of race: short, \
             long)",
            "info string error: Game: unknown game 'chess' (games: tictactoe, race)",
            "response 2 2 0 2",
            "response ......... x",
        ]
    );
}

/// The variant line of `d`.
fn variant_shown(script: &str) -> Vec<String> {
    let lines = run_game("tictactoe", script);
    lines
        .into_iter()
        .filter(|l| l.starts_with("info string error") || l.contains(" variant "))
        .collect()
}

#[test]
fn game_and_variant_may_come_in_either_order() {
    let long = ["info string game race variant long to move Red (p1)"];
    assert_eq!(
        variant_shown(
            "setoption name Game value race\nsetoption name Variant value long\nisready\nd\n"
        ),
        long
    );
    assert_eq!(
        variant_shown(
            "setoption name Variant value long\nsetoption name Game value race\nisready\nd\n"
        ),
        long
    );
    // A variant of another game: an error when the GUI is done (`isready`,
    // or `go`), once; the game's default variant is played.
    let conflict = "info string error: Variant: tictactoe has no variant 'long' (variants: \
                    standard); playing standard";
    assert_eq!(
        variant_shown("setoption name Variant value long\nisready\nisready\nd\n"),
        [conflict, "info string game tictactoe variant standard to move X (p1)"]
    );
    let lines = run("setoption name Variant value long\ngo depth 1\n");
    assert_eq!(answers(&lines)[0], conflict);
    // Kept for the next game that has it.
    assert_eq!(
        variant_shown(
            "setoption name Game value race\nsetoption name Variant value long\n\
                       setoption name Game value tictactoe\nsetoption name Game value race\n\
                       isready\nd\n"
        ),
        long
    );
}

#[test]
fn d_draws_the_board() {
    let lines = run("position startpos moves c4\nd\n");
    assert!(lines.iter().all(|l| l.starts_with("info string ")), "{lines:?}");
    assert!(lines.contains(&"info string fen ....x.... o".to_owned()), "{lines:?}");
    assert!(
        lines.contains(&"info string game tictactoe variant standard to move O (p2)".to_owned()),
        "{lines:?}"
    );
}

#[test]
fn perft_counts_like_the_cli() {
    let lines = run("perft 3\nperft 0\nperft\n");
    let counts: Vec<(u32, u64)> = lines[..3]
        .iter()
        .map(|l| match l.parse::<EngineMessage>() {
            Ok(EngineMessage::Perft(count)) => (count.depth, count.nodes),
            other => panic!("{l}: {other:?}"),
        })
        .collect();
    assert_eq!(counts, [(1, 9), (2, 72), (3, 504)]);
    assert!(lines[0].starts_with("depth 1 nodes 9 time "), "{}", lines[0]);
    assert_eq!(
        lines[3..],
        [
            "info string error: perft: depth must be from 1 to 64",
            "info string error: perft: depth needs a value"
        ]
    );
}

#[test]
fn bench_counts_the_same_nodes_every_run() {
    let total = |game: &str| {
        let lines = run_game(game, "setoption name Hash value 1\nbench 4\n");
        let last = lines.last().unwrap();
        assert!(lines[..lines.len() - 1].iter().all(|l| l.starts_with("info string bench ")));
        match last.parse::<EngineMessage>() {
            Ok(EngineMessage::Bench(count)) => {
                assert_eq!(count.depth, 4);
                count.nodes
            }
            other => panic!("{last}: {other:?}"),
        }
    };
    for game in ["tictactoe", "race"] {
        let nodes = total(game);
        assert!(nodes > 0);
        assert_eq!(total(game), nodes);
    }
    // Both starts, the random positions whose game goes on, and the total.
    assert!(run_game("race", "bench\n").len() >= 3);
}

#[test]
fn bench_movetime_reports_the_depth_each_position_reached() {
    let lines = run_game("race", "bench movetime 20\n");
    let (last, notes) = lines.split_last().unwrap();
    let positions: Vec<&String> =
        notes.iter().filter(|l| l.starts_with("info string bench position ")).collect();
    assert!(positions.len() >= 2, "{lines:?}");
    let mut depths = Vec::new();
    for line in &positions {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[5], "depth", "{line}");
        depths.push(words[6].parse::<u32>().unwrap());
        assert_eq!(words[7], "nodes", "{line}");
    }
    assert!(depths.iter().all(|&d| d >= 1), "{depths:?}");
    let mean = f64::from(depths.iter().sum::<u32>()) / depths.len() as f64;
    assert!(
        notes.contains(&format!(
            "info string bench mean depth {mean:.2} over {} positions",
            depths.len()
        )),
        "{notes:?}"
    );
    match last.parse::<EngineMessage>() {
        Ok(EngineMessage::Bench(count)) => {
            assert_eq!(count.depth, depths.iter().sum::<u32>() / depths.len() as u32);
            assert!(count.nodes > 0);
        }
        other => panic!("{last}: {other:?}"),
    }
    for (input, error) in [
        ("bench movetime 0\n", "info string error: bench: movetime must be from 1 to 600000 ms"),
        ("bench movetime\n", "info string error: bench: movetime needs a value"),
        ("bench movetime soon\n", "info string error: bench: bad value 'soon' for movetime"),
    ] {
        assert_eq!(run_game("race", input), [error], "{input}");
    }
}

#[test]
fn perft_and_bench_wait_for_the_search_to_stop() {
    let mut live = Live::start("tictactoe");
    live.send("go infinite");
    assert_eq!(live.ask("perft 1"), "info string error: a search is running; send stop first");
    assert!(live.ask("stop").starts_with("bestmove"));
    assert!(live.ask("perft 1").starts_with("depth 1 nodes 9"));
    live.finish();
}

/// The manager's per-move commands, many times over: every answer comes, in
/// order (their speed is measured by hand, see docs/protocol.md; tests assert
/// no timings).
#[test]
fn many_small_commands_all_answer() {
    let mut script = String::new();
    for _ in 0..500 {
        script.push_str(
            "position startpos moves c4 c0 c8 c2 c1\nposition startpos moves c4 c0 \
                         c8 c2 c1 c7\nquery gameover\nquery p1turn\nuginewgame\nisready\n",
        );
    }
    let lines = run(&script);
    assert_eq!(lines.len(), 1500);
    // Six moves played: not over, and player 1 (X) to move.
    let odd = lines.chunks(3).find(|c| *c != ["response false", "response true", "readyok"]);
    assert_eq!(odd, None);
}

#[test]
fn garbage_never_crashes_the_loop_nor_stops_isready() {
    const WORDS: [&str; 40] = [
        "ugi",
        "isready",
        "setoption",
        "name",
        "value",
        "uginewgame",
        "position",
        "startpos",
        "fen",
        "moves",
        "go",
        "stop",
        "query",
        "gameover",
        "p1turn",
        "result",
        "score",
        "islegal",
        "d",
        "perft",
        "bench",
        "infinite",
        "depth",
        "nodes",
        "movetime",
        "p1time",
        "p2inc",
        "Engine",
        "MaxPlies",
        "Game",
        "race",
        "Variant",
        "c4",
        "c9",
        "s2",
        "x",
        "-3",
        "2",
        "0",
        "99999999999999999999999",
    ];
    let mut rng = Rng::new(11);
    // A small table: every `go` allocates its own.
    let mut input = b"setoption name Hash value 1\n".to_vec();
    let mut isready = 0;
    let mut gos = 0;
    for _ in 0..3000 {
        let mut line = Vec::new();
        match rng.below(10) {
            0 => line.extend((0..rng.below(40)).map(|_| (rng.next_u64() & 0xff) as u8)),
            1 => line.extend_from_slice(b"isready"),
            2 => line.extend_from_slice(format!("go {}", WORDS[rng.below(40)]).as_bytes()),
            _ => {
                let words: Vec<&str> =
                    (0..1 + rng.below(6)).map(|_| WORDS[rng.below(40)]).collect();
                line.extend_from_slice(words.join(" ").as_bytes());
            }
        }
        line.retain(|&b| b != b'\n');
        let text = String::from_utf8_lossy(&line);
        // Depth-free bench could be long on race long; keep the test quick.
        if text.trim_start().starts_with("bench") || text.split_whitespace().next() == Some("quit")
        {
            continue;
        }
        match text.parse::<GuiMessage>() {
            Ok(GuiMessage::Go(_)) => gos += 1,
            Ok(GuiMessage::IsReady) => isready += 1,
            _ => {}
        }
        input.extend_from_slice(&line);
        input.push(if rng.below(5) == 0 { b'\r' } else { b' ' });
        input.push(b'\n');
    }
    input.extend_from_slice(b"isready\n");
    let lines = run_bytes("tictactoe", input);
    assert_eq!(lines.iter().filter(|l| *l == "readyok").count(), isready + 1);
    assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove ")).count(), gos);
    assert!(isready > 200 && gos > 200, "{isready} {gos}");
    for line in &lines {
        assert!(line.parse::<EngineMessage>().is_ok(), "every answer is a typed message: {line}");
    }
}

#[test]
fn a_huge_bad_line_is_quoted_short() {
    let huge = "Z".repeat(1 << 19);
    let quoted = format!("'{}…'", "Z".repeat(80));
    let lines = [
        huge.clone(),
        format!("go depth {huge}"),
        format!("position {huge}"),
        format!("position fen {huge}"),
        format!("position startpos moves c4 {huge}"),
        format!("query {huge}"),
        format!("setoption name {huge} value 1"),
        format!("setoption name Hash value {huge}"),
        format!("setoption name Engine value {huge}"),
        format!("setoption name Game value {huge}"),
        format!("setoption name Variant value {huge}"),
    ];
    for line in lines {
        let mut answers = run(&format!("{line}\nisready\n"));
        if line.starts_with("query") {
            let response = answers.remove(1);
            assert!(response.starts_with("response error ") && response.len() < 500);
        }
        assert_eq!(answers.len(), 2, "{}", &line[..20]);
        assert!(answers[0].starts_with("info string error: "), "{}", &line[..20]);
        assert!(answers[0].contains(&quoted), "{}: {}", &line[..20], &answers[0][..100]);
        assert!(answers[0].chars().count() < 500, "{}: {}", &line[..20], answers[0].len());
        assert_eq!(answers[1], "readyok");
    }
}

/// The command pattern of the UGI manager transcripts: two engines, a clock,
/// `query p1turn` to engine 1 each move, `position` twice, `query gameover`
/// before each `go`, and both engines asked `query result` at the end.
fn play_like_the_manager(game: &str, variant: &str) {
    let entry = find_game(&GAMES, game).unwrap();
    let mut engines = [Live::start(game), Live::start(game)];
    for (i, engine) in engines.iter_mut().enumerate() {
        assert_eq!(engine.ask("ugi").split_whitespace().next(), Some("id"));
        while engine.answer() != "ugiok" {}
        engine.send(&format!("setoption name hash value {}", i + 1));
        engine.send(&format!("setoption name variant value {variant}"));
        assert_eq!(engine.ask("isready"), "readyok");
        engine.send("uginewgame");
    }
    let mut reference = entry.start(variant).unwrap();
    let mut moves: Vec<String> = Vec::new();
    let mut clock = [1000_i64, 1000];
    loop {
        let position = if moves.is_empty() {
            "position startpos".to_owned()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        let p1turn = reference.side_to_move() == board_core::Player::First;
        for _ in 0..2 {
            engines[0].send(&position);
            assert_eq!(engines[0].ask("query p1turn"), format!("response {p1turn}"));
        }
        let mover = usize::from(!p1turn);
        let engine = &mut engines[mover];
        assert_eq!(engine.ask("isready"), "readyok");
        engine.send(&position);
        engine.send(&position);
        let over = engine.ask("query gameover");
        assert_eq!(over, format!("response {}", reference.outcome().is_some()));
        if reference.outcome().is_some() {
            break;
        }
        let start = Instant::now();
        let best =
            engine.ask(&format!("go p1time {} p2time {} p1inc 10 p2inc 10", clock[0], clock[1]));
        clock[mover] -= i64::try_from(start.elapsed().as_millis()).unwrap();
        assert!(clock[mover] > 0, "{game}: lost on time");
        clock[mover] += 10;
        let tokens: Vec<&str> = best.split_whitespace().collect();
        assert_eq!(tokens.len(), 2, "{best}");
        assert_eq!(tokens[0], "bestmove");
        let played = reference.play_move_text(tokens[1]).expect("a legal bestmove");
        moves.push(played);
    }
    let expected = match reference.outcome().unwrap().winner {
        Some(board_core::Player::First) => "response p1win",
        Some(board_core::Player::Second) => "response p2win",
        None => "response draw",
    };
    let position = format!("position startpos moves {}", moves.join(" "));
    for engine in &mut engines {
        engine.send(&position);
        assert_eq!(engine.ask("query result"), expected);
    }
    for mut engine in engines {
        engine.send("quit");
        engine.finish();
    }
}

#[test]
fn two_engines_play_like_the_ugi_manager() {
    play_like_the_manager("tictactoe", "standard");
    play_like_the_manager("race", "short");
    play_like_the_manager("race", "long");
}

/// What a manager or a UCI GUI sends beyond UGI's core (issue 19).
#[test]
fn an_unknown_query_gets_an_error_response() {
    let lines = run("query colour\nquery\nquery gameover\n");
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert_eq!(lines[0], "info string error: unknown query 'colour'");
    assert_eq!(lines[1], "response error unknown query 'colour'");
    assert!(lines[3].starts_with("response error query: expected gameover"), "{lines:?}");
    assert_eq!(lines[4], "response false");
}

#[test]
fn debug_and_register_are_accepted_silently() {
    assert_eq!(
        run("debug on\ndebug off\nregister later\nregister name x code y\nisready\n"),
        ["readyok"]
    );
}

#[test]
fn uci_guis_get_mate_scores_in_moves() {
    let win = "position fen x.......o x\ngo depth 9\n";
    let last_info = |script: &str| {
        let lines = run(script);
        lines.iter().rev().find(|l| l.starts_with("info depth ")).cloned().unwrap_or_default()
    };
    assert!(last_info(win).contains(" score win 5 "));
    let uci = last_info(&format!("uci\n{win}"));
    assert!(uci.contains(" score mate 3 ") && !uci.contains(" win "), "{uci}");
    // Lost in 4 plies: mated in 2 moves.
    let lost = last_info("uci\nposition fen x...x..o. o\ngo depth 9\n");
    assert!(lost.contains(" score mate -2 "), "{lost}");
    // ugi again: plies.
    assert!(last_info(&format!("uci\nugi\n{win}")).contains(" score win 5 "));
}

#[test]
fn go_mate_searches_deep_enough_for_the_mate() {
    let lines = run("uci\nposition fen x.......o x\ngo mate 3\n");
    let last = lines.iter().rev().find(|l| l.starts_with("info depth ")).expect("info");
    assert!(last.contains(" score mate 3 "), "{lines:?}");
    assert!(lines.last().is_some_and(|l| l.starts_with("bestmove ")), "{lines:?}");
}

#[test]
fn searchmoves_restricts_the_root() {
    // c2 wins at once; searching only c5 and c6 must play one of them.
    for engine in ["alphabeta", "mcts", "random"] {
        let lines = run(&format!(
            "setoption name Engine value {engine}\nposition fen xx.oo.... x\n\
             go depth 3 searchmoves c5 c6\n"
        ));
        let best = lines.last().cloned().unwrap_or_default();
        assert!(best == "bestmove c5" || best == "bestmove c6", "{engine}: {lines:?}");
    }
    // No legal move among them: every move is searched.
    let lines = run("position fen xx.oo.... x\ngo depth 3 searchmoves c0 zz\n");
    assert_eq!(lines.last().map(String::as_str), Some("bestmove c2"), "{lines:?}");
}

#[test]
fn ponder_holds_its_bestmove_until_ponderhit_or_stop() {
    let mut live = Live::start("tictactoe");
    live.send("position startpos");
    live.send("go ponder depth 2");
    let early = live.silent_for(Duration::from_millis(300));
    assert!(early.iter().all(|l| !l.starts_with("bestmove")), "{early:?}");
    assert_eq!(live.ask("ponderhit").split(' ').next(), Some("bestmove"));
    assert!(live.silent_for(Duration::from_millis(200)).iter().all(|l| !l.starts_with("bestmove")));
    live.send("go ponder depth 2");
    assert_eq!(live.ask("stop").split(' ').next(), Some("bestmove"));
    assert_eq!(live.ask("ponderhit"), "info string error: ponderhit: not pondering");
    live.finish();
}

#[test]
fn a_movetime_within_the_overhead_is_warned_about() {
    let lines = run("go movetime 30\n");
    assert!(
        lines[0].starts_with("info string warning: movetime 30 ms is not above MoveOverhead 50 ms"),
        "{lines:?}"
    );
    assert!(run("go movetime 200\n").iter().all(|l| !l.contains("warning")));
}

#[test]
fn options_from_the_command_line_are_set_before_the_first_command() {
    let with = |options: &[(&str, &str)]| {
        let mut settings = common::settings("tictactoe");
        settings.options =
            options.iter().map(|(n, v)| ((*n).to_owned(), (*v).to_owned())).collect();
        let output = common::Shared::default();
        let input = b"position startpos moves c0\nquery gameover\n".to_vec();
        run_engine(&GAMES, settings, io::Cursor::new(input), output.clone()).map(|()| {
            let bytes = output.0.lock().unwrap().clone();
            String::from_utf8(bytes).unwrap().lines().map(str::to_owned).collect::<Vec<_>>()
        })
    };
    assert_eq!(with(&[("maxplies", "1")]).expect("runs"), ["response true"]);
    let error = with(&[("MaxPlies", "x")]).unwrap_err().to_string();
    assert!(error.starts_with("option MaxPlies=x: MaxPlies: bad value 'x'"), "{error}");
    let error = with(&[("Colour", "red")]).unwrap_err().to_string();
    assert!(error.contains("unknown option 'Colour'"), "{error}");
}
