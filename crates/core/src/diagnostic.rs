//! Diagnostics for `-v`, with no logging crate for an embedder that wants none.

/// A diagnostic for `-v` (`tracing::debug!`) with the `tracing` feature, else nothing: an
/// embedder that wants none compiles no logging crate. Declared first in the crate root, so
/// every module may write `diagnostic!(...)`.
macro_rules! diagnostic {
    ($($arg:tt)*) => {
        #[cfg(feature = "tracing")]
        tracing::debug!($($arg)*);
    };
}
