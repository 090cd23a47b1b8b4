//! The timing a session decides with, and the one rule for where each setting comes from.
//!
//! Four settings shape the interpreter's decisions besides the rules: the report horizon, the
//! slide and bounce windows and the board's scan period ([`Config`]). A live session writes
//! them in its recording's header (`@report-horizon-ms`, `@slide-ms`, `@bounce-ms`,
//! `@scan-ms`) so that a replay decides as it did. Every path that starts an interpreter takes
//! each setting from the first source that states it: **given** (the command line, an
//! embedder's choice), else **the recording's** header, else **the protocol's** (the board's
//! family: its report horizon and scan), else the configuration's own default. [`resolve`] is
//! that rule, written once; `LogHeader::config` applies it to a recorded log.
//!
//! ```
//! use touchmove_core::Config;
//! use touchmove_core::timing::{Timing, resolve};
//!
//! // As a recording's header states it (`LogHeader::timing`): a scan and the two windows.
//! let recorded = Timing {
//!     slide_ms: Some(300),
//!     bounce_ms: Some(50),
//!     scan_ms: Some(250),
//!     ..Timing::default()
//! };
//! let given = Timing { slide_ms: Some(400), ..Timing::default() };
//! let protocol = Timing { report_horizon_ms: Some(300), scan_ms: Some(100), ..Timing::default() };
//! let config = resolve(Config::default(), given, recorded, protocol);
//! assert_eq!(config.slide_ms, 400); // given
//! assert_eq!(config.bounce_ms, 50); // the recording's
//! assert_eq!(config.scan_ms, 250); // the recording's, before the protocol's
//! assert_eq!(config.report_horizon_ms, 300); // the protocol's: the recording states none
//! ```

use crate::interpreter::Config;
use crate::sensor::Millis;

/// The timing settings one source states; `None` where it states nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Timing {
    /// How long after a clock press the board's reports of what came before may still arrive
    /// ([`Config::report_horizon_ms`]).
    pub report_horizon_ms: Option<Millis>,
    /// The slide window ([`Config::slide_ms`]).
    pub slide_ms: Option<Millis>,
    /// The bounce window ([`Config::bounce_ms`]).
    pub bounce_ms: Option<Millis>,
    /// The board's scan period ([`Config::scan_ms`]).
    pub scan_ms: Option<Millis>,
}

impl Timing {
    /// Every setting `config` decides with: what a session writes in its recording.
    pub fn of_config(config: &Config) -> Timing {
        Timing {
            report_horizon_ms: Some(config.report_horizon_ms),
            slide_ms: Some(config.slide_ms),
            bounce_ms: Some(config.bounce_ms),
            scan_ms: Some(config.scan_ms),
        }
    }

    /// Each setting as this states it, else as `fallback` does.
    #[must_use]
    pub fn or(self, fallback: Timing) -> Timing {
        Timing {
            report_horizon_ms: self.report_horizon_ms.or(fallback.report_horizon_ms),
            slide_ms: self.slide_ms.or(fallback.slide_ms),
            bounce_ms: self.bounce_ms.or(fallback.bounce_ms),
            scan_ms: self.scan_ms.or(fallback.scan_ms),
        }
    }

    /// `config` with every setting this states; the others stay as `config` has them.
    #[must_use]
    pub fn applied_to(self, config: Config) -> Config {
        let mut config = config;
        let settings = [
            (self.report_horizon_ms, &mut config.report_horizon_ms),
            (self.slide_ms, &mut config.slide_ms),
            (self.bounce_ms, &mut config.bounce_ms),
            (self.scan_ms, &mut config.scan_ms),
        ];
        for (stated, setting) in settings {
            if let Some(ms) = stated {
                *setting = ms;
            }
        }
        config
    }
}

/// `config` with each timing setting `given`, else as the `recorded` header states it
/// ([`LogHeader::timing`](crate::sensor_log::LogHeader::timing); nothing for a game not
/// recorded), else as the `protocol` does, else as `config` has it.
pub fn resolve(config: Config, given: Timing, recorded: Timing, protocol: Timing) -> Config {
    given.or(recorded).or(protocol).applied_to(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NONE: Timing = Timing {
        report_horizon_ms: None,
        slide_ms: None,
        bounce_ms: None,
        scan_ms: None,
    };

    fn all(ms: Millis) -> Timing {
        Timing {
            report_horizon_ms: Some(ms),
            slide_ms: Some(ms),
            bounce_ms: Some(ms),
            scan_ms: Some(ms),
        }
    }

    #[test]
    fn each_setting_comes_from_the_first_source_that_states_it() {
        let recorded = Timing {
            report_horizon_ms: Some(2),
            ..NONE
        };
        let base = Config::default();
        // Given wins over everything.
        assert_eq!(
            Timing::of_config(&resolve(base, all(1), all(2), all(3))),
            all(1)
        );
        // The recording's over the protocol's, setting by setting.
        let config = resolve(base, NONE, recorded, all(3));
        assert_eq!(config.report_horizon_ms, 2);
        assert_eq!(
            (config.slide_ms, config.bounce_ms, config.scan_ms),
            (3, 3, 3)
        );
        // Nothing stated anywhere: the configuration's own.
        assert_eq!(resolve(base, NONE, NONE, NONE), base);
    }
}
