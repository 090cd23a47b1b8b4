//! A board's lead: plugged in, and pulled out once for a while if the options say so
//! (`--unplug-at`, `--unplug-for`). Every emulator that can be unplugged keeps one.

use std::collections::VecDeque;

use touchmove_core::sensor::Millis;

use super::board::Notice;
use super::options::Unplug;

/// Whether the board is plugged in, and the unplugging still to come.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Plug {
    unplug: Option<Unplug>,
    plugged: bool,
}

impl Plug {
    /// Plugged in, to be unplugged as `unplug` says (never, with `None`).
    pub(crate) fn new(unplug: Option<Unplug>) -> Plug {
        Plug {
            unplug,
            plugged: true,
        }
    }

    /// Whether the board is plugged in now.
    pub(crate) fn plugged(&self) -> bool {
        self.plugged
    }

    /// When the lead is next pulled out or put back, if it will be.
    pub(crate) fn due(&self) -> Option<Millis> {
        let unplug = self.unplug?;
        Some(if self.plugged {
            unplug.at
        } else {
            unplug.at.saturating_add(unplug.duration)
        })
    }

    /// The lead pulled out or put back (the notice said): whether the board is plugged in now.
    pub(crate) fn toggle(&mut self, notices: &mut VecDeque<Notice>) -> bool {
        if self.plugged {
            self.plugged = false;
            notices.push_back(Notice::Unplugged);
        } else {
            self.plugged = true;
            self.unplug = None;
            notices.push_back(Notice::Replugged);
        }
        self.plugged
    }
}
