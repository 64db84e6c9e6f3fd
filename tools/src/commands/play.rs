//! `igroteka play`: a person against a built-in engine in the terminal.

use std::io::Write;

use board_core::Player;
use clap::{Args, ValueEnum};
use search::{EngineKind, Memory, SearchGame};

use super::engine_args::{LimitArgs, best_move};
use crate::position::PositionArgs;

/// Play against a built-in engine.
#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// The engine you play against.
    #[arg(long, default_value = "alphabeta")]
    engine: EngineKind,
    /// Which side you play.
    #[arg(long, value_enum, default_value_t = Side::First)]
    side: Side,
    #[command(flatten)]
    limits: LimitArgs,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Side {
    First,
    Second,
}

const HELP: &str = "type a move, or: moves (list legal moves), board, undo, help, quit";

pub fn run(args: &PlayArgs) -> anyhow::Result<()> {
    let (entry, start) = args.position.position()?;
    let human = match args.side {
        Side::First => Player::First,
        Side::Second => Player::Second,
    };
    let names = entry.player_names;
    let mut out = std::io::stdout();
    writeln!(out, "You play {} against {}. {HELP}", names[human], args.engine)?;
    let mut history: Vec<Box<dyn SearchGame>> = vec![start];
    let stdin = std::io::stdin();
    let mut lines = protocol::Lines::new(stdin.lock());
    let mut show_board = true;
    let mut memory = Memory::default();
    while let Some(pos) = history.last() {
        if show_board {
            writeln!(out, "\n{}", pos.board_text())?;
        }
        show_board = true;
        if let Some(outcome) = pos.outcome() {
            writeln!(out, "Game over: {outcome}")?;
            return Ok(());
        }
        if pos.side_to_move() != human {
            let think = args.limits.think(args.engine, history.len() as u64);
            let Some((mv, info)) = best_move(pos.as_ref(), &think, &mut memory) else { break };
            let mut next = pos.clone();
            next.play_move_text(&mv)?;
            writeln!(
                out,
                "{} plays {mv}   (score {}, depth {}, {} nodes)",
                names[human.other()],
                info.score,
                info.depth,
                info.nodes
            )?;
            history.push(next);
            continue;
        }
        write!(out, "{} to move> ", names[human])?;
        out.flush()?;
        let Some(line) = lines.next() else {
            writeln!(out)?;
            return Ok(());
        };
        let line = line?;
        match line.trim() {
            "" => show_board = false,
            "quit" | "exit" => return Ok(()),
            "help" => {
                writeln!(out, "{HELP}")?;
                show_board = false;
            }
            "board" => {}
            "moves" => {
                writeln!(out, "{}", pos.legal_move_texts().join(" "))?;
                show_board = false;
            }
            "undo" => {
                // Back to the previous position where it is your turn.
                let keep = history.len().saturating_sub(1);
                let back = history[..keep].iter().rposition(|p| p.side_to_move() == human);
                match back {
                    Some(i) => history.truncate(i + 1),
                    None => {
                        writeln!(out, "nothing to undo")?;
                        show_board = false;
                    }
                }
            }
            text => {
                let mut next = pos.clone();
                match next.play_move_text(text) {
                    Ok(_) => history.push(next),
                    Err(e) => {
                        writeln!(out, "{e} (type 'moves' for the legal moves)")?;
                        show_board = false;
                    }
                }
            }
        }
    }
    Ok(())
}
