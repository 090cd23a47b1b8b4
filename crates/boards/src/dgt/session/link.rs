//! The DGT session as a live board link: what the live runner needs of it.

use std::collections::VecDeque;

use shakmaty::Color;

use super::{DgtSession, SessionConfig, SessionEvent};
use crate::dgt::session::clock_sides::{ClockSides, sides_from_times};
use crate::dgt::session::followed_clock::FollowedClock;
use crate::dgt::session::host_clock::{self, HostClock};
use crate::dgt::wire::clock::ClockReport;
use crate::dgt::wire::command::{ClockCommand, ClockText};
use crate::dgt::wire::protocol::REPORT_HORIZON_MS;
use crate::live::{BoardSession, Feedback, LinkEvent, ResumePoint, SessionOptions};
use touchmove_core::clock::TimeControl;
use touchmove_core::clock::{ClockReading, ClockSide};
use touchmove_core::event::ClockTimes;
use touchmove_core::sensor::{Millis, SensorKind};

/// A game resumed from its recording, the sides of its clock still to be read.
#[derive(Debug, Clone, Copy)]
struct Resumed {
    /// The recording's last report of the clock.
    clock: ClockReading,
    /// When the board's full report was passed on since (the game has caught up on the moves
    /// it shows).
    board_seen_at: Option<Millis>,
    /// Whether a press has been seen since.
    press_seen: bool,
    /// Whether a move has been decided since (one caught up on, or played).
    moved: bool,
}

/// A DGT board behind the live runner.
///
/// ```
/// use shakmaty::Square;
/// use touchmove_boards::dgt::DgtLink;
/// use touchmove_boards::dgt::session::SessionConfig;
/// use touchmove_boards::dgt::wire::message::encode;
/// use touchmove_boards::live::{BoardSession, LinkEvent};
/// use touchmove_core::SensorKind;
///
/// let mut link = DgtLink::new(SessionConfig::default());
/// link.connect(0);
/// let asked: Vec<Vec<u8>> = std::iter::from_fn(|| link.poll_transmit()).collect();
/// assert!(!asked.is_empty(), "the handshake asks the board what it is and shows");
/// // The board's answers: its version, then its dump, a8 first, h1 last, in DGT's piece codes
/// // (0x01 to 0x06 White's pawn, rook, knight, bishop, king, queen; 0x07 to 0x0c Black's).
/// let mut dump = [0x00; 64];
/// dump[..8].copy_from_slice(&[0x08, 0x09, 0x0a, 0x0c, 0x0b, 0x0a, 0x09, 0x08]);
/// dump[8..16].fill(0x07);
/// dump[48..56].fill(0x01);
/// dump[56..].copy_from_slice(&[0x02, 0x03, 0x04, 0x06, 0x05, 0x04, 0x03, 0x02]);
/// link.handle_bytes(10, &encode::version(3, 1));
/// link.handle_bytes(20, &encode::board_dump(&dump));
/// // The pawn of e2 (field 52) is lifted: the board sends a field update.
/// link.handle_bytes(900, &encode::field_update(52, 0x00));
/// let events: Vec<LinkEvent> = std::iter::from_fn(|| link.poll_event()).collect();
/// assert!(events.iter().any(|e| matches!(e, LinkEvent::Identified { .. })));
/// assert!(events.iter().any(|e| matches!(e, LinkEvent::Sensor(SensorKind::Snapshot(_)))));
/// let lifted = events.iter().find(|e| matches!(e, LinkEvent::Sensor(SensorKind::Lift { .. })));
/// assert!(matches!(lifted, Some(LinkEvent::Sensor(SensorKind::Lift { square: Square::E2, .. }))));
/// ```
#[derive(Debug)]
pub struct DgtLink {
    session: DgtSession,
    /// The time control to set the clock to when a game starts.
    clock_setup: Option<TimeControl>,
    /// The clock the host set for the game in progress.
    host_clock: Option<HostClock>,
    /// Which side of the clock is White's.
    sides: ClockSides,
    /// The side to move in the game, once it has started (from the game's announcements).
    to_move: Option<Color>,
    /// Whether a move was decided since the last press (the next press is most likely its
    /// mover's, completing it; otherwise the press came before its move was reported).
    moved_since_press: bool,
    /// A resumed game whose clock sides are not yet read from the clock.
    resumed: Option<Resumed>,
    /// The clock's display shows a move to carry out (`Feedback::Show`) until the next move.
    showing: bool,
    /// A clock kept elsewhere (an online game's server), put on the clock at its instant.
    followed: FollowedClock,
    /// The clock's last time report, and when it came (none while no clock is plugged in).
    last_report: Option<(Millis, ClockReport)>,
    /// What the link itself has to say, before the session's events.
    notices: VecDeque<LinkEvent>,
    /// The session's events not yet polled, each with the time of the input that brought it
    /// (the time of a clock press).
    events: VecDeque<(Millis, SessionEvent)>,
}

impl DgtLink {
    /// A link with the session configured by `config`.
    pub fn new(config: SessionConfig) -> DgtLink {
        DgtLink {
            session: DgtSession::new(config),
            clock_setup: None,
            host_clock: None,
            sides: ClockSides::unknown(),
            to_move: None,
            moved_since_press: false,
            resumed: None,
            showing: false,
            followed: FollowedClock::default(),
            last_report: None,
            notices: VecDeque::new(),
            events: VecDeque::new(),
        }
    }

    /// Fixes the side of the clock White's time is on (`Some`) instead of learning it from the
    /// clock.
    pub fn with_clock_sides(mut self, white: Option<ClockSide>) -> DgtLink {
        if let Some(white) = white {
            self.sides = ClockSides::fixed(white);
        }
        self
    }

    /// When a game starts, set the clock plugged into the board to the first period of
    /// `time_control` and start the time of the side to move (a DGT XL or DGT 3000 acknowledges; a
    /// board without a clock does not, and the command is given up after its tries). From then
    /// on the host puts on the clock what the time control adds and a clock set by command
    /// cannot: increments, the next period's time, the two minutes of an illegal move.
    pub fn set_clock_at_start(mut self, time_control: Option<TimeControl>) -> DgtLink {
        self.clock_setup = time_control.filter(|tc| matches!(tc, TimeControl::Timed(_)));
        self
    }

    /// Sets the clock for a game starting at `now` with `to_move` to move.
    fn start_clock(&mut self, now: Millis, to_move: Color) {
        let Some(time_control) = self.clock_setup.clone() else {
            return;
        };
        let (clock, command) = HostClock::start(time_control, to_move, now, self.sides.white());
        self.host_clock = Some(clock);
        self.session.send_clock(now, command);
    }

    /// The clock is within reach again at `now`: a clock that follows the game's (an online
    /// game's server) is set to it as it stands now.
    fn follow_again(&mut self, now: Millis) {
        if let Some(command) = self.followed.again(now) {
            self.session.send_clock(now, command);
        }
    }

    /// Takes the events the session has, brought by input at `now`.
    fn take_session_events(&mut self, now: Millis) {
        while let Some(event) = self.session.poll_event() {
            self.events.push_back((now, event));
        }
    }

    /// `color` pressed the clock at `now`: the host's model follows, and the clock gets what
    /// the press added.
    fn clock_pressed(&mut self, color: Color, now: Millis) {
        if let Some(command) = self
            .host_clock
            .as_mut()
            .and_then(|clock| clock.pressed(color, now))
        {
            self.session.send_clock(now, command);
        }
    }

    /// What a session event means to the runner, if anything.
    fn translate(&self, event: SessionEvent) -> Option<LinkEvent> {
        match event {
            SessionEvent::Identified { version, serial } => {
                let said = serial
                    .as_ref()
                    .map(|s| format!(", serial {s}"))
                    .unwrap_or_default();
                Some(LinkEvent::Identified {
                    what: format!("DGT board, version {}.{:02}{said}", version.0, version.1),
                    serial,
                })
            }
            SessionEvent::Sensor(kind) => Some(LinkEvent::Sensor(kind)),
            SessionEvent::Gone => Some(LinkEvent::Gone),
            SessionEvent::Lost => Some(LinkEvent::Lost),
            SessionEvent::Back => Some(LinkEvent::Back),
            SessionEvent::Corrupt { dropped } => {
                tracing::debug!(
                    bytes = dropped.len(),
                    "corrupt bytes from the board dropped"
                );
                None
            }
            SessionEvent::Rotated => Some(LinkEvent::Notice(
                "the board stands turned round (Black on the connector side): squares are mapped"
                    .to_owned(),
            )),
            SessionEvent::ClockCommandFailed(command) => Some(LinkEvent::Notice(format!(
                "the clock never acknowledged {command:?}: given up"
            ))),
            SessionEvent::ClockTimes(report) => report
                .reading(self.sides.white())
                .map(|reading| reading.with_white_side(self.sides.settled_white()))
                .map(LinkEvent::ClockReading),
            SessionEvent::ClockPressed { side, .. } => Some(LinkEvent::Sensor(SensorKind::Clock(
                self.sides.color_of(side),
            ))),
        }
    }
}

impl DgtLink {
    /// A clock report at `now` after a resume from a recording that did not say which side is
    /// White's, beside the recording's last report: the times tell when they are far enough
    /// apart. Otherwise a running clock does while nothing has happened since the recording
    /// stopped: the board's full report, a report horizon old (a move that was under way has
    /// had time to show), showed no move, and no press was seen, so the side that ran in the
    /// recording still runs. Until one of these tells, no press teaches the sides: one made
    /// while the host was down was never seen.
    fn sides_from_resumed_clock(&mut self, now: Millis, report: &ClockReport) {
        let Some(resumed) = self.resumed.filter(|_| !report.no_clock) else {
            return;
        };
        let (white, black) = (resumed.clock.times.white, resumed.clock.times.black);
        let by_times = sides_from_times(report.left.millis(), report.right.millis(), white, black);
        let settled_since = resumed
            .board_seen_at
            .is_some_and(|at| now >= at.saturating_add(REPORT_HORIZON_MS));
        let running_left = report.running && report.left_to_move;
        let running_right = report.running && report.right_to_move;
        let by_running = resumed
            .clock
            .running
            .filter(|_| settled_since && !resumed.press_seen && !resumed.moved)
            .filter(|_| running_left || running_right)
            .map(|ran| {
                // The side that runs now is the one that ran: `ran`'s.
                let running = if running_left {
                    ClockSide::Left
                } else {
                    ClockSide::Right
                };
                match ran {
                    Color::White => running,
                    Color::Black => running.other(),
                }
            });
        if let Some(white) = by_times.or(by_running) {
            self.sides.recorded(white);
            self.resumed = None;
        }
    }

    /// The clock the players run themselves (the host does not drive it) is put, at `now`, at
    /// the times the arbiter decided: `change` made to the times it shows now (the running
    /// side's counted down since its last report), the running side running on. Nothing when
    /// no clock reports, or when it cannot keep them ([`DgtLink::refusal`]): that is
    /// said.
    fn set_as_decided(&mut self, now: Millis, change: impl FnOnce(&mut ClockTimes)) {
        let Some((at, report)) = self.last_report else {
            return;
        };
        if let Some(why) = self.refusal() {
            self.notices.push_back(LinkEvent::Notice(format!(
                "the DGT clock is not set: {why}"
            )));
            return;
        }
        let Some(reading) = report.reading(self.sides.white()) else {
            return;
        };
        let mut times = reading.times;
        if let Some(color) = reading.running {
            let ran = times.get(color).saturating_sub(now.saturating_sub(at));
            times = times.with(color, ran);
        }
        change(&mut times);
        let command = host_clock::set_and_run(times, reading.running, self.sides.white());
        self.session.send_clock(now, command);
        self.notices.push_back(LinkEvent::Notice(format!(
            "the DGT clock is set to the arbiter's times: White {}, Black {}",
            clock_text(times.white),
            clock_text(times.black)
        )));
    }

    /// Why the clock plugged into the board cannot keep times the arbiter gives or sets from
    /// the host, if it cannot: the host does not drive it, and it adds time by itself (a
    /// setting from the host would stop that), or which side is White's is not known, or it
    /// did not take the host's last setting. `None` when the host drives it, or when no clock
    /// reports (the game's own clock then keeps them).
    fn refusal(&self) -> Option<String> {
        if self.host_clock.is_some() || self.last_report.is_none() {
            return None;
        }
        if let Some(gain) = self.session.clock_gain() {
            return Some(format!(
                "it adds time by itself ({} s seen at a press) and would stop doing so once set \
                 from the host: set it by hand, or watch with --time-control so that the host \
                 keeps it",
                gain / 1000
            ));
        }
        if self.sides.settled_white().is_none() {
            return Some(
                "which side of the clock is White's is not known yet (no press seen on the \
                 running clock): set it by hand, or give --white-on-clock"
                    .to_owned(),
            );
        }
        if self.session.setting_failed() {
            return Some(
                "it did not acknowledge the host's last setting: set it by hand".to_owned(),
            );
        }
        None
    }

    /// The player on `side` pressed at `now`: the first press of the game on a running clock
    /// (or one the host set) settles which side is White's. Returns the notice to give when
    /// that turned the sides round (the clock the host set is set again).
    fn learn_sides(
        &mut self,
        now: Millis,
        side: ClockSide,
        running_before: bool,
    ) -> Option<LinkEvent> {
        let to_move = self.to_move?;
        if let Some(resumed) = self.resumed.as_mut() {
            resumed.press_seen = true;
            return None;
        }
        // The presser completes the move just decided, or one not reported yet.
        let presser = if std::mem::replace(&mut self.moved_since_press, false) {
            !to_move
        } else {
            to_move
        };
        // A clock whose lever bit follows the host's settings hides the presses that leave it
        // where a setting put it: a press seen may not follow the move it seems to.
        let trusted = running_before || self.host_clock.is_some();
        if !trusted || self.session.lever_follows_host() || !self.sides.pressed(side, presser) {
            return None;
        }
        let white = self.sides.white();
        if let Some(command) = self
            .host_clock
            .as_mut()
            .map(|clock| clock.turned(white, now))
        {
            self.session.send_clock(now, command);
        }
        Some(LinkEvent::Notice(format!(
            "White sits on the clock's {white} (learnt from the first press)"
        )))
    }

    /// What a decision of the game means to the clock: a penalty to put on it, the result to
    /// show, a new game to set it for; and who is to move.
    /// Follows what the game told the board: whose move it is, the host's clock model, the
    /// clock's display.
    fn follow(&mut self, now: Millis, feedback: &Feedback) {
        match feedback {
            Feedback::Started { to_move } => {
                self.to_move = Some(*to_move);
                self.start_clock(now, *to_move);
            }
            Feedback::Show { text, .. } => {
                self.showing = true;
                let text = ClockText::new(text);
                self.session
                    .send_clock(now, ClockCommand::Display { text, beep: true });
            }
            Feedback::Pending { text: Some(text) } => {
                self.showing = true;
                let text = ClockText::new(text);
                self.session
                    .send_clock(now, ClockCommand::Display { text, beep: false });
            }
            Feedback::Pending { text: None } if self.showing => {
                self.showing = false;
                self.session.send_clock(now, ClockCommand::EndDisplay);
            }
            Feedback::Moved { by, .. } => {
                if std::mem::replace(&mut self.showing, false) {
                    self.session.send_clock(now, ClockCommand::EndDisplay);
                }
                self.to_move = Some(!*by);
                self.moved_since_press = true;
                if let Some(resumed) = self.resumed.as_mut() {
                    resumed.moved = true;
                }
            }
            Feedback::TakenBack { to_move } => self.to_move = Some(*to_move),
            Feedback::TimeAdded { side, ms } => match self.host_clock.as_mut() {
                Some(clock) => {
                    let command = clock.add_time(*side, *ms, now);
                    self.session.send_clock(now, command);
                }
                None => self.set_as_decided(now, |times| {
                    *times = times.with(*side, times.get(*side).saturating_add(*ms));
                }),
            },
            Feedback::ClockSet { times } => match self.host_clock.as_mut() {
                Some(clock) => {
                    let command = clock.set_times(*times, now);
                    self.session.send_clock(now, command);
                }
                None => self.set_as_decided(now, |shown| *shown = *times),
            },
            Feedback::Times { times, running } => {
                let command = self
                    .followed
                    .follow(now, *times, *running, self.sides.white());
                self.session.send_clock(now, command);
            }
            Feedback::Ended { outcome } => {
                self.host_clock = None;
                self.followed.stop();
                let text = ClockText::new(outcome.as_str());
                self.session
                    .send_clock(now, ClockCommand::Display { text, beep: true });
            }
            _ => {}
        }
    }
}

/// A time as a clock shows it: whole seconds rounded up, `H:MM:SS` or `M:SS`.
fn clock_text(ms: Millis) -> String {
    let seconds = ms.div_ceil(1000);
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if hours > 0 {
        format!("{hours}:{minutes:02}:{seconds:02}")
    } else {
        format!("{minutes}:{seconds:02}")
    }
}

/// The registry's session constructor: a link that sets and follows the clock as `options`
/// say.
pub(crate) fn new_session(options: &SessionOptions) -> Box<dyn BoardSession + Send> {
    Box::new(
        DgtLink::default()
            .with_clock_sides(options.white_side)
            .set_clock_at_start(options.set_clock.clone()),
    )
}

impl Default for DgtLink {
    fn default() -> DgtLink {
        DgtLink::new(SessionConfig::default())
    }
}

impl BoardSession for DgtLink {
    fn connect(&mut self, now: Millis) {
        self.session.connect(now);
        self.follow_again(now);
        self.take_session_events(now);
    }

    fn handle_bytes(&mut self, now: Millis, bytes: &[u8]) {
        self.session.handle_bytes(now, bytes);
        self.take_session_events(now);
    }

    fn handle_timeout(&mut self, now: Millis) {
        if let Some(command) = self.followed.due(now) {
            self.session.send_clock(now, command);
        }
        self.session.handle_timeout(now);
        self.take_session_events(now);
    }

    fn poll_timeout(&self) -> Option<Millis> {
        match (self.session.poll_timeout(), self.followed.poll_timeout()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn poll_transmit(&mut self) -> Option<Vec<u8>> {
        self.session.poll_transmit()
    }

    fn handle_feedback(&mut self, now: Millis, feedback: &Feedback) {
        self.follow(now, feedback);
    }

    fn clock_refusal(&self) -> Option<String> {
        self.refusal()
    }

    fn resume(&mut self, point: &ResumePoint) {
        self.to_move = Some(point.to_move);
        self.moved_since_press = !point.pressed;
        match point.clock.and_then(|clock| clock.white_side) {
            Some(white) => self.sides.recorded(white),
            None => {
                self.resumed = point.clock.map(|clock| Resumed {
                    clock,
                    board_seen_at: None,
                    press_seen: false,
                    moved: false,
                });
            }
        }
    }

    fn poll_event(&mut self) -> Option<LinkEvent> {
        if let Some(notice) = self.notices.pop_front() {
            return Some(notice);
        }
        while let Some((at, event)) = self.events.pop_front() {
            match event {
                SessionEvent::ClockPressed {
                    side,
                    running_before,
                } => {
                    let notice = self.learn_sides(at, side, running_before);
                    self.moved_since_press = false;
                    if let Some(notice) = notice {
                        self.events.push_front((at, event));
                        return Some(notice);
                    }
                    self.clock_pressed(self.sides.color_of(side), at);
                }
                SessionEvent::Rotated => self.sides.board_turned(true),
                SessionEvent::Back => self.follow_again(at),
                SessionEvent::ClockTimes(report) => {
                    self.last_report = (!report.no_clock).then_some((at, report));
                    self.sides_from_resumed_clock(at, &report);
                }
                SessionEvent::Sensor(SensorKind::Snapshot(_)) => {
                    if let Some(resumed) = self.resumed.as_mut() {
                        resumed.board_seen_at.get_or_insert(at);
                    }
                }
                _ => {}
            }
            if let Some(link_event) = self.translate(event) {
                return Some(link_event);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dgt::wire::command::{ClockRun, ClockSetting, HostCommand, encode};

    /// A game with White to move has started.
    fn started() -> Feedback {
        Feedback::Started {
            to_move: Color::White,
        }
    }

    fn sent(link: &mut DgtLink) -> Vec<u8> {
        std::iter::from_fn(|| link.poll_transmit())
            .flatten()
            .collect()
    }

    fn set_and_run(left: (u8, u8), right: (u8, u8), run: ClockRun) -> Vec<u8> {
        let setting = |(minutes, seconds)| ClockSetting {
            hours: 0,
            minutes,
            seconds,
        };
        encode(&HostCommand::Clock(ClockCommand::SetAndRun {
            left: setting(left),
            right: setting(right),
            run,
        }))
    }

    /// A BWTIME report with the lever high on the right (`true`) or left side.
    fn lever(right_high: bool) -> Vec<u8> {
        let status = if right_high {
            0x01 | 0x02 | 0x10
        } else {
            0x01 | 0x08
        };
        let zero = crate::dgt::wire::clock::ClockTime::default();
        crate::dgt::wire::message::encode::bwtime(&ClockReport::from_status(zero, zero, status))
    }

    fn clocked(time_control: &str) -> DgtLink {
        let time_control = time_control.parse().ok();
        let mut link = DgtLink::default().set_clock_at_start(time_control);
        link.connect(0);
        sent(&mut link);
        link
    }

    #[test]
    fn a_pending_move_is_shown_on_the_clock_without_a_beep() {
        let mut link = DgtLink::default();
        link.connect(0);
        sent(&mut link);
        link.handle_feedback(0, &started());
        sent(&mut link);
        // Nothing shown: nothing to give back.
        link.handle_feedback(100, &Feedback::Pending { text: None });
        assert!(sent(&mut link).is_empty());
        let pending = Feedback::Pending {
            text: Some("Bc4".to_owned()),
        };
        link.handle_feedback(200, &pending);
        let text = ClockText::new("Bc4");
        assert_eq!(
            sent(&mut link),
            encode(&HostCommand::Clock(ClockCommand::Display {
                text,
                beep: false
            }))
        );
    }

    #[test]
    fn the_clock_is_set_when_the_game_starts() {
        let mut link = clocked("330");
        link.handle_feedback(10, &started());
        assert_eq!(
            sent(&mut link),
            set_and_run((5, 30), (5, 30), ClockRun::Left)
        );
    }

    #[test]
    fn an_increment_is_put_on_the_clock_after_the_press() {
        let mut link = clocked("60+5");
        link.handle_feedback(0, &started());
        assert_eq!(sent(&mut link), set_and_run((1, 0), (1, 0), ClockRun::Left));
        // The clock acknowledges, then reports White (left) to move, then White's press.
        link.handle_bytes(100, &crate::dgt::wire::message::encode::bwtime_ack(0x0a));
        link.handle_bytes(200, &lever(false));
        link.handle_bytes(3_000, &lever(true));
        while link.poll_event().is_some() {}
        // 60 s - 3 s + 5 s for White; Black's side runs.
        assert_eq!(
            sent(&mut link),
            set_and_run((1, 2), (1, 0), ClockRun::Right)
        );
    }

    #[test]
    fn a_press_polled_after_later_input_keeps_its_own_time() {
        let mut link = clocked("60+5");
        link.handle_feedback(0, &started());
        sent(&mut link);
        link.handle_bytes(100, &crate::dgt::wire::message::encode::bwtime_ack(0x0a));
        link.handle_bytes(200, &lever(false));
        link.handle_bytes(3_000, &lever(true));
        link.handle_bytes(4_000, &[]);
        while link.poll_event().is_some() {}
        // White pressed at 3 s, not 4 s: 60 s - 3 s + 5 s.
        assert_eq!(
            sent(&mut link),
            set_and_run((1, 2), (1, 0), ClockRun::Right)
        );
    }

    #[test]
    fn an_illegal_move_s_two_minutes_go_on_the_opponent_s_side() {
        let mut link = clocked("300");
        link.handle_feedback(0, &started());
        sent(&mut link);
        link.handle_bytes(100, &crate::dgt::wire::message::encode::bwtime_ack(0x0a));
        // White's illegal move: Black's clock gains two minutes.
        let penalty = Feedback::TimeAdded {
            side: Color::Black,
            ms: 120_000,
        };
        link.handle_feedback(4_000, &penalty);
        // White's time ran 4 s; Black (right) gets two minutes; White's side still runs.
        assert_eq!(
            sent(&mut link),
            set_and_run((4, 56), (7, 0), ClockRun::Left)
        );
    }

    #[test]
    fn a_server_s_clock_is_set_at_once_rounded_up_and_exactly_at_its_next_whole_second() {
        let mut link = DgtLink::default();
        link.connect(0);
        sent(&mut link);
        // The server: White 5:01.300 running, Black 4:59.800.
        let times = touchmove_core::event::ClockTimes {
            white: 301_300,
            black: 299_800,
        };
        let state = Feedback::Times {
            times,
            running: Some(Color::White),
        };
        link.handle_feedback(1_000, &state);
        // White's time on the left until the clock says otherwise: 5:02 and 5:00 as shown.
        assert_eq!(sent(&mut link), set_and_run((5, 2), (5, 0), ClockRun::Left));
        link.handle_bytes(1_010, &crate::dgt::wire::message::encode::bwtime_ack(0x0a));
        // At 1.3 s White has 5:01.000: set exactly then (the session's own checks aside).
        let exact = set_and_run((5, 1), (5, 0), ClockRun::Left);
        assert!(link.poll_timeout().is_some_and(|at| at <= 1_300));
        link.handle_timeout(1_299);
        let before = sent(&mut link);
        assert!(!before.ends_with(&exact), "{before:02x?}");
        link.handle_timeout(1_300);
        assert!(sent(&mut link).ends_with(&exact));
    }

    #[test]
    fn a_server_s_clock_is_set_again_as_it_stands_when_the_board_is_plugged_in_again() {
        let mut link = DgtLink::default();
        link.connect(0);
        sent(&mut link);
        // The server: White 5:01.000 running, Black 5:00.000, at 1 s.
        let state = Feedback::Times {
            times: touchmove_core::event::ClockTimes {
                white: 301_000,
                black: 300_000,
            },
            running: Some(Color::White),
        };
        link.handle_feedback(1_000, &state);
        link.handle_bytes(1_010, &crate::dgt::wire::message::encode::bwtime_ack(0x0a));
        sent(&mut link);
        // Unplugged; plugged in again at 11.5 s: White's time ran 10.5 s on the server's
        // clock: 4:50.500, shown 4:51, then 4:50 exactly at 12 s.
        link.connect(11_500);
        let again = sent(&mut link);
        let shown = set_and_run((4, 51), (5, 0), ClockRun::Left);
        assert!(
            again.windows(shown.len()).any(|w| w == shown.as_slice()),
            "{again:02x?}"
        );
        assert!(link.poll_timeout().is_some_and(|at| at <= 12_000));
    }

    #[test]
    fn without_a_time_control_the_clock_is_left_alone() {
        let mut link = DgtLink::default();
        link.connect(0);
        sent(&mut link);
        link.handle_feedback(10, &started());
        assert_eq!(sent(&mut link), Vec::<u8>::new());
    }
    /// A BWTIME report: `left` and `right` in ms, the lever high on the right (`true`) or
    /// left, the left's time running (`true`) or the right's.
    fn report(left: Millis, right: Millis, right_high: bool, left_runs: bool) -> Vec<u8> {
        use crate::dgt::wire::clock::ClockTime;
        let mut status = 0x01;
        if right_high {
            status |= 0x02;
        }
        status |= if left_runs { 0x08 } else { 0x10 };
        crate::dgt::wire::message::encode::bwtime(&ClockReport::from_status(
            ClockTime::from_millis(right),
            ClockTime::from_millis(left),
            status,
        ))
    }

    /// A link whose clock the players run (no time control), White to move on the left.
    fn players_clock() -> DgtLink {
        let mut link = DgtLink::default();
        link.connect(0);
        sent(&mut link);
        link.handle_feedback(0, &started());
        link
    }

    #[test]
    fn the_arbiter_s_time_is_put_on_a_clock_the_players_run_once_its_sides_are_known() {
        let mut link = players_clock();
        // White's time runs; nobody has pressed: which side is White's is not known.
        link.handle_bytes(100, &report(300_000, 300_000, false, true));
        while link.poll_event().is_some() {}
        let refusal = link.clock_refusal().expect("refused");
        assert!(
            refusal.contains("which side of the clock is White's"),
            "{refusal}"
        );
        let given = Feedback::TimeAdded {
            side: Color::Black,
            ms: 120_000,
        };
        link.handle_feedback(200, &given);
        assert!(sent(&mut link).is_empty(), "nothing set");
        // White (left) presses after moving at 4 s: Black's time runs from 4:56... and the
        // sides are learnt.
        link.handle_feedback(
            3_900,
            &Feedback::Moved {
                by: Color::White,
                from: shakmaty::Square::E2,
                to: shakmaty::Square::E4,
            },
        );
        link.handle_bytes(4_000, &report(296_000, 300_000, true, false));
        let said: Vec<LinkEvent> = std::iter::from_fn(|| link.poll_event()).collect();
        assert!(said.contains(&LinkEvent::Sensor(SensorKind::Clock(Color::White))));
        assert_eq!(link.clock_refusal(), None);
        // Black's 5:00 ran 1.5 s when the arbiter gives two minutes: 6:58.5, set as 6:59 on
        // the right, Black's time running on.
        link.handle_feedback(5_500, &given);
        assert_eq!(
            sent(&mut link),
            set_and_run((4, 56), (6, 59), ClockRun::Right)
        );
        let notice = link.poll_event();
        assert_eq!(
            notice,
            Some(LinkEvent::Notice(
                "the DGT clock is set to the arbiter's times: White 4:56, Black 6:59".to_owned()
            ))
        );
    }

    #[test]
    fn a_clock_that_adds_time_by_itself_is_not_set_from_the_host() {
        let mut link = players_clock();
        // White's minute runs from 0: the display changes to 0:59 at 1 s.
        link.handle_bytes(1_000, &report(59_000, 60_000, false, true));
        link.handle_feedback(
            1_400,
            &Feedback::Moved {
                by: Color::White,
                from: shakmaty::Square::E2,
                to: shakmaty::Square::E4,
            },
        );
        // White pressed at 1.5 s: its 58.5 s became 63.5 s, shown as 1:04 (the clock's own 5 s
        // increment).
        link.handle_bytes(1_500, &report(63_500, 60_000, true, false));
        while link.poll_event().is_some() {}
        let refusal = link.clock_refusal().expect("refused");
        assert!(refusal.contains("adds time by itself (5 s"), "{refusal}");
        // A penalty the game decides cannot be refused: it is said not to be on the clock.
        link.handle_feedback(
            2_500,
            &Feedback::TimeAdded {
                side: Color::White,
                ms: 120_000,
            },
        );
        assert!(sent(&mut link).is_empty());
        assert!(
            matches!(link.poll_event(), Some(LinkEvent::Notice(text)) if text.starts_with("the DGT clock is not set: it adds time"))
        );
    }

    #[test]
    fn a_clock_the_host_drives_or_no_clock_refuses_nothing() {
        let mut link = clocked("300");
        assert_eq!(link.clock_refusal(), None, "the host drives it");
        link.handle_bytes(100, &lever(false));
        assert_eq!(link.clock_refusal(), None, "the host drives it");
        let link = players_clock();
        assert_eq!(
            link.clock_refusal(),
            None,
            "no clock reports: the game's keeps time"
        );
    }

    #[test]
    fn a_clock_whose_lever_follows_the_host_teaches_no_sides() {
        use crate::dgt::wire::message::encode::bwtime_ack;
        let mut link = DgtLink::default();
        link.connect(0);
        sent(&mut link);
        link.handle_feedback(0, &started());
        link.handle_bytes(10, &lever(false));
        // The server's clock: Black's time running, set on the right (White taken to sit on
        // the left); the clock raises its lever bit on the right: the host's doing.
        let times = touchmove_core::event::ClockTimes {
            white: 300_000,
            black: 300_000,
        };
        let state = Feedback::Times {
            times,
            running: Some(Color::Black),
        };
        link.handle_feedback(100, &state);
        link.handle_bytes(110, &bwtime_ack(0x0a));
        link.handle_bytes(120, &lever(true));
        // White's move was decided; then the right player presses (the lever up on the left).
        link.handle_feedback(
            500,
            &Feedback::Moved {
                by: Color::White,
                from: shakmaty::Square::E2,
                to: shakmaty::Square::E4,
            },
        );
        link.handle_bytes(1_000, &lever(false));
        let events: Vec<LinkEvent> = std::iter::from_fn(|| link.poll_event()).collect();
        assert!(
            !events.iter().any(|e| matches!(e, LinkEvent::Notice(_))),
            "no sides learnt: {events:?}"
        );
        assert_eq!(link.sides.settled_white(), None);
        // The press is Black's, by the sides as they are taken.
        assert!(events.contains(&LinkEvent::Sensor(SensorKind::Clock(Color::Black))));
    }

    /// A link resumed from a recording whose last clock report gave `white` and `black`, the
    /// side `to_move` running and to move (its sides not recorded), connected at 0.
    fn resumed(white: u64, black: u64, to_move: Color) -> DgtLink {
        let mut link = DgtLink::default();
        let times = touchmove_core::event::ClockTimes { white, black };
        link.resume(&ResumePoint {
            last_move: None,
            to_move,
            pressed: true,
            clock: Some(ClockReading::new(times, Some(to_move))),
        });
        link.connect(0);
        link
    }

    #[test]
    fn a_resumed_game_reads_the_clock_sides_from_the_recorded_times() {
        use crate::dgt::wire::clock::ClockTime;
        use crate::dgt::wire::message::encode::bwtime;
        // The recording's last report: White 60 s, Black 55 s, Black to move.
        let mut link = resumed(60_000, 55_000, Color::Black);
        sent(&mut link);
        // The clock shows 55 s on the left and 60 s on the right: White sits on the right.
        // Running, the left player (Black) to move, the lever low on the right.
        let report = |status| {
            ClockReport::from_status(
                ClockTime::from_millis(60_000),
                ClockTime::from_millis(55_000),
                status,
            )
        };
        link.handle_bytes(100, &bwtime(&report(0x01 | 0x08)));
        // Black, on the left, presses: the lever rises on the right, the right side runs.
        link.handle_bytes(2_000, &bwtime(&report(0x01 | 0x02 | 0x10)));
        let presses: Vec<LinkEvent> = std::iter::from_fn(|| link.poll_event())
            .filter(|event| matches!(event, LinkEvent::Sensor(SensorKind::Clock(_))))
            .collect();
        assert_eq!(
            presses,
            [LinkEvent::Sensor(SensorKind::Clock(Color::Black))]
        );
    }

    #[test]
    fn close_resumed_times_wait_for_the_board_then_the_side_still_running_tells() {
        use crate::dgt::wire::clock::ClockTime;
        use crate::dgt::wire::message::encode::{board_dump, bwtime};
        use crate::dgt::wire::protocol::{code_from_piece, square_from_index};
        // The recording's last report: White 300 s, Black 299 s, White to move.
        let mut link = resumed(300_000, 299_000, Color::White);
        sent(&mut link);
        // White sits on the right: 2 s of White's time ran. 298 s against 299 s cannot tell
        // the sides by the times, and before the board's report a move may have been made.
        let running_right = ClockReport::from_status(
            ClockTime::from_millis(298_000),
            ClockTime::from_millis(299_000),
            0x01 | 0x10,
        );
        link.handle_bytes(100, &bwtime(&running_right));
        while link.poll_event().is_some() {}
        assert_eq!(
            link.sides.white(),
            ClockSide::Left,
            "not learnt yet: the left, as before"
        );
        let board = shakmaty::Board::new();
        let mut codes = [0x00; 64];
        for (index, code) in (0u8..).zip(codes.iter_mut()) {
            if let Some(square) = square_from_index(index) {
                *code = code_from_piece(board.piece_at(square));
            }
        }
        link.handle_bytes(200, &board_dump(&codes));
        while link.poll_event().is_some() {}
        // Nothing happened: the side that ran when the recording stopped (White's) still runs.
        link.handle_bytes(1_100, &bwtime(&running_right));
        while link.poll_event().is_some() {}
        assert_eq!(
            link.sides.white(),
            ClockSide::Right,
            "the running right side is White's"
        );
    }

    #[test]
    fn a_recording_that_knew_the_sides_settles_them() {
        let mut link = DgtLink::default();
        let recorded = ClockReading::new(
            touchmove_core::event::ClockTimes {
                white: 300_000,
                black: 300_000,
            },
            Some(Color::White),
        )
        .with_white_side(Some(ClockSide::Right));
        link.resume(&ResumePoint {
            last_move: None,
            to_move: Color::White,
            pressed: true,
            clock: Some(recorded),
        });
        assert_eq!(link.sides.settled_white(), Some(ClockSide::Right));
    }
}
