//! What `doctor` found: each thing checked, its state, and for what is missing the fix and the
//! commands that need it. Said as lines a person reads; the exit status from the commands
//! asked about.

use std::fmt::Write as _;

pub use super::super::args::Need;

/// The commands that need a board to play on.
pub const ON_A_BOARD: &[Need] = &[Need::Watch, Need::Play, Need::Online, Need::Calibrate];

/// How a thing checked stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum State {
    /// There and working.
    Ok,
    /// Worth knowing, needed by no command asked about (an option's, a better way).
    Note,
    /// Missing or refused: these commands cannot do without it.
    Missing(&'static [Need]),
}

/// One thing checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// How it stands.
    pub state: State,
    /// What it is and what was found (`serial port /dev/ttyUSB0: readable and writable`).
    pub said: String,
    /// What to do about it.
    pub fix: Option<String>,
}

impl Finding {
    /// A thing there and working.
    pub fn ok(said: impl Into<String>) -> Finding {
        Finding {
            state: State::Ok,
            said: said.into(),
            fix: None,
        }
    }

    /// A thing worth knowing, with what to do about it.
    pub fn note(said: impl Into<String>, fix: Option<String>) -> Finding {
        Finding {
            state: State::Note,
            said: said.into(),
            fix,
        }
    }

    /// A thing `needed_by` these commands, missing, with its fix.
    pub fn missing(needed_by: &'static [Need], said: impl Into<String>, fix: String) -> Finding {
        Finding {
            state: State::Missing(needed_by),
            said: said.into(),
            fix: Some(fix),
        }
    }

    /// Whether one of the commands `asked` about (every command when none) needs it and it is
    /// missing.
    pub fn fails(&self, asked: &[Need]) -> bool {
        match &self.state {
            State::Missing(needed_by) => {
                asked.is_empty() || needed_by.iter().any(|need| asked.contains(need))
            }
            State::Ok | State::Note => false,
        }
    }
}

/// The report: every finding under its heading, then what the commands asked about lack.
pub fn report(sections: &[(&str, Vec<Finding>)], asked: &[Need]) -> String {
    let mut out = String::new();
    for (heading, findings) in sections {
        let _ = writeln!(out, "{heading}");
        for finding in findings {
            let mark = match (&finding.state, finding.fails(asked)) {
                (State::Ok, _) => "ok",
                (State::Note, _) | (State::Missing(_), false) => "note",
                (State::Missing(_), true) => "MISSING",
            };
            let _ = write!(out, "  {mark:<8} {}", finding.said);
            if let State::Missing(needed_by) = finding.state {
                let names: Vec<&str> = needed_by.iter().map(|need| need.name()).collect();
                let _ = write!(out, " (needed by {})", names.join(", "));
            }
            out.push('\n');
            if let Some(fix) = &finding.fix {
                let _ = writeln!(out, "  {:<8} fix: {fix}", "");
            }
        }
    }
    let failing = sections
        .iter()
        .flat_map(|(_, findings)| findings)
        .filter(|finding| finding.fails(asked))
        .count();
    let scope = if asked.is_empty() {
        "touchmove's commands".to_owned()
    } else {
        let names: Vec<&str> = asked.iter().map(|need| need.name()).collect();
        names.join(", ")
    };
    match failing {
        0 => {
            let _ = writeln!(out, "nothing is missing for {scope}");
        }
        n => {
            let _ = writeln!(out, "{n} missing for {scope}: see the fixes above");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sections() -> Vec<(&'static str, Vec<Finding>)> {
        vec![
            (
                "engines",
                vec![
                    Finding::missing(
                        &[Need::Play],
                        "no UCI engine",
                        "sudo apt-get install stockfish".to_owned(),
                    ),
                    Finding::ok("espeak-ng: /usr/bin/espeak-ng"),
                ],
            ),
            (
                "lichess",
                vec![Finding::note("no token", Some("create one".to_owned()))],
            ),
        ]
    }

    #[test]
    fn a_missing_thing_fails_the_commands_that_need_it_and_only_those() {
        let engine = &sections()[0].1[0];
        assert!(engine.fails(&[]), "every command asked about by default");
        assert!(engine.fails(&[Need::Watch, Need::Play]));
        assert!(!engine.fails(&[Need::Watch]));
        assert!(!sections()[1].1[0].fails(&[]), "a note fails nothing");
    }

    #[test]
    fn the_report_says_each_thing_its_fix_and_the_count() {
        let expected = "\
engines
  MISSING  no UCI engine (needed by play)
           fix: sudo apt-get install stockfish
  ok       espeak-ng: /usr/bin/espeak-ng
lichess
  note     no token
           fix: create one
1 missing for touchmove's commands: see the fixes above
";
        assert_eq!(report(&sections(), &[]), expected);
        let watch_only = report(&sections(), &[Need::Watch]);
        assert!(
            watch_only.contains("  note     no UCI engine (needed by play)\n"),
            "{watch_only}"
        );
        assert!(
            watch_only.ends_with("nothing is missing for watch\n"),
            "{watch_only}"
        );
    }
}
