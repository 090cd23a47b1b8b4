//! What every emulated board offers whoever runs it (the `emulate` command's pseudo-terminal
//! loop, the benchmarks, the tests): sans-IO, the time passed in.

use shakmaty::Bitboard;
use touchmove_core::sensor::Millis;

pub use touchmove_core::decode::hex;

/// An emulated board: host bytes and the time in, board bytes and notices out. Times are ms of
/// emulator time.
pub trait EmulatedBoard {
    /// Takes bytes from the host at `now`.
    fn handle_bytes(&mut self, now: Millis, bytes: &[u8]);
    /// Does everything due at or before `now`.
    fn handle_timeout(&mut self, now: Millis);
    /// The next time [`EmulatedBoard::handle_timeout`] must be called, if any.
    #[must_use]
    fn poll_timeout(&self) -> Option<Millis>;
    /// The next bytes to send to the host, if any.
    #[must_use]
    fn poll_transmit(&mut self) -> Option<Vec<u8>>;
    /// Whether the script has started and everything in it has happened.
    fn script_done(&self) -> bool;
    /// The next thing worth telling whoever runs the emulator.
    #[must_use]
    fn poll_notice(&mut self) -> Option<Notice>;
    /// What the players see of the host's game on its screen at `now`: the occupied squares of
    /// the record's position. Hands that heed the board's lights set the board back to it when
    /// the host cannot follow; other boards ignore it.
    fn screen(&mut self, now: Millis, record: Bitboard) {
        let _ = (now, record);
    }
    /// What a host that calibrated this board before knows of it, as its session gives it out
    /// (`LinkEvent::Learnt`: a Certabo board's chips, every piece's of its set); `None` for a
    /// board with nothing to learn.
    fn calibration(&self) -> Option<String> {
        None
    }
}

/// A boxed board is a board: the registry hands emulators out boxed.
impl<B: EmulatedBoard + ?Sized> EmulatedBoard for Box<B> {
    fn handle_bytes(&mut self, now: Millis, bytes: &[u8]) {
        (**self).handle_bytes(now, bytes);
    }
    fn handle_timeout(&mut self, now: Millis) {
        (**self).handle_timeout(now);
    }
    fn poll_timeout(&self) -> Option<Millis> {
        (**self).poll_timeout()
    }
    fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        (**self).poll_transmit()
    }
    fn script_done(&self) -> bool {
        (**self).script_done()
    }
    fn poll_notice(&mut self) -> Option<Notice> {
        (**self).poll_notice()
    }
    fn screen(&mut self, now: Millis, record: Bitboard) {
        (**self).screen(now, record);
    }
    fn calibration(&self) -> Option<String> {
        (**self).calibration()
    }
}

/// Something worth telling whoever runs an emulated board.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Notice {
    /// The script started.
    ScriptStarted,
    /// The board was unplugged: it reads and sends nothing.
    Unplugged,
    /// The board was plugged in again, in its power-up state.
    Replugged,
    /// Bytes from the host that were no command or no intact frame, ignored: what they were,
    /// with the evidence (`unknown command byte 0xff`).
    NotUnderstood(String),
    /// A command the board understood but does not carry out (a DGT EEPROM dump, a frame only
    /// a board sends); ignored. The command's first byte (its code or frame type).
    Refused(u8),
    /// A report lost on the line on purpose, as asked (a Hall CHANGE frame: its sequence
    /// number).
    Dropped(u8),
    /// The board's display (a DGT clock's) shows this text, as the host asked.
    Displayed(String),
    /// The hands carry out this move (SAN) as the host showed it (`--follow`).
    Followed(String),
    /// A robot under the board carried out this move (SAN) as the host sent it (a Chessnut
    /// Move's, `--follow`).
    SetByRobot(String),
    /// The hands stop playing the script, and why (its next move is not legal in the game as
    /// played).
    HandsStopped(String),
    /// The player chooses a promotion's piece at the host (`promote q|r|b|n` typed), on a board
    /// that has no promotion buttons: whoever runs the board passes it to the host.
    ChosenAtHost(shakmaty::Role),
}

impl Notice {
    /// A line for a diagnostic log, and whether it is a warning (what the host sent was wrong)
    /// rather than news.
    pub fn describe(&self) -> (String, bool) {
        match self {
            Notice::ScriptStarted => ("script started".to_owned(), false),
            Notice::Unplugged => ("board unplugged".to_owned(), false),
            Notice::Replugged => ("board plugged in again (power-up state)".to_owned(), false),
            Notice::NotUnderstood(what) => (format!("from the host: {what}, ignored"), true),
            Notice::Refused(code) => (format!("command {code:#04x} ignored"), true),
            Notice::Dropped(seq) => (format!("report seq {seq:#04x} dropped, as asked"), false),
            Notice::Displayed(text) => (format!("the clock shows `{text}`"), false),
            Notice::Followed(san) => (format!("the hands carry out {san}, as shown"), false),
            Notice::SetByRobot(san) => (format!("the robot carries out {san}, as sent"), false),
            Notice::HandsStopped(why) => (why.clone(), true),
            Notice::ChosenAtHost(role) => (
                format!(
                    "the player chooses the promotion's piece at the host: `promote {}`",
                    role.char()
                ),
                false,
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notice_shows_its_evidence_in_hex() {
        assert_eq!(hex(&[0x2b, 0x7f]), "2b 7f");
        assert_eq!(
            Notice::Refused(0x49).describe(),
            ("command 0x49 ignored".to_owned(), true)
        );
    }
}
