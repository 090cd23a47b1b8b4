//! `serve --config FILE`: a hall in one TOML file. Its keys are `serve`'s long options, spelt
//! as on the command line (`lichess-round`, `public-delay`, `record-dir`): a flag takes `true`
//! or `false`, an option its value, a repeatable option (`board`, `allow-host`) a list. A
//! board may also be a table, `[[board]]` with `port` and optionally `name`, `protocol`,
//! `white` and `black`: its players are the file's for that board.
//!
//! The file is turned into `serve`'s own arguments and parsed with the command line by `clap`,
//! so a key's value is checked by the option's own parser and means what the option means. An
//! option given on the command line overrides the file's key (a `--board` on the command line:
//! every board of the file). A bad file is refused with its line and key.

use std::collections::HashMap;
use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};

use clap::parser::ValueSource;
use clap::{ArgAction, ArgMatches, Command, FromArgMatches};
use toml::Spanned;
use toml::de::{DeTable, DeValue};

use touchmove::watched::Players;

use super::args::{Cli, Command as Subcommand};

/// The subcommand a hall file configures.
const SERVE: &str = "serve";
/// Its option naming the file.
const CONFIG: &str = "config";

/// Why a command line with its hall file was refused.
#[derive(Debug)]
pub enum Refused {
    /// The command line itself (or `--help`, `--version`): clap says it.
    CommandLine(clap::Error),
    /// The hall file: its path, line, key and what was wrong.
    File(FileError),
}

/// A hall file's fault, where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    /// The file.
    pub path: PathBuf,
    /// Its line (1-based), when the fault has one.
    pub line: Option<usize>,
    /// The key, when the fault is one key's.
    pub key: Option<String>,
    /// What was wrong.
    pub what: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(key) = &self.key {
            write!(f, ": `{key}`")?;
        }
        write!(f, ": {}", self.what)
    }
}

/// One key of the file, as arguments of `serve`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    /// The key, which is the option's long name.
    pub key: String,
    /// The option's id in the command (`lichess_round` for `lichess-round`).
    id: String,
    /// The key's line.
    pub line: usize,
    /// The arguments it stands for (`--lichess-round=abc`).
    pub args: Vec<OsString>,
}

/// A hall file read: its settings and the players its boards name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HallFile {
    /// Each key, in the file's order.
    pub settings: Vec<Setting>,
    /// The players of `[[board]]` tables, by board name.
    pub seated: HashMap<String, Players>,
}

/// Parses the command line `argv`; with `serve --config FILE`, the file's keys are `serve`'s
/// arguments where the command line does not give them.
pub fn parse(argv: Vec<OsString>) -> Result<Cli, Refused> {
    let command = super::help::command();
    let matches = command
        .clone()
        .try_get_matches_from(&argv)
        .map_err(Refused::CommandLine)?;
    let Some(path) = config_path(&matches) else {
        return Cli::from_arg_matches(&matches).map_err(Refused::CommandLine);
    };
    let file = read(&path, &command).map_err(Refused::File)?;
    let given = given_on_command_line(&matches);
    let kept: Vec<&Setting> = file
        .settings
        .iter()
        .filter(|setting| !given.contains(&setting.id))
        .collect();
    let merged = splice(argv, &kept);
    let matches = command
        .try_get_matches_from(&merged)
        .map_err(|error| blame(error, &path, &kept))?;
    let mut cli = Cli::from_arg_matches(&matches).map_err(Refused::CommandLine)?;
    if let Subcommand::Serve(serve) = &mut cli.command
        && !given.iter().any(|id| id == "boards" || id == "players")
    {
        serve.seated = file.seated;
    }
    Ok(cli)
}

/// Reads and checks the hall file at `path` against `serve`'s options in `cli`.
pub fn read(path: &Path, cli: &Command) -> Result<HallFile, FileError> {
    let text = std::fs::read_to_string(path).map_err(|error| FileError {
        path: path.to_owned(),
        line: None,
        key: None,
        what: format!("cannot read it: {error}"),
    })?;
    let serve = cli
        .find_subcommand(SERVE)
        .ok_or_else(|| fault(path, None, None, "no serve command".to_owned()))?;
    parse_text(&text, serve).map_err(|(line, key, what)| fault(path, line, key, what))
}

/// A fault of the file at `path`.
fn fault(path: &Path, line: Option<usize>, key: Option<String>, what: String) -> FileError {
    FileError {
        path: path.to_owned(),
        line,
        key,
        what,
    }
}

/// A fault found in the text: its line, its key, what was wrong.
type TextFault = (Option<usize>, Option<String>, String);

/// The settings of `text`, checked against the options of `serve`.
fn parse_text(text: &str, serve: &Command) -> Result<HallFile, TextFault> {
    let line_of = |offset: usize| line_at(text, offset);
    let table = DeTable::parse(text).map_err(|error| {
        let line = error.span().map(|span| line_of(span.start));
        (line, None, error.message().trim().to_owned())
    })?;
    let mut file = HallFile::default();
    let mut keys: Vec<_> = table.get_ref().iter().collect();
    keys.sort_by_key(|(key, _)| key.span().start);
    for (key, value) in keys {
        let line = line_of(key.span().start);
        let name = key.get_ref().to_string();
        let with_key = |what: String| (Some(line), Some(name.clone()), what);
        let arg = option(serve, &name).map_err(with_key)?;
        let args = if name == "board" {
            boards(value, &mut file.seated, &line_of)
                .map_err(|(line, what)| (Some(line), Some(name.clone()), what))?
        } else {
            arguments(&name, arg, value).map_err(with_key)?
        };
        file.settings.push(Setting {
            key: name.clone(),
            id: arg.get_id().to_string(),
            line,
            args,
        });
    }
    Ok(file)
}

/// The line (1-based) of byte `offset` of `text`.
fn line_at(text: &str, offset: usize) -> usize {
    let before = text.get(..offset).unwrap_or(text);
    before.bytes().filter(|byte| *byte == b'\n').count() + 1
}

/// `serve`'s option whose long name is `key`.
fn option<'c>(serve: &'c Command, key: &str) -> Result<&'c clap::Arg, String> {
    if key == CONFIG {
        return Err("a hall file cannot name another".to_owned());
    }
    serve
        .get_arguments()
        .find(|arg| arg.get_long() == Some(key) && !arg.is_hide_set())
        .filter(|arg| !matches!(arg.get_action(), ArgAction::Help | ArgAction::Version))
        .ok_or_else(|| {
            "no such key (the keys are serve's options: `touchmove serve --help`)".to_owned()
        })
}

/// The arguments one key stands for.
fn arguments(
    key: &str,
    arg: &clap::Arg,
    value: &Spanned<DeValue<'_>>,
) -> Result<Vec<OsString>, String> {
    let flag = matches!(arg.get_action(), ArgAction::SetTrue);
    let optional_value = arg
        .get_num_args()
        .is_some_and(|range| range.min_values() == 0);
    match value.get_ref() {
        DeValue::Boolean(on) if flag || optional_value => Ok(if *on {
            vec![format!("--{key}").into()]
        } else {
            Vec::new()
        }),
        _ if flag => Err("a flag: give true or false".to_owned()),
        DeValue::Array(items) if matches!(arg.get_action(), ArgAction::Append) => {
            items.iter().map(|item| one(key, item.get_ref())).collect()
        }
        DeValue::Array(_) => Err("takes one value, not a list".to_owned()),
        other => one(key, other).map(|arg| vec![arg]),
    }
}

/// `--key=VALUE` for one value.
fn one(key: &str, value: &DeValue<'_>) -> Result<OsString, String> {
    let text = match value {
        DeValue::String(text) => text.to_string(),
        DeValue::Integer(number) if number.radix() == 10 => number.as_str().to_owned(),
        DeValue::Float(number) => number.as_str().to_owned(),
        DeValue::Boolean(_) => return Err("takes a value, not true or false".to_owned()),
        _ => return Err("give a string or a number".to_owned()),
    };
    Ok(format!("--{key}={text}").into())
}

/// The `--board` arguments of the `board` key: a list of `[NAME=][PROTOCOL:]PORT` strings or of
/// tables; a table's players are seated. A fault is its line and what was wrong.
fn boards(
    value: &Spanned<DeValue<'_>>,
    seated: &mut HashMap<String, Players>,
    line_of: &dyn Fn(usize) -> usize,
) -> Result<Vec<OsString>, (usize, String)> {
    let DeValue::Array(items) = value.get_ref() else {
        return Err((
            line_of(value.span().start),
            "a list of boards ([[board]] tables or strings)".to_owned(),
        ));
    };
    let mut args = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let line = line_of(item.span().start);
        let spec = match item.get_ref() {
            DeValue::String(spec) => spec.to_string(),
            DeValue::Table(table) => board_table(table, index, seated, line_of)?,
            _ => return Err((line, "a board is a table or a string".to_owned())),
        };
        args.push(format!("--board={spec}").into());
    }
    Ok(args)
}

/// The keys a `[[board]]` table may have.
const BOARD_KEYS: [&str; 5] = ["name", "port", "protocol", "white", "black"];

/// A `[[board]]` table as `NAME=[PROTOCOL:]PORT` (its name, unless given, its place in the
/// list, as serve names boards); its players seated under that name.
fn board_table(
    table: &DeTable<'_>,
    index: usize,
    seated: &mut HashMap<String, Players>,
    line_of: &dyn Fn(usize) -> usize,
) -> Result<String, (usize, String)> {
    let mut fields: HashMap<&str, String> = HashMap::new();
    let mut first_line = usize::MAX;
    for (key, value) in table {
        let line = line_of(key.span().start);
        first_line = first_line.min(line);
        let name = key.get_ref().as_ref();
        let Some(known) = BOARD_KEYS.iter().find(|known| **known == name) else {
            return Err((
                line,
                format!("no such key `{name}` in a board (it has {BOARD_KEYS:?})"),
            ));
        };
        let DeValue::String(text) = value.get_ref() else {
            return Err((line, format!("a board's `{name}` is a string")));
        };
        fields.insert(known, text.to_string());
    }
    let line = if first_line == usize::MAX {
        1
    } else {
        first_line
    };
    let Some(port) = fields.get("port") else {
        return Err((line, "a board with no `port`".to_owned()));
    };
    let name = fields
        .get("name")
        .cloned()
        .unwrap_or_else(|| index.saturating_add(1).to_string());
    let players = Players {
        white: fields.get("white").cloned().filter(|name| !name.is_empty()),
        black: fields.get("black").cloned().filter(|name| !name.is_empty()),
    };
    if players != Players::default() && seated.insert(name.clone(), players).is_some() {
        return Err((line, format!("board {name} is named twice")));
    }
    Ok(match fields.get("protocol") {
        Some(protocol) => format!("{name}={protocol}:{port}"),
        None => format!("{name}={port}"),
    })
}

/// The `--config` of a `serve` command line.
fn config_path(matches: &ArgMatches) -> Option<PathBuf> {
    let (SERVE, serve) = matches.subcommand()? else {
        return None;
    };
    serve.get_one::<PathBuf>(CONFIG).cloned()
}

/// The ids of `serve`'s options the command line gave.
fn given_on_command_line(matches: &ArgMatches) -> Vec<String> {
    let Some((SERVE, serve)) = matches.subcommand() else {
        return Vec::new();
    };
    serve
        .ids()
        .filter(|id| serve.value_source(id.as_str()) == Some(ValueSource::CommandLine))
        .map(|id| id.to_string())
        .collect()
}

/// `argv` with the settings' arguments right after the `serve` subcommand (so that the
/// command line's own arguments follow them).
fn splice(argv: Vec<OsString>, settings: &[&Setting]) -> Vec<OsString> {
    let at = argv
        .iter()
        .skip(1)
        .position(|arg| arg == SERVE)
        .map_or(argv.len(), |index| index.saturating_add(2));
    let mut merged = argv;
    let tail = merged.split_off(at.min(merged.len()));
    merged.extend(settings.iter().flat_map(|setting| setting.args.clone()));
    merged.extend(tail);
    merged
}

/// clap's refusal of the merged command line: the file's line and key when it is about a
/// setting of the file.
fn blame(error: clap::Error, path: &Path, settings: &[&Setting]) -> Refused {
    let about = error
        .get(clap::error::ContextKind::InvalidArg)
        .map(|arg| arg.to_string())
        .unwrap_or_default();
    let setting = settings.iter().find(|setting| {
        let long = format!("--{}", setting.key);
        about == long || about.starts_with(&format!("{long} "))
    });
    let missing = error.kind() == clap::error::ErrorKind::MissingRequiredArgument;
    match setting {
        Some(setting) => Refused::File(FileError {
            path: path.to_owned(),
            line: Some(setting.line),
            key: Some(setting.key.clone()),
            what: first_line_of(&error),
        }),
        None if missing && !settings.is_empty() => Refused::File(FileError {
            path: path.to_owned(),
            line: None,
            key: None,
            what: format!(
                "a key needs another: {}",
                first_line_of(&error).trim_end_matches(':')
            ),
        }),
        None => Refused::CommandLine(error),
    }
}

/// clap's message up to its usage, on one line, without `error: `.
fn first_line_of(error: &clap::Error) -> String {
    let rendered = error.render().to_string();
    let said: Vec<&str> = rendered
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .map(str::trim)
        .collect();
    let said = said.join(" ");
    said.strip_prefix("error: ").unwrap_or(&said).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hall file `text` parsed with the command line `serve ARGS --config FILE`.
    fn parsed(text: &str, args: &[&str]) -> Result<ServeArgsSeen, String> {
        let dir = tempfile::tempdir().map_err(|error| error.to_string())?;
        let path = dir.path().join("hall.toml");
        std::fs::write(&path, text).map_err(|error| error.to_string())?;
        let mut argv: Vec<OsString> = vec!["touchmove".into(), "serve".into()];
        argv.extend(args.iter().map(OsString::from));
        argv.extend(["--config".into(), path.clone().into_os_string()]);
        match parse(argv) {
            Ok(Cli {
                command: Subcommand::Serve(serve),
                ..
            }) => Ok(ServeArgsSeen::of(&serve)),
            Ok(_) => Err("not serve".to_owned()),
            Err(Refused::File(error)) => Err(error
                .to_string()
                .replace(&path.display().to_string(), "FILE")),
            Err(Refused::CommandLine(error)) => Err(format!("command line: {error}")),
        }
    }

    /// What the tests look at in the parsed `serve` arguments.
    #[derive(Debug, PartialEq)]
    struct ServeArgsSeen {
        event: Option<String>,
        round: Option<String>,
        console: bool,
        demo: Option<u32>,
        demo_speed: f64,
        public_delay: Option<std::time::Duration>,
        boards: Vec<String>,
        hosts: Vec<String>,
        livechess: Option<std::net::SocketAddr>,
        seated: Vec<(String, Option<String>, Option<String>)>,
    }

    impl ServeArgsSeen {
        fn of(serve: &super::super::args::ServeArgs) -> ServeArgsSeen {
            let mut seated: Vec<_> = serve
                .seated
                .iter()
                .map(|(board, players)| {
                    (board.clone(), players.white.clone(), players.black.clone())
                })
                .collect();
            seated.sort();
            ServeArgsSeen {
                event: serve.event.clone(),
                round: serve.round.clone(),
                console: serve.console,
                demo: serve.demo,
                demo_speed: serve.demo_speed,
                public_delay: serve.public_delay,
                boards: serve
                    .boards
                    .iter()
                    .map(|spec| {
                        format!(
                            "{}={}:{}",
                            spec.name.clone().unwrap_or_default(),
                            spec.protocol.clone().unwrap_or_default(),
                            spec.port.display()
                        )
                    })
                    .collect(),
                hosts: serve.allow_hosts.clone(),
                livechess: serve.livechess,
                seated,
            }
        }
    }

    const HALL: &str = r#"# Round 4 of the club championship
event = "Club championship"
round = "4"
console = true
public-delay = "15m"
allow-host = ["hall.example.org", "10.0.0.2"]
livechess = true

[[board]]
name = "north"
port = "/dev/ttyUSB0"
white = "Carlsen, Magnus"
black = "Nakamura, Hikaru"

[[board]]
protocol = "hall"
port = "/dev/ttyACM0"
white = "Anna"
"#;

    #[test]
    fn every_key_is_the_option_of_its_name() {
        let seen = parsed(HALL, &[]);
        let expected = ServeArgsSeen {
            event: Some("Club championship".to_owned()),
            round: Some("4".to_owned()),
            console: true,
            demo: None,
            // serve's default: no key sets it.
            demo_speed: 1.0,
            public_delay: Some(std::time::Duration::from_secs(15 * 60)),
            // The second board, unnamed, is named 2, as serve names the second --board.
            boards: vec![
                "north=:/dev/ttyUSB0".to_owned(),
                "2=hall:/dev/ttyACM0".to_owned(),
            ],
            hosts: vec!["hall.example.org".to_owned(), "10.0.0.2".to_owned()],
            livechess: "127.0.0.1:1982".parse().ok(),
            seated: vec![
                ("2".to_owned(), Some("Anna".to_owned()), None),
                (
                    "north".to_owned(),
                    Some("Carlsen, Magnus".to_owned()),
                    Some("Nakamura, Hikaru".to_owned()),
                ),
            ],
        };
        assert_eq!(seen, Ok(expected));
    }

    #[test]
    fn numbers_and_false_flags_are_taken_as_the_options_take_them() {
        let seen = parsed(
            "demo = 3\ndemo-speed = 2.5\nconsole = false\nlivechess = \"0.0.0.0:1982\"\n",
            &[],
        );
        let seen = seen.map(|seen| (seen.demo, seen.demo_speed, seen.console, seen.livechess));
        assert_eq!(seen, Ok((Some(3), 2.5, false, "0.0.0.0:1982".parse().ok())));
    }

    #[test]
    fn the_command_line_overrides_the_file() {
        let seen = parsed(HALL, &["--event", "Blitz", "--board", "west=/dev/ttyUSB9"]);
        let seen = seen.map(|seen| (seen.event, seen.round, seen.boards, seen.seated));
        // The command line's --board stands for every board of the file, players with them.
        assert_eq!(
            seen,
            Ok((
                Some("Blitz".to_owned()),
                Some("4".to_owned()),
                vec!["west=:/dev/ttyUSB9".to_owned()],
                Vec::new()
            ))
        );
    }

    #[test]
    fn a_bad_file_is_refused_with_its_line_and_key() {
        let refused = |text: &str| parsed(text, &[]).err().unwrap_or_default();
        assert_eq!(
            refused("event = \"x\"\n\npublic-delay = \"15x\"\n"),
            "FILE:3: `public-delay`: invalid value '15x' for '--public-delay <DELAY>': \
             `15x`: give the delay as 30s, 15m or 1h"
        );
        assert_eq!(
            refused("round = \"1\"\nfoo = 3\n"),
            "FILE:2: `foo`: no such key (the keys are serve's options: `touchmove serve --help`)"
        );
        assert_eq!(
            refused("console = \"yes\"\n"),
            "FILE:1: `console`: a flag: give true or false"
        );
        assert_eq!(
            refused("event = [\"a\", \"b\"]\n"),
            "FILE:1: `event`: takes one value, not a list"
        );
        assert_eq!(
            refused("config = \"other.toml\"\n"),
            "FILE:1: `config`: a hall file cannot name another"
        );
        assert_eq!(
            refused("round = \"1\"\n[[board]]\nport = \"/dev/null\"\nblak = \"B\"\n"),
            "FILE:4: `board`: no such key `blak` in a board (it has [\"name\", \"port\", \"protocol\", \"white\", \"black\"])"
        );
        assert_eq!(
            refused("[[board]]\nname = \"1\"\n"),
            "FILE:2: `board`: a board with no `port`"
        );
        assert!(
            refused("round = \"1\"\nevent = \n").starts_with("FILE:2: "),
            "{}",
            refused("event = \n")
        );
        assert_eq!(
            refused("lichess-url = \"http://127.0.0.1:9\"\n"),
            "FILE: a key needs another: the following required arguments were not provided: \
             --lichess-round <ROUND_ID>"
        );
    }

    #[test]
    fn the_packaged_example_is_a_hall_file() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("packaging/hall.toml");
        let read = read(&path, &super::super::help::command());
        let keys = read.map(|file| {
            file.settings
                .iter()
                .map(|s| s.key.clone())
                .collect::<Vec<_>>()
        });
        let expected = [
            "listen",
            "event",
            "round",
            "record-dir",
            "resume",
            "console",
        ];
        assert_eq!(keys, Ok(expected.map(str::to_owned).to_vec()));
    }

    #[test]
    fn every_hall_file_of_the_hall_guide_is_read() {
        let guide = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/hall.md");
        let text = std::fs::read_to_string(&guide).unwrap_or_default();
        let blocks: Vec<&str> = text
            .split("```toml\n")
            .skip(1)
            .filter_map(|rest| rest.split("```").next())
            .collect();
        assert!(
            blocks.len() >= 2,
            "the guide's hall files: {}",
            blocks.len()
        );
        for block in blocks {
            assert!(
                parsed(block, &[]).is_ok(),
                "{block}: {:?}",
                parsed(block, &[])
            );
        }
    }

    #[test]
    fn a_file_that_cannot_be_read_is_named() {
        let argv: Vec<OsString> = ["touchmove", "serve", "--config", "/nonexistent/hall.toml"]
            .iter()
            .map(OsString::from)
            .collect();
        let said = match parse(argv) {
            Err(Refused::File(error)) => error.to_string(),
            other => format!("{other:?}"),
        };
        assert!(
            said.starts_with("/nonexistent/hall.toml: cannot read it: "),
            "{said}"
        );
    }

    #[test]
    fn without_config_the_command_line_alone_is_parsed() {
        let argv: Vec<OsString> = ["touchmove", "serve", "--event", "E"]
            .iter()
            .map(OsString::from)
            .collect();
        let event = match parse(argv) {
            Ok(Cli {
                command: Subcommand::Serve(serve),
                ..
            }) => serve.event,
            _ => None,
        };
        assert_eq!(event.as_deref(), Some("E"));
    }
}
