//! The tokens a command reads: from a file given on the command line (or the hall file), else
//! from the environment. Never printed: an error names the file or the variable, not the token.

use std::path::Path;

use anyhow::{Context, Result};

/// The environment variable holding a Lichess token.
pub const LICHESS_TOKEN: &str = "LICHESS_TOKEN";

/// The token in `file` (trimmed), else in the environment variable `variable`; `None` when
/// neither holds one (an empty file or variable holds none).
pub fn token(file: Option<(&str, &Path)>, variable: &str) -> Result<Option<String>> {
    let text = match file {
        Some((option, path)) => std::fs::read_to_string(path)
            .with_context(|| format!("{option} {}: cannot read it", path.display()))?,
        None => std::env::var(variable).unwrap_or_default(),
    };
    let token = text.trim();
    Ok((!token.is_empty()).then(|| token.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_s_token_is_trimmed_and_an_empty_file_holds_none() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let path = dir.path().join("token");
        std::fs::write(&path, "lip_abc\n")?;
        assert_eq!(
            token(Some(("--token-file", &path)), "TOUCHMOVE_NO_SUCH_VARIABLE")?,
            Some("lip_abc".to_owned())
        );
        std::fs::write(&path, " \n")?;
        assert_eq!(token(Some(("--token-file", &path)), "PATH")?, None);
        let missing = dir.path().join("missing");
        let said = token(Some(("--token-file", &missing)), "PATH")
            .err()
            .map(|error| error.to_string())
            .unwrap_or_default();
        assert!(
            said.starts_with("--token-file ") && said.ends_with("cannot read it"),
            "{said}"
        );
        Ok(())
    }
}
