//! `igroteka arena`: refereed tournaments between engines that speak the
//! Igroteka protocol (UGI-style), built-in or external.
//!
//! The arena keeps every game's position itself through the registry's
//! [`search::SearchGame`], checks each `bestmove`, decides the end (rules,
//! ply cap, forfeits, adjudication by the engines' scores or the game's
//! exact table) and writes each game when it ends (PGN-style, JSONL,
//! a resumable state file). See `docs/arena.md` for the flags and formats.
//!
//! The binary calls [`run`] with its registry, its own path (built-ins are
//! started as `<igroteka> engine --game G --variant V`) and the parsed
//! [`ArenaArgs`]; `igroteka arena merge F...` is the [`ArenaCommand::Merge`]
//! subcommand of the same arguments, also callable as [`merge`].
//!
//! Every record is checked wherever it comes from: as a game ends, when a
//! state file is resumed, when shards are merged ([`read_records`]): its
//! moves replayed under its ply cap, its end, result and blame what they
//! give, one tournament fingerprint for all.
//!
//! `igroteka check-engine` is [`check_engine`] (flags [`CheckArgs`]): the
//! conformance script of [`Checker`], run against one engine, each
//! [`Check`] judged by the game's own rules.

mod adjudicate;
mod book;
mod check;
mod compliance;
mod config;
mod engine;
mod movetext;
mod observe;
mod ratings;
mod record;
mod referee;
mod schedule;
mod standings;
mod stats;
mod tournament;

use std::path::PathBuf;

pub use adjudicate::{Adjudication, DrawRule, ResignRule, TableResults};
pub use book::RANDOM_BOOK_BYTES;
pub use check::repeated_games;
pub use compliance::{Check, CheckArgs, Checker, check_engine};
pub use config::{EngineSpec, Limit, Program, TimeControl, split_command};
pub use engine::Fault;
pub use movetext::{Movetext, MovetextError, MovetextScanner, Token, Tokens, read_movetext};
pub use observe::{Event, Observer};
pub use ratings::{NoRatings, Rating, ml_gradient, ml_ratings};
pub use record::{GameRecord, MoveEval, Termination};
pub use referee::OptionsRefused;
pub use schedule::{
    Fixture, GAMES_PER_ENCOUNTER, OPENING_BYTES, Opening, Openings, Pairing, Shard, encounters,
    openings_budget, schedule,
};
pub use standings::Standings;
pub use stats::{Elo, Pentanomial, Sprt, SprtVerdict, Wdl, elo_from_score, erf, score_from_elo};
pub use tournament::{merge, no_cap_warning, read_records};

/// The flags of `igroteka arena`: the `--engine` groups plus [`ArenaFlags`].
///
/// `--engine` is repeated, each time with several `KEY=VALUE` tokens, which
/// the derive cannot group; this type implements [`clap::Args`] by hand.
#[derive(Clone, Debug)]
pub struct ArenaArgs {
    /// The tokens of each `--engine`, one group per engine: `name=A
    /// cmd="./engine --flag"` or `builtin=alphabeta|mcts|random`, with
    /// `dir=D`, `option.NAME=VALUE`, `tc=[MOVES/]BASE[+INC]` (s),
    /// `movetime=MS`, `depth=N`, `nodes=N`, `timemargin=MS`. None: the three
    /// built-ins.
    pub engines: Vec<Vec<String>>,
    /// Every other flag.
    pub flags: ArenaFlags,
}

const ENGINE_ARG: &str = "engine";

fn engine_arg() -> clap::Arg {
    clap::Arg::new(ENGINE_ARG)
        .long(ENGINE_ARG)
        .num_args(1..)
        .action(clap::ArgAction::Append)
        .value_name("KEY=VALUE")
        .help(
            "An engine: name=A cmd=\"./engine --flag\" | builtin=alphabeta|mcts|random, \
             dir=D, option.NAME=VALUE, tc=[MOVES/]BASE[+INC] (s), movetime=MS, depth=N, \
             nodes=N, timemargin=MS; repeat per engine (default: the three built-ins)",
        )
}

fn engine_groups(matches: &clap::ArgMatches) -> Vec<Vec<String>> {
    matches
        .get_occurrences::<String>(ENGINE_ARG)
        .map(|groups| groups.map(|group| group.cloned().collect()).collect())
        .unwrap_or_default()
}

impl clap::FromArgMatches for ArenaArgs {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        Ok(ArenaArgs {
            engines: engine_groups(matches),
            flags: ArenaFlags::from_arg_matches(matches)?,
        })
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        self.flags.update_from_arg_matches(matches)?;
        let engines = engine_groups(matches);
        if !engines.is_empty() {
            self.engines = engines;
        }
        Ok(())
    }
}

impl clap::Args for ArenaArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        ArenaFlags::augment_args(cmd).arg(engine_arg())
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        ArenaFlags::augment_args_for_update(cmd).arg(engine_arg())
    }
}

/// Refereed tournaments between engines, with standings, PGN and JSONL records.
///
/// (All flags of `igroteka arena` but `--engine`, which [`ArenaArgs`] adds.)
#[derive(Clone, Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ArenaFlags {
    /// `merge F...`: standings of JSONL results (e.g. of shards).
    #[command(subcommand)]
    pub command: Option<ArenaCommand>,

    /// The game (default: the first registered one).
    #[arg(long)]
    pub game: Option<String>,
    /// Its variant (default: the game's default).
    #[arg(long)]
    pub variant: Option<String>,
    /// Limits for every engine that does not set them itself (default: movetime=100).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub each: Vec<String>,
    /// The first engine plays all others (instead of a round-robin).
    #[arg(long)]
    pub gauntlet: bool,
    /// Rounds: each plays every encounter twice, colours swapped.
    #[arg(long, default_value_t = 2)]
    pub rounds: u32,
    /// `random:PLIES` (seeded, one per round) or `file=PATH` (one move list or
    /// position per line, one per round in turn), with `format=epd|pgn`,
    /// `order=sequential|random`, `plies=N`, `start=N`. Default: the start
    /// position.
    #[arg(long, value_name = "SPEC", num_args = 1..)]
    pub openings: Option<Vec<String>>,
    /// Games played at once (default: the number of cores).
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// Seed of random openings and of the built-ins.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Milliseconds an engine may overrun its time before it forfeits.
    #[arg(long, value_name = "MS", default_value_t = 100)]
    pub timemargin: u64,
    /// Milliseconds an engine has to answer `ugi` and `isready` before it stalls.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    pub stall_timeout: u64,
    /// Milliseconds a move may take when an engine's limit has no time in
    /// it (`depth=`/`nodes=` only); then it forfeits (`stall`), even while
    /// it answers `isready`.
    #[arg(long, value_name = "MS", default_value_t = 300_000)]
    pub move_timeout: u64,
    /// Write one log per engine process and game into this folder: the
    /// whole conversation (`>` sent, `<` heard) and the engine's stderr (`!`).
    #[arg(long, value_name = "DIR")]
    pub engine_log: Option<std::path::PathBuf>,
    /// The most bytes of each `--engine-log` file (`K`, `M`, `G`: KiB, MiB,
    /// GiB; 0: no limit); past them, a note says the log was cut.
    #[arg(long, value_name = "BYTES", default_value = "16M", value_parser = config::parse_bytes)]
    pub engine_log_limit: u64,
    /// Ply cap, adjudicated by the game's rule (default: the game's own).
    #[arg(long)]
    pub max_plies: Option<u32>,
    /// Ask both engines `query result` at the end and report disagreement.
    #[arg(long)]
    pub query_result: bool,
    /// Print interim standings every N finished games (0: never).
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub ratinginterval: u32,
    /// Sequential test for two engines: `elo0=0 elo1=10 alpha=0.05 beta=0.05
    /// penta=true` (counted on colour-swapped pairs; `penta=false`: game by
    /// game).
    #[arg(long, num_args = 0.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Append every game as PGN-style text to FILE.
    #[arg(long, value_name = "FILE")]
    pub pgnout: Option<PathBuf>,
    /// Append every game as one JSON object per line to FILE.
    #[arg(long, value_name = "FILE")]
    pub jsonl: Option<PathBuf>,
    /// Keep the tournament state in FILE; the same command resumes it.
    #[arg(long, value_name = "FILE")]
    pub state: Option<PathBuf>,
    /// Play only slice I of N of the schedule (`I/N`, from 1).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// No per-game lines and no interim standings.
    #[arg(long)]
    pub quiet: bool,
    /// Draw adjudication by the engines' scores: `movenumber=N movecount=N
    /// score=CP` (after move N, both within ±CP for N moves each in a row).
    #[arg(long, num_args = 0.., value_name = "KEY=VALUE")]
    pub draw: Option<Vec<String>>,
    /// Resign adjudication: `movecount=N score=CP [twosided=true]` (an
    /// engine at -CP or worse for N moves in a row loses).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub resign: Option<Vec<String>>,
    /// Adjudicate by the game's exact table (Otrazhenie's): a position it
    /// decides ends the game with its result.
    #[arg(long)]
    pub tb: bool,
    /// Which of the table's results end a game: `both`, `win_loss` or `draw`.
    #[arg(long, value_name = "RESULTS", requires = "tb", default_value = "both")]
    pub tbadjudicate: String,
    /// Milliseconds to wait between the end of a game and the start of the
    /// next in its place.
    #[arg(long, value_name = "MS", default_value_t = 0)]
    pub wait: u64,
    /// Games per encounter and round, all from the round's opening, colours
    /// alternating (default: 2).
    #[arg(long, value_name = "N")]
    pub games: Option<u32>,
    /// Two games per encounter and round, colours swapped (`--games 2`).
    #[arg(long)]
    pub repeat: bool,
    /// Never swap colours: the first-listed engine of an encounter plays
    /// first in all its games (second with `--reverse`).
    #[arg(long)]
    pub noswap: bool,
    /// Swap the colours of every game: the second-listed engine of an
    /// encounter plays first in its first game.
    #[arg(long)]
    pub reverse: bool,
    /// `on`: start both engines afresh for every game; `off`: keep each
    /// engine's process for its next game (`uginewgame`, `isready`), and
    /// start a new one only after a fault.
    #[arg(
        long,
        value_name = "on|off",
        default_value = "off",
        action = clap::ArgAction::Set,
        value_parser = on_off(),
    )]
    pub restart: bool,
    /// Serve a page at `PORT` (on 127.0.0.1) or `HOST:PORT` that shows the
    /// games in progress and the standings as they go (the `igroteka`
    /// binary serves it; 0: any free port, printed).
    #[arg(long, value_name = "[HOST:]PORT")]
    pub live: Option<String>,
}

/// `on` (true) or `off` (false), for `--restart`.
fn on_off() -> impl clap::builder::TypedValueParser<Value = bool> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(["on", "off"]).map(|value| value == "on")
}

/// Subcommands of `igroteka arena`.
#[derive(Clone, Debug, clap::Subcommand)]
pub enum ArenaCommand {
    /// Combine JSONL results (of shards) into one standings table.
    Merge(MergeArgs),
}

/// `igroteka arena merge F...`.
#[derive(Clone, Debug, clap::Args)]
pub struct MergeArgs {
    /// JSONL files written with `--jsonl` (or `--state`).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Merge what there is when games of the tournament are missing (a
    /// shard not finished or not given, an SPRT stop), with a warning,
    /// instead of refusing.
    #[arg(long)]
    pub partial: bool,
    /// Print the standings as one JSON object (standings, the rating list of
    /// more than two engines, terminations) instead of tables.
    #[arg(long)]
    pub json: bool,
}

/// Runs `igroteka arena` (a tournament, or the `merge` subcommand); builds
/// its own tokio runtime. `games` is the registry, `igroteka_exe` the binary
/// that provides `igroteka engine` for built-in engines.
///
/// # Errors
/// Bad flags, unreadable or unwritable files, an interrupted tournament.
pub fn run(
    games: &'static [search::GameEntry],
    igroteka_exe: PathBuf,
    args: ArenaArgs,
) -> anyhow::Result<()> {
    run_observed(games, igroteka_exe, args, None)
}

/// As [`run`], telling `observer` what happens in the tournament as it
/// goes (see [`Event`]): what `igroteka arena --live` shows.
///
/// # Errors
/// As [`run`].
pub fn run_observed(
    games: &'static [search::GameEntry],
    igroteka_exe: PathBuf,
    args: ArenaArgs,
    observer: Option<std::sync::Arc<dyn Observer>>,
) -> anyhow::Result<()> {
    if let Some(ArenaCommand::Merge(merge_args)) = &args.flags.command {
        return merge(games, merge_args);
    }
    tournament::run(games, igroteka_exe, args, observe::Observers(observer))
}
