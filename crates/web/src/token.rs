//! The operator's token: a secret the command line takes and serve checks, never printed.

/// A secret that is never printed (its `Debug` says only that it is there).
///
/// ```
/// use touchmove_web::token::Token;
///
/// let token = Token::new("  s3cret\n").expect("not empty");
/// assert!(token.matches("s3cret"));
/// assert!(!token.matches("s3cre"));
/// assert_eq!(format!("{token:?}"), "Token(redacted)");
/// assert!(Token::new("   ").is_none());
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// The token `text` (surrounding blanks dropped); `None` if it is empty.
    pub fn new(text: &str) -> Option<Token> {
        let text = text.trim();
        (!text.is_empty()).then(|| Token(text.to_owned()))
    }

    /// Whether `given` is this token, compared in a time that does not depend on where they
    /// differ.
    pub fn matches(&self, given: &str) -> bool {
        let (ours, theirs) = (self.0.as_bytes(), given.as_bytes());
        let differ = ours
            .iter()
            .zip(theirs)
            .fold(ours.len() ^ theirs.len(), |acc, (a, b)| {
                acc | usize::from(a ^ b)
            });
        differ == 0
    }
}

impl std::fmt::Debug for Token {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Token(redacted)")
    }
}
