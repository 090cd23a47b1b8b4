//! Help a person reads: the command line as `clap` derives it, reshaped. The subcommands are
//! listed in groups; each option's `-h` help is its first phrase and `--help` the whole; lines
//! end within 100 columns.

use clap::{Arg, Command, CommandFactory};

use super::args::Cli;

/// The widest help `clap` writes (a wider terminal still gets 100 columns).
pub const WIDTH: usize = 100;

/// The groups the subcommands are listed in, with their subcommands in order.
pub const GROUPS: [(&str, &[&str]); 4] = [
    ("Play on a board", &["play", "online"]),
    (
        "Watch, serve and record",
        &["watch", "serve", "replay", "report"],
    ),
    ("Set up", &["doctor", "ports", "calibrate"]),
    (
        "Tools for tests and demonstrations",
        &["demo", "emulate", "simulate"],
    ),
];

/// The command line: `Cli`'s, its help reshaped.
pub fn command() -> Command {
    let command = shortened(Cli::command().max_term_width(WIDTH));
    let template = format!(
        "{{before-help}}{{about-with-newline}}\n{{usage-heading}} {{usage}}\n\n{}\
         Options:\n{{options}}{{after-help}}",
        grouped(&command)
    );
    command.help_template(template)
}

/// `command` and its subcommands with each help's first phrase as `-h`'s, the whole as
/// `--help`'s.
fn shortened(command: Command) -> Command {
    let command = command.mut_args(short_arg).mut_subcommands(shortened);
    match (command.get_about(), command.get_long_about()) {
        (Some(about), None) => {
            let about = about.to_string();
            match first_phrase(&about) {
                Some(short) => command.about(short).long_about(about),
                None => command,
            }
        }
        _ => command,
    }
}

/// `arg` with its help's first phrase as `-h`'s and the whole as `--help`'s.
fn short_arg(arg: Arg) -> Arg {
    if arg.get_long_help().is_some() {
        return arg;
    }
    let Some(help) = arg.get_help().map(ToString::to_string) else {
        return arg;
    };
    match first_phrase(&help) {
        Some(short) => arg.help(short).long_help(help),
        None => arg,
    }
}

/// What a help says first: up to its first `: `, `; ` or `. ` outside parentheses and code,
/// else without a parenthesis that ends it; when that is a phrase of its own (at least 12
/// characters) and shorter than the whole. Else nothing.
pub fn first_phrase(help: &str) -> Option<String> {
    let whole = help.trim_end_matches('.');
    let end = first_stop(whole).or_else(|| trailing_parenthesis(whole))?;
    let short = whole.get(..end)?.trim_end();
    (short.len() >= 12 && short.len() < whole.len()).then(|| short.to_owned())
}

/// Where the first `: `, `; ` or `. ` outside parentheses and backticks is.
fn first_stop(text: &str) -> Option<usize> {
    let mut depth = 0_usize;
    let mut in_code = false;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '`' => in_code = !in_code,
            '(' if !in_code => depth = depth.saturating_add(1),
            ')' if !in_code => depth = depth.saturating_sub(1),
            ':' | ';' | '.'
                if !in_code && depth == 0 && chars.peek().is_some_and(|(_, next)| *next == ' ') =>
            {
                return Some(at);
            }
            _ => {}
        }
    }
    None
}

/// Where the parenthesis that ends `text` opens, if one does.
fn trailing_parenthesis(text: &str) -> Option<usize> {
    if !text.ends_with(')') {
        return None;
    }
    let mut depth = 0_usize;
    for (at, c) in text.char_indices().rev() {
        match c {
            ')' => depth = depth.saturating_add(1),
            '(' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(at);
                }
            }
            _ => {}
        }
    }
    None
}

/// The subcommands of `command` under their groups' headings, each with its short about.
fn grouped(command: &Command) -> String {
    let width = command
        .get_subcommands()
        .map(|sub| sub.get_name().len())
        .max()
        .unwrap_or_default();
    let mut out = String::new();
    for (heading, names) in GROUPS {
        out.push_str(heading);
        out.push_str(":\n");
        for name in names {
            let about = command
                .find_subcommand(name)
                .and_then(Command::get_about)
                .map(ToString::to_string)
                .unwrap_or_default();
            out.push_str(&format!("  {name:<width$}  {about}\n"));
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_help_s_first_phrase_is_its_short_help() {
        let cases = [
            (
                "Where the pages and the API are served (default: 127.0.0.1:8080).",
                Some("Where the pages and the API are served"),
            ),
            (
                "A board to watch: its serial port or `ble:NAME`.",
                Some("A board to watch"),
            ),
            ("The `Event` tag of every game's PGN.", None),
            // A stop inside a parenthesis or code is no stop.
            (
                "Where pages are served (default: 8080, or `a:b`): then more.",
                Some("Where pages are served (default: 8080, or `a:b`)"),
            ),
            (
                "A UCI engine (its program and arguments) analyses each position.",
                None,
            ),
            (
                "Also let pages from ORIGIN open the WebSocket (besides the server's own).",
                Some("Also let pages from ORIGIN open the WebSocket"),
            ),
            // Too short a phrase to stand alone: the whole is kept.
            ("Its name: N.", None),
        ];
        for (help, short) in cases {
            assert_eq!(first_phrase(help).as_deref(), short, "{help}");
        }
    }

    #[test]
    fn every_subcommand_is_in_one_group_and_every_group_names_subcommands() {
        let command = Cli::command();
        let listed: Vec<&str> = GROUPS
            .iter()
            .flat_map(|(_, names)| names.iter().copied())
            .collect();
        let mut visible: Vec<&str> = command
            .get_subcommands()
            .filter(|sub| !sub.is_hide_set())
            .map(Command::get_name)
            .collect();
        let mut sorted = listed.clone();
        sorted.sort_unstable();
        visible.sort_unstable();
        assert_eq!(sorted, visible);
    }

    /// The help `args` print, as a string.
    fn help_of(args: &[&str]) -> String {
        match command().try_get_matches_from(args) {
            Err(error) => error.render().to_string(),
            Ok(_) => String::new(),
        }
    }

    #[test]
    fn every_help_fits_in_100_columns_and_h_is_shorter_than_help() {
        let mut names = vec![None];
        names.extend(
            GROUPS
                .iter()
                .flat_map(|(_, names)| names.iter().map(|name| Some(*name))),
        );
        for name in names {
            let mut short = vec!["touchmove"];
            short.extend(name);
            let mut long = short.clone();
            short.push("-h");
            long.push("--help");
            let (short, long) = (help_of(&short), help_of(&long));
            for text in [&short, &long] {
                let widest = text
                    .lines()
                    .map(|line| line.chars().count())
                    .max()
                    .unwrap_or(0);
                assert!(
                    widest <= WIDTH,
                    "{name:?}: a line of {widest} columns:\n{text}"
                );
            }
            assert!(!short.is_empty(), "{name:?}: no help");
            if name.is_some() {
                assert!(
                    short.len() < long.len(),
                    "{name:?}: -h is not shorter than --help"
                );
            }
        }
    }

    #[test]
    fn the_subcommands_are_listed_in_their_groups() {
        let help = help_of(&["touchmove", "--help"]);
        let play = help.find("Play on a board:\n  play ");
        let tools = help.find("Tools for tests and demonstrations:\n  demo ");
        assert!(play.is_some() && tools.is_some() && play < tools, "{help}");
        assert!(
            !help.contains("\nCommands:\n"),
            "clap's own flat list is still there:\n{help}"
        );
    }
}
