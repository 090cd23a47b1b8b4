//! `touchmove manpages DIR` (hidden: the Debian package's build runs it): a man page for the
//! command and one for each subcommand (`touchmove.1`, `touchmove-serve.1`, ...), written by
//! clap's roff generator from the command line's own definition, so that the pages say what
//! `--help` says.

use std::path::Path;

use super::args::ManpagesArgs;
use anyhow::{Context, Result};

/// Runs `touchmove manpages DIR`: every page written into DIR, each named on standard output.
pub fn run(args: &ManpagesArgs) -> Result<()> {
    std::fs::create_dir_all(&args.dir)
        .with_context(|| format!("cannot make {}", args.dir.display()))?;
    let mut command = super::help::command();
    // Built, each subcommand's display name is the page's name: `touchmove-serve`.
    command.build();
    write_page(&command, &args.dir)?;
    let pages = command
        .get_subcommands()
        .filter(|sub| !sub.is_hide_set() && sub.get_name() != "help");
    for subcommand in pages {
        write_page(subcommand, &args.dir)?;
    }
    Ok(())
}

/// Writes `command`'s page into `dir`.
fn write_page(command: &clap::Command, dir: &Path) -> Result<()> {
    let page = clap_mangen::Man::new(command.clone());
    let path = page
        .generate_to(dir)
        .with_context(|| format!("cannot write {}", page.get_filename()))?;
    println!("{}", path.display());
    Ok(())
}
