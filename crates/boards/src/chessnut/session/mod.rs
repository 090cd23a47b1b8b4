//! The Chessnut protocol on the host's side, sans-IO: bytes and the time in, bytes and
//! [`LinkEvent`]s out.
//!
//! What the session does:
//!
//! - on [`connect`](BoardSession::connect) it starts the reports (`21 01 00`: again after every
//!   connection, the board forgets) and asks the battery's level; the board then reports the
//!   whole position about ten times a second, whether or not anything changed;
//! - the reports become lifts and placements square by square ([`PositionReader`]): a square's
//!   change is taken once a report [`HOLD_MS`] after the first that showed it still shows it
//!   (the next report), so a knock or a flicker that lasts one report is never a touch; the
//!   first report, and one far from the report before, is a full report;
//! - the board owes a report every tenth of a second: none for [`ANSWER_MS`] is
//!   [`LinkEvent::Lost`]; the reports are started again [`RESTART_MS`] after the last one,
//!   and as often while none comes (a board switched off and on has forgotten them); none for [`SILENCE_MS`] is [`LinkEvent::Gone`]
//!   (the runner reconnects);
//! - the battery's level is asked every [`BATTERY_MS`] and said as
//!   [`LinkEvent::Battery`] when it changes;
//! - [`handle_feedback`](BoardSession::handle_feedback) lights the squares of a move to carry
//!   out (an engine's, an opponent's), then the squares that differ from the game until the
//!   board matches it again; nothing is lit while the board matches the game.
//!
//! A Chessnut Move ([`ChessnutSession::robot`]) is the same board with a robot under it: the
//! move to carry out is carried out by the robot ([`Feedback::SetPieces`]: the position is
//! sent, `42 21`, a player's hand stopping the robot), its motion read as the board reads any
//! hand's (the game's side whose move it is earns no ruling: an engine's, an opponent's). The
//! reports pause while the robot moves: from when the position was sent until a report shows
//! it, for up to [`ROBOT_MS`], a silence is no lost link (the reports are still asked for again,
//! in case the board waits for that once its robot is done). A robot stopped by a hand leaves
//! another position: the link is then watched again [`ROBOT_MS`] after it was sent. Its lights are coloured (`43 20`), its battery asked with
//! `41 01 0c`.

#[cfg(test)]
mod tests;

use std::collections::VecDeque;

use shakmaty::Board;

use super::wire::{
    BUTTON_NEW_GAME, BoardMessage, Decoded, HostCommand, MessageDecoder, encode_command,
};
use crate::chessnut::wire::Corrupt;
use crate::live::positions::PositionReader;
use crate::live::{
    BoardSession, Feedback, GuideLights, LinkEvent, Liveness, SessionOptions, Silence,
};
use touchmove_core::decode::{StreamDecoder, hex};
use touchmove_core::sensor::Millis;

/// How long after a square's new reading was first seen a report must still show it for it to
/// be taken: less than the time between two reports (about 100 ms), so that the next report
/// takes it.
pub const HOLD_MS: Millis = 50;

/// How long the board may send no report before it counts as unresponsive (ten reports
/// missed).
pub const ANSWER_MS: Millis = 1000;

/// How long after the last report (or the last start) the reports are started again while none
/// comes: a board switched off and on, or whose link dropped and came back, has forgotten them.
pub const RESTART_MS: Millis = 250;

/// How long the board may send nothing before the link counts as gone.
pub const SILENCE_MS: Millis = 5000;

/// How often the battery's level is asked.
pub const BATTERY_MS: Millis = 60_000;

/// How long the bytes of a frame begun may wait for the rest before the frame counts as cut.
pub const QUIET_MS: Millis = 200;

/// How long a Chessnut Move's robot may move pieces, its reports paused, before its silence
/// counts against the link (a move with a capture: the mover and the victim carried across
/// the board).
pub const ROBOT_MS: Millis = 30_000;

/// Which Chessnut board the session drives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Model {
    /// An Air, Air+, Go or Pro: a person carries out every move.
    Hands,
    /// A Move: its robot carries out the moves the host sends.
    Robot,
}

/// A Chessnut board (Air, Air+, Go, Pro) behind the live runner.
#[derive(Debug)]
pub struct ChessnutSession {
    decoder: MessageDecoder,
    /// Whether the link is open (between `connect` and a reported silence).
    connected: bool,
    /// When the board was last heard, and the report owed since.
    liveness: Liveness,
    /// When the reports were last started.
    started_at: Millis,
    /// When the battery was last asked.
    battery_at: Millis,
    /// The last level said.
    battery: Option<(u8, bool)>,
    /// When the last bytes arrived.
    last_bytes: Millis,
    /// Whether the board was identified on this connection.
    identified: bool,
    /// The reports, turned into lifts and placements.
    positions: PositionReader,
    /// What the LEDs are to show, and what they show.
    leds: GuideLights,
    /// The board driven.
    model: Model,
    /// The position a robot was sent, and until when it may move pieces with the reports
    /// paused: over once a report shows that position (a report already on its way when the
    /// position was sent shows the board before), or at that time.
    robot: Option<(Millis, Board)>,
    transmit: VecDeque<Vec<u8>>,
    events: VecDeque<LinkEvent>,
}

impl Default for ChessnutSession {
    fn default() -> ChessnutSession {
        ChessnutSession::new()
    }
}

impl ChessnutSession {
    /// A session that has not connected yet.
    pub fn new() -> ChessnutSession {
        ChessnutSession::of(Model::Hands)
    }

    /// A session for a Chessnut Move, whose robot carries out the moves the host sends.
    pub fn robot() -> ChessnutSession {
        ChessnutSession::of(Model::Robot)
    }

    fn of(model: Model) -> ChessnutSession {
        ChessnutSession {
            decoder: MessageDecoder::new(),
            connected: false,
            liveness: Liveness::new(0),
            started_at: 0,
            battery_at: 0,
            battery: None,
            last_bytes: 0,
            identified: false,
            positions: PositionReader::new(HOLD_MS),
            leds: GuideLights::default(),
            model,
            robot: None,
            transmit: VecDeque::new(),
            events: VecDeque::new(),
        }
    }

    fn send(&mut self, command: &HostCommand) {
        self.transmit.push_back(encode_command(command));
    }

    /// Starts the reports at `now`: one is owed from then.
    fn start_reports(&mut self, now: Millis) {
        self.started_at = now;
        self.liveness.asked(now);
        self.send(&HostCommand::StartReports);
    }

    fn ask_battery(&mut self, now: Millis) {
        self.battery_at = now;
        self.send(match self.model {
            Model::Hands => &HostCommand::AskBattery,
            Model::Robot => &HostCommand::AskRobotBattery,
        });
    }

    fn take_decoded(&mut self, now: Millis) {
        while let Some(decoded) = self.decoder.poll() {
            self.decoded(now, decoded);
        }
    }

    fn decoded(&mut self, now: Millis, decoded: Decoded<BoardMessage>) {
        match decoded {
            Ok(BoardMessage::Report { board, .. }) => self.report(now, board),
            Ok(
                BoardMessage::Battery { percent, charging }
                | BoardMessage::RobotBattery { percent, charging },
            ) => {
                self.heard(now);
                if self.battery.replace((percent, charging)) != Some((percent, charging)) {
                    self.events
                        .push_back(LinkEvent::Battery { percent, charging });
                }
            }
            Ok(BoardMessage::Button(BUTTON_NEW_GAME)) => {
                self.heard(now);
                self.events.push_back(LinkEvent::Notice(
                    "the board's NEW GAME button was pressed (set the pieces up for a new game)"
                        .to_owned(),
                ));
            }
            Ok(BoardMessage::Ack | BoardMessage::Button(_)) => self.heard(now),
            Ok(BoardMessage::Other(frame)) => {
                self.heard(now);
                self.events.push_back(LinkEvent::Notice(format!(
                    "a frame from the board this host does not use: {}",
                    hex(&frame)
                )));
            }
            Err(Corrupt { dropped, why }) => {
                self.events.push_back(LinkEvent::Notice(format!(
                    "{} bytes from the board dropped ({why}): {}",
                    dropped.len(),
                    hex(&dropped)
                )));
            }
        }
    }

    /// The board answers at `now`.
    fn heard(&mut self, now: Millis) {
        if self.liveness.heard(now) {
            self.positions.clear();
            self.events.push_back(LinkEvent::Back);
        }
    }

    /// A report arrived at `now`: the board answers, and the next report is owed.
    fn report(&mut self, now: Millis, board: Board) {
        self.heard(now);
        self.liveness.asked(now);
        if self
            .robot
            .as_ref()
            .is_some_and(|(_, target)| *target == board)
        {
            self.robot = None;
        }
        if !std::mem::replace(&mut self.identified, true) {
            let what = match self.model {
                Model::Hands => "Chessnut board (Air, Air+, Go or Pro)",
                Model::Robot => "Chessnut Move (its robot carries out the moves sent)",
            };
            self.events.push_back(LinkEvent::Identified {
                what: what.to_owned(),
                serial: None,
            });
        }
        for report in self.positions.read(now, board) {
            self.events.push_back(LinkEvent::Sensor(report));
        }
    }

    fn show(&mut self) {
        if let Some(squares) = self.leds.to_show() {
            let squares = squares.into_iter().collect();
            self.send(&match self.model {
                Model::Hands => HostCommand::Leds(squares),
                Model::Robot => HostCommand::ColourLeds(squares),
            });
        }
    }

    /// The robot is sent `board` at `now`, to set the pieces to it.
    fn set_pieces(&mut self, now: Millis, board: &Board) {
        if self.model != Model::Robot || !self.connected {
            return;
        }
        self.send(&HostCommand::RobotSet {
            board: board.clone(),
            yield_to_hands: true,
        });
        self.robot = Some((now.saturating_add(ROBOT_MS), board.clone()));
    }

    /// `at`, or no earlier than `grace` after the robot's time while it may be moving with the
    /// reports paused.
    fn after_robot(&self, at: Millis, grace: Millis) -> Millis {
        self.robot
            .as_ref()
            .map_or(at, |(until, _)| at.max(until.saturating_add(grace)))
    }

    /// When a frame begun and not ended counts as cut.
    fn cut_at(&self) -> Option<Millis> {
        self.decoder
            .pending()
            .then(|| self.last_bytes.saturating_add(QUIET_MS))
    }

    fn unresponsive_at(&self) -> Option<Millis> {
        self.liveness
            .lost_at(ANSWER_MS)
            .filter(|_| self.connected)
            .map(|at| self.after_robot(at, 0))
    }

    /// When the reports are started again: [`RESTART_MS`] after the last report or the last
    /// start, whichever came later, while none comes.
    fn restart_at(&self) -> Option<Millis> {
        self.liveness
            .unanswered_since()
            .filter(|_| self.connected)
            .map(|since| since.max(self.started_at).saturating_add(RESTART_MS))
    }

    fn silence_at(&self) -> Option<Millis> {
        self.liveness
            .silence_at(SILENCE_MS, Silence::FromLastHeard)
            .filter(|_| self.connected)
            .map(|at| self.after_robot(at, SILENCE_MS.saturating_sub(ANSWER_MS)))
    }

    fn battery_due_at(&self) -> Option<Millis> {
        self.connected
            .then(|| self.battery_at.saturating_add(BATTERY_MS))
    }
}

/// The registry's session constructor (a Chessnut board has no clock).
pub(crate) fn new_session(_options: &SessionOptions) -> Box<dyn BoardSession + Send> {
    Box::new(ChessnutSession::new())
}

/// The registry's session constructor for a Chessnut Move.
pub(crate) fn new_robot_session(_options: &SessionOptions) -> Box<dyn BoardSession + Send> {
    Box::new(ChessnutSession::robot())
}

impl BoardSession for ChessnutSession {
    fn connect(&mut self, now: Millis) {
        self.decoder = MessageDecoder::new();
        self.connected = true;
        self.identified = false;
        self.liveness.opened(now);
        self.last_bytes = now;
        self.positions.clear();
        self.transmit.clear();
        self.leds.forget_shown();
        self.robot = None;
        self.start_reports(now);
        self.ask_battery(now);
        self.show();
    }

    fn handle_bytes(&mut self, now: Millis, bytes: &[u8]) {
        self.last_bytes = now;
        self.decoder.push(bytes);
        self.take_decoded(now);
    }

    fn handle_timeout(&mut self, now: Millis) {
        if self.cut_at().is_some_and(|at| at <= now) {
            self.decoder.finish();
            while let Some(decoded) = self.decoder.poll() {
                self.decoded(now, decoded);
            }
        }
        if self.silence_at().is_some_and(|at| at <= now) {
            self.liveness.report_silence();
            self.connected = false;
            self.events.push_back(LinkEvent::Gone);
            return;
        }
        if self.unresponsive_at().is_some_and(|at| at <= now) {
            self.liveness.report_lost();
            self.events.push_back(LinkEvent::Lost);
        }
        if self.restart_at().is_some_and(|at| at <= now) {
            self.start_reports(now);
        }
        if self.battery_due_at().is_some_and(|at| at <= now) {
            self.ask_battery(now);
        }
    }

    fn poll_timeout(&self) -> Option<Millis> {
        [
            self.cut_at(),
            self.silence_at(),
            self.unresponsive_at(),
            self.restart_at(),
            self.battery_due_at(),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.transmit.pop_front()
    }

    fn poll_event(&mut self) -> Option<LinkEvent> {
        self.events.pop_front()
    }

    fn handle_feedback(&mut self, now: Millis, feedback: &Feedback) {
        if let Feedback::SetPieces { board } = feedback {
            self.set_pieces(now, board);
        }
        if self.leds.take(feedback) {
            self.show();
        }
    }
}
