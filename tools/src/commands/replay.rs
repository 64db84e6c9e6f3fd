//! `igroteka replay`: play a game record and report the result.

use std::io::{IsTerminal, Write};

use anyhow::{Context, bail};
use arena::{MovetextScanner, Token};
use board_core::{GameRecord, RecordError};
use clap::Args;
use protocol::Lines;
use search::SearchGame;

use crate::position::PositionArgs;

/// The most moves a record may hold: a record is checked as it is read,
/// and this bounds what is kept of it (the protocol's largest `MaxPlies`).
const MAX_MOVES: usize = 1_000_000;

/// Play moves and print the final position and result.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Ply cap: the game ends after this many plies from the base position,
    /// adjudicated by the game's rule, as in the arena (0: none). Default:
    /// the record's `MaxPlies` tag, else none.
    #[arg(long)]
    max_plies: Option<u32>,
    /// The moves; read from stdin when none are given. A PGN-style record (as
    /// `arena --pgnout` writes) is read: tags, `{comments}`, move numbers
    /// (`12.`), annotations (`!`, `?`) and the result token are skipped.
    #[arg(allow_hyphen_values = true)]
    record: Vec<String>,
}

/// Prints `position <text>` and `result <r>[ score <a>-<b>][ reason <words>]`
/// (`*` while the game goes on). The record is read and checked as it comes
/// (a line at a time from stdin): the first illegal move, or a move after
/// the end, is reported with its number on stderr and the command exits
/// with status 1, after printing the position and result reached before it,
/// without reading further. The record's `Variant`, `FEN` and `MaxPlies`
/// tags stand in for `--variant`, `--fen` and `--max-plies` when those are
/// not given (`[FEN "startpos"]`: the start position); each may be given
/// once, before the first move.
pub fn run(args: &ReplayArgs) -> anyhow::Result<bool> {
    let mut replay = Replay::new(args);
    let mut scanner = MovetextScanner::default();
    if args.record.is_empty() {
        if std::io::stdin().is_terminal() {
            eprintln!("reading moves from stdin; end with Ctrl-D");
        }
        for line in Lines::new(std::io::stdin().lock()) {
            let line = line.context("reading the record from stdin")?;
            if !replay.read(&mut scanner, &line)? {
                return replay.report();
            }
        }
    } else if !replay.read(&mut scanner, &args.record.join(" "))? {
        return replay.report();
    }
    scanner.finish().context("reading the record")?;
    replay.report()
}

/// The tags replay uses, each at most once.
#[derive(Debug, Default)]
struct Tags {
    game: Option<String>,
    variant: Option<String>,
    fen: Option<String>,
    max_plies: Option<String>,
}

impl Tags {
    /// Keeps `value` if `name` is a tag replay uses.
    fn set(&mut self, name: &str, value: String) -> anyhow::Result<()> {
        let slot = match name.to_ascii_lowercase().as_str() {
            "game" => &mut self.game,
            "variant" => &mut self.variant,
            "fen" => &mut self.fen,
            "maxplies" => &mut self.max_plies,
            _ => return Ok(()),
        };
        if let Some(first) = slot {
            bail!("two [{name}] tags (\"{first}\" and \"{value}\"): one game per record");
        }
        *slot = Some(value);
        Ok(())
    }
}

/// A record being replayed: its tags until the first move, then the game.
struct Replay<'a> {
    args: &'a ReplayArgs,
    tags: Tags,
    game: Option<GameRecord<dyn SearchGame>>,
    refused: Option<String>,
}

impl<'a> Replay<'a> {
    fn new(args: &'a ReplayArgs) -> Self {
        Replay { args, tags: Tags::default(), game: None, refused: None }
    }

    /// Takes the tokens of one piece of the record; `false` once a move is
    /// refused (the rest is not read).
    fn read(&mut self, scanner: &mut MovetextScanner, piece: &str) -> anyhow::Result<bool> {
        for token in scanner.tokens(piece) {
            match token.context("reading the record")? {
                Token::Tag(name, value) => {
                    if self.game.is_some() {
                        bail!("a tag ([{name}]) after the moves: one game per record");
                    }
                    self.tags.set(name, value)?;
                }
                Token::Move(text) => {
                    let game = self.game()?;
                    let refused = if game.moves().len() >= MAX_MOVES {
                        Some(format!("more than {MAX_MOVES} moves"))
                    } else {
                        game.play(text).err().map(|e| refusal(text, e))
                    };
                    if refused.is_some() {
                        self.refused = refused;
                        return Ok(false);
                    }
                }
                Token::Result(_) => {}
            }
        }
        Ok(true)
    }

    /// The game, set up from the flags and tags at the first move.
    fn game(&mut self) -> anyhow::Result<&mut GameRecord<dyn SearchGame>> {
        if self.game.is_none() {
            let tags = std::mem::take(&mut self.tags);
            let mut position = self.args.position.clone();
            if let Some(game) = &tags.game
                && !game.eq_ignore_ascii_case(&position.game)
            {
                bail!("the record is a game of {game}, not {}", position.game);
            }
            position.variant = position.variant.or(tags.variant);
            // Cute Games writes `[FEN "startpos"]` for games from the start.
            let fen = tags.fen.filter(|fen| !fen.trim().eq_ignore_ascii_case("startpos"));
            position.fen = position.fen.or(fen);
            let max_plies = match (self.args.max_plies, tags.max_plies) {
                (Some(cap), _) => cap,
                (None, Some(tag)) => tag.trim().parse().with_context(|| {
                    format!("[MaxPlies \"{tag}\"]: not a number of plies (0: no cap)")
                })?,
                (None, None) => 0,
            };
            let (_, start) = position.position()?;
            self.game = Some(GameRecord::new(start, max_plies));
        }
        match self.game.as_mut() {
            Some(game) => Ok(game),
            None => unreachable!("set up above"),
        }
    }

    /// Prints the position and result reached; `false` if a move was refused.
    fn report(mut self) -> anyhow::Result<bool> {
        let game = self.game()?;
        let mut out = std::io::stdout().lock();
        writeln!(out, "position {}", game.position().position_text())?;
        match game.outcome() {
            Some(outcome) => writeln!(out, "result {outcome}")?,
            None => writeln!(out, "result *")?,
        }
        if let Some(message) = &self.refused {
            eprintln!("error: {message}");
        }
        Ok(self.refused.is_none())
    }
}

/// Why move `text` was refused, with its number.
fn refusal(text: &str, error: RecordError) -> String {
    match error {
        RecordError::Move { ply, error } => format!("move {ply} ({text}) refused: {error}"),
        ended @ RecordError::Ended { .. } => ended.to_string(),
    }
}
