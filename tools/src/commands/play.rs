//! `igroteka play`: a person against a built-in engine in the terminal.

use std::io::Write;

use board_core::{ByPlayer, Outcome, Player};
use clap::{Args, ValueEnum};
use protocol::{LineError, Lines};
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

const COMMANDS: &str = "type a move, or: moves (list legal moves), board, undo, help, quit";

/// How one game ended for the loop around it.
enum End {
    /// The rules ended it.
    Over,
    /// The person quit, or the input ended.
    Quit,
}

pub fn run(args: &PlayArgs) -> anyhow::Result<()> {
    let (entry, start) = args.position.position()?;
    let human = match args.side {
        Side::First => Player::First,
        Side::Second => Player::Second,
    };
    let names = entry.player_names;
    let help = format!("{COMMANDS}\nmoves in {}: {}", entry.name, entry.notation);
    let stdin = std::io::stdin();
    let mut input = Lines::new(stdin.lock());
    let mut out = std::io::stdout();
    writeln!(out, "You play {} against {}. {COMMANDS}", names[human], args.engine)?;
    let learned = entry.default_learned();
    let session = Session { args, human, names, help: &help, learned };
    loop {
        if let End::Quit = session.play(start.clone(), &mut input, &mut out)? {
            return Ok(());
        }
        write!(out, "New game? (yes/no)> ")?;
        out.flush()?;
        let again = input.next().transpose()?;
        if !again.is_some_and(|answer| yes(&answer)) {
            writeln!(out)?;
            return Ok(());
        }
    }
}

/// `y` or `yes`, in any case.
fn yes(answer: &str) -> bool {
    matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes")
}

/// What every game of one `play` run shares.
struct Session<'a> {
    args: &'a PlayArgs,
    human: Player,
    names: ByPlayer<&'static str>,
    help: &'a str,
    /// The evaluation the game's engines use by default (learned where it won).
    learned: Option<search::DynLearned>,
}

impl Session<'_> {
    fn play(
        &self,
        start: Box<dyn SearchGame>,
        input: &mut impl Iterator<Item = Result<String, LineError>>,
        out: &mut impl Write,
    ) -> anyhow::Result<End> {
        let (human, names) = (self.human, self.names);
        let mut history: Vec<Box<dyn SearchGame>> = vec![start];
        let mut show_board = true;
        let mut memory = Memory::default();
        memory.set_learned(self.learned.clone());
        while let Some(pos) = history.last() {
            if let Some(outcome) = pos.outcome() {
                self.game_over(pos.as_ref(), &outcome, out)?;
                return Ok(End::Over);
            }
            if show_board {
                writeln!(out, "\n{}", pos.board_text())?;
            }
            show_board = true;
            if pos.side_to_move() != human {
                let think = self.args.limits.think(self.args.engine, history.len() as u64);
                let Some((mv, info)) = best_move(pos.as_ref(), &think, &mut memory) else {
                    break;
                };
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
            let Some(line) = input.next().transpose()? else {
                writeln!(out)?;
                return Ok(End::Quit);
            };
            let text = line.trim();
            match text.to_ascii_lowercase().as_str() {
                "" => show_board = false,
                "quit" | "exit" => return Ok(End::Quit),
                "help" | "?" => {
                    writeln!(out, "{}", self.help)?;
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
                _ => {
                    let mut next = pos.clone();
                    match next.play_move_text(text) {
                        Ok(_) => history.push(next),
                        Err(e) => {
                            writeln!(
                                out,
                                "{e} (type 'moves' for the legal moves, 'help' for how to write one)"
                            )?;
                            show_board = false;
                        }
                    }
                }
            }
        }
        Ok(End::Quit)
    }

    /// The final board and one line saying who won, in words. Lines where
    /// the board picture states the result itself are left out, so the
    /// result is said once.
    fn game_over(
        &self,
        pos: &dyn SearchGame,
        outcome: &Outcome,
        out: &mut impl Write,
    ) -> std::io::Result<()> {
        writeln!(out)?;
        for line in pos.board_text().lines().filter(|line| !line.contains(outcome.reason)) {
            writeln!(out, "{line}")?;
        }
        writeln!(out, "Game over: {}", verdict(outcome, self.names, self.human))
    }
}

/// `Black wins (no stack and no reserve): you lost`, `draw (ply limit)`,
/// with the score when the game has one.
fn verdict(outcome: &Outcome, names: ByPlayer<&str>, human: Player) -> String {
    let score = outcome.score.map_or(String::new(), |score| {
        let first = format!("{} {}", names[Player::First], score[Player::First]);
        format!(", score {first} - {} {}", names[Player::Second], score[Player::Second])
    });
    match outcome.winner {
        Some(winner) => {
            let you = if winner == human { "you won" } else { "you lost" };
            format!("{} wins ({}{score}): {you}", names[winner], outcome.reason)
        }
        None => format!("draw ({}{score})", outcome.reason),
    }
}
