//! `igroteka generate`: the man pages and shell completion scripts, made from
//! the command-line definitions themselves so they never fall behind.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use clap_complete::Shell;

/// Print the man page or a shell's completion script, or write them into a
/// directory.
#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// What to make.
    #[arg(value_enum)]
    kind: Kind,
    /// Write into this directory instead of printing: for `man`, `igroteka.1`
    /// and a page per subcommand (`igroteka-perft.1`, ...); for a shell, its
    /// script under the usual name (`igroteka.bash`, `_igroteka`,
    /// `igroteka.fish`, ...).
    #[arg(value_name = "DIR")]
    dir: Option<PathBuf>,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum Kind {
    /// The man page, igroteka(1), in roff.
    Man,
    Bash,
    Zsh,
    Fish,
    Powershell,
    Elvish,
}

/// Makes what `args` asks for from `cli`, the whole command line's
/// definition (the caller's `Cli::command()`).
pub fn run(args: &GenerateArgs, cli: clap::Command) -> anyhow::Result<()> {
    let name = cli.get_name().to_owned();
    // `help` is clap's, with no page of its own: leave it out of the list.
    let mut cli = cli.disable_help_subcommand(true);
    let shell = match args.kind {
        Kind::Man => {
            match &args.dir {
                Some(dir) => clap_mangen::generate_to(cli, dir)?,
                None => {
                    let mut out = std::io::stdout().lock();
                    clap_mangen::Man::new(cli).render(&mut out)?;
                    out.flush()?;
                }
            }
            return Ok(());
        }
        Kind::Bash => Shell::Bash,
        Kind::Zsh => Shell::Zsh,
        Kind::Fish => Shell::Fish,
        Kind::Powershell => Shell::PowerShell,
        Kind::Elvish => Shell::Elvish,
    };
    match &args.dir {
        Some(dir) => {
            clap_complete::generate_to(shell, &mut cli, name, dir)?;
        }
        None => {
            let mut out = std::io::stdout().lock();
            clap_complete::generate(shell, &mut cli, name, &mut out);
            out.flush()?;
        }
    }
    Ok(())
}
