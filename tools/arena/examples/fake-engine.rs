//! A protocol engine for the arena's tests: plays tic-tac-toe correctly
//! through the dynamic layer, or misbehaves on purpose at its N-th `go`.
//!
//! `fake-engine [--mode M] [--at N] [--delay MS] [--score S]`; any other arguments
//! (`engine --game G`) are ignored, so it can also stand in for `igroteka
//! engine`. Modes, acting at the N-th `go` (default 1): `normal`; `crash`
//! (exits); `hang` (stops answering at the `isready` before it, N >= 2);
//! `hang-search` (stops answering at the `go`); `late` (sleeps MS, default
//! 2000, then answers); `illegal` (an occupied or unknown cell); `garbage`
//! (a line that is not UTF-8); `liar` (always says `response p1win` to
//! `query result` at the end); `no-bestmove` (answers everything but never
//! `bestmove`); `other-game` (declares a `Game` option without tic-tac-toe);
//! `flood` (endless `info` lines instead of a `bestmove`). Modes that act
//! whenever they can: `no-ugiok` (never ends its answer to `ugi`);
//! `deaf-search` (no `readyok` while a `go infinite` search runs);
//! `ignore-stop` (`stop` ends no search); `ignore-quit` (neither `quit` nor
//! the end of its input ends it). A `go infinite` search answers at `stop`.
//! A crash says why on stderr first. `--score S` (`cp -700`, `win 3`,
//! `loss 4`, `none`) is the score its `info` line reports with every move,
//! instead of its search's (for the arena's adjudication tests); with
//! `--mode multipv` that line is `multipv 1`, and a `multipv 2` line with
//! `score cp -900` follows it, as a `MultiPV` search reports a worse
//! alternative after the best line. The
//! `go`s are counted per game (`uginewgame`), which is answered `info
//! string fake-engine: process PID game N`, N counting the games of this
//! process.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use board_core::Score;
use board_core::tictactoe::TicTacToe;
use protocol::{
    EngineMessage, Go, GuiMessage, Lines, MoveToken, OptionDecl, OptionKind, PositionBase, Query,
    SearchInfo, result_word,
};
use search::{EngineKind, GameEntry, Limits, Memory, SearchGame, Think};

/// The largest `Seed` the fake engine takes (it declares `0..MAX_SEED`).
const MAX_SEED: u64 = 1_000_000_000;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let flag =
        |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let mode = flag("--mode").unwrap_or_else(|| "normal".to_owned());
    let at: u32 = flag("--at").and_then(|v| v.parse().ok()).unwrap_or(1);
    let delay = Duration::from_millis(flag("--delay").and_then(|v| v.parse().ok()).unwrap_or(2000));
    let fixed_score = flag("--score").map(|text| match text.split_once(' ') {
        Some(("cp", n)) => n.parse().ok().map(Score::Cp),
        Some(("win", n)) => n.parse().ok().map(Score::Win),
        Some(("loss", n)) => n.parse().ok().map(Score::Loss),
        _ => None,
    });
    let entry = GameEntry::of::<TicTacToe>();
    let start = || entry.start("standard").unwrap_or_else(|e| unreachable!("{e}"));
    let mut pos: Box<dyn SearchGame> = start();
    let mut think = Think { engine: EngineKind::Random, ..Think::default() };
    let mut gos = 0;
    let mut games = 0;
    // The answer of a `go infinite` search, written at `stop`.
    let mut pending: Option<EngineMessage> = None;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in Lines::new(std::io::stdin().lock()) {
        let Ok(line) = line else { break };
        let replies = match line.parse::<GuiMessage>() {
            Ok(GuiMessage::Ugi | GuiMessage::Uci) => {
                let mut answer = identify(mode == "other-game");
                if mode == "no-ugiok" {
                    answer.pop();
                }
                answer
            }
            Ok(GuiMessage::IsReady) => {
                if mode == "hang" && gos > 0 && gos + 1 >= at {
                    hang();
                }
                if mode == "deaf-search" && pending.is_some() {
                    continue;
                }
                vec![EngineMessage::ReadyOk]
            }
            Ok(GuiMessage::Stop) => match pending.take() {
                Some(_) if mode == "ignore-stop" => continue,
                Some(best) => vec![best],
                None => continue,
            },
            Ok(GuiMessage::SetOption { name, value }) => {
                // As the real engine: a value out of the declared range or an
                // unknown option is answered with an error and changes nothing.
                let value = value.unwrap_or_default();
                if name.eq_ignore_ascii_case("engine") {
                    think.engine = value.parse().unwrap_or(EngineKind::Random);
                    continue;
                } else if name.eq_ignore_ascii_case("seed") {
                    match value.parse() {
                        Ok(seed) if seed <= MAX_SEED => {
                            think.seed = seed;
                            continue;
                        }
                        _ => vec![EngineMessage::InfoString(format!(
                            "error: Seed: bad value '{value}' (0 to {MAX_SEED})"
                        ))],
                    }
                } else if name.eq_ignore_ascii_case("maxplies") {
                    continue;
                } else {
                    vec![EngineMessage::InfoString(format!("error: unknown option '{name}'"))]
                }
            }
            Ok(GuiMessage::NewGame) => {
                // `--at N` counts the `go`s of each game, kept process or not.
                games += 1;
                gos = 0;
                pos = start();
                let pid = std::process::id();
                vec![EngineMessage::InfoString(format!("fake-engine: process {pid} game {games}"))]
            }
            Ok(GuiMessage::Position { base, moves }) => {
                pos = position(&entry, &base, &moves).unwrap_or_else(start);
                continue;
            }
            Ok(GuiMessage::Query(Query::GameOver)) => {
                vec![EngineMessage::Response(pos.outcome().is_some().to_string())]
            }
            Ok(GuiMessage::Query(Query::P1Turn)) => {
                let p1 = pos.side_to_move() == board_core::Player::First;
                vec![EngineMessage::Response(p1.to_string())]
            }
            Ok(GuiMessage::Query(Query::Result)) => {
                let word = result_word(pos.outcome());
                let word = if mode == "liar" && word != result_word(None) { "p1win" } else { word };
                vec![EngineMessage::Response(word.to_owned())]
            }
            Ok(GuiMessage::Go(go)) => {
                gos += 1;
                let misbehave = gos == at;
                match mode.as_str() {
                    "crash" if misbehave => {
                        eprintln!("fake-engine: crashing on purpose at go {gos}");
                        std::process::exit(3)
                    }
                    "no-bestmove" if misbehave => continue,
                    "flood" if misbehave => loop {
                        let info = EngineMessage::InfoString("flooding on purpose".to_owned());
                        if writeln!(out, "{info}").is_err() {
                            std::process::exit(0);
                        }
                    },
                    "hang-search" if misbehave => hang(),
                    "garbage" if misbehave => {
                        let _ = out.write_all(b"\xff\xfe\xfd garbage\n");
                        let _ = out.flush();
                        continue;
                    }
                    "illegal" if misbehave => {
                        let legal = pos.legal_move_texts();
                        let bad = (0..9).map(|c| format!("c{c}")).find(|m| !legal.contains(m));
                        let bad = bad.unwrap_or_else(|| "c9".to_owned());
                        vec![EngineMessage::BestMove(MoveToken::new(bad).ok())]
                    }
                    _ => {
                        if mode == "late" && misbehave {
                            std::thread::sleep(delay);
                        }
                        let seeded = Think {
                            limits: limits(&go),
                            seed: think.seed ^ u64::from(gos),
                            ..think.clone()
                        };
                        let (best, info) = pos.think(
                            &seeded,
                            &mut Memory::default(),
                            &AtomicBool::new(false),
                            &mut |_| {},
                        );
                        let multipv = mode == "multipv";
                        let line = SearchInfo {
                            depth: Some(info.depth),
                            multipv: multipv.then_some(1),
                            score: fixed_score.unwrap_or(Some(info.score)),
                            nodes: Some(info.nodes),
                            ..SearchInfo::default()
                        };
                        let worse = SearchInfo {
                            multipv: Some(2),
                            score: Some(Score::Cp(-900)),
                            ..line.clone()
                        };
                        let mut infos = vec![EngineMessage::Info(line)];
                        if multipv {
                            infos.push(EngineMessage::Info(worse));
                        }
                        let best =
                            EngineMessage::BestMove(best.and_then(|mv| MoveToken::new(mv).ok()));
                        if go.infinite {
                            pending = Some(best);
                        } else {
                            infos.push(best);
                        }
                        infos
                    }
                }
            }
            Ok(GuiMessage::Quit) if mode == "ignore-quit" => continue,
            Ok(GuiMessage::Quit) => break,
            Ok(_) => continue,
            Err(e) => vec![EngineMessage::InfoString(format!("error: {e}"))],
        };
        for reply in replies {
            let _ = writeln!(out, "{reply}");
        }
        let _ = out.flush();
    }
    if mode == "ignore-quit" {
        hang();
    }
}

/// The answer to `ugi`; `other_game`: with a `Game` option that offers
/// chess only.
fn identify(other_game: bool) -> Vec<EngineMessage> {
    let engines = ["alphabeta", "mcts", "random"].map(str::to_owned).to_vec();
    let game = OptionDecl {
        name: "Game".to_owned(),
        kind: OptionKind::Combo { default: "chess".to_owned(), vars: vec!["chess".to_owned()] },
    };
    let game = other_game.then_some(EngineMessage::Option(game));
    game.into_iter()
        .chain([
            EngineMessage::IdName("fake-engine".to_owned()),
            EngineMessage::IdAuthor("arena tests".to_owned()),
            EngineMessage::Option(OptionDecl {
                name: "Engine".to_owned(),
                kind: OptionKind::Combo { default: "random".to_owned(), vars: engines },
            }),
            EngineMessage::Option(OptionDecl {
                name: "Seed".to_owned(),
                kind: OptionKind::Spin { default: 0, min: 0, max: MAX_SEED as i64 },
            }),
            EngineMessage::UgiOk,
        ])
        .collect()
}

fn hang() -> ! {
    loop {
        std::thread::sleep(Duration::from_secs(3600));
    }
}

fn position(
    entry: &GameEntry,
    base: &PositionBase,
    moves: &[MoveToken],
) -> Option<Box<dyn SearchGame>> {
    let mut pos = match base {
        PositionBase::StartPos => entry.start("standard").ok()?,
        PositionBase::Fen(text) => entry.from_text(text, "standard").ok()?,
    };
    for mv in moves {
        pos.play_move_text(mv).ok()?;
    }
    Some(pos)
}

/// A search limit from `go`: its depth, nodes and movetime, or a twentieth
/// of the first player's clock.
fn limits(go: &Go) -> Limits {
    Limits {
        depth: go.depth,
        nodes: go.nodes,
        time: go.movetime.or(go.p1time.map(|t| t / 20)).map(Duration::from_millis),
        plies_left: None,
    }
}
