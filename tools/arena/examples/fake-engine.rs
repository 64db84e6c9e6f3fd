//! A protocol engine for the arena's tests: plays tic-tac-toe correctly
//! through the dynamic layer, or misbehaves on purpose at its N-th `go`.
//!
//! `fake-engine [--mode M] [--at N] [--delay MS]`; any other arguments
//! (`engine --game G`) are ignored, so it can also stand in for `igroteka
//! engine`. Modes, acting at the N-th `go` (default 1): `normal`; `crash`
//! (exits); `hang` (stops answering at the `isready` before it, N >= 2);
//! `hang-search` (stops answering at the `go`); `late` (sleeps MS, default
//! 2000, then answers); `illegal` (an occupied or unknown cell); `garbage`
//! (a line that is not UTF-8); `liar` (always says `response p1win` to
//! `query result` at the end).

use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use board_core::tictactoe::TicTacToe;
use search::{EngineKind, GameEntry, Limits, Memory, SearchGame, Think};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flag =
        |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let mode = flag("--mode").unwrap_or_else(|| "normal".to_owned());
    let at: u32 = flag("--at").and_then(|v| v.parse().ok()).unwrap_or(1);
    let delay = Duration::from_millis(flag("--delay").and_then(|v| v.parse().ok()).unwrap_or(2000));
    let entry = GameEntry::of::<TicTacToe>();
    let start = || entry.start("standard").unwrap_or_else(|e| unreachable!("{e}"));
    let mut pos: Box<dyn SearchGame> = start();
    let mut think = Think { engine: EngineKind::Random, ..Think::default() };
    let mut gos = 0;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let reply = match words.as_slice() {
            ["ugi", ..] => "id name fake-engine\nid author arena tests\n\
                 option name Engine type combo default random var alphabeta var mcts var random\n\
                 option name Seed type spin default 0 min 0 max 1000000000\nugiok"
                .to_owned(),
            ["isready", ..] => {
                if mode == "hang" && gos > 0 && gos + 1 >= at {
                    hang();
                }
                "readyok".to_owned()
            }
            ["setoption", "name", name, "value", value, ..] => {
                if name.eq_ignore_ascii_case("engine") {
                    think.engine = value.parse().unwrap_or(EngineKind::Random);
                } else if name.eq_ignore_ascii_case("seed") {
                    think.seed = value.parse().unwrap_or(0);
                }
                continue;
            }
            ["uginewgame", ..] => {
                pos = start();
                continue;
            }
            ["position", rest @ ..] => {
                pos = position(&entry, rest).unwrap_or_else(start);
                continue;
            }
            ["query", "result", ..] => {
                let word = match pos.outcome().map(|o| o.result_text()) {
                    Some("1-0") => "p1win",
                    Some("0-1") => "p2win",
                    Some(_) => "draw",
                    None => "none",
                };
                let word = if mode == "liar" && word != "none" { "p1win" } else { word };
                format!("response {word}")
            }
            ["go", rest @ ..] => {
                gos += 1;
                let misbehave = gos == at;
                match mode.as_str() {
                    "crash" if misbehave => std::process::exit(3),
                    "hang-search" if misbehave => hang(),
                    "garbage" if misbehave => {
                        let _ = out.write_all(b"\xff\xfe\xfd garbage\n");
                        let _ = out.flush();
                        continue;
                    }
                    "illegal" if misbehave => {
                        let legal = pos.legal_move_texts();
                        let bad = (0..9).map(|c| format!("c{c}")).find(|m| !legal.contains(m));
                        format!("bestmove {}", bad.unwrap_or_else(|| "c9".to_owned()))
                    }
                    _ => {
                        if mode == "late" && misbehave {
                            std::thread::sleep(delay);
                        }
                        let seeded = Think {
                            limits: limits(rest),
                            seed: think.seed ^ u64::from(gos),
                            ..think
                        };
                        let (best, info) = pos.think(
                            &seeded,
                            &mut Memory::default(),
                            &AtomicBool::new(false),
                            &mut |_| {},
                        );
                        format!(
                            "info depth {} score {} nodes {}\nbestmove {}",
                            info.depth,
                            info.score,
                            info.nodes,
                            best.unwrap_or_else(|| "(none)".to_owned())
                        )
                    }
                }
            }
            ["quit", ..] => break,
            _ => "info string error: unknown command".to_owned(),
        };
        let _ = writeln!(out, "{reply}");
        let _ = out.flush();
    }
}

fn hang() -> ! {
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}

fn position(entry: &GameEntry, words: &[&str]) -> Option<Box<dyn SearchGame>> {
    let moves_at = words.iter().position(|w| *w == "moves").unwrap_or(words.len());
    let mut pos = match *words.first()? {
        "startpos" => entry.start("standard").ok()?,
        "fen" => entry.from_text(&words[1..moves_at].join(" "), "standard").ok()?,
        _ => return None,
    };
    for mv in words.get(moves_at + 1..).unwrap_or_default() {
        pos.play_move_text(mv).ok()?;
    }
    Some(pos)
}

fn limits(words: &[&str]) -> Limits {
    let value = |name: &str| {
        words
            .iter()
            .position(|w| *w == name)
            .and_then(|i| words.get(i + 1))
            .and_then(|v| v.parse::<u64>().ok())
    };
    Limits {
        depth: value("depth").map(|d| d as u32),
        nodes: value("nodes"),
        time: value("movetime").or(value("p1time").map(|t| t / 20)).map(Duration::from_millis),
    }
}
