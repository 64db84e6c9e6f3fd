//! Opening books as fastchess reads them: `--openings file=F
//! [format=epd|pgn] [order=sequential|random] [plies=N] [start=N]`.
//!
//! Without `format=`, a line is a move list from the start or a position
//! text (the arena's own book format); `epd` is one position text per line;
//! `pgn` is game records (the arena's `--pgnout`, Cute Games' records):
//! tags, `[FEN]`, the movetext, each game one opening. A PGN file is never
//! read as positions: a tag line in a line book is refused.

use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use board_core::Rng;
use protocol::Lines;
use search::{GameEntry, SearchGame};

use crate::movetext::{MovetextScanner, Token};
use crate::schedule::{Opening, is_pgn_tag, openings_budget, parse_opening_line};

/// The most bytes of a book read with `order=random`, which reads all of
/// it (64 MiB: a few hundred thousand openings).
pub const RANDOM_BOOK_BYTES: u64 = 64 << 20;

/// How the lines of a book are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    /// A move list from the start or a position text per line (no `format=`).
    Lines,
    /// One position text per line.
    Epd,
    /// Game records.
    Pgn,
}

/// `--openings file=...` and its keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Book {
    path: PathBuf,
    format: Format,
    random: bool,
    plies: Option<usize>,
    start: usize,
}

impl Book {
    /// Reads `file=F` and the keys after it.
    ///
    /// # Errors
    /// An unknown or repeated key, a bad value.
    pub(crate) fn parse(path: &str, keys: &[String]) -> Result<Book> {
        let mut book = Book {
            path: PathBuf::from(path),
            format: Format::Lines,
            random: false,
            plies: None,
            start: 1,
        };
        let mut seen = Vec::new();
        for token in keys {
            let (key, value) = token
                .split_once('=')
                .with_context(|| format!("--openings: '{token}' is not key=value"))?;
            if seen.contains(&key) {
                bail!("--openings: {key}= is given twice");
            }
            seen.push(key);
            let number =
                || -> Result<usize> {
                    value.trim().parse().ok().with_context(|| {
                        format!("--openings {key}={value}: not a non-negative number")
                    })
                };
            match key {
                "format" => {
                    book.format = match value {
                        "epd" => Format::Epd,
                        "pgn" => Format::Pgn,
                        _ => bail!("--openings format={value}: expected epd or pgn"),
                    }
                }
                "order" => {
                    book.random = match value {
                        "sequential" => false,
                        "random" => true,
                        _ => bail!("--openings order={value}: expected sequential or random"),
                    }
                }
                "plies" => book.plies = Some(number()?),
                "start" => {
                    book.start = number()?;
                    if book.start == 0 {
                        bail!("--openings start=0: the first opening is start=1");
                    }
                }
                "file" => bail!("--openings: file= is given twice"),
                _ => bail!(
                    "--openings: unknown key '{key}' (file=, format=epd|pgn, \
                     order=sequential|random, plies=N, start=N)"
                ),
            }
        }
        Ok(book)
    }

    /// The openings of `wanted` rounds, round `r` taking the `r`-th (in
    /// turn when there are fewer): from the `start`-th of the book, in its
    /// order or shuffled with `seed`, each cut after `plies` plies. In its
    /// order, the book is read only as far as it needs (at most
    /// [`openings_budget`] bytes for them); shuffled, all of it (at most
    /// [`RANDOM_BOOK_BYTES`]).
    ///
    /// # Errors
    /// An unreadable file, an opening that is not one of the game, a book
    /// with fewer than `start` openings, too many bytes.
    pub(crate) fn read(
        &self,
        entry: &GameEntry,
        variant: &str,
        wanted: u32,
        seed: u64,
    ) -> Result<Vec<Opening>> {
        let needed =
            if self.random { None } else { Some((self.start - 1).saturating_add(wanted as usize)) };
        let budget = match needed {
            Some(needed) => openings_budget(u32::try_from(needed).unwrap_or(u32::MAX)),
            None => RANDOM_BOOK_BYTES,
        };
        let mut list = self.read_openings(entry, variant, needed, budget)?;
        if list.is_empty() {
            bail!("{}: no openings", self.path.display());
        }
        if list.len() < self.start {
            bail!(
                "{}: --openings start={} but the book has {} opening{}",
                self.path.display(),
                self.start,
                list.len(),
                if list.len() == 1 { "" } else { "s" }
            );
        }
        if self.random {
            let mut rng = Rng::new(seed ^ 0x6F70_656E_696E_6773);
            for i in (1..list.len()).rev() {
                list.swap(i, rng.below(i + 1));
            }
        }
        list.rotate_left(self.start - 1);
        list.truncate(wanted as usize);
        Ok(list)
    }

    /// The book's openings, up to `needed` (all without), reading at most
    /// `budget` bytes.
    fn read_openings(
        &self,
        entry: &GameEntry,
        variant: &str,
        needed: Option<usize>,
        budget: u64,
    ) -> Result<Vec<Opening>> {
        let path = &self.path;
        let file =
            File::open(path).with_context(|| format!("reading openings {}", path.display()))?;
        let mut list = Vec::new();
        let mut pgn = PgnGame::default();
        let mut read = 0;
        for (number, line) in (1..).zip(Lines::new(BufReader::new(file))) {
            if needed.is_some_and(|needed| list.len() >= needed) {
                break;
            }
            let at = || format!("{}:{number}", path.display());
            let line = line.with_context(|| format!("reading openings {}", path.display()))?;
            read += line.len() as u64 + 1;
            if read > budget {
                bail!(
                    "{}: more than {budget} bytes read for {} openings (found {})",
                    path.display(),
                    needed.map_or("all its".to_owned(), |n| n.to_string()),
                    list.len()
                );
            }
            // A byte-order mark (as some editors write) is no part of line 1.
            let line = line.strip_prefix('\u{feff}').unwrap_or(&line);
            if self.format == Format::Pgn {
                if let Some(opening) =
                    pgn.line(line, entry, variant, self.plies).with_context(at)?
                {
                    list.push(opening);
                }
                continue;
            }
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if is_pgn_tag(line) {
                bail!(
                    "{} is a PGN tag ({line}): --openings file= reads one {} per line, not a \
                     PGN file; give format=pgn to read its games, or put each opening on a \
                     line of its own",
                    at(),
                    if self.format == Format::Epd { "position" } else { "move list or position" }
                );
            }
            let opening = match self.format {
                Format::Epd => match entry.from_text(line, variant) {
                    Ok(pos) => Opening { fen: Some(pos.position_text()), moves: Vec::new() },
                    Err(e) => bail!("{}: not a position text ({e})", at()),
                },
                _ => parse_opening_line(line, entry, variant).with_context(at)?,
            };
            list.push(cut(opening, self.plies));
        }
        if self.format == Format::Pgn
            && needed.is_none_or(|needed| list.len() < needed)
            && let Some(opening) = pgn
                .finish(entry, variant)
                .with_context(|| format!("{}: the last game", path.display()))?
        {
            list.push(opening);
        }
        Ok(list)
    }
}

/// `opening` with at most `plies` moves.
fn cut(mut opening: Opening, plies: Option<usize>) -> Opening {
    if let Some(plies) = plies {
        opening.moves.truncate(plies);
    }
    opening
}

/// The game record being read from a PGN book, line by line.
#[derive(Default)]
struct PgnGame {
    scanner: MovetextScanner,
    /// Its `[FEN]`, `[Game]` and `[Variant]` tags.
    fen: Option<String>,
    game: Option<String>,
    variant: Option<String>,
    /// The position and moves so far (from the first move on).
    position: Option<(Box<dyn SearchGame>, Opening)>,
    /// Whether anything of a game was read (a tag or a move).
    started: bool,
    /// Moves read, cut or not.
    moves: usize,
}

impl PgnGame {
    /// Reads one line; returns the opening of a game that ends here (at its
    /// result, or at a tag after its moves: the next game's).
    fn line(
        &mut self,
        line: &str,
        entry: &GameEntry,
        variant: &str,
        plies: Option<usize>,
    ) -> Result<Option<Opening>> {
        let mut done = None;
        if self.moves > 0 && line.trim_start().starts_with('[') {
            done = self.finish(entry, variant)?;
        }
        let tokens: Vec<Token<'_>> = self.scanner.tokens(line).collect::<Result<_, _>>()?;
        for token in tokens {
            match token {
                Token::Tag(name, value) => self.tag(name, value)?,
                Token::Move(mv) => self.play(mv, entry, variant, plies)?,
                Token::Result(_) => {
                    self.started = true;
                    done = self.finish(entry, variant)?;
                }
            }
        }
        Ok(done)
    }

    fn tag(&mut self, name: &str, value: String) -> Result<()> {
        self.started = true;
        let slot = match name.to_ascii_lowercase().as_str() {
            "fen" => &mut self.fen,
            "game" => &mut self.game,
            "variant" => &mut self.variant,
            _ => return Ok(()),
        };
        if slot.is_some() {
            bail!("two [{name}] tags in one game");
        }
        *slot = Some(value);
        Ok(())
    }

    /// Plays a move of the record (from its base position, set up at the
    /// first move), unless the opening is already `plies` long.
    fn play(
        &mut self,
        mv: &str,
        entry: &GameEntry,
        variant: &str,
        plies: Option<usize>,
    ) -> Result<()> {
        self.started = true;
        self.moves += 1;
        if self.position.is_none() {
            self.position = Some(self.base(entry, variant)?);
        }
        let Some((position, opening)) = self.position.as_mut() else { unreachable!("set above") };
        if plies.is_some_and(|plies| opening.moves.len() >= plies) {
            return Ok(());
        }
        let canonical = position
            .play_move_text(mv)
            .map_err(|e| anyhow::anyhow!("move {} ({mv}): {e}", opening.moves.len() + 1))?;
        opening.moves.push(canonical);
        Ok(())
    }

    /// The game's base position from its tags: `[FEN]` (Cute Games'
    /// `startpos` is the start), checked against `[Game]` and `[Variant]`.
    fn base(&self, entry: &GameEntry, variant: &str) -> Result<(Box<dyn SearchGame>, Opening)> {
        if let Some(game) = &self.game
            && !game.trim().eq_ignore_ascii_case(entry.name)
        {
            bail!("a game of {game} ([Game]), not {}", entry.name);
        }
        if let Some(tagged) = &self.variant
            && entry.variant(tagged.trim()).ok() != Some(variant)
        {
            bail!("a game of variant {tagged} ([Variant]), not {variant}");
        }
        let fen =
            self.fen.as_deref().map(str::trim).filter(|f| !f.eq_ignore_ascii_case("startpos"));
        let opening = Opening { fen: fen.map(str::to_owned), moves: Vec::new() };
        let position = opening.base(entry, variant).context("its [FEN]")?;
        let opening =
            Opening { fen: opening.fen.map(|_| position.position_text()), moves: Vec::new() };
        Ok((position, opening))
    }

    /// The opening of the game read so far, if any, and a fresh start for
    /// the next.
    fn finish(&mut self, entry: &GameEntry, variant: &str) -> Result<Option<Opening>> {
        self.scanner.finish()?;
        let game = std::mem::take(self);
        if !game.started {
            return Ok(None);
        }
        let opening = match game.position {
            Some((_, opening)) => opening,
            None => game.base(entry, variant)?.1,
        };
        Ok(Some(opening))
    }
}
