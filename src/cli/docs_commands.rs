//! The docs cannot drift from the command line: every command line of README.md and docs/ is
//! read by the real CLI. In `sh` blocks each `touchmove ...` (or `cargo run ... -- ...`) line
//! is parsed whole, as a shell would split it; in the other blocks (a command's synopsis) and
//! in the prose's `touchmove ...` spans, the command must exist and every `--option` named
//! must be one of its options.

use std::path::{Path, PathBuf};

use clap::Command;
use clap::error::ErrorKind;

/// The Markdown files of the docs.
fn docs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    let mut guides: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|entry| entry.path())
                .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
                .collect()
        })
        .unwrap_or_default();
    guides.sort();
    files.extend(guides);
    files
}

/// A command line found in a doc: where, what, and whether it is to be parsed whole.
#[derive(Debug)]
struct Found {
    at: String,
    words: Vec<String>,
    whole: bool,
}

/// The command lines of `text` (from `file`).
fn command_lines(file: &str, text: &str) -> Vec<Found> {
    let mut found = Vec::new();
    let mut block: Option<String> = None;
    let mut pending: Option<(usize, String, bool)> = None;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let trimmed = line.trim_start();
        if let Some(fence) = trimmed.strip_prefix("```") {
            if let Some((at, command, whole)) = pending.take() {
                push(&mut found, file, at, &command, whole);
            }
            block = match block {
                Some(_) => None,
                None => Some(fence.trim().to_owned()),
            };
            continue;
        }
        match &block {
            Some(lang) if lang == "sh" => {
                let command = match &mut pending {
                    Some((_, command, _)) => {
                        command.push(' ');
                        command.push_str(trimmed);
                        command.clone()
                    }
                    None => trimmed.to_owned(),
                };
                if let Some(continued) = command.strip_suffix('\\') {
                    let at = pending.as_ref().map_or(number, |(at, _, _)| *at);
                    pending = Some((at, continued.to_owned(), true));
                    continue;
                }
                let at = pending.take().map_or(number, |(at, _, _)| at);
                if let Some(args) = touchmove_args(&command) {
                    push(&mut found, file, at, &args, true);
                }
            }
            Some(_) => {
                // A synopsis: a `touchmove` line and the indented lines that go on with it.
                if trimmed.starts_with("touchmove ") {
                    if let Some((at, command, whole)) = pending.take() {
                        push(&mut found, file, at, &command, whole);
                    }
                    let rest = trimmed.trim_start_matches("touchmove ").to_owned();
                    pending = Some((number, rest, false));
                } else if let (Some((_, command, _)), true) = (&mut pending, line.starts_with(' '))
                {
                    command.push(' ');
                    command.push_str(trimmed);
                } else if let Some((at, command, whole)) = pending.take() {
                    push(&mut found, file, at, &command, whole);
                }
            }
            None => {
                for span in line.split('`').skip(1).step_by(2) {
                    if let Some(rest) = span.strip_prefix("touchmove ") {
                        push(&mut found, file, number, rest, false);
                    }
                }
            }
        }
    }
    found
}

fn push(found: &mut Vec<Found>, file: &str, at: usize, command: &str, whole: bool) {
    found.push(Found {
        at: format!("{file}:{at}"),
        words: shell_words(command),
        whole,
    });
}

/// The arguments after `touchmove` (or after `cargo run ... --`) of a shell line; `None` for
/// another program's line. Leading `VAR=value` words are the environment's; a comment, a
/// pipe or a redirection ends the command.
fn touchmove_args(line: &str) -> Option<String> {
    let line = line.split(" #").next().unwrap_or(line);
    let line = line.split(['|', ';', '>']).next().unwrap_or(line).trim();
    let mut words = line
        .split_whitespace()
        .skip_while(|word| word.contains('=') && !word.starts_with('-'));
    let first = words.next()?;
    let rest: Vec<&str> = words.collect();
    match first {
        "touchmove" => Some(rest.join(" ")),
        "cargo" if rest.first() == Some(&"run") => {
            let after = rest.iter().position(|word| *word == "--")?;
            Some(rest.get(after + 1..)?.join(" "))
        }
        _ => None,
    }
}

/// `text` split into words as a shell splits them (quotes kept together, then dropped).
fn shell_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    let mut in_word = false;
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// Why `found` does not stand, if it does not.
fn fault(command: &Command, found: &Found) -> Option<String> {
    if found.whole {
        let mut argv = vec!["touchmove".to_owned()];
        argv.extend(found.words.iter().cloned());
        return match command.clone().try_get_matches_from(&argv) {
            Ok(_) => None,
            Err(error)
                if matches!(
                    error.kind(),
                    ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
                ) =>
            {
                None
            }
            Err(error) => Some(format!(
                "{}: `touchmove {}`: {}",
                found.at,
                found.words.join(" "),
                error
                    .render()
                    .to_string()
                    .lines()
                    .next()
                    .unwrap_or_default()
            )),
        };
    }
    let sub = found.words.first().filter(|word| !word.starts_with('-'));
    let target = match sub {
        Some(name) => command.find_subcommand(name)?,
        None => command,
    };
    if let Some(name) = sub
        && command.find_subcommand(name).is_none()
    {
        return Some(format!("{}: no command `{name}`", found.at));
    }
    let unknown: Vec<String> = found
        .words
        .iter()
        .flat_map(|word| option_names(word))
        .filter(|name| !has_option(target, name) && !has_option(command, name))
        .collect();
    (!unknown.is_empty()).then(|| {
        format!(
            "{}: `touchmove {}` names {unknown:?}, not options of it",
            found.at,
            found.words.join(" ")
        )
    })
}

/// The `--name`s a word of a synopsis holds (`[--board`, `--x=Y]`, `(--log`).
fn option_names(word: &str) -> Vec<String> {
    word.split(['[', ']', '(', ')', '|', ',', ':', ';', '.'])
        .filter_map(|part| part.strip_prefix("--"))
        .map(|name| name.split('=').next().unwrap_or(name).to_owned())
        .filter(|name| !name.is_empty())
        .collect()
}

/// Whether `command` has an option called `--name` (or aliased so).
fn has_option(command: &Command, name: &str) -> bool {
    command.get_arguments().any(|arg| {
        arg.get_long() == Some(name)
            || arg
                .get_all_aliases()
                .is_some_and(|aliases| aliases.contains(&name))
    }) || matches!(name, "help" | "version" | "verbose")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_line_of_the_docs_is_the_command_line_s() {
        let command = super::super::help::command();
        let mut checked = 0;
        let mut faults = Vec::new();
        for path in docs() {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let file = path
                .file_name()
                .map(|name| name.to_string_lossy().into_owned());
            for found in command_lines(&file.unwrap_or_default(), &text) {
                checked += 1;
                faults.extend(fault(&command, &found));
            }
        }
        assert!(checked > 50, "only {checked} command lines found");
        assert!(faults.is_empty(), "{}", faults.join("\n"));
    }

    #[test]
    fn a_line_that_drifted_is_caught() {
        let command = super::super::help::command();
        let text = "```sh\ntouchmove watch --no-such-option\n```\n\n```\ntouchmove serve [--listen ADDR] [--nope N]\n                [--board X]\n```\nThen `touchmove replay --jsn`.\n";
        let faults: Vec<String> = command_lines("doc.md", text)
            .iter()
            .filter_map(|found| fault(&command, found))
            .collect();
        assert_eq!(faults.len(), 3, "{faults:?}");
        assert!(
            faults[0].starts_with("doc.md:2: `touchmove watch --no-such-option`"),
            "{faults:?}"
        );
        assert!(faults[1].contains("[\"nope\"]"), "{faults:?}");
        assert!(
            faults[2].starts_with("doc.md:9:") && faults[2].contains("[\"jsn\"]"),
            "{faults:?}"
        );
    }

    #[test]
    fn shell_lines_are_split_as_a_shell_splits_them() {
        assert_eq!(
            touchmove_args("LICHESS_TOKEN=x touchmove online --seek 10+5 | tee out # note"),
            Some("online --seek 10+5".to_owned())
        );
        assert_eq!(
            touchmove_args("cargo run --locked --release -- replay a.log"),
            Some("replay a.log".to_owned())
        );
        assert_eq!(touchmove_args("sudo usermod -aG dialout \"$USER\""), None);
        assert_eq!(
            shell_words("serve --event 'Club night' --round \"4\""),
            ["serve", "--event", "Club night", "--round", "4"]
        );
    }
}
