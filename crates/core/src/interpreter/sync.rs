//! How the interpreter stands with the board: in step with it, or lost (a mismatch reported,
//! moves missed while nobody was listening looked for).

/// Whether the record follows the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) enum Sync {
    /// The board has matched what the game expects whenever it was weighed.
    #[default]
    InStep,
    /// The board matched nothing for the window, and the mismatch was reported; a resync is
    /// reported when it matches again.
    MismatchReported,
    /// A full report left the board matching nothing: moves may have been missed, and are
    /// looked for at each change until the board matches again (`mismatch_reported` once the
    /// mismatch has been reported meanwhile).
    CatchingUp { mismatch_reported: bool },
    /// The arbiter reinstated an earlier position: the board matches nothing (the mismatch
    /// said) until it shows that position, and no move made unseen is looked for meanwhile.
    Reinstating,
}

impl Sync {
    /// The board matches the game again; whether a mismatch had been reported (a resync is
    /// then due).
    pub(super) fn matched(&mut self) -> bool {
        let reported = self.mismatch_reported();
        *self = Sync::InStep;
        reported
    }

    /// Whether a mismatch has been reported and the board has not matched since.
    pub(super) fn mismatch_reported(self) -> bool {
        matches!(
            self,
            Sync::MismatchReported
                | Sync::Reinstating
                | Sync::CatchingUp {
                    mismatch_reported: true
                }
        )
    }

    /// Whether moves missed while nobody was listening are being looked for.
    pub(super) fn catching_up(self) -> bool {
        matches!(self, Sync::CatchingUp { .. })
    }

    /// The mismatch is reported now.
    pub(super) fn report_mismatch(&mut self) {
        *self = match *self {
            Sync::CatchingUp { .. } => Sync::CatchingUp {
                mismatch_reported: true,
            },
            Sync::Reinstating => Sync::Reinstating,
            _ => Sync::MismatchReported,
        };
    }

    /// A full report left the board matching nothing: look for the moves missed (not while
    /// the board is put back to a reinstated position).
    pub(super) fn catch_up(&mut self) {
        if *self == Sync::Reinstating {
            return;
        }
        *self = Sync::CatchingUp {
            mismatch_reported: self.mismatch_reported(),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reported_mismatch_is_remembered_while_catching_up_until_the_board_matches() {
        let mut sync = Sync::InStep;
        sync.report_mismatch();
        assert!(sync.mismatch_reported() && !sync.catching_up());
        sync.catch_up();
        assert!(sync.mismatch_reported() && sync.catching_up());
        assert!(sync.matched(), "a resync is due");
        assert_eq!(sync, Sync::InStep);
        assert!(!sync.matched(), "nothing was reported since");
        sync.catch_up();
        assert!(sync.catching_up() && !sync.mismatch_reported());
        sync.report_mismatch();
        assert_eq!(
            sync,
            Sync::CatchingUp {
                mismatch_reported: true
            }
        );
    }
}
