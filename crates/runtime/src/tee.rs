//! Two sinks as one: what a runner reports goes to both, in order (its notices to the first
//! only): `demo` prints the game in the terminal and serves its page.

use std::io;

use crate::runner::{Happened, Sink};

/// Sends everything to `0`, then to `1` (notices to `0` only).
///
/// ```
/// use std::io;
/// use touchmove_core::event::LinkState;
/// use touchmove_runtime::runner::{Happened, Sink};
/// use touchmove_runtime::tee::Tee;
///
/// /// A sink that writes down what it is told, in words.
/// #[derive(Default)]
/// struct Said(Vec<String>);
///
/// impl Sink for Said {
///     fn take(&mut self, happened: Happened<'_>) -> io::Result<()> {
///         self.0.push(match happened {
///             Happened::Notice { text, .. } => format!("notice {text}"),
///             Happened::Link { t, state } => format!("{t} link {state:?}"),
///             _ => "other".to_owned(),
///         });
///         Ok(())
///     }
/// }
///
/// let mut both = Tee(Said::default(), Said::default());
/// both.take(Happened::Notice {
///     t: 0,
///     text: "connected to /dev/ttyUSB0",
/// })?;
/// both.take(Happened::Link { t: 900, state: LinkState::Lost })?;
/// assert_eq!(both.0.0, ["notice connected to /dev/ttyUSB0", "900 link Lost"]);
/// assert_eq!(both.1.0, ["900 link Lost"], "a notice is said once");
/// # Ok::<(), io::Error>(())
/// ```
pub struct Tee<A, B>(pub A, pub B);

impl<A: Sink, B: Sink> Sink for Tee<A, B> {
    fn take(&mut self, happened: Happened<'_>) -> io::Result<()> {
        self.0.take(happened)?;
        match happened {
            // To the first only: both would print the same diagnostic.
            Happened::Notice { .. } => Ok(()),
            _ => self.1.take(happened),
        }
    }
}
